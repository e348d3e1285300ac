/**
 * Benchmark on a real TypeScript codebase (rxjs, fetched from the npm registry):
 *   1. index throughput (cold with workers, cold in-process, no-change, one edited file);
 *   2. find_references precision/recall against the TypeScript LanguageService, with ripgrep
 *      word matching as the baseline;
 *   3. find_definitions from usage sites against the LanguageService, with Universal Ctags as the
 *      baseline;
 *   4. search_text wall time against ripgrep and a plain read of every file;
 *   5. the misses (false positives and false negatives) grouped by syntactic context, so the
 *      extractor can be improved.
 * Then Go and Java on real code from Debian's archive against go/types and javac (bench/go-java.ts).
 * Prints a report and writes bench/.cache/results.json. `npm run bench`.
 * Env: BENCH_SEED, BENCH_SYMBOLS, BENCH_SITES, BENCH_TOP override the defaults.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { IndexStats } from '../src/index/indexer.js';
import { indexProject } from '../src/project/indexing.js';
import { findDefinitions } from '../src/query/definitions.js';
import { Project } from '../src/project/project.js';
import { findReferences } from '../src/query/references.js';
import { searchText } from '../src/query/search-text.js';
import { openDb } from '../src/store/db.js';
import { ctagsIndex, findTool, readAll, rgWordMatches, type Tag } from './lib/baselines.js';
import { runGoJava } from './go-java.js';
import { runPolyglot } from './polyglot.js';
import { measureHooks } from './lib/hooks.js';
import { fetchPackage } from './lib/fetch.js';
import { SetScore, SiteScore } from './lib/metrics.js';
import { key, type Loc, parseKey, Truth } from './lib/truth.js';
import { fmtMs, fmtPct, heading, listFiles, median, prng, ratio, run, shuffle, table } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = path.join(REPO, 'bench', '.cache');
// BENCH_PACKAGE=name@version runs the TypeScript sections on another package that ships its
// TypeScript sources (under BENCH_SCOPE, default src/); the default is the reference codebase
const SPEC = process.env.BENCH_PACKAGE ?? 'rxjs@7.8.2';
const SEED = Number(process.env.BENCH_SEED ?? 20250611);
const N_SYMBOLS = Number(process.env.BENCH_SYMBOLS ?? 150);
const N_SITES = Number(process.env.BENCH_SITES ?? 300);
const TOP = Number(process.env.BENCH_TOP ?? 15);
const SCOPE_DIR = process.env.BENCH_SCOPE ?? 'src';
const TOUCH_FILE_DEFAULT = SPEC === 'rxjs@7.8.2' ? 'src/internal/Observable.ts' : undefined;
let TOUCH_FILE = TOUCH_FILE_DEFAULT ?? '';
const STRATA: { label: string; kinds: string[] }[] = [
  { label: 'function', kinds: ['function'] },
  { label: 'class', kinds: ['class'] },
  { label: 'interface', kinds: ['interface'] },
  { label: 'type', kinds: ['type'] },
  { label: 'const/var', kinds: ['constant', 'variable'] },
  { label: 'method', kinds: ['method'] },
  { label: 'property', kinds: ['property'] },
  { label: 'enum', kinds: ['enum'] },
];

const inScope = (rel: string) => rel.startsWith(SCOPE_DIR + '/');
/** the files TypeScript analyses: our answers are compared on these only */
const inTsScope = (rel: string) => inScope(rel) && rel.endsWith('.ts');
const phases: Record<string, number> = {};
const tStart = performance.now();
let tPhase = performance.now();
const phase = (name: string) => {
  const now = performance.now();
  phases[name] = now - tPhase;
  tPhase = now;
};

interface SampleSymbol {
  id: number;
  path: string;
  name: string;
  kind: string;
  container: string | null;
  line: number;
  column: number;
  stratum: string;
}

interface Miss {
  symbol: string;
  loc: Loc;
  context: string;
  note: string;
  /** set when TS lists the site but it is not a use in code (JSDoc, related declaration, this) */
  notCode?: string;
  /** a code use TS relates to the symbol, but whose go-to-definition lands on another symbol
   * (an override, an implementation of an interface member, a destructured alias) */
  indirect?: boolean;
}

async function main(): Promise<void> {
  console.log(`code-intel bench — ${SPEC}, seed ${SEED}, node ${process.version}, ${os.availableParallelism()} cores`);

  // ---- 1. the codebase -----------------------------------------------------------------------
  const pkg = fetchPackage(CACHE, SPEC);
  const root = pkg.dir;
  // another package: the first TypeScript file of its sources is the one edited
  TOUCH_FILE ||= listFiles(root, SCOPE_DIR, (f) => f.endsWith('.ts')).sort()[0] ?? '';
  console.log(`${pkg.fetched ? 'fetched' : 'cached'}: ${path.relative(REPO, root)} (${fmtMs(pkg.ms)})`);
  phase('fetch');

  // ---- 2. index throughput -------------------------------------------------------------------
  heading('Index throughput');
  const workers = Math.max(2, os.availableParallelism());
  const indexRuns: { run: string; stats: IndexStats }[] = [];
  const cold = async (w: number) => {
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true, force: true });
    const db = openDb(root);
    try {
      return await indexProject(db, root, { workers: w });
    } finally {
      db.close();
    }
  };
  indexRuns.push({ run: 'cold, in-process', stats: await cold(0) });
  indexRuns.push({ run: `cold, ${workers} workers`, stats: await cold(workers) });
  {
    const db = openDb(root);
    try {
      indexRuns.push({ run: 'no change', stats: await indexProject(db, root) });
      const touched = path.join(root, TOUCH_FILE);
      const original = fs.readFileSync(touched);
      try {
        fs.appendFileSync(touched, '\n// touched by code-intel bench\n');
        indexRuns.push({ run: `1 file edited`, stats: await indexProject(db, root) });
      } finally {
        fs.writeFileSync(touched, original);
      }
      indexRuns.push({ run: '1 file restored', stats: await indexProject(db, root) });
    } finally {
      db.close();
    }
  }
  console.log(
    table([
      ['run', 'files', 'parsed', 'symbols', 'refs', 'time', 'files/s'],
      ...indexRuns.map(({ run: r, stats: s }) => [
        r, s.files, s.parsed, s.symbols, s.references, fmtMs(s.ms),
        Math.round((s.parsed > 0 ? s.parsed : s.files) / (s.ms / 1000)).toLocaleString('en-US'),
      ]),
    ]),
  );
  const coldLink = indexRuns[1]!.stats.link;
  if (coldLink) console.log(`  link: ${coldLink.imports} imports, ${coldLink.resolved} resolved, ${coldLink.external} external, ${coldLink.unresolved} unresolved (${fmtMs(coldLink.ms)})`);
  console.log(`  files/s: parsed files per second (no change: files checked per second). Edited file: ${TOUCH_FILE}`);
  phase('index');

  const project = new Project(root);
  await project.refresh();
  const db = project.db;

  // ---- 3. ground truth -----------------------------------------------------------------------
  heading('Ground truth: TypeScript LanguageService');
  const tsFiles = listFiles(root, SCOPE_DIR, (f) => f.endsWith('.ts'));
  const truth = new Truth(root, tsFiles, inScope);
  console.log(`  typescript ${ts.version}, ${tsFiles.length} files under ${SCOPE_DIR}/, compilerOptions from ${truth.optionsSource}`);
  if (truth.optionDiagnostics.length) console.log(`  option/global diagnostics: ${truth.optionDiagnostics.slice(0, 3).join(' | ')}`);
  phase('truth setup');

  // sample symbols: stratified by kind, deterministic
  const candidates = db
    .prepare(
      `SELECT s.id, f.path, s.name, s.kind, s.container_name AS container, s.name_line AS line, s.name_col AS column
       FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.local = 0 AND f.language = 'typescript' AND f.path LIKE ? ORDER BY f.path, s.name_line, s.name_col`,
    )
    .all(SCOPE_DIR + '/%') as Omit<SampleSymbol, 'stratum'>[];
  const rand = prng(SEED);
  // `constructor` is a keyword to TS (its references are the class's `new` sites): left out
  const constructors = candidates.filter((c) => c.name === 'constructor');
  const pools = STRATA.map((st) =>
    shuffle(
      candidates.filter((c) => st.kinds.includes(c.kind) && /^[A-Za-z_$][\w$]*$/.test(c.name) && c.name !== 'default' && c.name !== 'constructor'),
      rand,
    ),
  );
  const quota = STRATA.map(() => 0);
  for (let left = N_SYMBOLS, progress = true; left > 0 && progress; ) {
    progress = false;
    for (let i = 0; i < STRATA.length && left > 0; i++) {
      if (quota[i]! < pools[i]!.length) {
        quota[i]!++;
        left--;
        progress = true;
      }
    }
  }
  const sample: SampleSymbol[] = [];
  STRATA.forEach((st, i) => {
    for (const c of pools[i]!.slice(0, quota[i])) sample.push({ ...c, stratum: st.label });
  });
  console.log(`  sample: ${sample.length} of ${candidates.length} non-local symbols — ${STRATA.map((s, i) => `${s.label} ${quota[i]}/${pools[i]!.length}`).join(', ')}`);
  console.log(`  (${constructors.length} constructors left out: TS treats \`constructor\` as a keyword whose references are the class's new/super sites)`);

  // ---- tools -----------------------------------------------------------------------------------
  const rg = findTool('rg', 'apt-get install ripgrep');
  const ctags = findTool('ctags', 'apt-get install universal-ctags');
  const ctagsIsUniversal = /universal/i.test(ctags.version);
  console.log(`  baselines: ${rg.path ? rg.version : rg.missing}; ${ctags.path ? ctags.version : ctags.missing}`);
  if (ctags.path && !ctagsIsUniversal) console.log(`  skipped: ctags at ${ctags.path} is not Universal Ctags`);

  // ---- 4. references ---------------------------------------------------------------------------
  heading('find_references vs TypeScript findReferences');
  const fileLines = (rel: string) => project.lines(rel);
  const score = {
    facts: new Map<string, SetScore>(),
    all: new Map<string, SetScore>(),
    rg: new Map<string, SetScore>(),
  };
  /** the same, against code uses only (TS truth minus JSDoc mentions, related declarations, this) */
  const codeScore = { facts: new SetScore(), all: new SetScore(), rg: new SetScore() };
  /** code uses whose TS go-to-definition lands on a declaration of the sampled symbol itself */
  const directScore = { facts: new SetScore(), all: new SetScore(), rg: new SetScore() };
  const directByKind = { facts: new Map<string, SetScore>(), all: new Map<string, SetScore>() };
  const notCodeCounts = new Map<string, number>();
  const get = (m: Map<string, SetScore>, k: string) => m.get(k) ?? (m.set(k, new SetScore()), m.get(k)!);
  const perSymbol: Record<string, unknown>[] = [];
  const fnFacts: Miss[] = [];
  const fpFacts: Miss[] = [];
  const fpGuesses: Miss[] = [];
  let skippedSymbols = 0;
  let noTruth = 0;
  const sitePools = new Map<number, Loc[]>();
  let tsRefMs = 0, oursRefMs = 0, rgRefMs = 0;

  for (const s of sample) {
    const at: Loc = { file: s.path, line: s.line, column: s.column };
    const label = `${s.kind} ${s.container ? s.container + '.' : ''}${s.name} @ ${s.path}:${s.line}`;
    const tok = truth.tokenAt(at);
    if (!tok || tok.getText() !== s.name) {
      skippedSymbols++;
      perSymbol.push({ symbol: label, skipped: `TS has ${tok ? `'${tok.getText()}'` : 'no name'} at ${key(at)}` });
      continue;
    }
    let t0 = performance.now();
    const tr = truth.references(at);
    tsRefMs += performance.now() - t0;
    const declared = new Set([key(at), ...truth.declarationNames(at).map(key)]);
    const truthSet = new Set(tr.refs.map(key));
    if (truthSet.size === 0) noTruth++;
    const notCode = new Map<string, string>();
    for (const l of tr.refs) {
      const why = truth.notACodeUse(l);
      if (why) notCode.set(key(l), why), notCodeCounts.set(why, (notCodeCounts.get(why) ?? 0) + 1);
    }
    const codeTruth = new Set([...truthSet].filter((k) => !notCode.has(k)));
    const declLines = new Set([...declared].map((k) => k.replace(/:\d+$/, '')));
    const directTruth = new Set(
      [...codeTruth].filter((k) => truth.definitions(parseKey(k)).some((d) => declLines.has(`${d.file}:${d.line}`))),
    );

    t0 = performance.now();
    const facts = new Set<string>();
    const guesses = new Set<string>();
    const defSiteOf = new Map<string, string | null>();
    try {
      for (let offset: number | null = 0; offset !== null; ) {
        const r = findReferences(project, { file: s.path, line: s.line, column: s.column, include_guesses: true, limit: 500, offset });
        for (const it of r.items) {
          const k = key(it);
          if (!inTsScope(it.file) || declared.has(k)) continue;
          (it.confidence === 'name_match' ? guesses : facts).add(k);
          defSiteOf.set(k, it.definition);
        }
        offset = r.next_offset;
      }
    } catch (e) {
      perSymbol.push({ symbol: label, error: `find_references: ${(e as Error).message}` });
    }
    oursRefMs += performance.now() - t0;
    for (const k of facts) guesses.delete(k);
    const all = new Set([...facts, ...guesses]);

    const rf = get(score.facts, s.stratum).add(facts, truthSet);
    const ra = get(score.all, s.stratum).add(all, truthSet);
    codeScore.facts.add(facts, codeTruth);
    codeScore.all.add(all, codeTruth);
    directScore.facts.add(facts, directTruth);
    directScore.all.add(all, directTruth);
    get(directByKind.facts, s.stratum).add(facts, directTruth);
    get(directByKind.all, s.stratum).add(all, directTruth);
    let rr: { p: number; r: number } | undefined;
    if (rg.path) {
      t0 = performance.now();
      const words = new Set(rgWordMatches(rg.path, root, SCOPE_DIR, s.name, fileLines).map(key).filter((k) => !declared.has(k)));
      rgRefMs += performance.now() - t0;
      rr = get(score.rg, s.stratum).add(words, truthSet);
      codeScore.rg.add(words, codeTruth);
      directScore.rg.add(words, directTruth);
    }
    perSymbol.push({
      symbol: label, stratum: s.stratum, truth: truthSet.size, truth_code_uses: codeTruth.size, truth_direct_uses: directTruth.size, ts_groups: tr.groups, facts: facts.size, guesses: guesses.size,
      precision_facts: rf.p, recall_facts: rf.r, precision_all: ra.p, recall_all: ra.r, precision_rg: rr?.p, recall_rg: rr?.r,
      ...(tr.error ? { ts_error: tr.error } : {}),
    });

    for (const k of truthSet) {
      if (facts.has(k)) continue;
      const loc = parseKey(k);
      fnFacts.push({ symbol: label, loc, context: truth.context(loc), note: guesses.has(k) ? 'in guesses' : 'missing', notCode: notCode.get(k), indirect: !notCode.has(k) && !directTruth.has(k) });
    }
    for (const k of facts) {
      if (truthSet.has(k)) continue;
      const loc = parseKey(k);
      fpFacts.push({ symbol: label, loc, context: truth.context(loc), note: `ours→${defSiteOf.get(k) ?? '?'}` });
    }
    for (const k of guesses) {
      if (truthSet.has(k)) continue;
      const loc = parseKey(k);
      fpGuesses.push({ symbol: label, loc, context: truth.context(loc), note: 'guess' });
    }
    // go-to-definition sites: code uses only (a definition request is made on code, not on a comment)
    const usable = tr.refs.filter((l) => !notCode.has(key(l)));
    if (usable.length) sitePools.set(s.id, usable.sort((a, b) => (key(a) < key(b) ? -1 : 1)));
  }
  phase('references');

  const sumOf = (m: Map<string, SetScore>) => {
    const t = new SetScore();
    for (const v of m.values()) t.merge(v);
    return t;
  };
  const refRows: (string | number)[][] = [[
    'kind', 'n', 'truth', 'facts', 'P facts', 'R facts', '+guesses', 'P all', 'R all', ...(rg.path ? ['rg', 'P rg', 'R rg'] : []),
  ]];
  const refRow = (label: string, f: SetScore, a: SetScore, r: SetScore | undefined) => [
    label, f.items, f.expected, f.returned, fmtPct(f.precision), fmtPct(f.recall), a.returned, fmtPct(a.precision), fmtPct(a.recall),
    ...(rg.path && r ? [r.returned, fmtPct(r.precision), fmtPct(r.recall)] : rg.path ? ['—', '—', '—'] : []),
  ];
  for (const st of STRATA) {
    const f = score.facts.get(st.label);
    if (!f) continue;
    refRows.push(refRow(st.label, f, score.all.get(st.label)!, score.rg.get(st.label)));
  }
  const totF = sumOf(score.facts), totA = sumOf(score.all), totR = sumOf(score.rg);
  refRows.push(refRow('ALL (micro)', totF, totA, rg.path ? totR : undefined));
  refRows.push([
    'ALL (macro)', '', '', '', fmtPct(totF.macroPrecision), fmtPct(totF.macroRecall), '', fmtPct(totA.macroPrecision), fmtPct(totA.macroRecall),
    ...(rg.path ? ['', fmtPct(totR.macroPrecision), fmtPct(totR.macroRecall)] : []),
  ]);
  console.log(table(refRows));
  console.log(`  facts = resolved + imported; all = facts + name_match guesses. Sets of file:line:col under ${SCOPE_DIR}/; declarations excluded on both sides.`);
  console.log(`  F1: facts ${fmtPct(totF.f1)}, all ${fmtPct(totA.f1)}${rg.path ? `, rg ${fmtPct(totR.f1)}` : ''}. ${noTruth} symbols have no references in TS; ${skippedSymbols} skipped (name not at the indexed position).`);
  console.log(
    `  TS "references" that are not uses in code: ${[...notCodeCounts.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}.`,
  );
  const variantRow = (label: string, v: typeof codeScore) => [
    label, v.facts.expected, fmtPct(v.facts.precision), fmtPct(v.facts.recall), fmtPct(v.all.precision), fmtPct(v.all.recall),
    ...(rg.path ? [fmtPct(v.rg.precision), fmtPct(v.rg.recall)] : []),
  ];
  console.log(`  Stricter truths (micro over all kinds):`);
  console.log(
    table([
      ['truth', 'refs', 'P facts', 'R facts', 'P all', 'R all', ...(rg.path ? ['P rg', 'R rg'] : [])],
      variantRow('TS findReferences (above)', { facts: totF, all: totA, rg: totR }),
      variantRow('code uses only', codeScore),
      variantRow('direct uses', directScore),
    ]),
  );
  console.log(`  Direct uses by kind:`);
  console.log(
    table([
      ['kind', 'refs', 'P facts', 'R facts', 'P all', 'R all'],
      ...STRATA.filter((st) => directByKind.facts.has(st.label)).map((st) => {
        const f = directByKind.facts.get(st.label)!, a = directByKind.all.get(st.label)!;
        return [st.label, f.expected, fmtPct(f.precision), fmtPct(f.recall), fmtPct(a.precision), fmtPct(a.recall)];
      }),
    ]),
  );
  console.log(`  code uses: without JSDoc mentions, this/super, and names of related declarations (overrides, implementing`);
  console.log(`  members, object-literal members, destructured bindings, aliases). direct uses: code uses whose TS go-to-definition`);
  console.log(`  lands on the symbol itself, i.e. without TS's override/implementation cascade (a base method's or an interface`);
  console.log(`  member's references are reported for every override or implementation).`);
  if (!rg.path) console.log(`  ${rg.missing}`);
  console.log(`  time: TS ${fmtMs(tsRefMs)}, ours ${fmtMs(oursRefMs)}${rg.path ? `, rg ${fmtMs(rgRefMs)}` : ''} (${sample.length} symbols)`);

  // ---- 5. definitions --------------------------------------------------------------------------
  heading('find_definitions from usage sites vs TypeScript getDefinitionAtPosition');
  const siteRand = prng(SEED ^ 0x5eed);
  const queues = shuffle([...sitePools.entries()], siteRand).map(([, locs]) => shuffle(locs, siteRand));
  const sites: Loc[] = [];
  for (let progress = true; sites.length < N_SITES && progress; ) {
    progress = false;
    for (const q of queues) {
      const l = q.shift();
      if (!l) continue;
      progress = true;
      sites.push(l);
      if (sites.length >= N_SITES) break;
    }
  }
  let tags: { byName: Map<string, Tag[]>; count: number; ms: number; format: string } | undefined;
  if (ctags.path && ctagsIsUniversal) tags = ctagsIndex(ctags.path, root, SCOPE_DIR);
  const defScore = { facts: new SiteScore(), all: new SiteScore(), ctags: new SiteScore() };
  const defMisses: Miss[] = [];
  let noTruthSites = 0;
  const lineKey = (l: { file: string; line: number }) => `${l.file}:${l.line}`;
  for (const site of sites) {
    // every declaration of the symbol TS resolves to counts (TS names only the matching overload)
    const expected = new Set<string>();
    for (const d of truth.definitions(site)) {
      expected.add(lineKey(d));
      for (const n of truth.declarationNames(d)) if (inScope(n.file)) expected.add(lineKey(n));
    }
    if (expected.size === 0) {
      noTruthSites++;
      continue;
    }
    const name = truth.tokenAt(site)?.getText() ?? '';
    const ours: { k: string; conf: string }[] = [];
    let resolution = '';
    try {
      for (let offset: number | null = 0; offset !== null; ) {
        const r = findDefinitions(project, { from: { file: site.file, line: site.line, column: site.column }, limit: 500, offset });
        resolution = r.resolution;
        for (const d of r.items) ours.push({ k: lineKey(d), conf: d.confidence });
        offset = r.next_offset;
      }
    } catch (e) {
      resolution = `error: ${(e as Error).message}`;
    }
    const factKeys = ours.filter((o) => o.conf !== 'name_match').map((o) => o.k);
    const hitFacts = defScore.facts.add(factKeys, expected);
    const hitAll = defScore.all.add(ours.map((o) => o.k), expected);
    if (tags) defScore.ctags.add((tags.byName.get(name) ?? []).map(lineKey), expected);
    if (!hitFacts || factKeys.length > 1) {
      const shown = ours.slice(0, 3).map((o) => `${o.k} (${o.conf})`).join(', ') + (ours.length > 3 ? ` +${ours.length - 3}` : '');
      defMisses.push({
        symbol: name,
        loc: site,
        context: truth.context(site),
        note: `TS: ${[...expected].join(', ')} | ours: ${shown || 'nothing'}${hitAll && !hitFacts ? ' [found among guesses]' : ''} — ${resolution}`,
      });
    }
  }
  const defRow = (label: string, s: SiteScore) => [
    label, s.sites, s.answered, fmtPct(s.precision), fmtPct(s.recall), fmtPct(s.sites ? s.exact / s.sites : NaN),
    s.answered ? (s.returned / s.answered).toFixed(2) : '—',
  ];
  console.log(
    table([
      ['tool', 'sites', 'answered', 'precision', 'recall', 'exact', 'avg cand.'],
      defRow('ours (facts)', defScore.facts),
      defRow('ours (+guesses)', defScore.all),
      ...(tags ? [defRow('ctags (by name)', defScore.ctags)] : []),
    ]),
  );
  console.log(`  ${sites.length} usage sites drawn round-robin from the TS references of the sampled symbols; ${noTruthSites} without a definition under ${SCOPE_DIR}/ left out.`);
  console.log(`  precision = returned definitions that are declarations of what TS resolves to (file + name line, overloads included); recall = sites where the true one was returned; exact = exactly one candidate, correct.`);
  if (tags) console.log(`  ctags: ${tags.count} tags (${tags.format}) in ${fmtMs(tags.ms)}`);
  else console.log(`  ${ctags.path ? 'skipped: ctags is not Universal Ctags' : ctags.missing}`);
  phase('definitions');

  // ---- 6. search_text speed --------------------------------------------------------------------
  heading('search_text wall time');
  const scopeFiles = (db.prepare('SELECT path FROM files WHERE path LIKE ? ORDER BY path').all(SCOPE_DIR + '/%') as { path: string }[]).map((r) => r.path);
  const reads: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const r = readAll(root, scopeFiles);
    reads.push(r.ms);
    bytes = r.bytes;
  }
  const readMs = median(reads);
  const patterns: { label: string; pattern: string; regex: boolean }[] = [
    { label: 'subscribe', pattern: 'subscribe', regex: false },
    { label: 'asapScheduler', pattern: 'asapScheduler', regex: false },
    { label: 'Observable<', pattern: 'Observable<', regex: false },
    { label: '/\\bswitchMap\\b/', pattern: '\\bswitchMap\\b', regex: true },
    { label: '/function\\s+\\w+\\(/', pattern: 'function\\s+\\w+\\(', regex: true },
    { label: '/import \\{[^}]*\\} from/', pattern: 'import \\{[^}]*\\} from', regex: true },
  ];
  const searchRows: (string | number)[][] = [[
    'pattern', 'ours n', 'ours', ...(rg.path ? ['rg n', 'rg -c', 'rg -n', 'ours/rg -c'] : []), 'ours/read',
  ]];
  const searchResults: Record<string, unknown>[] = [];
  for (const pt of patterns) {
    const times: number[] = [];
    let total = 0, lower = false;
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      const r = searchText(project, { pattern: pt.pattern, regex: pt.regex, path: SCOPE_DIR, limit: 50 });
      if (i > 0) times.push(performance.now() - t0); // first run warms the page cache and the regex
      total = r.total;
      lower = r.total_is_lower_bound;
    }
    const ours = median(times);
    let rgN = NaN, rgCount = NaN, rgLines = NaN;
    if (rg.path) {
      const args = ['--no-ignore', '--no-messages', '--color', 'never', ...(pt.regex ? [] : ['-F']), '--', pt.pattern, SCOPE_DIR];
      const c: number[] = [], n: number[] = [];
      for (let i = 0; i < 6; i++) {
        const rc = run(rg.path, ['--count-matches', ...args], root);
        const rn = run(rg.path, ['-n', ...args], root);
        if (i > 0) c.push(rc.ms), n.push(rn.ms);
        rgN = rc.stdout.split('\n').reduce((sum, l) => sum + (Number(/:(\d+)$/.exec(l)?.[1] ?? 0)), 0);
      }
      rgCount = median(c);
      rgLines = median(n);
    }
    searchRows.push([
      pt.label, `${total}${lower ? '+' : ''}`, fmtMs(ours),
      ...(rg.path ? [rgN, fmtMs(rgCount), fmtMs(rgLines), ratio(ours, rgCount).toFixed(2) + 'x'] : []),
      ratio(ours, readMs).toFixed(2) + 'x',
    ]);
    searchResults.push({ ...pt, ours_total: total, ours_lower_bound: lower, ours_ms: ours, rg_total: rgN, rg_count_ms: rgCount, rg_n_ms: rgLines });
  }
  console.log(table(searchRows));
  console.log(`  ${scopeFiles.length} files, ${(bytes / 1024).toFixed(0)} KiB under ${SCOPE_DIR}/; reading every file (utf8): ${fmtMs(readMs)} (median of 5).`);
  console.log(`  ours: in-process searchText, full count (limit 50), median of 5 warm runs; rg: a process per call (spawn included), median of 5.`);
  if (!rg.path) console.log(`  ${rg.missing}`);
  phase('search_text');

  // ---- 7. misses -------------------------------------------------------------------------------
  heading('Where find_references falls short');
  const histogram = (ms: Miss[]) => {
    const h = new Map<string, number>();
    for (const m of ms) h.set(m.context, (h.get(m.context) ?? 0) + 1);
    return [...h.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  };
  const showHistogram = (title: string, ms: Miss[]) => {
    const h = histogram(ms);
    console.log(`\n${title}: ${ms.length}${ms.length ? ' — by TypeScript syntax at the site:' : ''}`);
    if (h.length) console.log(table([['context', 'count', 'symbols'], ...h.slice(0, 12).map(([c, n]) => [c, n, new Set(ms.filter((m) => m.context === c).map((m) => m.symbol)).size])]));
  };
  /** Examples spread over contexts (largest first) and symbols, deterministic. */
  const pick = (ms: Miss[], n: number, seed: number): Miss[] => {
    const r = prng(seed);
    const groups = histogram(ms).map(([c]) => {
      const g = shuffle(ms.filter((m) => m.context === c), r);
      // one per symbol first
      const seen = new Set<string>();
      const first = g.filter((m) => !seen.has(m.symbol) && seen.add(m.symbol));
      return [...first, ...g.filter((m) => !first.includes(m))];
    });
    const out: Miss[] = [];
    for (let i = 0; out.length < n && groups.some((g) => g.length > i); i++) {
      for (const g of groups) {
        if (g[i] && out.length < n) out.push(g[i]!);
      }
    }
    return out;
  };
  const oursAt = (l: Loc): string => {
    const fid = project.fileId(l.file);
    if (fid === undefined) return 'ours: file not indexed';
    const ref = db
      .prepare(
        `SELECT r.name, r.role, r.target_kind, r.confidence, f.path AS spath, s.name_line AS sline, s.name AS sname, s.container_name AS scont
         FROM refs r LEFT JOIN symbols s ON s.id = r.symbol_id LEFT JOIN files f ON f.id = s.file_id
         WHERE r.file_id = ? AND r.line = ? AND r.col = ?`,
      )
      .get(fid, l.line, l.column) as
      | { name: string; role: string; target_kind: string; confidence: string | null; spath: string | null; sline: number | null; sname: string | null; scont: string | null }
      | undefined;
    if (ref) {
      const target = ref.spath ? `→ ${ref.scont ? ref.scont + '.' : ''}${ref.sname} @ ${ref.spath}:${ref.sline}` : '→ no symbol';
      return `ours: ref ${ref.role}/${ref.target_kind}/${ref.confidence ?? 'external'} ${target}`;
    }
    const sym = db.prepare('SELECT kind, name FROM symbols WHERE file_id = ? AND name_line = ? AND name_col = ?').get(fid, l.line, l.column) as
      | { kind: string; name: string }
      | undefined;
    return sym ? `ours: a ${sym.kind} definition here` : 'ours: no reference at this position';
  };
  const snippet = (l: Loc, len: number): string => {
    const text = project.lines(l.file)[l.line - 1] ?? '';
    const at = l.column - 1;
    const marked = text.slice(0, at) + '⟦' + text.slice(at, at + len) + '⟧' + text.slice(at + len);
    const lead = marked.length - marked.trimStart().length;
    let s = marked.trim();
    let off = at - lead;
    if (s.length > 140) {
      const from = Math.max(0, off - 50);
      s = (from > 0 ? '…' : '') + s.slice(from, from + 130) + '…';
      off -= from;
    }
    return s;
  };
  const nameLen = (l: Loc) => truth.tokenAt(l)?.getText().length ?? 1;
  const printMisses = (title: string, ms: Miss[], seed: number, detail: (m: Miss) => string, n = TOP) => {
    const chosen = pick(ms, n, seed);
    if (!chosen.length) return;
    console.log(`\n${title} (${chosen.length} of ${ms.length}):`);
    chosen.forEach((m, i) => {
      console.log(`${String(i + 1).padStart(3)}. ${key(m.loc)}  [${m.context}]  symbol: ${m.symbol}`);
      console.log(`       ${snippet(m.loc, nameLen(m.loc))}`);
      console.log(`       ${detail(m)}`);
    });
  };
  const fnCode = fnFacts.filter((m) => !m.notCode && !m.indirect);
  const fnIndirect = fnFacts.filter((m) => m.indirect);
  const fnOther = fnFacts.filter((m) => m.notCode);
  showHistogram('False negatives of facts, direct code uses (TS reference, not among our facts)', fnCode);
  console.log(`  of which ${fnCode.filter((m) => m.note === 'in guesses').length} are among our name_match guesses`);
  showHistogram('False negatives of facts, indirect code uses (go-to-definition lands on an override/implementation)', fnIndirect);
  console.log(`  of which ${fnIndirect.filter((m) => m.note === 'in guesses').length} are among our name_match guesses`);
  showHistogram('False negatives of facts that are not uses in code (JSDoc, related declarations, this)', fnOther);
  console.log(`  of which ${fnOther.filter((m) => m.note === 'in guesses').length} are among our name_match guesses`);
  showHistogram('False positives among facts (we say resolved/imported, TS disagrees)', fpFacts);
  showHistogram('False positives among guesses (name_match, not a TS reference)', fpGuesses);
  printMisses('Examples: false negatives (direct code uses)', fnCode, SEED + 1, (m) => `${m.note === 'in guesses' ? '[only a guess] ' : ''}${oursAt(m.loc)}`);
  printMisses('Examples: false positives among facts', fpFacts, SEED + 2, (m) => `${oursAt(m.loc)} | ${truth.describe(m.loc)}`);
  printMisses('Examples: false positives among guesses', fpGuesses, SEED + 3, (m) => truth.describe(m.loc));
  printMisses('Examples: false negatives, indirect code uses', fnIndirect, SEED + 6, (m) => `${truth.describe(m.loc)} | ${oursAt(m.loc)}`, 6);
  printMisses('Examples: false negatives that are not uses in code', fnOther, SEED + 5, (m) => `${m.notCode}; ${oursAt(m.loc)}`, 6);

  const worst = (perSymbol as { symbol: string; truth?: number; truth_code_uses?: number; facts?: number; guesses?: number; recall_facts?: number; recall_all?: number }[])
    .filter((r) => (r.truth_code_uses ?? 0) >= 3 && r.recall_facts !== undefined)
    .sort((a, b) => a.recall_facts! - b.recall_facts! || b.truth! - a.truth! || (a.symbol < b.symbol ? -1 : 1))
    .slice(0, 12);
  console.log('\nSymbols with the lowest fact recall (at least 3 code uses):');
  console.log(table([
    ['symbol', 'truth', 'facts', 'guesses', 'R facts', 'R all'],
    ...worst.map((r) => [r.symbol, r.truth!, r.facts!, r.guesses!, fmtPct(r.recall_facts!), fmtPct(r.recall_all!)]),
  ]));

  heading('Where find_definitions falls short');
  showHistogram('Sites where our facts miss the TS definition or give several', defMisses);
  printMisses('Examples', defMisses, SEED + 4, (m) => m.note);
  phase('misses');

  // BENCH_ONLY=rxjs: the TypeScript sections only (while working on the extractor)
  const rest = process.env.BENCH_ONLY !== 'rxjs';

  // ---- 7b. hook latency (Claude Code runs a fresh process per tool call) ----------------------
  let hookTimings: ReturnType<typeof measureHooks> = [];
  if (rest) {
    heading('Hook latency (process per call, cold start included)');
    hookTimings = measureHooks(REPO, root, TOUCH_FILE);
    console.log(table([['case', 'decision', 'median', 'worst'], ...hookTimings.map((h) => [h.case, h.decision, fmtMs(h.median_ms), fmtMs(h.max_ms)])]));
    console.log(`  ${hookTimings[1]?.runs ?? 0} runs each; the hook opens the project database, checks the seal, snapshots the working tree against the accepted one (git, private index), and parses Bash with tree-sitter.`);
    phase('hooks');
  }

  // ---- 7c. Go and Java on real code (Debian packages; skipped with the reason when unavailable) --
  const goJava = rest ? await runGoJava(CACHE) : undefined;
  phase('go/java');

  // ---- 7d. Python and Rust on real code (Debian packages; pyright as the Python reference) -------
  const pythonRust = rest ? await runPolyglot(CACHE, SEED) : undefined;
  phase('python/rust');

  // ---- 8. results.json -------------------------------------------------------------------------
  const totalMs = performance.now() - tStart;
  const toObj = (m: Map<string, SetScore>) => Object.fromEntries([...m.entries()].map(([k, v]) => [k, v.toJSON()]));
  const summarize = (ms: Miss[], n: number) => ({
    total: ms.length,
    by_context: Object.fromEntries(histogram(ms)),
    examples: pick(ms, n, SEED + 9).map((m) => ({ ...m, where: key(m.loc), snippet: snippet(m.loc, nameLen(m.loc)), ours: oursAt(m.loc) })),
  });
  const results = {
    generated_at: new Date().toISOString(),
    codebase: { spec: SPEC, root: path.relative(REPO, root), scope: SCOPE_DIR, ts_files: tsFiles.length },
    config: { seed: SEED, symbols: N_SYMBOLS, sites: N_SITES, typescript: ts.version, node: process.version, cores: os.availableParallelism(), ts_options: truth.optionsSource },
    tools: { rg: rg.path ? rg.version : rg.missing, ctags: ctags.path ? ctags.version : ctags.missing },
    index: indexRuns.map(({ run: r, stats: s }) => ({ run: r, files: s.files, parsed: s.parsed, unchanged: s.unchanged, symbols: s.symbols, references: s.references, ms: s.ms, link: s.link })),
    references: {
      direct_uses: { facts: directScore.facts.toJSON(), facts_and_guesses: directScore.all.toJSON(),
        by_kind: { facts: toObj(directByKind.facts), facts_and_guesses: toObj(directByKind.all) }, ...(rg.path ? { rg: directScore.rg.toJSON() } : {}) },
      code_uses_only: { facts: codeScore.facts.toJSON(), facts_and_guesses: codeScore.all.toJSON(), ...(rg.path ? { rg: codeScore.rg.toJSON() } : {}), left_out: Object.fromEntries(notCodeCounts) },
      facts: { overall: totF.toJSON(), by_kind: toObj(score.facts) },
      facts_and_guesses: { overall: totA.toJSON(), by_kind: toObj(score.all) },
      ...(rg.path ? { rg: { overall: totR.toJSON(), by_kind: toObj(score.rg) } } : {}),
      symbols_without_truth: noTruth,
      skipped_symbols: skippedSymbols,
      per_symbol: perSymbol,
    },
    definitions: {
      sites: sites.length, sites_without_truth: noTruthSites,
      facts: defScore.facts.toJSON(), facts_and_guesses: defScore.all.toJSON(), ...(tags ? { ctags: defScore.ctags.toJSON() } : {}),
    },
    search_text: { files: scopeFiles.length, bytes, read_all_ms: readMs, patterns: searchResults },
    hooks: hookTimings,
    go_java: goJava,
    python_rust: pythonRust,
    misses: {
      references_false_negatives_direct: summarize(fnCode, 40),
      references_false_negatives_indirect: summarize(fnIndirect, 40),
      references_false_negatives_not_code: summarize(fnOther, 40),
      references_false_positives_facts: summarize(fpFacts, 40),
      references_false_positives_guesses: summarize(fpGuesses, 40),
      definitions: summarize(defMisses, 40),
    },
    phases_ms: phases,
    total_ms: totalMs,
  };
  fs.writeFileSync(path.join(CACHE, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  heading('Done');
  console.log(`  phases: ${Object.entries(phases).map(([k, v]) => `${k} ${fmtMs(v)}`).join(', ')}`);
  console.log(`  total ${fmtMs(totalMs)}; results: ${path.relative(REPO, path.join(CACHE, 'results.json'))}`);
  project.close();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
