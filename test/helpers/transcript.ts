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

  /** The assistant calling a tool. */
  toolUse(id: string, name: string, input: Record<string, unknown>): void {
    this.add({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
  }

  toolResult(id: string, text: string): void {
    this.add({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } });
  }
}
