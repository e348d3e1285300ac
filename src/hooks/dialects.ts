/**
 * Each client speaks its own hook dialect. The guard itself reasons on one canonical shape (Claude
 * Code's: tool_name Edit/Write/Bash/Read…, tool_input with file_path/command) and each dialect
 * translates the client's payload in and the decision out.
 *   Claude Code: PreToolUse / UserPromptSubmit / PostToolUse; deny = hookSpecificOutput.permissionDecision.
 *   Gemini CLI:  BeforeTool / BeforeAgent / AfterTool; deny = {decision: "deny", reason}; stdout always JSON.
 *   Cursor:      preToolUse, beforeShellExecution, beforeMCPExecution / beforeSubmitPrompt / beforeReadFile,
 *                afterShellExecution, afterMCPExecution, afterFileEdit, stop;
 *                deny = {permission: "deny", user_message, agent_message}.
 *   Codex:       PreToolUse / PostToolUse / UserPromptSubmit / Stop with Claude Code's payloads and
 *                answers (hooks.json, codex-rs/hooks); its shell is `Bash` ({command}), MCP tools are
 *                mcp__server__tool, and its edit tool `apply_patch` carries the patch text in
 *                tool_input.command: the files it names become the canonical ApplyPatch {file_paths}.
 *   OpenCode:    no command hooks; the plugin init writes (.opencode/plugins/code-intel-guard.js, from
 *                tool.execute.before/after) sends {hook_event_name, cwd, session_id, tool_use_id, tool,
 *                args} — OpenCode's own tool names and arguments (bash {command}, edit/write/read
 *                {filePath}, patch {patchText}, MCP tools as server_tool) — and reads Claude Code's answers.
 */
import path from 'node:path';
import { SERVER_TOOLS } from '../../machines/policy.js';
import type { HookEvent } from './hooks.js';

export type Client = 'claude-code' | 'gemini' | 'cursor' | 'codex' | 'opencode';
export const HOOK_CLIENTS: Client[] = ['claude-code', 'gemini', 'cursor', 'codex', 'opencode'];

export interface Payload {
  hook_event_name?: string;
  tool_use_id?: string;
  transcript_path?: string;
  stop_hook_active?: boolean;
  cwd?: string;
  session_id?: string;
  prompt?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_response?: unknown;
}

type Raw = Record<string, unknown>;
const obj = (x: unknown): Raw | undefined => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Raw) : undefined);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

const GEMINI_TOOLS: Record<string, string> = {
  write_file: 'Write', replace: 'Edit', run_shell_command: 'Bash', read_file: 'Read', read_many_files: 'Read', save_memory: 'SaveMemory',
};
const CURSOR_TOOLS: Record<string, string> = { Write: 'Write', Edit: 'Edit', StrReplace: 'Edit', Delete: 'Write', MultiEdit: 'MultiEdit', Shell: 'Bash' };

/**
 * The files an apply_patch envelope touches (`*** Add File: p`, `*** Update File: p`,
 * `*** Delete File: p`, and the target of `*** Move to: p`), in order, once each.
 */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  // lines as Codex and OpenCode split them, at \n only: a lone \r or U+2028 inside a header is part
  // of its path (a regex's ^…$ ended the line there, so `s\r/../../root/.bashrc` was judged as `s` —
  // red team adv29); Codex trims the line before reading it (codex-rs/apply-patch parser.rs) as Rust
  // trims, and OpenCode takes a header without the space after the colon
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to):\s*([\s\S]+)$/u.exec(rustTrim(line));
    if (m && !files.includes(m[1]!)) files.push(m[1]!);
  }
  return files;
}

/**
 * A line trimmed as Rust's `str::trim` trims it (Unicode White_Space): JavaScript's `trim` keeps
 * U+0085, so a header behind one was no header here and one to Codex (red team adv30). (It also
 * trims U+FEFF, which Rust keeps: a header more is judged, never one fewer.)
 */
const rustTrim = (line: string): string => line.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');

/** OpenCode's built-in tools in the guard's terms; anything else with an underscore is an MCP tool `server_tool`. */
const OPENCODE_TOOLS: Record<string, string> = {
  bash: 'Bash', write: 'Write', edit: 'Edit', multiedit: 'MultiEdit', read: 'Read', patch: 'ApplyPatch', apply_patch: 'ApplyPatch',
  grep: 'Grep', glob: 'Glob', list: 'LS', webfetch: 'WebFetch', todowrite: 'TodoWrite', todoread: 'TodoWrite', task: 'Task',
};

function opencode(raw: Raw): Payload {
  const tool = str(raw.tool) ?? '';
  const args = obj(raw.args) ?? {};
  const base = { hook_event_name: str(raw.hook_event_name), cwd: str(raw.cwd), session_id: str(raw.session_id), tool_use_id: str(raw.tool_use_id), tool_response: raw.tool_response };
  const name = OPENCODE_TOOLS[tool];
  const file = str(args.filePath) ?? str(args.file_path) ?? str(args.path);
  // its bash runs in `workdir` when given: relative targets are judged there
  if (name === 'Bash') return { ...base, cwd: shellDir(base.cwd, args.workdir), tool_name: name, tool_input: { command: args.command, ...(typeof args.timeout === 'number' ? { timeout: args.timeout } : {}) } };
  // batch runs its calls itself (the plugin's hooks see only `batch`): each call, as the guard reads it
  if (tool === 'batch') {
    const calls = Array.isArray(args.tool_calls) ? args.tool_calls.slice(0, 64) : [];
    return { ...base, tool_name: 'Batch', tool_input: { calls: calls.map((c) => opencode({ ...raw, tool: obj(c)?.tool, args: obj(c)?.parameters ?? obj(c)?.args })) } };
  }
  if (name === 'ApplyPatch') {
    const patch = str(args.patchText) ?? str(args.patch) ?? str(args.input) ?? '';
    return { ...base, tool_name: name, tool_input: { file_paths: patchFiles(patch) } };
  }
  if (name === 'Write' || name === 'Edit' || name === 'MultiEdit') return { ...base, tool_name: name, tool_input: { file_path: file } };
  if (name === 'Read') return { ...base, tool_name: name, tool_input: { file_path: file, offset: args.offset, limit: args.limit } };
  if (name) return { ...base, tool_name: name, tool_input: args };
  // our own server, whether or not the client kept the hyphen of its name
  const own = /^code[-_]intel_(.+)$/.exec(tool);
  if (own) return { ...base, tool_name: `mcp__code-intel__${own[1]}`, tool_input: args };
  const i = tool.indexOf('_');
  return { ...base, tool_name: i > 0 ? `mcp__${tool.slice(0, i)}__${tool.slice(i + 1)}` : tool, tool_input: args };
}

export function normalize(client: Client, raw: Raw): Payload {
  if (client === 'claude-code') return raw as Payload;
  if (client === 'opencode') return opencode(raw);
  if (client === 'codex') {
    const p = raw as Payload;
    // its shell tools run in `workdir` when given (shell, exec_command): relative targets are judged there
    if (p.tool_name === 'Bash' && p.tool_input && (typeof p.tool_input.workdir === 'string' || typeof p.tool_input.cwd === 'string')) {
      return { ...p, cwd: shellDir(p.cwd, p.tool_input.workdir ?? p.tool_input.cwd) };
    }
    if (p.tool_name !== 'apply_patch') return p;
    const patch = p.tool_input?.command;
    return { ...p, tool_name: 'ApplyPatch', tool_input: { file_paths: typeof patch === 'string' ? patchFiles(patch) : [] } };
  }
  const hook_event_name = str(raw.hook_event_name);
  if (client === 'gemini') {
    const name = str(raw.tool_name);
    const input = obj(raw.tool_input);
    const mapped = name ? GEMINI_TOOLS[name] ?? name : undefined;
    // Gemini's read_file names its path absolute_path; the guard reads file_path
    const tool_input = input && mapped === 'Read' && input.file_path === undefined ? { ...input, file_path: input.absolute_path }
      // its shell's background flag is `is_background` (red team adv29: not refused as run_in_background is)
      : input && mapped === 'Bash' ? { ...input, run_in_background: input.run_in_background === true || input.is_background === true }
      : input;
    // run_shell_command runs in `dir_path` (older versions: `directory`), relative to the project: its targets are judged there
    const cwd = mapped === 'Bash' ? shellDir(str(raw.cwd), input?.dir_path ?? input?.directory) : str(raw.cwd);
    return {
      hook_event_name, cwd, session_id: str(raw.session_id), transcript_path: str(raw.transcript_path), prompt: str(raw.prompt),
      tool_name: mapped, tool_input, tool_response: raw.tool_response,
    };
  }
  // Cursor: the project is the first workspace root; shell and MCP calls have their own events
  const roots = Array.isArray(raw.workspace_roots) ? raw.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
  const cwd = roots[0] ?? str(raw.cwd);
  const event = str(raw.hook_event_name);
  const base = { hook_event_name, cwd, session_id: str(raw.conversation_id), prompt: str(raw.prompt) };
  if (event === 'beforeShellExecution' || event === 'afterShellExecution') return { ...base, tool_name: 'Bash', tool_input: { command: raw.command } };
  if (event === 'afterFileEdit') return { ...base, tool_name: 'Write', tool_input: { file_path: raw.file_path } };
  if (event === 'beforeReadFile') return { ...base, tool_name: 'Read', tool_input: { file_path: raw.file_path } };
  if (event === 'beforeMCPExecution' || event === 'afterMCPExecution') {
    const input = obj(raw.tool_input) ?? (typeof raw.tool_input === 'string' ? safeJson(raw.tool_input) : undefined);
    const tool = str(raw.tool_name) ?? '';
    return { ...base, tool_name: `mcp__${cursorServer(raw, tool)}__${tool}`, tool_input: input ?? {} };
  }
  const name = str(raw.tool_name);
  return { ...base, tool_name: name ? CURSOR_TOOLS[name] ?? name : undefined, tool_input: obj(raw.tool_input) };
}

/**
 * The server of a Cursor MCP call. Its payload names the server's launch `command` (or `url`), not
 * its name: ours is the one launched as code-intel's server (`code-intel serve`, `node …/cli/main.js
 * serve`, as init writes .cursor/mcp.json); with neither, a name of our tools. Read as another
 * server's, code-intel's own tools were refused before READY (red team adv29 noticed).
 */
function cursorServer(raw: Raw, tool: string): string {
  const named = str(raw.server);
  if (named) return named;
  // a tool of another name is never ours, whatever its server's command says (red team adv30: a
  // filesystem server launched as `node …/cli/main.js serve /` passed its write_file as ours); one of
  // our names is ours unless its server is launched otherwise (a url, another program)
  if (!SERVER_TOOLS.has(tool) || str(raw.url)) return 'server';
  const command = str(raw.command);
  return !command || /(?:^|[\s/\\])(?:code-intel|node)(?:\.js|\.exe|\.cmd)?(?:\s|$)/.test(command) ? 'code-intel' : 'server';
}

/** The folder a shell tool runs its command in: `dir` (relative to `cwd`) when the call names one. */
function shellDir(cwd: string | undefined, dir: unknown): string | undefined {
  if (typeof dir !== 'string' || !dir || !cwd || !path.isAbsolute(cwd)) return cwd;
  return path.resolve(cwd, dir);
}

function safeJson(s: string): Raw | undefined {
  try {
    return obj(JSON.parse(s));
  } catch {
    return undefined;
  }
}

/**
 * What to print for a decision (deny: the reason; undefined: allow), with a notice for the agent
 * and the person when the guard undid something (`hookEvent` tells PostToolUse from its failure twin).
 */
export function format(client: Client, event: HookEvent, deny: string | undefined, notice?: string, hookEvent?: string, stopActive = false): string {
  const reason = deny ? `code-intel: ${deny}` : undefined;
  const note = notice ? `code-intel: ${notice}` : undefined;
  // Codex and our OpenCode plugin read Claude Code's answers (PostToolUseFailure never comes from them)
  if (client === 'claude-code' || client === 'codex' || client === 'opencode') {
    if (event === 'pre-tool-use') {
      if (reason) return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
      // no decision (the call goes on as it would): the notice reaches the model as context
      return note ? JSON.stringify({ systemMessage: note, hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: note } }) : '';
    }
    if (!note) return '';
    if (event === 'post-tool-use' && hookEvent === 'PostToolUseFailure') {
      return JSON.stringify({ systemMessage: note, hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: note } });
    }
    if (event === 'post-tool-use') return JSON.stringify({ decision: 'block', reason: note, systemMessage: note });
    if (event === 'user-prompt-submit') return JSON.stringify({ systemMessage: note, hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: note } });
    // Stop: the model hears of it once (block makes it go on with the reason; not again while a stop hook is active)
    if (event === 'stop' && !stopActive) return JSON.stringify({ decision: 'block', reason: note, systemMessage: note });
    return JSON.stringify({ systemMessage: note });
  }
  if (client === 'gemini') {
    if (reason && event === 'pre-tool-use') return JSON.stringify({ decision: 'deny', reason });
    return JSON.stringify(note ? { systemMessage: note } : {});
  }
  if (event === 'user-prompt-submit') return JSON.stringify({ continue: true });
  if (event === 'pre-tool-use') return JSON.stringify(reason ? { permission: 'deny', user_message: reason, agent_message: reason } : { permission: 'allow' });
  // Cursor's before* events (beforeReadFile records a read) still expect a permission
  return JSON.stringify(hookEvent?.startsWith('before') ? { permission: 'allow' } : {});
}
