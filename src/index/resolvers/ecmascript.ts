/**
 * Module specifier → project file, the way TypeScript's and Node's resolution would find it:
 * relative paths with extension and index probing (`./a.js` also finds `a.ts`), tsconfig
 * `baseUrl`/`paths`, and packages of the same repository (workspaces) by their package.json name.
 * Anything else is external (a dependency), which is not an error.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModuleResolver, Resolution } from './types.js';

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

interface PathsConfig {
  baseUrl: string; // relative to root, '' for root
  paths: [pattern: string, targets: string[]][];
}

export function createEcmascriptResolver(root: string, files: ReadonlySet<string>): ModuleResolver {
  const tsconfig = readTsconfigPaths(root);
  const workspaces = readWorkspacePackages(root, files);

  const probe = (base: string): string | undefined => {
    const norm = path.posix.normalize(base);
    if (norm.startsWith('../') || norm === '..') return undefined;
    const candidates: string[] = [norm];
    const ext = path.posix.extname(norm);
    for (const alt of JS_TO_TS[ext] ?? []) candidates.push(norm.slice(0, -ext.length) + alt);
    for (const e of EXTENSIONS) candidates.push(norm + e);
    for (const e of EXTENSIONS) candidates.push(`${norm}/index${e}`);
    return candidates.find((c) => files.has(c.replace(/^\.\//, '')))?.replace(/^\.\//, '');
  };

  return (importer: string, spec: string): Resolution => {
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const base = spec.startsWith('/') ? spec.slice(1) : path.posix.join(path.posix.dirname(importer), spec);
      const hit = probe(base);
      return hit ? { file: hit } : { unresolved: `no project file matches '${spec}'` };
    }
    if (tsconfig) {
      for (const [pattern, targets] of tsconfig.paths) {
        const star = pattern.indexOf('*');
        let captured: string | undefined;
        if (star < 0) captured = spec === pattern ? '' : undefined;
        else if (spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1)))
          captured = spec.slice(star, spec.length - (pattern.length - star - 1));
        if (captured === undefined) continue;
        for (const t of targets) {
          const hit = probe(path.posix.join(tsconfig.baseUrl, t.replace('*', captured)));
          if (hit) return { file: hit };
        }
      }
      if (tsconfig.baseUrl !== undefined) {
        const hit = probe(path.posix.join(tsconfig.baseUrl, spec));
        if (hit) return { file: hit };
      }
    }
    for (const [name, dir] of workspaces) {
      if (spec !== name && !spec.startsWith(name + '/')) continue;
      const sub = spec.slice(name.length + 1);
      const bases = sub ? [`${dir}/${sub}`, `${dir}/src/${sub}`] : [`${dir}/src/index`, `${dir}/index`, `${dir}/lib/index`];
      for (const b of bases) {
        const hit = probe(b.replace(/^\//, ''));
        if (hit) return { file: hit };
      }
    }
    return { external: true };
  };
}

function readJson(file: string): unknown {
  try {
    // tsconfig allows comments and trailing commas
    const text = fs.readFileSync(file, 'utf8');
    const noComments = text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) => str ?? '');
    return JSON.parse(noComments.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

function readTsconfigPaths(root: string): PathsConfig | undefined {
  const cfg = readJson(path.join(root, 'tsconfig.json')) as
    | { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } }
    | undefined;
  const opts = cfg?.compilerOptions;
  if (!opts || (opts.baseUrl === undefined && !opts.paths)) return undefined;
  const baseUrl = path.posix.normalize(opts.baseUrl ?? '.').replace(/^\.\/?$/, '');
  return { baseUrl, paths: Object.entries(opts.paths ?? {}) };
}

function readWorkspacePackages(root: string, files: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const f of files) {
    if (!(f === 'package.json' || f.endsWith('/package.json'))) continue;
    const pkg = readJson(path.join(root, f)) as { name?: string } | undefined;
    if (pkg?.name) out.push([pkg.name, f === 'package.json' ? '' : f.slice(0, -'/package.json'.length)]);
  }
  // longest name first so `@a/b-c` wins over `@a/b`
  return out.sort((a, b) => b[0].length - a[0].length);
}
