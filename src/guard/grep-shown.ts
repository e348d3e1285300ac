/**
 * The lines a Grep in content mode showed: ripgrep prints a match as `path:12:text` and a context
 * line as `path-11-text` (with line numbers, Claude Code's default). Those lines were shown to the
 * agent as much as a Read's are, so code_evidence may cite them; the file stays a text match (one
 * line is not its code: evidence.ts). Without line numbers nothing is recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ShownLines } from '../session/store.js';
import { rangesOf } from '../session/evidence.js';

/** Most lines recorded per Grep: a result is capped by the client anyway. */
const MAX_LINES = 5000;

/**
 * Per file (keyed by `rel`), the lines `content` shows of it; `printed` is every spelling the
 * output may use for it (the path Grep printed, absolute or relative; a relative one is under
 * `root`). A line another file could have printed (`lib/response.js:355:a.iml:1:…`,
 * a file named to look like a line of lib/response.js: red team adv14) counts for none, and so does
 * one whose text is not the file's line (a path with a newline in a folder's name printed
 * `lib/cli.js:250:…` from another file, red team adv15).
 */
export function grepShownLines(content: string, files: readonly { rel: string; printed: readonly string[] }[], root: string): ShownLines {
  const isFile = fileAt(root), lineOf = fileLines(root);
  const found = new Map<string, [number, number][]>();
  let n = 0;
  // longest spelling first: `src/a.ts-1-x` must not be read as a file `src/a.ts-1`'s
  const spellings = files.flatMap((f) => f.printed.map((p) => ({ rel: f.rel, p }))).sort((a, b) => b.p.length - a.p.length);
  for (const line of content.split('\n')) {
    if (n >= MAX_LINES) break;
    for (const { rel, p } of spellings) {
      if (!line.startsWith(p)) continue;
      const m = /^[:-](\d{1,9})[:-]/.exec(line.slice(p.length));
      if (!m) continue;
      const at = Number(m[1]);
      const text = line.slice(p.length + m[0].length).replace(/\r$/, '');
      if (at < 1 || printedByAnother(line, p.length, isFile) || lineOf(rel, at)?.replace(/\r$/, '') !== text) break;
      if (!found.has(rel)) found.set(rel, []);
      found.get(rel)!.push([at, at]);
      n++;
      break;
    }
  }
  const out: ShownLines = {};
  for (const [rel, rs] of found) out[rel] = rangesOf(rs);
  return out;
}

/** Whether a split of the line other than at `at` (`path:12:` or `path-12-`) names a file too. */
function printedByAnother(line: string, at: number, isFile: (printed: string) => boolean): boolean {
  for (const m of line.matchAll(/[:-]\d{1,9}[:-]/g)) {
    if (m.index !== at && m.index > 0 && isFile(line.slice(0, m.index))) return true;
  }
  return false;
}

/** Are the lines recorded for each file among the lines a text shows (the client's transcript of the same Grep)? */
export function grepLinesWithin(recorded: ShownLines, text: string, files: readonly { rel: string; printed: readonly string[] }[], root: string): boolean {
  const shown = grepShownLines(text, files, root);
  return Object.entries(recorded).every(([rel, rs]) => rs.every(([a, b]) => (shown[rel] ?? []).some(([x, y]) => x <= a && b <= y)));
}

/** Whether a printed path (relative ones under `root`) is a file. */
function fileAt(root: string): (printed: string) => boolean {
  return (printed) => {
    try {
      return fs.statSync(path.resolve(root, printed)).isFile();
    } catch {
      return false;
    }
  };
}

/** A reader of files' lines (each file read once; one over the size limit has none). */
function fileLines(root: string, maxBytes = 8 << 20): (rel: string, line: number) => string | undefined {
  const cache = new Map<string, string[] | undefined>();
  return (rel, line) => {
    if (!cache.has(rel)) {
      let lines: string[] | undefined;
      try {
        const abs = path.resolve(root, rel);
        lines = fs.statSync(abs).size <= maxBytes ? fs.readFileSync(abs, 'utf8').split('\n') : undefined;
      } catch {
        lines = undefined;
      }
      cache.set(rel, lines);
    }
    return cache.get(rel)?.[line - 1];
  };
}
