/**
 * Java names → packages. By convention package a.b.c is a directory whose path ends in a/b/c
 * (below src/main/java, src/test/java, src, ...; the tests of a package live in another tree but
 * belong to it), and its files say so (`package a.b.c;`: a directory `x/util` is not package
 * `util`). `a.b.C.m` resolves to its longest prefix that is such a package; the rest (`C`, then
 * `m`) is looked up among that package's classes and their members by link.ts. A name that has
 * no package prefix in the project (java.util.List, org.junit.Test) is external.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModuleResolver, Resolution } from './types.js';

export function createJavaResolver(root: string, files: ReadonlySet<string>): ModuleResolver {
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
      hit = (byLastSegment.get(last) ?? [])
        .filter((d) => (d === suffix || d.endsWith('/' + suffix)) && declaredPackage(d) === pkg)
        .flatMap((d) => dirs.get(d)!);
      packageFiles.set(pkg, hit);
    }
    return hit;
  };

  const declared = new Map<string, string | undefined>();
  /** the package the files of a directory declare (read from the first of them) */
  const declaredPackage = (dir: string): string | undefined => {
    if (!declared.has(dir)) declared.set(dir, readPackage(path.join(root, dirs.get(dir)![0]!)));
    return declared.get(dir);
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

function readPackage(file: string): string | undefined {
  let head = '';
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(8192);
      head = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const code = head.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' '); // a licence header comes first
  return /^\s*package\s+([\w.]+)\s*;/m.exec(code)?.[1];
}
