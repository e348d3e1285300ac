/**
 * The shipped code-search model as an Embedder: loaded from data/model/ inside the package (no
 * download, no runtime to install), verified against its card's sha256, run in plain TypeScript.
 * Requests go through the glossary (Japanese and Chinese reach the English words the model knows);
 * declarations are read by field (features.ts) rather than as one text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../util/paths.js';
import type { Embedder } from '../model.js';
import { lexicon } from '../text.js';
import { embedFeatures } from './embed.js';
import { codeFeatures, type CodeInput, queryFeatures } from './features.js';
import { type ModelCard, readModel, type StaticWeights } from './model-file.js';

export const STATIC_MODEL = 'code-intel-search';
/** data/model/ in the package; CODE_INTEL_BUILTIN_MODEL_DIR measures a candidate in its place (train/README.md), checked against its own card */
export const STATIC_MODEL_DIR = process.env.CODE_INTEL_BUILTIN_MODEL_DIR ? path.resolve(process.env.CODE_INTEL_BUILTIN_MODEL_DIR) : path.join(PACKAGE_ROOT, 'data', 'model');
const CARD = 'code-search.json';

export function readCard(dir = STATIC_MODEL_DIR): ModelCard | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, CARD), 'utf8')) as ModelCard;
  } catch {
    return undefined;
  }
}

export function staticModelPresent(dir = STATIC_MODEL_DIR): boolean {
  const card = readCard(dir);
  return !!card && fs.existsSync(path.join(dir, card.file));
}

export interface StaticEmbedder extends Embedder {
  readonly weights: StaticWeights;
  readonly card: ModelCard;
  embedCode(items: CodeInput[]): Float32Array[];
  embedQuery(text: string, namesCode?: (w: string) => boolean): Float32Array;
}

/** Parses a chunk's text (chunks.ts: "kind qualified", doc, path, code) when only the text is at hand. */
function codeOfText(text: string): CodeInput {
  const lines = text.split('\n');
  const [, qualified = ''] = /^\S+\s+(.*)$/.exec(lines[0] ?? '') ?? [];
  const dot = qualified.lastIndexOf('.');
  const code = lines.slice(1).join('\n');
  return { name: dot >= 0 ? qualified.slice(dot + 1) : qualified, container: dot >= 0 ? qualified.slice(0, dot) : null, path: '', signature: lines[lines.length > 3 ? 3 : 1] ?? '', body: code.replace(/[^A-Za-z0-9_$]+/g, ' ') };
}

export function loadStaticEmbedder(dir: string = STATIC_MODEL_DIR): StaticEmbedder {
  const card = readCard(dir);
  if (!card) throw new Error(`no model card ${path.join(dir, CARD)}`);
  const weights = readModel(path.join(dir, card.file), card.sha256);
  const lex = lexicon();
  const embedQuery = (text: string, namesCode?: (w: string) => boolean) => embedFeatures(weights, queryFeatures(weights.vocab, text, lex, namesCode), 'query');
  const embedCode = (items: CodeInput[]) => items.map((c) => embedFeatures(weights, codeFeatures(weights.vocab, c), 'code'));
  return {
    name: card.name,
    storeKey: `${card.name}@${card.sha256.slice(0, 12)}`,
    dir,
    dim: weights.dim,
    dtype: 'int8',
    queryPrefix: '',
    passagePrefix: '',
    weights,
    card,
    ...(card.calibration ? { calibration: { ...card.calibration, source: 'default' as const } } : {}),
    embedQuery,
    embedCode,
    async embed(texts, kind) {
      return kind === 'query' ? texts.map((t) => embedQuery(t)) : embedCode(texts.map(codeOfText));
    },
    async dispose() {},
  };
}
