/**
 * A model file (the shipped one, or a candidate train/train.ts wrote) on the change requests of the
 * commit-validation repositories (train/commits.ts valid.jsonl), through the same loader and forward
 * pass the product uses: each subject against every declaration the repository's validation
 * commits changed and their hard negatives. MRR of the first changed declaration, R@10, and how often
 * a changed declaration outscores a hard negative (same repository, shares a word with the subject).
 *
 *   node dist/train/commit-eval.js --commits DIR --model DIR [--model DIR ...]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadStaticEmbedder, STATIC_MODEL_DIR } from '../src/embeddings/static/static-embedder.js';
import type { CodeSide, CommitPair } from './commits.js';

const argsOf = (name: string) => process.argv.flatMap((a, i) => (a === name ? [process.argv[i + 1]!] : []));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, j) => s + v * b[j]!, 0);
const keyOf = (c: CodeSide) => `${c.path}\0${c.container ?? ''}.${c.name}`;

function main(): void {
  const dir = argsOf('--commits')[0];
  if (!dir) throw new Error('--commits DIR (train/commits.ts output) is required');
  const file = argsOf('--split')[0] ?? 'valid';
  const commits = fs.readFileSync(path.join(dir, `${file}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CommitPair);
  const models = argsOf('--model');
  for (const m of models.length ? models : [STATIC_MODEL_DIR]) {
    const model = loadStaticEmbedder(path.resolve(m));
    const byRepo = new Map<string, CommitPair[]>();
    for (const c of commits) byRepo.set(c.pkg, [...(byRepo.get(c.pkg) ?? []), c]);
    const rows: string[] = [];
    let all = { mrr: 0, r10: 0, n: 0, wins: 0, pairs: 0 };
    for (const [repo, list] of byRepo) {
      const universe = new Map<string, CodeSide>();
      for (const c of list) for (const x of [...c.positives, ...c.hard]) if (!universe.has(keyOf(x))) universe.set(keyOf(x), x);
      const keys = [...universe.keys()];
      const vecs = model.embedCode([...universe.values()]);
      const at = new Map(keys.map((k, i) => [k, vecs[i]!]));
      const s = { mrr: 0, r10: 0, n: 0, wins: 0, pairs: 0 };
      for (const c of list) {
        const q = model.embedQuery(c.query);
        const rel = new Set(c.positives.map(keyOf));
        const order = keys.map((k, i) => ({ k, s: dot(q, vecs[i]!) })).sort((a, b) => b.s - a.s);
        s.mrr += 1 / (order.findIndex((x) => rel.has(x.k)) + 1);
        s.r10 += order.slice(0, 10).filter((x) => rel.has(x.k)).length / rel.size;
        s.n++;
        for (const p of c.positives) for (const h of c.hard) {
          s.pairs++;
          if (dot(q, at.get(keyOf(p))!) > dot(q, at.get(keyOf(h))!)) s.wins++;
        }
      }
      rows.push(`  ${repo}: ${s.n} commits over ${keys.length} declarations, MRR ${(s.mrr / s.n).toFixed(3)}, R@10 ${(s.r10 / s.n).toFixed(3)}, changed > hard ${(s.wins / (s.pairs || 1)).toFixed(3)} (${s.pairs} pairs)`);
      all = { mrr: all.mrr + s.mrr, r10: all.r10 + s.r10, n: all.n + s.n, wins: all.wins + s.wins, pairs: all.pairs + s.pairs };
    }
    console.log(`${m} (${model.card.name} v${model.card.version}, ${model.card.sha256.slice(0, 8)}): MRR ${(all.mrr / all.n).toFixed(3)}, R@10 ${(all.r10 / all.n).toFixed(3)}, changed > hard ${(all.wins / (all.pairs || 1)).toFixed(3)}`);
    for (const r of rows) console.log(r);
  }
}

main();
