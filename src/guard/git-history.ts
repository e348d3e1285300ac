/**
 * The project's own git history: where HEAD points, its refs (branches, tags, the stash) and its
 * index. The snapshot sees only the working tree, so a commit, a stash or a `git add` made by a
 * program the command analyser cannot read (an interpreter running git) left the change in history
 * or staged while its file was put back, and `git checkout .` or the next commit brought it back.
 * So these are watched too, with the pseudo-refs beside HEAD (MERGE_HEAD) and the HEAD of every
 * linked worktree. Before READY every change is put back as the guard last accepted it (a commit's
 * objects stay, unreachable, until git prunes them: its id is reported). In READY a change is
 * accepted when every file each commit it adds or drops carries may change now: a commit of explored
 * files is the agent's to make; one that carries an unexplored file — even changed and changed back,
 * or a commit of the user's rewritten — is put back like the file. HEAD and the pseudo-refs are
 * written back as plain files, never through a link (red team adv86g: a HEAD made a link had the
 * guard write into the branch it named, and into a file outside the project).
 * Reflogs (`.git/logs/`) are left as they are: they record, they do not decide what a checkout gives.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stateDir } from './state-dir.js';
import { EMPTY_TREE, projectGit } from './project-git.js';

export interface GitHistory {
  /** the repository's folders, absolute: its own (HEAD, index) and the common one (refs) */
  gitDir: string;
  commonDir: string;
  /** HEAD as written: `ref: refs/heads/main` or a commit id; `link:<target>` for a symbolic link (never followed) */
  head: string;
  /** the other *_HEAD files (MERGE_HEAD makes the next commit a merge): name → content, or `#<sha256>` past 64 KB */
  pseudo: Record<string, string>;
  /** refname → object id, or `->target` for a symbolic ref; a linked worktree's HEAD as `worktrees/<name>/HEAD` */
  refs: Record<string, string>;
  /** sha256 of the index's entries (mode, object, stage, path): what is staged, not the stat data git refreshes */
  index: string;
  /** the stat of HEAD, the index, packed-refs and everything under refs/ and reftable/: while it holds, nothing is read */
  stat: string;
  /** git's lock files standing (index.lock, refs/heads/main.lock …); absent in a record from an older version */
  locks?: string[];
}

/** what the fast path compares: kept apart from the refs, which a repository with thousands of tags makes large */
export type HistoryStat = Pick<GitHistory, 'gitDir' | 'commonDir' | 'stat'>;

export const statOfHistory = ({ gitDir, commonDir, stat }: GitHistory): HistoryStat => ({ gitDir, commonDir, stat });

/** entries under refs/ looked at for the stat; past this every event reads the refs through git */
const MAX_REF_ENTRIES = 20_000;

function statLine(abs: string, rel: string): string {
  const st = fs.lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  return st ? `${rel}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : `${rel}:-`;
}

/** git's own pseudo-refs beside HEAD: ORIG_HEAD, FETCH_HEAD, MERGE_HEAD, CHERRY_PICK_HEAD … */
const PSEUDO = /^[A-Z][A-Z_]*_HEAD$/;

function pseudoNames(gitDir: string): string[] {
  try {
    return fs.readdirSync(gitDir).filter((n) => PSEUDO.test(n)).sort();
  } catch {
    return [];
  }
}

/** git's lock files beside the index, HEAD and packed-refs (those under refs/ are found by the walk) */
const TOP_LOCKS = ['index.lock', 'HEAD.lock', 'packed-refs.lock'];

/**
 * The stat of what git writes (`stat`) and the lock files standing (`locks`, paths relative to the
 * common folder, or the git folder for index.lock and HEAD.lock).
 */
function statOf(gitDir: string, commonDir: string): { stat: string; locks: string[] } {
  const lines = [statLine(path.join(gitDir, 'HEAD'), 'HEAD'), statLine(path.join(gitDir, 'index'), 'index'), statLine(path.join(commonDir, 'packed-refs'), 'packed-refs'),
    ...pseudoNames(gitDir).map((n) => statLine(path.join(gitDir, n), n))];
  const locks = TOP_LOCKS.filter((n) => fs.existsSync(path.join(n === 'packed-refs.lock' ? commonDir : gitDir, n)));
  for (const n of locks) lines.push(statLine(path.join(n === 'packed-refs.lock' ? commonDir : gitDir, n), n));
  const walk = (abs: string, rel: string): void => {
    lines.push(statLine(abs, rel));
    if (lines.length > MAX_REF_ENTRIES) throw new Error('too many refs');
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      if (d.isDirectory()) walk(path.join(abs, d.name), `${rel}/${d.name}`);
      else {
        lines.push(statLine(path.join(abs, d.name), `${rel}/${d.name}`));
        if (rel.startsWith('refs') && d.name.endsWith('.lock')) locks.push(`${rel}/${d.name}`);
      }
    }
  };
  try {
    walk(path.join(commonDir, 'refs'), 'refs');
    walk(path.join(commonDir, 'reftable'), 'reftable');
    // (a linked worktree's HEAD: a commit there is in `git log --all`: red team adv86g)
    walk(path.join(commonDir, 'worktrees'), 'worktrees');
  } catch {
    return { stat: `many:${crypto.randomUUID()}`, locks }; // never equal: read through git every time
  }
  return { stat: crypto.createHash('sha256').update(lines.join('\n')).digest('hex'), locks };
}

/** The index's entries with their flags (-v: assume-unchanged, skip-worktree hide a later change from git: red team adv86g). */
function indexEntries(root: string, indexFile?: string): string {
  return projectGit(root, ['ls-files', '-s', '-v', '-z'], indexFile ? { GIT_INDEX_FILE: indexFile } : {});
}

/** A file as the guard keeps it: its text (64 KB at most) or its hash; a link by its target, never followed. */
function fileMark(abs: string): string | undefined {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (st.isSymbolicLink()) return `link:${fs.readlinkSync(abs)}`;
  if (!st.isFile()) return 'other';
  const data = fs.readFileSync(abs);
  return data.length <= 65_536 ? data.toString('utf8').trim() : `#${crypto.createHash('sha256').update(data).digest('hex')}`;
}

/** Writes a small git file as a plain file, replacing a link or a file there without writing through it. */
function writeGitFile(abs: string, mark: string): void {
  const tmp = `${abs}.code-intel-${process.pid}`;
  if (mark.startsWith('link:')) {
    fs.rmSync(tmp, { force: true });
    fs.symlinkSync(mark.slice(5), tmp);
  } else fs.writeFileSync(tmp, `${mark}\n`);
  fs.renameSync(tmp, abs);
}

/** The project's history as it stands; undefined where the root holds no repository git can read. */
export function readHistory(root: string): GitHistory | undefined {
  if (!fs.existsSync(path.join(root, '.git'))) return undefined;
  try {
    const [gitDir, common] = projectGit(root, ['rev-parse', '--absolute-git-dir', '--git-common-dir']).split('\n');
    if (!gitDir || !common) return undefined;
    const commonDir = path.resolve(root, common);
    const { stat, locks } = statOf(gitDir, commonDir);
    const head = fileMark(path.join(gitDir, 'HEAD')) ?? '';
    const pseudo: Record<string, string> = {};
    for (const n of pseudoNames(gitDir)) pseudo[n] = fileMark(path.join(gitDir, n)) ?? '';
    const refs: Record<string, string> = {};
    for (const line of projectGit(root, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(symref)']).split('\n')) {
      const [name, oid, symref] = line.split('\0');
      if (name) refs[name] = symref ? `->${symref}` : oid!;
    }
    for (const w of worktreeNames(commonDir)) {
      const m = fileMark(path.join(commonDir, 'worktrees', w, 'HEAD')) ?? '';
      refs[`worktrees/${w}/HEAD`] = m.startsWith('ref:') ? `->${m.slice(4).trim()}` : m;
    }
    const index = crypto.createHash('sha256').update(indexEntries(root)).digest('hex');
    return { gitDir, commonDir, head, pseudo, refs, index, stat, locks };
  } catch {
    return undefined;
  }
}

function worktreeNames(commonDir: string): string[] {
  try {
    return fs.readdirSync(path.join(commonDir, 'worktrees')).sort();
  } catch {
    return [];
  }
}

/** Nothing moved since `h` was read (no git process: the stat of what git writes through a rename). */
export function historyUnchanged(h: HistoryStat): boolean {
  return statOf(h.gitDir, h.commonDir).stat === h.stat;
}

/** Where the index the guard accepted last is kept: outside the project, beside the snapshot's objects. */
function keptIndex(root: string): string {
  return path.join(stateDir(), 'guard-index', crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 24));
}

/** Keeps a copy of the project's index as accepted now (`h` read from it). */
export function keepIndex(root: string, h: GitHistory): void {
  const to = keptIndex(root);
  fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
  const from = path.join(h.gitDir, 'index');
  if (fs.existsSync(from)) fs.copyFileSync(from, to);
  else fs.rmSync(to, { force: true });
}

/** The commit (or other object) HEAD names in `h`; undefined for a branch with no commit yet. */
function headCommit(h: GitHistory): string | undefined {
  if (!h.head.startsWith('ref:')) return /^[0-9a-f]{40,64}$/.test(h.head) ? h.head : undefined;
  const ref = h.refs[h.head.slice(4).trim()];
  return ref && !ref.startsWith('->') ? ref : undefined;
}

/** commits looked at per moved ref; past this the move is taken as one that carries what may not change */
const MAX_COMMITS = 5000;

/**
 * The files every commit reachable from `to` and not from `from` changes (each against its first
 * parent; a root commit against the empty tree): a pair of commits that change a file and change it
 * back carries it as much as one (red team adv86g), and a commit dropped from a branch (amended,
 * squashed, reset away) carries its files too — called both ways for a moved ref.
 */
function commitPaths(root: string, from: string | undefined, to: string | undefined): string[] {
  if (!to || from === to) return [];
  try {
    const out = projectGit(root, ['log', `-n${MAX_COMMITS + 1}`, '--format=%x01', '--name-only', '-z', '--no-renames', '--diff-merges=first-parent', to, ...(from ? [`^${from}`] : []), '--']);
    if (out.split('\x01').length - 1 > MAX_COMMITS) return [`(more than ${MAX_COMMITS} commits)`];
    return [...new Set(out.split(/[\0\x01\n]/).filter(Boolean))];
  } catch {
    return ['(objects git cannot compare)'];
  }
}

/** Files whose staged entry differs between two `ls-files -s -v -z` listings. */
function pathsStagedBetween(a: string, b: string): string[] {
  const entries = (s: string) => new Map(s.split('\0').filter(Boolean).map((e) => [e.slice(e.indexOf('\t') + 1), e] as const));
  const ma = entries(a);
  const mb = entries(b);
  const out = new Set<string>();
  for (const [p, e] of ma) if (mb.get(p) !== e) out.add(p);
  for (const p of mb.keys()) if (!ma.has(p)) out.add(p);
  return [...out];
}

export interface HistoryUndo {
  path: string;
  why: string;
}

const short = (oid: string | undefined) => (oid ? oid.slice(0, 12) : 'nothing');
const sym = (v: string | undefined) => v?.startsWith('->') === true;
const firstLine = (e: unknown) => ((e as { stderr?: string }).stderr || (e as Error).message).trim().split('\n')[0]!;

/**
 * Puts back what changed in the history since `accepted`: everything while `locked` (its reason
 * given), in READY what carries a file `forbid` names a reason for. Returns what was put back, what
 * failed, and the history to accept after.
 */
export function putBackHistory(root: string, accepted: GitHistory, locked: string | undefined, forbid: (rel: string) => string | undefined):
  { undone: HistoryUndo[]; failed: string[]; now: GitHistory | undefined } {
  const undone: HistoryUndo[] = [];
  const failed: string[] = [];
  const now = readHistory(root);
  if (!now) return { undone, failed, now }; // the repository is gone or replaced: nested-git.ts and protected.ts see to it
  // a change in READY stands when every file it carries may change; the first that may not is the reason
  const reasonFor = (files: string[]): string | undefined => {
    if (locked) return locked;
    for (const f of files) {
      const why = forbid(f);
      if (why) return `it carries '${f}': ${why}`;
    }
    return undefined;
  };
  const had = new Set(accepted.locks ?? now.locks ?? []);
  const pending = locked ? removeStaleLocks(root, now, had, locked, undone, failed) : false;
  const base = headCommit(accepted);
  // (many refs at the same commits — a script's thousand branches — cost one look each pair)
  const seen = new Map<string, string[]>();
  const pathsOfCommits = (from: string | undefined, to: string | undefined): string[] => {
    const key = `${from}..${to}`;
    if (!seen.has(key)) seen.set(key, commitPaths(root, from, to));
    return seen.get(key)!;
  };
  // HEAD first: a branch or a link it names decides what every later step reads
  if (now.head !== accepted.head) {
    const why = now.head.startsWith('link:') || now.head === 'other' ? locked ?? 'HEAD made a link or no file: it belongs to git' : locked ?? reasonFor([...pathsOfCommits(base, headCommit(now)), ...pathsOfCommits(headCommit(now), base)]);
    if (why) {
      try {
        writeGitFile(path.join(now.gitDir, 'HEAD'), accepted.head);
        undone.push({ path: '.git/HEAD', why: `HEAD was '${accepted.head}', then '${now.head}': ${why}` });
      } catch (e) {
        failed.push(`.git/HEAD: ${firstLine(e)}`);
      }
    }
  }
  // the refs in one transaction (thousands of refs made by a script cost one git process: red team adv86g)
  const batch: string[] = [];
  const moved: HistoryUndo[] = [];
  for (const name of [...new Set([...Object.keys(accepted.refs), ...Object.keys(now.refs)])].sort()) {
    const was = accepted.refs[name];
    const is = now.refs[name];
    if (was === is) continue;
    const why = sym(was) || sym(is) ? locked ?? "a symbolic ref is git's configuration, not a change of files"
      : locked ?? reasonFor([...pathsOfCommits(was ?? base, is), ...pathsOfCommits(is ?? base, was)]);
    if (!why) continue;
    const said = `${name} ${was === undefined ? `was made at ${short(is)}` : is === undefined ? `was deleted (it was at ${short(was)})` : `moved from ${short(was)} to ${short(is)}`}: ${why}`;
    if (name.startsWith('worktrees/')) {
      // a linked worktree: one the turn began without is forgotten (git prunes a worktree whose folder is gone); one moved is put back
      try {
        const dir = path.join(now.commonDir, path.dirname(name));
        if (was === undefined) fs.rmSync(dir, { recursive: true, force: true });
        else writeGitFile(path.join(dir, "HEAD"), sym(was) ? `ref: ${was.slice(2)}` : was);
        undone.push({ path: `.git/${name}`, why: said });
      } catch (e) {
        failed.push(`.git/${name}: ${firstLine(e)}`);
      }
    } else if (sym(was)) {
      try {
        projectGit(root, ['symbolic-ref', name, was!.slice(2)]);
        undone.push({ path: `.git/${name}`, why: said });
      } catch (e) {
        failed.push(`.git/${name}: ${firstLine(e)}`);
      }
    } else {
      batch.push(was === undefined ? `delete ${name}` : `update ${name} ${was}`);
      moved.push({ path: `.git/${name}`, why: said });
    }
  }
  if (batch.length > 0) {
    try {
      projectGit(root, ['update-ref', '--no-deref', '--stdin'], {}, `${batch.join('\n')}\n`);
      // (the branch HEAD names first: the one a person looks for among thousands)
      const headRef = accepted.head.startsWith('ref:') ? `.git/${accepted.head.slice(4).trim()}` : '';
      undone.push(...moved.filter((m) => m.path === headRef), ...moved.filter((m) => m.path !== headRef));
    } catch (e) {
      const why = firstLine(e);
      failed.push(`.git/refs (${batch.length} ref${batch.length === 1 ? '' : 's'}): ${why}${/\.lock\b|lock/.test(why) ? ' — a lock file git left (or another git running) stops it; it is tried again at the next event' : ''}`);
    }
  }
  // pseudo-refs before READY (in READY a merge's MERGE_HEAD makes a commit whose files the refs above judge)
  if (locked) {
    for (const n of [...new Set([...Object.keys(accepted.pseudo ?? {}), ...Object.keys(now.pseudo ?? {})])]) {
      const was = accepted.pseudo?.[n];
      const is = now.pseudo?.[n];
      if (was === is) continue;
      try {
        if (was === undefined || was.startsWith('#')) fs.rmSync(path.join(now.gitDir, n), { force: true });
        else writeGitFile(path.join(now.gitDir, n), was);
        undone.push({ path: `.git/${n}`, why: `${n} ${was === undefined ? 'was made' : 'changed'}: ${locked}` });
      } catch (e) {
        failed.push(`.git/${n}: ${firstLine(e)}`);
      }
    }
  }
  if (now.index !== accepted.index) putBackIndex(root, now, accepted, reasonFor, undone, failed);
  // a lock too young to remove keeps the fast path off, so the next event looks again
  const later = (h: GitHistory | undefined) => (h && pending ? { ...h, stat: `pending:${crypto.randomUUID()}`, locks: (h.locks ?? []).filter((l) => had.has(l)) } : h);
  if (undone.length === 0 && failed.length === 0) return { undone, failed, now: later(now) };
  const after = later(readHistory(root));
  if (failed.length === 0 && locked && after && (after.head !== accepted.head || after.index !== accepted.index || JSON.stringify(after.refs) !== JSON.stringify(accepted.refs))) {
    failed.push('.git: the history could not be put back as it was');
  }
  return { undone, failed, now: after };
}

/**
 * Whether a git process runs now (Linux's /proc; elsewhere none is seen and the age alone decides):
 * a `git commit` waiting on its editor holds index.lock for as long as the person writes.
 */
function gitRunning(root: string): boolean {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return false;
  }
  const top = path.resolve(root);
  return pids.some((pid) => {
    try {
      // (in this repository: git moves to the top of the worktree it works on, whatever -C said)
      if (!/^git(?:-|$)/.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim())) return false;
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      return cwd === top || cwd.startsWith(top + path.sep);
    } catch {
      return false;
    }
  });
}

/** a lock file no git process has written for this long is left behind (a git killed, or a script) */
const STALE_LOCK_MS = 10_000;

const lockPath = (h: GitHistory, rel: string) => path.join(rel === 'index.lock' || rel === 'HEAD.lock' ? h.gitDir : h.commonDir, rel);

/**
 * Before READY, a lock file made since the accepted state is a change like any other: once no git
 * process has written it for STALE_LOCK_MS, and none runs, it is removed (it would stop the put-back
 * of a ref, and every git command of the person's after the turn). Returns whether one waits.
 */
function removeStaleLocks(root: string, now: GitHistory, had: Set<string>, locked: string, undone: HistoryUndo[], failed: string[]): boolean {
  let pending = false;
  for (const rel of now.locks ?? []) {
    if (had.has(rel)) continue;
    const abs = lockPath(now, rel);
    try {
      const st = fs.lstatSync(abs, { throwIfNoEntry: false });
      if (!st) continue;
      if (Date.now() - st.mtimeMs < STALE_LOCK_MS || gitRunning(root)) {
        pending = true;
        continue;
      }
      fs.rmSync(abs, { force: true });
      undone.push({ path: `.git/${rel}`, why: `a lock file made in this turn that no git process has written for ${STALE_LOCK_MS / 1000} s: ${locked}` });
    } catch (e) {
      failed.push(`.git/${rel}: ${firstLine(e)}`);
    }
  }
  return pending;
}

function putBackIndex(root: string, now: GitHistory, accepted: GitHistory, reasonFor: (files: string[]) => string | undefined, undone: HistoryUndo[], failed: string[]): void {
  const copy = keptIndex(root);
  const haveCopy = fs.existsSync(copy);
  let keptEntries: string | undefined;
  try {
    keptEntries = haveCopy ? indexEntries(root, copy) : '';
  } catch {
    keptEntries = undefined;
  }
  // the copy must be the index the guard accepted: one written by another process is no state to go back to
  if (keptEntries === undefined || crypto.createHash('sha256').update(keptEntries).digest('hex') !== accepted.index) {
    failed.push('.git/index: the copy of the index the guard accepted is gone or changed, so what was staged since cannot be put back');
    return;
  }
  const why = reasonFor(pathsStagedBetween(keptEntries, indexEntries(root)));
  if (!why) return;
  try {
    const to = path.join(now.gitDir, 'index');
    if (haveCopy) fs.copyFileSync(copy, to);
    else fs.rmSync(to, { force: true });
    undone.push({ path: '.git/index', why: `what was staged changed (git add, a commit, a stash): ${why}` });
  } catch (e) {
    failed.push(`.git/index: ${(e as Error).message.split('\n')[0]}`);
  }
}
