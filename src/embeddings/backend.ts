/**
 * Which backend is active for a project: the vector leg with the built-in code-search model
 * (data/model/, plain TypeScript: always there unless switched off), or with an ONNX model when one
 * is configured, present and its runtime installed (loaded once per process, lazily, never
 * downloaded); otherwise the lexical one, with the reason and what to do about it.
 */
import { log } from '../util/log.js';
import { BUILTIN_MODEL, type EmbeddingConfig, loadConfig } from './config.js';
import { type Embedder, inspectModelDir, loadEmbedder } from './model.js';
import { findRuntime, RUNTIME_PACKAGE, type RuntimeLocation, runtimeHint } from './runtime.js';
import { loadStaticEmbedder, readCard, STATIC_MODEL_DIR, staticModelPresent } from './static/static-embedder.js';

export interface BackendStatus {
  active: 'neural' | 'lexical';
  model: string;
  model_dir: string;
  model_dir_source: EmbeddingConfig['modelDirSource'];
  model_present: boolean;
  /** the model runtime (@huggingface/transformers): where it was found, or where it was looked for */
  runtime: { present: true; version: string; dir: string; source: RuntimeLocation['source'] | 'built-in' } | { present: false; searched: string[] };
  /** the built-in model's card: version, checksum, what it measured when trained */
  card?: { version: string; sha256: string; bytes: number };
  loaded?: { dim: number; dtype: string; load_ms: number };
  reason?: string;
  hint?: string;
}

const loaded = new Map<string, Promise<Embedder>>();

export class NeuralProvider {
  readonly config: EmbeddingConfig;
  private embedder: Embedder | undefined;
  private error: Error | undefined;
  private loadMs = 0;

  constructor(root: string) {
    this.config = loadConfig(root);
  }

  /** the built-in model (plain TypeScript, in the package) rather than an ONNX one */
  get builtin(): boolean {
    return this.config.model === BUILTIN_MODEL;
  }

  /** The model is configured, allowed, its files are there and so is its runtime (nothing loaded yet). */
  get available(): boolean {
    if (this.config.backend === 'lexical' || this.error) return false;
    if (this.builtin) return staticModelPresent();
    return inspectModelDir(this.config.modelDir).ok && !!findRuntime().found;
  }

  /** Loads the model once (shared by every project of the process); undefined when unavailable. */
  async get(): Promise<Embedder | undefined> {
    if (this.embedder) return this.embedder;
    if (!this.available) return undefined;
    const dir = this.builtin ? STATIC_MODEL_DIR : this.config.modelDir;
    const t0 = performance.now();
    let p = loaded.get(dir);
    if (!p) loaded.set(dir, (p = this.builtin ? Promise.resolve().then(() => loadStaticEmbedder(dir)) : loadEmbedder(dir)));
    try {
      this.embedder = await p;
      this.loadMs = performance.now() - t0;
      return this.embedder;
    } catch (e) {
      loaded.delete(dir);
      this.error = e as Error;
      log.error(`embedding model in ${dir} failed to load; using the lexical backend`, e);
      return undefined;
    }
  }

  status(): BackendStatus {
    return this.builtin ? this.builtinStatus() : this.onnxStatus();
  }

  private builtinStatus(): BackendStatus {
    const card = readCard();
    const present = staticModelPresent();
    const base = {
      model: BUILTIN_MODEL, model_dir: STATIC_MODEL_DIR, model_dir_source: 'default' as const, model_present: present,
      runtime: { present: true as const, version: 'built-in', dir: STATIC_MODEL_DIR, source: 'built-in' as const },
      ...(card ? { card: { version: card.version, sha256: card.sha256, bytes: card.bytes } } : {}),
    };
    if (this.embedder) return { ...base, active: 'neural', loaded: { dim: this.embedder.dim, dtype: this.embedder.dtype, load_ms: Math.round(this.loadMs) } };
    if (this.config.backend === 'lexical') return { ...base, active: 'lexical', reason: `the backend is set to lexical (${process.env.CODE_INTEL_BACKEND ? 'CODE_INTEL_BACKEND' : this.config.configFile})` };
    if (this.error) return { ...base, active: 'lexical', reason: `the built-in model failed to load: ${this.error.message}`, hint: 'Reinstall code-intel (the model ships in its data/model/ folder).' };
    if (!present) return { ...base, active: 'lexical', reason: `the built-in model is missing from ${STATIC_MODEL_DIR}`, hint: 'Reinstall code-intel, or rebuild the model with `npm run train` from a source checkout.' };
    return { ...base, active: 'neural', reason: 'built-in model present; it loads on first use' };
  }

  private onnxStatus(): BackendStatus {
    const c = this.config;
    const check = inspectModelDir(c.modelDir);
    const rt = findRuntime();
    const runtime: BackendStatus['runtime'] = rt.found
      ? { present: true, version: rt.found.version, dir: rt.found.packageDir, source: rt.found.source }
      : { present: false, searched: rt.searched };
    const base = { model: c.model, model_dir: c.modelDir, model_dir_source: c.modelDirSource, model_present: check.ok, runtime };
    if (this.embedder) return { ...base, active: 'neural', loaded: { dim: this.embedder.dim, dtype: this.embedder.dtype, load_ms: Math.round(this.loadMs) } };
    if (c.backend === 'lexical') return { ...base, active: 'lexical', reason: `the backend is set to lexical (${process.env.CODE_INTEL_BACKEND ? 'CODE_INTEL_BACKEND' : c.configFile})` };
    if (this.error) return { ...base, active: 'lexical', reason: `the model failed to load: ${this.error.message}`, hint: 'Check the model directory (code-intel doctor), or pull it again with code-intel model pull.' };
    const pullHint = 'Run `code-intel model pull` where a network allows, or set CODE_INTEL_MODEL_DIR (or "model_dir" in .code-intel/config.json) to a local copy of the model.';
    if (!check.ok) {
      return {
        ...base, active: 'lexical',
        reason: `no model in ${c.modelDir} (missing: ${check.missing.join(', ')})${rt.found ? '' : `, and the model runtime (${RUNTIME_PACKAGE}) is not installed`}`,
        hint: rt.found ? pullHint : `${pullHint} ${runtimeHint()}`,
      };
    }
    if (!rt.found) {
      return { ...base, active: 'lexical', reason: `the model is present but its runtime (${RUNTIME_PACKAGE}) is not installed`, hint: runtimeHint() };
    }
    return { ...base, active: 'neural', reason: 'model present; it loads on first use' };
  }
}
