/**
 * The client's own record of the conversation, used to check hook evidence that any process could
 * send by running our hook binary: a user prompt counts only once the Claude Code transcript shows
 * the user typing it, and a Read only when the transcript shows the assistant calling that tool on
 * that file (by its tool_use id). The transcript must lie in the client's own folder
 * (`$CLAUDE_CONFIG_DIR/projects`, default `~/.claude/projects`), never in one the payload names
 * elsewhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How much of a transcript's end is read (a long conversation is megabytes; the evidence is recent). */
const TAIL_BYTES = 8 * 1024 * 1024;

export function claudeProjectsDir(): string {
  return path.join(process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'), 'projects');
}

/** The transcript's real path when it is a Claude Code transcript file, else undefined. */
export function validTranscript(p: unknown): string | undefined {
  if (typeof p !== 'string' || !p.endsWith('.jsonl') || p.length > 4096 || p.includes('\0')) return undefined;
  try {
    const real = fs.realpathSync(p);
    const base = fs.realpathSync(claudeProjectsDir());
    if (!real.startsWith(base + path.sep) || !fs.statSync(real).isFile()) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

type Line = { type?: string; message?: { role?: string; content?: unknown } };

/** The transcript's last lines, newest first (bounded read). */
function tail(file: string): Line[] {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    const lines = buf.toString('utf8').split('\n');
    if (start > 0) lines.shift(); // a cut line
    const out: Line[] = [];
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i]!.trim();
      if (!l) continue;
      try {
        out.push(JSON.parse(l) as Line);
      } catch {
        // a line being written
      }
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

const fold = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();

/** The text a user line carries (a plain string, or text blocks; tool results are not typed by the user). */
function userText(l: Line): string | undefined {
  if (l.type !== 'user' || l.message?.role !== 'user') return undefined;
  const c = l.message.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return undefined;
  const texts = c.filter((b): b is { type: string; text: string } => !!b && typeof b === 'object' && (b as { type?: string }).type === 'text' && typeof (b as { text?: unknown }).text === 'string');
  return texts.length > 0 ? texts.map((b) => b.text).join('\n') : undefined;
}

/** Did the user type this prompt? (A slash command's arguments are stored inside its expansion.) */
export function transcriptHasPrompt(file: string, prompt: string): boolean {
  const want = fold(prompt.replace(/^\s*\/[\w:-]+\s*/, ''));
  if (!want) return false;
  for (const l of tail(file)) {
    const text = userText(l);
    if (text !== undefined && fold(text).includes(want)) return true;
  }
  return false;
}

/** Did the assistant call `tool` with this tool_use id (and, when given, on this file)? */
export function transcriptHasToolUse(file: string, id: string, tool: string, filePath?: string): boolean {
  for (const l of tail(file)) {
    if (l.type !== 'assistant' || !Array.isArray(l.message?.content)) continue;
    for (const b of l.message!.content as { type?: string; id?: string; name?: string; input?: { file_path?: unknown; path?: unknown } }[]) {
      if (b?.type !== 'tool_use' || b.id !== id || b.name !== tool) continue;
      if (filePath === undefined) return true;
      const named = b.input?.file_path ?? b.input?.path;
      return typeof named === 'string' && path.resolve(named) === path.resolve(filePath);
    }
  }
  return false;
}

/** Does the result of tool call `id` mention every one of these files (as the tool printed them)? */
export function transcriptResultMentions(file: string, id: string, files: string[], root: string): boolean {
  for (const l of tail(file)) {
    if (l.type !== 'user' || !Array.isArray(l.message?.content)) continue;
    for (const b of l.message!.content as { type?: string; tool_use_id?: string; content?: unknown }[]) {
      if (b?.type !== 'tool_result' || b.tool_use_id !== id) continue;
      const c = b.content;
      const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (x && typeof x === 'object' && typeof (x as { text?: unknown }).text === 'string' ? (x as { text: string }).text : '')).join('\n') : '';
      return files.every((f) => text.includes(f) || text.includes(path.join(root, f)));
    }
  }
  return false;
}
