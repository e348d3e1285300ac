/** Index throughput on a fetched corpus: cold in-process, cold on workers, then a no-change check. */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexStats } from '../../src/index/indexer.js';
import { indexProject } from '../../src/project/indexing.js';
import { openDb } from '../../src/store/db.js';

export async function throughput(root: string): Promise<{ runs: { run: string; stats: IndexStats }[]; confidence: Record<string, number>; bytes: number }> {
  const runs: { run: string; stats: IndexStats }[] = [];
  for (const [label, workers] of [['cold, in-process', 0], ['cold, workers', undefined]] as const) {
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true, force: true });
    const db = openDb(root);
    try {
      runs.push({ run: label, stats: await indexProject(db, root, workers === undefined ? {} : { workers }) });
    } finally {
      db.close();
    }
  }
  const db = openDb(root);
  try {
    runs.push({ run: 'no change', stats: await indexProject(db, root) });
    const confidence: Record<string, number> = {};
    for (const r of db.prepare(`SELECT COALESCE(confidence, 'outside the project') AS c, COUNT(*) AS n FROM refs GROUP BY c`).all() as { c: string; n: number }[])
      confidence[r.c] = r.n;
    const bytes = (db.prepare('SELECT COALESCE(SUM(size), 0) AS n FROM files WHERE language IS NOT NULL').get() as { n: number }).n;
    return { runs, confidence, bytes };
  } finally {
    db.close();
  }
}
