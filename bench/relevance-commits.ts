/**
 * Relevance on real commits (manifest: bench/data/relevance-commits.json, built by
 * bench/relevance-build.ts). For every commit, the parent tree is materialised from a local copy
 * of the repository and indexed in-process with code-intel's own engine, then:
 *   1. the VALIDATION gate: every relevant, random and hard declaration is scored against
 *      target = the frame's target_feature where the manifest has one (the few words of the
 *      request naming its subject, written from the request alone), else the request
 *      (TARGET=request: always the request), with the scorer confirm_symbol_relevance uses
 *      (semanticEngine(project).scoreSymbols), with evidence = what the gate reads for an agent
 *      citing "file:line" of the definition (verifyCodeEvidence) and without evidence; tiers
 *      < 0.3 rejected, 0.3–0.6 accepted (risk HIGH), > 0.6 FACT. Baselines in the same run: a gate
 *      from a textbook BM25 rank (top 50 accepted, top 5 FACT) and "the name or container shares a
 *      word with the request";
 *   2. ranking: the rank of the changed declarations for the request with semantic_search (the
 *      engine's rank, as bench/semantic.ts calls it), the query tool (queryHybrid), and textbook BM25
 *      over every declaration's full source text (bench/lib/bm25.ts); MRR of the first relevant,
 *      Hit@10, R@10.
 * Per split (tune / eval) and language (EN; JA and ZH where the manifest has them, beside EN on the
 * same commits). Prints tables and writes bench/.cache/relevance-commits.json.
 * Env: RELEVANCE_MAX (commits per repository, evenly spaced; default all), RELEVANCE_ONLY (repos
 * whose name contains it), RELEVANCE_REPOS (folder of owner+name copies), RELEVANCE_FRESH=1 (a
 * fresh directory and cold index per commit instead of one directory per repository brought to
 * each parent and re-indexed incrementally).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { semanticEngine } from '../src/embeddings/engine.js';
import { loadConfig } from '../src/embeddings/config.js';
import { readCard, STATIC_MODEL_DIR } from '../src/embeddings/static/static-embedder.js';
import { conceptsOf, identifierWords } from '../src/embeddings/text.js';
import { queryHybrid } from '../src/query/hybrid-query.js';
import { Project } from '../src/project/project.js';
import { symbolsByName, type SymbolRow } from '../src/query/symbols.js';
import { chunkable } from '../src/embeddings/chunks.js';
import { REQUEST_NAMED_SCORE, requestNamesAsCode, verifyCodeEvidence } from '../src/session/validation.js';
import { siblingSaying, targetMeansAnother } from '../src/session/which-definition.js';
import { type LinkDirection, linkDirection, linkedScore, linkToSeeds, personalizedRank, linksOnward, propagationCutoff, RANK_ACCEPT, RANK_SHARE, rankAnchors, rankedScore, usesNamed, within } from '../src/session/graph-relevance.js';
import { extendsNamedCode, factCap, namedCodeOnly, sharesNamedCode, tierOf } from '../src/session/relevance.js';
import { minAccepted } from '../machines/session.js';
import { Bm25, words } from './lib/bm25.js';
import { type Decl, declarations, qualifiedName } from './lib/decls.js';
import { type FileDiff, findGitDir, hasCommit, lsTree, parentHunks, readBlobs } from './lib/git.js';
import { fmtPct, heading, median, table } from './lib/util.js';
import type { DeclRef, Manifest, ManifestCommit } from './relevance-build.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MANIFEST = path.join(REPO, 'bench', 'data', 'relevance-commits.json');
const CACHE = path.join(REPO, 'bench', '.cache');
const MAX = Number(process.env.RELEVANCE_MAX ?? Infinity);
const ONLY = process.env.RELEVANCE_ONLY;
const FRESH = process.env.RELEVANCE_FRESH === '1';
const BM25_ACCEPT = 50;
const BM25_FACT = 5;

type Lang = 'en' | 'ja' | 'zh';
type Set3 = 'relevant' | 'random' | 'hard';
type TierCode = 'R' | 'A' | 'F';
const SCORERS = ['gate_ppr', 'gate_trail', 'gate_graph', 'gate_rank', 'gate', 'gate_noev', 'bm25_gate', 'overlap'] as const;
type Scorer = (typeof SCORERS)[number];
const SCORER_LABEL: Record<Scorer, string> = {
  gate_ppr: `code-intel gate: words + rank + graph + propagation (as confirm_symbol_relevance)`,
  gate_trail: 'code-intel gate, evidence = its best line (changed code: a line the commit changes; negatives: any line)',
  gate_graph: '  words + rank + graph (one step from a seed)',
  gate_rank: `  words + rank (the best 1 in ${RANK_SHARE}, at most ${RANK_ACCEPT}, by code text)`,
  gate: '  words only, evidence = definition "file:line"',
  gate_noev: 'code-intel gate, no evidence',
  bm25_gate: `baseline: BM25 rank (top ${BM25_ACCEPT} accepted, top ${BM25_FACT} FACT)`,
  overlap: 'baseline: name/container shares a request word',
};

interface ScoredItem {
  set: Set3;
  file: string;
  symbol: string;
  kind: string;
  line: number;
  /** code-intel has this declaration in its index (file, name, line) */
  indexed: boolean;
  /** the gate looks the submitted name up by name: the first row is another declaration */
  resolves_elsewhere: boolean;
  score: number;
  score_noev: number;
  legs: unknown;
  bm25_rank: number | null;
  /** its rank among the project's declarations for the target (the gate's rank leg), of `ranked` */
  text_rank?: number | null;
  ranked?: number;
  /** the words leg against the whole request (where the target is the frame's) */
  score_request?: number;
  shared: string[];
  tiers: Record<Scorer, TierCode>;
}

interface Ranks {
  first: number | null;
  /** relevant declarations found in the top 10 */
  top10: number;
  relevant: number;
  /** relevant declarations this system can return at all (semantic_search: chunk kinds only) */
  reachable: number;
}

interface LangResult {
  lang: Lang;
  request: string;
  /** what the gate judged against: the frame's target_feature, or the request */
  target: string;
  items: ScoredItem[];
  ranks: Record<'semantic' | 'text' | 'query' | 'bm25', Ranks>;
}

interface CommitResult {
  repo: string;
  split: string;
  commit: string;
  request_en: string;
  index_ms: number;
  files: number;
  chunks: number;
  symbols: number;
  bm25_docs: number;
  langs: LangResult[];
}

const tier = (s: number): TierCode => {
  const t = tierOf(s);
  return t === 'FACT' ? 'F' : t === 'REJECTED' ? 'R' : 'A';
};

function sh(cmd: string): void {
  const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr.slice(0, 300)}`);
}

/** Brings `dir` to the tree of `commit`: extracts it over the directory and removes what it does not have. */
function materialise(gitDir: string, commit: string, dir: string, tree: Map<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  sh(`git --git-dir '${gitDir}' archive --format=tar ${commit} | tar xf - -C '${dir}'`);
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === '.code-intel') continue;
      if (e.isDirectory()) {
        visit(r);
        if (fs.readdirSync(path.join(dir, r)).length === 0) fs.rmdirSync(path.join(dir, r));
      } else if (!tree.has(r)) fs.rmSync(path.join(dir, r), { force: true });
    }
  };
  visit('');
}

/** The code-intel commit measured, and whether the scorer's sources differ from it. */
function codeIntelRevision(): string {
  if (process.env.RELEVANCE_REVISION) return process.env.RELEVANCE_REVISION;
  const head = spawnSync('git', ['-C', REPO, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  if (head.status !== 0) return 'unknown revision';
  const dirty = spawnSync('git', ['-C', REPO, 'status', '--porcelain', '--', 'src', 'data'], { encoding: 'utf8' }).stdout.trim();
  return `${head.stdout.trim()}${dirty ? ` + uncommitted changes (${dirty.split('\n').map((l) => l.slice(3)).join(', ')})` : ''}`;
}

function pick<T>(xs: T[], n: number): T[] {
  if (!(n < xs.length)) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

async function runCommit(project: Project, c: ManifestCommit, decls: Map<string, Decl[]>, indexMs: number, hunks: FileDiff[]): Promise<CommitResult> {
  const engine = semanticEngine(project);
  if (engine.provider.available) await engine.ensureEmbedded(); // the whole tree, so that no figure depends on timing
  const db = project.db;
  const rowsOf = db.prepare(`SELECT s.id, s.file_id, f.path, s.name, s.kind, s.container_id, s.container_name, s.line, s.col, s.end_line, s.end_col,
    s.name_line, s.name_col, s.exported, s.is_default, s.local, s.is_static, s.signature FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name = ?`);
  const rowOf = (d: DeclRef): SymbolRow | undefined => {
    const rows = (rowsOf.all(d.file, d.name) as SymbolRow[]).filter((r) => Math.abs(r.name_line - d.line) <= 2);
    return rows.sort((a, b) => Math.abs(a.name_line - d.line) - Math.abs(b.name_line - d.line))[0];
  };
  const lookup = (d: DeclRef): SymbolRow | undefined => {
    try {
      return symbolsByName(project, qualifiedName(d), { includeLocal: true })[0] ?? symbolsByName(project, d.name, { includeLocal: true })[0];
    } catch {
      return undefined;
    }
  };

  // BM25 over every declaration of every .ts file of the tree, full source text
  const docs: { file: string; d: Decl }[] = [];
  for (const [file, ds] of decls) for (const d of ds) docs.push({ file, d });
  const bm25 = new Bm25(docs, (x) => project.lines(x.file).slice(x.d.start - 1, x.d.end).join('\n'));
  // the agent the bench stands for has read the whole file it cites
  const wholeFile = (f: string) => new Map([[f, [[1, Number.MAX_SAFE_INTEGER] as [number, number]]]]);
  const docKey = (file: string, name: string, line: number) => `${file}\0${name}\0${line}`;

  const sets: [Set3, DeclRef[]][] = [['relevant', c.relevant], ['random', c.random], ['hard', c.hard]];
  const all = sets.flatMap(([set, ds]) => ds.map((d) => ({ set, d, row: rowOf(d) })));
  const profiles = all.map(({ d, row }) => {
    const r = row ?? lookup(d);
    if (!r) return undefined;
    const evidence = verifyCodeEvidence(`${d.file}:${d.line}`, new Set([d.file]), wholeFile(d.file), (f) => project.lines(f))?.text;
    return { name: r.name, container: r.container_name, file: r.path, signature: r.signature, evidence };
  });

  // the line an agent would cite: for changed code, a line the commit changes (the code it is about
  // to edit); for a negative, any line of it (a cheater picks the best). Both pick the line that
  // carries most of the request's words, else the definition line.
  const changedLines = (d: DeclRef): number[] => {
    const out: number[] = [];
    for (const h of hunks.find((x) => x.oldPath === d.file)?.hunks ?? []) {
      const from = h.count === 0 ? h.start : h.start, to = h.count === 0 ? h.start + 1 : h.start + h.count - 1;
      for (let l = Math.max(from, d.line); l <= Math.min(to, d.end); l++) out.push(l);
    }
    return out;
  };
  const spanLines = (d: DeclRef): number[] => Array.from({ length: Math.min(d.end - d.line + 1, 400) }, (_, k) => d.line + k);
  const bestLine = (d: DeclRef, set: Set3, want: Set<string>): number => {
    let best = d.line, most = 0;
    for (const l of set === 'relevant' ? changedLines(d) : spanLines(d)) {
      const n = identifierWords(project.lines(d.file)[l - 1] ?? '').filter((w) => want.has(w)).length;
      if (n > most) [best, most] = [l, n];
    }
    return best;
  };
  const langs: LangResult[] = [];
  const requests: [Lang, string | undefined, string | undefined][] = [['en', c.request_en, c.target_en], ['ja', c.request_ja, c.target_ja], ['zh', c.request_zh, c.target_zh]];
  for (const [lang, request, frameTarget] of requests) {
    if (!request) continue;
    // what confirm judges against: the frame's target_feature where the manifest has one (its value
    // is its quote, as the prompt asks), else the whole request (TARGET=request: always the request)
    const target = process.env.TARGET !== 'request' && frameTarget ? frameTarget : request;
    // (confirm's options: the target's own words name a symbol; a sibling file named for the words it lacks)
    const namedIn = { ...(target === request ? {} : { namedIn: [target] }), siblingOf: (file: string, missing: string[]) => siblingSaying(db, file, missing) };
    // a name the target says of another definition of it gets no credit from the name (confirm)
    const present = profiles.map((p, i) => ({ p: p && { ...p, namesAnother: targetMeansAnother(db, target, p.name, p.file, p.container) }, i })).filter((x) => x.p);
    const want = new Set(conceptsOf(request).flatMap((k) => k.words));
    const trail = await engine.scoreSymbols(target, present.map((x) => {
      const { set, d } = all[x.i]!;
      const evidence = verifyCodeEvidence(`${d.file}:${bestLine(d, set, want)}`, new Set([d.file]), wholeFile(d.file), (f) => project.lines(f))?.text;
      return { ...x.p!, evidence };
    }), namedIn);
    // a name that says more than the target is at most accepted (confirm's factCap)
    const declared = (name: string) => db.prepare('SELECT 1 FROM symbols WHERE name = ? LIMIT 1').get(name) !== undefined;
    const cap = present.map((x) => factCap(target, x.p!.name, declared));
    const capped = (rs: Awaited<ReturnType<typeof engine.scoreSymbols>>) => rs.map((r, k) => ({ ...r, score: Math.min(r.score, cap[k]!) }));
    const trailAt = new Map(present.map((x, k) => [x.i, Math.min(trail[k]!.score, cap[k]!)]));
    const withEv = capped(await engine.scoreSymbols(target, present.map((x) => x.p!), namedIn));
    const noEv = capped(await engine.scoreSymbols(target, present.map((x) => ({ ...x.p!, evidence: undefined })), namedIn));
    const scoreAt = new Map(present.map((x, k) => [x.i, { ev: withEv[k]!, noev: noEv[k]! }]));
    const hits = bm25.search(request);
    const bmRank = new Map(hits.map((h, i) => [docKey(h.item.file, h.item.d.name, h.item.d.line), i + 1]));
    // the graph leg as confirm_symbol_relevance applies it: seeds are the honest submission's own
    // symbols the words or the rank accept, the project's FACT-level best matches and its best
    // ranked declarations with a specific neighbourhood; a declaration the words do not reach is
    // accepted when it is one reference/containment step from a seed. Random and hard negatives are
    // judged against the same seeds (a cheater padding an honest submission).
    // words first; a symbol the words reject is accepted by the rank leg when its code ranks among
    // the project's best for the request
    const ranking = engine.textRanking(target);
    const textRanks = all.map(({ row }) => (row ? engine.textRankOf(target, row.path, row.name, row.name_line) ?? null : null));
    const requestScores = target === request ? undefined : await engine.scoreSymbols(request, present.map((x) => x.p!));
    const requestScoreAt = new Map(present.map((x, k) => [x.i, requestScores?.[k]?.score]));
    // (not a name that carries the code the target writes, or shares only part of it: confirm's rank leg)
    // (a target that is only code the project declares: only code that uses it)
    const codeOnly = namedCodeOnly(target, declared);
    const rankScore = textRanks.map((r, i) => {
      const row = all[i]!.row;
      return row && (extendsNamedCode(target, row.name) || sharesNamedCode(target, row.name, declared) || (codeOnly && !usesNamed(db, row.id, codeOnly))) ? 0 : rankedScore(r ?? undefined, ranking.total);
    });
    // the request names it as code outside the target feature: accepted with risk HIGH (confirm)
    const homonyms = (name: string) => (db.prepare('SELECT COUNT(*) n FROM symbols WHERE name = ?').get(name) as { n: number }).n;
    const namedScore = all.map(({ row }) => (row && requestNamesAsCode(request, row.name, row.container_name, homonyms(row.name)) ? REQUEST_NAMED_SCORE : 0));
    const seedScore = new Map<number, number>();
    all.forEach(({ set, row }, i) => {
      const sc = Math.max(scoreAt.get(i)?.ev.score ?? 0, rankScore[i]!, namedScore[i]!);
      if (set === 'relevant' && row && sc >= 0.3) seedScore.set(row.id, Math.max(seedScore.get(row.id) ?? 0, sc));
    });
    for (const [id, sc] of rankAnchors(db, ranking)) if (!codeOnly || usesNamed(db, id, codeOnly)) seedScore.set(id, Math.max(seedScore.get(id) ?? 0, sc));
    const suggestions = await engine.rank(target, { kinds: (k) => k !== 'section', budgetMs: 2000 });
    for (const x of suggestions.items.filter((y) => y.score > 0.6).slice(0, 5)) {
      if (targetMeansAnother(db, target, x.chunk.name, x.chunk.path, x.chunk.container ?? null)) continue;
      const r = (rowsOf.all(x.chunk.path, x.chunk.name) as SymbolRow[]).find((y) => y.name_line === x.chunk.name_line);
      if (r) seedScore.set(r.id, Math.max(seedScore.get(r.id) ?? 0, x.score));
    }
    // confirm links to a fixed point: a changed declaration one step from one a link accepted in the
    // same confirm is accepted too, and the link-accepted ones seed propagation (validation.ts)
    const hops = Number(process.env.GRAPH_HOPS ?? 1);
    // a seed accepted only through a link does not vouch for what it holds, and links on only the
    // way its own link ran (validation.ts graphLink)
    const chainWay = new Map<number, LinkDirection>();
    const chainDepth = new Map<number, number>();
    const linkTo = (id: number, seeds: ReadonlyMap<number, number>): { score: number; seed?: number } => {
      const ok = new Set([...seeds.keys()].filter((s) => seedScore.has(s) || (s !== id && linksOnward(db, s, chainWay.get(s), id, chainDepth.get(s)))));
      const link = linkToSeeds(db, id, ok, hops);
      if (link && link.hops > 0 && !seedScore.has(link.seed) && within(db, id, link.seed)) return { score: 0 };
      return link && link.hops > 0 ? { score: linkedScore(seeds.get(link.seed)!, link.hops), seed: link.seed } : { score: 0 };
    };
    const linkScore = (id: number, seeds: ReadonlyMap<number, number>): number => linkTo(id, seeds).score;
    const chained = new Map(seedScore);
    for (let round = 0; round < 6; round++) {
      const grown = all.flatMap(({ set, row }) => {
        if (set !== 'relevant' || !row || chained.has(row.id)) return [];
        const l = linkTo(row.id, chained);
        return l.score >= 0.3 ? [[row.id, l.score, l.seed!] as const] : [];
      });
      if (grown.length === 0) break;
      for (const [id, sc, seed] of grown) (chained.set(id, sc), chainWay.set(id, linkDirection(db, seed, id)), chainDepth.set(id, seedScore.has(seed) ? 1 : (chainDepth.get(seed) ?? 1) + 1));
    }
    const pprK = propagationCutoff(ranking.total);
    // (restarting at the seeds the words, the rank or the target reach: a link-accepted one vouches for nothing more)
    const pprTop = new Set(personalizedRank(db, seedScore).slice(0, pprK).map((x) => x.id));
    // a changed declaration the chain accepted is a seed now (hops 0 to itself): it stays accepted
    const graphLinked = (id: number): boolean => (chained.has(id) && !seedScore.has(id)) || linkScore(id, chained) >= 0.3;
    const graphLinkedOnce = (id: number): boolean => linkScore(id, seedScore) >= 0.3;
    const reqWords = new Set(words(request));
    const items: ScoredItem[] = all.map(({ set, d, row }, i) => {
      const s = scoreAt.get(i);
      const score = s?.ev.score ?? 0, scoreNoev = s?.noev.score ?? 0;
      const rank = bmRank.get(docKey(d.file, d.name, d.line)) ?? null;
      const shared = [...new Set([...words(d.name), ...words(d.container ?? '')])].filter((w) => reqWords.has(w));
      const first = lookup(d);
      return {
        set, file: d.file, symbol: qualifiedName(d), kind: d.kind, line: d.line, indexed: !!row,
        resolves_elsewhere: !!row && !!first && first.id !== row.id,
        score, score_noev: scoreNoev, legs: s?.ev.legs ?? null, bm25_rank: rank, shared,
        text_rank: textRanks[i], ranked: ranking.total, score_request: requestScoreAt.get(i),
        tiers: {
          gate_ppr: tier(score) !== 'R' ? tier(score) : rankScore[i]! >= 0.3 || namedScore[i]! > 0 || (row && (graphLinked(row.id) || pprTop.has(row.id))) ? 'A' : 'R',
          gate_trail: tier(trailAt.get(i) ?? 0) !== 'R' ? tier(trailAt.get(i) ?? 0) : rankScore[i]! >= 0.3 || (row && graphLinkedOnce(row.id)) ? 'A' : 'R',
          gate_graph: tier(score) !== 'R' ? tier(score) : rankScore[i]! >= 0.3 || (row && graphLinkedOnce(row.id)) ? 'A' : 'R',
          gate_rank: tier(score) !== 'R' ? tier(score) : rankScore[i]! >= 0.3 ? 'A' : 'R',
          gate: tier(score), gate_noev: tier(scoreNoev),
          bm25_gate: rank !== null && rank <= BM25_FACT ? 'F' : rank !== null && rank <= BM25_ACCEPT ? 'A' : 'R',
          overlap: shared.length ? 'A' : 'R',
        },
      };
    });

    // ---- ranking ----
    const rel = c.relevant;
    const isRel = (file: string, name: string, line: number) => rel.some((d) => d.file === file && d.name === name && Math.abs(d.line - line) <= 2);
    const ranksOf = (list: { file: string; name: string; line: number }[], reachable: number): Ranks => {
      const first = list.findIndex((x) => isRel(x.file, x.name, x.line));
      const top = new Set(list.slice(0, 10).filter((x) => isRel(x.file, x.name, x.line)).map((x) => `${x.file}\0${x.name}`));
      return { first: first >= 0 ? first + 1 : null, top10: top.size, relevant: rel.length, reachable };
    };
    const sem = await engine.rank(request, { kinds: (k) => k !== 'section' });
    const semList = sem.items.map((x) => ({ file: x.chunk.path, name: x.chunk.name, line: x.chunk.name_line }));
    const reachableSem = rel.filter((d) => {
      const r = rowOf(d);
      return r && chunkable({ kind: r.kind, container_name: r.container_name, line: r.line, end_line: r.end_line });
    }).length;
    let qList: { file: string; name: string; line: number }[] = [];
    try {
      qList = (await queryHybrid(project, { text: request, limit: 500 })).symbols.map((s) => ({ file: s.file, name: s.name, line: s.line }));
    } catch {
      /* no searchable words (e.g. a request in Japanese without identifiers) */
    }
    const bmList = hits.map((h) => ({ file: h.item.file, name: h.item.d.name, line: h.item.d.line }));
    langs.push({
      lang, request, target, items,
      ranks: {
        semantic: ranksOf(semList, reachableSem),
        text: ranksOf(ranking.order.map((c) => ({ file: c.path, name: c.name, line: c.name_line })), reachableSem),
        query: ranksOf(qList, rel.filter((d) => rowOf(d)).length),
        bm25: ranksOf(bmList, rel.length),
      },
    });
  }
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    repo: c.repo, split: c.split, commit: c.commit, request_en: c.request_en, index_ms: indexMs,
    files: count('SELECT COUNT(*) n FROM files'), chunks: count(`SELECT COUNT(*) n FROM chunks WHERE kind <> 'section'`),
    symbols: count('SELECT COUNT(*) n FROM symbols WHERE local = 0'), bm25_docs: bm25.size, langs,
  };
}

// ---- aggregation ----------------------------------------------------------------------------------

interface Variant { label: string; lang: Lang; subset?: Lang }
const VARIANTS: Variant[] = [
  { label: 'EN', lang: 'en' },
  { label: 'EN (JA commits)', lang: 'en', subset: 'ja' },
  { label: 'JA', lang: 'ja' },
  { label: 'EN (ZH commits)', lang: 'en', subset: 'zh' },
  { label: 'ZH', lang: 'zh' },
];

function select(results: CommitResult[], v: Variant): LangResult[] {
  return results
    .filter((r) => !v.subset || r.langs.some((l) => l.lang === v.subset))
    .map((r) => r.langs.find((l) => l.lang === v.lang))
    .filter((l): l is LangResult => !!l);
}

function gateMetrics(ls: LangResult[], s: Scorer) {
  const items = ls.flatMap((l) => l.items);
  const of = (set: Set3) => items.filter((i) => i.set === set).map((i) => i.tiers[s]);
  const rel = of('relevant'), hard = of('hard'), rand = of('random');
  const share = (xs: TierCode[], f: (t: TierCode) => boolean) => (xs.length ? xs.filter(f).length / xs.length : NaN);
  const fact = (xs: TierCode[]) => xs.filter((t) => t === 'F').length;
  const factAll = fact(rel) + fact(hard) + fact(rand);
  return {
    commits: ls.length,
    relevant: rel.length,
    hard: hard.length,
    random: rand.length,
    false_refusal: share(rel, (t) => t === 'R'),
    relevant_fact: share(rel, (t) => t === 'F'),
    hard_false_accept: share(hard, (t) => t !== 'R'),
    random_false_accept: share(rand, (t) => t !== 'R'),
    fact_precision: factAll ? fact(rel) / factAll : NaN,
    honest_passes: ls.length ? ls.filter((l) => l.items.filter((i) => i.set === 'relevant').every((i) => i.tiers[s] !== 'R')).length / ls.length : NaN,
    validation_passes: ls.length ? ls.filter(validationPasses(s)).length / ls.length : NaN,
  };
}

/**
 * The product's own rule for the honest submission (the changed declarations): VALIDATION passes
 * when the intent's minimum stand (a rejected claim is not credited, the session goes on), or all
 * of them where the commit changed fewer (an agent would add the code beside them; not measured).
 * Every commit changes code: MODIFY's minimum (IMPLEMENT's is the same).
 */
function validationPasses(s: Scorer) {
  const need = minAccepted('MODIFY');
  return (l: LangResult): boolean => {
    const rel = l.items.filter((i) => i.set === 'relevant');
    // (of those the propagation alone accepts, one counts at most: validation.ts, red team adv90)
    const byCloseness = (i: ScoredItem) => s === 'gate_ppr' && i.tiers.gate_ppr !== 'R' && i.tiers.gate_graph === 'R';
    const own = rel.filter((i) => i.tiers[s] !== 'R' && !byCloseness(i)).length;
    return own + Math.min(1, rel.filter(byCloseness).length) >= Math.min(need, rel.length);
  };
}

function rankMetrics(ls: LangResult[], sys: 'semantic' | 'text' | 'query' | 'bm25') {
  const rs = ls.map((l) => l.ranks[sys]);
  const n = rs.length || 1;
  return {
    commits: rs.length,
    mrr: rs.reduce((a, r) => a + (r.first ? 1 / r.first : 0), 0) / n,
    hit1: rs.filter((r) => r.first === 1).length / n,
    hit10: rs.filter((r) => r.first !== null && r.first <= 10).length / n,
    r10: rs.reduce((a, r) => a + r.top10 / r.relevant, 0) / n,
    reachable: rs.reduce((a, r) => a + r.reachable, 0) / (rs.reduce((a, r) => a + r.relevant, 0) || 1),
  };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  if (!fs.existsSync(MANIFEST)) {
    console.log(`skipped: ${path.relative(REPO, MANIFEST)} not found (build it with node dist/bench/relevance-build.js)`);
    return;
  }
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
  const rev = codeIntelRevision();
  console.log(`code-intel relevance bench — real commits, code-intel ${rev}, node ${process.version}, ${os.availableParallelism()} cores`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-relevance-'));
  const results: CommitResult[] = [];
  const repoRows: (string | number)[][] = [['repo', 'split', 'commits', 'relevant', 'random', 'hard', 'JA', 'ZH', 'index (median)', 'time']];
  let backend = '';
  try {
    for (const r of manifest.repos) {
      if (ONLY && !r.repo.includes(ONLY)) continue;
      const gitDir = findGitDir(r.repo);
      const commits = pick(manifest.commits.filter((c) => c.repo === r.repo), MAX);
      if (!gitDir) {
        console.log(`skipped: ${r.repo} not available locally (set RELEVANCE_REPOS to a folder with ${r.repo.replace('/', '+')}, or fetch it to /work/.mirror)`);
        continue;
      }
      const missing = commits.filter((c) => !hasCommit(gitDir, c.parent) || !hasCommit(gitDir, c.commit));
      if (missing.length) console.log(`  ${r.repo}: ${missing.length} commits not in the local copy, skipped`);
      const todo = commits.filter((c) => !missing.includes(c));
      const tr = performance.now();
      const dir = path.join(work, r.repo.replace('/', '+'));
      let project: Project | undefined;
      const declCache = new Map<string, Decl[]>();
      const indexTimes: number[] = [];
      try {
        for (const c of todo) {
          const tree = lsTree(gitDir, c.parent);
          if (FRESH || !project) {
            project?.close();
            fs.rmSync(dir, { recursive: true, force: true });
          }
          materialise(gitDir, c.parent, dir, tree);
          project ??= new Project(dir);
          const ti = performance.now();
          await project.refresh();
          indexTimes.push(performance.now() - ti);
          // declarations of every .ts file (BM25 universe), cached by blob
          const tsFiles = [...tree.keys()].filter((f) => f.endsWith('.ts') && !f.includes('node_modules/'));
          const need = [...new Set(tsFiles.map((f) => tree.get(f)!).filter((b) => !declCache.has(b)))];
          const texts = readBlobs(gitDir, need);
          for (const f of tsFiles) {
            const b = tree.get(f)!;
            if (declCache.has(b)) continue;
            let ds: Decl[] = [];
            try {
              ds = declarations(f, texts.get(b) ?? '');
            } catch {
              /* unparsable */
            }
            declCache.set(b, ds);
          }
          const decls = new Map(tsFiles.map((f) => [f, declCache.get(tree.get(f)!)!]));
          const hunks = parentHunks(gitDir, c.parent, c.commit, [...new Set(c.relevant.map((d) => d.file))]);
          results.push(await runCommit(project, c, decls, indexTimes[indexTimes.length - 1]!, hunks));
          backend ||= semanticEngine(project).backendName();
          if (FRESH) {
            project.close();
            project = undefined;
          }
        }
      } finally {
        project?.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
      const mine = results.filter((x) => x.repo === r.repo);
      const sum = (f: (c: ManifestCommit) => number) => todo.reduce((a, c) => a + f(c), 0);
      repoRows.push([
        r.repo, r.split, mine.length, sum((c) => c.relevant.length), sum((c) => c.random.length), sum((c) => c.hard.length),
        todo.filter((c) => c.request_ja).length, todo.filter((c) => c.request_zh).length,
        `${Math.round(median(indexTimes))} ms`, `${((performance.now() - tr) / 1000).toFixed(0)} s`,
      ]);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (results.length === 0) {
    console.log('no repository of the manifest is available locally: nothing measured');
    return;
  }
  heading('Data');
  console.log(table(repoRows));
  const relItems = results.flatMap((r) => r.langs[0]!.items.filter((i) => i.set === 'relevant'));
  const allItems = results.flatMap((r) => r.langs[0]!.items);
  const card = readCard();
  console.log(`  backend: ${backend}${card && backend.includes(card.name) ? ` (${card.name} v${card.version}, sha256 ${card.sha256.slice(0, 8)}…, ${STATIC_MODEL_DIR})` : ''}; vector leg in the gate: ${loadConfig(REPO).gateVector ? 'yes' : 'no'}; ${FRESH ? 'a cold index per commit' : 'one directory per repository, brought to each parent and re-indexed incrementally'}`);
  console.log(`  declarations found in code-intel's index (file, name, line ±2): relevant ${fmtPct(relItems.filter((i) => i.indexed).length / relItems.length)}, all ${fmtPct(allItems.filter((i) => i.indexed).length / allItems.length)}; ` +
    `a relevant declaration's qualified name looked up the gate's way (first row by name) names another declaration: ${fmtPct(relItems.filter((i) => i.resolves_elsewhere).length / relItems.length)}`);
  console.log(`  median per commit: ${median(results.map((r) => r.files))} files, ${median(results.map((r) => r.symbols))} symbols (query), ${median(results.map((r) => r.chunks))} chunks (semantic_search), ${median(results.map((r) => r.bm25_docs))} declarations (BM25)`);

  const splits = [...new Set(results.map((r) => r.split))].sort((a, b) => (a === 'tune' ? -1 : b === 'tune' ? 1 : 0));
  const summary: Record<string, unknown> = {};
  for (const split of splits) {
    const rs = results.filter((r) => r.split === split);
    heading(`Gate (confirm_symbol_relevance tiers) — ${split}: ${[...new Set(rs.map((r) => r.repo))].join(', ')}`);
    const framed = rs.flatMap((r) => r.langs).filter((l) => l.target !== l.request).length;
    console.log(`  judged against: the frame's target_feature for ${framed} of ${rs.flatMap((r) => r.langs).length} requests, the whole request for the rest`);
    const rows: (string | number)[][] = [['scorer', 'lang', 'commits', 'relevant', 'false refusal <0.3', 'relevant FACT', 'hard', 'hard: accepted ≥0.3', 'random: accepted ≥0.3', 'FACT precision', 'honest: all accepted', 'honest: VALIDATION passes']];
    const gs: Record<string, unknown> = {};
    for (const v of VARIANTS) {
      const ls = select(rs, v);
      if (ls.length === 0) continue;
      for (const s of SCORERS) {
        const m = gateMetrics(ls, s);
        gs[`${v.label}|${s}`] = m;
        rows.push([s === 'gate' ? SCORER_LABEL[s] : `  ${SCORER_LABEL[s]}`, v.label, m.commits, m.relevant, fmtPct(m.false_refusal), s === 'overlap' ? '—' : fmtPct(m.relevant_fact), m.hard, fmtPct(m.hard_false_accept), fmtPct(m.random_false_accept), s === 'overlap' ? '—' : fmtPct(m.fact_precision), fmtPct(m.honest_passes), fmtPct(m.validation_passes)]);
      }
    }
    console.log(table(rows));
    heading(`Ranking: the changed declarations for the request — ${split}`);
    const rrows: (string | number)[][] = [['system', 'lang', 'commits', 'MRR', 'Hit@1', 'Hit@10', 'R@10', 'reachable']];
    const rk: Record<string, unknown> = {};
    for (const v of VARIANTS) {
      const ls = select(rs, v);
      if (ls.length === 0) continue;
      for (const [sys, label] of [['semantic', `semantic_search (${backend})`], ['text', "the gate's rank leg (BM25F over chunks)"], ['query', 'query tool (names + the semantic engine, fused by rank)'], ['bm25', 'baseline: textbook BM25, full declaration text']] as const) {
        const m = rankMetrics(ls, sys);
        rk[`${v.label}|${sys}`] = m;
        rrows.push([label, v.label, m.commits, m.mrr.toFixed(3), fmtPct(m.hit1), fmtPct(m.hit10), fmtPct(m.r10), fmtPct(m.reachable)]);
      }
    }
    console.log(table(rrows));
    summary[split] = { gate: gs, ranking: rk };
  }
  console.log('  false refusal: relevant declarations scored < 0.3; hard/random accepted: negatives scored ≥ 0.3; FACT precision: relevant among all');
  console.log('  declarations > 0.6 (relevant + hard + random: depends on that mix); honest, all accepted: commits whose changed declarations');
  console.log(`  all score ≥ 0.3; honest, VALIDATION passes: the first confirm passes by the product's rule (${minAccepted('MODIFY')} of them stand, or all where the`);
  console.log('  commit changed fewer; rejected claims are not credited). R@10: share of the changed declarations in the top 10;');
  console.log('  reachable: share of them the system can return at all (semantic_search ranks chunks: no constants, variables or fields).');

  // ---- examples ----
  heading('Examples (EN, the code-intel gate as confirm_symbol_relevance: words + rank + graph + propagation)');
  const flat = results.flatMap((r) => r.langs.filter((l) => l.lang === 'en').flatMap((l) => l.items.map((i) => ({ r, i }))));
  const oncePerCommit = <T extends { r: CommitResult }>(xs: T[], n: number) => {
    const seen = new Set<string>();
    return xs.filter((x) => !seen.has(x.r.commit) && seen.add(x.r.commit)).slice(0, n);
  };
  const rejected = oncePerCommit(
    flat.filter((x) => x.i.set === 'relevant' && x.i.tiers.gate_ppr === 'R' && x.i.indexed && x.i.bm25_rank !== null && x.i.bm25_rank <= 3)
      .sort((a, b) => a.i.bm25_rank! - b.i.bm25_rank! || a.i.score - b.i.score || a.r.commit.localeCompare(b.r.commit)),
    10,
  );
  console.log('  relevant, rejected, although textbook BM25 ranks them in the top 3 of the project:');
  console.log(table([['repo', 'commit', 'request', 'declaration (changed)', 'kind', 'words', 'no ev.', 'BM25 rank'], ...rejected.map((x) => [x.r.repo, x.r.commit.slice(0, 8), x.r.request_en.slice(0, 60), `${x.i.symbol} (${x.i.file}:${x.i.line})`.slice(0, 90), x.i.kind, x.i.score.toFixed(3), x.i.score_noev.toFixed(3), x.i.bm25_rank!])]));
  const accepted = oncePerCommit(flat.filter((x) => x.i.set === 'hard' && x.i.tiers.gate_ppr !== 'R').sort((a, b) => b.i.score - a.i.score || a.r.commit.localeCompare(b.r.commit)), 10);
  console.log('  hard negatives (untouched, sharing a word), accepted:');
  console.log(table([['repo', 'commit', 'request', 'declaration (not changed)', 'shared', 'words', 'tier'], ...accepted.map((x) => [x.r.repo, x.r.commit.slice(0, 8), x.r.request_en.slice(0, 60), `${x.i.symbol} (${x.i.file}:${x.i.line})`.slice(0, 90), x.i.shared.join(','), x.i.score.toFixed(3), x.i.tiers.gate_ppr])]));

  const total = (performance.now() - t0) / 1000;
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(path.join(CACHE, 'relevance-commits.json'), JSON.stringify({ code_intel: rev, backend, fresh: FRESH, max: Number.isFinite(MAX) ? MAX : null, total_s: total, summary, commits: results }, null, 1));
  console.log(`\nwrote bench/.cache/relevance-commits.json (${total.toFixed(1)} s)`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
