/**
 * The /code session: one XState actor per active session, restored from the database on demand,
 * persisted after every transition together with the ledger entry that caused it.
 */
import { randomUUID } from 'node:crypto';
import { type Actor, createActor } from 'xstate';
import { allowedTools, FREE_WITHOUT_SESSION, isAllowed, NEXT_STEP, nextStepFor, type Phase, PHASES } from '../../machines/policy.js';
import { type Intent, minAccepted, type Missing, type SessionEvent, sessionMachine } from '../../machines/session.js';
import type { Project } from '../query/project.js';
import { type SymbolRow, symbolsByName } from '../query/symbols.js';
import { UserError } from '../util/paths.js';
import { deriveEvidence, type Evidence, resultEvidence } from './evidence.js';
import {
  contentUnits, EXPECTED_SLOTS, extractionPrompt, investigationGuidance, isGrounded, normalize, type QueryFrameInput, riskLevel, type Slot, stem, validateFrame,
} from './queryframe.js';
import { SemanticEngine, semanticEngine } from '../embeddings/engine.js';
import { conceptsOf } from '../embeddings/text.js';
import { namedScore } from '../embeddings/named.js';
import { tierOf } from './relevance.js';
import { linkedScore, linkToSeeds, rankAnchors, rankCutoff, rankedScore, symbolLabel } from './graph-relevance.js';
import { type LedgerEntry, type SessionRow, SessionStore } from './store.js';
import { describeMissing, evaluateUnderstanding, missingFromSnapshot, reasonAllowed, SEMANTIC_REASONS, type UnderstandingInput } from './understanding.js';
import { checkWriteTarget } from './write-target.js';
import { acceptBaseline } from '../guard/effects.js';
import { settleEvidence } from '../guard/evidence-check.js';
import { log } from '../util/log.js';

type SessionActor = Actor<typeof sessionMachine>;

/** A refusal the agent can act on; becomes a tool error with these fields. */
export class SessionError extends Error {
  constructor(readonly code: string, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
  }
}

export interface Loaded {
  row: SessionRow;
  actor: SessionActor;
}

export class SessionService {
  readonly store: SessionStore;
  private loaded: Loaded | undefined;

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
    if (this.loaded?.row.id !== row.id || this.loaded.row.updated_at !== row.updated_at) {
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
    const ev = result ? resultEvidence(tool, result) : { files: [], symbols: [] };
    if (tool === 'search_text' && result && Array.isArray(result.items)) {
      // a search row is about a symbol when the matched line is where that symbol is declared
      const names = new Set(ev.symbols);
      for (const m of result.items as { file?: unknown; line?: unknown }[]) {
        if (typeof m.file === 'string' && typeof m.line === 'number') this.namesDeclaredIn(m.file, m.line, m.line).forEach((n) => names.add(n));
      }
      ev.symbols = [...names];
    }
    const seq = this.store.record(s.row.id, {
      tool, args, phase: this.phaseOf(s), outcome: error ? 'error' : 'ok', files: ev.files, symbols: ev.symbols,
      summary: error ?? summarize(result),
    });
    return seq;
  }

  /** Sends an event and persists the snapshot and the transition; returns the new phase. */
  private send(s: Loaded, event: SessionEvent, reason: string | null = null): Phase {
    const from = this.phaseOf(s);
    s.actor.send(event);
    const to = this.phaseOf(s);
    const snapshot = JSON.stringify(s.actor.getPersistedSnapshot());
    this.store.transaction(() => {
      const status = to === 'FINISHED' ? 'finished' : to === 'ABORTED' ? 'aborted' : 'active';
      this.store.update(s.row.id, { phase: to, snapshot, status });
      if (from !== to) this.store.transition(s.row.id, from, to, event.type, reason);
    });
    this.loaded = undefined;
    return to;
  }

  /** The next step for a phase, for the intent of the session at hand. */
  private nextStep(phase: Phase): string {
    return nextStepFor(phase, (this.store.active() ?? this.store.list(1)[0])?.intent);
  }

  private require(): Loaded {
    const s = this.active();
    if (!s) throw new SessionError('no_active_session', 'There is no active /code session.', { next_step: 'Call start_session with the intent and the user\'s request.' });
    return s;
  }

  private evidence(s: Loaded, sinceSeq = 0): Evidence {
    settleEvidence(this.store, this.project.root); // reads the hooks recorded count once the client's transcript shows them
    const ledger = this.store.ledger(s.row.id);
    const ev = deriveEvidence(ledger, sinceSeq);
    // a symbol whose declaration lies in the lines a Read returned was seen (Claude Code reads 2000 lines by default)
    for (const e of ledger) {
      if (e.seq <= sinceSeq || e.outcome !== 'ok' || e.tool !== 'hook:Read' || e.files.length !== 1) continue;
      const from = typeof e.args.offset === 'number' && e.args.offset > 0 ? e.args.offset : 1;
      const count = typeof e.args.limit === 'number' && e.args.limit > 0 ? e.args.limit : 2000;
      this.namesDeclaredIn(e.files[0]!, from, from + count - 1).forEach((n) => ev.symbolsSeen.add(n));
    }
    return ev;
  }

  private request(s: Loaded): string {
    return s.row.query;
  }

  // ---- tools -------------------------------------------------------------------------------------

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
    const recorded = this.store.latestPrompt();
    if (recorded !== undefined && !normalize(recorded).includes(normalize(query))) {
      throw new SessionError('query_mismatch', "The query is not what the user typed (as recorded by the UserPromptSubmit hook).", {
        recorded_request: recorded.slice(0, 2000),
        hint: "Pass the user's request verbatim (or a part of it) as query.",
      });
    }
    const request = recorded ?? query;
    const id = randomUUID().slice(0, 8);
    const actor = createActor(sessionMachine, { input: { intent } });
    actor.start();
    try {
      this.store.transaction(() => {
        this.store.create({ id, intent, query: request, phase: 'EXPLORATION', snapshot: JSON.stringify(actor.getPersistedSnapshot()) });
        this.store.transition(id, 'START', 'EXPLORATION', 'START', null);
        this.record('start_session', { intent, query }, undefined);
      });
    } catch (e) {
      if (/UNIQUE/.test((e as Error).message)) return this.start(intent, query); // lost a race: report the winner
      throw e;
    }
    try {
      // what the project looks like as the turn's work begins: the write guard undoes changes against it
      acceptBaseline(this.store, this.project.root);
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
    const { errors, validated } = validateFrame(this.request(s), frame, translateCjk);
    if (errors.length > 0) {
      this.record('set_query_frame', frame as Record<string, unknown>, undefined, 'validation_failed');
      throw new SessionError('validation_failed', 'Some slot validations failed. Each quote must be copied from the user\'s request, and each value must come from its quote.', {
        success: false,
        validation_errors: errors,
      });
    }
    const intent = s.row.intent as Intent;
    const missing = EXPECTED_SLOTS[intent].filter((slot) => !validated.includes(slot)) as Slot[];
    const qf: Record<string, unknown> = {};
    for (const slot of validated) qf[slot] = frame[slot]!.value;
    const stored = { ...qf, quotes: Object.fromEntries(validated.map((k) => [k, frame[k]!.quote])), validated_slots: validated, missing_slots: missing };
    this.store.transaction(() => {
      this.store.update(s.row.id, { query_frame: JSON.stringify(stored) });
      this.record('set_query_frame', frame as Record<string, unknown>, undefined);
      this.send(this.require(), { type: 'SET_QUERY_FRAME', risk: riskLevel(intent, missing) });
    });
    return {
      success: true,
      query_frame: { ...qf, validated_slots: validated, slot_sources: Object.fromEntries(validated.map((k) => [k, 'FACT'])) },
      risk_level: this.require().actor.getSnapshot().context.risk,
      missing_slots: missing,
      investigation_guidance: investigationGuidance(missing),
      next_step: NEXT_STEP.EXPLORATION,
    };
  }

  /**
   * What this session already saw but did not submit: the files and symbols of its own results. A
   * session that is short (one file where two are needed) is pointed at these before SEMANTIC.
   */
  private candidates(u: UnderstandingInput, ev: Evidence): { files: string[]; symbols: string[]; hint: string } {
    const files = [...ev.exploredFiles].filter((f) => !u.files_analyzed.map((x) => x.replace(/^\.\//, '')).includes(f)).sort().slice(0, 10);
    const listed = new Set(u.symbols_identified);
    const symbols = [...ev.symbolsSeen].filter((x) => !listed.has(x) && this.symbolExists(x)).sort().slice(0, 15);
    return {
      files, symbols,
      hint: 'These came out of your own tool calls. If some of them belong to the change, explore them (get_symbols, find_references) and submit_understanding again after revert_to_exploration; SEMANTIC is for what exploration could not find.',
    };
  }

  /** Every definition of a name, locals included; a name the index cannot look up has none. */
  private definitionsOf(name: string): SymbolRow[] {
    try {
      return symbolsByName(this.project, name, { includeLocal: true });
    } catch {
      return [];
    }
  }

  symbolExists = (name: string): boolean => this.definitionsOf(name).length > 0;

  /** The names (bare and Container.name) declared on lines from..to of a file: what a result row or a Read showed. */
  private namesDeclaredIn(file: string, from: number, to: number): string[] {
    const rows = this.project.db.prepare('SELECT s.name, s.container_name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name_line BETWEEN ? AND ?')
      .all(file, from, to) as { name: string; container_name: string | null }[];
    return rows.flatMap((r) => (r.container_name ? [r.name, `${r.container_name}.${r.name}`] : [r.name]));
  }

  /** The (non-local) declarations whose span holds a line of a file. */
  private declarationsAround(file: string, line: number): { name: string; container_name: string | null }[] {
    return this.project.db.prepare('SELECT s.name, s.container_name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.line <= ? AND s.end_line >= ? AND s.local = 0')
      .all(file, line, line) as { name: string; container_name: string | null }[];
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
      identify: (name) => this.definitionsOf(name).map((r) => String(r.id)),
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
      return this.send(this.require(), { type: 'SUBMIT_UNDERSTANDING', missing: verdict.missing }, describeMissing(verdict.missing) || null);
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

  /**
   * The symbols the request reaches by its words: those accepted now or earlier in this session,
   * and the project's best matches for the target (FACT level). Their definitions seed the graph.
   */
  private async relevanceSeeds(target: string, accepted: { symbol: string; similarity?: number }[]): Promise<{ ids: Map<number, number>; labels: Set<string> }> {
    const ids = new Map<number, number>();
    const labels = new Set<string>();
    const add = (symbol: string, score: number) => {
      const rows = this.definitionsOf(symbol).slice(0, 5);
      for (const r of rows) if ((ids.get(r.id) ?? 0) < score) ids.set(r.id, score);
      if (rows.length) labels.add(symbol);
    };
    for (const a of accepted) if (typeof a.similarity === 'number' && a.similarity >= 0.3) add(a.symbol, a.similarity);
    for (const x of await this.suggest(target, 5)) if (x.similarity > 0.6) add(x.symbol, x.similarity);
    for (const [id, score] of rankAnchors(this.project.db, this.engine.textRanking(target))) {
      if ((ids.get(id) ?? 0) < score) ids.set(id, score);
      labels.add(symbolLabel(this.project.db, id));
    }
    return { ids, labels };
  }

  /** A link from a symbol to a seed through the code graph, worth at least the accepted tier, or undefined. */
  private graphLink(symbol: string, seeds: { ids: Map<number, number> }): { score: number; why: string } | undefined {
    if (seeds.ids.size === 0) return undefined;
    const rows = this.definitionsOf(symbol).slice(0, 10); // overloads: the implementation is often last
    const own = new Set(rows.map((r) => r.id));
    const seedIds = new Set([...seeds.ids.keys()].filter((id) => !own.has(id)));
    let best: { score: number; why: string } | undefined;
    for (const r of rows) {
      const link = linkToSeeds(this.project.db, r.id, seedIds, 1);
      if (!link || link.hops === 0) continue;
      const score = linkedScore(seeds.ids.get(link.seed)!, link.hops);
      if (score >= 0.3 && (!best || score > best.score)) {
        best = { score, why: `linked through the code: ${link.path.map((id) => symbolLabel(this.project.db, id)).join(' → ')}` };
      }
    }
    return best;
  }

  /**
   * Evidence concerns a symbol when it is the symbol's definition (a line inside one of its
   * declarations), or a line that uses it together with a concept of the target feature.
   */
  private evidenceConcerns(symbol: string, verified: { where: string; text: string }, target: string, accepted: ReadonlySet<string> = new Set()): boolean {
    const last = symbol.split('.').pop()!;
    const word = new RegExp(`(^|[^\\w$])${last.replace(/[$]/g, '\\$')}([^\\w$]|$)`);
    const m = /^(.*):(\d+)$/.exec(verified.where);
    if (m) {
      const [file, line] = [m[1]!, Number(m[2])];
      if (this.definitionsOf(symbol).some((d) => d.path === file && d.line <= line && line <= d.end_line)) return true;
      const text = this.project.lines(file)[line - 1] ?? '';
      if (!word.test(text)) return false;
      // used together with a concept of the target: one of its (translated) words, or a shared CJK unit
      const words = new Set(conceptsOf(target).flatMap((c) => c.words).map((w) => stem(w)));
      const lineWords = text.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(stem);
      const units = contentUnits(text);
      if (lineWords.some((w) => words.has(w)) || [...contentUnits(target)].some((u) => units.has(u))) return true;
      // or used inside the feature's own code: a declaration the target names, or one accepted in this session
      return this.declarationsAround(file, line).some((d) => namedScore(target, d.name, d.container_name) > 0 || accepted.has(d.name) || (d.container_name !== null && accepted.has(`${d.container_name}.${d.name}`)));
    }
    // a fragment over several lines: it must show the symbol by name
    return word.test(verified.text);
  }

  private symbolProfile(name: string): SymbolRow | undefined {
    return this.definitionsOf(name)[0];
  }

  async validateRelevance(target: string, symbols: string[]): Promise<Record<string, unknown>> {
    const args = { target_feature: target, symbols };
    const s = this.gate('validate_symbol_relevance', args)!;
    const frame = s.row.query_frame ? (JSON.parse(s.row.query_frame) as { target_feature?: string; quotes?: Record<string, string> }) : {};
    const ok = frame.target_feature
      ? [frame.target_feature, frame.quotes?.target_feature ?? ''].some((t) => normalize(t) === normalize(target))
      : isGrounded(target, this.request(s), translateCjk);
    if (!ok) {
      this.record('validate_symbol_relevance', args, undefined, 'target mismatch');
      throw new SessionError('target_mismatch', `target_feature '${target}' is not the QueryFrame's target feature${frame.target_feature ? ` ('${frame.target_feature}')` : ''}.`, {
        hint: 'Pass the target_feature value (or quote) you set with set_query_frame.',
      });
    }
    const unknown = symbols.filter((x) => !this.symbolExists(x));
    if (unknown.length > 0) {
      this.record('validate_symbol_relevance', args, undefined, 'unknown symbols');
      throw new SessionError('unknown_symbols', `Not in the index: ${unknown.join(', ')}`, { hint: 'Use symbol names as find_definitions returns them.' });
    }
    const suggestions = await this.suggest(target, 10);
    // what earlier successful sessions confirmed for this term, strongest first, still in the index
    const cached = this.engine.cache.match(target, this.engine.corpus().lex, this.symbolExists);
    const result = {
      validation_prompt:
        `For each symbol, decide whether it is part of '${target}' in this codebase: it implements it, directly supports it, or is directly affected by the requested change (a caller that inherits the behaviour). ` +
        'Answer with confirm_symbol_relevance. approved=true requires code_evidence that points at code you saw in this session: ' +
        '"path/to/file.ts:LINE" or a code fragment copied from that file (e.g. `AuthService.login(user)` in src/auth.ts).',
      target_feature: target,
      symbols,
      cached_matches: cached.slice(0, 10),
      embedding_suggestions: suggestions,
      backend: this.engine.backendName(),
      schema: { mapped_symbols: [{ symbol: 'string (symbol name)', approved: 'boolean (relevant?)', code_evidence: 'string (required when approved=true)' }] },
    };
    this.store.transaction(() => {
      this.record('validate_symbol_relevance', args, { symbols: [...symbols, ...suggestions.map((x) => x.symbol), ...cached.map((x) => x.symbol)].map((n) => ({ name: n })) });
      this.send(this.require(), { type: 'RELEVANCE_REQUESTED' });
    });
    return result;
  }

  /** The top symbols of the whole index for a target feature (hybrid ranking over code chunks). */
  async suggest(target: string, limit: number): Promise<{ symbol: string; file: string; line: number; similarity: number; rank: number; backend: string }[]> {
    const r = await this.engine.rank(target, { kinds: (k) => k !== 'section', budgetMs: 2000 });
    return r.items
      .filter((x) => x.score > 0 && x.score >= Math.min(this.engine.config.minConfidence, 0.3))
      .slice(0, limit)
      .map((x, i) => ({
        symbol: x.chunk.container ? `${x.chunk.container}.${x.chunk.name}` : x.chunk.name, file: x.chunk.path, line: x.chunk.name_line,
        similarity: x.score, rank: i + 1, backend: SemanticEngine.backendOf(x.legs),
      }));
  }

  async confirmRelevance(mapped: { symbol: string; approved: boolean; code_evidence?: string }[]): Promise<Record<string, unknown>> {
    const args = { mapped_symbols: mapped };
    const s = this.gate('confirm_symbol_relevance', args)!;
    const ledger = this.store.ledger(s.row.id);
    const request = [...ledger].reverse().find((e) => e.tool === 'validate_symbol_relevance' && e.outcome === 'ok');
    if (!request || !s.actor.getSnapshot().context.relevanceRequested) {
      throw new SessionError('validation_required', 'Call validate_symbol_relevance first.', { next_step: NEXT_STEP.VALIDATION });
    }
    const target = String(request.args.target_feature);
    const offered = new Set(request.symbols);
    const evidence = this.evidence(s);
    const listed = Array.isArray(request.args.symbols) ? (request.args.symbols as string[]) : [];
    const unaddressed = listed.filter((x) => !mapped.some((m) => m.symbol === x));
    if (unaddressed.length > 0) {
      this.record('confirm_symbol_relevance', args, undefined, 'not all addressed');
      throw new SessionError('not_addressed', `Every symbol you sent to validate_symbol_relevance must be confirmed (approved: true, with code_evidence) or dismissed (approved: false): missing ${unaddressed.join(', ')}.`, {
        symbols: listed,
      });
    }
    if (!mapped.some((m) => m.approved)) {
      this.record('confirm_symbol_relevance', args, undefined, 'nothing approved');
      throw new SessionError('nothing_approved', 'At least one symbol must be approved with code_evidence.', {
        hint: 'If none is relevant, revert_to_exploration and look for the right code.',
      });
    }
    const accepted: Record<string, unknown>[] = [];
    const rejected: Record<string, unknown>[] = [];
    const dismissed: string[] = [];
    let raiseRisk = false;
    // what earlier passes of this session accepted: it stays accepted (a return to EXPLORATION keeps its facts)
    const before = s.row.mapped_symbols ? (JSON.parse(s.row.mapped_symbols) as Record<string, unknown>[]) : [];
    const wasAccepted = (b: Record<string, unknown>) => typeof b.similarity === 'number' && b.similarity >= 0.3;
    const earlierOf = (symbol: string) => before.find((b) => b.symbol === symbol && wasAccepted(b));
    const acceptedBefore = new Set(before.filter(wasAccepted).map((b) => String(b.symbol)));
    const ranking = this.engine.textRanking(target);
    const cutoff = rankCutoff(ranking.total);
    type Verified = { where: string; text: string };
    // words first, then the rank leg: its words cover little of the target, but its code answers
    // it better than nearly everything else in the project
    const judge = async (m: { symbol: string }, verified: Verified) => {
      const row = this.symbolProfile(m.symbol);
      const scored = row
        ? (await this.engine.scoreSymbols(target, [{ name: row.name, container: row.container_name, file: row.path, signature: row.signature, evidence: verified.text }]))[0]!
        : { score: 0, backend: this.engine.backendName(), legs: { keyword: 0 } };
      const score = scored.score;
      const tier = tierOf(score);
      const rank = row ? this.engine.textRankOf(target, row.path, row.name, row.name_line) : undefined;
      const ranked = rankedScore(rank, ranking.total);
      if (tier === 'REJECTED' && ranked >= 0.3) {
        raiseRisk = true;
        accepted.push({
          symbol: m.symbol, similarity: ranked, tier: 'ACCEPTED_HIGH_RISK', backend: `${scored.backend}+rank`, legs: { ...scored.legs, rank },
          evidence: verified.where, file: row?.path, via: `its code ranks #${rank} of the project's ${ranking.total} declarations for '${target}' (the best ${cutoff} are accepted)`,
        });
      } else if (tier === 'REJECTED') {
        const l = { symbol: m.symbol, score, scored, where: verified.where, file: row?.path, rank };
        // accepted in an earlier pass of this session: a fact that stays (the evidence is verified again above)
        const earlier = earlierOf(l.symbol);
        if (earlier) {
          if (earlier.tier !== 'FACT') raiseRisk = true;
          accepted.push({ ...earlier, evidence: l.where });
        } else pending.push(l);
      } else {
        if (tier === 'ACCEPTED_HIGH_RISK') raiseRisk = true;
        accepted.push({ symbol: m.symbol, similarity: score, tier, backend: scored.backend, legs: scored.legs, evidence: verified.where, file: row?.path });
      }
    };
    let pending: Low[] = [];
    // evidence that is a use of the symbol inside another declaration concerns it once that
    // declaration is accepted — in an earlier pass or in this one (a call inside a method this same
    // confirm accepts): such claims wait for the rest of the pass
    let waiting: { m: { symbol: string }; verified: Verified }[] = [];
    const acceptedNames = () => new Set([...acceptedBefore, ...accepted.map((a) => String(a.symbol))]);
    for (const m of mapped) {
      if (!offered.has(m.symbol)) {
        rejected.push({ symbol: m.symbol, similarity: 0, guidance: { reason: `'${m.symbol}' was not part of validate_symbol_relevance (neither listed nor suggested)`, next_actions: ['Call validate_symbol_relevance again with this symbol.'] } });
        continue;
      }
      if (!m.approved) {
        dismissed.push(m.symbol);
        continue;
      }
      const verified = verifyCodeEvidence(m.code_evidence ?? '', evidence.exploredFiles, (f) => this.project.lines(f));
      if (!verified) {
        rejected.push({
          symbol: m.symbol, similarity: null,
          guidance: {
            reason: 'code_evidence does not point at code this session has seen: give "file:line" of an explored file, or a fragment copied from one',
            next_actions: ['Open the code with get_symbols / find_definitions, then cite it.'],
          },
        });
        continue;
      }
      if (this.evidenceConcerns(m.symbol, verified, target, acceptedBefore)) await judge(m, verified);
      else waiting.push({ m, verified });
    }
    // the words of the request do not reach these: the code graph may (they call, are called by,
    // contain or sit in a symbol the request does reach). Links through the code, to a fixed point:
    // a symbol linked to one that a link accepted in this same pass would be accepted by the next
    // pass anyway — the agent is spared the round trip
    const seedsNow = () => this.relevanceSeeds(target, [...accepted, ...before] as { symbol: string; similarity?: number }[]);
    let seeds = await seedsNow();
    for (let round = 0; round < 6 && (pending.length > 0 || waiting.length > 0); round++) {
      const progress = accepted.length;
      const names = acceptedNames();
      const still: typeof waiting = [];
      for (const w of waiting) {
        if (this.evidenceConcerns(w.m.symbol, w.verified, target, names)) await judge(w.m, w.verified);
        else still.push(w);
      }
      waiting = still;
      if (accepted.length > progress) seeds = await seedsNow();
      const left: Low[] = [];
      for (const l of pending) {
        const link = this.graphLink(l.symbol, seeds);
        if (!link) {
          left.push(l);
          continue;
        }
        raiseRisk = true;
        accepted.push({
          symbol: l.symbol, similarity: link.score, tier: 'ACCEPTED_HIGH_RISK', backend: `${l.scored.backend}+graph`, legs: { ...l.scored.legs, graph: link.score },
          evidence: l.where, file: l.file, via: link.why,
        });
      }
      pending = left;
      if (accepted.length === progress) break;
      seeds = await seedsNow();
    }
    for (const { m, verified } of waiting) {
      rejected.push({
        symbol: m.symbol, similarity: null,
        guidance: {
          reason: `code_evidence (${verified.where}) is not about ${m.symbol}: cite its definition, or a line where it is used together with '${target}' or inside a symbol accepted for it`,
          next_actions: [`find_definitions ${m.symbol}, then cite "file:line" inside it`],
        },
      });
    }
    for (const l of pending) {
      const t = l.scored.terms;
      const words = t ? `; of the target's words it carries ${t.matched.length ? t.matched.join(', ') : 'none'}, not ${t.missing.join(', ') || '—'}` : '';
      rejected.push({
        symbol: l.symbol, similarity: l.score, backend: l.scored.backend, legs: l.scored.legs, ...(t ? { terms: t } : {}),
        guidance: {
          reason: `'${target}' and '${l.symbol}' are too dissimilar (${l.score} < 0.3${words}), its code ranks ${l.rank ? `#${l.rank}` : 'nowhere'} among the project's declarations for it (the best ${cutoff} are accepted), and it does not call, is not called by, does not contain and is not contained in a symbol the target reaches by its words or that was accepted in this session (${[...seeds.labels].slice(0, 6).join(', ') || 'none'})`,
          next_actions: [
            `if it really is part of '${target}', show how: confirm it together with the symbol it connects to (find_references shows callers and callees)`,
            `search_text or query for other symbols related to '${target}'`,
          ],
        },
      });
    }
    // symbols accepted in an earlier pass stay accepted (a return to EXPLORATION keeps its facts)
    const kept = before.filter((b) => !accepted.some((a) => a.symbol === b.symbol) && !rejected.some((r) => r.symbol === b.symbol) && !dismissed.includes(String(b.symbol)));
    // one symbol counts once however it is spelled (Cart.total and total)
    const standing = [...kept, ...accepted];
    const distinct = new Set(standing.map((a) => this.symbolProfile(String(a.symbol))?.id ?? String(a.symbol))).size;
    const need = minAccepted(s.row.intent as Intent);
    const short = distinct < need;
    const to = this.store.transaction(() => {
      this.store.update(s.row.id, { mapped_symbols: JSON.stringify(standing) });
      this.record('confirm_symbol_relevance', args, { symbols: accepted.map((a) => ({ name: a.symbol })) });
      const why = [rejected.length ? `${rejected.length} rejected` : '', short ? `${distinct}/${need} accepted` : ''].filter(Boolean).join(', ');
      return this.send(this.require(), { type: 'RELEVANCE_CONFIRMED', rejected: rejected.length, raiseRisk, accepted: distinct }, why || null);
    });
    return {
      // enough backed symbols stand: the session goes on; rejected claims are simply not credited
      success: !short,
      next_phase: to,
      accepted,
      rejected,
      dismissed,
      accepted_total: { have: distinct, need },
      risk_level: this.require().actor.getSnapshot().context.risk,
      ...(to === 'EXPLORATION' && this.require().actor.getSnapshot().context.risk === 'HIGH'
        ? { risk_note: 'risk_level is HIGH now: the next submit_understanding needs mapped_symbols (nl_term quoted from the request → a symbol of symbols_identified)' }
        : {}),
      next_step: !short ? this.nextStep(to) : rejected.length ? REJECTED_NEXT.en : SHORT_NEXT(distinct, need, dismissed),
      ...(!short && rejected.length
        ? { rejected_note: `${rejected.length} claim(s) were not backed and are not credited (each rejection says why). The session goes on with the ${distinct} symbols that stand.` }
        : {}),
    };
  }

  semanticAllowedReasons(): string[] {
    const s = this.require();
    return allowedReasons(s.actor.getSnapshot().context.missing);
  }

  /** Called after semantic_search ran inside a session. */
  semanticSearched(): void {
    const s = this.active();
    if (s && this.phaseOf(s) === 'SEMANTIC') this.send(s, { type: 'SEMANTIC_SEARCHED' });
  }

  submitSemantic(args: { hypotheses: { text: string; confidence: 'high' | 'medium' | 'low' }[]; semantic_reason: string; search_queries: string[] }): Record<string, unknown> {
    const s = this.gate('submit_semantic', args)!;
    const ctx = s.actor.getSnapshot().context;
    const ledger = this.store.ledger(s.row.id);
    const enteredAt = [...ledger].reverse().find((e) => e.tool === 'submit_understanding' && e.outcome === 'ok')?.seq ?? 0;
    const searches = ledger.filter((e) => e.seq > enteredAt && e.tool === 'semantic_search' && e.outcome === 'ok').map((e) => normalize(String(e.args.query)));
    const problems: string[] = [];
    if (!ctx.semanticSearched || searches.length === 0) problems.push('semantic_search has not been called in this SEMANTIC phase');
    if (!reasonAllowed(args.semantic_reason, ctx.missing))
      problems.push(`semantic_reason '${args.semantic_reason}' is not allowed for what is missing (${describeMissing(ctx.missing) || 'nothing'}); allowed: ${allowedReasons(ctx.missing).join(', ')}`);
    for (const q of args.search_queries) if (!searches.includes(normalize(q))) problems.push(`search query '${q}' was never run with semantic_search in this phase`);
    if (args.hypotheses.length === 0) problems.push('at least one hypothesis is required');
    if (problems.length > 0) {
      this.record('submit_semantic', args, undefined, 'refused');
      throw new SessionError('semantic_refused', problems.join('; '), {
        missing_requirements: ctx.missing,
        hint: 'Choose a semantic_reason that matches why exploration fell short, and list only queries you ran.',
      });
    }
    const to = this.store.transaction(() => {
      const seq = this.record('submit_semantic', args, undefined)!;
      return this.send(this.require(), { type: 'SUBMIT_SEMANTIC', hypotheses: args.hypotheses, mark: seq });
    });
    const hyps = this.require().actor.getSnapshot().context.hypotheses.filter((h) => h.status === 'pending');
    return {
      success: true,
      next_phase: to,
      hypotheses: hyps.map((h) => ({ id: h.id, text: h.text, confidence: h.confidence, slot_source: 'HYPOTHESIS' })),
      next_step: this.nextStep(to),
    };
  }

  submitVerification(verified: { hypothesis: string; status: 'confirmed' | 'rejected'; evidence: { tool: string; target: string; result: string; files: string[] } }[]): Record<string, unknown> {
    const args = { verified };
    const s = this.gate('submit_verification', args)!;
    const ctx = s.actor.getSnapshot().context;
    const ledger = this.store.ledger(s.row.id).filter((e) => e.seq > ctx.semanticMark && e.outcome === 'ok');
    const pending = ctx.hypotheses.filter((h) => h.status === 'pending');
    const problems: string[] = [];
    const results: { id: number; status: 'confirmed' | 'rejected' }[] = [];
    for (const v of verified) {
      const h = pending.find((p) => normalize(p.text) === normalize(v.hypothesis) || v.hypothesis.trim() === `#${p.id}`);
      if (!h) {
        problems.push(`'${v.hypothesis}' is not a pending hypothesis`);
        continue;
      }
      const match = matchEvidence(v.evidence, ledger);
      if (!match.ok) {
        problems.push(`evidence for '${h.text}': ${match.why}`);
        continue;
      }
      if (!aboutHypothesis(v.evidence.target, h.text)) {
        problems.push(`evidence for '${h.text}': ${v.evidence.tool}('${v.evidence.target}') is not about what the hypothesis names; check it with a call on a symbol, file or word the hypothesis mentions`);
        continue;
      }
      results.push({ id: h.id, status: v.status });
    }
    for (const h of pending) if (!results.some((r) => r.id === h.id) && !problems.some((p) => p.includes(h.text))) problems.push(`hypothesis '${h.text}' was not addressed`);
    if (problems.length > 0) {
      this.record('submit_verification', args, undefined, 'refused');
      throw new SessionError('verification_refused', problems.join('; '), {
        pending_hypotheses: pending.map((h) => ({ id: h.id, text: h.text })),
        hint: 'Check each hypothesis with an exploration tool after submit_semantic, then cite that call: evidence.tool and evidence.target as you called it, evidence.files from its result.',
      });
    }
    const to = this.store.transaction(() => {
      this.record('submit_verification', args, undefined);
      return this.send(this.require(), { type: 'SUBMIT_VERIFICATION', results });
    });
    return {
      success: true,
      next_phase: to,
      confirmed: results.filter((r) => r.status === 'confirmed').length,
      rejected: results.filter((r) => r.status === 'rejected').length,
      slot_sources: 'confirmed hypotheses are now FACT',
      next_step: this.nextStep(to),
    };
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
      intent === 'INVESTIGATE' || intent === 'QUESTION'
        ? { allowed: false as const, file: null, error: `${intent} sessions never write files`, hint: 'Start an IMPLEMENT or MODIFY session to change code.' }
        : checkWriteTarget(this.project.root, filePath, allowNew, explored);
    this.record('check_write_target', args, undefined, verdict.allowed ? undefined : 'denied');
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
    const learned = outcome === 'success' ? this.learn(s.row.id) : 0;
    return {
      success: true, session_id: s.row.id, outcome, phase: 'FINISHED', ...(outcome === 'success' ? { cached_matches_learned: learned } : {}),
      writes: from === 'READY' ? "until the user's next message, only the files READY allowed" : "refused until the user's next message (READY was not reached)",
    };
  }

  /**
   * A successful session teaches the NL→symbol cache: every symbol it confirmed relevant (with the
   * evidence the server verified) against the target feature, its quote, and the request's words
   * the understanding mapped to that symbol.
   */
  private learn(id: string): number {
    const row = this.store.get(id);
    if (!row?.mapped_symbols) return 0;
    // only a session the machine itself brought to READY teaches, and only with the user's own words
    if (!this.store.transitions(id).some((t) => t.to_phase === 'READY')) return 0;
    const request = normalize(row.query);
    const accepted = JSON.parse(row.mapped_symbols) as { symbol: string; evidence?: string; file?: string }[];
    if (accepted.length === 0) return 0;
    const frame = row.query_frame ? (JSON.parse(row.query_frame) as { target_feature?: string; quotes?: Record<string, string> }) : {};
    const understanding = row.understanding ? (JSON.parse(row.understanding) as UnderstandingInput) : undefined;
    const terms = [...new Set([frame.quotes?.target_feature].filter((t): t is string => !!t && !!normalize(t) && request.includes(normalize(t))))];
    const pairs: { term: string; symbol: string; file?: string | null; evidence?: string | null }[] = [];
    for (const a of accepted) {
      for (const term of terms) pairs.push({ term, symbol: a.symbol, file: a.file ?? null, evidence: a.evidence ?? null });
      for (const m of understanding?.mapped_symbols ?? []) {
        if (m.symbol === a.symbol && request.includes(normalize(m.nl_term))) pairs.push({ term: m.nl_term, symbol: a.symbol, file: a.file ?? null, evidence: a.evidence ?? null });
      }
    }
    return this.engine.cache.learn(id, pairs);
  }

  abort(reason: string): Record<string, unknown> {
    const s = this.gate('abort_session', { reason })!;
    this.store.transaction(() => {
      this.record('abort_session', { reason }, undefined);
      this.send(s, { type: 'ABORT' }, reason);
      this.store.update(s.row.id, { outcome: 'aborted' });
    });
    return { success: true, session_id: s.row.id, phase: 'ABORTED', writes: "refused until the user's next message" };
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
      pending_hypotheses: ctx.hypotheses.filter((h) => h.status === 'pending'),
      mapped_symbols: s2.row.mapped_symbols ? JSON.parse(s2.row.mapped_symbols) : [],
      allowed_tools: allowedTools(phase),
      next_step: this.nextStep(phase),
    };
  }
}

/** A claim the words and the rank do not accept: the graph may still link it. */
type Low = { symbol: string; score: number; scored: { score: number; backend: string; legs: object; terms?: { matched: string[]; missing: string[] } }; where: string; file?: string; rank?: number };

/** Fewer symbols stand than the intent needs: dismissing is not a way through, finding more is. */
const SHORT_NEXT = (have: number, need: number, dismissed: string[]) =>
  `Only ${have} of the ${need} symbols this request needs are accepted${dismissed.length ? ` (dismissed: ${dismissed.slice(0, 5).join(', ')})` : ''}. ` +
  'Explore again for the code the change will use or touch (find_references on the accepted symbols shows their callers and callees; symbols accepted now stay accepted), then submit_understanding and validate them.';

/** What to do when too few stand after a rejection, in both languages (localize() picks). */
const REJECTED_NEXT = {
  en: 'Too few symbols stand: some were rejected (each rejection says why). Explore again following its guidance (symbols accepted now stay accepted), then submit_understanding.',
  ja: '受理されたシンボルが足りません（却下の理由はそれぞれに記載）。ガイダンスに従って再度探索し（受理済みのシンボルは保持されます）、submit_understanding を呼んでください。',
};

/** The English words the JA/ZH→EN glossary gives for a text's terms (QueryFrame grounding across languages). */
function translateCjk(text: string): string[] {
  return conceptsOf(text).filter((c) => c.source !== 'query').flatMap((c) => c.words);
}

function allowedReasons(missing: readonly Missing[]): string[] {
  return SEMANTIC_REASONS.filter((r) => reasonAllowed(r, missing));
}

function summarize(result: Record<string, unknown> | undefined): string | null {
  if (!result) return null;
  const total = result.total ?? (Array.isArray(result.items) ? result.items.length : undefined);
  return total !== undefined ? `${total} results` : null;
}

/** The main argument a tool was called with, as an agent would name it in evidence. */
export function targetOf(e: LedgerEntry): string[] {
  const a = e.args as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ['name', 'pattern', 'text', 'query', 'file', 'path']) if (typeof a[k] === 'string') out.push(a[k] as string);
  const from = a.from as { file?: string; line?: number; column?: number } | undefined;
  if (from?.file) out.push(`${from.file}:${from.line}`, `${from.file}:${from.line}:${from.column}`, from.file);
  return out;
}

/** Does a call's target concern the hypothesis: a word, identifier (or its parts) or file the hypothesis names? */
export function aboutHypothesis(target: string, hypothesis: string): boolean {
  const t = contentUnits(target.replace(/\.[A-Za-z]{1,5}(:\d+)*$/, ''));
  const h = contentUnits(hypothesis);
  for (const u of t) if (h.has(u)) return true;
  const parts = (x: string) => new Set(x.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3).map(stem));
  const hp = parts(hypothesis);
  return [...parts(target)].some((w) => hp.has(w));
}

export function matchEvidence(ev: { tool: string; target: string; files: string[] }, ledger: readonly LedgerEntry[]): { ok: true } | { ok: false; why: string } {
  const calls = ledger.filter((e) => e.tool === ev.tool);
  if (calls.length === 0) return { ok: false, why: `no ${ev.tool} call was made after submit_semantic` };
  // names are compared as the tool compared them: exactly, except a case-insensitive text search
  const same = (e: LedgerEntry, t: string) => (e.tool === 'search_text' && e.args.case_sensitive === false ? normalize(t) === normalize(ev.target) : t.trim() === ev.target.trim());
  const sameTarget = calls.filter((e) => targetOf(e).some((t) => same(e, t)));
  if (sameTarget.length === 0) return { ok: false, why: `no ${ev.tool} call with target '${ev.target}' was made after submit_semantic` };
  if (ev.files.length === 0) return { ok: false, why: 'evidence.files is empty: name the files the call returned' };
  const files = ev.files.map((f) => f.replace(/^\.\//, ''));
  const call = sameTarget.find((e) => files.every((f) => e.files.includes(f)));
  if (!call) return { ok: false, why: `files [${files.join(', ')}] are not among the results of ${ev.tool}('${ev.target}')` };
  return { ok: true };
}

/**
 * Accepts "path:line" of an explored file, or a code fragment (in backticks, or the whole text)
 * that really occurs in an explored file. Returns the verified code text around it.
 */
export function verifyCodeEvidence(
  evidence: string, explored: ReadonlySet<string>, lines: (file: string) => string[],
): { where: string; text: string } | undefined {
  const text = evidence.trim();
  if (!text) return undefined;
  for (const m of text.matchAll(/([\w@./-]+\.[A-Za-z]{1,5}):(\d+)/g)) {
    const file = m[1]!.replace(/^\.\//, '');
    const line = Number(m[2]);
    if (!explored.has(file)) continue;
    const ls = lines(file);
    if (line >= 1 && line <= ls.length) return { where: `${file}:${line}`, text: ls.slice(Math.max(0, line - 3), line + 2).join('\n') };
  }
  const fold = (x: string) => x.replace(/\s+/g, ' ').trim();
  const fragments = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  if (fragments.length === 0) fragments.push(text);
  for (const frag of fragments) {
    const f = fold(frag);
    if (f.replace(/\s/g, '').length < 10) continue; // `export` is in every file: a fragment must say something
    for (const file of explored) {
      const ls = lines(file);
      const idx = ls.findIndex((l) => fold(l).includes(f));
      if (idx >= 0) return { where: `${file}:${idx + 1}`, text: ls.slice(Math.max(0, idx - 2), idx + 3).join('\n') };
      if (fold(ls.join('\n')).includes(f)) return { where: file, text: f };
    }
  }
  return undefined;
}
