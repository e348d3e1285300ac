/** The /code session tools (seed 001): each step of the phase-gated session, as tool records. */
import { z } from 'zod';
import { semanticSearch } from '../query/semantic.js';
import { rankingRows } from '../session/evidence.js';
import type { SessionService } from '../session/service.js';
import { SEMANTIC_REASONS } from '../session/understanding.js';
import { LIMITS, list, pathArg, text } from '../server/limits.js';
import { answer, count, line, paging, step } from './answers.js';
import { stringArgs, type ToolContext, tool } from './record.js';

const slot = z.object({ value: text(LIMITS.text, 'value').min(1), quote: text(LIMITS.text, 'quote').min(1) }).optional();
const name = text(LIMITS.name, 'symbol').min(1);
const words = (what: string) => text(LIMITS.text, what);
const ANNOTATE = { destructiveHint: false, openWorldHint: false } as const;
const risk = z.string().describe('LOW, MEDIUM or HIGH');
const verdict = z.object({ symbol: z.string() }).loose();

function sessionsOf(ctx: ToolContext): SessionService {
  if (!ctx.sessions) throw new Error('the session tools are not served here');
  return ctx.sessions;
}

export const startSessionTool = tool({
  name: 'start_session',
  title: 'Start a /code session',
  description:
    'Begin a phase-gated /code session (one per project). intent: IMPLEMENT (build something named), MODIFY (change/fix existing code; when unsure), ' +
    "INVESTIGATE (understand only), QUESTION (no code needed). query: the user's request exactly as written. Returns the QueryFrame extraction prompt; " +
      'pass query_frame (the slots set_query_frame takes) to set it in the same call.',
  input: {
    intent: z.enum(['IMPLEMENT', 'MODIFY', 'INVESTIGATE', 'QUESTION']),
    query: text(LIMITS.request, 'query').min(1).describe("the user's original request, verbatim"),
    query_frame: z.object({ target_feature: slot, trigger_condition: slot, observed_issue: slot, desired_action: slot }).optional()
      .describe('optional: the QueryFrame slots (as set_query_frame takes them), set in the same call'),
  },
  output: answer({ ...step, session_id: z.string(), intent: z.string(), phase: z.string(), query_frame: z.object({ status: z.string(), extraction_prompt: z.string().optional() }).loose(), allowed_tools: z.array(z.string()) }),
  annotations: { title: 'Start session', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'session',
  run: (ctx, args) => sessionsOf(ctx).startWithFrame(args.intent, args.query, args.query_frame),
});

export const setQueryFrameTool = tool({
  name: 'set_query_frame',
  title: 'Set the QueryFrame',
  description:
    "Structure the request into slots, each {value, quote}: the quote must be copied from the user's request (full-width/half-width and case are normalised), " +
    'the value must come from its quote. Omit slots the request does not state. A later call changes the slots it gives and keeps the others (kept_from_before). Returns risk_level, missing_slots and investigation_guidance.',
  input: {
    target_feature: slot, trigger_condition: slot, observed_issue: slot, desired_action: slot,
    // agents pass the slots nested as start_session takes them (agent trials tr28, tr36, tr37): the
    // call then set nothing; the nesting is taken as the same slots
    query_frame: z.object({ target_feature: slot, trigger_condition: slot, observed_issue: slot, desired_action: slot }).optional()
      .describe('the same slots nested, as start_session takes them (top-level slots win)'),
  },
  output: answer({ ...step, query_frame: z.record(z.string(), z.unknown()), risk_level: risk, missing_slots: z.array(z.string()), investigation_guidance: z.object({ hints: z.array(z.string()), recommended_tools: z.array(z.string()) }).loose().optional() }),
  annotations: { title: 'Set QueryFrame', readOnlyHint: false, idempotentHint: true, ...ANNOTATE },
  role: 'session',
  run: (ctx, { query_frame: nested, ...slots }) => sessionsOf(ctx).setQueryFrame({ ...nested, ...Object.fromEntries(Object.entries(slots).filter(([, v]) => v !== undefined)) }),
});

export const submitUnderstandingTool = tool({
  name: 'submit_understanding',
  title: 'Submit understanding',
  description:
    'End EXPLORATION. The server checks every claim against this session\'s tool calls and the index: symbols must exist and have appeared in results, ' +
    'files must have been shown by a tool, entry points must name listed symbols, no duplicates; find_definitions and find_references must have been used. ' +
    'IMPLEMENT/MODIFY need 3 symbols, 1 entry point, 2 files, 1 pattern. Complete → VALIDATION; short → SEMANTIC.',
  input: {
    symbols_identified: list(text(LIMITS.name, 'symbol'), LIMITS.list, 'symbols_identified').describe('symbol names (Class.method allowed)'),
    entry_points: list(text(LIMITS.name, 'entry point'), LIMITS.list, 'entry_points').describe('e.g. "AuthService.login()" — must name a listed symbol'),
    existing_patterns: list(words('pattern'), LIMITS.list, 'existing_patterns'),
    files_analyzed: list(pathArg('file'), LIMITS.list, 'files_analyzed').describe('project-relative paths'),
    notes: words('notes').optional(),
    mapped_symbols: list(z.object({ nl_term: words('nl_term'), symbol: text(LIMITS.name, 'symbol') }), LIMITS.list, 'mapped_symbols').optional()
      .describe('required at risk HIGH: words quoted from the request → the symbol that implements them'),
  },
  output: answer({ ...step, evaluated_confidence: z.string().optional(), missing_requirements: z.array(z.unknown()).optional() }),
  annotations: { title: 'Submit understanding', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'judge',
  run: (ctx, args) => sessionsOf(ctx).submitUnderstanding(args),
});

export const validateRelevanceTool = tool({
  name: 'validate_symbol_relevance',
  title: 'Validate symbol relevance',
  description:
    'VALIDATION: ask the server which symbols relate to the target feature. Returns a validation prompt, cached matches, suggestions from the whole index, ' +
    'and the schema for confirm_symbol_relevance.',
  input: { target_feature: words('target_feature').min(1), symbols: list(name, LIMITS.list, 'symbols').min(1) },
  output: answer({ validation_prompt: z.string(), target_feature: z.string(), symbols: z.array(z.string()), cached_matches: z.array(z.unknown()), embedding_suggestions: z.array(z.object({ symbol: z.string(), file: z.string(), line: line.optional(), similarity: z.number() }).loose()), backend: z.string().optional(), schema: z.unknown().optional() }),
  annotations: { title: 'Validate relevance', readOnlyHint: false, idempotentHint: true, ...ANNOTATE },
  role: 'judge',
  proves: rankingRows,
  run: (ctx, args) => sessionsOf(ctx).validateRelevance(args.target_feature, args.symbols),
});

export const confirmRelevanceTool = tool({
  name: 'confirm_symbol_relevance',
  title: 'Confirm symbol relevance',
  description:
    'VALIDATION: for each symbol, approved + code_evidence ("file:line" of an explored file, or a fragment copied from it). The server scores each ' +
    'against the target feature: > 0.6 FACT; 0.3–0.6 accepted with risk raised to HIGH; < 0.3 rejected with guidance. All accepted → READY (or VERIFICATION).',
  input: {
    mapped_symbols: list(z.object({ symbol: name, approved: z.boolean(), code_evidence: words('code_evidence').optional() }), LIMITS.list, 'mapped_symbols').min(1),
  },
  output: answer({ ...step, accepted: z.array(verdict), rejected: z.array(verdict), dismissed: z.array(z.unknown()), accepted_total: z.object({ have: count, need: count }).loose().optional(), risk_level: risk.optional() }),
  annotations: { title: 'Confirm relevance', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'judge',
  proves: rankingRows,
  run: (ctx, args) => sessionsOf(ctx).confirmRelevance(args.mapped_symbols),
});

export const semanticSearchTool = tool({
  name: 'semantic_search',
  title: 'Semantic search',
  description:
    'Search code by meaning (Japanese, Chinese or English descriptions) over functions, methods, classes and markdown sections. ' +
    'Hybrid score: local embedding model when installed (code-intel doctor), keywords with a JA/ZH→EN glossary, and matches confirmed by earlier successful sessions. ' +
    'Each result has file, span, symbol, score and backend. Inside a /code session only in the SEMANTIC phase; without a session, free. Results are hypotheses until verified.',
  input: {
    query: text(LIMITS.query, 'query').min(1),
    path: pathArg().optional().describe('limit to a directory'),
    limit: z.number().int().min(1).max(50).optional(),
    offset: z.number().int().min(0).max(100_000).optional(),
  },
  output: answer({ query: z.string(), expanded_terms: z.array(z.string()).optional(), backend: z.string(), vector: z.record(z.string(), z.unknown()).optional(), items: z.array(z.object({ file: z.string(), line, start_line: line.optional(), end_line: line.optional(), symbol: z.string(), kind: z.string(), score: z.number(), backend: z.string().optional() }).loose()), ...paging, note: z.string().optional() }),
  annotations: { title: 'Semantic search', readOnlyHint: true, idempotentHint: true, ...ANNOTATE },
  role: 'explore',
  proves: rankingRows,
  target: (args) => stringArgs(args, ['query', 'path']),
  recorded: (sessions) => sessions.semanticSearched(),
  run: ({ project, inside }, args) => semanticSearch(project, { ...args, path: args.path ? inside(args.path) : undefined }),
});

export const submitSemanticTool = tool({
  name: 'submit_semantic',
  title: 'Submit semantic findings',
  description:
    'SEMANTIC: hypotheses with confidence, the semantic_reason (must match the missing requirements: symbols_identified → no_definition_found|architecture_unknown; ' +
    'entry_points → no_definition_found|no_reference_found; existing_patterns → no_similar_implementation|architecture_unknown; files_analyzed → context_fragmented|architecture_unknown; ' +
    'context_fragmented and architecture_unknown always), and the semantic_search queries you ran. → VERIFICATION.',
  input: {
    hypotheses: list(z.object({ text: words('hypothesis').min(1), confidence: z.enum(['high', 'medium', 'low']).default('medium') }), LIMITS.list, 'hypotheses').min(1),
    semantic_reason: z.enum(SEMANTIC_REASONS),
    search_queries: list(text(LIMITS.query, 'search query'), LIMITS.list, 'search_queries').min(1),
  },
  output: answer({ ...step }),
  annotations: { title: 'Submit semantic', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'judge',
  run: (ctx, args) => sessionsOf(ctx).submitSemantic(args),
});

export const submitVerificationTool = tool({
  name: 'submit_verification',
  title: 'Submit verification',
  description:
    'VERIFICATION: address every pending hypothesis (text or "#id") as confirmed or rejected, with evidence {tool, target, result, files} that names a tool call ' +
    'made after submit_semantic: the same tool, its main argument as target, and files among its results. Confirmed → FACT.',
  input: {
    verified: list(z.object({
      hypothesis: words('hypothesis').min(1),
      status: z.enum(['confirmed', 'rejected']),
      evidence: z.object({
        tool: text(64, 'tool').min(1), target: words('target').min(1), result: words('result'), files: list(pathArg('file'), LIMITS.list, 'files'),
      }),
    }), LIMITS.list, 'verified').min(1),
  },
  output: answer({ ...step }),
  annotations: { title: 'Submit verification', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'judge',
  run: (ctx, args) => sessionsOf(ctx).submitVerification(args.verified),
});

export const checkWriteTargetTool = tool({
  name: 'check_write_target',
  title: 'Check write target',
  description:
    'READY: may this file be edited? Only files this session explored, or (allow_new_files) a new file in an explored directory. INVESTIGATE/QUESTION sessions never write.',
  input: { file_path: pathArg('file_path', 1), allow_new_files: z.boolean().optional() },
  output: answer({ allowed: z.boolean(), file: z.string().optional(), new_file: z.boolean().optional(), error: z.string().nullable().optional() }),
  annotations: { title: 'Check write target', readOnlyHint: true, idempotentHint: true, ...ANNOTATE },
  role: 'judge',
  run: (ctx, args) => sessionsOf(ctx).checkWrite(args.file_path, args.allow_new_files ?? false),
});

export const revertTool = tool({
  name: 'revert_to_exploration',
  title: 'Revert to exploration',
  description: 'Go back to EXPLORATION (the plan changed, or validation rejected symbols). Evidence gathered so far is kept.',
  input: { reason: words('reason').min(1) },
  output: answer({ ...step }),
  annotations: { title: 'Revert', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'control',
  run: (ctx, args) => sessionsOf(ctx).revert(args.reason),
});

export const sessionStatusTool = tool({
  name: 'get_session_status',
  title: 'Session status',
  description: 'Phase, intent, risk, QueryFrame, explored files, pending hypotheses, allowed tools and the next step. Works in every phase.',
  input: {},
  output: answer({ active: z.boolean(), phase: z.string().optional(), intent: z.string().optional(), risk_level: risk.optional(), allowed_tools: z.array(z.string()).optional(), next_step: z.string().optional() }),
  annotations: { title: 'Session status', readOnlyHint: true, idempotentHint: true, ...ANNOTATE },
  role: 'control',
  run: (ctx) => sessionsOf(ctx).status(),
});

export const endSessionTool = tool({
  name: 'end_session',
  title: 'End session',
  description: 'Finish the active session with an outcome: success, failure or abandoned. It unlocks nothing: until the user sends the next message, edits stay limited to what READY allowed (none if READY was never reached).',
  input: { outcome: z.enum(['success', 'failure', 'abandoned']) },
  output: answer({ success: z.boolean(), session_id: z.string(), outcome: z.string(), phase: z.string(), writes: z.string().optional() }),
  annotations: { title: 'End session', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'control',
  run: (ctx, args) => sessionsOf(ctx).end(args.outcome),
});

export const abortSessionTool = tool({
  name: 'abort_session',
  title: 'Abort session',
  description: 'Abort the active session (for example to start a different one). It unlocks nothing: edits stay refused until the user sends the next message.',
  input: { reason: words('reason').min(1) },
  output: answer({ success: z.boolean(), session_id: z.string(), phase: z.string(), writes: z.string().optional() }),
  annotations: { title: 'Abort session', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  role: 'control',
  run: (ctx, args) => sessionsOf(ctx).abort(args.reason),
});

export const SESSION_TOOLS = [
  startSessionTool, setQueryFrameTool, submitUnderstandingTool, validateRelevanceTool, confirmRelevanceTool, semanticSearchTool,
  submitSemanticTool, submitVerificationTool, checkWriteTargetTool, revertTool, sessionStatusTool, endSessionTool, abortSessionTool,
];
