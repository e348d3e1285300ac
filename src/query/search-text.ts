/**
 * search_text: ripgrep-like search over the project's text files (those the index tracks:
 * .gitignore honoured, binaries and huge files left out). Literal by default; `regex: true` for a
 * JavaScript regular expression.
 *
 * A regular expression can take exponential time (`(a+)+$` over a long line), and a running match
 * cannot be interrupted on the thread that runs it. So the server matches on a worker thread
 * (src/query/search-pool.ts) and terminates it when the call's budget is spent; the scan itself
 * (runSearchJob) is a pure function of a job, the same in the worker and in the CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { quote, trimSlashes, UserError } from '../util/paths.js';
import type { Project } from '../project/project.js';

export interface TextMatch {
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  snippet: string;
}

export interface SearchTextResult {
  items: TextMatch[];
  total: number;
  /** true when counting stopped at the cap (or the time budget): total is a lower bound */
  total_is_lower_bound: boolean;
  offset: number;
  limit: number;
  next_offset: number | null;
  files_searched: number;
  /** set when the search stopped at its time budget before every file was searched */
  time_limited?: true;
}

export interface SearchTextArgs {
  pattern: string;
  regex?: boolean;
  case_sensitive?: boolean;
  /** glob(s) over project-relative paths, e.g. "src/**\/*.ts"; a leading ! excludes */
  glob?: string | string[];
  /** a directory or file to search under */
  path?: string;
  offset?: number;
  limit?: number;
}

/** Everything a scan needs, as plain data (it crosses to a worker thread). */
export interface SearchJob {
  root: string;
  /** candidate files (project-relative), before the globs */
  files: string[];
  source: string;
  flags: string;
  globs: string[];
  offset: number;
  limit: number;
  /** stop opening files after this many ms, and say the total is a lower bound */
  softMs: number;
}

const COUNT_CAP = 10_000;
const TIME_BUDGET_MS = 10_000;
const SNIPPET_MAX = 200;

export const REGEX_HINT = 'Fix the regex, or pass regex: false to search for the literal text.';

/** Checks the arguments and lists the candidate files; throws a UserError for a bad pattern or path. */
export function prepareSearch(p: Project, args: SearchTextArgs, softMs = TIME_BUDGET_MS): SearchJob {
  if (!args.pattern) throw new UserError('the pattern is empty', 'Pass the text (or regex with regex: true) to look for.', 'empty_pattern');
  const flags = 'gm' + (args.case_sensitive === false ? 'i' : '');
  const source = args.regex ? args.pattern : escapeRegex(args.pattern);
  compile(source, flags); // a syntax error is the caller's, and reported before any file is read
  const globs = (Array.isArray(args.glob) ? args.glob : args.glob ? [args.glob] : []).filter(Boolean);
  const under = args.path ? trimSlashes(args.path.replace(/^\.\/?/, '')) : '';
  const files = (p.db.prepare('SELECT path FROM files ORDER BY path').all() as { path: string }[])
    .map((r) => r.path)
    .filter((f) => !under || f === under || f.startsWith(under + '/'));
  if (under && files.length === 0 && !fs.existsSync(path.join(p.root, under))) {
    throw new UserError(`path '${quote(args.path)}' does not exist in the project`, 'Pass a directory or file relative to the project root.', 'unknown_path');
  }
  return {
    root: p.root, files, source, flags, globs,
    offset: Math.max(0, args.offset ?? 0),
    limit: Math.max(1, Math.min(args.limit ?? 50, 500)),
    softMs,
  };
}

/** In-process search (the CLI; tests): no protection against a regex that never finishes. */
export function searchText(p: Project, args: SearchTextArgs): SearchTextResult {
  return runSearchJob(prepareSearch(p, args));
}

function compile(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw new UserError(`invalid regular expression: ${quote((e as Error).message, 200)}`, REGEX_HINT, 'invalid_regex');
  }
}

/** The scan: globs, then every file's matches, counted up to the cap, the page kept. */
export function runSearchJob(job: SearchJob): SearchTextResult {
  const re = compile(job.source, job.flags);
  const include = job.globs.filter((g) => !g.startsWith('!'));
  const exclude = job.globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const isIncluded = include.length ? picomatch(include, { dot: true, matchBase: !include.some((g) => g.includes('/')) }) : () => true;
  const isExcluded = exclude.length ? picomatch(exclude, { dot: true, matchBase: !exclude.some((g) => g.includes('/')) }) : () => false;
  const { offset, limit } = job;
  const items: TextMatch[] = [];
  let total = 0;
  let lowerBound = false;
  let timeLimited = false;
  let searched = 0;
  const t0 = performance.now();
  for (const rel of job.files) {
    if (total >= COUNT_CAP) {
      lowerBound = true;
      break;
    }
    if (performance.now() - t0 > job.softMs) {
      lowerBound = timeLimited = true;
      break;
    }
    if (!isIncluded(rel) || isExcluded(rel)) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(job.root, rel), 'utf8');
    } catch {
      continue;
    }
    searched++;
    re.lastIndex = 0;
    if (!matches(re, text)) continue;
    re.lastIndex = 0;
    let lineStarts: number[] | undefined;
    for (let m = exec(re, text); m; m = exec(re, text)) {
      if (m[0].length === 0) re.lastIndex++;
      total++;
      if (total > offset && items.length < limit) {
        lineStarts ??= computeLineStarts(text);
        const line = lineOf(lineStarts, m.index);
        const start = lineStarts[line]!;
        const endLine = lineOf(lineStarts, m.index + Math.max(0, m[0].length - 1));
        const lineEnd = text.indexOf('\n', start);
        const lineText = text.slice(start, lineEnd < 0 ? undefined : lineEnd).replace(/\r$/, '');
        items.push({
          file: rel,
          line: line + 1,
          column: m.index - start + 1,
          end_line: endLine + 1,
          end_column: endLine === line ? m.index - start + 1 + m[0].length : m.index + m[0].length - lineStarts[endLine]! + 1,
          snippet: clip(lineText, m.index - start),
        });
      }
      if (total >= COUNT_CAP) break;
      if ((total & 255) === 0 && performance.now() - t0 > job.softMs) {
        lowerBound = timeLimited = true;
        break;
      }
    }
    if (timeLimited) break;
  }
  return {
    items,
    total,
    total_is_lower_bound: lowerBound || total >= COUNT_CAP,
    offset,
    limit,
    next_offset: offset + items.length < total ? offset + items.length : null,
    files_searched: searched,
    ...(timeLimited ? { time_limited: true as const } : {}),
  };
}

/** V8 compiles a regex at its first use: "Regular expression too large" is the caller's error too. */
function matches(re: RegExp, text: string): boolean {
  try {
    return re.test(text);
  } catch (e) {
    throw tooLarge(e);
  }
}

function exec(re: RegExp, text: string): RegExpExecArray | null {
  try {
    return re.exec(text);
  } catch (e) {
    throw tooLarge(e);
  }
}

function tooLarge(e: unknown): unknown {
  if (e instanceof SyntaxError || (e instanceof Error && /regular expression/i.test(e.message))) {
    return new UserError(`invalid regular expression: ${quote(e.message, 200)}`, 'The expression is too large to compile: make it shorter or simpler.', 'invalid_regex');
  }
  return e;
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], index: number): number {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A line capped around the match, so a minified line cannot flood the result. */
function clip(line: string, at: number): string {
  const t = line.trimEnd();
  if (t.length <= SNIPPET_MAX) return t.trim();
  const start = Math.max(0, at - 60);
  return (start > 0 ? '…' : '') + t.slice(start, start + SNIPPET_MAX - 2) + '…';
}
