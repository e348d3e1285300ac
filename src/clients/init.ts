/**
 * `code-intel init`: writes what each client needs into a user's project, merging into existing
 * files (a user's settings are never lost), idempotently, with a dry-run that shows the changes.
 * `init --remove` runs the same table backwards: it takes out exactly what init adds and nothing
 * a user wrote.
 *
 * Where the guard's hooks live (a committed hook that fails closed must not lock out a teammate who
 * never installed code-intel):
 *  - Claude Code: .claude/settings.local.json, the per-user settings git does not see (init adds
 *    it to the clone's .git/info/exclude when nothing ignores it yet). Hooks an earlier init put in
 *    the committed .claude/settings.json move there. The MCP server stays in .mcp.json.
 *  - Gemini CLI, Cursor: no per-user project settings exist, so the hooks stay in the project
 *    files; the hook command lets everything through where the project was never set up on the
 *    machine (hook-command.ts), and Gemini CLI runs nothing in a folder its user did not trust.
 *  - Codex: .codex/hooks.json; Codex runs no project hook its user has not reviewed and trusted.
 *  - OpenCode: a plugin in .opencode/plugins/ (opencode-plugin.ts) that does nothing where the
 *    project was never set up on the machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../util/paths.js';
import { CODE_COMMAND } from './code-command.js';
import { OPENCODE_PLUGIN_FILE, opencodePlugin } from './opencode-plugin.js';
import { asObj, editHookGroups, type FileChange, type Json, jsonChange, readJson, readText, withKey } from './config-files.js';
import { planExclude, planUnexclude } from './git-exclude.js';
import { CODEX_HOOKS_FILE, CURSOR_HOOKS_FILE, HOOK_JS, hookCommand, isOurHook } from './hook-command.js';
import type { Client as HookClient } from '../hooks/dialects.js';

export { applyChanges as applyInit, describeChange, type FileChange } from './config-files.js';

export type ClientName = 'claude-code' | 'cursor' | 'gemini' | 'codex' | 'opencode';
export const CLIENTS: ClientName[] = ['claude-code', 'cursor', 'gemini', 'codex', 'opencode'];

const CLI_JS = path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');
/** how long a client waits for the server to start (it answers initialize at once; a cold node start on a slow disk takes a few seconds) */
const STARTUP_TIMEOUT_S = 30;
/** how long a hook may run: the pre-tool guard waits at most 5 s on a busy database */
const HOOK_TIMEOUT_S = 30;

/**
 * Configs people commit travel when they name the `code-intel` command rather than this machine's
 * path: used when the `code-intel` on PATH is this very installation (a global install). From a
 * development checkout, the paths of the checkout are written (and init says so).
 */
const onPathCache = new Map<string, boolean>();
/** The command `name` on PATH is this installation's `file` (a global install's bin link). */
function installed(name: string, file: string): boolean {
  let hit = onPathCache.get(name);
  if (hit !== undefined) return hit;
  hit = false;
  if (process.env.CODE_INTEL_INIT_ABSOLUTE !== '1') {
    const mine = fs.realpathSync(file);
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      try {
        if (fs.realpathSync(path.join(dir, name)) === mine) {
          hit = true;
          break;
        }
      } catch {
        /* not there */
      }
    }
  }
  onPathCache.set(name, hit);
  return hit;
}
/** `code-intel` and its hook entry (`code-intel-hook`, a bin of its own: a hook must not load the whole CLI) are this installation. */
export function onPath(): boolean {
  return installed('code-intel', CLI_JS) && installed('code-intel-hook', HOOK_JS);
}

const serverEntry = () => (onPath() ? { command: 'code-intel', args: ['serve', '.'] } : { command: 'node', args: [CLI_JS, 'serve', '.'] });
const hook = (event: string, client: HookClient) => hookCommand(event, client, onPath());

type Mode = 'add' | 'remove';

/** `d` with our MCP server entry under `key` (added, or taken out: a servers object left empty goes too). */
function withServer(d: Json, key: string, mode: Mode, entry: Json): Json {
  const current = asObj(d[key]);
  if (mode === 'add') return { ...d, [key]: { ...current, 'code-intel': entry } };
  if (!('code-intel' in current)) return d;
  const servers = withKey(current, 'code-intel', undefined);
  return withKey(d, key, Object.keys(servers).length ? servers : undefined);
}

/** A file of MCP servers: ours under `key`; `extra` is what init adds beside it (a file left with only that goes on removal). */
function mcpEntry(file: string, mode: Mode, entry: Json, key = 'mcpServers', extra: Json = {}): FileChange {
  const { text, data } = readJson(file);
  const next = withServer(mode === 'add' ? { ...extra, ...data } : data, key, mode, entry);
  const onlyInit = mode === 'remove' && next !== data && Object.keys(next).every((k) => JSON.stringify(next[k]) === JSON.stringify(extra[k]));
  return jsonChange(file, text, data, onlyInit ? {} : next, mode === 'remove');
}

/** A settings file's hook groups: ours (added, or taken out); `ours` empty: only take ours out (the migration). */
function hookGroups(file: string, mode: Mode, ours: Record<string, Json>, extra: (data: Json) => Json = (d) => d): FileChange {
  const { text, data } = readJson(file);
  const hooks = editHookGroups(data.hooks, isOurHook, mode === 'add' ? ours : {});
  const next = extra(withKey(data, 'hooks', hooks));
  return jsonChange(file, text, data, next, mode === 'remove');
}

/** `d` with `value` in the list at the path `keys` (added once, or taken out: a list or object left empty goes too). */
function withListEntry(d: Json, keys: string[], value: string, mode: Mode): Json {
  const [key, ...rest] = keys as [string, ...string[]];
  if (rest.length > 0) {
    const inner = withListEntry(asObj(d[key]), rest, value, mode);
    return withKey(d, key, Object.keys(inner).length ? inner : undefined);
  }
  const list = Array.isArray(d[key]) ? (d[key] as unknown[]) : [];
  if (mode === 'add') return list.includes(value) ? d : { ...d, [key]: [...list, value] };
  if (!list.includes(value)) return d;
  const left = list.filter((x) => x !== value);
  return withKey(d, key, left.length ? left : undefined);
}

/**
 * The person who ran init chose this server, in their per-user settings:
 *  - Claude Code asks before every MCP call it has no rule for (twenty clicks a session); none of our
 *    tools writes a file (the session tools move the gate, the guard judges writes), so
 *    `permissions.allow` gets `mcp__code-intel`, every tool of the server;
 *  - `enabledMcpjsonServers` approves the server, so Claude Code does not hold it at "Pending
 *    approval" once the folder is trusted (checked with claude 2.1.330: `claude mcp list` →
 *    Connected, 0.6 s cold on three.js).
 */
const withClaudeApproval = (d: Json, mode: Mode): Json =>
  withListEntry(withListEntry(d, ['permissions', 'allow'], 'mcp__code-intel', mode), ['enabledMcpjsonServers'], 'code-intel', mode);

const claudeHooks = (): Record<string, Json> => {
  const entry = (event: string, extra: Json = {}) => ({ type: 'command', command: hook(event, 'claude-code'), timeout: HOOK_TIMEOUT_S, ...extra });
  // every tool and every turn boundary: the guard checks what really changed at each of them.
  // onFailure "block" (Claude Code ≥ 2.1.295; older ones ignore the key): a hook that times out or
  // answers something invalid blocks the call as exit code 2 would.
  return {
    PreToolUse: { matcher: '*', hooks: [entry('pre-tool-use', { onFailure: 'block' })] },
    PostToolUse: { matcher: '*', hooks: [entry('post-tool-use')] },
    PostToolUseFailure: { matcher: '*', hooks: [entry('post-tool-use')] },
    UserPromptSubmit: { hooks: [entry('user-prompt-submit')] },
    Stop: { hooks: [entry('stop')] },
    SubagentStop: { hooks: [entry('stop')] },
  };
};

/** Gemini CLI: timeouts in milliseconds; exit code 2 blocks. */
const geminiHooks = (): Record<string, Json> => {
  const entry = (event: string) => ({ type: 'command', name: `code-intel ${event}`, command: hook(event, 'gemini'), timeout: HOOK_TIMEOUT_S * 1000 });
  return {
    BeforeTool: { matcher: '.*', hooks: [entry('pre-tool-use')] },
    AfterTool: { matcher: '.*', hooks: [entry('post-tool-use')] },
    BeforeAgent: { hooks: [entry('user-prompt-submit')] },
    AfterAgent: { hooks: [entry('stop')] },
  };
};

/** Codex: hooks.json in Claude Code's shape (no matcher: every tool: shell, apply_patch, MCP tools). */
const codexHooks = (): Record<string, Json> => {
  const entry = (event: string) => ({ type: 'command', command: hook(event, 'codex'), timeout: HOOK_TIMEOUT_S, statusMessage: `code-intel ${event}` });
  return {
    PreToolUse: { hooks: [entry('pre-tool-use')] },
    PostToolUse: { hooks: [entry('post-tool-use')] },
    UserPromptSubmit: { hooks: [entry('user-prompt-submit')] },
    Stop: { hooks: [entry('stop')] },
  };
};

/**
 * Cursor: .cursor/hooks.json, version 1, event → [{command, matcher?, failClosed?}]. The gating
 * events fail closed (Cursor otherwise lets a crashed, timed-out or garbled hook through).
 */
function cursorHooks(file: string, mode: Mode): FileChange {
  const { text, data } = readJson(file);
  const hooks = asObj(data.hooks);
  const ours: [string, string, string?][] = [
    ['preToolUse', 'pre-tool-use', 'Write|Edit|StrReplace|Delete|MultiEdit|EditNotebook'],
    ['beforeShellExecution', 'pre-tool-use'],
    ['beforeMCPExecution', 'pre-tool-use'],
    ['beforeSubmitPrompt', 'user-prompt-submit'],
    ['beforeReadFile', 'post-tool-use'],
    ['afterShellExecution', 'post-tool-use'],
    ['afterMCPExecution', 'post-tool-use'],
    ['afterFileEdit', 'post-tool-use'],
    ['stop', 'stop'],
  ];
  const merged: Json = {};
  for (const [name, list] of Object.entries(hooks)) {
    if (!Array.isArray(list) || !list.some(isOurHook)) merged[name] = list;
    else if (list.some((h) => !isOurHook(h))) merged[name] = list.filter((h) => !isOurHook(h));
  }
  if (mode === 'add') {
    for (const [name, event, matcher] of ours) {
      const entry = { command: hook(event, 'cursor'), ...(matcher ? { matcher } : {}), ...(event === 'pre-tool-use' ? { failClosed: true } : {}) };
      merged[name] = [...(Array.isArray(merged[name]) ? (merged[name] as unknown[]) : []), entry];
    }
    return jsonChange(file, text, data, { ...data, version: 1, hooks: merged });
  }
  // init wrote version 1 and hooks; with none of anyone's hooks left, the file was only ours
  const left = Object.keys(merged).length ? { ...data, hooks: merged } : withKey(data, 'hooks', Object.keys(hooks).length ? undefined : data.hooks);
  const onlyOurs = Object.keys(left).every((k) => k === 'version');
  return jsonChange(file, text, data, onlyOurs ? {} : left, true);
}

/**
 * Codex reads project MCP servers from .codex/config.toml ([mcp_servers.NAME], trusted projects).
 * Our table is replaced in place as text, so the user's other tables and comments survive.
 */
function codexConfig(file: string, mode: Mode): FileChange {
  const before = readText(file);
  const str = (x: string) => JSON.stringify(x); // a TOML basic string has JSON's escapes
  const entry = serverEntry();
  const ours = `[mcp_servers.code-intel]\ncommand = ${str(entry.command)}\nargs = [${entry.args.map(str).join(', ')}]\nstartup_timeout_sec = ${STARTUP_TIMEOUT_S}\n`;
  const kept: string[] = [];
  let skipping = false;
  for (const line of (before ?? '').split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) skipping = header[1] === 'mcp_servers.code-intel' || header[1]!.startsWith('mcp_servers.code-intel.');
    if (!skipping) kept.push(line);
  }
  const rest = kept.join('\n').replace(/\n+$/, '');
  if (mode === 'add') return { file, before, after: (rest ? rest + '\n\n' : '') + ours };
  if (before === null) return { file, before, after: before };
  if (rest === before.replace(/\n+$/, '')) return { file, before, after: before };
  return { file, before, after: rest.trim() ? rest + '\n' : null };
}

/** A file init writes whole: removed only while it is exactly what init writes (an edited one is the user's now). */
function ownFile(file: string, mode: Mode, content: string, kept: Kept[]): FileChange {
  const before = readText(file);
  if (mode === 'add') return { file, before, after: content };
  if (before !== null && before !== content) kept.push({ file, why: 'it differs from what init writes (edited, or from another version of code-intel); delete it yourself if it is not yours' });
  return { file, before, after: before === content ? null : before };
}

export interface Kept { file: string; why: string }

function plan(root: string, clients: ClientName[], mode: Mode, kept: Kept[]): FileChange[] {
  const changes: (FileChange | undefined)[] = [];
  for (const c of clients) {
    if (c === 'claude-code') {
      changes.push(mcpEntry(path.join(root, '.mcp.json'), mode, { type: 'stdio', ...serverEntry() }));
      changes.push(ownFile(path.join(root, '.claude', 'commands', 'code.md'), mode, CODE_COMMAND, kept));
      // the hooks are per-user: settings.local.json; an earlier init's hooks leave the committed settings.json
      changes.push(hookGroups(path.join(root, '.claude', 'settings.json'), 'remove', {}));
      changes.push(hookGroups(path.join(root, '.claude', 'settings.local.json'), mode, claudeHooks(), (d) => withClaudeApproval(d, mode)));
      changes.push(mode === 'add' ? planExclude(root, '.claude/settings.local.json') : planUnexclude(root, '.claude/settings.local.json'));
    } else if (c === 'cursor') {
      changes.push(mcpEntry(path.join(root, '.cursor', 'mcp.json'), mode, serverEntry()));
      changes.push(cursorHooks(path.join(root, CURSOR_HOOKS_FILE), mode));
    } else if (c === 'gemini') {
      // Gemini CLI has no per-user project settings: hooks and server in .gemini/settings.json
      const file = path.join(root, '.gemini', 'settings.json');
      changes.push(hookGroups(file, mode, geminiHooks(), (d) => withServer(d, 'mcpServers', mode, { ...serverEntry(), cwd: '.' })));
    } else if (c === 'codex') {
      changes.push(codexConfig(path.join(root, '.codex', 'config.toml'), mode));
      changes.push(hookGroups(path.join(root, CODEX_HOOKS_FILE), mode, codexHooks()));
    } else if (c === 'opencode') {
      const entry = serverEntry();
      changes.push(mcpEntry(path.join(root, 'opencode.json'), mode, { type: 'local', command: [entry.command, ...entry.args], enabled: true, timeout: STARTUP_TIMEOUT_S * 1000 }, 'mcp', { $schema: 'https://opencode.ai/config.json' }));
      // OpenCode has no command hooks: the guard is a plugin it loads from the project (opencode-plugin.ts)
      changes.push(ownFile(path.join(root, OPENCODE_PLUGIN_FILE), mode, opencodePlugin(onPath()), kept));
    }
  }
  return changes.filter((ch): ch is FileChange => !!ch && ch.before !== ch.after);
}

export function planInit(root: string, clients: ClientName[]): FileChange[] {
  return plan(root, clients, 'add', []);
}

/** What init --remove changes, and the files it leaves because they are no longer only init's. */
export function planRemove(root: string, clients: ClientName[] = CLIENTS): { changes: FileChange[]; kept: Kept[] } {
  const kept: Kept[] = [];
  return { changes: plan(root, clients, 'remove', kept), kept };
}
