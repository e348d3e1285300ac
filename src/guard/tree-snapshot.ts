/**
 * Snapshots of the project's working tree, kept in a private git store: its index and refs under
 * .code-intel/guard/git (never the project's own .git), its objects in the user's state folder
 * (outside the project: deleting .code-intel/guard/ loses nothing the guard restores from). A
 * snapshot is a git tree: `git add -A`
 * against a private index re-hashes only files whose stat changed, so a check costs a few
 * milliseconds once the first snapshot exists. What git ignores is not the project's (build
 * output, node_modules); .code-intel/ itself is left out (the database changes on every call).
 *
 * The guard compares two snapshots to learn what a tool call really changed, whatever command did
 * it, and restores files from the earlier one.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { globalExcludesFile, readIf } from '../util/git-excludes.js';
import { stateDir } from './state-dir.js';
import { EMPTY_TREE, GIT_TIMEOUT_MS, gitTimeLeft, gitTimeout, projectGit } from './project-git.js';

export interface TreeChange {
  /** project-relative path, '/'-separated */
  path: string;
  /** A added, M modified (content or mode), D deleted, T type changed (file ↔ symlink) */
  status: 'A' | 'M' | 'D' | 'T';
}


/**
 * The store's own attributes, which outrank every .gitattributes in the tree: no conversion on the
 * way into the snapshot or out of it. The project's `text=auto`, `eol`, `ident` or
 * `working-tree-encoding` would make bytes that differ hash the same (CRLF for LF, code inside
 * `$Id: … $`), and an undo write other bytes than stood there.
 */
const RAW_ATTRIBUTES = '* -text !eol -ident -filter !working-tree-encoding\n';

/** Is this project-relative path a .gitignore file (whose rules decide what the snapshot sees)? */
const isGitignore = (rel: string) => rel === '.gitignore' || rel.endsWith('/.gitignore');

export class TreeSnapshot {
  readonly gitDir: string;
  /** where the store keeps its objects: outside the project, beside the seal's key */
  readonly objectDir: string;

  constructor(readonly root: string) {
    this.gitDir = path.join(root, '.code-intel', 'guard', 'git');
    this.objectDir = path.join(stateDir(), 'guard-objects', crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 24));
  }

  /** git with the private store; the user's and the environment's git settings cannot redirect it. */
  private git(args: string[], input?: string, extraEnv: Record<string, string> = {}): string {
    return this.run(args, input, extraEnv).toString('utf8');
  }

  /** git's output as bytes: paths that are not UTF-8 come back as they are on disk. */
  private run(args: string[], input?: string | Buffer, extraEnv: Record<string, string> = {}): Buffer {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
    Object.assign(env, {
      GIT_DIR: this.gitDir, GIT_WORK_TREE: this.root, GIT_INDEX_FILE: path.join(this.gitDir, 'guard-index'), GIT_OBJECT_DIRECTORY: this.objectDir,
      GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0',
    }, extraEnv);
    const config = ['core.autocrlf=false', 'core.safecrlf=false', 'core.fileMode=true', 'core.symlinks=true', 'core.quotePath=false',
      'core.fsmonitor=false', 'core.hooksPath=/dev/null', 'gc.auto=0', 'core.excludesFile=' + path.join(this.gitDir, 'info', 'exclude'),
      'advice.addEmbeddedRepo=false', 'core.ignoreCase=false', 'core.precomposeUnicode=false']
      .flatMap((c) => ['-c', c]);
    return execFileSync('git', [...config, ...args], { env, cwd: this.root, input, timeout: gitTimeout(GIT_TIMEOUT_MS), maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
  }

  /**
   * Creates the private store when missing. The ignore rules that live outside the tree (the
   * project's .git/info/exclude, the user's global excludes file) are copied in once, so a later
   * change to them cannot hide files from the guard.
   */
  ensure(excludes?: string): void {
    if (fs.existsSync(path.join(this.gitDir, 'HEAD')) && fs.existsSync(this.objectDir)) return;
    // a store without its objects (a project copied or moved elsewhere) starts again
    fs.rmSync(this.gitDir, { recursive: true, force: true });
    fs.mkdirSync(this.gitDir, { recursive: true });
    fs.mkdirSync(this.objectDir, { recursive: true });
    this.git(['init', '-q']);
    // dependencies are never the project's files, even in a project that forgot to ignore them
    excludes ??= ['/.code-intel/', 'node_modules/', readIf(path.join(this.root, '.git', 'info', 'exclude')), readIf(globalExcludesFile(gitTimeout(5000)))].join('\n') + '\n';
    fs.mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
    fs.writeFileSync(path.join(this.gitDir, 'info', 'exclude'), excludes);
    fs.writeFileSync(path.join(this.gitDir, 'info', 'attributes'), RAW_ATTRIBUTES);
  }

  /**
   * A store made by an older version (without RAW_ATTRIBUTES) starts again, its objects kept: when a
   * session starts, where every file is hashed anyway.
   */
  renewIfOutdated(): void {
    if (fs.existsSync(path.join(this.gitDir, 'HEAD')) && readIf(path.join(this.gitDir, 'info', 'attributes')) !== RAW_ATTRIBUTES) {
      const excludes = this.excludes();
      fs.rmSync(this.gitDir, { recursive: true, force: true });
      this.ensure(excludes);
    }
  }

  /** The ignore rules the store was made with (kept with the baseline, to rebuild it). */
  excludes(): string {
    return readIf(path.join(this.gitDir, 'info', 'exclude'));
  }

  /**
   * What the store's state files look like (everything but its objects: config, HEAD, refs, the
   * private index, the ignore rules, and the object folder's info/ where alternates would go): their
   * names, sizes, modes, inodes, and modification and change times. Any write by another process
   * changes the change time, which no process can set back; the guard keeps this with its sealed
   * baseline and rebuilds the store when it differs (rebuild()).
   */
  fingerprint(): string {
    const h = crypto.createHash('sha256');
    const walk = (dir: string, rel: string, skipObjects: boolean) => {
      let names: string[];
      try {
        names = fs.readdirSync(dir).sort();
      } catch {
        h.update(`${rel}\tmissing\n`);
        return;
      }
      for (const n of names) {
        if (skipObjects && rel === '' && n === 'objects') continue;
        const abs = path.join(dir, n);
        let st: fs.BigIntStats;
        try {
          st = fs.lstatSync(abs, { bigint: true });
        } catch (e) {
          // gone since the listing (another hook's git lock file: six hooks at once, lstat of
          // guard-index.lock failed and an honest write was denied): not there. One that stays is
          // seen, and a stale lock still makes the store differ from its baseline
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw e;
        }
        h.update(`${rel}/${n}\t${st.mode}\t${st.size}\t${st.ino}\t${st.mtimeNs}\t${st.ctimeNs}\n`);
        if (st.isDirectory()) walk(abs, `${rel}/${n}`, false);
      }
    };
    walk(this.gitDir, '', true);
    h.update('\0');
    walk(path.join(this.objectDir, 'info'), 'objects/info', false);
    return h.digest('hex');
  }

  /**
   * Makes the store's state again from the sealed baseline: a fresh store (config, HEAD, ignore
   * rules as recorded) whose index holds `tree` with no stat data, so the next capture hashes every
   * file again. Throws when the objects of `tree` are gone (then nothing can be put back).
   */
  rebuild(tree: string, excludes: string | undefined, commit: string | undefined): void {
    // a store made before the objects moved out of the project: take its objects along once
    const legacy = path.join(this.gitDir, 'objects');
    if (!fs.existsSync(this.objectDir) && fs.existsSync(legacy)) {
      fs.mkdirSync(path.dirname(this.objectDir), { recursive: true });
      fs.cpSync(legacy, this.objectDir, { recursive: true });
    }
    // the guard's folder (or the store's) replaced by a file: the file goes
    for (const d of [path.dirname(this.gitDir), this.gitDir]) if (lstatOrUndefined(d)?.isDirectory() === false) fs.rmSync(d, { force: true });
    fs.rmSync(this.gitDir, { recursive: true, force: true });
    // alternates (objects looked up elsewhere) are never the guard's
    fs.rmSync(path.join(this.objectDir, 'info'), { recursive: true, force: true });
    this.ensure(excludes);
    try {
      this.git(['read-tree', tree]);
      if (commit) this.git(['update-ref', 'HEAD', commit]);
    } catch (e) {
      throw new Error(`the guard's snapshot store no longer holds the state it would restore (${(e as Error).message.split('\n')[0]})`);
    }
  }

  /**
   * Makes the next capture hash every file again, not only those whose stat changed: a
   * .gitattributes that came and went may have made a changed file hash as it was (`text`, `eol`).
   */
  forgetStat(tree: string): void {
    this.git(['read-tree', tree]);
  }

  /**
   * Files the project's own git tracks although an ignore rule matches them (added with `git add -f`:
   * a committed `.env`, a vendored file): git does not ignore a tracked file, so neither does the
   * snapshot. Added to the private index when a baseline is taken; from then on `add -A` follows them.
   */
  trackIgnored(): void {
    if (!fs.existsSync(path.join(this.root, '.git'))) return;
    let out: string;
    try {
      out = projectGit(this.root, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']);
    } catch {
      return; // not a repository (or not one git can read): nothing tracked
    }
    const rels = out.split('\0').filter((r) => r && !r.startsWith('.code-intel/') && fs.existsSync(path.join(this.root, r)));
    this.ensure();
    for (let i = 0; i < rels.length; i += 500) {
      try {
        this.git(['add', '--ignore-errors', '-f', '--', ...rels.slice(i, i + 500).map((r) => `:(literal)${r}`)]);
      } catch (e) {
        if ((e as { status?: number }).status !== 1) throw e;
      }
    }
  }

  /** The tree of the working tree as it is now (files git does not ignore). */
  capture(thorough = false): string {
    this.ensure();
    // every file hashed, whatever its stat says: a stat can be put back (a clock set to the change
    // time's nanosecond, a store into a page already mapped writable moves no time — red team adv80)
    if (thorough) this.git(['read-tree', this.git(['write-tree']).trim()]);
    // what git's index (to the second) would take as unchanged but moved to the nanosecond is hashed
    // again; stat is taken before hashing, so a change made meanwhile is seen by the next check
    const statsBefore = this.nsNow();
    const moved = Object.keys(this.nsList()).filter((rel) => rel !== RAW_NAMES && statsBefore.get(rel) !== this.nsList()[rel]!.split('|')[0]);
    if (moved.length > 0) this.forgetStatOf(moved);
    // a file too big to hash within the hook's time is stood in for by its size and times
    const big = this.bigFiles();
    this.addAll(['-A'], Object.keys(big));
    const status = this.git(['status', '--porcelain=v2', '-z', '--untracked-files=all', '--ignored=matching', '--no-renames', '--ignore-submodules=all']).split('\0');
    // a .gitignore that ignores itself would hide the files it names, itself included: it is seen
    const hiding = status.filter((e) => e.startsWith('! ')).map((e) => e.slice(2)).filter(isGitignore);
    if (hiding.length > 0) this.addAll(['-f', ...hiding]);
    // what git could not add (a FIFO or socket, an unreadable file, a repository without a commit)
    // stays as it was in the index: it gets a stand-in, so a file that became one is seen as changed
    const left = status.filter((e) => e.startsWith('? ') || (e.startsWith('1 ') && e.charAt(3) !== '.'))
      .map((e) => (e.startsWith('? ') ? e.slice(2) : e.split(' ').slice(8).join(' ')).replace(/\/$/, ''));
    this.standIn([...new Set([...left, ...Object.keys(big)])]);
    fs.writeFileSync(path.join(this.gitDir, BIG_LIST), JSON.stringify(big));
    const tree = this.git(['write-tree']).trim();
    this.recordNs(statsBefore);
    return tree;
  }

  /**
   * Each indexed file's stat to the nanosecond at the last capture. git compares times to the
   * second (no USE_NSEC in distribution builds): an agent allowed to set the clock rewrote a file
   * in place with its size, mtime and ctime second kept, and neither the guard nor `git status`
   * saw it (red team adv78). The record only decides which files git hashes again: a stat can still be
   * made to say nothing moved (adv80), which is why contentUnchanged() hashes the content.
   */
  private nsList(): Record<string, string> {
    if (this.nsCache) return this.nsCache;
    try {
      return (this.nsCache = JSON.parse(fs.readFileSync(path.join(this.gitDir, NS_LIST), 'utf8')) as Record<string, string>);
    } catch {
      return (this.nsCache = {});
    }
  }
  private nsCache: Record<string, string> | undefined;

  /** The stat now of the files recorded at the last capture. */
  private nsNow(): Map<string, string | undefined> {
    return new Map(Object.keys(this.nsList()).filter((rel) => rel !== RAW_NAMES).map((rel) => [rel, nsStat(path.join(this.root, rel))]));
  }

  /** Records the index's files with their stat: taken before hashing where known, else now (a new file). */
  private recordNs(before: Map<string, string | undefined>): void {
    const out: Record<string, string> = {};
    for (const { mode, oid, rel } of this.staged([])) {
      const line = before.has(rel) ? before.get(rel) : nsStat(path.join(this.root, rel));
      // (stat | mode | blob id)
      if (line) out[rel] = `${line}|${mode}|${oid}`;
      // (a name that is not UTF-8 does not come back as itself: such a project is hashed by git at every check — red team adv82)
      else out[RAW_NAMES] = '';
    }
    fs.writeFileSync(path.join(this.gitDir, NS_LIST), JSON.stringify(out));
    this.nsCache = out;
  }

  /** The private index's entries (of these paths, or all): mode, blob id and path. */
  private staged(rels: readonly string[]): { mode: string; oid: string; rel: string }[] {
    const args = rels.length > 0 ? ['--', ...rels.map((r) => `:(literal)${r}`)] : [];
    return this.git(['ls-files', '-s', '-z', ...args]).split('\0').filter(Boolean).map((e) => {
      const [mode, oid] = e.slice(0, e.indexOf('\t')).split(' ');
      return { mode: mode!, oid: oid!, rel: e.slice(e.indexOf('\t') + 1) };
    });
  }

  /** Clears the index's stat of these paths (their entries kept), so the next `add` hashes them. */
  private forgetStatOf(rels: string[]): void {
    for (let i = 0; i < rels.length; i += 500) {
      const args = this.staged(rels.slice(i, i + 500)).flatMap(({ mode, oid, rel }) => ['--cacheinfo', `${mode},${oid},${rel}`]);
      if (args.length > 0) this.git(['update-index', '--replace', ...args]);
    }
  }

  /**
   * Whether every file recorded at the last capture still holds the content its snapshot says,
   * hashed now whatever its stat says (in this process; the store is left as it is). Files only: a
   * link, a submodule and a big file's stand-in are judged as capture() judges them.
   */
  contentUnchanged(): boolean {
    if (RAW_NAMES in this.nsList()) return false;
    const big = this.bigList();
    let n = 0;
    for (const [rel, line] of Object.entries(this.nsList())) {
      // (out of time: not known to be unchanged — the slow path looks, and a check that cannot finish
      // refuses writes; returning "unchanged" here would accept what was not hashed: red team adv82)
      if (++n % 64 === 0 && gitTimeLeft() < HASH_RESERVE_MS) return false;
      const [, mode, oid] = line.split('|');
      if ((mode !== '100644' && mode !== '100755') || rel in big) continue;
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(path.join(this.root, rel));
      } catch {
        return false; // gone or unreadable: the slow path looks
      }
      // (git's blob id: the content after a "blob <size>" header)
      if (crypto.createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex') !== oid) return false;
    }
    return true;
  }

  /** Whether the files recorded at the last capture hold at most `bytes` together (hashing them all is cheap). */
  smallerThan(bytes: number): boolean {
    let total = 0;
    for (const [rel, line] of Object.entries(this.nsList())) {
      if (rel === RAW_NAMES) continue;
      total += Number(line.split(':')[1] ?? 0);
      if (total > bytes) return false;
    }
    return Object.keys(this.nsList()).length > 0;
  }

  /** Whether a recorded file's stat moved to the nanosecond since the last capture. */
  movedSinceCapture(): boolean {
    const list = this.nsList();
    if (RAW_NAMES in list) return true;
    for (const rel of Object.keys(list)) if (nsStat(path.join(this.root, rel)) !== list[rel]!.split('|')[0]) return true;
    return false;
  }

  /**
   * The files over BIG_FILE bytes among those `add -A` would hash (new or changed since the index,
   * and those stood in for before), each with its size and times: they are left out of `add` and
   * stood in for instead. (A sparse file of gigabytes takes seconds to make and minutes to hash.)
   */
  private bigFiles(): Record<string, string> {
    const known = Object.keys(this.bigList());
    const listed = this.run(['ls-files', '-z', '-o', '-m', '--exclude-standard']).toString('utf8').split('\0').filter(Boolean);
    const out: Record<string, string> = {};
    for (const rel of new Set([...known, ...listed])) {
      const line = bigStat(path.join(this.root, rel));
      if (line) out[rel] = line;
    }
    return out;
  }

  /** The big files stood in for at the last capture, with their size and times then. */
  private bigList(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.gitDir, BIG_LIST), 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  /** `git add`, which exits 1 when some paths could not be added (they are stood in for by capture()). */
  private addAll(args: string[], leaveOut: string[] = []): void {
    try {
      this.git(['add', '--ignore-errors', ...args, '--', ...(args.length > 1 ? [] : ['.', ...leaveOut.map((r) => `:(exclude,literal)${r}`)])]);
    } catch (e) {
      if ((e as { status?: number }).status !== 1) throw e;
    }
  }

  /**
   * Index entries for paths git cannot snapshot: a blob naming what stands there (and, for an
   * unreadable file, its size and times), so that the tree differs from the accepted one exactly
   * when such a thing appears or changes. A path git can add (a file written since) is left to the next capture.
   */
  private standIn(rels: string[]): void {
    const args: string[] = [];
    for (const rel of rels) {
      let st: fs.Stats;
      try {
        st = fs.lstatSync(path.join(this.root, rel));
      } catch {
        continue;
      }
      let what: string;
      if (st.isSymbolicLink()) continue;
      const big = bigStat(path.join(this.root, rel));
      if (big) what = big;
      else if (st.isFile()) {
        try {
          fs.accessSync(path.join(this.root, rel), fs.constants.R_OK);
          continue;
        } catch {
          what = `an unreadable file of ${st.size} bytes, modified ${st.mtimeMs}, changed ${st.ctimeMs}`;
        }
      } else what = st.isDirectory() ? 'a folder git cannot add (a repository without a commit)' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
      const oid = this.git(['hash-object', '-w', '--stdin'], `${STAND_IN}${rel}: ${what}\n`).trim();
      args.push('--cacheinfo', `100644,${oid},${rel}`);
    }
    if (args.length > 0) this.git(['update-index', '--add', '--replace', ...args]);
  }

  /**
   * Records `tree` as the accepted state: a commit the private HEAD points at (so one `git status`
   * can later say whether anything moved). Returns the commit id.
   */
  accept(tree: string): string {
    const commit = this.git(['commit-tree', tree, '-m', 'accepted by the code-intel write guard'], undefined, {
      GIT_AUTHOR_NAME: 'code-intel', GIT_AUTHOR_EMAIL: 'guard@code-intel', GIT_COMMITTER_NAME: 'code-intel', GIT_COMMITTER_EMAIL: 'guard@code-intel',
      GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
    }).trim();
    this.git(['update-ref', 'HEAD', commit]);
    return commit;
  }

  /**
   * The fast check, one process: is the working tree (and the private index) exactly the accepted
   * commit? False also when the private HEAD is not that commit (the store was tampered with), and
   * when a .gitignore file the snapshot does not hold is ignored (it could hide files: capture() takes it).
   */
  unchangedSince(commit: string): boolean {
    if (!fs.existsSync(path.join(this.gitDir, 'HEAD'))) return false;
    if (this.movedSinceCapture()) return false;
    // the big files stood in for are judged by their size and times, never hashed
    const big = this.bigList();
    for (const [rel, line] of Object.entries(big)) if (bigStat(path.join(this.root, rel)) !== line) return false;
    let out: string;
    try {
      out = this.git(['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignored=matching', '--no-renames', '--ignore-submodules=none',
        ...(Object.keys(big).length > 0 ? ['--', '.', ...Object.keys(big).map((r) => `:(exclude,literal)${r}`)] : [])]);
    } catch {
      return false;
    }
    const entries = out.split('\0').filter(Boolean);
    const oid = entries.find((e) => e.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
    return oid === commit && entries.every((e) => e.startsWith('# ') || (e.startsWith('! ') && !isGitignore(e.slice(2))));
  }

  /** What differs from `from` to `to`, path by path (renames are a delete and an add). */
  diff(from: string, to: string): TreeChange[] {
    if (from === to) return [];
    const out = this.run(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from || EMPTY_TREE, to]);
    const parts: Buffer[] = [];
    for (let at = 0; at < out.length;) {
      const end = out.indexOf(0, at);
      parts.push(out.subarray(at, end < 0 ? out.length : end));
      at = end < 0 ? out.length : end + 1;
    }
    const changes: TreeChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]!.toString('latin1').charAt(0) as TreeChange['status'];
      changes.push({ path: pathOf(parts[i + 1]!), status: status === 'T' ? 'T' : status === 'A' ? 'A' : status === 'D' ? 'D' : 'M' });
    }
    return changes;
  }

  /** Which of these project-relative paths git ignores (build output, dependencies): not the project's files. */
  ignored(rels: string[]): Set<string> {
    // git refuses the whole list (fatal: beyond a symbolic link) for one path through a link: such
    // a path is no file of git's, so it is not ignored (judged as the project's: the stricter side)
    rels = rels.filter((r) => !this.throughLink(r));
    if (rels.length === 0) return new Set();
    this.ensure();
    let out = '';
    try {
      // against the private index: a file it tracks is not ignored (trackIgnored)
      out = this.git(['check-ignore', '-z', '--stdin'], rels.join('\0') + '\0');
    } catch (e) {
      // exit 1: none is ignored
      if ((e as { status?: number }).status !== 1) throw e;
    }
    const hits = out.split('\0').filter(Boolean);
    if (hits.length === 0) return new Set();
    // `F/` (asked for folder patterns) matches `*.env` even where the index tracks F: a tracked file is never ignored
    const tracked = new Set(this.git(['ls-files', '-z', '--cached', '--', ...[...new Set(hits.map((h) => h.replace(/\/$/, '')))].map((h) => `:(literal)${h}`)]).split('\0'));
    return new Set(hits.filter((h) => !tracked.has(h.replace(/\/$/, ''))));
  }

  /** Does this project-relative path go through a symbolic link (`a/link/b`, or `link/` asked as a folder)? */
  private throughLink(rel: string): boolean {
    const parts = rel.split('/').filter(Boolean);
    const upTo = rel.endsWith('/') ? parts.length : parts.length - 1;
    let abs = this.root;
    for (let i = 0; i < upTo; i++) {
      abs = path.join(abs, parts[i]!);
      if (fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) return true;
    }
    return false;
  }

  /** Whether the .gitignore files of two trees differ (which ones there are, or what they say). */
  rulesDiffer(a: string, b: string): boolean {
    if (a === b) return false;
    return this.git(['diff-tree', '-r', '--name-only', a || EMPTY_TREE, b, '--', ':(glob).gitignore', ':(glob)**/.gitignore']).trim().length > 0;
  }

  /**
   * Files git ignores now that the ignore rules of `rulesTree` (the .gitignore files the turn began
   * with) would not: hidden by a .gitignore changed or added since, which READY may allow (an
   * explored one, an approved new one). Such a file is the project's by the rules the user left, and
   * new: under those rules it would have been seen. Ignored folders come as one entry each; a hidden
   * one is listed file by file (up to MAX_HIDDEN).
   */
  hiddenSince(rulesTree: string): string[] {
    const now = this.git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']).split('\0').filter(Boolean);
    if (now.length === 0) return [];
    // the old rules, alone in a scratch repository: check-ignore judges names, no file need exist there
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-rules-'));
    try {
      execFileSync('git', ['init', '-q', scratch], { env: scratchEnv(), timeout: gitTimeout(GIT_TIMEOUT_MS), stdio: 'ignore' });
      const listed = this.git(['ls-tree', '-r', '-z', rulesTree || EMPTY_TREE]).split('\0').filter(Boolean);
      for (const entry of listed) {
        const [meta, rel] = [entry.slice(0, entry.indexOf('\t')), entry.slice(entry.indexOf('\t') + 1)];
        if (!isGitignore(rel) || !meta.includes(' blob ')) continue;
        const oid = meta.split(' ')[2]!;
        fs.mkdirSync(path.join(scratch, path.dirname(rel)), { recursive: true });
        fs.writeFileSync(path.join(scratch, rel), this.run(['cat-file', 'blob', oid]));
      }
      let out = '';
      try {
        out = execFileSync('git', ['-c', `core.excludesFile=${path.join(this.gitDir, 'info', 'exclude')}`, '-C', scratch, 'check-ignore', '--no-index', '-z', '--stdin'],
          { env: scratchEnv(), input: now.join('\0') + '\0', encoding: 'utf8', timeout: gitTimeout(GIT_TIMEOUT_MS), maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'ignore'] });
      } catch (e) {
        if ((e as { status?: number }).status !== 1) throw e; // 1: none ignored
      }
      const before = new Set(out.split('\0').filter(Boolean));
      const hidden: string[] = [];
      for (const entry of now.filter((e) => !before.has(e))) {
        if (!entry.endsWith('/')) hidden.push(entry);
        else for (const f of filesUnder(this.root, entry.replace(/\/$/, ''), MAX_HIDDEN - hidden.length)) hidden.push(f);
        if (hidden.length >= MAX_HIDDEN) break;
      }
      return hidden.filter((h) => !h.startsWith('.code-intel/'));
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** Whether the tree holds `rel` (as a file or symlink). */
  has(tree: string, rel: string): boolean {
    return this.git(['ls-tree', '-z', '--name-only', tree, '--', rel]).length > 0;
  }

  /**
   * Puts `rel` back as it was in `tree`: its content and mode, or removes it when the tree did not
   * hold it. Whatever stands there now is first copied into `keepDir` (nothing is lost).
   */
  restore(tree: string, rel: string, keepDir: string, status?: TreeChange['status']): { kept?: string } {
    try {
      return this.restoreOnce(tree, rel, keepDir, status);
    } catch (e) {
      // a file or folder the change made immutable or read-only (chattr +i, chmod a-w) held the
      // change on disk past the turn (red team adv34): what the hook may lift, it lifts, and tries again
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'EPERM' && code !== 'EACCES' && code !== 'ENOTDIR') || isRawPath(rel) || !unlockForUndo(this.root, rel)) throw explainLocked(e as Error, this.root, rel);
      return this.restoreOnce(tree, rel, keepDir, status);
    }
  }

  private restoreOnce(tree: string, rel: string, keepDir: string, status?: TreeChange['status']): { kept?: string } {
    if (isRawPath(rel)) return this.restoreRaw(tree, rel, keepDir, status);
    // what the tree holds only a stand-in for (a big file, a FIFO) cannot be written back: left as it is
    if (tree && status !== 'A' && this.standInOf(tree, rel)) throw new Error('the guard kept only its size and times (too big to snapshot, or not a file), so it cannot be put back');
    const abs = path.join(this.root, rel);
    // a folder on the way that became a link (or a file) is moved aside first: through a link the
    // undo took, copied, unlocked and deleted a file outside the project (red team adv35: `docs` made
    // a link to another folder, hidden by an explored .gitignore)
    this.clearParents(rel, keepDir);
    let kept: string | undefined;
    const st = lstatOrUndefined(abs);
    if (st) {
      kept = freeName(keptPath(keepDir, rel));
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      // never through something already there (EXCL: a link made in the keep folder is not followed)
      if (st.isSymbolicLink()) fs.writeFileSync(kept + '.symlink', fs.readlinkSync(abs), { flag: 'wx' });
      else if (st.isFile() && st.size > BIG_FILE) moveAside(abs, kept);
      else if (st.isFile()) fs.copyFileSync(abs, kept, fs.constants.COPYFILE_EXCL);
      // a folder (or a FIFO, a socket) is moved aside whole: a copy failed on what it holds that is
      // no file (a FIFO) or too deep to name, and the undo was never done (red team adv33)
      else moveTreeAside(abs, kept);
      fs.rmSync(abs, { recursive: true, force: true });
    }
    if (tree && this.has(tree, rel)) {
      this.git(['checkout', tree, '--', rel], undefined, { GIT_LITERAL_PATHSPECS: '1' }); // a name like `*` is that file only
      // git writes with the hook's umask and knows only 644/755: the permissions that stood there
      // stay (a 0600 file put back as 0644 would be readable by everyone), the executable bit is the tree's
      if (st?.isFile()) keepPermissions(abs, st.mode);
    } else {
      this.removeEmptyParents(path.dirname(abs));
    }
    return { kept };
  }

  /**
   * restore() for a path whose name is not UTF-8 (rawPath): handled by its bytes. Kept under
   * `_names-not-utf8/<hex of the path>`; put back from `tree` unless the change added it.
   */
  private restoreRaw(tree: string, rel: string, keepDir: string, status?: TreeChange['status']): { kept?: string } {
    const bytes = Buffer.from(rel.slice(RAW.length), 'hex');
    const abs = Buffer.concat([Buffer.from(this.root + path.sep), bytes]);
    let kept: string | undefined;
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(abs);
    } catch {
      // gone already
    }
    if (st) {
      kept = freeName(path.join(keepDir, '_names-not-utf8', bytes.toString('hex')));
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      if (st.isSymbolicLink()) fs.writeFileSync(kept + '.symlink', fs.readlinkSync(abs, { encoding: 'buffer' }), { flag: 'wx' });
      else if (st.isFile()) fs.copyFileSync(abs, kept, fs.constants.COPYFILE_EXCL);
      fs.rmSync(abs, { recursive: true, force: true });
    }
    if (tree && status !== 'A') {
      this.run(['checkout', tree, '--pathspec-from-file=-', '--pathspec-file-nul'], Buffer.concat([bytes, Buffer.from([0])]), { GIT_LITERAL_PATHSPECS: '1' });
    } else {
      // the folders it was made in, when nothing else is in them
      for (let dir = path.dirname(abs.toString('latin1')); dir.length > this.root.length && dir.startsWith(this.root + path.sep); dir = path.dirname(dir)) {
        try {
          fs.rmdirSync(Buffer.from(dir, 'latin1'));
        } catch {
          break;
        }
      }
    }
    return { kept };
  }

  /** Is `rel` in `tree` a stand-in (standIn), not the file's content? */
  private standInOf(tree: string, rel: string): boolean {
    const spec = `${tree}:${rel}`;
    const check = this.git(['cat-file', '--batch-check'], `${spec}\n`).trim().split(' ');
    if (check[1] !== 'blob' || Number(check[2]) > 4096) return false;
    return this.git(['cat-file', 'blob', check[0]!]).startsWith(STAND_IN);
  }

  private clearParents(rel: string, keepDir: string): void {
    const segs = rel.split('/');
    for (let i = 1; i < segs.length; i++) {
      const abs = path.join(this.root, ...segs.slice(0, i));
      const st = lstatOrUndefined(abs);
      if (!st || st.isDirectory()) continue;
      fs.mkdirSync(path.dirname(path.join(keepDir, ...segs.slice(0, i))), { recursive: true });
      const kept = freeName(path.join(keepDir, ...segs.slice(0, i)));
      if (st.isFile()) fs.copyFileSync(abs, kept, fs.constants.COPYFILE_EXCL);
      else if (st.isSymbolicLink()) fs.writeFileSync(kept + '.symlink', fs.readlinkSync(abs), { flag: 'wx' });
      fs.rmSync(abs, { force: true }); // (a link itself, never what it points to)
    }
  }

  private removeEmptyParents(dir: string): void {
    while (dir.startsWith(this.root + path.sep)) {
      try {
        fs.rmdirSync(dir); // only succeeds when empty
      } catch {
        return;
      }
      dir = path.dirname(dir);
    }
  }
}

/** how a stand-in's text begins */
const STAND_IN = 'code-intel write guard: git cannot snapshot ';

/** Past this size a file is not hashed into the snapshot: it is judged by its size and times (a stand-in). */
const BIG_FILE = 256 * 1024 * 1024;
/** the big files stood in for, in the private store (so the fingerprint covers it) */
const BIG_LIST = 'guard-big.json';
/** time left to the hook that hashing every file leaves for the rest of its check */
const HASH_RESERVE_MS = 2_000;
/** the index's files and their stat to the nanosecond at the last capture (TreeSnapshot.nsList) */
const NS_LIST = 'guard-stat-ns.json';
/** a key of that record: the index holds a name that is not UTF-8, which the record cannot follow */
const RAW_NAMES = '\0names-not-utf-8';

/** A path's stat as the nanosecond check compares it: inode, size, mode, modification and change times. */
function nsStat(abs: string): string | undefined {
  try {
    const st = fs.lstatSync(abs, { bigint: true });
    return `${st.ino}:${st.size}:${st.mode}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** What a big file's stand-in says (its size, inode and times), or undefined for anything else. */
function bigStat(abs: string): string | undefined {
  const st = lstatOrUndefined(abs);
  return st?.isFile() && st.size > BIG_FILE ? `a file of ${st.size} bytes, too big to snapshot (inode ${st.ino}, modified ${st.mtimeMs}, changed ${st.ctimeMs})` : undefined;
}

/**
 * Lifts what keeps the undo of `rel` from changing it: the immutable and append-only flags (Linux
 * `chattr`, macOS `chflags`) of it and of the folders above it in the project (the project's own
 * folder too), and a folder left without write permission. True when anything was lifted.
 */
function unlockForUndo(root: string, rel: string): boolean {
  let lifted = false;
  // from the project's folder down, never through a link: what lies beyond one is not the project's (red team adv35)
  const segs = rel.split('/');
  const chain = [root, ...segs.map((_, i) => path.join(root, ...segs.slice(0, i + 1)))];
  for (const p of chain) {
    const st = lstatOrUndefined(p);
    if (!st || st.isSymbolicLink()) break;
    if (hasLockFlag(p)) {
      try {
        if (process.platform === 'darwin') execFileSync('chflags', ['nouchg,nouappnd', p], { stdio: 'ignore', timeout: 5_000 });
        else execFileSync('chattr', ['-i', '-a', p], { stdio: 'ignore', timeout: 5_000 });
        lifted = true;
      } catch {
        // not ours to lift (no capability, no tool): the undo fails and says why
      }
    }
    if (st.isDirectory() && (st.mode & 0o200) === 0) {
      try {
        fs.chmodSync(p, st.mode | 0o700);
        lifted = true;
      } catch {
        // another owner's folder
      }
    }
  }
  return lifted;
}

/** Whether a path carries an immutable or append-only flag (lsattr on Linux; on macOS chflags is tried blind). */
function hasLockFlag(p: string): boolean {
  if (process.platform === 'darwin') return true;
  if (process.platform !== 'linux') return false;
  try {
    const out = execFileSync('lsattr', ['-d', p], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 });
    const flags = out.split(/\s/, 1)[0] ?? '';
    return flags.includes('i') || flags.includes('a');
  } catch {
    return false; // no lsattr, or a file system without flags
  }
}

/** An undo that could not change a path, said as what stands in its way. */
function explainLocked(e: Error, root: string, rel: string): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== 'EPERM' && code !== 'EACCES' && code !== 'ENOTDIR') return e;
  return new Error(`it cannot be changed (${code}): the file or a folder above it is marked immutable or append-only (chattr +i/+a, chflags uchg) or not writable, and the hook could not lift that — a person can (\`chattr -i ${path.join(root, rel)}\`, or chmod)`);
}

/** Where a path is kept: under its own name, or under a digest of it where that name would be too long to make. */
function keptPath(keepDir: string, rel: string): string {
  const p = path.join(keepDir, rel);
  if (Buffer.byteLength(p) < 3072 && rel.split('/').every((c) => Buffer.byteLength(c) < 240)) return p;
  return path.join(keepDir, '_long-names', crypto.createHash('sha256').update(rel).digest('hex').slice(0, 24));
}

/** A folder or special file moved into the keep folder (renamed; copied, special files left out, across file systems). */
function moveTreeAside(abs: string, kept: string): void {
  try {
    fs.renameSync(abs, kept);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    const regular = (src: string) => {
      const s = fs.lstatSync(src);
      return s.isFile() || s.isDirectory() || s.isSymbolicLink();
    };
    fs.cpSync(abs, kept, { recursive: true, verbatimSymlinks: true, filter: regular });
  }
}

/** Moves a big file aside (a copy would take as long as hashing it); copies only across file systems. */
function moveAside(abs: string, kept: string): void {
  try {
    fs.linkSync(abs, kept); // fails where something is there already, like COPYFILE_EXCL
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    fs.copyFileSync(abs, kept, fs.constants.COPYFILE_EXCL);
  }
}

/**
 * A project-relative path as the guard carries it: the path itself when it is UTF-8, else RAW and
 * the hex of its bytes (a file name need not be UTF-8; a string could not name it on disk). RAW is a
 * NUL, which no real path holds.
 */
const RAW = '\u0000';
export const isRawPath = (rel: string): boolean => rel.startsWith(RAW);

function pathOf(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : RAW + bytes.toString('hex');
}

/** How a path is shown in messages. */
export function shownPath(rel: string): string {
  return isRawPath(rel) ? `${JSON.stringify(Buffer.from(rel.slice(RAW.length), 'hex').toString('latin1')).slice(1, -1)} (a name that is not UTF-8)` : rel;
}

/** `p`, or `p~2`, `p~3` … where something stands there already (a file moved aside twice in one undo). */
export function freeName(p: string): string {
  for (let i = 2; ; i++) {
    const name = i === 2 ? p : `${p}~${i - 1}`;
    if (!lstatOrUndefined(name) && !lstatOrUndefined(`${name}.symlink`)) return name;
  }
}


function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Gives the file written at `abs` the read/write bits of `mode` (the file that stood there), executable where git made it so. */
function keepPermissions(abs: string, mode: number): void {
  const now = lstatOrUndefined(abs);
  if (!now?.isFile()) return;
  const rw = mode & 0o666;
  fs.chmodSync(abs, now.mode & 0o100 ? rw | ((rw & 0o444) >> 2) : rw);
}

/** how many files hidden by changed ignore rules one check lists (the rest are found at the next event) */
const MAX_HIDDEN = 2000;

/** git for a scratch repository: none of the user's or the environment's settings */
function scratchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
}

/** The files (and links) under a project folder, project-relative, up to `max`. */
function filesUnder(root: string, rel: string, max: number): string[] {
  const out: string[] = [];
  const walk = (r: string): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(path.join(root, r), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= max) return;
      const child = `${r}/${d.name}`;
      if (d.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk(rel);
  return out;
}
