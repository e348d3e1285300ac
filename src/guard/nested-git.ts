/**
 * `.git` entries below the project's root. git never lists one, so the snapshot cannot see a `.git`
 * file or folder written into a folder whose files the guard tracks: and one there makes every git
 * command run in that folder (the person's, their editor's, their shell prompt's) use the repository
 * it names, with that repository's config and hooks (`core.fsmonitor` runs a command). A gitfile
 * naming a repository that does not exist yet is as bad: one made later outside the project fills
 * it. So they are watched here: every folder of the project (but `node_modules/`, the guard's, the
 * root's `.git` and folders git ignores) with its change time, which changes whenever an entry is
 * added or removed and which no process can set back; only a folder whose change time moved is
 * listed again. A `.git` that was not there when the turn began, or a gitfile that changed, is a
 * change to the guard's own files (protected.ts) and is undone. The root's own `.git` is marked too:
 * a worktree's gitfile rewritten, or the folder replaced by a gitfile (its config, hooks and info are
 * put back by protected.ts, which moves the gitfile aside first).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface GitMarks {
  /** project-relative folder ('' the root) → its change time (ms) when last listed */
  dirs: Record<string, number>;
  /** project-relative `.git` path → what stood there: `file:<base64>` (small gitfile), `file#<sha256>`, `dir`, `link:<target>`, `other` */
  gits: Record<string, string>;
}

/** a gitfile is one line; past this its content is kept by hash only */
const MAX_KEPT = 4096;
/** folders listed at most per look (a deeper tree is listed at the next event) */
const MAX_DIRS = 200_000;

const skipDir = (rel: string, name: string): boolean => name === 'node_modules' || (rel === '' && (name === '.git' || name === '.code-intel'));

function mark(abs: string): string | undefined {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (st.isSymbolicLink()) return `link:${fs.readlinkSync(abs)}`;
  if (st.isDirectory()) return 'dir';
  if (!st.isFile()) return 'other';
  let data: Buffer;
  try {
    data = fs.readFileSync(abs);
  } catch {
    return `unreadable:${st.size}:${st.ctimeMs}`; // seen as changed whenever it is touched
  }
  return data.length <= MAX_KEPT ? `file:${data.toString('base64')}` : `file#${crypto.createHash('sha256').update(data).digest('hex')}`;
}

/**
 * Looks again from `prev` (all folders when there is none): folders whose change time moved are
 * listed, new subfolders found there are listed whole unless `ignored` says git ignores them.
 */
export function scanGitMarks(root: string, prev: GitMarks | undefined, ignored: (rels: string[]) => Set<string>): GitMarks {
  const dirs: Record<string, number> = {};
  const gits: Record<string, string> = {};
  // what `prev` said of folders whose listing did not change stays
  const unchanged = new Set<string>();
  if (prev) {
    for (const [rel, ctime] of Object.entries(prev.dirs)) {
      const st = fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false });
      if (!st?.isDirectory()) continue;
      dirs[rel] = st.ctimeMs;
      if (st.ctimeMs === ctime) unchanged.add(rel);
    }
    for (const [g, m] of Object.entries(prev.gits)) {
      const parent = path.posix.dirname(g) === '.' ? '' : path.posix.dirname(g);
      // a gitfile's content can change without its folder's listing changing
      if (unchanged.has(parent)) {
        const now = m.startsWith('file') ? mark(path.join(root, g)) : m;
        if (now) gits[g] = now;
      }
    }
  }
  const queue = Object.keys(dirs).filter((d) => !unchanged.has(d));
  if (!prev) {
    queue.push('');
    dirs[''] = fs.lstatSync(root).ctimeMs;
  }
  // level by level: the new folders of a level are judged by git in one call (a script that makes
  // thousands of folders must not cost a git process each)
  let level = queue;
  let listed = 0;
  while (level.length > 0 && listed < MAX_DIRS) {
    const fresh: string[] = [];
    for (const rel of level) {
      if (listed++ >= MAX_DIRS) break;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const child = rel ? `${rel}/${e.name}` : e.name;
        if (e.name === '.git') {
          const m = mark(path.join(root, child));
          if (m) gits[child] = m;
          continue;
        }
        if (!e.isDirectory() || skipDir(rel, e.name) || child in dirs) continue;
        fresh.push(child);
      }
    }
    // a folder seen for the first time: listed unless git ignores it (build output, a virtualenv)
    const skip = fresh.length > 0 ? ignored(fresh.map((f) => `${f}/`)) : new Set<string>();
    level = [];
    for (const f of fresh) {
      if (skip.has(`${f}/`) || skip.has(f)) continue;
      const st = fs.lstatSync(path.join(root, f), { throwIfNoEntry: false });
      if (!st?.isDirectory()) continue;
      dirs[f] = st.ctimeMs;
      level.push(f);
    }
  }
  return { dirs, gits };
}

/** `.git` paths that are new or changed in `now` against `before`. */
export function changedGitMarks(before: GitMarks | undefined, now: GitMarks): string[] {
  return Object.keys(now.gits).filter((g) => before?.gits[g] !== now.gits[g]).sort();
}

/**
 * Puts a `.git` back as `before` held it: moved aside into `keepDir`, and a small gitfile that stood
 * there written again. Returns where the moved copy went.
 */
export function undoGitMark(root: string, rel: string, before: GitMarks | undefined, keepDir: string): string | undefined {
  const abs = path.join(root, rel);
  let kept: string | undefined;
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (st) {
    // moved, not copied: whatever it is (a folder, a link, an unreadable file), nothing is read or followed
    kept = path.join(keepDir, rel);
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.renameSync(abs, kept);
  }
  const was = before?.gits[rel];
  if (was?.startsWith('file:')) fs.writeFileSync(abs, Buffer.from(was.slice('file:'.length), 'base64'), { flag: 'wx' });
  return kept;
}
