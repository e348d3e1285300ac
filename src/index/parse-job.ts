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
    try {
      facts = await extractFile(row, buf.toString('utf8'));
    } catch (e) {
      return { rel: job.rel, status: 'skipped', reason: `parse failed: ${(e as Error).message}` };
    }
  }
  return { rel: job.rel, status: 'parsed', hash, size: st.size, mtimeMs: st.mtimeMs, facts };
}
