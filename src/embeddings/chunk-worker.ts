/**
 * Worker-thread entry: plans the chunks of a cold index (chunks.ts, planChunks) on a read-only
 * connection of its own, while the indexing thread links. It reads in one transaction, so it sees
 * one state of the index: the one before linking, or (if linking committed first) after it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { planChunks } from './chunks.js';

const { file, root } = workerData as { file: string; root: string };
const db = new Database(file, { readonly: true });
try {
  db.pragma('busy_timeout = 5000');
  const plan = db.transaction(() => planChunks(db, root))();
  parentPort?.postMessage(plan);
} finally {
  db.close();
}
