/**
 * `code-intel model pull`, `code-intel model install-runtime` and `code-intel doctor`: provisioning
 * the model and its runtime are explicit, reported steps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NeuralProvider } from '../embeddings/backend.js';
import { readCard } from '../embeddings/static/static-embedder.js';
import { DEFAULT_MODEL, defaultModelsHome, KNOWN_MODELS, loadConfig } from '../embeddings/config.js';
import { inspectModelDir } from '../embeddings/model.js';
import { pullModel } from '../embeddings/pull.js';
import { defaultRuntimeDir, findRuntime, installRuntime, RUNTIME_PACKAGE, runtimeHint } from '../embeddings/runtime.js';
import { loadGlossary } from '../embeddings/text.js';
import { loadVecExtension } from '../embeddings/vectors.js';
import { type DB, dbPath, getMeta, openDb } from '../store/db.js';

function skippedPaths(db: DB): { file: string; reason: string }[] {
  try {
    return JSON.parse(getMeta(db, 'skipped') ?? '[]') as { file: string; reason: string }[];
  } catch {
    return [];
  }
}

export async function modelPull(root: string, opts: { model?: string; dir?: string; json?: boolean }): Promise<number> {
  const config = loadConfig(root);
  const model = opts.model ?? config.model ?? DEFAULT_MODEL;
  const dir = path.resolve(opts.dir ?? (config.modelDirSource === 'default' ? path.join(defaultModelsHome(), model) : config.modelDir));
  if (inspectModelDir(dir).ok) {
    process.stdout.write(`${model} is already in ${dir}\n`);
    return 0;
  }
  process.stderr.write(`downloading ${model} (${KNOWN_MODELS[model]?.repo ?? '?'}) into ${dir} …\n`);
  let last = 0;
  const r = await pullModel({
    model, dir,
    onProgress: (file, n, total) => {
      const now = Date.now();
      if (now - last < 500) return;
      last = now;
      process.stderr.write(`\r  ${file}: ${(n / 1e6).toFixed(1)}${total ? ` / ${(total / 1e6).toFixed(1)}` : ''} MB   `);
    },
  });
  process.stderr.write('\n');
  process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : `pulled ${model}: ${r.files.length} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.dir}\n` +
    (dir !== config.modelDir ? `set CODE_INTEL_MODEL_DIR=${dir} (or "model_dir" in .code-intel/config.json) to use it\n` : ''));
  return 0;
}

export function modelInstallRuntime(opts: { dir?: string; json?: boolean }): number {
  const present = findRuntime().found;
  if (present && !opts.dir) {
    process.stdout.write(opts.json ? JSON.stringify({ already: true, ...present }) + '\n' : `${RUNTIME_PACKAGE} ${present.version} is already installed in ${present.packageDir} (${present.source})\n`);
    return 0;
  }
  process.stderr.write(`installing ${RUNTIME_PACKAGE} with npm (about 430 MB) …\n`);
  const r = installRuntime({ dir: opts.dir });
  const usable = !!findRuntime().found;
  const dirNote = usable ? '' : `set CODE_INTEL_RUNTIME_DIR=${r.dir} to use it (code-intel looks in ${process.env.CODE_INTEL_RUNTIME_DIR ?? defaultRuntimeDir()} by default)\n`;
  process.stdout.write(opts.json ? JSON.stringify({ ...r, ms: Math.round(r.ms), usable }) + '\n' : `installed ${RUNTIME_PACKAGE} ${r.version} in ${r.dir} (${(r.ms / 1000).toFixed(0)} s)\n${dirNote}`);
  return 0;
}

export async function doctor(root: string, opts: { json?: boolean }): Promise<number> {
  const provider = new NeuralProvider(root);
  const report: Record<string, unknown> = {};
  const lines: string[] = [];
  const c = provider.config;
  let status = provider.status();
  if (status.model_present && c.backend !== 'lexical') {
    const t0 = performance.now();
    const e = await provider.get();
    if (e) {
      const t1 = performance.now();
      await e.embed(['ログイン機能', 'user login', 'subscribe to an observable', '购物车结算'], 'passage');
      report.embed_4_texts_ms = Math.round(performance.now() - t1);
      report.load_ms = Math.round(t1 - t0);
    }
    status = provider.status();
  }
  report.backend = status;
  lines.push(`backend       ${status.active}${status.active === 'neural' && status.loaded ? ` (${status.model}, ${status.loaded.dtype}, ${status.loaded.dim} dims, loaded in ${status.loaded.load_ms} ms)` : ''}`);
  lines.push(`model dir     ${status.model_dir}  [from ${status.model_dir_source}]  ${status.model_present ? 'present' : 'MISSING'}`);
  const rt = status.runtime;
  if (provider.builtin) {
    const card = readCard();
    const t = card?.training as { valid_pairs?: number; train_pairs?: number; train_packages?: number; history?: { mrr?: number }[] } | undefined;
    const best = t?.history ? Math.max(...t.history.map((h) => h.mrr ?? 0)) : undefined;
    lines.push(card
      ? `model         ${card.name} v${card.version}, built in (plain TypeScript, no runtime to install), ${(card.bytes / 1e6).toFixed(1)} MB, sha256 ${card.sha256.slice(0, 12)}… verified on load` +
          (t ? `; trained on ${t.train_pairs} doc→code pairs from ${t.train_packages} npm packages, validation MRR ${best?.toFixed(3)} on ${t.valid_pairs} pairs of held-out packages` : '')
      : 'model         built-in model card missing');
    report.model_card = card ? { name: card.name, version: card.version, sha256: card.sha256, bytes: card.bytes, training: card.training } : null;
  } else lines.push(rt.present
    ? `runtime       ${RUNTIME_PACKAGE} ${rt.version}  [from ${rt.source}]  ${rt.dir}`
    : `runtime       ${RUNTIME_PACKAGE} NOT INSTALLED (optional: only the neural backend needs it; looked in ${rt.searched.join('; ')})`);
  if (!rt.present && status.model_present) lines.push(`              ${runtimeHint()}`);
  if (status.reason) lines.push(`              ${status.reason}`);
  if (status.hint) lines.push(`what to do    ${status.hint}`);
  let vec = 'unavailable';
  const glossary = loadGlossary();
  report.glossary_terms = Object.keys(glossary.terms).length;
  const file = dbPath(root);
  if (fs.existsSync(file)) {
    const db = openDb(root);
    try {
      try {
        loadVecExtension(db);
        vec = (db.prepare('select vec_version() v').get() as { v: string }).v;
      } catch (e) {
        vec = `unavailable: ${(e as Error).message} (vectors are compared in JavaScript instead)`;
      }
      const n = (sql: string) => {
        try {
          return (db.prepare(sql).get() as { n: number }).n;
        } catch {
          return 0;
        }
      };
      report.index = {
        chunks: n('SELECT COUNT(*) n FROM chunks'),
        documented_chunks: n("SELECT COUNT(*) n FROM chunks WHERE doc <> ''"),
        embedded_chunks: n('SELECT COUNT(DISTINCT c.hash) n FROM chunks c JOIN embeddings e ON e.hash = c.hash'),
        mined_pairs: n('SELECT COUNT(*) n FROM mined_pairs'),
        cached_matches: n('SELECT COUNT(*) n FROM nl_cache'),
        files: n('SELECT COUNT(*) n FROM files'),
        recovered_files: n('SELECT COUNT(*) n FROM files WHERE recovered > 0'),
        parse_error_files: n('SELECT COUNT(*) n FROM files WHERE parse_errors > 0'),
      };
      const i = report.index as Record<string, number>;
      lines.push(`index         ${i.chunks} chunks (${i.documented_chunks} with doc comments), ${i.embedded_chunks} embedded, ${i.mined_pairs} mined JA/ZH→EN pairs, ${i.cached_matches} cached NL→symbol matches`);
      lines.push(`parsing       ${i.files} files: ${i.recovered_files} recovered (statement ends made explicit: code without semicolons), ${i.parse_error_files} still with syntax errors (declarations there may be missing)`);
      // what the last indexing passed over: an unreadable directory's files are missing from every answer
      const skipped = skippedPaths(db);
      report.skipped = skipped;
      const unreadable = skipped.filter((s) => s.reason.startsWith('unreadable'));
      lines.push(`skipped       ${skipped.length === 0 ? 'nothing' : `${skipped.length} path(s)${unreadable.length ? `, ${unreadable.length} unreadable` : ''} at the last indexing (${getMeta(db, 'indexed_at') ?? 'never'})`}`);
      for (const s of [...unreadable, ...skipped.filter((x) => !x.reason.startsWith('unreadable'))].slice(0, 10)) lines.push(`              ${s.file}: ${s.reason}`);
      if (skipped.length > 10) lines.push(`              … ${skipped.length - 10} more (code-intel doctor --json lists them)`);
      if (unreadable.length) lines.push('what to do    Make the unreadable paths readable by this user (or add them to .gitignore), then run code-intel index.');
    } finally {
      db.close();
    }
  } else lines.push(`index         none yet in ${root} (code-intel index)`);
  report.sqlite_vec = vec;
  lines.push(`sqlite-vec    ${vec}`);
  lines.push(`lexical       glossary ${report.glossary_terms} JA/ZH terms, Japanese segmenter tiny-segmenter`);
  lines.push(`ranking       weights vector ${c.weights.vector} / keyword ${c.weights.keyword} / history ${c.weights.history}, min_confidence ${c.minConfidence}, cache half-life ${c.halfLifeDays} days; the vector leg ${c.gateVector ? "counts" : "does not count"} in the VALIDATION gate (ranking.vector_in_gate)`);
  for (const w of c.warnings) lines.push(`warning       ${w}`);
  report.config = { file: c.configFile, weights: c.weights, min_confidence: c.minConfidence, half_life_days: c.halfLifeDays, warnings: c.warnings };
  process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : lines.join('\n') + '\n');
  return 0;
}
