/**
 * search_text off the main thread: a few worker threads run the scans; a scan that outlives its
 * call's budget (a regular expression with catastrophic backtracking) is stopped by terminating
 * its worker, and a fresh one takes its place. The main thread never runs a user's regex over file
 * text, so it keeps serving every other call.
 *
 * Measured (Node 20, this machine): a worker starts in ~30 ms and is reused, a job's round trip is
 * ~0.1 ms, and terminate() stops a thread stuck in `(a+)+\1$` within ~3 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BudgetExceeded, type Deadline } from '../util/deadline.js';
import { log } from '../util/log.js';
import { PACKAGE_ROOT, UserError } from '../util/paths.js';
import type { Project } from '../project/project.js';
import { prepareSearch, runSearchJob, type SearchJob, type SearchTextArgs, type SearchTextResult } from './search-text.js';

const WORKER_FILE = path.join(PACKAGE_ROOT, 'dist', 'src', 'query', 'search-worker.js');
const MAX_WORKERS = 4;
const MAX_IDLE = 2;
/** the scan stops opening files this long before the budget ends, to answer with what it found */
const SOFT_MARGIN_MS = 300;

export const REGEX_TIMEOUT_HINT =
  'The search did not finish in time. A regular expression with nested quantifiers such as (a+)+ or (a|aa)* can take exponential time on a long line: ' +
  'make it more specific (anchor it, avoid nested repetition), pass regex: false for literal text, or narrow the search with path / glob.';

interface Waiter {
  resolve: (w: Worker) => void;
}

class SearchPool {
  private idle: Worker[] = [];
  private busy = 0;
  private queue: Waiter[] = [];
  private nextId = 1;

  available(): boolean {
    return fs.existsSync(WORKER_FILE);
  }

  private spawn(): Worker {
    const w = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: 512 }, stderr: false });
    w.unref();
    // a worker that dies while idle (it should not) must not be handed a job
    w.once('exit', () => {
      this.idle = this.idle.filter((x) => x !== w);
    });
    return w;
  }

  private acquire(): Promise<Worker> {
    const w = this.idle.pop();
    if (w) {
      this.busy++;
      return Promise.resolve(w);
    }
    if (this.busy < MAX_WORKERS) {
      this.busy++;
      return Promise.resolve(this.spawn());
    }
    return new Promise((resolve) => this.queue.push({ resolve }));
  }

  /** A worker is free again (or gone: `w` undefined); hand it, or a fresh one, to the next waiter. */
  private release(w: Worker | undefined): void {
    const next = this.queue.shift();
    if (next) {
      next.resolve(w ?? this.spawn());
      return;
    }
    this.busy--;
    if (w) {
      if (this.idle.length < MAX_IDLE) this.idle.push(w);
      else void w.terminate();
    }
  }

  run(job: SearchJob, deadline: Deadline): Promise<SearchTextResult> {
    const id = this.nextId++;
    return new Promise<SearchTextResult>((resolve, reject) => {
      let worker: Worker | undefined;
      let done = false;
      const finish = (keep: boolean) => {
        done = true;
        clearTimeout(timer);
        if (worker) {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (!keep) void worker.terminate();
          this.release(keep ? worker : undefined);
        }
      };
      const timer = setTimeout(() => {
        if (done) return;
        if (!worker) {
          // still waiting for a free worker: drop out of the queue's way when one comes
          done = true;
          reject(new BudgetExceeded(deadline.tool, deadline.ms, 'Several searches were already running; try again in a moment.'));
          return;
        }
        finish(false);
        reject(deadline.error());
      }, deadline.remaining());
      const onMessage = (m: { id: number; result?: SearchTextResult; error?: { code: string; message: string; hint?: string } }) => {
        if (m.id !== id || done) return;
        finish(true);
        if (m.error) reject(new UserError(m.error.message, m.error.hint, m.error.code));
        else resolve(m.result!);
      };
      const onError = (e: Error) => {
        if (done) return;
        finish(false);
        log.error('search worker failed', e);
        reject(new UserError(`the search failed: ${e.message.slice(0, 200)}`, 'The search ran out of memory or crashed: narrow it with path / glob, or make the pattern more specific.', 'search_failed'));
      };
      const onExit = () => onError(new Error('the search worker exited'));
      void this.acquire().then((w) => {
        if (done) {
          this.release(w); // timed out while queued
          return;
        }
        worker = w;
        w.on('message', onMessage);
        w.once('error', onError);
        w.once('exit', onExit);
        w.postMessage({ id, job: { ...job, softMs: Math.max(50, Math.min(job.softMs, deadline.remaining() - SOFT_MARGIN_MS)) } });
      });
    });
  }
}

let pool: SearchPool | undefined;

/**
 * search_text for the server: the scan runs on a worker thread under the call's deadline. Without
 * a built worker (tests running the TypeScript sources) it runs in-process, as the CLI does.
 */
export async function searchTextGuarded(p: Project, args: SearchTextArgs, deadline: Deadline): Promise<SearchTextResult & { note?: string; interpreted_as?: 'regex' }> {
  const first = await searchOnce(p, args, deadline);
  // agents write grep/rg patterns (`\$onAction`, `a|b`): with `regex` left out, a pattern that
  // matches nothing as text but is a regular expression is searched as one, and the answer says so
  if (first.total > 0 || args.regex !== undefined || !looksLikeRegex(args.pattern) || deadline.remaining() < 200) return first;
  const again = await searchOnce(p, { ...args, regex: true }, deadline);
  if (again.total === 0) return first;
  return { ...again, interpreted_as: 'regex', note: 'no match as literal text; these are the matches of the pattern as a regular expression (pass regex: false to search the text only)' };
}

async function searchOnce(p: Project, args: SearchTextArgs, deadline: Deadline): Promise<SearchTextResult> {
  const job = prepareSearch(p, args);
  pool ??= new SearchPool();
  deadline.hint = args.regex ? REGEX_TIMEOUT_HINT : 'The search did not finish in time: narrow it with path / glob.';
  if (!pool.available()) return runSearchJob({ ...job, softMs: Math.max(50, deadline.remaining() - SOFT_MARGIN_MS) });
  return pool.run(job, deadline);
}

/** A pattern written as a regular expression: an escape, an alternation, a class, a wildcard run or an anchor, and valid. */
export function looksLikeRegex(pattern: string): boolean {
  if (!/\\[$^.*+?()[\]{}|\\/bBdDwWsS]|\||\.[*+]|\[[^\]]+\]|^\^|\$$/.test(pattern)) return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
