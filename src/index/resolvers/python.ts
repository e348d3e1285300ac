/**
 * Python module resolution, as the import system finds modules on `sys.path`: a module is a file
 * (`a/b.py`, or a stub `a/b.pyi`), a package is a directory (`a/__init__.py`, or a namespace
 * package without one). Absolute imports are tried from the project root, `src/`, the directories
 * holding a pyproject.toml / setup.py / setup.cfg (and their `src/`), and last the importer's own
 * directory (a script's `sys.path[0]`); relative imports (`.x`, `..`) from the importer's package.
 * Anything else is external (the standard library, installed packages).
 */
import path from 'node:path';
import type { ModuleResolver, Resolution } from './types.js';

const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg'];

export function createPythonResolver(_root: string, files: ReadonlySet<string>): ModuleResolver {
  const roots = new Set<string>(['', 'src']);
  const dirs = new Set<string>(); // directories holding Python files: namespace packages
  for (const f of files) {
    const base = path.posix.basename(f);
    if (PROJECT_MARKERS.includes(base) && f !== base) {
      const dir = path.posix.dirname(f);
      roots.add(dir);
      roots.add(`${dir}/src`);
    }
    if (f.endsWith('.py') || f.endsWith('.pyi')) {
      for (let d = path.posix.dirname(f); d !== '.' && !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
    }
  }
  const join = (...parts: string[]) => parts.filter(Boolean).join('/');
  const moduleFile = (base: string): string | undefined =>
    [`${base}.py`, `${base}/__init__.py`, `${base}.pyi`, `${base}/__init__.pyi`].find((c) => files.has(c));
  const found = (base: string): Resolution | undefined => {
    const file = moduleFile(base);
    if (file) return { file };
    // a directory without __init__.py is a namespace package: no file of its own, but its
    // submodules resolve (link.ts continues with `join`)
    if (dirs.has(base)) return { unresolved: `'${base}' is a namespace package (no __init__.py)` };
    return undefined;
  };

  const resolve: ModuleResolver = (importer: string, spec: string): Resolution => {
    const m = /^(\.*)(.*)$/.exec(spec)!;
    const dots = m[1]!.length;
    const parts = m[2] ? m[2].split('.') : [];
    if (dots > 0) {
      let dir = path.posix.dirname(importer);
      for (let i = 1; i < dots; i++) {
        if (dir === '.' || dir === '') return { unresolved: `'${spec}' goes above the project root` };
        dir = path.posix.dirname(dir);
      }
      const base = join(dir === '.' ? '' : dir, ...parts);
      if (base === '') return { unresolved: 'the project root is not a package' };
      return found(base) ?? { unresolved: `no module '${spec}' relative to ${importer}` };
    }
    for (const r of roots) {
      const hit = found(join(r, ...parts));
      if (hit) return hit;
    }
    // a script's own directory is first on sys.path
    const own = path.posix.dirname(importer);
    if (own !== '.') {
      const hit = found(join(own, ...parts));
      if (hit) return hit;
    }
    return { external: true };
  };
  resolve.join = (spec: string, name: string) => (/^\.+$/.test(spec) ? spec + name : `${spec}.${name}`);
  return resolve;
}
