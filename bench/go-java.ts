/**
 * Go and Java on real code, fetched from Debian's archive (`apt-get download`, no root needed once
 * the package lists exist): Go module sources ship in golang-*-dev packages, Java sources in
 * openjdk-17-demo (the JDK's demo programs, src.zip) and openjdk-17-source (the JDK's own sources).
 *   - index throughput: goldmark and esbuild (Go), the JDK demos and java.util (Java);
 *   - resolution against the compilers' own: go/types (when a `go` toolchain is installed:
 *     `apt-get install golang-go`) on goldmark, javac's tree API (when `java` is a JDK) on the demos
 *     and on java.util (compiled as a patch of java.base).
 *     Every identifier use the compiler binds to a declaration we index is a site: is our answer
 *     that declaration (a fact), a guess, or missing? And every fact we give: does the compiler
 *     agree? Each section prints why it is skipped when something is missing.
 * Runs inside `npm run bench`, or alone: `node dist/bench/go-java.js` (BENCH_GOJAVA=goldmark,demo: some).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexStats } from '../src/index/indexer.js';
import { Project } from '../src/project/project.js';
import { openDb } from '../src/store/db.js';
import { fetchDeb } from './lib/debian.js';
import { throughput } from './lib/throughput.js';
import { fmtMs, fmtPct, heading, listFiles, table, which } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LIB = path.join(REPO, 'bench', 'lib');

interface Corpus {
  label: string;
  deb: string;
  /** copies the sources out of the extracted package into `root`; false when they are not there */
  install: (extracted: string, root: string) => boolean;
  /** the compiler to compare with: go/types, javac on each demo, javac on the JDK's own sources */
  truth?: 'go' | 'java' | 'jdk';
}

const goModule = (dir: string) => (x: string, root: string) => {
  const src = path.join(x, 'usr/share/gocode/src', dir);
  if (!fs.existsSync(path.join(src, 'go.mod'))) return false;
  fs.cpSync(src, root, { recursive: true });
  return true;
};
const unzipInto = (zip: string, dest: string, patterns: string[] = []): boolean => {
  fs.mkdirSync(dest, { recursive: true });
  const r = spawnSync('unzip', ['-q', '-o', zip, ...patterns, '-d', dest], { encoding: 'utf8' });
  return r.status === 0 || r.status === 1; // 1: warnings only
};

const CORPORA: Corpus[] = [
  { label: 'Go: goldmark', deb: 'golang-github-yuin-goldmark-dev', install: goModule('github.com/yuin/goldmark'), truth: 'go' },
  { label: 'Go: esbuild', deb: 'golang-github-evanw-esbuild-dev', install: goModule('github.com/evanw/esbuild') },
  {
    label: 'Java: JDK demos', deb: 'openjdk-17-demo', truth: 'java',
    install: (x, root) => {
      const demos = path.join(x, 'usr/share/doc/openjdk-17-jre-headless/demo/jfc');
      if (!fs.existsSync(demos) || !which('unzip')) return false;
      for (const d of fs.readdirSync(demos)) {
        const zip = path.join(demos, d, 'src.zip');
        if (fs.existsSync(zip) && !unzipInto(zip, path.join(root, d), ['*.java'])) return false;
      }
      return true;
    },
  },
  {
    label: 'Java: java.util (JDK sources)', deb: 'openjdk-17-source', truth: 'jdk',
    install: (x, root) => {
      const zip = path.join(x, 'usr/lib/jvm/openjdk-17/lib/src.zip');
      return fs.existsSync(zip) && !!which('unzip') && unzipInto(zip, root, ['java.base/java/util/*']);
    },
  },
];

/** Fetches a corpus into `cache/<slug>-project` (once) and returns the project root. */
function prepare(cache: string, c: Corpus): { root: string; version: string } | { error: string } {
  if (!which('unzip') && c.deb.startsWith('openjdk')) return { error: 'unzip not found (apt-get install unzip)' };
  const got = fetchDeb(cache, c.deb);
  if ('error' in got) return got;
  const root = path.join(cache, `${c.deb}-project`);
  const marker = path.join(root, '.complete');
  if (!fs.existsSync(marker)) {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    if (!c.install(got.dir, root)) return { error: `${c.deb} ${got.version}: the expected sources are not in the package` };
    fs.writeFileSync(marker, got.version + '\n');
  }
  return { root, version: got.version };
}


function printThroughput(runs: { run: string; stats: IndexStats }[], confidence: Record<string, number>, bytes: number): void {
  console.log(table([
    ['run', 'files', 'parsed', 'symbols', 'refs', 'time', 'files/s'],
    ...runs.map(({ run: r, stats: s }) => [
      r, s.files, s.parsed, s.symbols, s.references, fmtMs(s.ms),
      Math.round((s.parsed > 0 ? s.parsed : s.files) / (s.ms / 1000)).toLocaleString('en-US'),
    ]),
  ]));
  const cold = runs[0]!.stats;
  console.log(`  source: ${(bytes / 1e6).toFixed(2)} MB parsed; cold in-process ${(bytes / 1e6 / (cold.ms / 1000)).toFixed(2)} MB/s (walk, parse, extract, store, link)`);
  const link = runs[1]?.stats.link;
  if (link) console.log(`  link: ${link.imports} written imports, ${link.resolved} resolved, ${link.external} external, ${link.unresolved} unresolved (${fmtMs(link.ms)})`);
  const total = Object.values(confidence).reduce((a, b) => a + b, 0);
  console.log(`  references by confidence: ${Object.entries(confidence).map(([k, v]) => `${k} ${v} (${fmtPct(v / total)})`).join(', ')}`);
}

// ---- the compilers' answers ------------------------------------------------------------------

/** use site → the declaration the compiler binds it to ('-': outside the project) */
type Truth = Map<string, string>;

function parseTruth(stdout: string, fix: (loc: string) => string): Truth {
  const out: Truth = new Map();
  for (const line of stdout.split('\n')) {
    const [use, decl] = line.split('\t');
    if (!use || !decl) continue;
    out.set(fix(use), decl === '-' ? '-' : fix(decl));
  }
  return out;
}

/** go/types reports byte columns; the index counts UTF-16 units */
function utf16Columns(root: string): (loc: string) => string {
  const cache = new Map<string, string[]>();
  return (loc) => {
    const m = /^(.*):(\d+):(\d+)$/.exec(loc);
    if (!m) return loc;
    const [, file, line, col] = m as unknown as [string, string, string, string];
    let lines = cache.get(file);
    if (!lines) cache.set(file, (lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n')));
    const text = lines[Number(line) - 1] ?? '';
    const units = Buffer.from(text, 'utf8').subarray(0, Number(col) - 1).toString('utf8').length;
    return `${file}:${line}:${units + 1}`;
  };
}

function goTruth(cache: string, root: string): { truth: Truth; ms: number; tool: string } | { skipped: string } {
  const go = which('go');
  if (!go) return { skipped: 'no Go toolchain (apt-get install golang-go): throughput only' };
  const t0 = performance.now();
  const prog = path.join(cache, 'go-truth', 'main.go');
  fs.mkdirSync(path.dirname(prog), { recursive: true });
  fs.copyFileSync(path.join(LIB, 'go-truth.go'), prog);
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: path.join(cache, 'go-build'), GOPATH: path.join(cache, 'gopath'), GO111MODULE: 'off' };
  const r = spawnSync(go, ['run', prog, root], { encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) return { skipped: `go/types run failed: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' ')}` };
  const version = spawnSync(go, ['version'], { encoding: 'utf8' }).stdout.trim();
  return { truth: parseTruth(r.stdout, utf16Columns(root)), ms: performance.now() - t0, tool: `go/types (${version})` };
}

function javaTruth(cache: string, root: string, jdk: boolean): { truth: Truth; ms: number; tool: string } | { skipped: string } {
  const java = which('java');
  const javac = which('javac');
  if (!java || !javac) return { skipped: 'no JDK (java and javac): throughput only' };
  const t0 = performance.now();
  const exports = ['--add-exports', 'jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED'];
  const classes = path.join(cache, 'java-truth');
  const c = spawnSync(javac, [...exports, '-d', classes, path.join(LIB, 'JavaTruth.java')], { encoding: 'utf8' });
  if (c.status !== 0) return { skipped: `javac JavaTruth.java failed: ${(c.stderr || c.error?.message || '').trim().split('\n').slice(-2).join(' ')}` };
  // one compilation per demo: several are in the default package, with homonymous classes; the
  // JDK's own sources compile as a patch of java.base
  const groups = jdk ? [listFiles(root, 'java.base', (f) => f.endsWith('.java')).map((f) => path.join(root, f))]
    : fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory() && !d.startsWith('.')).sort()
      .map((demo) => listFiles(root, demo, (f) => f.endsWith('.java')).map((f) => path.join(root, f))).filter((g) => g.length > 0);
  const options = jdk ? [`-Dtruth.options=--patch-module java.base=${path.join(root, 'java.base')}`] : [];
  const r = spawnSync(java, [`-Dtruth.root=${root}`, ...options, ...exports, '-cp', classes, 'JavaTruth', ...groups.flatMap((g) => ['--', ...g])],
    { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) return { skipped: `javac tree API run failed: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' ')}` };
  const truth = parseTruth(r.stdout, (l) => l);
  const version = spawnSync(javac, ['-version'], { encoding: 'utf8' });
  return { truth, ms: performance.now() - t0, tool: `javac tree API (${(version.stdout || version.stderr).trim()})` };
}

interface Compared {
  sites: number; correct: number; wrong: number; guess: number; outside: number; missing: number;
  facts: number; agree: number; disagree: number; unjudged: number;
  examples: { wrong: string[]; missing: string[]; disagree: string[]; guess: string[] };
}

/**
 * Site by site: every use the compiler binds to a declaration we index (a symbol at the same name
 * position: parameters and local variables are not indexed), and every fact (resolved/imported) we
 * give where the compiler has a use.
 */
function compare(root: string, truth: Truth, skip: (file: string) => boolean): Compared {
  const db = openDb(root);
  try {
    const symbols = db.prepare(`SELECT s.id, f.path, s.name_line AS line, s.name_col AS col FROM symbols s JOIN files f ON f.id = s.file_id`)
      .all() as { id: number; path: string; line: number; col: number }[];
    const symbolAt = new Map(symbols.map((s) => [`${s.path}:${s.line}:${s.col}`, s.id]));
    const siteOf = new Map(symbols.map((s) => [s.id, `${s.path}:${s.line}:${s.col}`]));
    const refs = db.prepare(`SELECT f.path, r.line, r.col, r.symbol_id AS symbol, r.confidence FROM refs r JOIN files f ON f.id = r.file_id`)
      .all() as { path: string; line: number; col: number; symbol: number | null; confidence: string | null }[];
    const ours = new Map(refs.map((r) => [`${r.path}:${r.line}:${r.col}`, r]));
    const c: Compared = { sites: 0, correct: 0, wrong: 0, guess: 0, outside: 0, missing: 0, facts: 0, agree: 0, disagree: 0, unjudged: 0, examples: { wrong: [], missing: [], disagree: [], guess: [] } };
    const note = (list: string[], s: string) => list.length < 8 && list.push(s);
    for (const [use, decl] of truth) {
      if (skip(use) || decl === '-' || !symbolAt.has(decl)) continue; // a local, a parameter, or outside
      c.sites++;
      const o = ours.get(use);
      if (!o) (c.missing++, note(c.examples.missing, `${use} → ${decl}`));
      else if (o.confidence === 'name_match') (c.guess++, note(c.examples.guess, `${use} → ${decl}`));
      else if (o.confidence === null) (c.outside++, note(c.examples.missing, `${use} → ${decl} (we say: outside the project)`));
      else if (o.symbol != null && siteOf.get(o.symbol) === decl) c.correct++;
      else (c.wrong++, note(c.examples.wrong, `${use}: ${siteOf.get(o.symbol ?? -1) ?? '?'} (compiler: ${decl})`));
    }
    for (const [use, o] of ours) {
      if (skip(use) || o.symbol == null || o.confidence === null || o.confidence === 'name_match') continue;
      c.facts++;
      const t = truth.get(use);
      if (t === undefined) c.unjudged++;
      else if (t === siteOf.get(o.symbol)) c.agree++;
      else (c.disagree++, note(c.examples.disagree, `${use}: ${siteOf.get(o.symbol)} (compiler: ${t === '-' ? 'outside the project' : t})`));
    }
    return c;
  } finally {
    db.close();
  }
}

function printCompared(tool: string, ms: number, c: Compared): void {
  console.log(`  ${tool}, ${fmtMs(ms)}: ${c.sites} uses bound to ${'declarations we index'}`);
  console.log(table([
    ['uses the compiler resolves', 'count', 'share'],
    ['our fact, same declaration', c.correct, fmtPct(c.correct / c.sites)],
    ['our fact, another declaration', c.wrong, fmtPct(c.wrong / c.sites)],
    ['a name_match guess', c.guess, fmtPct(c.guess / c.sites)],
    ['we say: outside the project', c.outside, fmtPct(c.outside / c.sites)],
    ['no reference indexed', c.missing, fmtPct(c.missing / c.sites)],
  ]));
  const judged = c.agree + c.disagree;
  console.log(`  facts (resolved + imported): recall ${fmtPct(c.correct / c.sites)}, precision ${fmtPct(c.agree / judged)} (${c.agree} of ${judged} facts at positions the compiler reports agree; ${c.unjudged} not judged: no use there for the compiler, e.g. an import path or a declaration javac rewrites)`);
  for (const s of c.examples.wrong.slice(0, 4)) console.log(`    wrong: ${s}`);
  for (const s of c.examples.disagree.slice(0, 4)) console.log(`    disagree: ${s}`);
  for (const s of c.examples.missing.slice(0, 4)) console.log(`    missing: ${s}`);
  for (const s of c.examples.guess.slice(0, 3)) console.log(`    guess: ${s}`);
}

export async function runGoJava(cache: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const only = process.env.BENCH_GOJAVA?.split(',');
  for (const c of CORPORA.filter((x) => !only || only.some((o) => x.deb.includes(o)))) {
    heading(`${c.label} (Debian ${c.deb})`);
    const t0 = performance.now();
    const got = prepare(cache, c);
    if ('error' in got) {
      console.log(`  skipped: ${got.error}`);
      out[c.deb] = { skipped: got.error };
      continue;
    }
    console.log(`  ${c.deb} ${got.version} → ${path.relative(REPO, got.root)} (${fmtMs(performance.now() - t0)})`);
    const { runs, confidence, bytes } = await throughput(got.root);
    printThroughput(runs, confidence, bytes);
    const result: Record<string, unknown> = {
      version: got.version,
      index: runs.map(({ run: r, stats: s }) => ({ run: r, files: s.files, parsed: s.parsed, symbols: s.symbols, references: s.references, ms: s.ms, link: s.link })),
      confidence,
      bytes,
    };
    if (c.truth) {
      const t = c.truth === 'go' ? goTruth(cache, got.root) : javaTruth(cache, got.root, c.truth === 'jdk');
      if ('skipped' in t) {
        console.log(`  reference: ${t.skipped}`);
        result.reference = t;
      } else {
        // go/types saw no tests (build.ImportDir without them): compare the files it saw
        const compared = compare(got.root, t.truth, (loc) => c.truth === 'go' && /_test\.go:/.test(loc));
        printCompared(t.tool, t.ms, compared);
        result.reference = { tool: t.tool, ms: t.ms, ...compared };
      }
    } else console.log('  throughput only');
    out[c.deb] = result;
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cache = path.join(REPO, 'bench', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const res = await runGoJava(cache);
  fs.writeFileSync(path.join(cache, 'go-java.json'), JSON.stringify(res, null, 2) + '\n');
}
