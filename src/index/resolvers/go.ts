/**
 * Go import paths → packages. A go.mod names its module's path; `import "m/a/b"` is the directory
 * a/b below that go.mod (or m's copy under vendor/, which the go tool prefers). A package is the
 * directory's .go files without its tests: `_test.go` files are not part of an imported package.
 * Anything else (the standard library, other modules) is external.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModuleResolver, Resolution } from './types.js';

export function createGoResolver(root: string, files: ReadonlySet<string>): ModuleResolver {
  const modules: { dir: string; path: string }[] = [];
  const packages = new Map<string, string[]>(); // directory ('' for the root) → its non-test .go files
  for (const f of files) {
    if (f === 'go.mod' || f.endsWith('/go.mod')) {
      const modulePath = readModulePath(path.join(root, f));
      if (modulePath) modules.push({ dir: f === 'go.mod' ? '' : f.slice(0, -'/go.mod'.length), path: modulePath });
    } else if (f.endsWith('.go') && !f.endsWith('_test.go')) {
      const dir = path.posix.dirname(f);
      const key = dir === '.' ? '' : dir;
      let list = packages.get(key);
      if (!list) packages.set(key, (list = []));
      list.push(f);
    }
  }
  modules.sort((a, b) => b.dir.length - a.dir.length); // innermost module first
  const join = (...parts: string[]) => parts.filter(Boolean).join('/');
  const inside = (file: string, dir: string) => dir === '' || file.startsWith(dir + '/');

  return (importer: string, spec: string): Resolution => {
    const own = modules.find((m) => inside(importer, m.dir));
    if (own) {
      const vendored = packages.get(join(own.dir, 'vendor', spec));
      if (vendored) return { package: vendored };
    }
    // the module whose path is the longest prefix of the import path
    let best: { dir: string; path: string } | undefined;
    for (const m of modules) {
      if ((spec === m.path || spec.startsWith(m.path + '/')) && (!best || m.path.length > best.path.length)) best = m;
    }
    if (!best) return { external: true };
    const dir = join(best.dir, spec.slice(best.path.length + 1));
    const list = packages.get(dir);
    return list ? { package: list } : { unresolved: `no Go files in '${dir || '.'}'` };
  };
}

function readModulePath(file: string): string | undefined {
  try {
    return /^\s*module\s+("?)([^\s"]+)\1/m.exec(fs.readFileSync(file, 'utf8'))?.[2];
  } catch {
    return undefined;
  }
}
