/**
 * check_write_target: may this file be written now? Only explored files, or a new file inside a
 * directory that holds an explored file when new files are allowed. Paths that leave the project
 * (`..`, absolute, or through a symlink — dangling ones included) are refused, and so are names a
 * shell would expand (globs, `$`, backquotes), control characters and trailing slashes: an
 * approved name must mean one file, whoever uses it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isGuardOwned } from '../guard/protected.js';
import { quote } from '../util/paths.js';

export type WriteVerdict =
  | { allowed: true; file: string; new_file: boolean }
  | { allowed: false; file: string | null; error: string; hint: string };

/** (a backslash is a name's own character outside Windows) */
const SEPARATORS = path.sep === '/' ? /\/+/ : /[\\/]+/;
const SEPARATORS_AT_END = path.sep === '/' ? /\/+$/ : /[\\/]+$/;
/** the names of a path after its root, last first (a stack) */
const names = (p: string): string[] => p.slice(path.parse(p).root.length).split(SEPARATORS).reverse();

/**
 * Where the kernel takes path p (absolute, as written: `..` not yet cancelled): each name is
 * followed through its symlink before a later `..` goes up from where the link led — path.resolve
 * cancels `link/..` as text, so `/tmp/x/link/../.bashrc` with link → /root/.cache is /root/.bashrc,
 * not /tmp/x/.bashrc (red team adv34). A name that does not exist is kept as written (writing
 * creates it; `mkdir -p a/../b` makes `a` first); a dangling symlink resolves to where it points
 * (writing through it creates its target). With `keepLast`, the last name is not followed: the link
 * itself is what a removal changes. Throws on a symlink loop.
 */
export function realpathDeep(p: string, keepLast = false): string {
  const todo = names(p);
  let cur = path.parse(p).root || path.sep;
  let hops = 0;
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (!name || name === '.') continue;
    if (name === '..') {
      cur = path.dirname(cur);
      continue;
    }
    const next = path.join(cur, name);
    // /proc/self is the process that looks, not the shell that writes: from /proc on the path is
    // left as written (red team adv35: `cd / && echo x >> /proc/self/cwd/../../root/.bashrc` was
    // judged in the hook's folder, the project)
    if (next === PROC) return [next, ...todo.reverse()].join(path.sep);
    let link: string | undefined;
    if (!(keepLast && todo.every((t) => !t || t === '.'))) {
      try {
        if (fs.lstatSync(next).isSymbolicLink()) link = fs.readlinkSync(next);
      } catch {
        link = undefined; // missing: kept as written
      }
    }
    if (link === undefined) {
      cur = next;
      continue;
    }
    if (++hops > 40) throw new Error('symlink loop'); // (Linux's own limit)
    if (path.isAbsolute(link)) cur = path.parse(link).root;
    todo.push(...names(link));
  }
  return cur;
}

const PROC = path.join(path.sep, 'proc');
/** A path realpathDeep left as written under /proc: where it lands depends on the process that writes. */
export const processRelative = (p: string): boolean => p === PROC || p.startsWith(PROC + path.sep);

/** `t` named in folder `base`, as written (not normalised: realpathDeep reads its `..` after links). */
export const asWritten = (base: string, t: string): string => (path.isAbsolute(t) ? t : base.replace(SEPARATORS_AT_END, '') + path.sep + t);

/** Why a written path is not one plain file name, or undefined. */
export function unsafeName(filePath: string): string | undefined {
  if (filePath.length > 4096) return 'is longer than 4096 characters';
  if (/[\u0000-\u001f\u007f]/.test(filePath)) return 'contains a control character (NUL, newline, …)';
  if (/[/\\]$/.test(filePath)) return 'ends with a slash: name a file, not a folder';
  // a name no file system here takes (NAME_MAX): approving it approves nothing that can exist
  const long = filePath.split(/[/\\]/).find((seg) => Buffer.byteLength(seg) > 255);
  if (long) return `has a name longer than 255 bytes ('${long.slice(0, 40)}…')`;
  return undefined;
}

/**
 * A new file's name must not be a pattern or a command (`*`, `?`, backquotes and `$(` expand in a
 * shell), nor read as another name: an invisible or direction-changing character (U+200B, U+202E),
 * a Cyrillic or Greek letter among Latin ones (src/cаrt.ts), a form Unicode writes another way (NFD
 * é), or a name that differs only in case from one beside it (src/Cart.ts next to src/cart.ts: one
 * file on macOS and Windows, two here). Such a name sits beside explored code to a reader and is
 * another file to the system.
 */
function unsafeNewName(root: string, rel: string): string | undefined {
  if (/[*?`]|\$\(|\$\{/.test(rel)) return 'contains a shell pattern or substitution (* ? ` $( ${)';
  const invisible = /[\p{Cf}\p{Zl}\p{Zp}\u00a0\u2000-\u200a\u3000]/u.exec(rel);
  if (invisible) return `contains an invisible or direction-changing character (U+${invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  if (rel !== rel.normalize('NFC')) return 'is not in the form Unicode composes it (NFC): the same name written another way';
  const mixed = rel.split('/').find((seg) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(seg) && /\p{Script=Latin}/u.test(seg));
  if (mixed) return `mixes Latin with Cyrillic or Greek letters in '${mixed.slice(0, 80)}' (a look-alike of another name)`;
  // the new part of the path, segment by segment: none may differ only in case from a name beside it
  const parts = rel.split('/');
  let dir = root;
  for (const part of parts) {
    const here = path.join(dir, part);
    if (fs.existsSync(here)) {
      dir = here;
      continue;
    }
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir);
    } catch {
      break;
    }
    const twin = names.find((n) => n !== part && n.normalize('NFC').toLowerCase() === part.toLowerCase());
    if (twin) return `differs only in case from '${path.relative(root, path.join(dir, twin)).split(path.sep).join('/')}' beside it (one file where case is not told apart)`;
    break;
  }
  return undefined;
}

export function checkWriteTarget(root: string, filePath: string, allowNew: boolean, explored: ReadonlySet<string>): WriteVerdict {
  const bad = unsafeName(filePath);
  if (bad) return { allowed: false, file: null, error: `'${filePath.slice(0, 200)}' ${bad}`, hint: 'Pass the plain path of one file, relative to the project root.' };
  const abs = path.resolve(root, filePath);
  const lexical = path.relative(root, abs);
  if (lexical.startsWith('..') || path.isAbsolute(lexical)) {
    return { allowed: false, file: null, error: `'${quote(filePath, 200)}' is outside the project root`, hint: 'Only files inside the project can be written.' };
  }
  let real: string;
  try {
    real = realpathDeep(asWritten(root, filePath));
  } catch {
    // symlinks that point at each other: no file lies behind the name (it was an internal_error)
    return { allowed: false, file: null, error: `'${quote(filePath, 200)}' resolves through a symlink loop: it names no file`, hint: 'Pass the path of a real file inside the project.' };
  }
  const relReal = path.relative(root, real);
  if (relReal.startsWith('..') || path.isAbsolute(relReal)) {
    return { allowed: false, file: null, error: `'${quote(filePath, 200)}' resolves through a symlink to ${quote(real, 200)}, outside the project`, hint: 'Write the real file inside the project instead.' };
  }
  const rel = relReal.split(path.sep).join('/');
  if (isGuardOwned(rel)) {
    return { allowed: false, file: rel, error: `'${rel}' belongs to the write guard (client settings, hooks, MCP config, git config, .code-intel/)`, hint: 'Ask the user to change it; a /code session never does.' };
  }
  const exists = fs.existsSync(real);
  if (exists && fs.statSync(real).isDirectory()) {
    return { allowed: false, file: rel, error: `'${rel}' is a directory`, hint: 'Pass a file path.' };
  }
  if (exists) {
    if (explored.has(rel) || followsManifest(rel, explored)) return { allowed: true, file: rel, new_file: false };
    return {
      allowed: false, file: rel,
      error: `File '${rel}' was not explored in this session`,
      hint: 'Explore it first (get_symbols on it, or read it; a find_definitions or find_references row, or a search_text match, shows one line and explores nothing) — or revert_to_exploration if the plan changed.',
    };
  }
  const badNew = unsafeNewName(root, rel);
  if (badNew) return { allowed: false, file: rel, error: `new file '${rel.slice(0, 200)}' ${badNew}`, hint: 'Name one plain file.' };
  if (!allowNew) {
    return { allowed: false, file: rel, error: `'${rel}' does not exist and allow_new_files is false`, hint: 'Pass allow_new_files: true to create a new file in an explored directory.' };
  }
  // a new file goes beside code the session explored; a new folder too (a test folder the
  // project does not have yet, tr26): then the nearest folder that exists must hold explored code
  let dir = path.posix.dirname(rel);
  const made = (d: string) => d !== '.' && !fs.existsSync(path.join(root, d));
  while (made(dir)) dir = path.posix.dirname(dir);
  if (dir !== '.' && !fs.statSync(path.join(root, dir)).isDirectory()) {
    return { allowed: false, file: rel, error: `'${rel.slice(0, 200)}' goes through '${dir}', which is a file, not a folder: no file can be made there`, hint: 'Name a file in a folder.' };
  }
  const dirExplored = [...explored].some((f) => path.posix.dirname(f) === dir);
  if (dirExplored) return { allowed: true, file: rel, new_file: true };
  const where = dir === '.' ? 'the project root' : `'${dir}'`;
  return {
    allowed: false, file: rel,
    error: `New file '${rel}' is not beside code this session explored (${where} holds no explored file)`,
    hint: `Explore a file in ${where} first, or create the file next to code you explored.`,
  };
}

/** Lock files a package manager writes from a manifest: the manifest each follows. */
const LOCKS: Readonly<Record<string, string>> = {
  'package-lock.json': 'package.json', 'npm-shrinkwrap.json': 'package.json', 'pnpm-lock.yaml': 'package.json', 'yarn.lock': 'package.json', 'bun.lock': 'package.json', 'bun.lockb': 'package.json',
  'Cargo.lock': 'Cargo.toml', 'poetry.lock': 'pyproject.toml', 'uv.lock': 'pyproject.toml', 'pdm.lock': 'pyproject.toml', 'Pipfile.lock': 'Pipfile', 'go.sum': 'go.mod', 'composer.lock': 'composer.json', 'Gemfile.lock': 'Gemfile',
};

/**
 * A lock file changes with its manifest: where the session explored the manifest beside it (or one
 * of a workspace below it, whose lock lives at the root), the lock may change too — `npm install x`
 * after reading package.json rewrites package-lock.json, which nobody reads first (red team adv40's
 * friction).
 */
export function followsManifest(rel: string, explored: ReadonlySet<string>): boolean {
  const manifest = LOCKS[path.posix.basename(rel)];
  if (!manifest) return false;
  const dir = path.posix.dirname(rel);
  const under = dir === '.' ? '' : `${dir}/`;
  for (const f of explored) if (f.startsWith(under) && path.posix.basename(f) === manifest) return true;
  return false;
}
