import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { UserError } from '../util/paths.js';
import type { Project } from './project.js';

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

const COUNT_CAP = 10_000;
const TIME_BUDGET_MS = 10_000;
const SNIPPET_MAX = 200;

/**
 * ripgrep-like search over the project's text files (those the index tracks: .gitignore honoured,
 * binaries and huge files left out). Literal by default; `regex: true` for JavaScript regexes.
 */
export function searchText(p: Project, args: SearchTextArgs): SearchTextResult {
  if (!args.pattern) throw new UserError('the pattern is empty', 'Pass the text (or regex with regex: true) to look for.');
  const flags = 'gm' + (args.case_sensitive === false ? 'i' : '');
  let re: RegExp;
  try {
    re = new RegExp(args.regex ? args.pattern : escapeRegex(args.pattern), flags);
  } catch (e) {
    throw new UserError(`invalid regular expression: ${(e as Error).message}`, 'Fix the regex, or pass regex: false to search for the literal text.', 'invalid_regex');
  }
  const globs = (Array.isArray(args.glob) ? args.glob : args.glob ? [args.glob] : []).filter(Boolean);
  const include = globs.filter((g) => !g.startsWith('!'));
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const isIncluded = include.length ? picomatch(include, { dot: true, matchBase: !include.some((g) => g.includes('/')) }) : () => true;
  const isExcluded = exclude.length ? picomatch(exclude, { dot: true, matchBase: !exclude.some((g) => g.includes('/')) }) : () => false;
  const under = args.path ? args.path.replace(/^\.\/?/, '').replace(/\/+$/, '') : '';

  const files = (p.db.prepare('SELECT path FROM files ORDER BY path').all() as { path: string }[])
    .map((r) => r.path)
    .filter((f) => (!under || f === under || f.startsWith(under + '/')) && isIncluded(f) && !isExcluded(f));
  if (under && files.length === 0 && !fs.existsSync(path.join(p.root, under))) {
    throw new UserError(`path '${args.path}' does not exist in the project`, 'Pass a directory or file relative to the project root.', 'unknown_path');
  }

  const offset = Math.max(0, args.offset ?? 0);
  const limit = Math.max(1, Math.min(args.limit ?? 50, 500));
  const items: TextMatch[] = [];
  let total = 0;
  let lowerBound = false;
  let searched = 0;
  const t0 = performance.now();
  for (const rel of files) {
    if (total >= COUNT_CAP || performance.now() - t0 > TIME_BUDGET_MS) {
      lowerBound = true;
      break;
    }
    let text: string;
    try {
      text = fs.readFileSync(path.join(p.root, rel), 'utf8');
    } catch {
      continue;
    }
    searched++;
    re.lastIndex = 0;
    if (!re.test(text)) continue;
    re.lastIndex = 0;
    let lineStarts: number[] | undefined;
    for (let m = re.exec(text); m; m = re.exec(text)) {
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
    }
  }
  return {
    items,
    total,
    total_is_lower_bound: lowerBound || total >= COUNT_CAP,
    offset,
    limit,
    next_offset: offset + items.length < total ? offset + items.length : null,
    files_searched: searched,
  };
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
