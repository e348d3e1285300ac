/**
 * How a tool call waits for the index (docs/startup.md). The server answers `initialize` at once and
 * indexes in the background; then:
 *   - exploration tools (and semantic_search) wait for a cold or half-done index at most
 *     INDEX_WAIT_MS and never past the call's time budget (2 s by default), reporting progress
 *     (`notifications/progress` when the call carried a progress token), then answer from what is
 *     indexed, with `index.complete: false` and how far it is;
 *   - once the index is complete, bringing changed files up to date blocks a call at most
 *     REFRESH_WAIT_MS; past that the call answers from the index as it was, and says so;
 *   - the session's judging tools (understanding, validation, semantic, verification, write target)
 *     never judge from a partial index: they wait like the others, then answer `index_not_ready`;
 *   - the session's control steps (status, end, abort, revert) read no code facts and do not wait.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Freshness, IndexProgress, Project } from '../project/project.js';
import { currentDeadline } from '../util/deadline.js';
import { UserError } from '../util/paths.js';

export const INDEX_WAIT_MS = Number(process.env.CODE_INTEL_INDEX_WAIT_MS ?? 15_000);
export const REFRESH_WAIT_MS = 200;

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Progress of the index as MCP progress notifications, when the call asked for them. */
function reporter(extra: Extra | undefined): ((p: IndexProgress | undefined) => void) | undefined {
  const token = extra?._meta?.progressToken;
  if (token === undefined || !extra) return undefined;
  return (p) => {
    if (!p) return;
    const message = p.stage === 'link' ? 'linking the module graph' : `indexing: ${p.done} of ${p.total} files parsed`;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: p.done, total: p.total || undefined, message } }).catch(() => {});
  };
}

/** A wait never outlasts the call's own time budget (src/util/deadline.ts): the answer must still arrive in time. */
function within(ms: number): number {
  const d = currentDeadline();
  return d && Number.isFinite(d.ms) ? Math.min(ms, Math.max(0, d.remaining() - 250)) : ms;
}

/** The freshness an answer is given with, after waiting as the policy above says. */
export async function indexFor(project: Project, extra?: Extra): Promise<Freshness> {
  return project.fresh(within(project.complete ? REFRESH_WAIT_MS : INDEX_WAIT_MS), reporter(extra));
}

/** For the tools that judge: the complete index, or `index_not_ready` after the wait. */
export async function completeIndexFor(project: Project, extra?: Extra): Promise<Freshness> {
  const f = await project.fresh(within(INDEX_WAIT_MS), reporter(extra));
  if (f.complete) return f;
  const p = f.indexing;
  throw new UserError(
    `the index is still being built${p ? ` (${p.stage === 'link' ? 'linking' : `${p.done} of ${p.total} files parsed`})` : ''}: this decision needs every file`,
    'Call the same tool again in a few seconds; exploration tools already answer from what is indexed.',
    'index_not_ready',
  );
}
