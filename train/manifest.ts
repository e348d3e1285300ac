/**
 * The training manifest (train/packages.json): every npm package the model learns from, by name and
 * exact version, with its licence and its split. Packages any benchmark measures on are excluded —
 * a model that has seen the evaluation code would measure nothing (test/train-manifest.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ManifestEntry {
  name: string;
  version: string;
  license: string;
  split: 'train' | 'valid';
}

const ALLOWED = /^(MIT|ISC|Apache-2\.0|BSD-2-Clause|BSD-3-Clause|0BSD)$/i;

/** An SPDX expression we may train on: one allowed licence, a choice (OR) that offers one, or a conjunction (AND) of allowed ones. */
export function licenseAllowed(expr: string): boolean {
  const e = expr.replace(/[()]/g, '').trim();
  if (/ OR /i.test(e)) return e.split(/ OR /i).some(licenseAllowed);
  return e.split(/ AND /i).every((x) => ALLOWED.test(x.trim()));
}

/**
 * Never trained on: the benchmarks' code (bench/run.ts, semantic.ts, startup.ts, polyglot.ts,
 * relevance-commits.ts and the agent trials' repositories), the held-out packages named by the
 * project, and the packages of bench/data/heldout-packages.json (excluded() reads them). A name
 * matches exactly or, for an entry ending in '/', by scope.
 */
export const EXCLUDED = [
  'rxjs', 'effect', 'mobx', 'immer', '@tanstack/query-core', 'hono', 'zod', 'three',
  'vue', '@vue/', 'pinia', 'vue-router', 'vite', 'vitest', '@vitest/', 'nitropack', 'nitro', 'h3',
  'jotai', 'react-use', 'unocss', '@unocss/', '@vueuse/', 'pyright',
];

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** bench/data/heldout-packages.json: the doc-sentence retrieval set of packages the model never sees (bench/semantic-packages.ts) */
export const HELDOUT_FILE = [path.join(HERE, '..', 'bench', 'data', 'heldout-packages.json'), path.join(HERE, '..', '..', 'bench', 'data', 'heldout-packages.json')].find((f) => fs.existsSync(f)) ?? path.join(HERE, '..', 'bench', 'data', 'heldout-packages.json');

export interface HeldOutPackage { name: string; version: string; license: string }

export function readHeldOut(): HeldOutPackage[] {
  return (JSON.parse(fs.readFileSync(HELDOUT_FILE, 'utf8')) as { packages: HeldOutPackage[] }).packages;
}

let heldOutNames: Set<string> | undefined;

export function excluded(name: string): boolean {
  heldOutNames ??= new Set(readHeldOut().map((p) => p.name));
  return heldOutNames.has(name) || EXCLUDED.some((x) => (x.endsWith('/') ? name.startsWith(x) : name === x));
}

/** train/packages.json, from the source tree (dist/train/… reads ../../train). */
export const MANIFEST_FILE = [path.join(HERE, 'packages.json'), path.join(HERE, '..', '..', 'train', 'packages.json')].find((f) => fs.existsSync(f)) ?? path.join(HERE, 'packages.json');

export function readManifest(): ManifestEntry[] {
  return JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')) as ManifestEntry[];
}
