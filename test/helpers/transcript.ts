/**
 * A Claude Code transcript as the client writes it (JSONL under $CLAUDE_CONFIG_DIR/projects), so
 * hook payloads can name a real one: the guard counts a prompt or a Read only when the transcript
 * shows it.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class Transcript {
  readonly sessionId = randomUUID();
  readonly path: string;

  constructor() {
    const dir = path.join(process.env.CLAUDE_CONFIG_DIR ?? '/nonexistent', 'projects', 'code-intel-test');
    fs.mkdirSync(dir, { recursive: true });
    this.path = path.join(dir, `${this.sessionId}.jsonl`);
    fs.writeFileSync(this.path, '');
  }

  private add(line: Record<string, unknown>): void {
    fs.appendFileSync(this.path, JSON.stringify({ ...line, uuid: randomUUID(), sessionId: this.sessionId, timestamp: new Date().toISOString() }) + '\n');
  }

  /** What the user typed (a slash command is stored expanded, its arguments inside). */
  user(text: string): void {
    const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
    const content = m ? `<command-message>${m[1]} is running…</command-message>\n<command-name>/${m[1]}</command-name>\n<command-args>${m[2]}</command-args>` : text;
    this.add({ type: 'user', userType: 'external', message: { role: 'user', content } });
  }

  /** The assistant calling a tool; a Read's result follows, as Claude Code writes it (`cat -n` lines, or an error). */
  toolUse(id: string, name: string, input: Record<string, unknown>): void {
    this.add({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
    if (name === 'Read' && typeof input.file_path === 'string') this.readResult(id, input as { file_path: string; offset?: number; limit?: number });
  }

  /** What Claude Code's Read answered: the lines from `offset` (1-based), `limit` of them (2000 by default). */
  private readResult(id: string, input: { file_path: string; offset?: number; limit?: number }): void {
    let text: string;
    try {
      const lines = fs.readFileSync(input.file_path, 'utf8').split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop();
      const first = Math.max(1, input.offset ?? 1);
      const shown = lines.slice(first - 1, first - 1 + (input.limit ?? 2000));
      text = shown.map((l, i) => `${String(first + i).padStart(6)}\t${l}`).join('\n');
    } catch (e) {
      this.add({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `<tool_use_error>${(e as Error).message}</tool_use_error>`, is_error: true }] } });
      return;
    }
    this.toolResult(id, text);
  }

  toolResult(id: string, text: string): void {
    this.add({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } });
  }
}

/**
 * A Gemini CLI session transcript as 0.61 writes it: JSONL under
 * `$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/`, a metadata line, then one line per message
 * (a message written again, e.g. when its tool calls complete, appears again with the same id).
 */
export class GeminiTranscript {
  readonly sessionId = randomUUID();
  readonly path: string;

  constructor() {
    const dir = path.join(process.env.GEMINI_CLI_HOME ?? '/nonexistent', '.gemini', 'tmp', 'code-intel-test', 'chats');
    fs.mkdirSync(dir, { recursive: true });
    this.path = path.join(dir, `session-${new Date().toISOString().slice(0, 16).replace(/:/g, '-')}-${this.sessionId.slice(0, 8)}.jsonl`);
    fs.writeFileSync(this.path, JSON.stringify({ sessionId: this.sessionId, projectHash: 'x', startTime: new Date().toISOString(), lastUpdated: new Date().toISOString() }) + '\n');
  }

  private add(line: Record<string, unknown>): void {
    fs.appendFileSync(this.path, JSON.stringify({ id: randomUUID(), timestamp: new Date().toISOString(), ...line }) + '\n');
  }

  /** What the user typed: its parts. */
  user(text: string): void {
    this.add({ type: 'user', content: [{ text }] });
  }

  /** A completed tool call of the model (Gemini records calls when they finish). */
  toolCall(name: string, args: Record<string, unknown>, status = 'success'): void {
    this.add({ type: 'gemini', content: '', toolCalls: [{ id: `${name}-${randomUUID().slice(0, 8)}`, name, args, result: [], status, timestamp: new Date().toISOString() }] });
  }
}
