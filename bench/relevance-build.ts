/**
 * Builds bench/data/relevance-commits.json, the manifest of the relevance benchmark
 * (bench/relevance-commits.ts), from the history of real TypeScript repositories. Run by hand:
 *
 *   npm run build && node dist/bench/relevance-build.js
 *
 * It needs the repositories locally (see findGitDir: RELEVANCE_REPOS or /work/.mirror). For each
 * repository, the non-merge commits up to the recorded head whose subject is a conventional
 * `feat|fix|perf|refactor(scope)?: …`, that touch 1–6 .ts files, at least one of them a source
 * file (not a test, doc, playground or .d.ts) that exists in the parent, are shuffled with a seeded
 * PRNG and taken in that order while they qualify:
 *   request   the subject without `type(scope):` and trailing issue references;
 *   relevant  the innermost declarations (bench/lib/decls.ts) of the parent tree whose span holds a
 *             line the commit changes or removes (`git diff -U0`, parent side; an insertion counts
 *             for the declaration around it), in source files; 1..MAX_RELEVANT of them;
 *   random    20 declarations of source files the commit does not touch (seeded);
 *   hard      up to 20 declarations of untouched source files whose name or container shares a
 *             word with the request (identifier words, lower-cased, stop words removed; seeded).
 * Japanese and Chinese versions of requests (request_ja / request_zh) are written by hand in the
 * manifest; a rebuild keeps them (by repo and commit), and so does it the target_feature of each
 * (target_en / target_ja / target_zh: the few words of the request naming its subject, as an agent
 * sets the slot from the request alone before exploring). The head of each repository is kept from
 * the previous manifest so that a rebuild gives the same selection (RELEVANCE_NEW_HEAD=1 takes
 * the repository's current HEAD instead).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { words } from './lib/bm25.js';
import { type Decl, declarations, innermost, innermostAround, isSourceTs, qualifiedName } from './lib/decls.js';
import { findGitDir, git, lsTree, parentHunks, readBlobs } from './lib/git.js';
import { prng, shuffle } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MANIFEST = path.join(REPO, 'bench', 'data', 'relevance-commits.json');
export const REPOS: { repo: string; split: 'tune' | 'eval' }[] = [
  { repo: 'vuejs/pinia', split: 'tune' },
  { repo: 'vuejs/core', split: 'eval' },
  { repo: 'unjs/nitro', split: 'eval' },
];
const SEED = 20250611;
const PER_REPO = Number(process.env.RELEVANCE_PER_REPO ?? 60);
const MAX_TS_FILES = 6;
const MAX_RELEVANT = 20;
const N_RANDOM = 20;
const N_HARD = 20;
export const SUBJECT = /^(feat|fix|perf|refactor)(\([^)]*\))?!?:\s*(.+)$/;
/** subjects about the change's form, not about what the code does */
export const NOT_A_REQUEST = /\b(typos?|lint(ing)?|eslint|prettier|format(ting)?|wip|initial|bump|release|version|merge)\b/i;

export interface DeclRef {
  file: string;
  name: string;
  container: string | null;
  line: number;
  kind: string;
  end: number;
  /** hard negatives: the words shared with the request */
  shared?: string[];
}

export interface ManifestCommit {
  repo: string;
  split: 'tune' | 'eval';
  commit: string;
  parent: string;
  date: string;
  type: string;
  subject: string;
  request_en: string;
  request_ja?: string;
  request_zh?: string;
  /** the QueryFrame's target_feature for each request: a span of it, written from the request alone */
  target_en?: string;
  target_ja?: string;
  target_zh?: string;
  relevant: DeclRef[];
  random: DeclRef[];
  hard: DeclRef[];
}

export interface Manifest {
  description: string;
  seed: number;
  repos: { repo: string; split: 'tune' | 'eval'; head: string; candidates: number; examined: number; selected: number }[];
  commits: ManifestCommit[];
}

/** The request a user would have typed: the subject without its type, scope and issue references. */
export function requestOf(subject: string): string | undefined {
  const m = SUBJECT.exec(subject.trim());
  if (!m) return undefined;
  let r = m[3]!.trim();
  // `feat: feat(types): …`
  r = r.replace(/^(feat|fix|perf|refactor|chore|types)(\([^)]*\))?!?:\s*/, '');
  for (let prev = ''; prev !== r; ) {
    prev = r;
    r = r
      .replace(/\s*\((?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|ref|see)\s+)?(?:[\w-]+\/[\w.-]+)?#\d+(?:\s*,\s*(?:[\w-]+\/[\w.-]+)?#\d+)*\)\s*$/i, '')
      .replace(/[\s,;]*(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#\d+\s*$/i, '')
      .replace(/\s*#\d+\s*$/, '')
      .replace(/\s*\[(skip ci|ci skip)\]\s*$/i, '')
      .trim();
  }
  return r;
}

export function seedOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const ref = (file: string, d: Decl, shared?: string[]): DeclRef => ({ file, name: d.name, container: d.container, line: d.line, kind: d.kind, end: d.end, ...(shared ? { shared } : {}) });

export interface LogEntry { commit: string; parents: string[]; time: number; subject: string; files: { status: string; paths: string[] }[] }

/** renames = false: no rename detection (a mirror whose largest blobs are absent cannot read them) */
export function readLog(gitDir: string, head: string, renames = true): LogEntry[] {
  const text = git(gitDir, ['log', '--no-merges', renames ? '-M' : '--no-renames', '--name-status', '--format=%x00%H%x09%P%x09%ct%x09%s', head]);
  const out: LogEntry[] = [];
  for (const block of text.split('\0')) {
    if (!block.trim()) continue;
    const [header, ...rest] = block.split('\n');
    const [commit, parents, time, ...subj] = header!.split('\t');
    const files = rest.filter((l) => l.trim()).map((l) => {
      const [status, ...paths] = l.split('\t');
      return { status: status!, paths };
    });
    out.push({ commit: commit!, parents: parents ? parents.split(' ') : [], time: Number(time), subject: subj.join('\t'), files });
  }
  return out;
}

class DeclCache {
  private byBlob = new Map<string, Decl[]>();
  constructor(private gitDir: string) {}
  /** Declarations of the given files of a tree (path → blob). */
  of(tree: Map<string, string>, files: string[]): Map<string, Decl[]> {
    const missing = [...new Set(files.map((f) => tree.get(f)!).filter((b) => b && !this.byBlob.has(b)))];
    const texts = readBlobs(this.gitDir, missing);
    for (const f of files) {
      const b = tree.get(f);
      if (b && !this.byBlob.has(b)) {
        let ds: Decl[] = [];
        try {
          ds = declarations(f, texts.get(b) ?? '');
        } catch {
          /* unparsable: no declarations */
        }
        this.byBlob.set(b, ds);
      }
    }
    const out = new Map<string, Decl[]>();
    for (const f of files) out.set(f, this.byBlob.get(tree.get(f) ?? '') ?? []);
    return out;
  }
}

function buildRepo(repo: string, split: 'tune' | 'eval', head: string, gitDir: string, keep: Map<string, ManifestCommit>) {
  const log = readLog(gitDir, head);
  const candidates = log.filter((e) => {
    if (e.parents.length !== 1 || /revert/i.test(e.subject) || NOT_A_REQUEST.test(e.subject)) return false;
    const req = requestOf(e.subject);
    if (!req || req.split(/\s+/).length < 3 || words(req).length < 2) return false;
    const ts = e.files.filter((f) => f.paths.some((p) => p.endsWith('.ts')));
    if (ts.length < 1 || ts.length > MAX_TS_FILES) return false;
    // a source file with a parent side: modified, renamed or deleted
    return ts.some((f) => f.status[0] !== 'A' && isSourceTs(f.paths[0]!));
  });
  const order = shuffle(candidates, prng(seedOf(`${SEED}:${repo}`)));
  const cache = new DeclCache(gitDir);
  const selected: ManifestCommit[] = [];
  let examined = 0;
  for (const e of order) {
    if (selected.length >= PER_REPO) break;
    examined++;
    const parent = e.parents[0]!;
    const tree = lsTree(gitDir, parent);
    const tsPaths = [...new Set(e.files.filter((f) => f.paths.some((p) => p.endsWith('.ts'))).flatMap((f) => f.paths))];
    const diffs = parentHunks(gitDir, parent, e.commit, tsPaths).filter((d) => d.oldPath && isSourceTs(d.oldPath) && tree.has(d.oldPath));
    const decls = cache.of(tree, diffs.map((d) => d.oldPath!));
    const relevant = new Map<string, DeclRef>();
    for (const d of diffs) {
      const ds = decls.get(d.oldPath!)!;
      const hit = (x: Decl | undefined) => {
        if (!x) return;
        const k = `${d.oldPath}\0${qualifiedName(x)}`;
        const prev = relevant.get(k);
        if (!prev || x.line < prev.line) relevant.set(k, ref(d.oldPath!, x));
      };
      for (const h of d.hunks) {
        if (h.count === 0) hit(innermostAround(ds, h.start));
        else for (let l = h.start; l < h.start + h.count; l++) hit(innermost(ds, l));
      }
    }
    if (relevant.size === 0 || relevant.size > MAX_RELEVANT) continue;
    const request = requestOf(e.subject)!;
    // negatives: declarations of source files the commit does not touch at all
    const touched = new Set(e.files.flatMap((f) => f.paths));
    const untouched = [...tree.keys()].filter((f) => isSourceTs(f) && !touched.has(f));
    const all = cache.of(tree, untouched);
    const relNames = new Set([...relevant.values()].map((r) => r.name));
    const pool: DeclRef[] = [];
    // one declaration per qualified name (overloads, or the same helper in every preset, count once)
    const seen = new Set<string>();
    for (const [file, ds] of all) {
      for (const d of ds) {
        if (relNames.has(d.name) || seen.has(qualifiedName(d))) continue;
        seen.add(qualifiedName(d));
        pool.push(ref(file, d));
      }
    }
    const rand = prng(seedOf(`${SEED}:${e.commit}`));
    const random = shuffle(pool, rand).slice(0, N_RANDOM);
    const reqWords = new Set(words(request));
    const hardPool: DeclRef[] = [];
    for (const r of pool) {
      const shared = [...new Set([...words(r.name), ...words(r.container ?? '')])].filter((w) => reqWords.has(w));
      if (shared.length) hardPool.push({ ...r, shared });
    }
    const hard = shuffle(hardPool, rand).slice(0, N_HARD);
    const type = SUBJECT.exec(e.subject)![1]!;
    const prev = keep.get(`${repo}@${e.commit}`);
    const order2 = (a: DeclRef, b: DeclRef) => a.file.localeCompare(b.file) || a.line - b.line;
    selected.push({
      repo, split, commit: e.commit, parent, date: new Date(e.time * 1000).toISOString().slice(0, 10), type, subject: e.subject,
      request_en: request,
      ...(prev?.request_ja ? { request_ja: prev.request_ja } : {}),
      ...(prev?.request_zh ? { request_zh: prev.request_zh } : {}),
      ...(prev?.target_en && prev.request_en === request ? { target_en: prev.target_en } : {}),
      ...(prev?.target_ja ? { target_ja: prev.target_ja } : {}),
      ...(prev?.target_zh ? { target_zh: prev.target_zh } : {}),
      relevant: [...relevant.values()].sort(order2), random: random.sort(order2), hard: hard.sort(order2),
    });
  }
  selected.sort((a, b) => a.date.localeCompare(b.date) || a.commit.localeCompare(b.commit));
  return { candidates: candidates.length, examined, selected };
}

/** JSON with one line per declaration, so that the manifest diffs well and stays readable. */
function format(m: Manifest): string {
  const one = (x: unknown) => JSON.stringify(x);
  const decls = (ds: DeclRef[]) => (ds.length ? `[\n${ds.map((d) => `        ${one(d)}`).join(',\n')}\n      ]` : '[]');
  const commit = (c: ManifestCommit) => {
    const fields = Object.entries(c).map(([k, v]) => `      ${one(k)}: ${Array.isArray(v) ? decls(v as DeclRef[]) : one(v)}`);
    return `    {\n${fields.join(',\n')}\n    }`;
  };
  return `{\n  "description": ${one(m.description)},\n  "seed": ${m.seed},\n  "repos": [\n${m.repos.map((r) => `    ${one(r)}`).join(',\n')}\n  ],\n  "commits": [\n${m.commits.map(commit).join(',\n')}\n  ]\n}\n`;
}

function main(): void {
  const old: Manifest | undefined = fs.existsSync(MANIFEST) ? (JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest) : undefined;
  const keep = new Map((old?.commits ?? []).map((c) => [`${c.repo}@${c.commit}`, c]));
  const manifest: Manifest = {
    description:
      'Relevance benchmark (bench/relevance-commits.ts): real commits; request = the conventional-commit subject without type(scope); relevant = declarations of the parent tree the commit changes; random/hard = declarations of untouched files (hard: sharing a word with the request). Built by bench/relevance-build.ts; request_ja/request_zh written by hand; target_en/target_ja/target_zh: the target_feature an agent would set from the request alone (a span of it naming its subject), written by a helper given only the requests and the /code prompt\'s rule for the slot.',
    seed: SEED,
    repos: [],
    commits: [],
  };
  for (const { repo, split } of REPOS) {
    const gitDir = findGitDir(repo);
    const prevHead = old?.repos.find((r) => r.repo === repo)?.head;
    if (!gitDir) {
      console.log(`skipped: ${repo} not available locally (fetch it, or set RELEVANCE_REPOS); keeping its previous entries`);
      if (prevHead) {
        manifest.repos.push(old!.repos.find((r) => r.repo === repo)!);
        manifest.commits.push(...old!.commits.filter((c) => c.repo === repo));
      }
      continue;
    }
    const head = process.env.RELEVANCE_NEW_HEAD || !prevHead ? git(gitDir, ['rev-parse', 'HEAD']).trim() : prevHead;
    const t0 = performance.now();
    const r = buildRepo(repo, split, head, gitDir, keep);
    manifest.repos.push({ repo, split, head, candidates: r.candidates, examined: r.examined, selected: r.selected.length });
    manifest.commits.push(...r.selected);
    const rel = r.selected.reduce((s, c) => s + c.relevant.length, 0);
    const hard = r.selected.reduce((s, c) => s + c.hard.length, 0);
    console.log(`${repo} (${split}) @ ${head.slice(0, 10)}: ${r.candidates} candidate commits, ${r.examined} examined, ${r.selected.length} selected; ${rel} relevant, ${hard} hard negatives (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const lost = [...keep.values()].filter((c) => (c.request_ja || c.request_zh) && !manifest.commits.some((m) => m.repo === c.repo && m.commit === c.commit));
  if (lost.length) console.log(`warning: ${lost.length} hand-written translations belong to commits no longer selected: ${lost.map((c) => c.commit.slice(0, 10)).join(', ')}`);
  fs.mkdirSync(path.dirname(MANIFEST), { recursive: true });
  fs.writeFileSync(MANIFEST, format(manifest));
  console.log(`wrote ${path.relative(REPO, MANIFEST)}: ${manifest.commits.length} commits`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
