import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UserError } from '../util/paths.js';
import { log } from '../util/log.js';

/**
 * A successful result. Claude Code shows the model only `structuredContent` when present, so the
 * structured object carries everything; the text block repeats it for clients that read text.
 */
export function ok(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** A tool error the agent can act on: what was wrong and what to do instead. */
export function toolError(error: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const data = { error, message, ...extra };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** Turns a thrown error into a tool error; unexpected ones are logged to stderr, never to stdout. */
export function fromException(tool: string, e: unknown): CallToolResult {
  if (e instanceof UserError) return toolError(e.code, e.message, e.hint ? { hint: e.hint } : {});
  log.error(`${tool} failed`, e);
  return toolError('internal_error', `${tool} failed: ${(e as Error)?.message ?? String(e)}`, {
    hint: 'This is a bug in code-intel; the details are in the server log (stderr).',
  });
}
