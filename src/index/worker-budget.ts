/**
 * How many parse workers a cold index runs at once, and each one's V8 heap, from a memory budget
 * for the whole indexing process (#14). Measured on effect 4.1 (2-core machine): a worker's heap
 * grows to what V8's defaults allow (32 MB young generation, an old generation that grows to ~4×
 * what survives, 110–125 MB each), so the peak grew with the number of workers: 0.41–0.48 GB with
 * 2, 0.6 GB with 4, 1.1 GB with 8, 1.4 GB with 16. A worker cannot be made small enough for 16 to
 * fit 500 MB: one that parsed a few small files holds ~28 MB after a full garbage collection
 * (17 MB heap, 11 MB of wasm memory, code and stack), and extracting effect's largest file
 * (Effect.ts, 857 KB) needs an old generation of 41–48 MB (40 MB: out of memory). So the budget
 * gives each worker an old generation it can parse such a file in, and runs fewer at once where
 * that many do not fit — said in a log line (the indexer), never silently.
 */
import os from 'node:os';

/**
 * Default budget of a cold index (main thread and workers); `CODE_INTEL_INDEX_MEMORY_MB` sets it.
 * 512 MB, and 128 MB for each worker the machine can run at once beyond four (at most 8 workers:
 * indexer.ts): workers past the cores buy no speed, so on 2 cores 16 forced run within 512 MB, while
 * a machine with 8 cores keeps its 8. Measured on a 16-core machine, effect, 2 rounds each: 512 MB
 * ran 4 of 8 workers, 3.89–4.12 s at 339–360 MB, against 3.47–3.92 s at 834–847 MB unbounded;
 * 1,024 MB ran all 8, 3.67–3.76 s at 535–557 MB; four copies of effect with 16 forced took 30.7 s
 * at 512 MB (4 workers) against 23.7 s at 1.76 GB unbounded.
 */
export function defaultBudgetMb(cores: number): number {
  return 512 + 128 * Math.max(0, Math.min(cores, 8) - 4);
}
/** the indexing thread while workers parse: node, SQLite's cache, the batches it writes (60–90 MB measured) */
const MAIN_MB = 96;
/** a worker's memory outside its V8 heap: the wasm parser's memory (it keeps the largest tree's
 * pages: 5 MB after small files, ~20 MB after effect's largest), code, stack */
const OUTSIDE_HEAP_MB = 24;
/** V8's young generation of a worker (two 16 MB semi-spaces), and the one taken where that does not fit */
const DEFAULT_YOUNG_MB = 32;
const SMALL_YOUNG_MB = 8;
/** the least old generation a worker gets: effect's largest file needs 41–48 MB (a 1 MiB file,
 * the largest the index parses, more: a worker out of memory hands its files back, indexer.ts) */
export const MIN_OLD_MB = 64;

export interface WorkerPlan {
  /** workers to run at once */
  workers: number;
  /** each worker's limits (Worker resourceLimits) */
  limits: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb?: number };
  /** fewer workers than asked for: the budget does not hold them */
  capped: boolean;
}

/** The budget in MB: `CODE_INTEL_INDEX_MEMORY_MB` when it is a whole number from 128 to 1,048,576, else the default. */
export function memoryBudgetMb(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): { mb: number; bad?: string } {
  const raw = env.CODE_INTEL_INDEX_MEMORY_MB;
  if (raw === undefined || raw === '') return { mb: defaultBudgetMb(cores) };
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 128 && n <= 1 << 20) return { mb: n };
  return { mb: defaultBudgetMb(cores), bad: raw.slice(0, 40) };
}

/** The workers to run for `requested` (≥ 1) within `budgetMb`, and each one's heap limits. */
export function planWorkers(requested: number, budgetMb: number): WorkerPlan {
  const available = Math.max(0, budgetMb - MAIN_MB);
  const oldFor = (n: number, young: number) => Math.floor(available / n - OUTSIDE_HEAP_MB - young);
  // V8's young generation while it fits, a small one before running fewer workers
  for (const young of [DEFAULT_YOUNG_MB, SMALL_YOUNG_MB]) {
    const old = oldFor(requested, young);
    if (old >= MIN_OLD_MB) {
      return { workers: requested, limits: young === DEFAULT_YOUNG_MB ? { maxOldGenerationSizeMb: old } : { maxOldGenerationSizeMb: old, maxYoungGenerationSizeMb: young }, capped: false };
    }
  }
  const workers = Math.max(1, Math.floor(available / (OUTSIDE_HEAP_MB + SMALL_YOUNG_MB + MIN_OLD_MB)));
  return {
    workers: Math.min(workers, requested),
    limits: { maxOldGenerationSizeMb: Math.max(MIN_OLD_MB, oldFor(workers, SMALL_YOUNG_MB)), maxYoungGenerationSizeMb: SMALL_YOUNG_MB },
    capped: workers < requested,
  };
}
