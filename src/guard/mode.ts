/**
 * What the guard lets change right now, decided from the sealed session records:
 *   off     no /code turn is in progress: the guard stays out of the way (strict mode aside)
 *   locked  nothing of the project may change (a /code prompt with no session yet, a session before
 *           READY, an INVESTIGATE/QUESTION session, or one ended or aborted before READY in this turn)
 *   ready   only explored files and new files approved by check_write_target may change
 * A /code turn stays guarded after abort_session/end_session until the user's next prompt: ending
 * a session is never a way around the gate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { approvedWrites, deriveEvidence } from '../session/evidence.js';
import { followsManifest } from '../session/write-target.js';
import { settleEvidence } from './evidence-check.js';
import { unwitnessed } from './witness.js';
import type { SessionRow, SessionStore } from '../session/store.js';

export type GuardMode =
  | { kind: 'off' }
  /** turn: the /code prompt that holds a turn no session has started in yet (its effects are checked from its first event) */
  /** tampered: the records cannot be trusted (changed, gone or rolled back): effects are undone against the anchor (anchor.ts) */
  | { kind: 'locked'; session?: SessionRow; why: string; turn?: string; tampered?: boolean }
  | { kind: 'ready'; session: SessionRow; explored: Set<string>; approvedNew: Set<string>; readsNotExploring: Map<string, string> };

const WRITABLE = new Set(['IMPLEMENT', 'MODIFY']);
const TURN_WITHOUT_PROMPTS_MS = 30 * 60 * 1000;

export function strictMode(root: string): boolean {
  if (process.env.CODE_INTEL_STRICT === '1') return true;
  try {
    return (JSON.parse(fs.readFileSync(path.join(root, '.code-intel', 'config.json'), 'utf8')) as { strict?: boolean }).strict === true;
  } catch {
    return false;
  }
}

export function guardMode(store: SessionStore, root: string): GuardMode {
  const tampered = store.problem();
  if (tampered) return { kind: 'locked', tampered: true, why: `${tampered}. Writes stay refused until a person runs \`code-intel guard reset\` in a terminal.` };
  settleEvidence(store, root);
  const active = store.active();
  if (active) {
    // a /code request typed after the session started is another request: its READY does not serve
    // it, whatever the user wrote after it (red team adv21: a plain reply brought the old READY back)
    if (store.codePromptSince(active.created_at) !== undefined) {
      return { kind: 'locked', session: active, why: `the /code session ${active.id} was started before the user's latest /code request and does not serve it: abort_session, then start_session for the latest request.` };
    }
    return sessionMode(store, root, active, active.phase);
  }
  const last = store.list(1)[0];
  const promptAt = store.lastPromptAt();
  // a /code request no session has started for since: editing before start_session would skip the
  // whole gate, so its turn is held from the prompt on, through the user's replies too — a reply to
  // a question asked before start_session (or during a session the request made stale, then
  // aborted) is no way out (red teams adv19, adv20). The turn ends once a session of it has ended
  // and the user writes again (or by \`code-intel guard reset\`).
  const turn = store.codePromptSince(last ? last.created_at : -1);
  // the /code turn that started the last session goes on until the user's first prompt after the
  // session ended: a reply during the task is not the next turn ("yes, go ahead", then
  // abort_session, then any file written). A client that records no prompts gets
  // TURN_WITHOUT_PROMPTS_MS instead.
  const endedAt = last ? store.endedAt(last.id) ?? last.updated_at : 0;
  const turnGoesOn = last && turn === undefined && (promptAt === undefined ? Date.now() - last.updated_at < TURN_WITHOUT_PROMPTS_MS : promptAt <= endedAt);
  if (last && turnGoesOn) return sessionMode(store, root, last, store.endedFrom(last.id) ?? last.phase, true);
  if (turn !== undefined) {
    return { kind: 'locked', turn: String(turn), why: 'the user asked for /code and no session has started in this turn: call start_session and work through the phases; edits are allowed only in READY.' };
  }
  if (strictMode(root)) return { kind: 'locked', why: 'strict mode: writing needs a /code session in READY (start_session)' };
  store.seal.unmark();
  return { kind: 'off' };
}

function sessionMode(store: SessionStore, root: string, s: SessionRow, phase: string, ended = false): GuardMode {
  const endedNote = ended ? ` Session ${s.id} ended (${s.status}) in this turn; the turn stays guarded until the user's next message.` : '';
  if (!WRITABLE.has(s.intent)) return { kind: 'locked', session: s, why: `the /code session ${s.id} is ${s.intent}: it never edits files.${endedNote}` };
  if (phase !== 'READY') return { kind: 'locked', session: s, why: `the /code session ${s.id} is in ${phase}; edits are allowed only in READY.${endedNote}` };
  const unseen = unwitnessed(store, s.id, s.phase);
  if (unseen) return { kind: 'locked', session: s, why: unseen };
  const ledger = store.ledger(s.id);
  const explored = deriveEvidence(ledger).exploredFiles;
  // what the last Read of a file showed when it explored nothing, for the refusal to say (agent trial
  // tr113 read a test file's first 12 lines, its imports, and was refused the edit without knowing why)
  const readsNotExploring = new Map<string, string>();
  for (const e of ledger) {
    const m = e.tool === 'hook:Read' && e.outcome === 'blocked' ? /^a Read of (.+?) that showed (.*): it explores nothing/s.exec(e.summary ?? '') : null;
    if (m) readsNotExploring.set(m[1]!, m[2]!);
  }
  return { kind: 'ready', session: s, explored, approvedNew: approvedWrites(ledger, root), readsNotExploring };
}

/** May `rel` (project-relative) change in this mode? A reason when it may not. */
export function forbids(mode: GuardMode, rel: string, isGuardOwned: (rel: string) => boolean): string | undefined {
  if (mode.kind === 'off') return undefined;
  if (isGuardOwned(rel)) return `'${rel}' belongs to the write guard (client settings, hooks, MCP config, git config, .code-intel/)`;
  if (mode.kind === 'locked') return mode.why;
  if (mode.explored.has(rel) || mode.approvedNew.has(rel) || followsManifest(rel, mode.explored)) return undefined;
  return `'${rel}' was not explored in session ${mode.session.id} (and is not a new file approved by check_write_target): read it or outline it (get_symbols) first — a search match, a definition or a reference row shows one line and explores nothing`;
}

