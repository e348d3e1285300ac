/**
 * The project's own git history: where HEAD points, its refs (branches, tags, the stash) and its
 * index. The snapshot sees only the working tree, so a commit, a stash or a `git add` made by a
 * program the command analyser cannot read (an interpreter running git) left the change in history
 * or staged while its file was put back, and `git checkout .` or the next commit brought it back.
 * So these are watched too. Before READY every change is put back as the guard last accepted it (a
 * commit's objects stay, unreachable, until git prunes them: its id is reported). In READY a change
 * is accepted when every file it differs in may change now: a commit of explored files is the
 * agent's to make; one that carries an unexplored file is put back like the file.
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
  /** HEAD as written: `ref: refs/heads/main` or a commit id */
  head: string;
  /** refname → object id, or `->target` for a symbolic ref */
  refs: Record<string, string>;
  /** sha256 of the index's entries (mode, object, stage, path): what is staged, not the stat data git refreshes */
  index: string;
  /** the stat of HEAD, the index, packed-refs and everything under refs/ and reftable/: while it holds, nothing is read */
  stat: string;
}

/** entries under refs/ looked at for the stat; past this every event reads the refs through git */
const MAX_REF_ENTRIES = 20_000;

function statLine(abs: string, rel: string): string {
  const st = fs.lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  return st ? `${rel}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : `${rel}:-`;
}

function statOf(gitDir: string, commonDir: string): string {
  const lines = [statLine(path.join(gitDir, 'HEAD'), 'HEAD'), statLine(path.join(gitDir, 'index'), 'index'), statLine(path.join(commonDir, 'packed-refs'), 'packed-refs')];
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
      else lines.push(statLine(path.join(abs, d.name), `${rel}/${d.name}`));
    }
  };
  try {
    walk(path.join(commonDir, 'refs'), 'refs');
    walk(path.join(commonDir, 'reftable'), 'reftable');
  } catch {
    return `many:${crypto.randomUUID()}`; // never equal: read through git every time
  }
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

function indexEntries(root: string, indexFile?: string): string {
  return projectGit(root, ['ls-files', '-s', '-z'], indexFile ? { GIT_INDEX_FILE: indexFile } : {});
}

/** The project's history as it stands; undefined where the root holds no repository git can read. */
export function readHistory(root: string): GitHistory | undefined {
  if (!fs.existsSync(path.join(root, '.git'))) return undefined;
  try {
    const [gitDir, common] = projectGit(root, ['rev-parse', '--absolute-git-dir', '--git-common-dir']).split('\n');
    if (!gitDir || !common) return undefined;
    const commonDir = path.resolve(root, common);
    const stat = statOf(gitDir, commonDir);
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const refs: Record<string, string> = {};
    for (const line of projectGit(root, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(symref)']).split('\n')) {
      const [name, oid, symref] = line.split('\0');
      if (name) refs[name] = symref ? `->${symref}` : oid!;
    }
    const index = crypto.createHash('sha256').update(indexEntries(root)).digest('hex');
    return { gitDir, commonDir, head, refs, index, stat };
  } catch {
    return undefined;
  }
}

/** Nothing moved since `h` was read (no git process: the stat of what git writes through a rename). */
export function historyUnchanged(h: GitHistory): boolean {
  return statOf(h.gitDir, h.commonDir) === h.stat;
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
  if (!h.head.startsWith('ref:')) return h.head;
  const ref = h.refs[h.head.slice(4).trim()];
  return ref && !ref.startsWith('->') ? ref : undefined;
}

/** Files two commit-ish objects differ in (one missing: the other's whole tree against an empty one). */
function pathsBetween(root: string, a: string | undefined, b: string | undefined): string[] {
  if (a === b) return [];
  try {
    return projectGit(root, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', a ?? EMPTY_TREE, b ?? EMPTY_TREE]).split('\0').filter(Boolean);
  } catch {
    return ['(objects git cannot compare)'];
  }
}

/** Files whose staged entry differs between two `ls-files -s -z` listings. */
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
  const base = headCommit(accepted);
  const short = (oid: string | undefined) => (oid ? oid.slice(0, 12) : 'nothing');
  const run = (what: string, args: string[]) => {
    try {
      projectGit(root, args);
    } catch (e) {
      failed.push(`${what}: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  for (const name of [...new Set([...Object.keys(accepted.refs), ...Object.keys(now.refs)])].sort()) {
    const was = accepted.refs[name];
    const is = now.refs[name];
    if (was === is) continue;
    const sym = (v: string | undefined) => v?.startsWith('->');
    const why = sym(was) || sym(is) ? locked ?? 'a symbolic ref is git\'s configuration, not a change of files' : reasonFor(pathsBetween(root, sym(was) ? base : was ?? base, sym(is) ? base : is ?? base));
    if (!why) continue;
    if (was === undefined) run(name, ['update-ref', '--no-deref', '-d', name]);
    else if (sym(was)) run(name, ['symbolic-ref', name, was.slice(2)]);
    else run(name, ['update-ref', '--no-deref', name, was]);
    const kept = is && !sym(is) ? `; ${short(is)} stays in git's objects until git prunes it (git show ${short(is)})` : '';
    undone.push({ path: `.git/${name}`, why: `${name} ${was === undefined ? 'was made' : is === undefined ? 'was deleted' : `moved from ${short(was)} to ${short(is)}`}${kept}: ${why}` });
  }
  if (now.head !== accepted.head) {
    const why = reasonFor(pathsBetween(root, base, headCommit(now)));
    if (why) {
      try {
        fs.writeFileSync(path.join(now.gitDir, 'HEAD'), `${accepted.head}\n`);
        undone.push({ path: '.git/HEAD', why: `HEAD moved from '${accepted.head}' to '${now.head}': ${why}` });
      } catch (e) {
        failed.push(`.git/HEAD: ${(e as Error).message.split('\n')[0]}`);
      }
    }
  }
  if (now.index !== accepted.index) putBackIndex(root, now, accepted, reasonFor, undone, failed);
  if (undone.length === 0 && failed.length === 0) return { undone, failed, now };
  const after = readHistory(root);
  if (failed.length === 0 && locked && after && (after.head !== accepted.head || after.index !== accepted.index || JSON.stringify(after.refs) !== JSON.stringify(accepted.refs))) {
    failed.push('.git: the history could not be put back as it was');
  }
  return { undone, failed, now: after };
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
