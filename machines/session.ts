/**
 * The /code session machine (seed 001, v3.7). Every phase change of a session goes through here.
 * The server computes verdicts from evidence it holds (the ledger, the index) and sends them as
 * events; the guards below decide which transition, if any, those verdicts allow.
 *
 *   phase          event                 guard                              → phase
 *   EXPLORATION    SET_QUERY_FRAME       –                                    (stays; a second frame never lowers the risk)
 *   EXPLORATION    SUBMIT_UNDERSTANDING  frameSet ∧ (nothingMissing ∨ verifiedBefore) → VALIDATION
 *   EXPLORATION    SUBMIT_UNDERSTANDING  frameSet                             → SEMANTIC
 *   VALIDATION     RELEVANCE_REQUESTED   –                                    (stays)
 *   VALIDATION     RELEVANCE_CONFIRMED   relevanceRequested ∧ tooFewAccepted   → EXPLORATION
 *   VALIDATION     RELEVANCE_CONFIRMED   relevanceRequested ∧ pendingHypotheses → VERIFICATION
 *   VALIDATION     RELEVANCE_CONFIRMED   relevanceRequested                   → READY
 *   SEMANTIC       SEMANTIC_SEARCHED     –                                    (stays)
 *   SEMANTIC       SUBMIT_SEMANTIC       semanticSearched ∧ hasHypotheses      → VERIFICATION
 *   VERIFICATION   SUBMIT_VERIFICATION   addressesAllPending ∧ (allRejected ∨ ¬evidenceCovers) → SEMANTIC
 *   VERIFICATION   SUBMIT_VERIFICATION   addressesAllPending ∧ relevanceConfirmed → READY
 *   VERIFICATION   SUBMIT_VERIFICATION   addressesAllPending                  → VALIDATION
 *   any live       REVERT                –                                    → EXPLORATION
 *   any live       END / ABORT           –                                    → FINISHED / ABORTED
 */
import { and, assign, not, or, setup } from 'xstate';

export type Intent = 'IMPLEMENT' | 'MODIFY' | 'INVESTIGATE' | 'QUESTION';
export type Risk = 'HIGH' | 'MEDIUM' | 'LOW';
export type HypothesisConfidence = 'high' | 'medium' | 'low';

export interface Hypothesis {
  id: number;
  text: string;
  confidence: HypothesisConfidence;
  status: 'pending' | 'confirmed' | 'rejected';
}

/** A requirement of submit_understanding the last submission fell short of (seed 001's minimums). */
export type Requirement = 'symbols_identified' | 'entry_points' | 'files_analyzed' | 'existing_patterns';
export interface Missing {
  requirement: Requirement;
  have: number;
  need: number;
}

export interface SessionContext {
  intent: Intent;
  risk: Risk;
  frameSet: boolean;
  /** requirements the last understanding lacked (drives SEMANTIC's allowed reasons) */
  missing: Missing[];
  relevanceRequested: boolean;
  relevanceConfirmed: boolean;
  semanticSearched: boolean;
  hypotheses: Hypothesis[];
  /** ledger sequence number of the last submit_semantic: verification evidence must come after it */
  semanticMark: number;
  /**
   * the shortfall confirmed hypotheses answered (the understanding that led to their SEMANTIC): a
   * later understanding skips SEMANTIC only when it is no thinner than that. Absent in snapshots
   * made before it was kept.
   */
  covered?: Missing[];
  /** what confirmed hypotheses' evidence showed, over every pass: explored files, symbols the
   * hypotheses named and the evidence holds, distinct calls. Absent in older snapshots. */
  shown?: Shown;
  /** what the understanding that sent the session to SEMANTIC listed itself: evidence of it makes up nothing */
  listed?: Listed;
}

/** Files and symbols (by their own names) an understanding listed. */
export interface Listed {
  files: string[];
  symbols: string[];
}

/** What verified evidence showed (semantic.ts computes it from the ledger and the index). */
export interface Shown {
  files: string[];
  symbols: string[];
  calls: string[];
}

export type SessionEvent =
  | { type: 'SET_QUERY_FRAME'; risk: Risk }
  | { type: 'SUBMIT_UNDERSTANDING'; missing: Missing[]; listed?: Listed }
  | { type: 'RELEVANCE_REQUESTED' }
  /** accepted: the symbols of the session accepted so far (this pass and earlier ones), distinct */
  | { type: 'RELEVANCE_CONFIRMED'; rejected: number; raiseRisk: boolean; accepted: number; need?: number }
  | { type: 'SEMANTIC_SEARCHED' }
  | { type: 'SUBMIT_SEMANTIC'; hypotheses: { text: string; confidence: HypothesisConfidence }[]; mark: number }
  | { type: 'SUBMIT_VERIFICATION'; results: { id: number; status: 'confirmed' | 'rejected' }[]; shown: Shown }
  | { type: 'REVERT' }
  | { type: 'END'; outcome: 'success' | 'failure' | 'abandoned' }
  | { type: 'ABORT' };

export interface SessionInput {
  intent: Intent;
}

/**
 * Symbols an understanding must name (seed 001: IMPLEMENT/MODIFY at least 3) — and, the same
 * number, symbols that must survive validation before READY. A rejected claim is not credited but
 * does not by itself send the session back: what counts is whether enough backed symbols stand, so
 * neither dismissing true claims nor padding with false ones gets through.
 */
export const MIN_SYMBOLS: Record<Intent, number> = { IMPLEMENT: 3, MODIFY: 3, INVESTIGATE: 1, QUESTION: 0 };

/** Accepted symbols READY needs: the intent's minimum, and at least one (a validation accepts something). */
export const minAccepted = (intent: Intent): number => Math.max(1, MIN_SYMBOLS[intent]);

/** IMPLEMENT and MODIFY change code; INVESTIGATE and QUESTION only answer (they never write a file). */
export const changesCode = (intent: Intent): boolean => intent === 'IMPLEMENT' || intent === 'MODIFY';

const pending = (c: SessionContext) => c.hypotheses.filter((h) => h.status === 'pending');
const union = (a: Shown | undefined, b: Shown): Shown => ({
  files: [...new Set([...(a?.files ?? []), ...b.files])],
  symbols: [...new Set([...(a?.symbols ?? []), ...b.symbols])],
  calls: [...new Set([...(a?.calls ?? []), ...b.calls])],
});
/**
 * Does what verified evidence showed make up the shortfall that sent the session to SEMANTIC? Each
 * requirement by what answers it: files by explored files the evidence cites, symbols by symbols the
 * hypotheses name that the evidence holds, entry points and patterns by distinct verifying calls.
 * One confirmation of anything answered every shortfall (red team adv19: READY on one symbol and no file).
 */
export const evidenceCovers = (missing: readonly Missing[], shown: Shown, listed?: Listed): boolean => {
  const credit = credits(missing, shown, listed);
  // (a need is no more than the project holds: understanding.ts caps it where the shortfall is taken)
  return missing.every((m) => m.have + (credit.get(m.requirement) ?? 0) >= m.need);
};

/**
 * What verified evidence adds to each requirement: files and symbols beyond those the understanding
 * listed (red team adv21: a symbol credited in one pass counted again once a later understanding
 * listed it); distinct calls, each standing for one entry point or one pattern, not both (adv22).
 */
export const credits = (missing: readonly Missing[], shown: Shown, listed?: Listed): Map<Requirement, number> => {
  const out = new Map<Requirement, number>([
    ['files_analyzed', shown.files.filter((f) => !listed?.files.includes(f)).length],
    ['symbols_identified', shown.symbols.filter((n) => !listed?.symbols.includes(n)).length],
  ]);
  let calls = shown.calls.length;
  for (const requirement of ['entry_points', 'existing_patterns'] as const) {
    const m = missing.find((x) => x.requirement === requirement);
    const used = Math.min(calls, m ? Math.max(0, m.need - m.have) : 0);
    out.set(requirement, used);
    calls -= used;
  }
  return out;
};
/** Two shortfalls as one: each requirement at the fewest it had. */
const deepest = (a: Missing[], b: Missing[]): Missing[] => {
  const out = new Map<string, Missing>();
  for (const m of [...a, ...b]) if (!out.has(m.requirement) || out.get(m.requirement)!.have > m.have) out.set(m.requirement, m);
  return [...out.values()];
};
const RISK_ORDER: Risk[] = ['LOW', 'MEDIUM', 'HIGH'];
const maxRisk = (a: Risk, b: Risk): Risk => (RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b);

export const sessionMachine = setup({
  types: {} as { context: SessionContext; events: SessionEvent; input: SessionInput },
  guards: {
    frameSet: ({ context }) => context.frameSet,
    nothingMissing: ({ event }) => event.type === 'SUBMIT_UNDERSTANDING' && event.missing.length === 0,
    // hypotheses verified in an earlier pass are facts: a return to EXPLORATION does not send the
    // session through SEMANTIC and VERIFICATION again for what they already cover
    // for what they cover: a verified hypothesis about a missing file does not excuse an understanding
    // that later drops its entry points and patterns too
    verifiedBefore: ({ context, event }) => context.hypotheses.some((h) => h.status === 'confirmed') && event.type === 'SUBMIT_UNDERSTANDING' &&
      (context.covered === undefined || event.missing.every((m) => context.covered!.some((c) => c.requirement === m.requirement && c.have <= m.have))),
    relevanceRequested: ({ context }) => context.relevanceRequested,
    tooFewAccepted: ({ context, event }) => event.type === 'RELEVANCE_CONFIRMED' && event.accepted < (event.need ?? minAccepted(context.intent)),
    pendingHypotheses: ({ context }) => pending(context).length > 0,
    semanticSearched: ({ context }) => context.semanticSearched,
    hasHypotheses: ({ event }) => event.type === 'SUBMIT_SEMANTIC' && event.hypotheses.length > 0,
    addressesAllPending: ({ context, event }) =>
      event.type === 'SUBMIT_VERIFICATION' && pending(context).every((h) => event.results.some((r) => r.id === h.id)),
    allRejected: ({ event }) => event.type === 'SUBMIT_VERIFICATION' && event.results.every((r) => r.status === 'rejected'),
    evidenceCovers: ({ context, event }) => event.type === 'SUBMIT_VERIFICATION' && evidenceCovers(context.missing, union(context.shown, event.shown), context.listed),
    relevanceConfirmed: ({ context }) => context.relevanceConfirmed,
  },
  actions: {
    // re-framing the request is no way to shed risk: after the first frame, risk only goes up
    setFrame: assign(({ context, event }) =>
      event.type === 'SET_QUERY_FRAME' ? { frameSet: true, risk: context.frameSet ? maxRisk(context.risk, event.risk) : event.risk } : {}),
    recordMissing: assign(({ event }) => (event.type === 'SUBMIT_UNDERSTANDING' ? { missing: event.missing, semanticSearched: false, ...(event.listed ? { listed: event.listed } : {}) } : {})),
    clearMissing: assign({ missing: [] as Missing[] }),
    requestRelevance: assign({ relevanceRequested: true }),
    applyRelevance: assign(({ context, event }) =>
      event.type === 'RELEVANCE_CONFIRMED'
        ? {
            relevanceConfirmed: event.accepted >= (event.need ?? minAccepted(context.intent)),
            relevanceRequested: false,
            risk: event.raiseRisk ? 'HIGH' : context.risk,
          }
        : {},
    ),
    markSemanticSearched: assign({ semanticSearched: true }),
    addHypotheses: assign(({ context, event }) => {
      if (event.type !== 'SUBMIT_SEMANTIC') return {};
      const start = context.hypotheses.length;
      return {
        hypotheses: [...context.hypotheses, ...event.hypotheses.map((h, i) => ({ id: start + i + 1, ...h, status: 'pending' as const }))],
        semanticMark: event.mark,
      };
    }),
    applyVerification: assign(({ context, event }) => {
      if (event.type !== 'SUBMIT_VERIFICATION') return {};
      const byId = new Map(event.results.map((r) => [r.id, r.status]));
      const shown = union(context.shown, event.shown);
      // what they answered: the shortfall that sent the session to SEMANTIC (the deepest, over
      // passes), once their evidence makes it up
      const answered = event.results.some((r) => r.status === 'confirmed') && evidenceCovers(context.missing, shown, context.listed);
      const covered = answered ? deepest(context.covered ?? [], context.missing) : context.covered;
      return { hypotheses: context.hypotheses.map((h) => (byId.has(h.id) ? { ...h, status: byId.get(h.id)! } : h)), shown, ...(covered ? { covered } : {}) };
    }),
    resetSemantic: assign({ semanticSearched: false }),
    resetForExploration: assign(({ context }) => ({
      relevanceRequested: false,
      relevanceConfirmed: false,
      semanticSearched: false,
      hypotheses: context.hypotheses.map((h) => (h.status === 'pending' ? { ...h, status: 'rejected' as const } : h)),
    })),
  },
}).createMachine({
  id: 'session',
  initial: 'EXPLORATION',
  context: ({ input }) => ({
    intent: input.intent,
    risk: changesCode(input.intent) ? 'MEDIUM' : 'LOW',
    frameSet: false,
    missing: [],
    relevanceRequested: false,
    relevanceConfirmed: false,
    semanticSearched: false,
    hypotheses: [],
    semanticMark: 0,
    covered: [],
  }),
  on: {
    END: '.FINISHED',
    ABORT: '.ABORTED',
  },
  states: {
    EXPLORATION: {
      on: {
        SET_QUERY_FRAME: { actions: 'setFrame' },
        SUBMIT_UNDERSTANDING: [
          { guard: and(['frameSet', or(['nothingMissing', 'verifiedBefore'])]), target: 'VALIDATION', actions: 'clearMissing' },
          { guard: 'frameSet', target: 'SEMANTIC', actions: 'recordMissing' },
        ],
      },
    },
    VALIDATION: {
      on: {
        RELEVANCE_REQUESTED: { actions: 'requestRelevance' },
        RELEVANCE_CONFIRMED: [
          { guard: and(['relevanceRequested', 'tooFewAccepted']), target: 'EXPLORATION', actions: 'applyRelevance' },
          { guard: and(['relevanceRequested', 'pendingHypotheses']), target: 'VERIFICATION', actions: 'applyRelevance' },
          { guard: 'relevanceRequested', target: 'READY', actions: 'applyRelevance' },
        ],
        REVERT: { target: 'EXPLORATION', actions: 'resetForExploration' },
      },
    },
    SEMANTIC: {
      on: {
        SEMANTIC_SEARCHED: { actions: 'markSemanticSearched' },
        SUBMIT_SEMANTIC: { guard: and(['semanticSearched', 'hasHypotheses']), target: 'VERIFICATION', actions: 'addHypotheses' },
        REVERT: { target: 'EXPLORATION', actions: 'resetForExploration' },
      },
    },
    VERIFICATION: {
      on: {
        SUBMIT_VERIFICATION: [
          { guard: and(['addressesAllPending', or(['allRejected', not('evidenceCovers')])]), target: 'SEMANTIC', actions: ['applyVerification', 'resetSemantic'] },
          { guard: and(['addressesAllPending', 'relevanceConfirmed']), target: 'READY', actions: 'applyVerification' },
          { guard: 'addressesAllPending', target: 'VALIDATION', actions: 'applyVerification' },
        ],
        REVERT: { target: 'EXPLORATION', actions: 'resetForExploration' },
      },
    },
    READY: {
      on: { REVERT: { target: 'EXPLORATION', actions: 'resetForExploration' } },
    },
    FINISHED: { type: 'final' },
    ABORTED: { type: 'final' },
  },
});
