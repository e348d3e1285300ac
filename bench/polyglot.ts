/**
 * Python and Rust on real code: Debian ships Python modules (python3-*) and Rust crate sources
 * (librust-*-dev) in its binary packages, which these machines can fetch with `apt-get download`.
 *   - index throughput on `rich` (Python) and `tokio` (Rust), cold and warm;
 *   - find_references on `rich` against pyright (from the npm registry) driven over its language
 *     server protocol: precision and recall of our facts (resolved + imported), and with guesses.
 * Rust has no reference here (rust-analyzer is not installable from npm or this archive): throughput
 * and the share of references we resolve only.
 * Each section prints why it is skipped when something is missing. Runs inside `npm run bench`, or
 * alone: `node dist/bench/polyglot.js`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexStats } from '../src/index/indexer.js';
import { Project } from '../src/project/project.js';
import { findReferences } from '../src/query/references.js';
import { fetchDeb } from './lib/debian.js';
import { throughput } from './lib/throughput.js';
import { fetchPackage } from './lib/fetch.js';
import { LspClient } from './lib/lsp.js';
import { SetScore } from './lib/metrics.js';
import { fmtMs, fmtPct, heading, prng, shuffle, table } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PYRIGHT = 'pyright@1.1.414';
const N_PY_SYMBOLS = Number(process.env.BENCH_PY_SYMBOLS ?? 100);
const PYRIGHT_BUDGET_MS = Number(process.env.BENCH_PYRIGHT_MS ?? 90_000);

interface Corpus {
  label: string;
  deb: string;
  /** the directory inside the extracted package that becomes the project (relative to the package root) */
  find: (extracted: string) => string | undefined;
  /** the name the project directory gets (Python: the import name of the package) */
  as: string;
}

const PYTHON: Corpus = {
  label: 'Python: rich', deb: 'python3-rich', as: 'rich',
  find: (x) => existing(path.join(x, 'usr/lib/python3/dist-packages/rich')),
};
const RUST: Corpus = {
  label: 'Rust: tokio', deb: 'librust-tokio-dev', as: 'tokio',
  find: (x) => {
    const reg = path.join(x, 'usr/share/cargo/registry');
    const d = fs.existsSync(reg) ? fs.readdirSync(reg).find((n) => n.startsWith('tokio-')) : undefined;
    return d ? path.join(reg, d) : undefined;
  },
};

const existing = (p: string) => (fs.existsSync(p) ? p : undefined);

export interface PolyglotResult {
  [corpus: string]: unknown;
}

/** Fetches a corpus into `cache/<as>-project/<as>` (once) and returns the project root. */
function prepare(cache: string, c: Corpus): { root: string; version: string } | { error: string } {
  const got = fetchDeb(cache, c.deb);
  if ('error' in got) return got;
  const src = c.find(got.dir);
  if (!src) return { error: `${c.deb} ${got.version}: the expected sources are not in the package` };
  const root = path.join(cache, `${c.as}-project`);
  const marker = path.join(root, '.complete');
  if (!fs.existsSync(marker)) {
    fs.rmSync(root, { recursive: true, force: true });
    // Python: the package directory keeps its import name under the project root (`rich/...`);
    // Rust: the crate directory is the project (Cargo.toml at the root)
    fs.cpSync(src, c.deb.startsWith('python3-') ? path.join(root, c.as) : root, { recursive: true });
    fs.writeFileSync(marker, got.version + '\n');
  }
  return { root, version: got.version };
}


function printThroughput(runs: { run: string; stats: IndexStats }[], confidence: Record<string, number>): void {
  console.log(table([
    ['run', 'files', 'parsed', 'symbols', 'refs', 'time', 'files/s'],
    ...runs.map(({ run: r, stats: s }) => [
      r, s.files, s.parsed, s.symbols, s.references, fmtMs(s.ms),
      Math.round((s.parsed > 0 ? s.parsed : s.files) / (s.ms / 1000)).toLocaleString('en-US'),
    ]),
  ]));
  const link = runs[1]?.stats.link;
  if (link) console.log(`  link: ${link.imports} imports, ${link.resolved} resolved, ${link.external} external, ${link.unresolved} unresolved (${fmtMs(link.ms)})`);
  const total = Object.values(confidence).reduce((a, b) => a + b, 0);
  console.log(`  references by confidence: ${Object.entries(confidence).map(([k, v]) => `${k} ${v} (${fmtPct(v / total)})`).join(', ')}`);
}

/** find_references on sampled symbols of a Python project vs pyright's textDocument/references. */
async function againstPyright(cache: string, root: string, seed: number): Promise<Record<string, unknown>> {
  let pkg;
  try {
    pkg = fetchPackage(cache, PYRIGHT);
  } catch (e) {
    console.log(`  skipped: could not fetch ${PYRIGHT} from the npm registry (${(e as Error).message.split('\n')[0]})`);
    return { skipped: 'pyright unavailable' };
  }
  const server = path.join(pkg.dir, 'langserver.index.js');
  const project = new Project(root);
  await project.refresh();
  const db = project.db;
  const candidates = db.prepare(
    `SELECT s.id, f.path, s.name, s.kind, s.container_name AS container, s.name_line AS line, s.name_col AS col FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE s.local = 0 AND f.language = 'python' ORDER BY f.path, s.name_line, s.name_col`,
  ).all() as { id: number; path: string; name: string; kind: string; container: string | null; line: number; col: number }[];
  const strata = [['function'], ['class'], ['method'], ['property'], ['variable', 'constant']];
  const rand = prng(seed);
  const per = Math.ceil(N_PY_SYMBOLS / strata.length);
  const sample = strata.flatMap((kinds) => shuffle(candidates.filter((c) => kinds.includes(c.kind) && !c.name.startsWith('__')), rand).slice(0, per));

  const lsp = new LspClient(process.execPath, [server, '--stdio'], { python: { analysis: { diagnosticMode: 'openFilesOnly' } } });
  const t0 = performance.now();
  const facts = new SetScore();
  const all = new SetScore();
  const codeFacts = new SetScore();
  const codeAll = new SetScore();
  const byKind = new Map<string, { facts: SetScore; all: SetScore }>();
  const misses: { symbol: string; missing: string[]; extra: string[] }[] = [];
  const why = new Map<string, number>();
  const count = (k: string) => why.set(k, (why.get(k) ?? 0) + 1);
  const lineOf = (rel: string, line: number) => project.lines(rel)[line - 1] ?? '';
  /** pyright also lists names in strings (`__all__`) and re-declarations (a property's setter) */
  const notCode = (loc: string): string | undefined => {
    const m = /^(.*):(\d+):(\d+)$/.exec(loc)!;
    const [rel, line, col] = [m[1]!, Number(m[2]), Number(m[3])];
    if (/["']/.test(lineOf(rel, line)[col - 2] ?? '')) return 'a name in a string (`__all__`)';
    const f = project.fileId(rel);
    const decl = f !== undefined && project.db.prepare('SELECT 1 FROM symbols WHERE file_id = ? AND name_line = ? AND name_col = ?').get(f, line, col);
    return decl ? 'a re-declaration (property setter, redefinition)' : undefined;
  };
  let done = 0;
  let timedOut = false;
  try {
    await lsp.initialize(root);
    for (const s of sample) {
      if (performance.now() - t0 > PYRIGHT_BUDGET_MS) {
        timedOut = true;
        break;
      }
      const abs = path.join(root, s.path);
      lsp.open(abs, 'python');
      const truth = new Set(
        (await lsp.references(abs, s.line, s.col)).map((l) => `${path.relative(root, l.file).split(path.sep).join('/')}:${l.line}:${l.column}`),
      );
      const ours = findReferences(project, { file: s.path, line: s.line, column: s.col, limit: 5000 }).items;
      const key = (r: { file: string; line: number; column: number }) => `${r.file}:${r.line}:${r.column}`;
      const oursFacts = new Set(ours.filter((r) => r.confidence !== 'name_match').map(key));
      const oursAll = new Set(ours.map(key));
      facts.add(oursFacts, truth);
      all.add(oursAll, truth);
      let k = byKind.get(s.kind);
      if (!k) byKind.set(s.kind, (k = { facts: new SetScore(), all: new SetScore() }));
      k.facts.add(oursFacts, truth);
      k.all.add(oursAll, truth);
      const missing = [...truth].filter((x) => !oursFacts.has(x));
      const extra = [...oursFacts].filter((x) => !truth.has(x));
      const code = new Set([...truth].filter((x) => oursFacts.has(x) || !notCode(x)));
      codeFacts.add(oursFacts, code);
      codeAll.add(oursAll, code);
      for (const x of missing) count(`missed: ${notCode(x) ?? (oursAll.has(x) ? 'given as a guess (type not evident from the syntax)' : 'not found')}`);
      for (const x of extra) {
        const r = ours.find((o) => key(o) === x)!;
        count(`extra: ${r.name !== s.name ? 'a use through an import alias (pyright leaves these out)' : 'other (unreachable platform code, ...)'}`);
      }
      if (missing.length || extra.length) misses.push({ symbol: `${s.path}:${s.line} ${s.container ? s.container + '.' : ''}${s.name}`, missing: missing.slice(0, 5), extra: extra.slice(0, 5) });
      done++;
    }
  } catch (e) {
    console.log(`  pyright failed after ${done} symbols: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await lsp.close();
    project.close();
  }
  const ms = performance.now() - t0;
  console.log(`  pyright ${PYRIGHT.split('@')[1]} (language server, textDocument/references without declarations): ${done} of ${sample.length} sampled symbols in ${fmtMs(ms)}${timedOut ? ' (time budget reached)' : ''}`);
  console.log(table([
    ['answer', 'symbols', 'truth', 'returned', 'precision', 'recall'],
    ['facts (resolved + imported)', facts.items, facts.expected, facts.returned, fmtPct(facts.precision), fmtPct(facts.recall)],
    ['facts + name_match guesses', all.items, all.expected, all.returned, fmtPct(all.precision), fmtPct(all.recall)],
    ['code uses only: facts', codeFacts.items, codeFacts.expected, codeFacts.returned, fmtPct(codeFacts.precision), fmtPct(codeFacts.recall)],
    ['code uses only: facts + guesses', codeAll.items, codeAll.expected, codeAll.returned, fmtPct(codeAll.precision), fmtPct(codeAll.recall)],
    ...[...byKind].map(([kind, s]) => [`  ${kind}: facts`, s.facts.items, s.facts.expected, s.facts.returned, fmtPct(s.facts.precision), fmtPct(s.facts.recall)]),
  ]));
  console.log('  code uses only: without the names pyright finds in strings (`__all__`) and re-declarations (a setter `def x`).');
  console.log('  Differences, by kind:');
  for (const [k, n] of [...why].sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(4)}  ${k}`);
  for (const m of misses.slice(0, 8)) console.log(`  ${m.symbol}: missing ${m.missing.join(' ') || '-'}; extra ${m.extra.join(' ') || '-'}`);
  return { pyright: PYRIGHT, symbols: done, sampled: sample.length, ms, facts: facts.toJSON(), facts_and_guesses: all.toJSON(),
    code_uses: { facts: codeFacts.toJSON(), facts_and_guesses: codeAll.toJSON() }, differences: Object.fromEntries(why),
    by_kind: Object.fromEntries([...byKind].map(([k, s]) => [k, { facts: s.facts.toJSON(), facts_and_guesses: s.all.toJSON() }])), misses };
}

export async function runPolyglot(cache: string, seed: number): Promise<PolyglotResult> {
  const out: PolyglotResult = {};
  for (const c of [PYTHON, RUST]) {
    heading(`${c.label} (Debian ${c.deb})`);
    const t0 = performance.now();
    const got = prepare(cache, c);
    if ('error' in got) {
      console.log(`  skipped: ${got.error}`);
      out[c.as] = { skipped: got.error };
      continue;
    }
    console.log(`  ${c.deb} ${got.version} → ${path.relative(REPO, got.root)} (${fmtMs(performance.now() - t0)})`);
    const { runs, confidence } = await throughput(got.root);
    printThroughput(runs, confidence);
    const result: Record<string, unknown> = {
      version: got.version,
      index: runs.map(({ run: r, stats: s }) => ({ run: r, files: s.files, parsed: s.parsed, symbols: s.symbols, references: s.references, ms: s.ms, link: s.link })),
      confidence,
    };
    if (c === PYTHON) result.references = await againstPyright(cache, got.root, seed);
    else console.log('  no reference implementation available here (rust-analyzer is not on npm or in this archive): throughput only');
    out[c.as] = result;
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cache = path.join(REPO, 'bench', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const res = await runPolyglot(cache, Number(process.env.BENCH_SEED ?? 20250611));
  fs.writeFileSync(path.join(cache, 'polyglot.json'), JSON.stringify(res, null, 2) + '\n');
}
