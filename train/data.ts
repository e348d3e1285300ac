/**
 * Builds the model's training data from the manifest (train/packages.json): every package is
 * fetched by name and version with `npm pack` (never a registry scan), its licence checked against
 * the allowed list, its source files staged and indexed with code-intel's own index, and every
 * documented function/method/class becomes a pair
 *
 *   query = the doc comment (first sentence, and the whole description)  →  code = the chunk
 *
 * whose code side (name, container, path, signature, body words) never contains a comment: the
 * chunker reads bodies with comments stripped, and the doc is only ever the query. Pairs are
 * deduplicated across packages (lodash and lodash-es carry the same docs) and written as JSONL,
 * one file per split (train/valid), the split taken from the manifest (by package).
 *
 *   node dist/train/data.js [--cache DIR] [--only name,name]
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChunkRow } from '../src/embeddings/chunks.js';
import { Project } from '../src/project/project.js';
import { licenseAllowed, type ManifestEntry, readManifest } from './manifest.js';
import { firstSentence } from '../src/embeddings/engine.js';
import type { Pair } from './pairs.js';
import { stagePackage } from './stage.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAX_PAIRS_PER_PACKAGE = 3000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function minePackage(cache: string, e: ManifestEntry): Promise<{ pairs: Pair[]; files: number; license: string }> {
  const { stage, files, license, cleanup } = stagePackage(cache, e);
  if (!licenseAllowed(license) || files.length === 0) {
    cleanup();
    return { pairs: [], files: files.length, license };
  }
  const project = new Project(stage);
  try {
    await project.refresh();
    const rows = project.db.prepare(`SELECT * FROM chunks WHERE doc <> '' AND kind IN ('function','method','class','interface','type','enum')`).all() as ChunkRow[];
    const pairs: Pair[] = [];
    for (const c of rows) {
      const q = firstSentence(c.doc);
      if (q.split(/\s+/).length < 3 || /^@|deprecated|^(todo|fixme|eslint|istanbul|prettier|ts-|jshint)/i.test(q)) continue;
      if (!c.body && !c.signature) continue;
      if (/\.d\.[mc]?ts$/.test(c.path) && c.kind === 'interface' && !c.signature) continue;
      pairs.push({
        pkg: e.name, query: q, doc: c.doc, kind: c.kind, name: c.name, container: c.container,
        path: c.path.replace(/^code\//, ''), signature: c.signature, body: c.body,
      });
    }
    pairs.sort((a, b) => b.body.length - a.body.length || (a.path < b.path ? -1 : 1));
    return { pairs: pairs.slice(0, MAX_PAIRS_PER_PACKAGE), files: files.length, license };
  } finally {
    project.close();
    cleanup();
  }
}

/** one pair per request and declaration name: the same doc in a .d.ts, an esm and a cjs copy, or lodash and lodash-es, is one pair */
const keyOf = (p: Pair) => createHash('sha1').update(`${p.query}\0${p.container ?? ''}.${p.name}`).digest('hex');

async function main(): Promise<void> {
  const cache = path.resolve(arg('--cache') ?? path.join(REPO, 'train', '.cache'));
  process.env.CODE_INTEL_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-train-state-'));
  const only = arg('--only')?.split(',');
  const manifest = readManifest().filter((e) => !only || only.includes(e.name));
  const outDir = path.join(cache, 'pairs');
  fs.mkdirSync(outDir, { recursive: true });
  const seen = new Set<string>();
  const out = { train: [] as string[], valid: [] as string[] };
  const report: { name: string; files: number; pairs: number; kept: number; license: string; error?: string }[] = [];
  const t0 = performance.now();
  for (const [i, e] of manifest.entries()) {
    try {
      const r = await minePackage(cache, e);
      let kept = 0;
      for (const p of r.pairs) {
        const k = keyOf(p);
        if (seen.has(k)) continue;
        seen.add(k);
        out[e.split].push(JSON.stringify(p));
        kept++;
      }
      report.push({ name: e.name, files: r.files, pairs: r.pairs.length, kept, license: r.license });
      console.error(`[${i + 1}/${manifest.length}] ${e.name}@${e.version}: ${r.files} files, ${r.pairs.length} pairs, ${kept} new (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    } catch (err) {
      report.push({ name: e.name, files: 0, pairs: 0, kept: 0, license: '?', error: (err as Error).message });
      console.error(`[${i + 1}/${manifest.length}] ${e.name}: ${(err as Error).message}`);
    }
  }
  for (const s of ['train', 'valid'] as const) fs.writeFileSync(path.join(outDir, `${s}.jsonl`), out[s].join('\n') + '\n');
  fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify(report, null, 1));
  console.error(`pairs: train ${out.train.length}, valid ${out.valid.length}, from ${report.filter((r) => r.kept).length} packages in ${((performance.now() - t0) / 1000).toFixed(0)} s → ${outDir}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
