/**
 * OpenCode has no command hooks: its guard is a plugin (`.opencode/plugins/code-intel-guard.js`,
 * loaded by OpenCode at startup) that runs our hook process on `tool.execute.before` and `.after`
 * with OpenCode's own tool name and arguments (`--client=opencode`, src/hooks/dialects.ts). A denial
 * is thrown, which OpenCode reports to the model instead of running the tool; the undo notice of a
 * post-tool check is appended to the tool's output. The plugin imports nothing of code-intel, so a
 * moved or uninstalled code-intel cannot break its loading: in a project set up on this machine (a
 * `.code-intel/` at or above it) a hook that cannot run denies; elsewhere (a teammate without
 * code-intel who cloned the file) the plugin does nothing.
 */
import { HOOK_JS, HOOK_MARK } from './hook-command.js';

export const OPENCODE_PLUGIN_FILE = '.opencode/plugins/code-intel-guard.js';

/** The plugin's source; `portable`: it runs the `code-intel-hook` bin on PATH rather than this checkout's file. */
export function opencodePlugin(portable: boolean): string {
  const argv = portable ? ['code-intel-hook'] : ['node', HOOK_JS];
  return `// code-intel: the /code write guard for OpenCode. Written by \`code-intel init\`; \`code-intel init --remove\` takes it out.
// Each tool call is judged by code-intel's hook before it runs (a denial is thrown back to the model) and
// what it changed is checked after; where the hook cannot run, a project set up here denies.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const HOOK = ${JSON.stringify(argv)};

function setUp(dir) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.code-intel'))) return true;
    if (path.dirname(d) === d) return false;
  }
}

function hook(event, payload, cwd) {
  const r = spawnSync(HOOK[0], [...HOOK.slice(1), event, '--client=opencode', ${JSON.stringify(HOOK_MARK)}], {
    input: JSON.stringify(payload), cwd, encoding: 'utf8', timeout: 30000, maxBuffer: 4 * 1024 * 1024,
  });
  if (r.error || r.status !== 0) return { failed: (r.error ? r.error.message : 'exit status ' + r.status) + (r.stderr ? ': ' + r.stderr.trim().slice(0, 300) : '') };
  try {
    return { answer: r.stdout.trim() ? JSON.parse(r.stdout) : {} };
  } catch {
    return { failed: 'the hook answered something that is not JSON' };
  }
}

export const CodeIntelGuard = async ({ directory, worktree }) => {
  const root = directory || worktree || process.cwd();
  const payload = (event, input, args) => ({ hook_event_name: event, cwd: root, session_id: input.sessionID, tool_use_id: input.callID, tool: input.tool, args: args || {} });
  return {
    'tool.execute.before': async (input, output) => {
      if (!setUp(root)) return;
      const r = hook('pre-tool-use', payload('PreToolUse', input, output && output.args), root);
      if (r.failed) {
        throw new Error('code-intel: the write guard could not run (' + r.failed + '), so this call is denied to be safe. Reinstall code-intel (npm install -g code-intel) or run \`code-intel init\` again in this project; \`code-intel init --remove\` takes the guard out.');
      }
      const d = r.answer.hookSpecificOutput;
      if (d && d.permissionDecision === 'deny') throw new Error(d.permissionDecisionReason);
    },
    'tool.execute.after': async (input, output) => {
      if (!setUp(root)) return;
      const r = hook('post-tool-use', payload('PostToolUse', input, input.args), root);
      const note = r.answer && (r.answer.reason || r.answer.systemMessage);
      if (note && output && typeof output.output === 'string') output.output += '\\n\\n' + note;
    },
  };
};
`;
}
