/**
 * The guard's own files: what decides whether the guard runs at all (client settings and hooks,
 * MCP configs, git hooks and config) and its state. No tool call of a guarded /code turn may
 * change them, READY included. Those git ignores (settings.local.json, .git/*, files in the
 * user's home) are outside the tree snapshot, so they are kept as copies and put back by content.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stateDir } from './state-dir.js';
import { freeName } from './tree-snapshot.js';

/** Project-relative files and folders (a trailing '/') owned by the guard. */
const PROJECT_OWNED = [
  '.code-intel/', '.mcp.json', '.claude/', '.cursor/', '.gemini/', '.codex/', 'opencode.json', '.opencode/',
  // the files in .git that say where git's config is (commondir: another repository's)
  '.git/commondir', '.git/config.worktree',
  '.git/config', '.git/hooks/', '.git/info/', '.gitmodules',
];

/** Is this project-relative path one of the guard's own files? */
export function isGuardOwned(rel: string): boolean {
  const p = rel.replace(/^\.\//, '');
  // a `.git` below the root makes git commands run there use the repository it names, with its
  // config and hooks: as much the guard's as the root's .git/config (nested-git.ts)
  // (the root's .git itself, replaced by a gitfile, is watched there too)
  if (p === '.git' || p.split('/').indexOf('.git') > 0) return true;
  return PROJECT_OWNED.some((o) => (o.endsWith('/') ? p === o.slice(0, -1) || p.startsWith(o) : p === o));
}

/** The client settings in the user's home that can switch hooks off. */
function userFiles(): string[] {
  const home = os.homedir();
  const claude = [...new Set([path.join(home, '.claude'), process.env.CLAUDE_CONFIG_DIR || path.join(home, '.claude')])];
  return [
    ...claude.flatMap((dir) => [path.join(dir, 'settings.json'), path.join(dir, 'settings.local.json')]),
    path.join(home, '.gemini', 'settings.json'), path.join(home, '.cursor', 'hooks.json'),
    path.join(home, '.codex', 'config.toml'), path.join(home, '.codex', 'hooks.json'), path.join(home, '.gitconfig'),
    // git's other global config file, read as much as ~/.gitconfig (core.fsmonitor, core.hooksPath run commands)
    path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'),
    ...gitSystemConfigs(),
    // managed (system-wide) settings outrank the user's: `disableAllHooks` there switches the hooks off
    '/etc/claude-code/managed-settings.json', '/Library/Application Support/ClaudeCode/managed-settings.json', '/etc/gemini-cli/settings.json',
    // OpenCode's user config can list plugins (ours is in the project's .opencode/, guarded above)
    ...['opencode.json', 'opencode.jsonc'].map((f) => path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'opencode', f)),
  ];
}

/**
 * git's system-wide config, read by every git command as much as ~/.gitconfig (`git config --system
 * core.hooksPath …` where the agent may write: red team adv19): where Debian's and a source build's
 * git look, and GIT_CONFIG_SYSTEM when the client runs with it.
 */
function gitSystemConfigs(): string[] {
  return [...new Set(['/etc/gitconfig', '/usr/local/etc/gitconfig', ...(process.env.GIT_CONFIG_SYSTEM ? [path.resolve(process.env.GIT_CONFIG_SYSTEM)] : [])])];
}

/** Files to keep by content: the project's guard files git does not see, and the user's settings. */
function watchedFiles(root: string): string[] {
  const files = new Set<string>(userFiles());
  for (const o of PROJECT_OWNED) {
    if (o === '.code-intel/') continue; // the database changes on every call; it is sealed instead (seal.ts)
    const abs = path.join(root, o);
    if (!o.endsWith('/')) {
      files.add(abs);
      continue;
    }
    for (const f of listFiles(abs, 200)) files.add(f);
  }
  // the hooks git runs where core.hooksPath sends it (husky: `.husky/_`, which the project ignores):
  // kept like .git/hooks/
  for (const dir of hooksPaths(root)) for (const f of listFiles(dir, 200)) files.add(f);
  files.add(path.join(root, '.code-intel', 'config.json'));
  files.add(path.join(root, '.claude', 'settings.local.json'));
  return [...files];
}

/**
 * The folders core.hooksPath names in the config files git reads for this project (its .git/config,
 * ~/.gitconfig, the XDG one, the system's: each kept here), resolved as git does (relative: from the project's root).
 */
function hooksPaths(root: string): string[] {
  const home = os.homedir();
  const configs = [path.join(root, '.git', 'config'), path.join(home, '.gitconfig'), path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'), ...gitSystemConfigs()];
  const out = new Set<string>();
  for (const file of configs) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    let core = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const section = /^\[\s*([^\]\s"]+)\s*(?:"[^"]*")?\s*\]/.exec(line);
      if (section) core = section[1]!.toLowerCase() === 'core';
      const m = core ? /^(?:\[[^\]]*\]\s*)?hookspath\s*=\s*(.*)$/i.exec(line) : null;
      if (!m) continue;
      let v = m[1]!.replace(/\s[#;].*$/, '').trim().replace(/^"(.*)"$/, '$1');
      if (!v) continue;
      if (v.startsWith('~/')) v = path.join(home, v.slice(2));
      out.add(path.resolve(root, v));
    }
  }
  // .git/hooks is kept already; the root itself is never a hooks folder to copy whole
  return [...out].filter((d) => d !== path.resolve(root) && d !== path.join(root, '.git', 'hooks'));
}

function listFiles(dir: string, cap: number): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      // in name order: which files fall under the cap does not depend on the file system's order
      entries = fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= cap) return;
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else out.push(abs);
    }
  };
  walk(dir);
  return out;
}

/** path → sha256 of its content, or null when absent; WATCH_KEY → the WATCH_VERSION it was taken with. */
export type Manifest = Record<string, string | null>;

/**
 * Which set of paths a manifest was taken over: raised whenever watchedFiles watches more (2: git's
 * XDG config, core.hooksPath, .git/commondir; 3: git's system config). A session that began under an older set would
 * otherwise see the newly watched files as made during the turn, and move them aside.
 */
const WATCH_KEY = '#watch';
const WATCH_VERSION = '3';

const MAX_COPY = 4 * 1024 * 1024;

/** What the manifest records for a file: the sha256 of its content, or null when absent. */
export function hashOf(file: string): string | null {
  try {
    const st = fs.lstatSync(file);
    if (st.isSymbolicLink()) return 'symlink:' + fs.readlinkSync(file);
    if (!st.isFile()) return 'other';
    if (st.size > MAX_COPY) return `big:${st.size}:${st.mtimeMs}`;
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

export class ProtectedFiles {
  /** the copies, by content: outside the project, beside the seal's key */
  private readonly store: string;
  /** where copies were kept before (inside the project): read, never trusted unchecked */
  private readonly legacy: string;

  constructor(private readonly root: string) {
    this.store = path.join(stateDir(), 'guard-protected', crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 24));
    this.legacy = path.join(root, '.code-intel', 'guard', 'protected');
  }

  /**
   * Hashes every watched file and keeps a copy of each by content. `admitNew` false (after an undo):
   * a file the manifest did not hold is recorded as absent, not as it is now — one that appeared
   * beyond the listing's cap, behind files that were just put back, is found at the next look.
   */
  capture(previous: Manifest = {}, admitNew = true): Manifest {
    const m: Manifest = { [WATCH_KEY]: WATCH_VERSION };
    // a manifest an older version took watched fewer paths: the ones added since are taken as they stand
    const older = previous[WATCH_KEY] !== WATCH_VERSION;
    for (const f of new Set([...watchedFiles(this.root), ...Object.keys(previous)])) {
      if (f === WATCH_KEY) continue;
      const h = admitNew || f in previous || older ? hashOf(f) : null;
      if (h === null && !(f in previous) && admitNew) continue;
      m[f] = h;
      if (h && /^[0-9a-f]{64}$/.test(h)) {
        const copy = path.join(this.store, h);
        if (hashOf(copy) !== h) {
          fs.mkdirSync(this.store, { recursive: true });
          fs.copyFileSync(f, copy);
        }
      }
    }
    return m;
  }

  /** Files whose content differs from the manifest. */
  changed(m: Manifest): string[] {
    const out: string[] = [];
    const older = m[WATCH_KEY] !== WATCH_VERSION;
    for (const f of new Set([...watchedFiles(this.root), ...Object.keys(m)])) {
      if (f === WATCH_KEY || (older && !(f in m))) continue; // a path an older version did not watch: not a change
      const was = f in m ? m[f]! : null;
      if (hashOf(f) !== was) out.push(f);
    }
    return out;
  }

  /** Puts a file back as the manifest says, keeping what stands there now under keepDir. */
  restore(m: Manifest, file: string, keepDir: string): { kept?: string; restored: boolean } {
    // a folder on the way that became a file or a link (.git replaced by a gitfile) is moved aside
    // first: the file is put back where the project has it, never written through the link
    this.clearParents(file, keepDir);
    let kept: string | undefined;
    const st = (() => {
      try {
        return fs.lstatSync(file);
      } catch {
        return undefined;
      }
    })();
    if (st) {
      const named = path.join(keepDir, '_outside', file.replace(/^[/\\]+/, '').replace(/:/g, ''));
      fs.mkdirSync(path.dirname(named), { recursive: true });
      kept = freeName(named);
      // a folder is moved whole, never removed: nothing that stood there is lost
      if (st.isDirectory()) fs.renameSync(file, kept);
      else if (st.isFile()) fs.copyFileSync(file, kept, fs.constants.COPYFILE_EXCL);
      else if (st.isSymbolicLink()) fs.writeFileSync(kept + '.symlink', fs.readlinkSync(file), { flag: 'wx' });
      fs.rmSync(file, { recursive: true, force: true });
    }
    const want = file in m ? m[file]! : null;
    if (want === null) {
      try {
        fs.rmdirSync(path.dirname(file)); // a settings folder made just for this file goes too (only if empty)
      } catch {
        // not empty, or not ours to remove
      }
      return { kept, restored: true };
    }
    // a copy is used only when its content is still what its name says
    const copy = [this.store, this.legacy].map((d) => path.join(d, want)).find((c) => /^[0-9a-f]{64}$/.test(want) && hashOf(c) === want);
    if (!copy) return { kept, restored: false };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(copy, file);
    return { kept, restored: hashOf(file) === want };
  }

  /** Moves aside the project folders above `file` that are no longer folders (a file or a link stands there). */
  private clearParents(file: string, keepDir: string): void {
    const rel = path.relative(this.root, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return;
    const segs = rel.split(path.sep);
    for (let i = 1; i < segs.length; i++) {
      const abs = path.join(this.root, ...segs.slice(0, i));
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch {
        return; // missing: made when the file is put back
      }
      if (st.isDirectory()) continue;
      const kept = freeName(path.join(keepDir, ...segs.slice(0, i)));
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.renameSync(abs, kept);
      return;
    }
  }
}
