/**
 * The /code session: one XState actor per active session, restored from the database on demand,
 * persisted after every transition together with the ledger entry that caused it.
 */
import { randomUUID } from 'node:crypto';
import { createActor } from 'xstate';
import { allowedTools, FREE_WITHOUT_SESSION, isAllowed, NEXT_STEP, nextStepFor, type Phase, PHASES } from '../../machines/policy.js';
import { changesCode, type Intent, type SessionEvent, sessionMachine } from '../../machines/session.js';
import type { Project } from '../project/project.js';
import { namesNotInProject } from './pattern-names.js';
import { importedAs, importedNamesOf, qualifiedName, type SymbolRow, symbolsByName, valueIdentity } from '../query/symbols.js';
import { quote, UserError } from '../util/paths.js';
import { type Loaded, type ProjectHolds, type SessionCore, SessionError } from './core.js';
import { approvedWrites, deriveEvidence, type Evidence, linesOf } from './evidence.js';
import { toolNamed } from '../tools/catalog.js';
import { EXPECTED_SLOTS, extractionPrompt, investigationGuidance, type QueryFrameInput, riskLevel, riskReason, type Slot, SLOTS, validateFrame } from './queryframe.js';

import { normalize } from '../util/words.js';
import { type Legs, SemanticEngine, semanticEngine } from '../embeddings/engine.js';
import { allowedReasons, bare, SemanticPhase } from './semantic.js';
import { SessionStore } from './store.js';
import { describeMissing, evaluateUnderstanding, missingFromSnapshot, type UnderstandingInput } from './understanding.js';
import { REJECTED_NEXT, translateCjk, ValidationPhase } from './validation.js';
import { checkWriteTarget } from './write-target.js';
import { asksOnly } from './actions.js';
import { describeUndo, SEQ as GUARD_SEQ, sessionBaseline } from '../guard/effects.js';
import { guardMode } from '../guard/mode.js';
import { settleEvidence } from '../guard/evidence-check.js';

/** Where the guard's count of accepted changes (GUARD_SEQ) stood when a session reached READY. */
const READY_SEQ = 'ready_seq';
import { log } from '../util/log.js';

/** The validated QueryFrame as a session row keeps it. */
type StoredFrame = Partial<Record<Slot, string>> & { quotes?: Record<string, string>; validated_slots?: Slot[] };

/**
 * The session's own steps (start, QueryFrame, understanding, the end) and the machine; VALIDATION
 * lives in validation.ts and SEMANTIC/VERIFICATION in semantic.ts, both working through this
 * service's SessionCore view.
 */
export class SessionService implements SessionCore {
  readonly store: SessionStore;
  private loaded: Loaded | undefined;
  private readonly witnesses: string[] = [];
  private readonly validation = new ValidationPhase(this);
  private readonly semantic = new SemanticPhase(this);

  /** relevance: the hybrid of the neural model (when present), the lexical backend and the NL→symbol cache */
  readonly engine: SemanticEngine;

  constructor(readonly project: Project) {
    this.store = new SessionStore(project.db);
    this.engine = semanticEngine(project);
  }

  /** The active session, restored from its persisted snapshot after a restart. */
  active(): Loaded | undefined {
    const tampered = this.store.problem();
    if (tampered) {
      throw new SessionError('guard_tampered', `${tampered}. The /code session cannot go on.`, {
        hint: 'Tell the user: a person must run `code-intel guard reset` in a terminal (it shows what changed and asks for confirmation).',
      });
    }
    const row = this.store.active();
    if (!row) {
      this.loaded = undefined;
      return undefined;
    }
    // the persisted snapshot, not only its time: two writes in one millisecond (two servers) must not leave a stale machine here
    if (this.loaded?.row.id !== row.id || this.loaded.row.updated_at !== row.updated_at || this.loaded.row.snapshot !== row.snapshot) {
      const snapshot = JSON.parse(row.snapshot);
      if (snapshot?.context) snapshot.context.missing = missingFromSnapshot(snapshot.context.missing);
      const actor = createActor(sessionMachine, { snapshot, input: { intent: row.intent as Intent } });
      actor.start();
      this.loaded = { row, actor };
    }
    return this.loaded;
  }

  phaseOf(s: Loaded): Phase {
    return s.actor.getSnapshot().value as Phase;
  }

  /**
   * Adds `next_step_ja` to an answer when the active (or just ended) session's request is Japanese,
   * for the phase the answer leaves the agent in.
   */
  localize(result: Record<string, unknown>): Record<string, unknown> {
    const row = this.store.active() ?? this.store.list(1)[0];
    if (!row || !/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(row.query)) return result;
    const phase = [result.next_phase, result.current_phase, result.phase].find((p): p is Phase => PHASES.includes(p as Phase));
    if (result.next_step === REJECTED_NEXT.en) return { ...result, next_step_ja: REJECTED_NEXT.ja };
    return phase ? { ...result, next_step_ja: nextStepFor(phase, row.intent, true) } : result;
  }

  /** The gate for every tool: refuses a tool the current phase does not allow. */
  gate(tool: string, args: Record<string, unknown>): Loaded | undefined {
    const s = this.active();
    if (!s) {
      if (FREE_WITHOUT_SESSION.has(tool) || tool === 'get_session_status') return undefined;
      throw new SessionError('no_active_session', `${tool} needs an active /code session, and there is none.`, { next_step: 'Call start_session with the intent and the user\'s request.' });
    }
    const phase = this.phaseOf(s);
    // a /code request the user typed after this session started is another request: the session
    // (its request, frame and evidence) does not serve it, whatever the user wrote after it
    if (this.store.codePromptSince(s.row.created_at) !== undefined && !STALE_OK.has(tool)) {
      this.store.record(s.row.id, { tool, args, phase, outcome: 'blocked', files: [], symbols: [], summary: 'session older than the latest /code request' });
      throw new SessionError('session_stale', `Session ${s.row.id} was started before the user's latest /code request; it serves an earlier request ('${quote(s.row.query, 200)}').`, {
        current_phase: phase,
        next_step: 'End it (abort_session), then start_session for the latest request.',
      });
    }
    if (!isAllowed(tool, phase)) {
      this.store.record(s.row.id, { tool, args, phase, outcome: 'blocked', files: [], symbols: [], summary: `blocked in ${phase}` });
      throw new SessionError('phase_blocked', `${tool} is not allowed in the ${phase} phase`, {
        current_phase: phase,
        allowed_tools: allowedTools(phase),
        next_step: this.nextStep(phase),
      });
    }
    return s;
  }

  /** Logs a tool call of the active session with the files and symbols its result showed. */
  record(tool: string, args: Record<string, unknown>, result: Record<string, unknown> | undefined, error?: string): number | undefined {
    const s = this.active();
    if (!s) return undefined;
    const ev = (result && toolNamed(tool)?.proves?.(result)) || { files: [], symbols: [] };
    if (tool === 'search_text' && result && Array.isArray(result.items)) {
      // a search row is about a symbol when the matched line is where that symbol is declared
      const names = new Set(ev.symbols);
      for (const m of result.items as { file?: unknown; line?: unknown }[]) {
        if (typeof m.file === 'string' && typeof m.line === 'number') this.namesDeclaredIn(m.file, m.line, m.line).forEach((n) => names.add(n));
      }
      ev.symbols = [...names];
    }
    const seq = this.store.record(s.row.id, {
      tool, args, phase: this.phaseOf(s), outcome: error ? 'error' : 'ok', files: ev.files, symbols: ev.symbols, named: ev.named, lines: ev.lines,
      summary: error ?? summarize(result),
    });
    return seq;
  }

  /**
   * The tokens of the phase changes this call made, for its answer (once): the write guard honours
   * a READY only when the client's transcript shows every change of the session in the answer of a
   * code-intel tool the client called (guard/witness.ts) — not one a server run from a shell made.
   */
  takeWitnesses(): string[] {
    return this.witnesses.splice(0);
  }

  /** Sends an event and persists the snapshot and the transition; returns the new phase. */
  send(s: Loaded, event: SessionEvent, reason: string | null = null): Phase {
    const from = this.phaseOf(s);
    // the machine decides: an event it would ignore (another call moved the session on while this
    // one was judged — two confirms raced, a second server) is refused, and the caller's write with
    // it; it never answers "success" for a step that did not happen
    if (!s.actor.getSnapshot().can(event)) {
      throw new SessionError('phase_changed', `${event.type} does not apply to session ${s.row.id} in ${from} now: another call changed the session while this one ran. Nothing of this call was applied.`, {
        current_phase: from,
        next_step: 'Call get_session_status and continue from the phase it shows.',
      });
    }
    s.actor.send(event);
    const to = this.phaseOf(s);
    const snapshot = JSON.stringify(s.actor.getPersistedSnapshot());
    this.store.transaction(() => {
      const status = to === 'FINISHED' ? 'finished' : to === 'ABORTED' ? 'aborted' : 'active';
      this.store.update(s.row.id, { phase: to, snapshot, status });
      if (from !== to) this.witnesses.push(this.store.transition(s.row.id, from, to, event.type, reason));
      // where the guard runs: how many changes it had accepted when READY was reached (end() asks whether one came after)
      if (to === 'READY' && from !== to) this.store.setGuardValues({ [READY_SEQ]: `${s.row.id}:${this.store.guardValue(GUARD_SEQ) ?? ''}` });
    });
    this.loaded = undefined;
    return to;
  }

  /** The next step for a phase, for the intent of the session at hand. */
  nextStep(phase: Phase): string {
    return nextStepFor(phase, (this.store.active() ?? this.store.list(1)[0])?.intent);
  }

  require(): Loaded {
    const s = this.active();
    if (!s) throw new SessionError('no_active_session', 'There is no active /code session.', { next_step: 'Call start_session with the intent and the user\'s request.' });
    return s;
  }

  evidence(s: Loaded, sinceSeq = 0): Evidence {
    settleEvidence(this.store, this.project.root); // reads the hooks recorded count once the client's transcript shows them
    const ledger = this.store.ledger(s.row.id);
    const ev = deriveEvidence(ledger, sinceSeq);
    // a symbol whose declaration lies in the lines a Read returned was seen
    for (const e of ledger) {
      if (e.seq <= sinceSeq || e.outcome !== 'ok' || e.tool !== 'hook:Read' || e.files.length !== 1) continue;
      for (const [from, to] of linesOf(e)[e.files[0]!] ?? []) this.namesDeclaredIn(e.files[0]!, from, to).forEach((n) => ev.symbolsSeen.add(n));
    }
    return ev;
  }

  request(s: Loaded): string {
    return s.row.query;
  }

  // ---- tools -------------------------------------------------------------------------------------

  /**
   * Starts a session; with `frame`, sets its QueryFrame in the same call (one round trip fewer). A
   * frame that fails validation leaves the session started, and the answer says what to fix.
   */
  startWithFrame(intent: Intent, query: string, frame?: QueryFrameInput): Record<string, unknown> {
    const started = this.start(intent, query);
    if (!frame || !Object.values(frame).some(Boolean)) return started;
    try {
      const set = this.setQueryFrame(frame);
      const { success: _ok, next_step: _next, ...rest } = set;
      return { ...started, query_frame: { status: 'set', ...rest }, next_step: NEXT_STEP.EXPLORATION };
    } catch (e) {
      if (!(e instanceof SessionError) || e.code !== 'validation_failed') throw e;
      const partly = Array.isArray(e.extra.set_slots);
      return {
        ...started,
        query_frame: {
          ...(started.query_frame as Record<string, unknown>),
          status: partly ? 'partly set' : 'refused',
          validation_errors: e.extra.validation_errors,
          ...(partly ? { set_slots: e.extra.set_slots, query_frame: e.extra.query_frame, risk_level: e.extra.risk_level } : {}),
          next_step: `The session is started${partly ? ` and ${(e.extra.set_slots as string[]).join(', ')} set` : ''}. Fix the listed slots (each quote copied from the request, each value from its quote), then call set_query_frame with them alone.`,
        },
      };
    }
  }

  start(intent: Intent, query: string): Record<string, unknown> {
    const existing = this.active();
    if (existing) {
      throw new SessionError('session_active', `Session ${existing.row.id} is already active (phase ${this.phaseOf(existing)}).`, {
        active_session_id: existing.row.id,
        current_phase: this.phaseOf(existing),
        next_step: 'Continue it (get_session_status shows where it is), or end it with abort_session / end_session before starting another.',
      });
    }
    if (!normalize(query)) throw new UserError('query is empty', "Pass the user's request exactly as they wrote it.");
    // Where the client records what the user typed (UserPromptSubmit hook), that is the request:
    // the agent's query must come from it, and every quote is checked against it.
    settleEvidence(this.store, this.project.root);
    const current = this.store.currentPrompt();
    if (current?.pending) {
      throw new SessionError('request_pending', "The user's latest prompt is recorded but the client's transcript does not show it yet: it cannot be the request until it does (an earlier prompt never stands in for it).", {
        hint: 'Call start_session again in a moment.',
      });
    }
    const recorded = current?.prompt;
    if (recorded !== undefined && !normalize(recorded).includes(normalize(query))) {
      throw new SessionError('query_mismatch', "The query is not what the user typed last (as recorded by the UserPromptSubmit hook): a session serves the user's latest request, not an earlier one or the agent's own words.", {
        recorded_request: recorded.slice(0, 2000),
        hint: "Pass the user's request verbatim (or a part of it) as query. If the user typed something else since, the hook did not record it: tell the user (`code-intel doctor`).",
      });
    }
    const request = recorded ?? query;
    // the intent is the agent's claim: a request that only asks to be told something is no change request
    if ((intent === 'IMPLEMENT' || intent === 'MODIFY') && asksOnly(request, translateCjk)) {
      throw new SessionError('intent_mismatch', `The request asks to be told something (an investigation, an explanation, a question), not for a change: ${intent} does not fit it.`, {
        request: request.slice(0, 500),
        hint: 'Start an INVESTIGATE (or QUESTION) session and answer the user; a change is for the user to ask for.',
      });
    }
    // what the guard holds before the session exists (a /code turn since the prompt, or nothing)
    const before = guardMode(this.store, this.project.root);
    const id = randomUUID().slice(0, 8);
    const actor = createActor(sessionMachine, { input: { intent } });
    actor.start();
    try {
      this.store.transaction(() => {
        this.store.create({ id, intent, query: request, phase: 'EXPLORATION', snapshot: JSON.stringify(actor.getPersistedSnapshot()) });
        this.witnesses.push(this.store.transition(id, 'START', 'EXPLORATION', 'START', null));
        this.record('start_session', { intent, query }, undefined);
      });
    } catch (e) {
      if (/UNIQUE/.test((e as Error).message)) return this.start(intent, query); // lost a race: report the winner
      throw e;
    }
    try {
      // what the project looks like as the turn's work begins: the write guard undoes changes against it
      const undone = sessionBaseline(this.store, this.project.root, before);
      // in the timeline like any undo
      if (undone && undone.undone.length + undone.failed.length > 0) {
        this.store.record(id, {
          tool: 'hook:undo', args: { files: undone.undone.map((u) => u.path).slice(0, 50), kept_in: undone.keepDir }, phase: 'EXPLORATION', outcome: 'blocked', files: [], symbols: [], summary: describeUndo(undone),
        });
      }
    } catch (e) {
      log.error('the write guard could not record the project\'s state (is git installed?); the hooks will try again', e);
    }
    return {
      success: true,
      session_id: id,
      intent,
      phase: 'EXPLORATION',
      request_source: recorded !== undefined ? 'user_prompt_hook' : 'agent',
      query_frame: {
        status: 'pending',
        extraction_prompt: extractionPrompt(request),
        next_step: 'Extract slots from the request using extraction_prompt, then call set_query_frame.',
      },
      allowed_tools: allowedTools('EXPLORATION'),
    };
  }

  setQueryFrame(frame: QueryFrameInput): Record<string, unknown> {
    const s = this.gate('set_query_frame', frame as Record<string, unknown>)!;
    // an empty call answered "success" and stored an empty frame over nothing (tr28: an args file
    // that did not reach the call); the agent believed its frame was set
    if (!Object.values(frame).some((x) => x !== undefined)) {
      this.record('set_query_frame', {}, undefined, 'no slots');
      throw new SessionError('validation_failed', 'set_query_frame got no slot: nothing was set.', {
        success: false,
        validation_errors: [{ slot: 'target_feature', error: 'no slot given: pass target_feature (and the other slots the request states), each {value, quote}' }],
      });
    }
    const { errors, validated } = validateFrame(this.request(s), frame, translateCjk);
    if (errors.length > 0) {
      // the slots that passed are set all the same: each is judged against the request on its own, and
      // dropping them sent an agent that fixed only the refused slot on with the others "missing" (tr64)
      const set = validated.length > 0 ? this.storeFrame(s, frame, validated, 'validation_failed') : undefined;
      if (!set) this.record('set_query_frame', frame as Record<string, unknown>, undefined, 'validation_failed');
      throw new SessionError('validation_failed', `Some slot validations failed${set ? ` (${validated.join(', ')} set; fix the others and give only them again)` : ' (nothing was set)'}. Each quote must be copied from the user's request, and each value must come from its quote.`, {
        success: false,
        validation_errors: errors,
        ...(set ? { set_slots: validated, query_frame: set.query_frame, risk_level: set.risk_level } : {}),
      });
    }
    const set = this.storeFrame(s, frame, validated);
    return {
      success: true,
      ...set,
      investigation_guidance: investigationGuidance(set.missing_slots),
      next_step: NEXT_STEP.EXPLORATION,
    };
  }

  /** Stores the validated slots of `frame` over the session's frame, records the call, and tells the machine the risk. */
  private storeFrame(s: Loaded, frame: QueryFrameInput, validated: Slot[], outcome?: string) {
    // a call fixes the slots it gives and keeps the others: the prompt says "fix the listed slots", and
    // replacing the frame silently dropped the slots an agent did not repeat (risk then rose to HIGH)
    const before = s.row.query_frame ? (JSON.parse(s.row.query_frame) as StoredFrame) : undefined;
    const kept = (before?.validated_slots ?? []).filter((k) => !validated.includes(k) && before![k] !== undefined);
    const all = SLOTS.filter((k) => validated.includes(k) || kept.includes(k));
    const intent = s.row.intent as Intent;
    const missing = EXPECTED_SLOTS[intent].filter((slot) => !all.includes(slot)) as Slot[];
    const qf: Record<string, unknown> = {};
    const quotes: Record<string, string> = {};
    for (const slot of all) {
      qf[slot] = kept.includes(slot) ? before![slot] : frame[slot]!.value;
      quotes[slot] = kept.includes(slot) ? before!.quotes?.[slot] ?? '' : frame[slot]!.quote;
    }
    const stored = { ...qf, quotes, validated_slots: all, missing_slots: missing };
    this.store.transaction(() => {
      this.store.update(s.row.id, { query_frame: JSON.stringify(stored) });
      this.record('set_query_frame', frame as Record<string, unknown>, undefined, outcome);
      this.send(this.require(), { type: 'SET_QUERY_FRAME', risk: riskLevel(intent, missing) });
    });
    return {
      query_frame: { ...qf, validated_slots: all, slot_sources: Object.fromEntries(all.map((k) => [k, 'FACT'])) },
      ...(kept.length ? { kept_from_before: kept, kept_note: 'Slots this call did not give keep the values set before; give a slot again to change it.' } : {}),
      risk_level: this.require().actor.getSnapshot().context.risk,
      risk_reason: riskReason(this.require().actor.getSnapshot().context.risk, intent, missing),
      missing_slots: missing,
    };
  }

  /**
   * What this session already saw but did not submit: the files and symbols of its own results. A
   * session that is short (one file where two are needed) is pointed at these before SEMANTIC.
   */
  private candidates(u: UnderstandingInput, ev: Evidence): { files: string[]; named_files: string[]; symbols: string[]; hint: string } {
    const submitted = new Set(u.files_analyzed.map((x) => x.replace(/^\.\//, '')));
    const files = [...ev.exploredFiles].filter((f) => !submitted.has(f)).sort().slice(0, 10);
    // the files of references (and matches) it already saw, one line each: open them to list them
    const named = [...(ev.matchedFiles ?? [])].filter((f) => !submitted.has(f)).sort().slice(0, 10);
    const listed = new Set(u.symbols_identified);
    const symbols = [...ev.symbolsSeen].filter((x) => !listed.has(x) && this.symbolExists(x)).sort().slice(0, 15);
    return {
      files, named_files: named, symbols,
      hint: 'These came out of your own tool calls (named_files: only one line of each was shown, by a reference or a text match: open one before listing it). If some of them belong to the change, explore them (get_symbols, find_references, a Read) and submit_understanding again after revert_to_exploration; SEMANTIC is for what exploration could not find.',
    };
  }

  /** Every definition of a name, locals included; a name the index cannot look up has none. */
  definitionsOf(name: string): SymbolRow[] {
    try {
      const rows = symbolsByName(this.project, name, { includeLocal: true });
      // an anonymous default export goes by the name its importers give it (resolveConfig: tr67)
      return rows.length ? rows : importedAs(this.project, name, true);
    } catch {
      return [];
    }
  }

  symbolExists = (name: string): boolean => this.definitionsOf(name).length > 0;

  // (counted up to a few: the minimums are 3 at most, and a project of thousands is not scanned on each call)
  projectHolds(): ProjectHolds {
    const db = this.project.db;
    const count = (sql: string) => (db.prepare(`SELECT COUNT(*) AS n FROM (${sql} LIMIT 16)`).get() as { n: number }).n;
    return { files: count('SELECT 1 FROM files'), symbols: count('SELECT DISTINCT name FROM symbols') };
  }

  /** The names (bare and Container.name) declared on lines from..to of a file: what a result row or a Read showed. */
  private namesDeclaredIn(file: string, from: number, to: number): string[] {
    const rows = this.project.db.prepare('SELECT s.id, s.name, s.container_id, s.container_name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name_line BETWEEN ? AND ?')
      .all(file, from, to) as { id: number; name: string; container_id: number | null; container_name: string | null }[];
    return rows.flatMap((r) => (r.container_name ? [...new Set([r.name, `${r.container_name}.${r.name}`, qualifiedName(this.project, r)])]
      // an anonymous default export is seen under the names it is imported as, too
      : r.name === 'default' && !r.container_name ? [r.name, ...importedNamesOf(this.project, r.id)] : [r.name]));
  }

  /** The declarations whose span holds a line of a file, innermost first, locals included. */
  declarationsAround(file: string, line: number): { name: string; container_name: string | null; local: boolean }[] {
    // (a function declared in a body, such as a rule's checkForShadows inside create(): tr45 had a
    // call there judged as "inside default")
    const rows = this.project.db.prepare('SELECT s.name, s.container_name, s.local FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.line <= ? AND s.end_line >= ? ORDER BY s.end_line - s.line, s.line DESC')
      .all(file, line, line) as { name: string; container_name: string | null; local: number }[];
    return rows.map((r) => ({ name: r.name, container_name: r.container_name, local: r.local === 1 }));
  }

  submitUnderstanding(u: UnderstandingInput): Record<string, unknown> {
    const s = this.gate('submit_understanding', u as unknown as Record<string, unknown>)!;
    const ctx = s.actor.getSnapshot().context;
    if (!ctx.frameSet) {
      this.record('submit_understanding', u as unknown as Record<string, unknown>, undefined, 'query frame not set');
      throw new SessionError('query_frame_required', 'Call set_query_frame before submit_understanding.', { next_step: 'Extract the QueryFrame slots from the request and call set_query_frame.' });
    }
    const evidence = this.evidence(s);
    const verdict = evaluateUnderstanding(u, {
      intent: ctx.intent, risk: ctx.risk, request: this.request(s), evidence, symbolExists: this.symbolExists,
      identify: (name) => identityOf(name, this.definitionsOf(name)),
      declaredAt: (file, line) => this.namesDeclaredIn(file, line, line),
      holds: this.projectHolds(),
      namesNotInProject: (names) => namesNotInProject(this.project, names),
    });
    if (verdict.refused.length > 0) {
      this.record('submit_understanding', u as unknown as Record<string, unknown>, undefined, 'refused');
      throw new SessionError('understanding_refused', 'The submission makes claims the server cannot back; nothing advanced.', {
        consistency_errors: verdict.refused,
        consistency_hint: 'Submit only symbols and files your tool calls in this session returned, without duplicates, with entry points named after listed symbols.',
        current_phase: 'EXPLORATION',
      });
    }
    const to = this.store.transaction(() => {
      this.store.update(s.row.id, { understanding: JSON.stringify(u) });
      this.record('submit_understanding', u as unknown as Record<string, unknown>, undefined);
      const listed = { files: u.files_analyzed.map((f) => f.replace(/^\.\//, '')), symbols: [...new Set(u.symbols_identified.map(bare))] };
      return this.send(this.require(), { type: 'SUBMIT_UNDERSTANDING', missing: verdict.missing, listed }, describeMissing(verdict.missing) || null);
    });
    return {
      success: true,
      next_phase: to,
      evaluated_confidence: verdict.missing.length === 0 ? 'high' : 'low',
      missing_requirements: verdict.missing,
      next_step: this.nextStep(to),
      ...(to === 'SEMANTIC' ? { allowed_semantic_reasons: allowedReasons(verdict.missing), candidates: this.candidates(u, evidence) } : {}),
    };
  }

  validateRelevance(target: string, symbols: string[]): Promise<Record<string, unknown>> {
    return this.validation.validateRelevance(target, symbols);
  }

  /** The top symbols of the whole index for a target feature (hybrid ranking over code chunks). */
  suggest(target: string, limit: number): ReturnType<ValidationPhase['suggest']> {
    return this.validation.suggest(target, limit);
  }

  confirmRelevance(mapped: { symbol: string; approved: boolean; code_evidence?: string }[]): Promise<Record<string, unknown>> {
    return this.validation.confirmRelevance(mapped);
  }

  semanticAllowedReasons(): string[] {
    return this.semantic.semanticAllowedReasons();
  }

  /** Called after semantic_search ran inside a session. */
  semanticSearched(): void {
    this.semantic.semanticSearched();
  }

  submitSemantic(args: Parameters<SemanticPhase['submitSemantic']>[0]): Record<string, unknown> {
    return this.semantic.submitSemantic(args);
  }

  submitVerification(verified: Parameters<SemanticPhase['submitVerification']>[0]): Record<string, unknown> {
    return this.semantic.submitVerification(verified);
  }

  exploredFiles(s: Loaded): Set<string> {
    return this.evidence(s).exploredFiles;
  }

  checkWrite(filePath: string, allowNew: boolean): Record<string, unknown> {
    const args = { file_path: filePath, allow_new_files: allowNew };
    const s = this.gate('check_write_target', args)!;
    const intent = s.row.intent as Intent;
    const explored = this.exploredFiles(s);
    const verdict =
      !changesCode(intent)
        ? { allowed: false as const, file: null, error: `${intent} sessions never write files`, hint: 'Start an IMPLEMENT or MODIFY session to change code.' }
        // a new file approved earlier and made since stays writable, as the write guard holds
        : checkWriteTarget(this.project.root, filePath, allowNew, new Set([...explored, ...approvedWrites(this.store.ledger(s.row.id), this.project.root)]));
    // the file judged (through symlinks, `..` folded) is the one the guard lets change, whatever spelling asked for it
    this.record('check_write_target', verdict.file ? { ...args, judged_file: verdict.file } : args, undefined, verdict.allowed ? undefined : 'denied');
    if (verdict.allowed) return { allowed: true, error: null, file: verdict.file, new_file: verdict.new_file };
    return { allowed: false, error: verdict.error, hint: verdict.hint, explored_files: [...explored].sort().slice(0, 50), explored_count: explored.size };
  }

  revert(reason: string): Record<string, unknown> {
    const s = this.gate('revert_to_exploration', { reason })!;
    const to = this.store.transaction(() => {
      this.record('revert_to_exploration', { reason }, undefined);
      return this.send(s, { type: 'REVERT' }, reason);
    });
    return { success: true, next_phase: to, next_step: this.nextStep(to) };
  }

  end(outcome: 'success' | 'failure' | 'abandoned'): Record<string, unknown> {
    const s = this.gate('end_session', { outcome })!;
    const from = this.phaseOf(s);
    this.store.transaction(() => {
      this.record('end_session', { outcome }, undefined);
      this.send(s, { type: 'END', outcome }, outcome);
      this.store.update(s.row.id, { outcome });
    });
    // only a session that ends in READY teaches: one that went back to EXPLORATION took its understanding back
    const unchanged = outcome === 'success' && from === 'READY' && changesCode(s.row.intent as Intent) && this.unchangedSinceReady(s.row.id);
    const learned = outcome === 'success' && from === 'READY' && !unchanged ? this.learn(s.row.id) : { pairs: 0, symbols: [], not: [] };
    return {
      success: true, session_id: s.row.id, outcome, phase: 'FINISHED',
      // (agent trial tr167 read 8 learned for 9 accepted as a miscount: it counts term → symbol pairs, and says who taught none)
      // (cached_matches_learned counts term → symbol rows; learned_symbols names the symbols: agent trial tr169 read 4 learned beside 2 not learned as a contradiction)
      ...(outcome === 'success' ? { cached_matches_learned: learned.pairs, ...(learned.symbols.length ? { learned_symbols: learned.symbols.slice(0, 20) } : {}), ...(learned.not.length ? { not_learned: learned.not.slice(0, 20) } : {}) } : {}),
      ...(unchanged ? { not_learned_note: 'the project did not change after READY: a change request that changed nothing teaches the cache nothing' } : {}),
      writes: writesAfter(from, s.row.intent as Intent, this.store.codePromptSince(s.row.created_at) !== undefined),
    };
  }

  /**
   * Whether the guard accepted no change to the project after the session reached READY (its count
   * of accepted changes stands where it stood then): a change request that ends `success` having
   * changed nothing says what is not so, and teaches nothing (red team adv91 taught four unrelated
   * symbols that way). It can tell only where the client's hooks run the guard (they recorded an
   * event of this session: a Read, a refusal); elsewhere nothing counts changes: false.
   */
  private unchangedSinceReady(id: string): boolean {
    const at = this.store.guardValue(READY_SEQ);
    if (!at?.startsWith(`${id}:`)) return false;
    const then = at.slice(id.length + 1);
    if (then === '' || (this.store.guardValue(GUARD_SEQ) ?? '') !== then) return false;
    return this.store.hookSeen(id);
  }

  /**
   * A successful session teaches the NL→symbol cache: every symbol it confirmed relevant (with the
   * evidence the server verified) against the target feature's quote, and the parts of that quote
   * the understanding mapped to that symbol and validation judged it to answer.
   */
  private learn(id: string): { pairs: number; symbols: string[]; not: { symbol: string; why: string }[] } {
    const none = { pairs: 0, symbols: [], not: [] };
    const row = this.store.get(id);
    if (!row?.mapped_symbols) return none;
    // only a session the machine itself brought to READY teaches, and only with the user's own words
    if (!this.store.transitions(id).some((t) => t.to_phase === 'READY')) return none;
    const request = normalize(row.query);
    const not: { symbol: string; why: string }[] = [];
    const accepted = (JSON.parse(row.mapped_symbols) as { symbol: string; evidence?: string; file?: string; target?: string; terms?: string[]; legs?: Record<string, unknown> }[])
      // (and only a definition its evidence pins down, never the nearest of several sharing the name)
      .filter((a) => {
        const why = !this.teaches(a.legs) ? 'accepted through a link, by closeness or by earlier sessions, not by its own words and code'
          : !this.validation.pinned(a.symbol, a.evidence) ? 'its evidence does not pin one definition of the name' : undefined;
        if (why) not.push({ symbol: a.symbol, why });
        return why === undefined;
      });
    if (accepted.length === 0) return { pairs: 0, symbols: [], not };
    const frame = row.query_frame ? (JSON.parse(row.query_frame) as { target_feature?: string; quotes?: Record<string, string> }) : {};
    const quoted = (t: string | undefined): t is string => !!t && !!normalize(t) && request.includes(normalize(t));
    const pairs: { term: string; symbol: string; file?: string | null; evidence?: string | null }[] = [];
    for (const a of accepted) {
      // validation judged each symbol against one target feature (the frame may have changed since):
      // that quote teaches, and the mapped terms validation judged the symbol to answer (a part of
      // that quote: カート of カートの合計), never another word of the request
      const judged = a.target ?? frame.quotes?.target_feature;
      if (!quoted(judged)) continue;
      pairs.push({ term: judged, symbol: a.symbol, file: a.file ?? null, evidence: a.evidence ?? null });
      // (and under the value, where the request says it as written: a later session validates with
      // its value, and a quote longer than the value was never found again — red team adv88)
      const value = frame.target_feature;
      if (quoted(value) && normalize(value!) !== normalize(judged) && normalize(judged).includes(normalize(value!)) && (a.target === undefined || a.target === frame.quotes?.target_feature))
        pairs.push({ term: value!, symbol: a.symbol, file: a.file ?? null, evidence: a.evidence ?? null });
      for (const term of a.terms ?? []) if (quoted(term)) pairs.push({ term, symbol: a.symbol, file: a.file ?? null, evidence: a.evidence ?? null });
    }
    const written = this.engine.cache.learn(id, pairs, request);
    return { pairs: written, symbols: written > 0 ? [...new Set(pairs.map((p) => p.symbol))] : [], not };
  }

  /**
   * Whether an acceptance may teach the cache: one that stood on the symbol's own code and the
   * user's words (words, model, rank, the request naming it). Not one a link or propagation carried
   * (the symbol is near the feature, not named by it), nor one earlier sessions' matches alone
   * carried: two sessions that learned link-accepted `setProxy` under "paramsSerializer" had it
   * accepted by history alone in a third (red team adv28).
   */
  private teaches(legs: Record<string, unknown> | undefined): boolean {
    if (!legs || typeof legs.keyword !== 'number') return false;
    if (legs.graph !== undefined || legs.propagation !== undefined) return false;
    if (legs.rank !== undefined) return true;
    // its own words must answer the target, without earlier sessions: a plain word of the target that
    // is its whole name ("length", "get", "header" in the quote) or the request writing it as code
    // outside the target (has()) accepts it with risk HIGH, but is no match to learn (red teams
    // adv87, adv88); a name the target writes as code (`Cart.total`, total()) is one
    return this.engine.learnable(legs as unknown as Legs);
  }

  abort(reason: string): Record<string, unknown> {
    const s = this.gate('abort_session', { reason })!;
    const from = this.phaseOf(s);
    this.store.transaction(() => {
      this.record('abort_session', { reason }, undefined);
      this.send(s, { type: 'ABORT' }, reason);
      this.store.update(s.row.id, { outcome: 'aborted' });
    });
    return { success: true, session_id: s.row.id, phase: 'ABORTED', writes: writesAfter(from, s.row.intent as Intent, this.store.codePromptSince(s.row.created_at) !== undefined) };
  }

  status(): Record<string, unknown> {
    const s = this.active();
    if (!s) {
      const last = this.store.list(1)[0];
      return { active: false, last_session: last ? { id: last.id, status: last.status, outcome: last.outcome, phase: last.phase } : null, next_step: 'Call start_session to begin a /code session.' };
    }
    this.record('get_session_status', {}, undefined);
    const s2 = this.require();
    const phase = this.phaseOf(s2);
    const ctx = s2.actor.getSnapshot().context;
    const explored = [...this.exploredFiles(s2)].sort();
    return {
      active: true,
      session_id: s2.row.id,
      phase,
      intent: ctx.intent,
      risk_level: ctx.risk,
      query: s2.row.query,
      query_frame: s2.row.query_frame ? JSON.parse(s2.row.query_frame) : { status: 'pending' },
      missing_requirements: ctx.missing,
      explored_files: explored.slice(0, 100),
      explored_count: explored.length,
      // shown one line each (a text match, a reference's use): open them before listing or editing them
      named_files: [...(this.evidence(s2).matchedFiles ?? [])].sort().slice(0, 100),
      pending_hypotheses: ctx.hypotheses.filter((h) => h.status === 'pending'),
      mapped_symbols: s2.row.mapped_symbols ? JSON.parse(s2.row.mapped_symbols) : [],
      allowed_tools: allowedTools(phase),
      next_step: this.nextStep(phase),
    };
  }
}

/** What a session older than the latest /code request may still do: be looked at or ended. */
const STALE_OK: ReadonlySet<string> = new Set(['abort_session', 'end_session', 'get_session_status']);

function summarize(result: Record<string, unknown> | undefined): string | null {
  if (!result) return null;
  const total = result.total ?? (Array.isArray(result.items) ? result.items.length : undefined);
  return total !== undefined ? `${total} results` : null;
}

/** What the write guard holds for the rest of the turn once a session ends or is aborted (guard/mode.ts), said as it is. */
function writesAfter(from: Phase, intent: Intent, stale: boolean): string {
  // a /code request typed after the session began holds its own turn: nothing is writable until a session of it reaches READY
  if (stale) return "refused: the user's latest /code request has no session yet (start_session for it; edits wait for its READY)";
  if (from === 'READY' && changesCode(intent)) return "until the user's next message, only the files READY allowed";
  return `refused until the user's next message (${from === 'READY' ? `an ${intent} session never writes` : 'READY was not reached'})`;
}

/**
 * The declarations a listed name stands for: a bare name that the top-level declarations of one
 * file have (one function, or its overloads) means those, as the language's scope does — Go's package function `Get` beside the method `Viper.Get`
 * (agent trial tr141 was refused the two as one symbol spelt twice; the function has no container to
 * qualify it by). A bare name of members only still means all of them (`login` for `AuthService.login`).
 */
function identityOf(name: string, rows: SymbolRow[]): string[] {
  const top = name.includes('.') ? [] : rows.filter((r) => !r.container_name && !r.local);
  // (the overloads of one function are declared in its file: Python's `@overload def edit` twice, then
  // `def edit` — agent trial tr157 listed `edit` and the method `Editor.edit` and was told they are one)
  const one = top.length > 0 && top.every((r) => r.path === top[0]!.path);
  return [...new Set((one ? top : rows).map(valueIdentity))];
}
