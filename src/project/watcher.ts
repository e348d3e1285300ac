/**
 * Keeps the index fresh between calls: the directories that hold indexed files are watched, and a
 * change brings the index up to date in the background shortly after, so that the next call finds
 * nothing left to re-index. Every call still checks the files itself (Project.fresh), so a missed
 * or dropped event costs time, never a stale answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { log } from '../util/log.js';

/** Names whose changes never matter to the index (their own folders are never watched either). */
const NOT_SOURCE = new Set(['.git', '.code-intel', 'node_modules', '.hg', '.svn']);

export interface WatchOptions {
  /** quiet time after the last change before re-indexing, ms */
  settleMs?: number;
  /** watch at most this many directories; a larger project relies on each call's own check */
  maxDirs?: number;
}

export interface WatchTarget {
  readonly root: string;
  /** the directories (relative, '' for the root) that hold indexed files */
  directories(): string[];
  /** brings the index up to date; concurrent callers share one run */
  refresh(): Promise<unknown>;
}

export class IndexWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** a change arrived that no refresh has seen yet */
  private dirty = false;
  private stopped = false;
  private readonly settleMs: number;
  private readonly maxDirs: number;
  /** refreshes run because of a change (for tests and the log) */
  refreshes = 0;

  constructor(private readonly target: WatchTarget, opts: WatchOptions = {}) {
    this.settleMs = opts.settleMs ?? 300;
    this.maxDirs = opts.maxDirs ?? 4000;
  }

  /** true while changes are followed; false when the project was too large or the system refused */
  get watching(): boolean {
    return !this.stopped && this.watchers.size > 0;
  }

  /** Watches the root and every directory that holds indexed files (again after each refresh: new folders join). */
  sync(): void {
    if (this.stopped) return;
    const wanted = new Set(['', ...this.target.directories()]);
    if (wanted.size > this.maxDirs) {
      this.stop(`${wanted.size} directories (more than ${this.maxDirs}): each call checks the files instead`);
      return;
    }
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) if (!this.watchers.has(dir) && !this.add(dir)) return;
  }

  private add(dir: string): boolean {
    try {
      // persistent: false — watching never keeps the server alive after its client left
      const w = fs.watch(path.join(this.target.root, dir), { persistent: false }, (_event, name) => this.changed(name));
      w.on('error', () => {
        w.close();
        this.watchers.delete(dir); // the folder went away; the next sync re-adds what still exists
      });
      this.watchers.set(dir, w);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return true; // removed since it was indexed
      this.stop(`the system refused to watch more folders (${code ?? (e as Error).message})`);
      return false;
    }
  }

  private changed(name: string | Buffer | null): void {
    if (this.stopped) return;
    if (name && NOT_SOURCE.has(String(name))) return;
    this.dirty = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.settle();
    }, this.settleMs);
    this.timer.unref();
  }

  /** Re-indexes until no change is left unseen (changes during a refresh may have been walked past). */
  private settle(): Promise<void> {
    this.running ??= (async () => {
      try {
        while (this.dirty && !this.stopped) {
          this.dirty = false;
          this.refreshes++;
          await this.target.refresh();
          this.sync();
        }
      } catch (e) {
        log.info(`watcher: re-indexing failed (${(e as Error).message}); the next call checks again`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Resolves once the changes seen so far are indexed (for tests and shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running) await this.running;
      else if (this.timer) await new Promise((r) => setTimeout(r, 20));
      else return;
    }
  }

  stop(why?: string): void {
    if (why) log.info(`watcher: not following changes: ${why}`);
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
