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

/**
 * Why the session's READY is not the client's — its record says a phase its last change did not
 * make, or a change is not shown in the client's transcript — or undefined when it is (the
 * transcript part only where the client keeps one the guard reads).
 */
export function unwitnessed(store: SessionStore, sessionId: string, phase: string): string | undefined {
  // the phase the records give the session is the one its last change made: a phase written
  // without a change (code-intel's own store module imported by a command: red team adv25) is none
  const last = store.lastTransition(sessionId);
  if (!last || last.to_phase !== phase) return `session ${sessionId} is in ${phase} by its record, but its last recorded step went to ${last?.to_phase ?? 'nothing'}: the records were changed outside the session tools. Nothing may change until the user's next /code request.`;
  const recorded = store.promptTranscript();
  if (!recorded) return undefined;
  const key = `witnessed:${sessionId}`;
  const upTo = Number(store.guardValue(key) ?? 0);
  // a transition without a token, made after tokens began (a build older than this check, run by
  // the agent: red team adv24), is one no answer carried; those before are the database's past
  const from = store.witnessFrom();
  const all = store.witnessesOf(sessionId);
  const rows = all.filter((r) => r.id > upTo && (r.witness !== null || r.id > from));
  if (rows.length === 0) return undefined;
  // the conversation's transcript, where the prompt was found: moved out of the client's folder or
  // replaced by a link (red team adv24), it shows nothing
  const main = validTranscript(recorded);
  if (!main || main !== recorded) return `session ${sessionId}: the conversation's transcript (${recorded.slice(0, 200)}) is no longer the client's file, so no step of the session can be checked. Nothing may change until the user's next /code request.`;
  const seen = new Set<string>();
  for (const f of [main, ...subagentTranscripts(main)]) for (const w of transcriptWitnesses(f)) seen.add(w);
  // one token stands for one change: a token seen once does not vouch for a copy of it (adv25)
  const counts = new Map<string, number>();
  for (const r of all) if (r.witness) counts.set(r.witness, (counts.get(r.witness) ?? 0) + 1);
  const missing = rows.filter((r) => r.witness === null || !seen.has(r.witness) || counts.get(r.witness)! > 1);
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
