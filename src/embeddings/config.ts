/**
 * Where the embedding model lives and how relevance is weighed. Sources, strongest first:
 * environment (CODE_INTEL_MODEL_DIR, CODE_INTEL_BACKEND, CODE_INTEL_VECTOR_IN_GATE=1|0), the project's .code-intel/config.json,
 * then defaults. Reading the configuration never touches the network.
 *
 * .code-intel/config.json (every key optional):
 *   { "backend": "auto" | "lexical" | "neural",
 *     "model": "code-intel-search" (built in, the default) | "multilingual-e5-small",
 *     "model_dir": "/abs/or/project-relative/dir" (an ONNX model; implies multilingual-e5-small unless "model" says otherwise),
 *     "ranking": { "weights": { "vector": 0.5, "keyword": 0.3, "history": 0.2 }, "min_confidence": 0.2,
 *                  "vector_in_gate": false for the built-in model, true for an ONNX one },
 *     "cache": { "half_life_days": 30 } }
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface KnownModel {
  /** the hub repository that publishes the ONNX export */
  repo: string;
  /** files to fetch, relative to the repository root; the first .onnx one is the weights */
  files: string[];
  queryPrefix: string;
  passagePrefix: string;
  dim: number;
}

export const KNOWN_MODELS: Record<string, KnownModel> = {
  'multilingual-e5-small': {
    repo: 'Xenova/multilingual-e5-small',
    files: ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model_quantized.onnx'],
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    dim: 384,
  },
};
/** the model `code-intel model pull` fetches when none is named */
export const DEFAULT_MODEL = 'multilingual-e5-small';
/** the code-search model shipped inside the package (data/model/, src/embeddings/static/): the default */
export const BUILTIN_MODEL = 'code-intel-search';

export interface Weights {
  vector: number;
  keyword: number;
  history: number;
}

export interface EmbeddingConfig {
  backend: 'auto' | 'lexical' | 'neural';
  model: string;
  modelDir: string;
  modelDirSource: 'CODE_INTEL_MODEL_DIR' | '.code-intel/config.json' | 'default';
  weights: Weights;
  minConfidence: number;
  /**
   * whether the vector leg counts in the VALIDATION gate's score (confirm_symbol_relevance). Off by
   * default for the built-in model: on real commits it accepted more untouched declarations that
   * share a word with the request without refusing fewer relevant ones (docs/relevance.md); it
   * still orders semantic_search and the suggestions.
   */
  gateVector: boolean;
  halfLifeDays: number;
  configFile: string;
  /** problems found while reading the configuration (reported by doctor, never fatal) */
  warnings: string[];
}

export const DEFAULT_WEIGHTS: Weights = { vector: 0.5, keyword: 0.3, history: 0.2 };

/** The folder models are kept in when nothing says otherwise. */
export function defaultModelsHome(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'code-intel', 'models');
}

export function configPath(root: string): string {
  return path.join(root, '.code-intel', 'config.json');
}

export function loadConfig(root: string): EmbeddingConfig {
  const file = configPath(root);
  const warnings: string[] = [];
  let raw: Record<string, any> = {};
  if (fs.existsSync(file)) {
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>;
    } catch (e) {
      warnings.push(`${file} is not valid JSON (${(e as Error).message}); using defaults`);
    }
  }
  const explicitDir = !!process.env.CODE_INTEL_MODEL_DIR || typeof raw.model_dir === 'string';
  const model = typeof raw.model === 'string' ? raw.model : explicitDir ? DEFAULT_MODEL : BUILTIN_MODEL;
  let modelDir: string;
  let modelDirSource: EmbeddingConfig['modelDirSource'];
  if (process.env.CODE_INTEL_MODEL_DIR) {
    modelDir = path.resolve(process.env.CODE_INTEL_MODEL_DIR);
    modelDirSource = 'CODE_INTEL_MODEL_DIR';
  } else if (typeof raw.model_dir === 'string') {
    modelDir = path.resolve(root, raw.model_dir);
    modelDirSource = '.code-intel/config.json';
  } else {
    modelDir = path.join(defaultModelsHome(), model);
    modelDirSource = 'default';
  }
  const envBackend = process.env.CODE_INTEL_BACKEND;
  const backendRaw = envBackend ?? raw.backend ?? 'auto';
  const backend = (['auto', 'lexical', 'neural'] as const).find((b) => b === backendRaw) ?? 'auto';
  if (backend !== backendRaw) warnings.push(`unknown backend '${backendRaw}' (use auto, lexical or neural); using auto`);
  const w = raw.ranking?.weights ?? {};
  const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : d);
  const weights = { vector: num(w.vector, DEFAULT_WEIGHTS.vector), keyword: num(w.keyword, DEFAULT_WEIGHTS.keyword), history: num(w.history, DEFAULT_WEIGHTS.history) };
  if (weights.keyword <= 0) {
    warnings.push('ranking.weights.keyword must be > 0 (the keyword leg is always present); using 0.3');
    weights.keyword = DEFAULT_WEIGHTS.keyword;
  }
  return {
    backend, model, modelDir, modelDirSource, weights,
    minConfidence: Math.min(1, num(raw.ranking?.min_confidence, 0.2)),
    gateVector: process.env.CODE_INTEL_VECTOR_IN_GATE ? process.env.CODE_INTEL_VECTOR_IN_GATE === '1'
      : typeof raw.ranking?.vector_in_gate === 'boolean' ? raw.ranking.vector_in_gate : model !== BUILTIN_MODEL,
    halfLifeDays: num(raw.cache?.half_life_days, 30) || 30,
    configFile: file,
    warnings,
  };
}
