/**
 * Rust paths → files, following the module tree rustc builds from `mod` declarations: a crate root
 * (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, `tests/*.rs`, `examples/*.rs`, `benches/*.rs`
 * next to a Cargo.toml) and, for `mod foo;` in a module whose directory is D, `D/foo.rs` or
 * `D/foo/mod.rs` (D is the file's own directory for crate roots and `mod.rs`, else `dir/stem`).
 *
 * The anchor of a path is resolved here: `crate`, `self`, `super`, a child module of the current
 * module, or a crate of the workspace by its package name; then down through module files while
 * they exist. The rest of the path is returned as `rest` and followed through the module graph by
 * link.ts (`mod` declarations and `pub use` re-exports are exports), which also reaches inline
 * `mod m { ... }` modules. Other first segments are external crates (std, dependencies).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModuleResolver, Resolution } from './types.js';

interface Crate {
  dir: string; // '' for the project root
  name: string | undefined;
  lib: string | undefined;
  main: string | undefined;
}

const TARGET_DIRS = ['tests', 'examples', 'benches'];

export function createRustResolver(root: string, files: ReadonlySet<string>): ModuleResolver {
  const crates: Crate[] = [];
  for (const f of files) {
    if (f !== 'Cargo.toml' && !f.endsWith('/Cargo.toml')) continue;
    const dir = f === 'Cargo.toml' ? '' : f.slice(0, -'/Cargo.toml'.length);
    const at = (rel: string) => (dir ? `${dir}/${rel}` : rel);
    crates.push({ dir, name: crateName(path.join(root, f)), lib: files.has(at('src/lib.rs')) ? at('src/lib.rs') : undefined, main: files.has(at('src/main.rs')) ? at('src/main.rs') : undefined });
  }
  crates.sort((a, b) => b.dir.length - a.dir.length); // innermost first
  const byName = new Map<string, Crate>();
  for (const c of crates) if (c.name && (c.lib ?? c.main)) byName.set(c.name, c);

  const crateOf = (file: string): Crate | undefined => crates.find((c) => c.dir === '' || file.startsWith(c.dir + '/'));
  /** the crate root a file belongs to (its own file for bin, test, example and bench targets) */
  const crateRoot = (file: string): string | undefined => {
    const c = crateOf(file);
    if (!c) {
      // no Cargo.toml: the nearest lib.rs / main.rs up the tree
      for (let d = path.posix.dirname(file); ; d = path.posix.dirname(d)) {
        const dd = d === '.' ? '' : d + '/';
        for (const r of [`${dd}lib.rs`, `${dd}main.rs`, `${dd}src/lib.rs`, `${dd}src/main.rs`]) if (files.has(r)) return r;
        if (d === '.' || d === '') return file;
      }
    }
    const inCrate = c.dir ? file.slice(c.dir.length + 1) : file;
    const top = inCrate.split('/');
    if (top[0] === 'src' && top[1] === 'bin' && top.length >= 3) return top.length === 3 ? file : (c.dir ? c.dir + '/' : '') + top.slice(0, 3).join('/') + '/main.rs';
    if (TARGET_DIRS.includes(top[0]!) && top.length >= 2) return top.length === 2 ? file : (c.dir ? c.dir + '/' : '') + top.slice(0, 2).join('/') + '/main.rs';
    if (inCrate === 'src/main.rs') return file;
    return c.lib ?? c.main ?? file;
  };
  const isRoot = (file: string) => crateRoot(file) === file;
  /** where `mod x;` declared in `file` looks for x */
  const moduleDir = (file: string): string => {
    const dir = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
    if (isRoot(file) || path.posix.basename(file) === 'mod.rs') return dir;
    const stem = path.posix.basename(file, '.rs');
    return dir ? `${dir}/${stem}` : stem;
  };
  const child = (dir: string, name: string): string | undefined =>
    [`${dir ? dir + '/' : ''}${name}.rs`, `${dir ? dir + '/' : ''}${name}/mod.rs`].find((c) => files.has(c));
  const parent = (file: string): string | undefined => {
    if (isRoot(file)) return undefined;
    let dir = path.posix.dirname(file);
    if (path.posix.basename(file) === 'mod.rs') dir = path.posix.dirname(dir);
    if (dir === '.') dir = '';
    const rootFile = crateRoot(file);
    if (rootFile && moduleDir(rootFile) === dir) return rootFile;
    return [`${dir}.rs`, `${dir}/mod.rs`].find((c) => files.has(c));
  };

  return (importer: string, spec: string, scope: readonly string[] = []): Resolution => {
    const segs = spec.split('::');
    let file = importer;
    let inline = [...scope];
    let i = 0;
    if (segs[0] === '') return { external: true }; // `::name`: an extern crate
    if (segs[0] === 'crate') {
      const r = crateRoot(importer);
      if (!r) return { unresolved: 'no crate root (src/lib.rs or src/main.rs) for this file' };
      file = r;
      inline = [];
      i = 1;
    } else if (segs[0] === 'self') {
      i = 1;
    } else if (segs[0] === 'super') {
      for (; segs[i] === 'super'; i++) {
        if (inline.length > 0) inline.pop();
        else {
          const p = parent(file);
          if (!p) return { unresolved: `no parent module of ${file}` };
          file = p;
        }
      }
    } else {
      // a child module of the current module (`mod a;` here, then `use a::X`), else a crate
      const dir = [moduleDir(importer), ...inline].filter(Boolean).join('/');
      const c = child(dir, segs[0]!);
      const other = byName.get(segs[0]!);
      if (c) {
        file = c;
        inline = [];
        i = 1;
      } else if (other) {
        file = other.lib ?? other.main!;
        inline = [];
        i = 1;
      } else return { external: true };
    }
    // down through module files while they exist (what `mod x;` declarations would find, also when
    // a macro such as `cfg_feature! { mod x; }` hides the declaration from the syntax tree)
    if (inline.length === 0) {
      for (let c: string | undefined; i < segs.length && (c = child(moduleDir(file), segs[i]!)); i++) file = c;
    }
    return { file, rest: [...inline, ...segs.slice(i)] };
  };
}

/** `[lib] name` or `[package] name` (dashes become underscores, as in paths) */
function crateName(cargoToml: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(cargoToml, 'utf8');
  } catch {
    return undefined;
  }
  const section = (name: string) => new RegExp(`^\\[${name}\\]([\\s\\S]*?)(?=^\\[|$(?![\\s\\S]))`, 'm').exec(text)?.[1];
  const nameIn = (body: string | undefined) => (body ? /^\s*name\s*=\s*["']([^"']+)["']/m.exec(body)?.[1] : undefined);
  return (nameIn(section('lib')) ?? nameIn(section('package')))?.replace(/-/g, '_');
}
