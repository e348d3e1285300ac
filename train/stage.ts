/**
 * One manifest package on disk: fetched by name and version with `npm pack` (kept in the cache),
 * unpacked, its licence read from its own package.json, and the code files worth learning from
 * staged under code/ (so the index's top-level build-output ignores, dist/ and build/, do not apply).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ManifestEntry } from './manifest.js';

const CODE_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const SKIP_DIR = /(^|\/)(node_modules|tests?|__tests__|__mocks__|spec|specs|examples?|demo|docs?|benchmarks?|fixtures|locales?|i18n|umd|min)(\/|$)/i;
const MAX_FILE = 600 * 1024;
const MAX_PACKAGE_BYTES = 8 * 1024 * 1024;

/** npm pack, once per name@version; the tarball is kept in the cache. */
export function fetchTarball(cache: string, e: ManifestEntry): string {
  const dir = path.join(cache, 'tgz');
  fs.mkdirSync(dir, { recursive: true });
  const base = `${e.name.replace(/^@/, '').replace('/', '-')}-${e.version}.tgz`;
  const file = path.join(dir, base);
  if (fs.existsSync(file)) return file;
  const r = spawnSync('npm', ['pack', `${e.name}@${e.version}`, '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
  if (r.status !== 0 || !fs.existsSync(file)) throw new Error(`npm pack ${e.name}@${e.version} failed: ${r.stderr.trim().split('\n').pop()}`);
  return file;
}

export function licenseOf(pkgJson: { license?: unknown; licenses?: { type?: string }[] }): string {
  const l = pkgJson.license;
  if (typeof l === 'string') return l;
  if (l && typeof l === 'object' && 'type' in l) return String((l as { type: unknown }).type);
  return pkgJson.licenses?.[0]?.type ?? 'UNKNOWN';
}

/** A bundle or minified file: long lines (a minifier's output, or a bundler's that says nothing the sources do not). */
function minified(file: string): boolean {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  return lines.some((l) => l.length > 2000) || text.length / lines.length > 200;
}

/** The code files worth learning from: src/ when the package ships it, else everything but tests, bundles and copies. */
export function selectFiles(pkgDir: string): string[] {
  const all: { rel: string; size: number }[] = [];
  const walk = (rel: string) => {
    for (const d of fs.readdirSync(path.join(pkgDir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!SKIP_DIR.test(r)) walk(r);
      } else if (d.isFile() && CODE_EXT.test(d.name) && !/\.min\.|\.(test|spec)\./.test(d.name)) {
        const size = fs.statSync(path.join(pkgDir, r)).size;
        if (size <= MAX_FILE && !minified(path.join(pkgDir, r))) all.push({ rel: r, size });
      }
    }
  };
  walk('');
  // declaration files carry the same docs as the code (name and signature, no body): kept, and a
  // pair with a body wins when both exist (keyOf)
  const src = all.filter((f) => f.rel.startsWith('src/'));
  let chosen = src.length >= 3 ? src : all;
  // one module format when a package ships several (dist/esm and dist/cjs hold the same code)
  const formats = ['esm', 'es', 'es6', 'module', 'mjs', 'cjs', 'commonjs', 'lib', 'dist'];
  for (const f of formats) {
    const inF = chosen.filter((x) => x.rel.split('/').includes(f));
    if (inF.length >= 3 && inF.length < chosen.length && chosen.some((x) => formats.some((g) => g !== f && x.rel.split('/').includes(g)))) {
      chosen = [...inF, ...chosen.filter((x) => !formats.some((g) => x.rel.split('/').includes(g)))];
      break;
    }
  }
  const out: string[] = [];
  let bytes = 0;
  for (const f of chosen.sort((a, b) => (a.rel < b.rel ? -1 : 1))) {
    if (bytes + f.size > MAX_PACKAGE_BYTES) break;
    bytes += f.size;
    out.push(f.rel);
  }
  return out;
}


export interface Staged {
  /** the unpacked package (package.json, README, …) */
  pkgDir: string;
  /** the staging root: code/<path in the package> for every selected file */
  stage: string;
  files: string[];
  license: string;
  /** removes the unpacked and staged copies */
  cleanup(): void;
}

export function stagePackage(cache: string, e: ManifestEntry): Staged {
  const tgz = fetchTarball(cache, e);
  const work = path.join(cache, 'work', e.name.replace(/^@/, '').replace('/', '-'));
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const t = spawnSync('tar', ['xzf', tgz, '-C', work], { encoding: 'utf8' });
  if (t.status !== 0) throw new Error(`tar ${tgz}: ${t.stderr}`);
  const pkgDir = path.join(work, fs.readdirSync(work)[0]!); // usually package/
  const license = licenseOf(JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { license?: unknown });
  const stage = path.join(work, 'stage');
  const files = selectFiles(pkgDir);
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(stage, 'code', rel)), { recursive: true });
    fs.copyFileSync(path.join(pkgDir, rel), path.join(stage, 'code', rel));
  }
  fs.mkdirSync(stage, { recursive: true });
  return { pkgDir, stage, files, license, cleanup: () => fs.rmSync(work, { recursive: true, force: true }) };
}
