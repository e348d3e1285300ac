/**
 * The index brought up to date in its order: facts (walk, parse, link), then what is derived from
 * them — the semantic chunks and doc comments the semantic engine reads. This is the one place that
 * knows both: the index layer knows nothing of chunks, the engine nothing of parsing.
 */
import { syncChunks } from '../embeddings/chunks.js';
import { type IndexOptions, type IndexStats, updateIndex } from '../index/indexer.js';
import type { DB } from '../store/db.js';

export async function indexProject(db: DB, root: string, opts: IndexOptions = {}): Promise<IndexStats> {
  const stats = await updateIndex(db, root, opts);
  syncChunks(db, root); // the chunks of the changed files (cheap when none changed; rebuilt by hash after a kill)
  return stats;
}
