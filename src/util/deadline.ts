/** The time budget of one tool call, visible to long loops anywhere below the server (AsyncLocalStorage). */
import { AsyncLocalStorage } from 'node:async_hooks';
import { UserError } from './paths.js';

export class BudgetExceeded extends UserError {
  constructor(tool: string, ms: number, hint?: string) {
    super(
      `${tool} did not finish within its budget of ${ms} ms and was stopped; the server goes on serving other calls`,
      hint ?? 'Narrow the call (a path or glob, a more specific pattern or name, a smaller limit) and try again.',
      'budget_exceeded',
    );
  }
}

/** The time left to one tool call. */
export class Deadline {
  readonly start = performance.now();
  /** set when the call has been answered with budget_exceeded: its late result must not count */
  abandoned = false;
  /** a tool-specific hint for budget_exceeded */
  hint: string | undefined;

  /** work stops this much before the budget ends, so that its answer still arrives in time */
  readonly margin: number;

  constructor(readonly tool: string, readonly ms: number) {
    this.margin = Math.min(100, ms / 10);
  }

  elapsed(): number {
    return performance.now() - this.start;
  }

  /** ms left to the work (the budget less the margin) */
  remaining(): number {
    return Math.max(0, this.ms - this.margin - this.elapsed());
  }

  /** ms left until the whole budget is spent */
  remainingBudget(): number {
    return Math.max(0, this.ms - this.elapsed());
  }

  expired(): boolean {
    return this.abandoned || this.remaining() <= 0;
  }

  /** Throws budget_exceeded once the budget is spent (long loops call this now and then). */
  check(): void {
    if (this.expired()) throw this.error();
  }

  error(): BudgetExceeded {
    return new BudgetExceeded(this.tool, this.ms, this.hint);
  }
}

const current = new AsyncLocalStorage<Deadline>();

export function runWithDeadline<T>(d: Deadline, fn: () => T): T {
  return current.run(d, fn);
}

/** The deadline of the tool call being served, if any (the CLI has none). */
export function currentDeadline(): Deadline | undefined {
  return current.getStore();
}

/** For long loops outside the server code: throws budget_exceeded when the current call's time is up. */
export function checkDeadline(): void {
  current.getStore()?.check();
}


/** Runs work that outlives the call that started it (the background index) outside that call's budget. */
export function outsideDeadline<T>(fn: () => T): T {
  return current.exit(fn);
}
