/**
 * Fetches a Debian binary package once (`apt-get download`) and extracts it (`dpkg-deb -x`) under
 * the bench cache. Debian ships Python modules (python3-*) and Rust crate sources (librust-*-dev)
 * this way, which is how the benchmark gets real Python and Rust code on machines that reach only
 * the npm registry and the Debian archive. Any failure is returned, not thrown: the caller prints
 * it and skips that section.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { which } from './util.js';

export type DebFetch = { dir: string; fetched: boolean; ms: number; version: string } | { error: string };

export function fetchDeb(cacheDir: string, pkg: string): DebFetch {
  const t0 = performance.now();
  const target = path.join(cacheDir, `deb-${pkg}`);
  const marker = path.join(target, '.complete');
  if (fs.existsSync(marker)) return { dir: target, fetched: false, ms: performance.now() - t0, version: fs.readFileSync(marker, 'utf8').trim() };
  if (!which('apt-get') || !which('dpkg-deb')) return { error: 'apt-get/dpkg-deb not found (a Debian-based system is needed for this section)' };
  const dl = path.join(cacheDir, 'deb-downloads');
  fs.mkdirSync(dl, { recursive: true });
  const r = spawnSync('apt-get', ['download', pkg], { cwd: dl, encoding: 'utf8' });
  const debs = fs.readdirSync(dl).filter((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (r.status !== 0 || debs.length === 0) {
    const why = (r.stderr || r.error?.message || '').trim().split('\n').filter((l) => !l.startsWith('W:')).slice(-2).join(' ');
    const hint = /Unable to locate|no installation candidate|lists/i.test(why) ? ' (the package lists may be missing: run `apt-get update` first)' : '';
    return { error: `apt-get download ${pkg} failed${hint}: ${why || `exit ${r.status}`}` };
  }
  const deb = path.join(dl, debs.sort().pop()!);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const x = spawnSync('dpkg-deb', ['-x', deb, target], { encoding: 'utf8' });
  if (x.status !== 0) return { error: `dpkg-deb -x ${path.basename(deb)} failed: ${x.stderr || x.error?.message}` };
  const version = /_([^_]+)_[^_]+\.deb$/.exec(deb)?.[1] ?? '?';
  fs.writeFileSync(marker, version + '\n');
  return { dir: target, fetched: true, ms: performance.now() - t0, version };
}
