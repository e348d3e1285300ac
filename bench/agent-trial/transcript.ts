/**
 * The Claude Code transcript of the trial (JSONL under $CLAUDE_CONFIG_DIR/projects), written the way
 * test/helpers/transcript.ts writes it: the guard counts a prompt or a Read only once this file shows it.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { TrialState } from './state.js';

function add(s: TrialState, line: Record<string, unknown>): void {
  const uuid = randomUUID();
  fs.appendFileSync(s.transcript, JSON.stringify({
    parentUuid: s.lastUuid, ...line, uuid, sessionId: s.sessionId, cwd: s.project, timestamp: new Date().toISOString(),
  }) + '\n');
  s.lastUuid = uuid;
}

/** What the user typed (a slash command is stored expanded, its arguments inside). */
export function userLine(s: TrialState, text: string): void {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
  const content = m ? `<command-message>${m[1]} is running…</command-message>\n<command-name>/${m[1]}</command-name>\n<command-args>${m[2]}</command-args>` : text;
  add(s, { type: 'user', userType: 'external', message: { role: 'user', content } });
}

/** The assistant calling a tool. */
export function toolUseLine(s: TrialState, id: string, name: string, input: Record<string, unknown>): void {
  add(s, { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
}

/** The tool's result, as the client records it (a user line with a tool_result block). */
export function toolResultLine(s: TrialState, id: string, text: string, isError: boolean): void {
  add(s, { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text, ...(isError ? { is_error: true } : {}) }] } });
}
