import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FileFacts } from './facts.js';
import { extractFile } from './extract.js';
import { languageFor } from './languages.js';
import { looksBinary } from './walk.js';

export interface ParseJob {
  rel: string;
  /** hash stored for this file: when the content still hashes to it, parsing is skipped */
  oldHash?: string;
}

export type ParseResult =
  | { rel: string; status: 'unchanged'; hash: string; size: number; mtimeMs: number }
  | { rel: string; status: 'parsed'; hash: string; size: number; mtimeMs: number; facts: FileFacts | null; note?: string }
  | { rel: string; status: 'skipped'; reason: string };

/** Reads, hashes and (for a known language) extracts one file. Runs in a worker or in-process. */
export async function runParseJob(root: string, job: ParseJob): Promise<ParseResult> {
  const abs = path.join(root, job.rel);
  let buf: Buffer;
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
    buf = fs.readFileSync(abs);
  } catch (e) {
    return { rel: job.rel, status: 'skipped', reason: `unreadable: ${(e as Error).message}` };
  }
  if (looksBinary(buf)) return { rel: job.rel, status: 'skipped', reason: 'binary' };
  const hash = createHash('sha1').update(buf).digest('hex');
  if (hash === job.oldHash) return { rel: job.rel, status: 'unchanged', hash, size: st.size, mtimeMs: st.mtimeMs };
  const row = languageFor(job.rel);
  let facts: FileFacts | null = null;
  if (row) {
    const text = buf.toString('utf8');
    // walks from a node to its ancestors cost its depth: a generated or hostile file nested
    // thousands deep would take minutes (10,000 levels: 18 s; 50,000: over 5 min). Real code stays far below.
    if (nestingDepth(text, MAX_NESTING) > MAX_NESTING) {
      return { rel: job.rel, status: 'skipped', reason: `nested deeper than ${MAX_NESTING} brackets (a generated or hostile file): not parsed` };
    }
    const width = minifiedWidth(job.rel, text);
    if (width !== undefined) {
      // kept as a file (searchable, readable), without the thousands of one-letter symbols a bundle holds
      const note = `minified or bundled (lines of ${width} characters on average): its symbols are not extracted`;
      return { rel: job.rel, status: 'parsed', hash, size: st.size, mtimeMs: st.mtimeMs, facts: null, note };
    }
    try {
      facts = await extractFile(row, text);
    } catch (e) {
      return { rel: job.rel, status: 'skipped', reason: `parse failed: ${(e as Error).message}` };
    }
  }
  return { rel: job.rel, status: 'parsed', hash, size: st.size, mtimeMs: st.mtimeMs, facts };
}

/**
 * A JavaScript file a minifier or bundler wrote: at least 10 KB with lines of more than 110
 * characters on average (GitHub Linguist's rule for generated JavaScript). Its average line length,
 * or undefined for code a person writes. A committed bundle (a yarn plugin, a vendored library)
 * otherwise doubled a project's symbols with `e`, `t`, `n` and its chunks with unreadable code.
 */
export function minifiedWidth(rel: string, text: string): number | undefined {
  if (text.length < 10 * 1024 || !/\.[cm]?jsx?$/i.test(rel)) return undefined;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  const width = Math.round(text.length / lines);
  return width > 110 ? width : undefined;
}

/** Deepest bracket nesting a file may have to be parsed. */
export const MAX_NESTING = 1000;

/** The deepest nesting of (, [ and { in a text, counting stops past `limit` (one linear pass). */
export function nestingDepth(text: string, limit = Infinity): number {
  let depth = 0, max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}
