/**
 * The code-search model on disk: one binary file and a JSON card beside it that names the file's
 * sha256. The loader refuses a file whose checksum differs from the card (a truncated download, a
 * merge that mangled it, a file swapped by hand) instead of ranking with garbage.
 *
 *   "CIMODEL1" · u32 header bytes · header JSON · f32 scales[V] · f32 wq[V] · f32 wc[V] · f32 field[8] · i8 rows[V×dim]
 *
 * Rows are int8 with one scale per row (a float32 table would be 4× the size for no measurable gain).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { UserError } from '../../util/paths.js';
import type { Calibration } from '../calibration.js';
import { FIELDS, Vocab } from './features.js';

const MAGIC = 'CIMODEL1';

export interface ModelHeader {
  format: 1;
  name: string;
  version: string;
  dim: number;
  buckets: number;
  /** share of a known word's weight its trigrams carry (features.ts Vocab); absent in version 1 */
  subwords?: number;
  words: string[];
  fields: readonly string[];
  seed: number;
}

export interface ModelCard {
  file: string;
  sha256: string;
  bytes: number;
  name: string;
  version: string;
  /** cosine → tier curve measured on the validation packages (relevant vs unrelated pairs) */
  calibration?: Calibration;
  /** how it was trained and what it measured (train/train.ts writes it) */
  training?: Record<string, unknown>;
}

export interface StaticWeights {
  header: ModelHeader;
  vocab: Vocab;
  dim: number;
  rows: Int8Array;
  scales: Float32Array;
  wq: Float32Array;
  wc: Float32Array;
  field: Float32Array;
}

export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

/** Quantises float rows to int8 with a per-row scale and writes the file; returns its sha256. */
export function writeModel(file: string, h: Omit<ModelHeader, 'format' | 'fields'>, E: Float32Array, wq: Float32Array, wc: Float32Array, field: Float32Array): { sha256: string; bytes: number } {
  const V = h.words.length + h.buckets;
  const d = h.dim;
  const scales = new Float32Array(V);
  const rows = new Int8Array(V * d);
  for (let r = 0; r < V; r++) {
    let max = 0;
    for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(E[r * d + j]!));
    const s = max / 127 || 1;
    scales[r] = s;
    for (let j = 0; j < d; j++) rows[r * d + j] = Math.round(E[r * d + j]! / s);
  }
  const header = Buffer.from(JSON.stringify({ format: 1, fields: FIELDS, ...h } satisfies ModelHeader), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  const f8 = new Float32Array(8);
  f8.set(field.subarray(0, 8));
  const buf = Buffer.concat([
    Buffer.from(MAGIC, 'ascii'), len, header,
    Buffer.from(scales.buffer), Buffer.from(wq.buffer, wq.byteOffset, V * 4), Buffer.from(wc.buffer, wc.byteOffset, V * 4), Buffer.from(f8.buffer),
    Buffer.from(rows.buffer),
  ]);
  fs.writeFileSync(file, buf);
  return { sha256: sha256(buf), bytes: buf.length };
}

const floats = (buf: Buffer, at: number, n: number) => new Float32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + n * 4));

/** Reads and verifies a model file against the sha256 its card names. */
export function readModel(file: string, expectedSha256: string): StaticWeights {
  const buf = fs.readFileSync(file);
  const got = sha256(buf);
  if (got !== expectedSha256) {
    throw new UserError(
      `the code-search model ${file} does not match its card (sha256 ${got.slice(0, 12)}…, expected ${expectedSha256.slice(0, 12)}…)`,
      'Reinstall code-intel, or rebuild the model with `npm run train` (train/README.md); until then the lexical backend is used.',
      'model_corrupt',
    );
  }
  if (buf.subarray(0, 8).toString('ascii') !== MAGIC) throw new UserError(`${file} is not a code-intel model file`, 'Reinstall code-intel.', 'model_corrupt');
  const hl = buf.readUInt32LE(8);
  const header = JSON.parse(buf.subarray(12, 12 + hl).toString('utf8')) as ModelHeader;
  const vocab = new Vocab(header.words, header.buckets, header.subwords ?? 0);
  const V = vocab.size;
  let at = 12 + hl;
  const scales = floats(buf, at, V);
  at += V * 4;
  const wq = floats(buf, at, V);
  at += V * 4;
  const wc = floats(buf, at, V);
  at += V * 4;
  const field = floats(buf, at, 8);
  at += 32;
  const rows = new Int8Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + V * header.dim));
  if (rows.length !== V * header.dim) throw new UserError(`${file} is truncated`, 'Reinstall code-intel.', 'model_corrupt');
  return { header, vocab, dim: header.dim, rows, scales, wq, wc, field };
}
