/**
 * Doc sentence → function on packages the built-in model never saw (#15's measure): the packages
 * of bench/data/heldout-packages.json, which train/manifest.ts excludes from training and no
 * setting was chosen on. Each is fetched with `npm pack` by name and version (cached in
 * bench/.cache/heldout/), staged as the training data is (train/stage.ts), read once with its
 * comments (the requests: train/doc-cases.ts, the first sentence of each documented function, method
 * or class, any copy of the declaration in its module's other files a hit; a sentence that
 * documents more than 3 distinct declarations is left out) and
 * indexed with every comment stripped (what is searched). Per request, every declaration of the
 * package is ranked by semantic_search (the engine's `rank`, as bench/semantic.ts calls it), by the
 * model alone (cosine) and by a textbook BM25 over each declaration's full text. MRR and R@1/5/10,
 * over all requests and as the mean of the packages' MRR. Writes bench/.cache/semantic-packages.json.
 *
 *   node dist/bench/semantic-packages.js [--packages a,b]      (HELDOUT_MAX_CASES, default 200 per package)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { qualified, SemanticEngine } from '../src/embeddings/engine.js';
import { loadStaticEmbedder } from '../src/embeddings/static/static-embedder.js';
import { dot } from '../src/embeddings/vectors.js';
import { Project } from '../src/project/project.js';
import { docCases } from '../train/doc-cases.js';
import { readHeldOut } from '../train/manifest.js';
import { stagePackage } from '../train/stage.js';
import { Bm25 } from './lib/bm25.js';
import { stripComments } from './lib/strip.js';
import { heading, prng, shuffle, table } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = path.join(REPO, 'bench', '.cache', 'heldout');
const SEED = 20261126;
const MAX_CASES = Number(process.env.HELDOUT_MAX_CASES ?? 200);
const SYSTEMS = ['semantic_search', 'model', 'bm25'] as const;
type System = (typeof SYSTEMS)[number];

interface Case {
  query: string;
  targets: Set<string>; // path \0 qualified name
}

/** Requests from the documented copy: one per distinct first sentence, answered by at most 3 declarations. */
async function casesOf(stage: string): Promise<Case[]> {
  const withDocs = new Project(stage);
  try {
    await withDocs.refresh();
    // one declaration may come in several copies (a .d.ts beside its .js, esm and cjs): any copy is a hit
    return shuffle(docCases(withDocs.db).filter((c) => c.distinct <= 3), prng(SEED)).slice(0, MAX_CASES);
  } finally {
    withDocs.close();
  }
}

function rankIn(keys: string[], c: Case): number | null {
  const i = keys.slice(0, 100).findIndex((k) => c.targets.has(k));
  return i >= 0 ? i + 1 : null;
}

function metrics(ranks: (number | null)[]) {
  const n = ranks.length || 1;
  const at = (k: number) => ranks.filter((r) => r !== null && r <= k).length / n;
  return { n: ranks.length, mrr: ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0) / n, r1: at(1), r5: at(5), r10: at(10) };
}

async function main(): Promise<void> {
  process.env.CODE_INTEL_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-bench-state-'));
  const i = process.argv.indexOf('--packages');
  const only = i >= 0 ? process.argv[i + 1]!.split(',') : undefined;
  const packages = readHeldOut().filter((p) => !only || only.includes(p.name));
  const model = loadStaticEmbedder();
  console.log(`code-intel held-out packages bench — ${packages.length} packages never trained on, node ${process.version}, ${os.availableParallelism()} cores, model ${model.storeKey}`);
  const t0 = performance.now();
  const ranks: Record<System, (number | null)[]> = { semantic_search: [], model: [], bm25: [] };
  const perPackage: { name: string; version: string; files: number; declarations: number; requests: number; mrr: Record<System, number> }[] = [];
  for (const p of packages) {
    const s = stagePackage(CACHE, { ...p, split: 'valid' });
    try {
      const cases = s.files.length > 0 ? await casesOf(s.stage) : [];
      if (cases.length < 5) {
        console.log(`  ${p.name}@${p.version}: ${cases.length} documented functions, left out (fewer than 5)`);
        continue;
      }
      const stripped = path.join(path.dirname(s.stage), 'stripped');
      stripComments(path.join(s.stage, 'code'), path.join(stripped, 'code'));
      const project = new Project(stripped);
      try {
        await project.refresh();
        const engine = new SemanticEngine(project);
        const decls = engine.corpus().chunks.filter((c) => c.kind !== 'section');
        const keys = decls.map((c) => `${c.path}\0${qualified(c)}`);
        const textbook = new Bm25(decls, (c) => project.lines(c.path).slice(c.start_line - 1, c.end_line).join('\n'));
        const vectors = model.embedCode(decls);
        const mine: Record<System, (number | null)[]> = { semantic_search: [], model: [], bm25: [] };
        for (const c of cases) {
          const r = await engine.rank(c.query, { kinds: (k) => k !== 'section' });
          mine.semantic_search.push(rankIn(r.items.map((x) => `${x.chunk.path}\0${qualified(x.chunk)}`), c));
          const q = model.embedQuery(c.query);
          const byCos = vectors.map((v, j) => ({ j, cos: dot(q, v) })).sort((a, b) => b.cos - a.cos || a.j - b.j);
          mine.model.push(rankIn(byCos.map((x) => keys[x.j]!), c));
          mine.bm25.push(rankIn(textbook.search(c.query).map((h) => `${h.item.path}\0${qualified(h.item)}`), c));
        }
        for (const k of SYSTEMS) ranks[k].push(...mine[k]);
        const mrr = Object.fromEntries(SYSTEMS.map((k) => [k, metrics(mine[k]).mrr])) as Record<System, number>;
        perPackage.push({ name: p.name, version: p.version, files: s.files.length, declarations: decls.length, requests: cases.length, mrr });
      } finally {
        project.close();
      }
    } catch (e) {
      console.log(`  ${p.name}@${p.version}: ${(e as Error).message}`);
    } finally {
      s.cleanup();
    }
  }

  heading('Per package (MRR)');
  const f3 = (x: number) => x.toFixed(3);
  console.log(table([
    ['package', 'files', 'declarations', 'requests', 'semantic_search', 'model alone', 'textbook BM25'],
    ...perPackage.map((r) => [`${r.name}@${r.version}`, r.files, r.declarations, r.requests, f3(r.mrr.semantic_search), f3(r.mrr.model), f3(r.mrr.bm25)]),
  ]));
  heading('Doc sentence → function, held-out packages (comments stripped)');
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const macro = (k: System) => perPackage.reduce((s, r) => s + r.mrr[k], 0) / (perPackage.length || 1);
  const label: Record<System, string> = {
    semantic_search: `semantic_search (${model.name} + BM25F, as shipped)`,
    model: 'the model alone (cosine)',
    bm25: 'baseline: textbook BM25, full declaration text',
  };
  const summary = Object.fromEntries(SYSTEMS.map((k) => [k, { ...metrics(ranks[k]), package_mean_mrr: macro(k) }]));
  console.log(table([
    ['system', 'requests', 'MRR', 'R@1', 'R@5', 'R@10', 'mean of packages\' MRR'],
    ...SYSTEMS.map((k) => [label[k], summary[k]!.n, f3(summary[k]!.mrr), pct(summary[k]!.r1), pct(summary[k]!.r5), pct(summary[k]!.r10), f3(summary[k]!.package_mean_mrr)]),
  ]));
  const total = (performance.now() - t0) / 1000;
  fs.writeFileSync(path.join(REPO, 'bench', '.cache', 'semantic-packages.json'), JSON.stringify({ model: model.storeKey, seed: SEED, max_cases: MAX_CASES, total_s: total, summary, packages: perPackage }, null, 1));
  console.log(`\n${perPackage.length} packages, ${ranks.model.length} requests in ${total.toFixed(0)} s; wrote bench/.cache/semantic-packages.json`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
