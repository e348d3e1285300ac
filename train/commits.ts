/**
 * Change-request pairs for the code-search model (#15, #10), mined from the histories of real
 * TypeScript repositories the benchmarks never measure:
 *
 *   request = the conventional-commit subject without `type(scope):` and issue references
 *             (relevance-build's requestOf and NOT_A_REQUEST filter)
 *   code    = the declarations of the parent tree the commit changes (1..MAX_CHANGED of them), read
 *             by code-intel's own extractor and chunker (extractFile + chunksOfCode), so a pair's
 *             code side has exactly the fields of a doc pair (train/pairs.ts), comments stripped
 *   hard    = up to N_HARD declarations of the same repository (changed by another selected commit,
 *             in a file this commit does not touch) whose name or container shares a word with the
 *             request: the bench's "hard" negatives, the code the gate must tell apart
 *
 * The selection is recorded in train/commits.json (repository, head, commit ids: no code); a run
 * with that file present mines exactly those commits again (same pairs), `--reselect` draws a new
 * selection from each repository's head with the fixed seed. Output: DIR/{train,valid}.jsonl, one
 * commit per line (CommitPair), valid = the repositories marked `valid` (choosing epochs and mixes).
 *
 *   node dist/train/commits.js [--out train/.cache/commits] [--reselect [--per-repo 800]]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunksOfCode, type NewChunk } from '../src/embeddings/chunks.js';
import { extractFile } from '../src/index/extract.js';
import { languageFor } from '../src/index/languages.js';
import { words } from '../bench/lib/bm25.js';
import { isSourceTs } from '../bench/lib/decls.js';
import { findGitDir, git, parentHunks } from '../bench/lib/git.js';
import { prng, shuffle } from '../bench/lib/util.js';
import { NOT_A_REQUEST, readLog, requestOf, seedOf } from '../bench/relevance-build.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const COMMITS_FILE = [path.join(REPO, 'train', 'commits.json'), path.join(path.dirname(fileURLToPath(import.meta.url)), 'commits.json')].find((f) => fs.existsSync(f)) ?? path.join(REPO, 'train', 'commits.json');

/** Training repositories (none of them measured by a benchmark; see NEVER_TRAIN). */
export const COMMIT_REPOS: { repo: string; split: 'train' | 'valid' }[] = [
  { repo: 'ionic-team/stencil', split: 'train' },
  { repo: 'mikro-orm/mikro-orm', split: 'train' },
  { repo: 'pnpm/pnpm', split: 'train' },
  { repo: 'prisma/prisma', split: 'train' },
  { repo: 'typeorm/typeorm', split: 'train' },
  { repo: 'typescript-eslint/typescript-eslint', split: 'train' },
  { repo: 'unjs/ofetch', split: 'train' },
  { repo: 'unjs/unstorage', split: 'train' },
  { repo: 'trpc/trpc', split: 'valid' },
  { repo: 'shikijs/shiki', split: 'valid' },
];

/**
 * Never mined: the relevance bench's tune and eval repositories, nuxt (nitro grew out of it), the
 * packages other benchmarks measure and the held-out histories (test/train-manifest.test.ts).
 */
export const NEVER_TRAIN = ['vuejs/pinia', 'vuejs/core', 'unjs/nitro', 'nuxt/nuxt', 'mobxjs/mobx', 'honojs/hono', 'tanstack/query', 'reduxjs/immer', 'reactivex/rxjs', 'effect-ts/effect', 'colinhacks/zod'];

const SEED = 20261126;
const MAX_TS_FILES = 6;
const MAX_CHANGED = 6;
const N_HARD = 4;

export interface CodeSide { kind: string; name: string; container: string | null; path: string; signature: string; body: string }
export interface CommitPair {
  pkg: string;
  commit: string;
  query: string;
  positives: CodeSide[];
  hard: CodeSide[];
}
export interface CommitManifest {
  description: string;
  seed: number;
  max_changed: number;
  repos: { repo: string; split: 'train' | 'valid'; head: string; candidates: number; examined: number; selected: number }[];
  commits: Record<string, string[]>;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function show(gitDir: string, spec: string): string | undefined {
  const r = spawnSync('git', ['--git-dir', gitDir, 'show', spec], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return r.status === 0 ? r.stdout : undefined;
}

/** The chunks (code-intel's own extractor and chunker) of one file's text. */
async function chunksOf(file: string, text: string): Promise<NewChunk[]> {
  const row = languageFor(file);
  if (!row) return [];
  const facts = await extractFile(row, text);
  const syms = facts.symbols.filter((s) => !s.local).map((s) => ({
    name: s.name, kind: s.kind, container_name: s.container !== null ? facts.symbols[s.container]?.name ?? null : null,
    line: s.line, col: s.column, end_line: s.endLine, end_col: s.endColumn, name_line: s.nameLine, signature: s.signature,
  }));
  return chunksOfCode(file, text.split("\n"), syms, row.id);
}

const innermost = (cs: NewChunk[], from: number, to: number) => {
  let best: NewChunk | undefined;
  for (const c of cs) if (c.start_line <= from && c.end_line >= to && (!best || c.end_line - c.start_line < best.end_line - best.start_line)) best = c;
  return best;
};

const side = (c: NewChunk): CodeSide => ({ kind: c.kind, name: c.name, container: c.container, path: c.path, signature: c.signature, body: c.body });

/** The changed chunks of one commit (parent side), or undefined when it does not qualify. */
async function mineCommit(gitDir: string, commit: string, parent: string, tsPaths: string[]): Promise<{ positives: CodeSide[]; touched: string[] } | undefined> {
  let diffs;
  try {
    diffs = parentHunks(gitDir, parent, commit, tsPaths).filter((d) => d.oldPath && isSourceTs(d.oldPath));
  } catch {
    return undefined; // a blob the mirror lacks
  }
  const hit = new Map<string, CodeSide>();
  for (const d of diffs) {
    const text = show(gitDir, `${parent}:${d.oldPath}`);
    if (text === undefined || text.length > 600_000) continue;
    let cs: NewChunk[];
    try {
      cs = await chunksOf(d.oldPath!, text);
    } catch {
      continue;
    }
    for (const h of d.hunks) {
      // an insertion counts for the declaration around it; a changed line for the innermost one holding it
      const found = h.count === 0 ? [innermost(cs, h.start, h.start + 1)] : Array.from({ length: Math.min(h.count, 400) }, (_, k) => innermost(cs, h.start + k, h.start + k));
      for (const c of found) if (c) hit.set(`${c.path}\0${c.container ?? ''}.${c.name}`, side(c));
    }
  }
  if (hit.size === 0 || hit.size > MAX_CHANGED) return undefined;
  return { positives: [...hit.values()], touched: tsPaths };
}

function candidates(gitDir: string, head: string) {
  return readLog(gitDir, head, false).filter((e) => {
    if (e.parents.length !== 1 || /revert/i.test(e.subject) || NOT_A_REQUEST.test(e.subject)) return false;
    const req = requestOf(e.subject);
    if (!req || req.split(/\s+/).length < 3 || words(req).length < 2) return false;
    const ts = e.files.filter((f) => f.paths.some((p) => p.endsWith('.ts')));
    return ts.length >= 1 && ts.length <= MAX_TS_FILES && ts.some((f) => f.status[0] !== 'A' && isSourceTs(f.paths[0]!));
  });
}

/** Hard negatives: chunks other selected commits changed, in files this one does not touch, sharing a request word. */
function addHard(pairs: (CommitPair & { touched: string[] })[]): void {
  for (const p of pairs) {
    const want = new Set(words(p.query));
    const mine = new Set(p.positives.map((x) => `${x.container ?? ''}.${x.name}`));
    const touched = new Set(p.touched);
    const seen = new Set<string>();
    const pool: CodeSide[] = [];
    for (const o of pairs) {
      if (o === p) continue;
      for (const c of o.positives) {
        const q = `${c.container ?? ''}.${c.name}`;
        if (mine.has(q) || touched.has(c.path) || seen.has(q)) continue;
        if (![...words(c.name), ...words(c.container ?? '')].some((w) => want.has(w))) continue;
        seen.add(q);
        pool.push(c);
      }
    }
    p.hard = shuffle(pool, prng(seedOf(`${SEED}:hard:${p.commit}`))).slice(0, N_HARD);
  }
}

async function main(): Promise<void> {
  const out = path.resolve(arg('--out') ?? path.join(REPO, 'train', '.cache', 'commits'));
  const perRepo = Number(arg('--per-repo') ?? 800);
  const reselect = process.argv.includes('--reselect') || !fs.existsSync(COMMITS_FILE);
  const old = reselect ? undefined : (JSON.parse(fs.readFileSync(COMMITS_FILE, 'utf8')) as CommitManifest);
  const manifest: CommitManifest = {
    description: 'Change-request pairs for the code-search model (train/commits.ts): request = conventional-commit subject without type(scope); code = the declarations of the parent tree the commit changes (1..max_changed). Commit ids only, no code.',
    seed: SEED, max_changed: MAX_CHANGED, repos: [], commits: {},
  };
  fs.mkdirSync(out, { recursive: true });
  const lines = { train: [] as string[], valid: [] as string[] };
  for (const { repo, split } of COMMIT_REPOS) {
    const t0 = performance.now();
    const gitDir = findGitDir(repo);
    const prev = old?.repos.find((r) => r.repo === repo);
    if (!gitDir) {
      console.error(`skipped: ${repo} not available locally (fetch it to /work/.mirror or set RELEVANCE_REPOS)`);
      continue;
    }
    const head = prev?.head ?? git(gitDir, ['rev-parse', 'HEAD']).trim();
    const cands = candidates(gitDir, head);
    const byId = new Map(cands.map((e) => [e.commit, e]));
    const order = old ? (old.commits[repo] ?? []).map((id) => byId.get(id)).filter((e) => !!e) : shuffle(cands, prng(seedOf(`${SEED}:${repo}`)));
    const pairs: (CommitPair & { touched: string[] })[] = [];
    let examined = 0;
    for (const e of order) {
      if (!old && pairs.length >= perRepo) break; // a recorded selection is mined whole
      examined++;
      const tsPaths = [...new Set(e.files.filter((f) => f.paths.some((p) => p.endsWith('.ts'))).flatMap((f) => f.paths))];
      const r = await mineCommit(gitDir, e.commit, e.parents[0]!, tsPaths);
      if (r) pairs.push({ pkg: repo, commit: e.commit, query: requestOf(e.subject)!, positives: r.positives, hard: [], touched: r.touched });
    }
    addHard(pairs);
    manifest.repos.push({ repo, split, head, candidates: cands.length, examined, selected: pairs.length });
    manifest.commits[repo] = pairs.map((p) => p.commit);
    for (const { touched: _t, ...p } of pairs) lines[split].push(JSON.stringify(p));
    const pos = pairs.reduce((s, p) => s + p.positives.length, 0);
    console.error(`${repo} (${split}) @ ${head.slice(0, 10)}: ${cands.length} candidates, ${examined} examined, ${pairs.length} selected, ${pos} changed declarations, ${pairs.filter((p) => p.hard.length).length} with hard negatives (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  for (const s of ['train', 'valid'] as const) fs.writeFileSync(path.join(out, `${s}.jsonl`), lines[s].join('\n') + '\n');
  if (reselect) fs.writeFileSync(COMMITS_FILE, JSON.stringify(manifest, null, 1) + '\n');
  console.error(`commit pairs: train ${lines.train.length}, valid ${lines.valid.length} → ${out}${reselect ? `; selection written to ${path.relative(REPO, COMMITS_FILE)}` : ''}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
