import fs from 'node:fs';
import path from 'node:path';
import { type IndexStats, updateIndex } from '../index/indexer.js';
import { type DB, getMeta, openDb } from '../store/db.js';

export interface Freshness {
  indexed_at: string;
  files: number;
  /** files re-indexed because they changed since the previous answer (0: nothing had changed) */
  reindexed_now: number;
  skipped_files: number;
  /** files and directories that could not be read (a directory ends with /): their code is missing from every answer */
  unreadable?: string[];
}

/** One indexed project: its root, its database, and a cheap way to keep the index current. */
export class Project {
  readonly db: DB;
  private lastStats: IndexStats | undefined;
  private refreshing: Promise<Freshness> | undefined;
  private lineCache = new Map<string, { mtimeMs: number; lines: string[] }>();
  /** bumped whenever the index content changes; caches key on it */
  generation = 0;

  constructor(readonly root: string) {
    if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new Error(`project root ${root} is not a directory`);
    this.root = fs.realpathSync(root);
    this.db = openDb(this.root);
  }

  /** Stats every file; re-indexes only what changed. Concurrent callers share one refresh. */
  refresh(): Promise<Freshness> {
    this.refreshing ??= (async () => {
      try {
        const stats = await updateIndex(this.db, this.root);
        this.lastStats = stats;
        if (stats.parsed + stats.removed > 0) {
          this.generation++;
          this.lineCache.clear();
        }
        return this.freshness(stats.parsed + stats.removed);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  freshness(reindexed = 0): Freshness {
    const files = (this.db.prepare('SELECT COUNT(*) n FROM files').get() as { n: number }).n;
    const skipped = JSON.parse(getMeta(this.db, 'skipped') ?? '[]') as { file: string; reason: string }[];
    const unreadable = skipped.filter((s) => s.reason.startsWith('unreadable')).map((s) => s.file);
    return {
      indexed_at: getMeta(this.db, 'indexed_at') ?? 'never', files, reindexed_now: reindexed, skipped_files: skipped.length,
      ...(unreadable.length ? { unreadable: unreadable.slice(0, 10) } : {}),
    };
  }

  get stats(): IndexStats | undefined {
    return this.lastStats;
  }

  /** The lines of a project file (cached until it changes). */
  lines(rel: string): string[] {
    const abs = path.join(this.root, rel);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      return [];
    }
    const hit = this.lineCache.get(rel);
    if (hit && hit.mtimeMs === st.mtimeMs) return hit.lines;
    const lines = fs.readFileSync(abs, 'utf8').split(/\r?\n/);
    if (this.lineCache.size > 256) this.lineCache.clear();
    this.lineCache.set(rel, { mtimeMs: st.mtimeMs, lines });
    return lines;
  }

  /** One line of a file, trimmed and capped, for result snippets. */
  snippet(rel: string, line: number, max = 200): string {
    const text = (this.lines(rel)[line - 1] ?? '').trim();
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
  }

  fileId(rel: string): number | undefined {
    return (this.db.prepare('SELECT id FROM files WHERE path = ?').get(rel) as { id: number } | undefined)?.id;
  }

  close(): void {
    this.db.close();
  }
}
