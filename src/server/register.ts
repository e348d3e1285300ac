/**
 * Registers tool records (src/tools/) on the MCP server, each through the same wrapper:
 * gate (the session machine may refuse the tool) → refresh (wait for the index as the tool's role
 * says, src/server/index-wait.ts) → run → record (what the agent was shown goes into the ledger).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Project } from '../project/project.js';
import { SessionError } from '../session/core.js';
import type { SessionService } from '../session/service.js';
import type { ToolContext, ToolRecord } from '../tools/record.js';
import { currentDeadline, Deadline } from '../util/deadline.js';
import { relInsideRoot } from '../util/paths.js';
import { completeIndexFor, type Extra, indexFor } from './index-wait.js';
import { fitAnswer, fromException, ok, toolError } from './respond.js';

/** When the index is being brought up to date as a call's time runs out. */
const REFRESH_HINT = {
  explore: 'The index was being brought up to date (files changed on disk); call again in a moment.',
  session: 'The index was being brought up to date (files changed on disk); nothing was changed in the session: call again in a moment.',
};

export function registerTools(server: McpServer, project: Project, sessions: SessionService | undefined, records: readonly ToolRecord[]): void {
  const inside = (p: string) => relInsideRoot(project.root, p);
  for (const record of records) {
    server.registerTool(
      record.name,
      { title: record.title, description: record.description, inputSchema: record.input, outputSchema: record.output, annotations: record.annotations },
      (args: Record<string, unknown>, extra: Extra) => call(record, args, extra),
    );
  }

  async function call(record: ToolRecord, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    const deadline = currentDeadline() ?? new Deadline(record.name, Number.POSITIVE_INFINITY);
    const ctx: ToolContext = { project, sessions, deadline, inside };
    try {
      return witnessed(record.role === 'explore' ? await explore(record, ctx, args, extra) : await step(record, ctx, args, extra));
    } catch (e) {
      return witnessed(refusal(record.name, e, sessions));
    }
  }

  /** The tokens of the phase changes the call made go to the client in its answer (guard/witness.ts). */
  function witnessed(r: CallToolResult): CallToolResult {
    const tokens = sessions?.takeWitnesses() ?? [];
    if (tokens.length === 0) return r;
    const witness = tokens.join(' ');
    const text = r.content?.[0];
    if (text?.type === 'text') {
      try {
        // first: a client that cuts a long answer keeps its start (guard/transcript.ts reads it there too)
        text.text = JSON.stringify({ witness, ...(JSON.parse(text.text) as Record<string, unknown>) });
      } catch {
        // not JSON: never the case for our answers
      }
    }
    if (r.structuredContent) r.structuredContent = { witness, ...r.structuredContent };
    return r;
  }

  /** A read-only tool: asked of the session first; what it showed is recorded as the agent's evidence. */
  async function explore(record: ToolRecord, ctx: ToolContext, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    sessions?.gate(record.name, args);
    const { deadline } = ctx;
    try {
      deadline.hint = REFRESH_HINT.explore;
      const index = await indexFor(project, extra);
      deadline.hint = undefined;
      deadline.check();
      // the session records what the agent is shown: the answer as cut to its size cap
      const result = fitAnswer({ ...(await record.run(ctx, args)), index });
      if (deadline.abandoned) throw deadline.error(); // answered budget_exceeded already: nothing was shown
      if (sessions) {
        sessions.record(record.name, args, result);
        record.recorded?.(sessions);
      }
      return ok(result);
    } catch (e) {
      sessions?.record(record.name, args, undefined, (e as Error)?.message ?? String(e));
      throw e;
    }
  }

  /**
   * A session step checks its phase and records itself. Its time budget is checked before it changes
   * anything; once it has, it runs to the end, so that its answer always says what happened. The
   * steps that judge claims against the index never do so from a partial one.
   */
  async function step(record: ToolRecord, ctx: ToolContext, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    const deadline = currentDeadline();
    if (deadline) deadline.hint = REFRESH_HINT.session;
    const index = record.role === 'judge' ? await completeIndexFor(project, extra) : record.role === 'control' ? project.freshness() : await indexFor(project, extra);
    if (deadline) {
      deadline.hint = undefined;
      deadline.check();
    }
    const result = { ...(await record.run(ctx, args)), index };
    return ok(sessions ? sessions.localize(result) : result);
  }
}

/** A refusal or failure as a tool error: a session's refusal says what to do instead. */
function refusal(tool: string, e: unknown, sessions: SessionService | undefined): CallToolResult {
  if (e instanceof SessionError) {
    const extra = sessions ? sessions.localize(e.extra) : e.extra;
    // every error carries a hint: a refusal's next step is what to do instead
    const hint = typeof extra.next_step === 'string' ? extra.next_step : 'Call get_session_status for the phase, the tools it allows and the next step.';
    return toolError(e.code, e.message, { hint, ...extra });
  }
  return fromException(tool, e);
}
