/**
 * Chooses how semantic_search orders results when the model is present, on VALIDATION packages of
 * the manifest (never the benchmarks' packages): each package is staged twice, with comments (the
 * requests: first sentences of doc comments) and without (what is indexed), and every ordering
 * under test ranks all declarations for every request. Prints MRR and R@10 per ordering.
 *
 *   node dist/train/tune.js [--cache DIR] [--packages a,b,c]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripComments } from '../bench/lib/strip.js';
import { qualified, SemanticEngine } from '../src/embeddings/engine.js';
import { loadStaticEmbedder } from '../src/embeddings/static/static-embedder.js';
import { Project } from '../src/project/project.js';
import { docCases } from './doc-cases.js';
import { readManifest } from './manifest.js';
import { stagePackage } from './stage.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (n: string) => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

interface Case {
  query: string;
  targets: Set<string>; // path\0qualified
}

type Scored = { i: number; bm25: number; coverage: number; cos: number };
const ORDERINGS: Record<string, (xs: Scored[]) => number[]> = {};

function rankBy(xs: Scored[], key: (x: Scored) => number): number[] {
  return xs.slice().sort((a, b) => key(b) - key(a) || a.i - b.i).map((x) => x.i);
}
function rrf(xs: Scored[], k: number, wv = 1): number[] {
  const byB = rankBy(xs.filter((x) => x.bm25 > 0), (x) => x.bm25);
  const byV = rankBy(xs, (x) => x.cos);
  const score = new Map<number, number>();
  byB.forEach((i, r) => score.set(i, (score.get(i) ?? 0) + 1 / (k + r + 1)));
  byV.forEach((i, r) => score.set(i, (score.get(i) ?? 0) + wv / (k + r + 1)));
  return [...score.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([i]) => i);
}
ORDERINGS['bm25f'] = (xs) => rankBy(xs.filter((x) => x.bm25 > 0), (x) => x.bm25);
ORDERINGS['cosine'] = (xs) => rankBy(xs, (x) => x.cos);
ORDERINGS['tier(0.5v+0.3cov)'] = (xs) => rankBy(xs, (x) => 0.5 * x.cos + 0.3 * x.coverage);
for (const k of [10, 30, 60]) ORDERINGS[`rrf k=${k}`] = (xs) => rrf(xs, k);
ORDERINGS['rrf k=30 v×2'] = (xs) => rrf(xs, 30, 2);
for (const b of [0.1, 0.2, 0.35, 0.5]) {
  ORDERINGS[`cos+${b}·bm25/max`] = (xs) => {
    const max = Math.max(1e-9, ...xs.map((x) => x.bm25));
    return rankBy(xs, (x) => x.cos + (b * x.bm25) / max);
  };
}

for (const g of [0.1, 0.25, 0.5, 1]) { // semantic_search's order (FUSION_COSINE in engine.ts)
  ORDERINGS[`bm25/max+${g}·cos`] = (xs) => {
    const max = Math.max(1e-9, ...xs.map((x) => x.bm25));
    return rankBy(xs, (x) => x.bm25 / max + g * x.cos);
  };
}

// adaptive: the model weighs more where the words reach the code less (the best tier-scale keyword
// coverage of any declaration for this request: a doc paraphrase of stripped code has little)
const topCov = (xs: Scored[]) => Math.max(0, ...xs.map((x) => x.coverage));
for (const [lo, hi] of [[0.5, 2], [0.5, 3], [0.25, 3], [0.5, 5]] as const) {
  ORDERINGS[`adaptive ${lo}..${hi}`] = (xs) => {
    const max = Math.max(1e-9, ...xs.map((x) => x.bm25));
    const g = hi - (hi - lo) * Math.min(1, topCov(xs));
    return rankBy(xs, (x) => x.bm25 / max + g * x.cos);
  };
}
for (const k of [1, 3, 10]) { // BM25F saturated on its own scale instead of relative to the best
  ORDERINGS[`cos+bm25/(bm25+${k})`] = (xs) => rankBy(xs, (x) => x.cos + x.bm25 / (x.bm25 + k));
}
// the model's cosine on the scale of its own answers to this request: 0 at the 200th best (the engine's
// nearest-neighbour cut), 1 at the best — as BM25F is taken relative to its best
function spread(xs: Scored[]): (c: number) => number {
  const cs = xs.map((x) => x.cos).sort((a, b) => b - a);
  const top = cs[0] ?? 0, floor = cs[Math.min(199, cs.length - 1)] ?? 0;
  return (c) => (top > floor ? Math.max(0, (c - floor) / (top - floor)) : 0);
}
for (const g of [0.5, 0.75, 1, 1.5]) {
  ORDERINGS[`bm25/max+${g}·cos spread`] = (xs) => {
    const max = Math.max(1e-9, ...xs.map((x) => x.bm25));
    const s = spread(xs);
    return rankBy(xs, (x) => x.bm25 / max + g * s(x.cos));
  };
}
for (const g of [0.5, 1]) {
  ORDERINGS[`bm25/max+${g}·z`] = (xs) => {
    const max = Math.max(1e-9, ...xs.map((x) => x.bm25));
    const m = xs.reduce((a, x) => a + x.cos, 0) / Math.max(1, xs.length);
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x.cos - m) ** 2, 0) / Math.max(1, xs.length)) || 1;
    const zmax = Math.max(1e-9, ...xs.map((x) => (x.cos - m) / sd));
    return rankBy(xs, (x) => x.bm25 / max + (g * Math.max(0, (x.cos - m) / sd)) / zmax);
  };
}
const COVS: number[] = [];

async function main(): Promise<void> {
  const cache = path.resolve(arg('--cache') ?? path.join(REPO, 'train', '.cache'));
  process.env.CODE_INTEL_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-tune-state-'));
  const wanted = arg('--packages')?.split(',');
  const entries = readManifest().filter((e) => e.split === 'valid' && (!wanted || wanted.includes(e.name)));
  const embedder = loadStaticEmbedder(arg('--model'));
  const totals = new Map<string, { rr: number; r10: number; n: number }>();
  for (const e of entries) {
    const s = stagePackage(cache, e);
    try {
      if (s.files.length === 0) continue;
      const withDocs = new Project(s.stage);
      await withDocs.refresh();
      // (a declaration's copies in its module's other files are hits too: train/doc-cases.ts)
      const cases = docCases(withDocs.db).filter((c) => c.distinct <= 3).slice(0, 300);
      withDocs.close();
      if (cases.length < 10) continue;
      const stripped = path.join(path.dirname(s.stage), 'stripped');
      stripComments(path.join(s.stage, 'code'), path.join(stripped, 'code'));
      const project = new Project(stripped);
      await project.refresh();
      const engine = new SemanticEngine(project);
      const corpus = engine.corpus();
      const vecs = embedder.embedCode(corpus.chunks);
      const keys = corpus.chunks.map((c) => `${c.path}\0${qualified(c)}`);
      const per = new Map<string, { rr: number; r10: number }>();
      for (const c of cases) {
        const q = embedder.embedQuery(c.query);
        const kw = corpus.index.search(engine.concepts(c.query));
        const xs: Scored[] = corpus.chunks.map((ch, i) => ({
          i, bm25: kw.get(i)?.bm25 ?? 0, coverage: kw.get(i)?.coverage ?? 0, cos: ch.kind === 'section' ? -1 : vecs[i]!.reduce((s2, v, j) => s2 + v * q[j]!, 0),
        })).filter((x) => corpus.chunks[x.i]!.kind !== 'section');
        COVS.push(topCov(xs));
        for (const [name, order] of Object.entries(ORDERINGS)) {
          const list = order(xs).slice(0, 100);
          const r = list.findIndex((i) => c.targets.has(keys[i]!));
          const t = per.get(name) ?? { rr: 0, r10: 0 };
          t.rr += r >= 0 ? 1 / (r + 1) : 0;
          t.r10 += r >= 0 && r < 10 ? 1 : 0;
          per.set(name, t);
        }
      }
      project.close();
      console.log(`${e.name}: ${cases.length} requests, ${corpus.chunks.length} chunks — ` + [...per].map(([k, v]) => `${k} ${(v.rr / cases.length).toFixed(3)}`).join(', '));
      for (const [k, v] of per) {
        const t = totals.get(k) ?? { rr: 0, r10: 0, n: 0 };
        t.rr += v.rr, t.r10 += v.r10, t.n += cases.length;
        totals.set(k, t);
      }
    } finally {
      s.cleanup();
    }
  }
  COVS.sort((a, b) => a - b);
  console.log(`top coverage quartiles: ${[0.1, 0.25, 0.5, 0.75, 0.9].map((q) => COVS[Math.floor(q * (COVS.length - 1))]!.toFixed(2)).join(' ')}`);
  console.log('\nordering                     MRR    R@10   (all validation requests)');
  for (const [k, t] of totals) console.log(`${k.padEnd(28)} ${(t.rr / t.n).toFixed(3)}  ${(t.r10 / t.n).toFixed(3)}  n=${t.n}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
