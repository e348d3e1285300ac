/** Reading a local git repository (a bare mirror is enough) for the relevance benchmark. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function git(gitDir: string, args: string[], input?: string): string {
  const r = spawnSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024, input });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`git ${args.slice(0, 3).join(' ')} failed (${r.status}): ${r.stderr.trim().slice(0, 300)}`);
  return r.stdout;
}

/**
 * The git directory of `owner/name`: under RELEVANCE_REPOS (a folder holding `owner+name`
 * directories: a bare repository, a clone with .git, or a mirror with repo/), else the fetch
 * mirror /work/.mirror/owner+name/repo. undefined when neither is there.
 */
export function findGitDir(repo: string): string | undefined {
  const slug = repo.replace('/', '+');
  const roots = [process.env.RELEVANCE_REPOS, '/work/.mirror'].filter((x): x is string => !!x);
  for (const root of roots) {
    const base = path.join(root, slug);
    for (const cand of [path.join(base, 'repo'), path.join(base, '.git'), base]) {
      if (fs.existsSync(path.join(cand, 'HEAD')) && fs.existsSync(path.join(cand, 'objects'))) return cand;
    }
  }
  return undefined;
}

export function hasCommit(gitDir: string, commit: string): boolean {
  return spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`]).status === 0;
}

/** `git ls-tree -r` of a commit: path → blob id. */
export function lsTree(gitDir: string, commit: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of git(gitDir, ['ls-tree', '-r', '-z', commit]).split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(l);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** Contents of many blobs in one `git cat-file --batch`. */
export function readBlobs(gitDir: string, ids: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const r = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: ids.join('\n') + '\n', maxBuffer: 2 * 1024 * 1024 * 1024 });
  if (r.error) throw r.error;
  const buf = r.stdout;
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    const header = buf.subarray(pos, nl).toString();
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) {
      pos = nl + 1; // "<id> missing"
      continue;
    }
    const size = Number(m[3]);
    out.set(m[1]!, buf.subarray(nl + 1, nl + 1 + size).toString('utf8'));
    pos = nl + 1 + size + 1;
  }
  return out;
}

export interface Hunk {
  /** parent side: first line and count (count 0: an insertion after `start`) */
  start: number;
  count: number;
}

export interface FileDiff {
  /** path in the parent (undefined for an added file) */
  oldPath?: string;
  newPath?: string;
  hunks: Hunk[];
}

/** `git diff -U0 -M parent commit`, parsed to the parent side's hunks per file. */
export function parentHunks(gitDir: string, parent: string, commit: string, paths?: string[]): FileDiff[] {
  const text = git(gitDir, ['diff', '-U0', '-M', '--no-color', '--no-ext-diff', parent, commit, ...(paths ? ['--', ...paths] : [])]);
  const out: FileDiff[] = [];
  let cur: FileDiff | undefined;
  for (const l of text.split('\n')) {
    if (l.startsWith('diff --git ')) {
      cur = { hunks: [] };
      out.push(cur);
    } else if (!cur) continue;
    else if (l.startsWith('--- ')) cur.oldPath = l === '--- /dev/null' ? undefined : unquote(l.slice(4)).replace(/^a\//, '');
    else if (l.startsWith('+++ ')) cur.newPath = l === '+++ /dev/null' ? undefined : unquote(l.slice(4)).replace(/^b\//, '');
    else if (l.startsWith('rename from ')) cur.oldPath = l.slice('rename from '.length);
    else if (l.startsWith('rename to ')) cur.newPath = l.slice('rename to '.length);
    else if (l.startsWith('@@ ')) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
      if (m) cur.hunks.push({ start: Number(m[1]), count: m[2] === undefined ? 1 : Number(m[2]) });
    }
  }
  return out;
}

function unquote(s: string): string {
  return s.startsWith('"') ? (JSON.parse(s) as string) : s;
}
