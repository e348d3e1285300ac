import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IndexStats } from '../index/indexer.js';
import { type DB, getMeta, openDb } from '../store/db.js';
import { outsideDeadline } from '../util/deadline.js';
import { UserError } from '../util/paths.js';
import { indexProject } from './indexing.js';
import { IndexWatcher, type WatchOptions } from './watcher.js';

export interface Freshness {
  indexed_at: string;
  files: number;
  /** files re-indexed because they changed since the previous answer (0: nothing had changed) */
  reindexed_now: number;
  skipped_files: number;
  /** false while the index is being built or brought up to date: answers may miss code */
  complete: boolean;
  /** while indexing: how far it is */
  indexing?: IndexProgress;
  /** true when changes on disk are re-indexed as they happen (`serve`), not only when a call checks */
  watching?: boolean;
  /** files and directories that could not be read (a directory ends with /): their code is missing from every answer */
  unreadable?: string[];
}

export interface IndexProgress {
  stage: 'walk' | 'parse' | 'link';
  done: number;
  total: number;
  since: string;
}

/** One indexed project: its root, its database, and a cheap way to keep the index current. */
export class Project {
  readonly db: DB;
  private lastStats: IndexStats | undefined;
  private refreshing: Promise<Freshness> | undefined;
  /** set while a refresh runs */
  progress: IndexProgress | undefined;
  private lineCache = new Map<string, { mtimeMs: number; lines: string[] }>();
  /** bumped whenever the index content changes; caches key on it */
  generation = 0;
  private watcher: IndexWatcher | undefined;

  constructor(readonly root: string) {
    if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new Error(`project root ${root} is not a directory`);
    this.root = fs.realpathSync(root);
    // a client that starts servers with cwd / or ~ (Cursor does) must not make us index a whole disk
    const home = fs.existsSync(os.homedir()) ? fs.realpathSync(os.homedir()) : os.homedir();
    if (this.root === path.parse(this.root).root || this.root === home) {
      throw new UserError(
        `refusing to index ${this.root}: that is ${this.root === home ? 'the home directory' : 'the root of the file system'}, not a project`,
        'Start code-intel with the project as its root: `code-intel serve /path/to/project` (in .mcp.json, `serve` with the project path or ${workspaceFolder}), or run it from the project directory.',
        'invalid_root',
      );
    }
    this.db = openDb(this.root);
  }

  /** Stats every file; re-indexes only what changed. Concurrent callers share one refresh. */
  refresh(): Promise<Freshness> {
    // the index outlives the call that asked for it: it runs outside that call's time budget
    this.refreshing ??= outsideDeadline(() => this.runRefresh());
    return this.refreshing;
  }

  private async runRefresh(): Promise<Freshness> {
    this.progress = { stage: 'walk', done: 0, total: 0, since: new Date().toISOString() };
    try {
      const stats = await indexProject(this.db, this.root, {
        onProgress: (done, total, stage = 'parse', wrote = true) => {
          this.progress = { ...this.progress!, stage, done, total };
          // facts committed in a batch are answers already: caches keyed on the generation see them.
          // A batch that changed nothing (binaries the walk lists and the parse skips, every time)
          // must not: it made every call rebuild the search corpus (1.7 s on a 5,800-file monorepo)
          if (wrote) this.generation++;
        },
      });
      this.lastStats = stats;
      if (stats.parsed + stats.removed > 0) {
        this.generation++;
        this.lineCache.clear();
      }
      this.progress = undefined;
      return this.freshness(stats.parsed + stats.removed);
    } finally {
      this.progress = undefined;
      this.refreshing = undefined;
    }
  }

  /**
   * Brings the index up to date for a call, waiting at most `waitMs` (and calling `onWait` about
   * twice a second meanwhile): past that the call answers from what is indexed, and its freshness
   * says so (`complete: false`, `indexing`). The work goes on in the background either way.
   */
  async fresh(waitMs: number, onWait?: (p: IndexProgress | undefined) => void): Promise<Freshness> {
    const work = this.refresh();
    const deadline = performance.now() + waitMs;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) return this.freshness();
      const done = await Promise.race([work.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), Math.min(500, left)))]);
      if (done) return work;
      onWait?.(this.progress);
    }
  }

  /** Follows changes on disk from now on, re-indexing in the background (src/project/watcher.ts). */
  watch(opts: WatchOptions = {}): IndexWatcher {
    this.watcher?.stop();
    this.watcher = new IndexWatcher({ root: this.root, directories: () => this.directories(), refresh: () => this.refresh() }, opts);
    this.watcher.sync();
    return this.watcher;
  }

  /** The directories that hold indexed files, relative ('' for the root). */
  private directories(): string[] {
    const dirs = new Set<string>();
    for (const { path: p } of this.db.prepare('SELECT path FROM files').iterate() as Iterable<{ path: string }>) {
      const i = p.lastIndexOf('/');
      if (i > 0) dirs.add(p.slice(0, i));
    }
    // a folder whose files sit deeper still has to be watched: a new file there is a change
    for (const d of [...dirs]) for (let i = d.indexOf('/'); i > 0; i = d.indexOf('/', i + 1)) dirs.add(d.slice(0, i));
    return [...dirs];
  }

  /** The index holds every file as of its last refresh: not a cold one, and no changes half-applied. */
  get complete(): boolean {
    return getMeta(this.db, 'indexed_at') !== undefined && getMeta(this.db, 'index_pending') !== '1';
  }

  freshness(reindexed = 0): Freshness {
    const files = (this.db.prepare('SELECT COUNT(*) n FROM files').get() as { n: number }).n;
    const skipped = JSON.parse(getMeta(this.db, 'skipped') ?? '[]') as { file: string; reason: string }[];
    const unreadable = skipped.filter((s) => s.reason.startsWith('unreadable')).map((s) => s.file);
    const complete = this.complete;
    return {
      indexed_at: getMeta(this.db, 'indexed_at') ?? 'never', files, reindexed_now: reindexed, skipped_files: skipped.length, complete,
      ...(complete || !this.progress ? {} : { indexing: this.progress }),
      ...(this.watcher?.watching ? { watching: true } : {}),
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
    this.watcher?.stop();
    this.db.close();
  }
}
