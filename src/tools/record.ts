/**
 * A tool is one record: what the client sees (name, title, description, input and output schemas,
 * annotations), how it waits for the index, what its result proves for the session's ledger, its
 * main argument, and its handler. src/server/register.ts registers every record with one wrapper
 * (gate → refresh → run → record). Which phases may run it is the machine's own table
 * (machines/policy.ts), checked against these records by a test.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z, ZodObject, ZodRawShape } from 'zod';
import type { Project } from '../project/project.js';
import type { SessionService } from '../session/service.js';
import type { Proof } from '../session/evidence.js';
import type { Deadline } from '../util/deadline.js';

export interface ToolContext {
  project: Project;
  /** absent when the server serves only the exploration tools */
  sessions: SessionService | undefined;
  /** the call's time budget */
  deadline: Deadline;
  /** a path argument as a project-relative path; refuses one outside the project */
  inside(p: string): string;
}

export interface ToolRecord<I extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** the success answer; errors are text only (see src/server/respond.ts), so a client validates only answers */
  output: ZodObject;
  annotations: ToolAnnotations;
  /**
   * - `explore`: asks the session machine first, answers from what is indexed (saying how fresh), and
   *   its result goes into the session's ledger as what the agent has seen;
   * - `session`: a session step that checks its phase and records itself;
   * - `judge`: a session step that judges claims against the index, so never from a partial one;
   * - `control`: a session step that reads no code facts (status, end, abort, revert): it answers from
   *   the session at once, without waiting for the index to catch up with files changed on disk (a
   *   server started after edits spent end_session's budget re-indexing them: agent trial tr152).
   */
  role: 'explore' | 'session' | 'judge' | 'control';
  /** the files and symbol names its result showed (a ranking shows names, not a file's code) */
  proves?(result: Record<string, unknown>): Proof;
  /** its main argument, as an agent names it in verification evidence */
  target?(args: Record<string, unknown>): string[];
  /** what the session learns once the call is in its ledger (semantic_search marks the search done) */
  recorded?(sessions: SessionService): void;
  run(ctx: ToolContext, args: z.infer<z.ZodObject<I>>): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** Declares a tool; the identity function gives the handler its argument types. */
export function tool<I extends ZodRawShape>(record: ToolRecord<I>): ToolRecord<I> {
  return record;
}

/** The string arguments an agent would name a call by, in this order. */
export function stringArgs(args: Record<string, unknown>, keys: readonly string[]): string[] {
  return keys.map((k) => args[k]).filter((v): v is string => typeof v === 'string');
}
