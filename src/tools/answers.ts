/**
 * Pieces of the tools' output schemas. A schema says what a success answer always has and what its
 * rows are about; rows and answers stay open (`loose`) so that a field added later, a localised
 * next step or `answer_truncated` never makes a client reject an answer.
 */
import { z, type ZodRawShape } from 'zod';

// plain numbers: an integer's bounds would add ~60 bytes per field to tools/list and tell a client nothing it needs
const count = z.number();
const line = z.number();

/** How fresh the index was when the call answered (every answer has it). */
export const freshness = z
  .object({
    indexed_at: z.string().nullable().optional(),
    files: count,
    reindexed_now: count,
    skipped_files: count.optional(),
    complete: z.boolean(),
  })
  .loose()
  .describe('index freshness; complete: false while the index is built or brought up to date after files changed (indexing: how far it is); an answer that reads no code facts (end_session, get_session_status) does not wait for it');

/** A success answer: its own fields, the index's freshness, and whatever a later version adds. */
export function answer(shape: ZodRawShape) {
  return z.object({ ...shape, index: freshness.optional() }).loose();
}

/** The fields of a page of a paginated list. */
export const paging = {
  total: count.describe('results in all, not only this page'),
  offset: count.optional(),
  limit: count.optional(),
  next_offset: count.nullable().optional().describe('offset of the next page, null on the last one'),
};

/** resolved / imported (facts) or name_match (a guess) */
export const confidence = z.string();

export const definitionRow = z
  .object({
    file: z.string(),
    line,
    column: line.optional(),
    end_line: line.optional(),
    name: z.string(),
    kind: z.string(),
    container: z.string().nullable().optional(),
    exported: z.boolean().optional(),
    confidence: confidence.optional(),
    snippet: z.string().optional(),
    /** with include_body: the definition's code, from `line` on */
    body: z.string().optional(),
    body_truncated: z.boolean().optional(),
  })
  .loose();

export const matchRow = z
  .object({ file: z.string(), line, column: line.optional(), end_line: line.optional(), snippet: z.string().optional(), container: z.string().nullable().optional() })
  .loose();

/** The answer of a session step that moves (or would move) the machine. */
export const step = {
  success: z.boolean(),
  next_phase: z.string().optional(),
  next_step: z.string().optional(),
};

export { count, line };
