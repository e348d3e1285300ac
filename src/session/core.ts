/**
 * What the phases of a /code session share: the refusal type, a loaded session, and the service's
 * view that each phase module (validation.ts, semantic.ts) works through.
 */
import type { Actor } from 'xstate';
import type { Phase } from '../../machines/policy.js';
import type { SessionEvent, sessionMachine } from '../../machines/session.js';
import type { SemanticEngine } from '../embeddings/engine.js';
import type { Project } from '../project/project.js';
import type { SymbolRow } from '../query/symbols.js';
import type { Evidence } from './evidence.js';
import type { SessionRow, SessionStore } from './store.js';

/** A refusal the agent can act on; becomes a tool error with these fields. */
export class SessionError extends Error {
  constructor(readonly code: string, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
  }
}

export interface Loaded {
  row: SessionRow;
  actor: Actor<typeof sessionMachine>;
}

/** The session service as a phase sees it: the active session, its gate, ledger and machine. */
export interface SessionCore {
  readonly project: Project;
  readonly store: SessionStore;
  /** relevance: the hybrid of the neural model (when present), the lexical backend and the NL→symbol cache */
  readonly engine: SemanticEngine;
  active(): Loaded | undefined;
  phaseOf(s: Loaded): Phase;
  /** The gate for every tool: refuses a tool the current phase does not allow. */
  gate(tool: string, args: Record<string, unknown>): Loaded | undefined;
  /** Logs a tool call of the active session with the files and symbols its result showed. */
  record(tool: string, args: Record<string, unknown>, result: Record<string, unknown> | undefined, error?: string): number | undefined;
  /** Sends an event and persists the snapshot and the transition; returns the new phase. */
  send(s: Loaded, event: SessionEvent, reason?: string | null): Phase;
  /** The active session, or the no_active_session refusal. */
  require(): Loaded;
  /** The next step for a phase, for the intent of the session at hand. */
  nextStep(phase: Phase): string;
  /** What the session has really seen (the ledger, and the lines recorded Reads returned). */
  evidence(s: Loaded, sinceSeq?: number): Evidence;
  /** The user's request (as recorded by the client where it records one). */
  request(s: Loaded): string;
  /** Every definition of a name, locals included; a name the index cannot look up has none. */
  definitionsOf(name: string): SymbolRow[];
  /** The (non-local) declarations whose span holds a line of a file. */
  /** The declarations whose span holds the line, innermost first, locals included (`local`). */
  declarationsAround(file: string, line: number): { name: string; container_name: string | null; local: boolean }[];
  symbolExists(name: string): boolean;
  /** Files and distinct symbol names the project holds, counted up to a few: no phase asks for more than there is. */
  projectHolds(): ProjectHolds;
}

/** What a project holds, counted up to a few (a minimum is at most 3). */
export interface ProjectHolds {
  files: number;
  symbols: number;
}
