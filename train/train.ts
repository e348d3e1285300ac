/**
 * Trains the code-search model on the pairs train/data.ts mined: static token vectors over the
 * identifier-aware vocabulary (src/embeddings/static/features.ts), pooled by a learned weight per
 * token, side and field, trained contrastively — each request against every declaration of its
 * batch (in-batch negatives, both directions). Batches are cut from one package at a time where it
 * has enough pairs, because that is the choice the model makes at run time: among one project's
 * declarations, which do this. Plain TypeScript on the CPU, seeded: the same data and seed give the
 * same model.
 *
 * With --commits DIR (train/commits.ts) the model also learns change requests: a commit subject
 * against the declarations the commit changed (one drawn per epoch), in batches of one repository,
 * with optional hard negatives (same-repository declarations sharing a word with the subject) as
 * extra columns of the request's softmax.
 *
 *   node dist/train/train.js [--data DIR] [--out data/model] [--dim 256] [--epochs 5] [--batch 256] [--seed 7] [--doc-share 0.5] [--dropout 0] [--subwords 0]
 *     [--commits DIR --commit-share 0.1 --hard 0]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeFeatures, type Features, queryFeatures, requestWords, Vocab } from '../src/embeddings/static/features.js';
import { writeModel } from '../src/embeddings/static/model-file.js';
import { calibrate } from '../src/embeddings/calibration.js';
import { identifierWords } from '../src/embeddings/text.js';
import { prng as rng, shuffle } from '../bench/lib/util.js';
import type { Pair } from './pairs.js';
import type { CodeSide, CommitPair } from './commits.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const DATA = path.resolve(arg('--data', path.join(REPO, 'train', '.cache', 'pairs')));
const OUT = path.resolve(arg('--out', path.join(REPO, 'data', 'model')));
const DIM = Number(arg('--dim', '256'));
const EPOCHS = Number(arg('--epochs', '5'));
const BATCH = Number(arg('--batch', '256'));
const SEED = Number(arg('--seed', '7'));
const BUCKETS = Number(arg('--buckets', '16384'));
const MIN_COUNT = Number(arg('--min-count', '3'));
const MAX_WORDS = Number(arg('--max-words', '40000'));
const LR = Number(arg('--lr', '0.004'));
const SCALE = Number(arg('--scale', '20'));
const DOC_SHARE = Number(arg('--doc-share', '0.5'));
const DROPOUT = Number(arg('--dropout', '0'));
const SUBWORDS = Number(arg('--subwords', '0'));
const COMMITS = arg('--commits', '');
/** share of an epoch's examples that are change requests (drawn with replacement from the commit pairs) */
const COMMIT_SHARE = Number(arg('--commit-share', '0.1'));
/** hard negatives per change request, as extra columns of its softmax */
const HARD = Number(arg('--hard', '0'));
/** how the best epoch is chosen with commits: doc MRR + SELECT_W × commit MRR (validation splits) */
const SELECT_W = Number(arg('--select-commit-weight', '1'));
const NAME = 'code-intel-search';
const VERSION = arg('--version', '1');

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

const readPairs = (f: string) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Pair);

function codeWords(p: Pair): string[] {
  return [...identifierWords(p.name), ...identifierWords(p.container ?? ''), ...identifierWords(p.path), ...identifierWords(p.signature), ...p.body.split(' ').filter(Boolean)];
}

function buildVocab(pairs: Pair[], commits: CommitPair[]): Vocab {
  const count = new Map<string, number>();
  for (const p of pairs) {
    for (const w of new Set([...requestWords(p.doc).map((x) => x.word), ...codeWords(p)])) count.set(w, (count.get(w) ?? 0) + 1);
  }
  for (const c of commits) {
    for (const w of new Set([...requestWords(c.query).map((x) => x.word), ...c.positives.flatMap((p) => codeWords({ ...p, pkg: c.pkg, query: c.query, doc: '' }))])) count.set(w, (count.get(w) ?? 0) + 1);
  }
  const words = [...count.entries()].filter(([w, n]) => n >= MIN_COUNT && w.length >= 2 && w.length <= 40).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_WORDS).map(([w]) => w);
  return new Vocab(words, BUCKETS, SUBWORDS);
}

interface Example {
  pkg: string;
  query: string;
  q: Features;
  c: Features;
  /** change requests: the key of the declaration drawn as `c`, the keys of all it changed (never a negative
   * for this request), and its hard negatives */
  ckey?: string;
  keys?: Set<string>;
  hard?: Coded[];
}

interface Coded { f: Features; key: string }

interface CommitEx {
  pkg: string;
  query: string;
  q: Features;
  pos: Coded[];
  hard: Coded[];
}

const keyOf = (pkg: string, c: CodeSide) => `${pkg}\0${c.path}\0${c.container ?? ''}.${c.name}`;

// ---- parameters and their Adam state -------------------------------------------------------------------

class Params {
  readonly E: Float32Array;
  readonly wq: Float32Array;
  readonly wc: Float32Array;
  readonly field = new Float32Array(8);
  // Adam moments (lazy for rows: a row's moments move only when the row has a gradient)
  private readonly mE: Float32Array;
  private readonly vE: Float32Array;
  private readonly mW: Float32Array;
  private readonly vW: Float32Array;
  private readonly mF = new Float32Array(8);
  private readonly vF = new Float32Array(8);
  // gradients of one batch
  readonly gE: Float32Array;
  readonly gwq: Float32Array;
  readonly gwc: Float32Array;
  readonly gF = new Float32Array(8);
  private readonly touched: Uint8Array;
  private readonly touchedList: number[] = [];
  step = 0;

  constructor(readonly V: number, readonly d: number, r: () => number) {
    this.E = new Float32Array(V * d);
    for (let i = 0; i < this.E.length; i++) this.E[i] = gaussian(r) * 0.1;
    this.wq = new Float32Array(V);
    this.wc = new Float32Array(V);
    this.mE = new Float32Array(V * d);
    this.vE = new Float32Array(V * d);
    this.mW = new Float32Array(2 * V);
    this.vW = new Float32Array(2 * V);
    this.gE = new Float32Array(V * d);
    this.gwq = new Float32Array(V);
    this.gwc = new Float32Array(V);
    this.touched = new Uint8Array(V);
  }

  touch(id: number): void {
    if (!this.touched[id]) {
      this.touched[id] = 1;
      this.touchedList.push(id);
    }
  }

  update(lr: number): void {
    this.step++;
    const b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const c1 = 1 - b1 ** this.step, c2 = 1 - b2 ** this.step;
    const d = this.d;
    for (const id of this.touchedList) {
      const off = id * d;
      for (let j = off; j < off + d; j++) {
        const g = this.gE[j]!;
        const m = (this.mE[j] = b1 * this.mE[j]! + (1 - b1) * g);
        const v = (this.vE[j] = b2 * this.vE[j]! + (1 - b2) * g * g);
        this.E[j]! -= (lr * (m / c1)) / (Math.sqrt(v / c2) + eps);
        this.gE[j] = 0;
      }
      for (const [w, g, k] of [[this.wq, this.gwq, id], [this.wc, this.gwc, this.V + id]] as const) {
        const gi = g[id]!;
        const m = (this.mW[k] = b1 * this.mW[k]! + (1 - b1) * gi);
        const v = (this.vW[k] = b2 * this.vW[k]! + (1 - b2) * gi * gi);
        w[id] = Math.max(-5, Math.min(3, w[id]! - (lr * 2 * (m / c1)) / (Math.sqrt(v / c2) + eps)));
        g[id] = 0;
      }
      this.touched[id] = 0;
    }
    this.touchedList.length = 0;
    for (let f = 0; f < 8; f++) {
      const g = this.gF[f]!;
      this.mF[f] = b1 * this.mF[f]! + (1 - b1) * g;
      this.vF[f] = b2 * this.vF[f]! + (1 - b2) * g * g;
      this.field[f]! -= (lr * (this.mF[f]! / c1)) / (Math.sqrt(this.vF[f]! / c2) + eps);
      this.gF[f] = 0;
    }
  }
}

// ---- forward and backward -----------------------------------------------------------------------------

interface Pooled {
  x: Float32Array; // normalised
  norm: number;
  a: Float32Array; // token weights
}

function pool(P: Params, f: Features, w: Float32Array): Pooled {
  const d = P.d;
  const u = new Float32Array(d);
  const a = new Float32Array(f.ids.length);
  for (let i = 0; i < f.ids.length; i++) {
    const id = f.ids[i]!;
    const ai = (a[i] = f.base[i]! * Math.exp(w[id]! + P.field[f.fields[i]!]!));
    const off = id * d;
    for (let j = 0; j < d; j++) u[j]! += ai * P.E[off + j]!;
  }
  let n = 0;
  for (let j = 0; j < d; j++) n += u[j]! * u[j]!;
  n = Math.sqrt(n) || 1;
  for (let j = 0; j < d; j++) u[j]! /= n;
  return { x: u, norm: n, a };
}

/** dx (gradient w.r.t. the normalised vector) back into the rows, token weights and field weights. */
function backprop(P: Params, f: Features, p: Pooled, dx: Float32Array, gw: Float32Array): void {
  const d = P.d;
  let dot = 0;
  for (let j = 0; j < d; j++) dot += dx[j]! * p.x[j]!;
  const du = new Float32Array(d);
  for (let j = 0; j < d; j++) du[j] = (dx[j]! - p.x[j]! * dot) / p.norm;
  for (let i = 0; i < f.ids.length; i++) {
    const id = f.ids[i]!;
    const ai = p.a[i]!;
    const off = id * d;
    let da = 0;
    for (let j = 0; j < d; j++) {
      da += P.E[off + j]! * du[j]!;
      P.gE[off + j]! += ai * du[j]!;
    }
    gw[id]! += ai * da;
    P.gF[f.fields[i]!]! += ai * da;
    P.touch(id);
  }
}

/**
 * The loss of one batch: S is B×N (requests × declarations: the batch's own B, then the extra hard
 * negatives); targets on the diagonal; masked entries (another declaration the same commit
 * changed) take no part. Adds dL/dS to G (mean of the request→code softmax over all N columns
 * and the code→request softmax over the B requests, per column k < B); returns the summed loss.
 */
function contrastive(S: Float32Array, G: Float32Array, B: number, N: number, mask: Uint8Array | undefined): number {
  let loss = 0;
  for (let i = 0; i < B; i++) {
    let max = -Infinity;
    for (let k = 0; k < N; k++) if (!mask?.[i * N + k]) max = Math.max(max, S[i * N + k]!);
    let z = 0;
    for (let k = 0; k < N; k++) if (!mask?.[i * N + k]) z += Math.exp(S[i * N + k]! - max);
    loss += -(S[i * N + i]! - max - Math.log(z));
    for (let k = 0; k < N; k++) if (!mask?.[i * N + k]) G[i * N + k]! += (Math.exp(S[i * N + k]! - max) / z - (i === k ? 1 : 0)) / (2 * B);
  }
  for (let k = 0; k < B; k++) {
    let max = -Infinity;
    for (let i = 0; i < B; i++) if (!mask?.[i * N + k]) max = Math.max(max, S[i * N + k]!);
    let z = 0;
    for (let i = 0; i < B; i++) if (!mask?.[i * N + k]) z += Math.exp(S[i * N + k]! - max);
    loss += -(S[k * N + k]! - max - Math.log(z));
    for (let i = 0; i < B; i++) if (!mask?.[i * N + k]) G[i * N + k]! += (Math.exp(S[i * N + k]! - max) / z - (i === k ? 1 : 0)) / (2 * B);
  }
  return loss;
}

function trainBatch(P: Params, batch: Example[]): number {
  const B = batch.length, d = P.d;
  // hard negatives of the batch's change requests: each declaration once
  const extra: Coded[] = [];
  const seenExtra = new Set<string>();
  for (const e of batch) for (const h of e.hard ?? []) if (!seenExtra.has(h.key)) seenExtra.add(h.key), extra.push(h);
  const N = B + extra.length;
  const colKey = [...batch.map((e) => e.ckey), ...extra.map((h) => h.key)];
  let mask: Uint8Array | undefined;
  for (let i = 0; i < B; i++) {
    const keys = batch[i]!.keys;
    if (!keys) continue;
    for (let k = 0; k < N; k++) {
      const ck = colKey[k];
      if (k !== i && ck !== undefined && keys.has(ck)) (mask ??= new Uint8Array(B * N))[i * N + k] = 1;
    }
  }
  const Q = batch.map((e) => pool(P, e.q, P.wq));
  const C = [...batch.map((e) => pool(P, e.c, P.wc)), ...extra.map((h) => pool(P, h.f, P.wc))];
  const S = new Float32Array(B * N);
  for (let i = 0; i < B; i++) for (let k = 0; k < N; k++) {
    let s = 0;
    const q = Q[i]!.x, c = C[k]!.x;
    for (let j = 0; j < d; j++) s += q[j]! * c[j]!;
    S[i * N + k] = SCALE * s;
  }
  const G = new Float32Array(B * N);
  const loss = contrastive(S, G, B, N, mask);
  for (let i = 0; i < B; i++) {
    const dx = new Float32Array(d);
    for (let k = 0; k < N; k++) {
      const g = SCALE * G[i * N + k]!;
      if (g === 0) continue;
      const x = C[k]!.x;
      for (let j = 0; j < d; j++) dx[j]! += g * x[j]!;
    }
    backprop(P, batch[i]!.q, Q[i]!, dx, P.gwq);
  }
  for (let k = 0; k < N; k++) {
    const dx = new Float32Array(d);
    for (let i = 0; i < B; i++) {
      const g = SCALE * G[i * N + k]!;
      if (g === 0) continue;
      const x = Q[i]!.x;
      for (let j = 0; j < d; j++) dx[j]! += g * x[j]!;
    }
    backprop(P, k < B ? batch[k]!.c : extra[k - B]!.f, C[k]!, dx, P.gwc);
  }
  return loss / (2 * B);
}

/** Each token left out with probability p (at least one kept): the model may not lean on any single word. */
function dropTokens(f: Features, p: number, r: () => number): Features {
  if (p <= 0 || f.ids.length < 2) return f;
  const keep: number[] = [];
  for (let i = 0; i < f.ids.length; i++) if (r() >= p) keep.push(i);
  if (keep.length === 0) keep.push(Math.floor(r() * f.ids.length));
  return { ids: Int32Array.from(keep, (i) => f.ids[i]!), base: Float32Array.from(keep, (i) => f.base[i]!), fields: Uint8Array.from(keep, (i) => f.fields[i]!) };
}

/** Batches cut from one package where it has at least half a batch, the rest mixed; no request twice in a batch. */
function batches(examples: Example[], r: () => number): Example[][] {
  const byPkg = new Map<string, Example[]>();
  for (const e of examples) byPkg.set(e.pkg, [...(byPkg.get(e.pkg) ?? []), e]);
  const out: Example[][] = [];
  const rest: Example[] = [];
  for (const pkg of byPkg.values()) {
    const list = shuffle(pkg, r);
    let i = 0;
    for (; i + BATCH / 2 <= list.length; i += BATCH) out.push(list.slice(i, i + BATCH));
    rest.push(...list.slice(i));
  }
  const mixed = shuffle(rest, r);
  for (let i = 0; i < mixed.length; i += BATCH) out.push(mixed.slice(i, i + BATCH));
  return shuffle(out, r).map((b) => {
    const seen = new Set<string>();
    return b.filter((e) => !seen.has(e.query) && (seen.add(e.query), true));
  }).filter((b) => b.length >= 8);
}

// ---- evaluation: within-package retrieval on the validation split --------------------------------------

function evaluate(P: Params, examples: Example[]): { mrr: number; r1: number; r10: number; n: number } {
  const byPkg = new Map<string, Example[]>();
  for (const e of examples) byPkg.set(e.pkg, [...(byPkg.get(e.pkg) ?? []), e]);
  let mrr = 0, r1 = 0, r10 = 0, n = 0;
  for (const list of byPkg.values()) {
    if (list.length < 10) continue;
    const group = list.slice(0, 1500);
    const C = group.map((e) => pool(P, e.c, P.wc).x);
    for (const [i, e] of group.entries()) {
      if (i >= 300) break;
      const q = pool(P, e.q, P.wq).x;
      const dots = C.map((c) => c.reduce((s, v, j) => s + v * q[j]!, 0));
      const mine = dots[i]!;
      const rank = 1 + dots.filter((x, k) => k !== i && x > mine).length;
      mrr += 1 / rank;
      if (rank === 1) r1++;
      if (rank <= 10) r10++;
      n++;
    }
  }
  return { mrr: mrr / (n || 1), r1: r1 / (n || 1), r10: r10 / (n || 1), n };
}

/**
 * Change requests of the validation repositories: each subject against every declaration the
 * repository's validation commits changed (and their hard negatives); MRR of the first changed one,
 * and how often a changed declaration outscores a hard negative of the same request (the gate's question).
 */
function evaluateCommits(P: Params, commits: CommitEx[]): { cmrr: number; cr10: number; hard_auc: number; cn: number } {
  const byRepo = new Map<string, CommitEx[]>();
  for (const c of commits) byRepo.set(c.pkg, [...(byRepo.get(c.pkg) ?? []), c]);
  let mrr = 0, r10 = 0, n = 0, wins = 0, pairs = 0;
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, j) => s + v * b[j]!, 0);
  for (const list of byRepo.values()) {
    const universe = new Map<string, Float32Array>();
    for (const c of list) for (const x of [...c.pos, ...c.hard]) if (!universe.has(x.key)) universe.set(x.key, pool(P, x.f, P.wc).x);
    const keys = [...universe.keys()], vecs = [...universe.values()];
    for (const c of list) {
      const q = pool(P, c.q, P.wq).x;
      const dots = vecs.map((v) => dot(q, v));
      const rel = new Set(c.pos.map((x) => x.key));
      const order = keys.map((k, i) => ({ k, s: dots[i]! })).sort((a, b) => b.s - a.s);
      const first = order.findIndex((x) => rel.has(x.k));
      mrr += 1 / (first + 1);
      r10 += order.slice(0, 10).filter((x) => rel.has(x.k)).length / rel.size;
      n++;
      const at = new Map(keys.map((k, i) => [k, dots[i]!]));
      for (const p of c.pos) for (const h of c.hard) {
        pairs++;
        if (at.get(p.key)! > at.get(h.key)!) wins++;
      }
    }
  }
  return { cmrr: mrr / (n || 1), cr10: r10 / (n || 1), hard_auc: wins / (pairs || 1), cn: n };
}

const readCommits = (f: string): CommitPair[] => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CommitPair) : []);

function main(): void {
  const t0 = performance.now();
  const train = readPairs(path.join(DATA, 'train.jsonl'));
  const valid = readPairs(path.join(DATA, 'valid.jsonl'));
  const ctrain = COMMITS ? readCommits(path.join(COMMITS, 'train.jsonl')) : [];
  const cvalid = COMMITS ? readCommits(path.join(COMMITS, 'valid.jsonl')) : [];
  const vocab = buildVocab(train, ctrain);
  // half the declarations read with the rest of their doc comment (never the sentence that is the
  // request): at run time most code has comments, and the model should read them as well as the code
  const rd = rng(SEED + 2);
  const toExample = (p: Pair, withDoc: boolean): Example => {
    const rest = p.doc.startsWith(p.query) ? p.doc.slice(p.query.length).trim() : '';
    const doc = withDoc && DOC_SHARE > 0 && rest && rd() < DOC_SHARE ? rest : undefined;
    return { pkg: p.pkg, query: p.query, q: queryFeatures(vocab, p.query), c: codeFeatures(vocab, { ...p, doc }) };
  };
  const trainEx = train.map((p) => toExample(p, true)).filter((e) => e.q.ids.length > 0 && e.c.ids.length > 0);
  // validation reads the code alone, as the held-out bench does (comments stripped): the harder case
  const validEx = valid.map((p) => toExample(p, false)).filter((e) => e.q.ids.length > 0 && e.c.ids.length > 0);
  const code = (pkg: string, c: CodeSide): Coded => ({ f: codeFeatures(vocab, c), key: keyOf(pkg, c) });
  const toCommit = (c: CommitPair): CommitEx => ({ pkg: c.pkg, query: c.query, q: queryFeatures(vocab, c.query), pos: c.positives.map((x) => code(c.pkg, x)), hard: c.hard.map((x) => code(c.pkg, x)) });
  const ctrainEx = ctrain.map(toCommit).filter((c) => c.q.ids.length > 0 && c.pos.length > 0);
  const cvalidEx = cvalid.map(toCommit).filter((c) => c.q.ids.length > 0 && c.pos.length > 0);
  // change requests per epoch: a share of the epoch's examples, each drawn with one of the declarations it changed
  // (no doc pairs at all: each commit once per epoch, a diagnostic of what the change requests alone teach)
  const perEpoch = ctrainEx.length ? (trainEx.length ? Math.round((COMMIT_SHARE / (1 - COMMIT_SHARE)) * trainEx.length) : ctrainEx.length) : 0;
  const commitExamples = (r: () => number): Example[] => {
    const out: Example[] = [];
    const order = shuffle(ctrainEx, r);
    for (let i = 0; i < perEpoch; i++) {
      const c = order[i % order.length]!;
      const p = c.pos[Math.floor(r() * c.pos.length)]!;
      const hard = HARD > 0 ? shuffle(c.hard, r).slice(0, HARD) : undefined;
      out.push({ pkg: c.pkg, query: c.query, q: c.q, c: p.f, ckey: p.key, keys: new Set(c.pos.map((x) => x.key)), ...(hard?.length ? { hard } : {}) });
    }
    return out;
  };
  if (COMMITS) console.error(`change requests: train ${ctrainEx.length} commits (${new Set(ctrainEx.map((c) => c.pkg)).size} repositories), ${perEpoch} per epoch (share ${COMMIT_SHARE}), hard negatives ${HARD} per request; valid ${cvalidEx.length}`);
  console.error(`pairs: train ${trainEx.length} (${new Set(train.map((p) => p.pkg)).size} packages), valid ${validEx.length}; vocabulary ${vocab.words.length} words + ${vocab.buckets} trigram buckets; dim ${DIM}; featurised in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const r = rng(SEED);
  const P = new Params(vocab.size, DIM, r);
  P.field[1] = 0.5; // a name says more than a body word: a head start, then learned
  const evalAll = () => ({ ...evaluate(P, validEx), ...(cvalidEx.length ? evaluateCommits(P, cvalidEx) : {}) });
  const fmt = (ev: ReturnType<typeof evalAll>) => `valid MRR ${ev.mrr.toFixed(3)} R@1 ${ev.r1.toFixed(3)} R@10 ${ev.r10.toFixed(3)}` +
    ('cmrr' in ev && ev.cmrr !== undefined ? `; commits MRR ${ev.cmrr.toFixed(3)} R@10 ${ev.cr10!.toFixed(3)} changed>hard ${ev.hard_auc!.toFixed(3)}` : '');
  const selectBy = (ev: ReturnType<typeof evalAll>) => ev.mrr + (ev.cmrr !== undefined ? SELECT_W * ev.cmrr : 0);
  const before = evalAll();
  console.error(`epoch 0: ${fmt(before)} (n ${before.n})`);
  const history: Record<string, number>[] = [{ epoch: 0, ...before }];
  const totalSteps = EPOCHS * Math.ceil((trainEx.length + perEpoch) / BATCH);
  let best = { mrr: -1, epoch: 0, E: new Float32Array(0), wq: new Float32Array(0), wc: new Float32Array(0), field: new Float32Array(0) };
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    const te = performance.now();
    let loss = 0, nb = 0;
    for (const b of batches(perEpoch ? [...trainEx, ...commitExamples(r)] : trainEx, r)) {
      const lr = LR * Math.max(0.1, 1 - P.step / totalSteps); // linear decay
      loss += trainBatch(P, DROPOUT > 0 ? b.map((e) => ({ ...e, q: dropTokens(e.q, DROPOUT / 2, r), c: dropTokens(e.c, DROPOUT, r) })) : b);
      P.update(lr);
      nb++;
    }
    const ev = evalAll();
    history.push({ epoch, loss: loss / nb, ...ev, seconds: (performance.now() - te) / 1000 });
    console.error(`epoch ${epoch}: loss ${(loss / nb).toFixed(3)}, ${fmt(ev)}; field weights ${[...P.field.slice(0, 6)].map((x) => x.toFixed(2)).join(' ')} (${((performance.now() - te) / 1000).toFixed(0)} s)`);
    if (selectBy(ev) > best.mrr) best = { mrr: selectBy(ev), epoch, E: P.E.slice(), wq: P.wq.slice(), wc: P.wc.slice(), field: P.field.slice() };
  }
  // the tier curve: validation requests against their own declaration and against 4 others of the same package
  P.E.set(best.E), P.wq.set(best.wq), P.wc.set(best.wc), P.field.set(best.field);
  const relevant: number[] = [], random: number[] = [];
  const byPkg = new Map<string, Example[]>();
  for (const e of validEx) byPkg.set(e.pkg, [...(byPkg.get(e.pkg) ?? []), e]);
  const rc = rng(SEED + 1);
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, j) => s + v * b[j]!, 0);
  for (const list of byPkg.values()) {
    if (list.length < 5) continue;
    for (const e of list.slice(0, 200)) {
      const q = pool(P, e.q, P.wq).x;
      relevant.push(dot(q, pool(P, e.c, P.wc).x));
      for (let k = 0; k < 4; k++) {
        const o = list[Math.floor(rc() * list.length)]!;
        if (o !== e && o.query !== e.query) random.push(dot(q, pool(P, o.c, P.wc).x));
      }
    }
  }
  const calibration = calibrate(relevant, random, 'default');
  console.error(`calibration from ${relevant.length} relevant / ${random.length} random validation pairs: ${JSON.stringify(calibration.points)}`);
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, 'code-search.bin');
  const written = writeModel(file, { name: NAME, version: VERSION, dim: DIM, buckets: BUCKETS, ...(SUBWORDS > 0 ? { subwords: SUBWORDS } : {}), words: vocab.words, seed: SEED }, best.E, best.wq, best.wc, best.field);
  const card = {
    file: 'code-search.bin', sha256: written.sha256, bytes: written.bytes, name: NAME, version: VERSION, calibration,
    training: {
      seed: SEED, dim: DIM, subwords: SUBWORDS, doc_share: DOC_SHARE, dropout: DROPOUT, epochs: EPOCHS, best_epoch: best.epoch, batch: BATCH, lr: LR, scale: SCALE, buckets: BUCKETS, min_count: MIN_COUNT,
      vocabulary: vocab.words.length, train_pairs: trainEx.length, valid_pairs: validEx.length,
      train_packages: new Set(train.map((p) => p.pkg)).size, valid_packages: new Set(valid.map((p) => p.pkg)).size,
      ...(COMMITS ? { commits: { train_commits: ctrainEx.length, valid_commits: cvalidEx.length, train_repos: [...new Set(ctrainEx.map((c) => c.pkg))], valid_repos: [...new Set(cvalidEx.map((c) => c.pkg))], per_epoch: perEpoch, share: COMMIT_SHARE, hard: HARD, select_commit_weight: SELECT_W } } : {}),
      history, seconds: Math.round((performance.now() - t0) / 1000),
    },
  };
  fs.writeFileSync(path.join(OUT, 'code-search.json'), JSON.stringify(card, null, 1) + '\n');
  console.error(`wrote ${file} (${(written.bytes / 1e6).toFixed(1)} MB, best epoch ${best.epoch}, selection score ${best.mrr.toFixed(3)}) in ${card.training.seconds} s`);
}

main();
