/**
 * The code-search model's forward pass: a weighted mean of token vectors, L2-normalised.
 * Each token weighs base × exp(w_side[token] + w_field[field]) — learned, like an IDF per side.
 */
import type { Features } from './features.js';
import type { StaticWeights } from './model-file.js';

export function embedFeatures(m: StaticWeights, f: Features, side: 'query' | 'code'): Float32Array {
  const d = m.dim;
  const out = new Float32Array(d);
  const w = side === 'query' ? m.wq : m.wc;
  for (let i = 0; i < f.ids.length; i++) {
    const id = f.ids[i]!;
    const a = f.base[i]! * Math.exp(w[id]! + m.field[f.fields[i]!]!) * m.scales[id]!;
    const off = id * d;
    for (let j = 0; j < d; j++) out[j]! += a * m.rows[off + j]!;
  }
  let n = 0;
  for (let j = 0; j < d; j++) n += out[j]! * out[j]!;
  n = Math.sqrt(n);
  if (n > 0) for (let j = 0; j < d; j++) out[j]! /= n;
  return out;
}
