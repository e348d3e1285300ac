import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { gitExcludePatterns } from '../util/git-excludes.js';

/** Directories never worth indexing; a project's .gitignore adds to these. */
export const DEFAULT_IGNORES = [
  '.git/', 'node_modules/', '.code-intel/', '.hg/', '.svn/',
  // build output only at the top: a `src/build/` folder is often real source
  '/dist/', '/build/', '/out/', '/coverage/', '.next/', '.nuxt/', '.turbo/', '.cache/', '.parcel-cache/',
  '__pycache__/', '.venv/', 'venv/', 'target/', '.idea/', '.vscode/',
  '*.min.js', '*.min.css', '*.map', '*.lock', 'package-lock.json',
];

export const MAX_FILE_BYTES = 1024 * 1024;

export interface WalkedFile {
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: WalkedFile[];
  /** files passed over, with the reason (too large, unreadable; a directory ends with /); binaries are found later, when read */
  skipped: { file: string; reason: string }[];
}

interface Rules {
  base: string; // directory (relative, '' for root) the rules apply below
  ig: Ignore;
}

/**
 * Lists the project's files (relative, `/`-separated), honouring nested .gitignore files, git's
 * exclude files and the defaults. Only stats files: reading and hashing happen where something changed.
 */
export function walkProject(root: string, extraIgnores: string[] = []): WalkResult {
  const files: WalkedFile[] = [];
  const skipped: WalkResult['skipped'] = [];
  const base = ignore().add(DEFAULT_IGNORES).add(extraIgnores);
  // what git ignores through its exclude files too: the write guard lets an agent write there, so
  // nothing there may reach the index (and the graph relevance is judged by) — unless git tracks it:
  // then it is the project's, as git and the guard hold (a global `build` rule and a tracked src/build/)
  const excludes = ignore().add(gitExcludePatterns(root));
  const excluded: { rel: string; isDir: boolean }[] = [];
  const visit = (dirRel: string, rules: Rules[]) => {
    const dirAbs = path.join(root, dirRel);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dirAbs, { withFileTypes: true });
    } catch (e) {
      // said in the index summary and by doctor: its files are missing from every answer
      skipped.push({ file: dirRel ? `${dirRel}/` : './', reason: `unreadable directory: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
      return;
    }
    const gi = entries.find((e) => e.name === '.gitignore' && e.isFile());
    if (gi) {
      try {
        rules = [...rules, { base: dirRel, ig: ignore().add(fs.readFileSync(path.join(dirAbs, '.gitignore'), 'utf8')) }];
      } catch {
        /* unreadable .gitignore: keep the rules we have */
      }
    }
    const ignored = (rel: string, isDir: boolean) =>
      rules.some((r) => {
        const sub = r.base ? rel.slice(r.base.length + 1) : rel;
        return sub !== '' && r.ig.ignores(isDir ? sub + '/' : sub);
      });
    for (const e of entries) {
      const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (ignored(rel, true)) continue;
        if (excludes.ignores(rel + '/')) excluded.push({ rel, isDir: true });
        else visit(rel, rules);
      } else if (e.isFile()) {
        if (ignored(rel, false)) continue;
        if (excludes.ignores(rel)) excluded.push({ rel, isDir: false });
        else addFile(rel);
      }
      // symlinks are not followed: they may point outside the project
    }
  };
  const addFile = (rel: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(path.join(root, rel));
    } catch (e) {
      skipped.push({ file: rel, reason: `unreadable: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
      return;
    }
    if (!st.isFile()) return;
    if (st.size > MAX_FILE_BYTES) {
      skipped.push({ file: rel, reason: `larger than ${MAX_FILE_BYTES / 1024} KiB` });
      return;
    }
    files.push({ rel, size: st.size, mtimeMs: st.mtimeMs });
  };
  visit('', [{ base: '', ig: base }]);
  for (const rel of trackedUnder(root, excluded)) if (!base.ignores(rel)) addFile(rel);
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, skipped };
}

/** the last answer of `git ls-files` per project, kept while git's index file is unchanged (a walk runs on every refresh) */
const trackedCache = new Map<string, { key: string; files: string[] }>();

/** The files git tracks at or under the given paths (none outside a repository, or when git cannot answer). */
function trackedUnder(root: string, paths: { rel: string; isDir: boolean }[]): string[] {
  if (paths.length === 0) return [];
  let indexMtime = 0;
  try {
    indexMtime = fs.statSync(path.join(root, '.git', 'index')).mtimeMs;
  } catch {
    return []; // no repository here (or a worktree's gitfile: left as excluded)
  }
  const specs = paths.slice(0, 1000).map((p) => `:(literal)${p.rel}`);
  const key = `${indexMtime}\0${specs.join('\0')}`;
  const hit = trackedCache.get(root);
  if (hit?.key === key) return hit.files;
  let out: string[] = [];
  try {
    out = execFileSync('git', ['-C', root, 'ls-files', '-z', '--cached', '--', ...specs], { encoding: 'utf8', timeout: 5000, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0').filter(Boolean);
  } catch {
    out = [];
  }
  trackedCache.set(root, { key, files: out });
  return out;
}

/** True when the buffer looks binary (a NUL byte in the first 8 KiB). */
export function looksBinary(buf: Buffer): boolean {
  const n = Math.min(buf.length, 8192);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}
