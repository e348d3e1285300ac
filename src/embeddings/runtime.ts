/**
 * The neural backend's runtime, @huggingface/transformers on onnxruntime-node (about 430 MB), is not
 * part of the default install: code-intel runs on the lexical backend without it. It is found, in
 * this order:
 *
 *   1. CODE_INTEL_RUNTIME_DIR, when set: only there (an `npm install --prefix` folder);
 *   2. wherever Node resolves it from code-intel itself: a development checkout (a devDependency),
 *      or next to a global install of code-intel (`npm install -g @huggingface/transformers`);
 *   3. the default runtime folder, XDG_CACHE_HOME/code-intel/runtime (~/.cache/code-intel/runtime),
 *      which `code-intel model install-runtime` fills from the npm registry.
 *
 * Finding it reads a few files and loads nothing; loading it is `loadRuntime()`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Transformers from '@huggingface/transformers';
import { PACKAGE_ROOT, UserError } from '../util/paths.js';

export type TransformersModule = typeof Transformers;

export const RUNTIME_PACKAGE = '@huggingface/transformers';
/** The version the tests run on, pinned in package.json devDependencies; this fallback only if it cannot be read. */
const FALLBACK_VERSION = '4.3.1';

export function runtimeVersionWanted(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
    return pkg.devDependencies?.[RUNTIME_PACKAGE] ?? FALLBACK_VERSION;
  } catch {
    return FALLBACK_VERSION;
  }
}

/** The folder `code-intel model install-runtime` installs into when nothing says otherwise. */
export function defaultRuntimeDir(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'code-intel', 'runtime');
}

export interface RuntimeLocation {
  /** how it was found */
  source: 'CODE_INTEL_RUNTIME_DIR' | 'node resolution' | 'runtime dir';
  /** the package's own folder */
  packageDir: string;
  version: string;
  /** the ESM entry point loadRuntime imports */
  entry: string;
}

export interface RuntimeSearch {
  found?: RuntimeLocation;
  /** where it was looked for, in order (for the message when it is missing) */
  searched: string[];
}

/** Resolves the package from `base` (a folder whose node_modules, or whose ancestors' node_modules, may hold it). */
function resolveFrom(base: string): { packageDir: string; version: string; entry: string } | undefined {
  let cjs: string;
  try {
    cjs = createRequire(path.join(base, '__code-intel__.js')).resolve(RUNTIME_PACKAGE);
  } catch {
    return undefined;
  }
  for (let dir = path.dirname(cjs); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    try {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string; exports?: any; module?: string };
      if (pkg.name !== RUNTIME_PACKAGE) continue;
      const esm: unknown = pkg.exports?.node?.import?.default ?? pkg.exports?.node?.import ?? pkg.module;
      const entry = typeof esm === 'string' ? path.join(dir, esm) : cjs;
      return fs.existsSync(entry) ? { packageDir: dir, version: pkg.version ?? '?', entry } : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const found = new Map<string, RuntimeSearch>();

/** Where the runtime is, if anywhere. Reads files only; a runtime once found is remembered (a missing one is looked for again). */
export function findRuntime(): RuntimeSearch {
  const key = process.env.CODE_INTEL_RUNTIME_DIR ?? '';
  const known = found.get(key);
  if (known) return known;
  const r = searchRuntime();
  if (r.found) found.set(key, r);
  return r;
}

function searchRuntime(): RuntimeSearch {
  const explicit = process.env.CODE_INTEL_RUNTIME_DIR;
  if (explicit) {
    const dir = path.resolve(explicit);
    const r = resolveFrom(dir);
    return { found: r && { source: 'CODE_INTEL_RUNTIME_DIR', ...r }, searched: [dir] };
  }
  const searched: string[] = [];
  const here = path.dirname(fileURLToPath(import.meta.url));
  searched.push(`node_modules folders above ${PACKAGE_ROOT}`);
  const near = resolveFrom(here);
  if (near) return { found: { source: 'node resolution', ...near }, searched };
  const dir = defaultRuntimeDir();
  searched.push(dir);
  const r = resolveFrom(dir);
  return { found: r && { source: 'runtime dir', ...r }, searched };
}

/** The runtime is not installed; the message names the fix. */
export class RuntimeMissingError extends UserError {
  constructor(readonly searched: string[]) {
    super(`the neural backend's runtime (${RUNTIME_PACKAGE}) is not installed (looked in: ${searched.join('; ')})`, runtimeHint(), 'runtime_missing');
  }
}

/** What to run to get the runtime (from the npm registry only). */
export function runtimeHint(): string {
  const v = runtimeVersionWanted();
  return (
    `Install the runtime with \`code-intel model install-runtime\` (about 430 MB from the npm registry, into ${process.env.CODE_INTEL_RUNTIME_DIR ? path.resolve(process.env.CODE_INTEL_RUNTIME_DIR) : defaultRuntimeDir()}), ` +
    `or \`npm install -g --ignore-scripts ${RUNTIME_PACKAGE}@${v}\` next to a global install of code-intel. ` +
    'Without it the lexical backend is used.'
  );
}

/** Imports the runtime; throws RuntimeMissingError when it is not installed. */
export async function loadRuntime(): Promise<TransformersModule> {
  const r = findRuntime();
  if (!r.found) throw new RuntimeMissingError(r.searched);
  return (await import(pathToFileURL(r.found.entry).href)) as TransformersModule;
}

/**
 * `code-intel model install-runtime`: `npm install --prefix DIR --ignore-scripts` of the pinned
 * version. Install scripts are skipped: onnxruntime-node's only fetches GPU add-ons (CUDA/TensorRT)
 * from outside the npm registry, and its CPU binaries ship inside the package.
 */
export function installRuntime(opts: { dir?: string; version?: string; quiet?: boolean } = {}): { dir: string; version: string; packageDir: string; ms: number } {
  const dir = path.resolve(opts.dir ?? process.env.CODE_INTEL_RUNTIME_DIR ?? defaultRuntimeDir());
  const version = opts.version ?? runtimeVersionWanted();
  fs.mkdirSync(dir, { recursive: true });
  const args = ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--save-exact', `${RUNTIME_PACKAGE}@${version}`];
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const t0 = performance.now();
  const r = spawnSync(npm, args, { cwd: dir, stdio: ['ignore', opts.quiet ? 'ignore' : 2, opts.quiet ? 'pipe' : 2], shell: process.platform === 'win32', encoding: 'utf8' });
  const manual = `npm ${args.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}`;
  if (r.error) throw new UserError(`could not run npm: ${r.error.message}`, `Install it by hand: ${manual}`, 'runtime_install_failed');
  if (r.status !== 0) {
    throw new UserError(
      `npm could not install ${RUNTIME_PACKAGE}@${version} into ${dir} (exit ${r.status})${r.stderr ? `:\n${String(r.stderr).trim().split('\n').slice(-8).join('\n')}` : ''}`,
      `It needs the npm registry (or a mirror set with npm's registry setting). Run it by hand to see npm's full output: ${manual}`,
      'runtime_install_failed',
    );
  }
  const location = resolveFrom(dir);
  if (!location) throw new UserError(`npm finished but ${RUNTIME_PACKAGE} is not in ${dir}/node_modules`, `Run it by hand: ${manual}`, 'runtime_install_failed');
  return { dir, version: location.version, packageDir: location.packageDir, ms: performance.now() - t0 };
}
