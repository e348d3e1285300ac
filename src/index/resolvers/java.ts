/**
 * Java names → packages. By convention package a.b.c is a directory whose path ends in a/b/c
 * (below src/main/java, src/test/java, src, ...; the tests of a package live in another tree but
 * belong to it). `a.b.C.m` resolves to its longest prefix that is such a package; the rest (`C`,
 * then `m`) is looked up among that package's classes and their members by link.ts. A name that
 * has no package prefix in the project (java.util.List, org.junit.Test) is external.
 */
import type { ModuleResolver, Resolution } from './types.js';

export function createJavaResolver(_root: string, files: ReadonlySet<string>): ModuleResolver {
  const dirs = new Map<string, string[]>(); // directory → its .java files
  for (const f of files) {
    if (!f.endsWith('.java')) continue;
    const slash = f.lastIndexOf('/');
    const dir = slash < 0 ? '' : f.slice(0, slash);
    let list = dirs.get(dir);
    if (!list) dirs.set(dir, (list = []));
    list.push(f);
  }
  const byLastSegment = new Map<string, string[]>();
  for (const dir of dirs.keys()) {
    const last = dir.slice(dir.lastIndexOf('/') + 1);
    let list = byLastSegment.get(last);
    if (!list) byLastSegment.set(last, (list = []));
    list.push(dir);
  }
  const packageFiles = new Map<string, string[]>();
  const filesOf = (pkg: string): string[] => {
    let hit = packageFiles.get(pkg);
    if (!hit) {
      const suffix = pkg.replace(/\./g, '/');
      const last = suffix.slice(suffix.lastIndexOf('/') + 1);
      hit = (byLastSegment.get(last) ?? []).filter((d) => d === suffix || d.endsWith('/' + suffix)).flatMap((d) => dirs.get(d)!);
      packageFiles.set(pkg, hit);
    }
    return hit;
  };

  return (_importer: string, spec: string): Resolution => {
    const parts = spec.split('.');
    for (let k = parts.length; k >= 1; k--) {
      const found = filesOf(parts.slice(0, k).join('.'));
      if (found.length > 0) return k < parts.length ? { package: found, rest: parts.slice(k) } : { package: found };
    }
    return { external: true };
  };
}
