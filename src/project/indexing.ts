/**
 * The index brought up to date in its order: facts (walk, parse, link), then what is derived from
 * them — the semantic chunks and doc comments the semantic engine reads. This is the one place that
 * knows both: the index layer knows nothing of chunks, the engine nothing of parsing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ChunkPlan, applyChunks, chunksAfterLink, prepareChunks, syncChunks } from '../embeddings/chunks.js';
import { type IndexOptions, type IndexStats, updateIndex } from '../index/indexer.js';
import type { DB } from '../store/db.js';
import { log } from '../util/log.js';
import { PACKAGE_ROOT } from '../util/paths.js';

/**
 * Bytes parsed from which the chunks are planned on a thread of their own, beside linking:
 * chunking costs ≈ 40 ms a MB of source (effect, 21 MB: ≈ 0.8 s), the worker ≈ 0.1 s to start,
 * so below a few MB (rxjs: 1.1 MB, 271 files) it does not pay.
 */
const CHUNK_WORKER_BYTES = 4_000_000;

export interface IndexProjectOptions extends IndexOptions {
  /** bytes parsed from which chunks are planned by a worker (default CHUNK_WORKER_BYTES) */
  chunkWorkerBytes?: number;
}

export async function indexProject(db: DB, root: string, opts: IndexProjectOptions = {}): Promise<IndexStats> {
  // after many bytes were parsed, their chunks (reading each file again, its words, hashes: ≈ 0.8 s
  // on effect) are planned by a worker while this thread links; a few files are chunked here
  let planned: Promise<ChunkPlan | undefined> | undefined;
  let worker: Worker | undefined;
  const onParsed = (parsed: { files: number; bytes: number }) => {
    opts.onParsed?.(parsed);
    const file = path.join(PACKAGE_ROOT, 'dist', 'src', 'embeddings', 'chunk-worker.js');
    if (parsed.bytes < (opts.chunkWorkerBytes ?? CHUNK_WORKER_BYTES) || db.memory || !fs.existsSync(file)) return;
    prepareChunks(db);
    const w = (worker = new Worker(file, { workerData: { file: db.name, root } }));
    planned = new Promise<ChunkPlan | undefined>((resolve) => {
      w.once('message', (plan: ChunkPlan) => resolve(plan));
      // (a plan that failed is made here instead)
      w.once('error', (e) => {
        log.info(`chunk worker failed, chunking in the indexing thread: ${e.message}`);
        resolve(undefined);
      });
      w.once('exit', () => resolve(undefined));
    });
  };
  try {
    const stats = await updateIndex(db, root, { ...opts, onParsed });
    const plan = planned && (await planned);
    if (plan) applyChunks(db, chunksAfterLink(db, root, plan));
    else syncChunks(db, root); // the chunks of the changed files (cheap when none changed; rebuilt by hash after a kill)
    return stats;
  } finally {
    await worker?.terminate();
  }
}

