import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXCLUDED, excluded, licenseAllowed, readHeldOut, readManifest } from '../train/manifest.js';

const REPO = path.resolve(import.meta.dirname, '..');

/** Every npm package a benchmark fetches, read from the bench sources themselves (name@version literals). */
function benchPackages(): string[] {
  const names = new Set<string>();
  for (const f of fs.readdirSync(path.join(REPO, 'bench'))) {
    if (!f.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(REPO, 'bench', f), 'utf8');
    for (const m of text.matchAll(/['"`]((?:@[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]*)@\d+\.\d+\.\d+['"`]/g)) names.add(m[1]!);
  }
  return [...names];
}

describe('training manifest', () => {
  const manifest = readManifest();

  it('lists packages by exact version, with an allowed licence and a split', () => {
    expect(manifest.length).toBeGreaterThan(100);
    for (const e of manifest) {
      expect(e.version, e.name).toMatch(/^\d+\.\d+\.\d+/);
      expect(licenseAllowed(e.license), `${e.name}: ${e.license}`).toBe(true);
      expect(['train', 'valid']).toContain(e.split);
    }
    expect(new Set(manifest.map((e) => e.name)).size).toBe(manifest.length);
  });

  it('never includes a package a benchmark measures on, nor a held-out one', () => {
    const bench = benchPackages();
    expect(bench).toEqual(expect.arrayContaining(['rxjs', 'three']));
    for (const name of bench) expect(excluded(name), `${name} is fetched by a benchmark but not in EXCLUDED`).toBe(true);
    for (const held of ['effect', 'hono', 'zod', 'three', 'mobx', 'immer', '@tanstack/query-core', 'rxjs']) expect(EXCLUDED).toContain(held);
    const leaked = manifest.filter((e) => excluded(e.name)).map((e) => e.name);
    expect(leaked).toEqual([]);
  });

  it('holds out the packages of the doc-sentence set (bench/semantic-packages.ts): excluded, never in the manifest', () => {
    const held = readHeldOut();
    expect(held.length).toBeGreaterThanOrEqual(20);
    const inManifest = new Set(manifest.map((e) => e.name));
    for (const p of held) {
      expect(excluded(p.name), p.name).toBe(true);
      expect(inManifest.has(p.name), `${p.name} is held out but in train/packages.json`).toBe(false);
      expect(p.version, p.name).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('reads licence expressions', () => {
    expect(licenseAllowed('MIT')).toBe(true);
    expect(licenseAllowed('(MIT OR GPL-3.0)')).toBe(true);
    expect(licenseAllowed('MIT AND Zlib')).toBe(false);
    expect(licenseAllowed('BlueOak-1.0.0')).toBe(false);
    expect(licenseAllowed('SEE LICENSE IN LICENSE.md')).toBe(false);
  });

  it('splits train and validation by package', () => {
    const valid = manifest.filter((e) => e.split === 'valid');
    expect(valid.length).toBeGreaterThan(10);
    expect(valid.length).toBeLessThan(manifest.length / 4);
  });
});
