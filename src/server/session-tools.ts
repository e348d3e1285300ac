/** The /code session tools (seed 001) and the gate that puts every other tool under the session machine. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Project } from '../query/project.js';
import { semanticSearch } from '../query/semantic.js';
import { SessionError } from '../session/core.js';
import type { SessionService } from '../session/service.js';
import { SEMANTIC_REASONS } from '../session/understanding.js';
import { currentDeadline } from '../util/deadline.js';
import { relInsideRoot } from '../util/paths.js';
import type { ToolGate } from './exploration-tools.js';
import { completeIndexFor, type Extra, indexFor } from './index-wait.js';
import { LIMITS, list, pathArg, text } from './limits.js';
import { fitAnswer, fromException, ok, toolError } from './respond.js';

const slot = z.object({ value: text(LIMITS.text, 'value').min(1), quote: text(LIMITS.text, 'quote').min(1) }).optional();
const name = text(LIMITS.name, 'symbol').min(1);
const words = (what: string) => text(LIMITS.text, what);
const REFRESH_HINT = 'The index was being brought up to date (files changed on disk); nothing was changed in the session: call again in a moment.';
const ANNOTATE = { destructiveHint: false, openWorldHint: false } as const;

/** Exploration tools ask the session before running and log their results into its ledger. */
export function sessionGate(sessions: SessionService): ToolGate {
  return {
    before(tool, args) {
      try {
        sessions.gate(tool, args);
        return undefined;
      } catch (e) {
        return handle(tool, e, sessions);
      }
    },
    after(tool, args, result, error) {
      sessions.record(tool, args, result, error);
    },
  };
}

function handle(tool: string, e: unknown, sessions?: SessionService): CallToolResult {
  if (e instanceof SessionError) {
    const extra = sessions ? sessions.localize(e.extra) : e.extra;
    // every error carries a hint: a refusal's next step is what to do instead
    const hint = typeof extra.next_step === 'string' ? extra.next_step : 'Call get_session_status for the phase, the tools it allows and the next step.';
    return toolError(e.code, e.message, { hint, ...extra });
  }
  return fromException(tool, e);
}

export function registerSessionTools(server: McpServer, project: Project, sessions: SessionService): void {
  // session decisions read the index (symbols exist, suggestions, explored code): bring it up to
  // date first, and say how fresh it was, as every answer does
  // the tools that judge claims against the index never do so from a partial one (index-wait.ts)
  const JUDGES = new Set(['submit_understanding', 'validate_symbol_relevance', 'confirm_symbol_relevance', 'submit_semantic', 'submit_verification', 'check_write_target']);
  const run = async (tool: string, fn: () => Record<string, unknown> | Promise<Record<string, unknown>>, extra?: Extra): Promise<CallToolResult> => {
    try {
      // a session tool's time budget is checked before it changes anything; once it has, it runs to
      // the end, so that its answer always says what happened
      const deadline = currentDeadline();
      if (deadline) deadline.hint = REFRESH_HINT;
      const index = JUDGES.has(tool) ? await completeIndexFor(project, extra) : await indexFor(project, extra);
      if (deadline) {
        deadline.hint = undefined;
        deadline.check();
      }
      return ok(sessions.localize({ ...(await fn()), index }));
    } catch (e) {
      return handle(tool, e, sessions);
    }
  };

  server.registerTool('start_session', {
    title: 'Start a /code session',
    description:
      'Begin a phase-gated /code session (one per project). intent: IMPLEMENT (build something named), MODIFY (change/fix existing code; when unsure), ' +
      "INVESTIGATE (understand only), QUESTION (no code needed). query: the user's request exactly as written. Returns the QueryFrame extraction prompt.",
    inputSchema: {
      intent: z.enum(['IMPLEMENT', 'MODIFY', 'INVESTIGATE', 'QUESTION']),
      query: text(LIMITS.request, 'query').min(1).describe("the user's original request, verbatim"),
    },
    annotations: { title: 'Start session', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('start_session', () => sessions.start(args.intent, args.query), extra));

  server.registerTool('set_query_frame', {
    title: 'Set the QueryFrame',
    description:
      "Structure the request into slots, each {value, quote}: the quote must be copied from the user's request (full-width/half-width and case are normalised), " +
      'the value must come from its quote. Omit slots the request does not state. Returns risk_level, missing_slots and investigation_guidance.',
    inputSchema: { target_feature: slot, trigger_condition: slot, observed_issue: slot, desired_action: slot },
    annotations: { title: 'Set QueryFrame', readOnlyHint: false, idempotentHint: true, ...ANNOTATE },
  }, (args, extra) => run('set_query_frame', () => sessions.setQueryFrame(args), extra));

  server.registerTool('submit_understanding', {
    title: 'Submit understanding',
    description:
      'End EXPLORATION. The server checks every claim against this session\'s tool calls and the index: symbols must exist and have appeared in results, ' +
      'files must have been shown by a tool, entry points must name listed symbols, no duplicates; find_definitions and find_references must have been used. ' +
      'IMPLEMENT/MODIFY need 3 symbols, 1 entry point, 2 files, 1 pattern. Complete → VALIDATION; short → SEMANTIC.',
    inputSchema: {
      symbols_identified: list(text(LIMITS.name, 'symbol'), LIMITS.list, 'symbols_identified').describe('symbol names (Class.method allowed)'),
      entry_points: list(text(LIMITS.name, 'entry point'), LIMITS.list, 'entry_points').describe('e.g. "AuthService.login()" — must name a listed symbol'),
      existing_patterns: list(words('pattern'), LIMITS.list, 'existing_patterns'),
      files_analyzed: list(pathArg('file'), LIMITS.list, 'files_analyzed').describe('project-relative paths'),
      notes: words('notes').optional(),
      mapped_symbols: list(z.object({ nl_term: words('nl_term'), symbol: text(LIMITS.name, 'symbol') }), LIMITS.list, 'mapped_symbols').optional()
        .describe('required at risk HIGH: words quoted from the request → the symbol that implements them'),
    },
    annotations: { title: 'Submit understanding', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('submit_understanding', () => sessions.submitUnderstanding(args), extra));

  server.registerTool('validate_symbol_relevance', {
    title: 'Validate symbol relevance',
    description:
      'VALIDATION: ask the server which symbols relate to the target feature. Returns a validation prompt, cached matches, suggestions from the whole index, ' +
      'and the schema for confirm_symbol_relevance.',
    inputSchema: { target_feature: words('target_feature').min(1), symbols: list(name, LIMITS.list, 'symbols').min(1) },
    annotations: { title: 'Validate relevance', readOnlyHint: false, idempotentHint: true, ...ANNOTATE },
  }, (args, extra) => run('validate_symbol_relevance', () => sessions.validateRelevance(args.target_feature, args.symbols), extra));

  server.registerTool('confirm_symbol_relevance', {
    title: 'Confirm symbol relevance',
    description:
      'VALIDATION: for each symbol, approved + code_evidence ("file:line" of an explored file, or a fragment copied from it). The server scores each ' +
      'against the target feature: > 0.6 FACT; 0.3–0.6 accepted with risk raised to HIGH; < 0.3 rejected with guidance. All accepted → READY (or VERIFICATION).',
    inputSchema: {
      mapped_symbols: list(z.object({ symbol: name, approved: z.boolean(), code_evidence: words('code_evidence').optional() }), LIMITS.list, 'mapped_symbols').min(1),
    },
    annotations: { title: 'Confirm relevance', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('confirm_symbol_relevance', () => sessions.confirmRelevance(args.mapped_symbols), extra));

  server.registerTool('semantic_search', {
    title: 'Semantic search',
    description:
      'Search code by meaning (Japanese, Chinese or English descriptions) over functions, methods, classes and markdown sections. ' +
      'Hybrid score: local embedding model when installed (code-intel doctor), keywords with a JA/ZH→EN glossary, and matches confirmed by earlier successful sessions. ' +
      'Each result has file, span, symbol, score and backend. Inside a /code session only in the SEMANTIC phase; without a session, free. Results are hypotheses until verified.',
    inputSchema: {
      query: text(LIMITS.query, 'query').min(1),
      path: pathArg().optional().describe('limit to a directory'),
      limit: z.number().int().min(1).max(50).optional(),
      offset: z.number().int().min(0).max(100_000).optional(),
    },
    annotations: { title: 'Semantic search', readOnlyHint: true, idempotentHint: true, ...ANNOTATE },
  }, async (args, extra) => {
    try {
      sessions.gate('semantic_search', args);
    } catch (e) {
      return handle('semantic_search', e, sessions);
    }
    const deadline = currentDeadline();
    try {
      const index = await indexFor(project, extra);
      deadline?.check();
      const result = fitAnswer({ ...(await semanticSearch(project, { ...args, path: args.path ? relInsideRoot(project.root, args.path) : undefined })), index });
      if (deadline?.abandoned) throw deadline.error(); // answered budget_exceeded already: nothing was shown
      sessions.record('semantic_search', args, result);
      sessions.semanticSearched();
      return ok(result);
    } catch (e) {
      sessions.record('semantic_search', args, undefined, (e as Error)?.message);
      return handle('semantic_search', e);
    }
  });

  server.registerTool('submit_semantic', {
    title: 'Submit semantic findings',
    description:
      'SEMANTIC: hypotheses with confidence, the semantic_reason (must match the missing requirements: symbols_identified → no_definition_found|architecture_unknown; ' +
      'entry_points → no_definition_found|no_reference_found; existing_patterns → no_similar_implementation|architecture_unknown; files_analyzed → context_fragmented|architecture_unknown; ' +
      'context_fragmented and architecture_unknown always), and the semantic_search queries you ran. → VERIFICATION.',
    inputSchema: {
      hypotheses: list(z.object({ text: words('hypothesis').min(1), confidence: z.enum(['high', 'medium', 'low']).default('medium') }), LIMITS.list, 'hypotheses').min(1),
      semantic_reason: z.enum(SEMANTIC_REASONS),
      search_queries: list(text(LIMITS.query, 'search query'), LIMITS.list, 'search_queries').min(1),
    },
    annotations: { title: 'Submit semantic', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('submit_semantic', () => sessions.submitSemantic(args), extra));

  server.registerTool('submit_verification', {
    title: 'Submit verification',
    description:
      'VERIFICATION: address every pending hypothesis (text or "#id") as confirmed or rejected, with evidence {tool, target, result, files} that names a tool call ' +
      'made after submit_semantic: the same tool, its main argument as target, and files among its results. Confirmed → FACT.',
    inputSchema: {
      verified: list(z.object({
        hypothesis: words('hypothesis').min(1),
        status: z.enum(['confirmed', 'rejected']),
        evidence: z.object({
          tool: text(64, 'tool').min(1), target: words('target').min(1), result: words('result'), files: list(pathArg('file'), LIMITS.list, 'files'),
        }),
      }), LIMITS.list, 'verified').min(1),
    },
    annotations: { title: 'Submit verification', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('submit_verification', () => sessions.submitVerification(args.verified), extra));

  server.registerTool('check_write_target', {
    title: 'Check write target',
    description:
      'READY: may this file be edited? Only files this session explored, or (allow_new_files) a new file in an explored directory. INVESTIGATE/QUESTION sessions never write.',
    inputSchema: { file_path: pathArg('file_path', 1), allow_new_files: z.boolean().optional() },
    annotations: { title: 'Check write target', readOnlyHint: true, idempotentHint: true, ...ANNOTATE },
  }, (args, extra) => run('check_write_target', () => sessions.checkWrite(args.file_path, args.allow_new_files ?? false), extra));

  server.registerTool('revert_to_exploration', {
    title: 'Revert to exploration',
    description: 'Go back to EXPLORATION (the plan changed, or validation rejected symbols). Evidence gathered so far is kept.',
    inputSchema: { reason: words('reason').min(1) },
    annotations: { title: 'Revert', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('revert_to_exploration', () => sessions.revert(args.reason), extra));

  server.registerTool('get_session_status', {
    title: 'Session status',
    description: 'Phase, intent, risk, QueryFrame, explored files, pending hypotheses, allowed tools and the next step. Works in every phase.',
    inputSchema: {},
    annotations: { title: 'Session status', readOnlyHint: true, idempotentHint: true, ...ANNOTATE },
  }, (_args, extra) => run('get_session_status', () => sessions.status(), extra));

  server.registerTool('end_session', {
    title: 'End session',
    description: 'Finish the active session with an outcome: success, failure or abandoned. It unlocks nothing: until the user sends the next message, edits stay limited to what READY allowed (none if READY was never reached).',
    inputSchema: { outcome: z.enum(['success', 'failure', 'abandoned']) },
    annotations: { title: 'End session', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('end_session', () => sessions.end(args.outcome), extra));

  server.registerTool('abort_session', {
    title: 'Abort session',
    description: 'Abort the active session (for example to start a different one). It unlocks nothing: edits stay refused until the user sends the next message.',
    inputSchema: { reason: words('reason').min(1) },
    annotations: { title: 'Abort session', readOnlyHint: false, idempotentHint: false, ...ANNOTATE },
  }, (args, extra) => run('abort_session', () => sessions.abort(args.reason), extra));
}
