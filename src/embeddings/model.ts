/**
 * The neural backend: a sentence-embedding model loaded by @huggingface/transformers (on
 * onnxruntime-node; an extra install, see runtime.ts) from a LOCAL directory. Remote loading is switched off before anything is
 * loaded, and the library's fetch is replaced by one that refuses: a tool call never downloads.
 *
 * A model directory holds config.json, tokenizer.json, tokenizer_config.json and
 * onnx/model_quantized.onnx (preferred) or onnx/model.onnx; optionally code-intel-model.json
 * {name, query_prefix, passage_prefix} written by `code-intel model pull`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../util/paths.js';
import { KNOWN_MODELS } from './config.js';
import { loadRuntime } from './runtime.js';
import type { Calibration } from './calibration.js';
import type { CodeInput } from './static/features.js';

export const MANIFEST = 'code-intel-model.json';

/** The model is not where the configuration says; the message names the fix. */
export class ModelMissingError extends UserError {
  constructor(readonly dir: string, readonly missing: string[]) {
    super(
      `no embedding model in ${dir} (missing: ${missing.join(', ')})`,
      'Run `code-intel model pull` where a network allows, or copy a model directory there, or point CODE_INTEL_MODEL_DIR ' +
        '(or "model_dir" in .code-intel/config.json) at a local copy. Without it the lexical backend is used.',
      'model_missing',
    );
  }
}

export interface ModelFiles {
  weights: string;
  dtype: 'q8' | 'fp32';
}

/** Checks a model directory without loading anything. */
export function inspectModelDir(dir: string): { ok: true; files: ModelFiles } | { ok: false; missing: string[] } {
  const missing: string[] = [];
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return { ok: false, missing: ['the directory itself'] };
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) if (!fs.existsSync(path.join(dir, f))) missing.push(f);
  const q = path.join(dir, 'onnx', 'model_quantized.onnx');
  const fp = path.join(dir, 'onnx', 'model.onnx');
  const weights = fs.existsSync(q) ? { weights: q, dtype: 'q8' as const } : fs.existsSync(fp) ? { weights: fp, dtype: 'fp32' as const } : undefined;
  if (!weights) missing.push('onnx/model_quantized.onnx (or onnx/model.onnx)');
  return missing.length || !weights ? { ok: false, missing } : { ok: true, files: weights };
}

export interface Embedder {
  readonly name: string;
  /**
   * What its vectors and calibration are stored under, where one name has had several weights
   * (the built-in model: name@checksum): vectors of other weights are never mixed with its own.
   * The name when absent.
   */
  readonly storeKey?: string;
  readonly dir: string;
  readonly dim: number;
  readonly dtype: string;
  readonly queryPrefix: string;
  readonly passagePrefix: string;
  /** L2-normalised mean-pooled vectors, one per text, prefixes applied */
  embed(texts: string[], kind: 'query' | 'passage'): Promise<Float32Array[]>;
  /** declarations read by field (the built-in model); a model without it embeds the chunk text */
  embedCode?(items: CodeInput[]): Float32Array[];
  /** the model's own cosine → tier curve, measured when it was trained (used until a project measures its own) */
  readonly calibration?: Calibration;
  dispose(): Promise<void>;
}

interface Manifest {
  name?: string;
  query_prefix?: string;
  passage_prefix?: string;
}

function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (fs.existsSync(file)) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    } catch {
      /* fall through to inference */
    }
  }
  return {};
}

/** The prefixes the model expects: from the manifest, else from a known model name (e5: query:/passage:). */
export function prefixesFor(dir: string): { name: string; queryPrefix: string; passagePrefix: string } {
  const m = readManifest(dir);
  let nameOrPath = m.name ?? path.basename(dir);
  try {
    const cfg = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { _name_or_path?: string };
    if (!m.name && cfg._name_or_path) nameOrPath = cfg._name_or_path;
  } catch {
    /* inspectModelDir reports it */
  }
  const known = Object.entries(KNOWN_MODELS).find(([k]) => nameOrPath.includes(k))?.[1];
  const e5 = /(^|[-/_])e5([-_]|$)/i.test(nameOrPath);
  return {
    name: m.name ?? path.basename(dir),
    queryPrefix: m.query_prefix ?? known?.queryPrefix ?? (e5 ? 'query: ' : ''),
    passagePrefix: m.passage_prefix ?? known?.passagePrefix ?? (e5 ? 'passage: ' : ''),
  };
}

/** Longest text handed to the tokenizer (characters); the model truncates to its own max length too. */
const MAX_CHARS = 2000;
const BATCH = 16;

/**
 * Loads the model in `dir` for feature extraction. Throws ModelMissingError when the directory is
 * incomplete, RuntimeMissingError when the runtime is not installed. Never downloads: remote models
 * are disabled and fetch refuses.
 */
export async function loadEmbedder(dir: string): Promise<Embedder> {
  const abs = path.resolve(dir);
  const found = inspectModelDir(abs);
  if (!found.ok) throw new ModelMissingError(abs, found.missing);
  const tf = await loadRuntime();
  const env = tf.env;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = path.dirname(abs) + path.sep;
  env.cacheDir = path.join(path.dirname(abs), '.transformers-cache');
  env.useFSCache = false;
  env.useBrowserCache = false;
  env.logLevel = tf.LogLevel.ERROR; // its info/debug output goes to stdout, which belongs to MCP
  env.fetch = (input: string | URL) => {
    throw new Error(`code-intel: remote loading is disabled; refusing to fetch ${String(input)}`);
  };
  const { name, queryPrefix, passagePrefix } = prefixesFor(abs);
  const extractor = await tf.pipeline('feature-extraction', path.basename(abs), {
    dtype: found.files.dtype,
    device: 'cpu',
    local_files_only: true,
  });
  let dim = 0;
  const embedder: Embedder = {
    name,
    dir: abs,
    get dim() {
      return dim;
    },
    dtype: found.files.dtype,
    queryPrefix,
    passagePrefix,
    async embed(texts, kind) {
      const prefix = kind === 'query' ? queryPrefix : passagePrefix;
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH).map((t) => prefix + (t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t));
        const tensor = await extractor(batch, { pooling: 'mean', normalize: true });
        const [rows, cols] = tensor.dims as [number, number];
        const data = tensor.data as Float32Array;
        for (let r = 0; r < rows; r++) out.push(Float32Array.from(data.subarray(r * cols, (r + 1) * cols)));
        dim = cols;
      }
      return out;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
  await embedder.embed(['warm up'], 'query'); // learns the dimension, fails early on a broken graph
  return embedder;
}
