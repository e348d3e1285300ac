/**
 * The client's own record of the conversation, used to check hook evidence that any process could
 * send by running our hook binary: a user prompt counts only once the client's transcript shows
 * the user typing it, and a Read only when the transcript shows the agent calling that tool on that
 * file. The transcript must lie in the client's own folder, never in one the payload names
 * elsewhere:
 *   - Claude Code: `$CLAUDE_CONFIG_DIR/projects` (default `~/.claude/projects`), JSONL; a tool call
 *     is matched by its tool_use id;
 *   - Gemini CLI: `chats/` under `~/.gemini/tmp/<project>` (`$GEMINI_CLI_HOME` moves the home),
 *     JSONL (0.61; an older whole-JSON session file is read too); its hook payloads carry no call
 *     id, so a call is matched by tool and file, and only a completed one counts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How much of a transcript's end is read (a long conversation is megabytes; the evidence is recent). */
const TAIL_BYTES = 8 * 1024 * 1024;

export function claudeProjectsDir(): string {
  return path.join(process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'), 'projects');
}

/** Where Gemini CLI keeps its per-project folders (their `chats/` hold the session transcripts). */
export function geminiTmpDirs(): string[] {
  const home = process.env.GEMINI_CLI_HOME || os.homedir();
  // macOS's sandbox-exec moves Gemini's runtime folder under ~/.cache
  return [...new Set([path.join(home, '.gemini', 'tmp'), path.join(os.homedir(), '.cache', '.gemini', 'tmp')])];
}

const realOrUndefined = (p: string): string | undefined => {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
};

/** The transcript's real path when it is a Claude Code or Gemini CLI transcript file, else undefined. */
export function validTranscript(p: unknown): string | undefined {
  if (typeof p !== 'string' || p.length > 4096 || p.includes('\0') || !/\.jsonl?$/.test(p)) return undefined;
  const real = realOrUndefined(p);
  if (!real || !fs.statSync(real).isFile()) return undefined;
  const inside = (dir: string | undefined) => !!dir && real.startsWith(dir + path.sep);
  if (real.endsWith('.jsonl') && inside(realOrUndefined(claudeProjectsDir()))) return real;
  // Gemini: <tmp>/<project>/chats/<session>.json(l), or a subagent's under chats/<parent>/
  if (geminiTmpDirs().some((d) => inside(realOrUndefined(d))) && real.split(path.sep).includes('chats')) return real;
  return undefined;
}

type ToolCall = { id?: string; name?: string; args?: Record<string, unknown>; status?: string };
type Line = {
  type?: string; message?: { role?: string; content?: unknown }; content?: unknown; toolCalls?: ToolCall[];
  uuid?: string; id?: string; timestamp?: string; isSidechain?: boolean; isMeta?: boolean; isCompactSummary?: boolean; toolUseResult?: unknown;
  /** where the line starts in the file (its identity where it names none) */
  at?: number;
};

/** the last tail read, by file, size and change time: one hook settles many pieces of evidence against one transcript */
let lastTail: { key: string; lines: Line[] } | undefined;

/** The transcript's last lines, newest first (bounded read). */
function tail(file: string): Line[] {
  const fd = fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd);
    const key = `${file}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.ino}`;
    if (lastTail?.key === key) return lastTail.lines;
    const lines = readTail(fd, file, st.size);
    lastTail = { key, lines };
    return lines;
  } finally {
    fs.closeSync(fd);
  }
}

function readTail(fd: number, file: string, size: number): Line[] {
  const start = Math.max(0, size - TAIL_BYTES);
  const buf = Buffer.alloc(size - start);
  fs.readSync(fd, buf, 0, buf.length, start);
  if (file.endsWith('.json')) return wholeSession(buf, start);
  const out: Line[] = [];
  let end = buf.length;
  // newest first, each line with its byte offset
  for (let i = buf.length - 1; i >= -1; i--) {
    if (i >= 0 && buf[i] !== 0x0a) continue;
    const from = i + 1;
    if (i < 0 && start > 0) break; // a cut line
    const l = buf.subarray(from, end).toString('utf8').trim();
    end = i;
    if (!l) continue;
    try {
      const parsed = JSON.parse(l) as Line;
      if (parsed && typeof parsed === 'object') out.push({ ...parsed, at: start + from });
    } catch {
      // a line being written
    }
  }
  return out;
}

/** An older Gemini session file: one JSON object with its messages (read whole, when it fits). */
function wholeSession(buf: Buffer, start: number): Line[] {
  if (start > 0) return [];
  try {
    const messages = (JSON.parse(buf.toString('utf8')) as { messages?: unknown }).messages;
    return Array.isArray(messages) ? (messages as Line[]).map((m, i) => ({ ...m, at: i })).reverse() : [];
  } catch {
    return [];
  }
}

const fold = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();

/** The text blocks of a content list (tool results and other parts carry no typed text). */
function textOf(c: unknown): string | undefined {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return undefined;
  const texts = c.filter((b): b is { text: string } => !!b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' &&
    ((b as { type?: unknown }).type === 'text' || (b as { type?: unknown }).type === undefined));
  return texts.length > 0 ? texts.map((b) => b.text).join('\n') : undefined;
}

/** The text a user line carries: Claude Code's `message`, Gemini CLI's `content` parts. */
function userText(l: Line): string | undefined {
  if (l.type !== 'user') return undefined;
  if (l.message) return l.message.role === 'user' ? textOf(l.message.content) : undefined;
  return textOf(l.content);
}

/** How far a user line's own time may be from when the hook recorded its prompt. */
const PROMPT_WINDOW_MS = 2 * 60_000;

/**
 * Is this the conversation's own transcript (not a subagent's, whose "user" lines are prompts the
 * agent wrote)? Claude Code: `projects/<project>/<session>.jsonl`; Gemini CLI: `chats/<session>.json(l)`.
 */
function ownTranscript(file: string): boolean {
  const projects = realOrUndefined(claudeProjectsDir());
  if (projects && path.dirname(path.dirname(file)) === projects) return true;
  return path.basename(path.dirname(file)) === 'chats';
}

/**
 * The line of the transcript that shows the user typing this prompt, if one does: a line the user
 * typed (not a subagent's prompt, a tool result, a summary or the client's own notes), written
 * near `at` (when the hook recorded it), and not a line an earlier prompt was found as (`claimed`):
 * one line proves one prompt, so a prompt repeated or cut from a line already spoken proves
 * nothing. A slash command's arguments are stored inside its expansion. Returns the line's identity.
 */
export function transcriptPromptLine(file: string, prompt: string, at: number, claimed: ReadonlySet<string>): string | undefined {
  // a slash command's arguments are what its expansion shows; a bare command (`/code`) shows its name
  const want = fold(prompt.replace(/^\s*\/[\w:-]+\s*/, '')) || fold(prompt);
  if (!want || !ownTranscript(file)) return undefined;
  for (const l of tail(file)) {
    if (l.isSidechain === true || l.isMeta === true || l.isCompactSummary === true || l.toolUseResult !== undefined) continue;
    const text = userText(l);
    if (text === undefined || !fold(text).includes(want)) continue;
    const when = typeof l.timestamp === 'string' ? Date.parse(l.timestamp) : NaN;
    if (!Number.isNaN(when) && Math.abs(when - at) > PROMPT_WINDOW_MS) continue;
    const key = `${path.basename(file)}:${l.uuid ?? l.id ?? `@${l.at}`}`;
    if (!claimed.has(key)) return key;
  }
  return undefined;
}

/** Gemini CLI's names for the tools the guard calls by Claude Code's. */
const GEMINI_NAMES: Record<string, string[]> = { Read: ['read_file'] };

const samePath = (named: unknown, filePath: string | undefined) =>
  filePath === undefined || (typeof named === 'string' && path.resolve(named) === path.resolve(filePath));

/**
 * Did the agent call `tool` (and, when given, on this file)? Claude Code's call is the one with this
 * tool_use id; Gemini CLI's payloads carry no id, so any completed call of that tool on that file
 * counts (when an id is given, it must match too).
 */
export function transcriptHasToolUse(file: string, id: string | undefined, tool: string, filePath?: string, range?: { offset?: unknown; limit?: unknown }): boolean {
  // the range the hook was told must be the call's own: a payload replayed from a shell with a
  // real one-line Read's id and no limit claimed the whole file (red team adv16)
  const sameRange = (input: { offset?: unknown; limit?: unknown } | undefined) => !range || (num(input?.offset) === num(range.offset) && num(input?.limit) === num(range.limit));
  for (const l of tail(file)) {
    if (l.type === 'assistant' && Array.isArray(l.message?.content) && id !== undefined) {
      for (const b of l.message!.content as { type?: string; id?: string; name?: string; input?: { file_path?: unknown; path?: unknown; offset?: unknown; limit?: unknown } }[]) {
        if (b?.type !== 'tool_use' || b.id !== id || b.name !== tool) continue;
        return samePath(b.input?.file_path ?? b.input?.path, filePath) && sameRange(b.input);
      }
    }
    if (l.type === 'gemini' && Array.isArray(l.toolCalls)) {
      for (const c of l.toolCalls) {
        if (!c || !(GEMINI_NAMES[tool] ?? []).includes(c.name ?? '') || c.status !== 'success') continue;
        if (id !== undefined && c.id !== id) continue;
        if (samePath(c.args?.file_path ?? c.args?.absolute_path, filePath) && sameRange(c.args)) return true;
      }
    }
  }
  return false;
}

/** The result of tool call `id` as the transcript holds it (its text, and whether it is an error); undefined when it holds none (yet). */
export function transcriptToolResult(file: string, id: string): { text: string; error: boolean } | undefined {
  for (const l of tail(file)) {
    if (l.type !== 'user' || !Array.isArray(l.message?.content)) continue;
    for (const b of l.message!.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: unknown }[]) {
      if (b?.type !== 'tool_result' || b.tool_use_id !== id) continue;
      const c = b.content;
      const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (x && typeof x === 'object' && typeof (x as { text?: unknown }).text === 'string' ? (x as { text: string }).text : '')).join('\n') : '';
      return { text, error: b.is_error === true };
    }
  }
  return undefined;
}

/** The text of the result of tool call `id`, as the transcript holds it; undefined when it holds none. */
export function transcriptResultText(file: string, id: string): string | undefined {
  return transcriptToolResult(file, id)?.text;
}

/** Does a result text mention every one of these files (as the tool printed them)? */
export function resultMentions(text: string, files: string[], root: string): boolean {
  // as Grep prints a file it found: its path first on a line (`path`, `path:12:…`, `path-11-…`),
  // never a name that merely appears inside a line of another file
  const lines = text.split('\n');
  const listed = (p: string) => {
    const re = new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?::|-\\d+-|\\s*$)`);
    return lines.some((l) => re.test(l));
  };
  return files.every((f) => listed(f) || listed(path.join(root, f)));
}

/** A number as a client sends it (anything else: none). */
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The code-intel tools whose answers carry a phase change's token (start_session … abort_session). */
const SESSION_TOOL = /(?:^|__|_)(start_session|set_query_frame|submit_understanding|validate_symbol_relevance|confirm_symbol_relevance|semantic_search|submit_semantic|submit_verification|revert_to_exploration|end_session|abort_session)$/;
/** code-intel's own MCP tools as Claude Code names them (`mcp__code-intel__…`, or a plugin's `mcp__plugin_x_code-intel__…`), not another server's of the same name (red team adv25) */
const OWN_MCP_TOOL = /^mcp__(?:plugin_[\w-]+_)?code-intel__/;
/** Gemini CLI names an MCP tool bare, or `server__tool` where two servers share a name */
const GEMINI_OWN_TOOL = /^(?:code-intel__)?[a-z_]+$/;

/** The `witness` of an answer the client recorded: its text parsed as JSON, the top-level field only (an echo of the agent's words is no field of its own). */
function witnessesIn(v: unknown, out: Set<string>, depth = 0): void {
  if (depth > 4 || v == null) return;
  if (typeof v === 'string') {
    if (!v.includes('"witness"')) return;
    let found: unknown;
    try {
      found = (JSON.parse(v) as { witness?: unknown })?.witness;
    } catch {
      // an answer the client cut short: the token leads it (its first field), or it is no answer of ours
      found = /^\s*\{\s*"witness"\s*:\s*"([0-9a-f ]{16,2000})"/.exec(v)?.[1];
    }
    if (typeof found === 'string') for (const w of found.split(' ')) if (/^[0-9a-f]{16}$/.test(w)) out.add(w);
    return;
  }
  if (Array.isArray(v)) for (const x of v.slice(0, 50)) witnessesIn(x, out, depth + 1);
  else if (typeof v === 'object') {
    const o = v as { text?: unknown; output?: unknown; response?: unknown; functionResponse?: unknown; content?: unknown };
    for (const x of [o.text, o.output, o.response, o.functionResponse, o.content]) witnessesIn(x, out, depth + 1);
  }
}

/**
 * The tokens of phase changes that answers of code-intel's session tools carried to the client, as
 * its transcript holds them: only a call the agent made through the client (Claude Code: a tool_use
 * of an MCP tool and its tool_result; Gemini CLI: a completed tool call), never a shell command's
 * output, where a code-intel server the agent ran itself would print them.
 */
export function transcriptWitnesses(file: string): Set<string> {
  const out = new Set<string>();
  const calls = new Set<string>();
  const lines = tail(file);
  // each client's lines in its own transcripts only: a Gemini-shaped line appended to Claude Code's
  // transcript needed no call id at all (red team adv24)
  const projects = realOrUndefined(claudeProjectsDir());
  const claude = !!projects && file.startsWith(projects + path.sep);
  // (newest first: a result's call is on an older line)
  for (const l of lines) {
    if (l.type !== 'assistant' || !Array.isArray(l.message?.content)) continue;
    for (const b of l.message!.content as { type?: string; id?: string; name?: string }[]) {
      if (b?.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string' && OWN_MCP_TOOL.test(b.name) && SESSION_TOOL.test(b.name)) calls.add(b.id);
    }
  }
  for (const l of lines) {
    if (claude && l.type === 'user' && Array.isArray(l.message?.content)) {
      for (const b of l.message!.content as { type?: string; tool_use_id?: string; content?: unknown }[]) {
        if (b?.type === 'tool_result' && typeof b.tool_use_id === 'string' && calls.has(b.tool_use_id)) witnessesIn(b.content, out);
      }
    }
    if (!claude && l.type === 'gemini' && Array.isArray(l.toolCalls)) {
      for (const c of l.toolCalls as (ToolCall & { result?: unknown })[]) if (c && GEMINI_OWN_TOOL.test(c.name ?? '') && SESSION_TOOL.test(c.name ?? '') && c.status === 'success') witnessesIn(c.result, out);
    }
  }
  return out;
}
