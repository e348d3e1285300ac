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
  | { rel: string; status: 'parsed'; hash: string; size: number; mtimeMs: number; facts: FileFacts | null }
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
    try {
      facts = await extractFile(row, text);
    } catch (e) {
      return { rel: job.rel, status: 'skipped', reason: `parse failed: ${(e as Error).message}` };
    }
  }
  return { rel: job.rel, status: 'parsed', hash, size: st.size, mtimeMs: st.mtimeMs, facts };
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
