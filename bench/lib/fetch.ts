/** Fetches an npm package tarball once (npm pack) and extracts it under bench/.cache/. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Fetched {
  /** the extracted package directory (the tarball's `package/`) */
  dir: string;
  fetched: boolean;
  ms: number;
}

export function fetchPackage(cacheDir: string, spec: string): Fetched {
  const t0 = performance.now();
  const slug = spec.replace(/^@/, '').replace(/[/@]/g, '-');
  const target = path.join(cacheDir, slug);
  const pkgDir = path.join(target, 'package');
  const marker = path.join(target, '.complete');
  if (fs.existsSync(marker) && fs.existsSync(pkgDir)) return { dir: pkgDir, fetched: false, ms: performance.now() - t0 };

  fs.mkdirSync(cacheDir, { recursive: true });
  const tgz = path.join(cacheDir, `${slug}.tgz`);
  if (!fs.existsSync(tgz)) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['pack', spec, '--json', '--pack-destination', cacheDir], { cwd: cacheDir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm pack ${spec} failed (${r.status}): ${r.stderr || r.error?.message}`);
    let file: string | undefined;
    try {
      file = (JSON.parse(r.stdout) as { filename: string }[])[0]?.filename;
    } catch {
      file = r.stdout.trim().split('\n').pop();
    }
    if (!file) throw new Error(`npm pack ${spec}: no tarball name in its output`);
    const produced = path.join(cacheDir, path.basename(file.replace(/^@[^/]+\//, '').replace('/', '-')));
    const found = fs.existsSync(produced) ? produced : path.join(cacheDir, path.basename(file));
    if (!fs.existsSync(found)) throw new Error(`npm pack ${spec}: tarball ${file} not found in ${cacheDir}`);
    fs.renameSync(found, tgz);
  }
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const t = spawnSync('tar', ['xzf', tgz, '-C', target], { encoding: 'utf8' });
  if (t.status !== 0) throw new Error(`tar xzf ${tgz} failed: ${t.stderr || t.error?.message}`);
  if (!fs.existsSync(pkgDir)) throw new Error(`${tgz} has no package/ folder`);
  fs.writeFileSync(marker, new Date().toISOString() + '\n');
  return { dir: pkgDir, fetched: true, ms: performance.now() - t0 };
}
