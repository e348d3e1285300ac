/**
 * A READY the client saw happen. Every phase change of a session is made by a call of a session
 * tool, whose answer carries the change's token (`witness`); the write guard honours a READY only
 * when the conversation's transcript shows each token in the answer of a code-intel tool the client
 * called. A code-intel server the agent runs from a shell reaches the same database but not the
 * client: its answers go to the command's output (red team adv23 drove a session to READY that
 * way, with the project's tree cut down for the moment so that the minimums shrank).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionStore } from '../session/store.js';
import { transcriptWitnesses, validTranscript } from './transcript.js';

/** Why the session's phase changes are not all the client's, or undefined when they are (or the client keeps no transcript the guard reads). */
export function unwitnessed(store: SessionStore, sessionId: string): string | undefined {
  const main = validTranscript(store.promptTranscript());
  if (!main) return undefined;
  const key = `witnessed:${sessionId}`;
  const upTo = Number(store.guardValue(key) ?? 0);
  const rows = store.witnessesOf(sessionId, upTo);
  // (a transition recorded before tokens were: a database older than this check)
  const pending = rows.filter((r) => r.witness !== null);
  if (pending.length === 0) return undefined;
  const seen = new Set<string>();
  for (const f of [main, ...subagentTranscripts(main)]) for (const w of transcriptWitnesses(f)) seen.add(w);
  const missing = pending.filter((r) => !seen.has(r.witness!));
  if (missing.length === 0) {
    store.setGuardValues({ [key]: String(rows[rows.length - 1]!.id) });
    return undefined;
  }
  const m = missing[0]!;
  return `session ${sessionId} went to ${m.to_phase} (${m.event}) in a call the client's transcript does not show: only the session tools the client calls move a session (a code-intel server run from a shell does not). Nothing may change until a session goes through its phases with the client's own code-intel tools.`;
}

/** Subagents' transcripts beside the conversation's (`<session>/subagents/*.jsonl`), a bounded few. */
function subagentTranscripts(main: string): string[] {
  const dir = path.join(path.dirname(main), path.basename(main, '.jsonl'), 'subagents');
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).slice(0, 50).map((f) => path.join(dir, f)).flatMap((f) => validTranscript(f) ?? []);
  } catch {
    return [];
  }
}
