/**
 * The neural backend's loader, on a tiny model the test generates (no network, no weights shipped):
 * the same code path multilingual-e5-small takes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/embeddings/config.js';
import { type Embedder, inspectModelDir, loadEmbedder, ModelMissingError, prefixesFor } from '../src/embeddings/model.js';
import { pullModel } from '../src/embeddings/pull.js';
import { writeTinyModel } from './helpers/tiny-model.js';

let tmp: string;
let modelDir: string;
let embedder: Embedder;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-model-')));
  modelDir = path.join(tmp, 'models', 'tiny-e5');
  writeTinyModel(modelDir, 32);
  fs.writeFileSync(path.join(modelDir, 'code-intel-model.json'), JSON.stringify({ name: 'tiny-e5', query_prefix: 'query: ', passage_prefix: 'passage: ' }));
  // offline: any attempt to reach the network fails the test
  globalThis.fetch = (() => {
    throw new Error('network used while loading a local model');
  }) as typeof fetch;
  embedder = await loadEmbedder(modelDir);
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await embedder?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('neural backend loader (generated model)', () => {
  it('loads from a local directory with remote loading disabled', async () => {
    const { env } = await import('@huggingface/transformers');
    expect(env.allowRemoteModels).toBe(false);
    expect(env.localModelPath).toBe(path.join(tmp, 'models') + path.sep);
    expect(embedder).toMatchObject({ name: 'tiny-e5', dtype: 'fp32', dim: 32, queryPrefix: 'query: ', passagePrefix: 'passage: ' });
  });

  it('gives unit vectors of the model dimension, deterministically', async () => {
    const [a, b] = await embedder.embed(['ログイン機能', 'ログイン機能'], 'query');
    expect(a).toHaveLength(32);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(Math.abs(cos(a!, a!) - 1)).toBeLessThan(1e-5);
    const again = await loadEmbedder(modelDir);
    const [c] = await again.embed(['ログイン機能'], 'query');
    expect(Array.from(c!)).toEqual(Array.from(a!));
    await again.dispose();
  });

  it('embeds synonyms across languages close together (the generated model shares their vectors)', async () => {
    const [q] = await embedder.embed(['ログイン'], 'query');
    const [login, cart] = await embedder.embed(['login service', 'cart total'], 'passage');
    expect(cos(q!, login!)).toBeGreaterThan(cos(q!, cart!));
  });

  it('reports a missing model with the fix, and never downloads', async () => {
    const missing = path.join(tmp, 'models', 'nothing-here');
    await expect(loadEmbedder(missing)).rejects.toThrow(ModelMissingError);
    const err = (await loadEmbedder(missing).catch((e: unknown) => e)) as ModelMissingError;
    expect(err.hint).toContain('code-intel model pull');
    expect(err.hint).toContain('CODE_INTEL_MODEL_DIR');
    const partial = path.join(tmp, 'models', 'partial');
    fs.mkdirSync(partial, { recursive: true });
    fs.copyFileSync(path.join(modelDir, 'config.json'), path.join(partial, 'config.json'));
    expect(inspectModelDir(partial)).toEqual({ ok: false, missing: ['tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx (or onnx/model.onnx)'] });
  });

  it('knows the e5 prefixes without a manifest', () => {
    const d = path.join(tmp, 'models', 'multilingual-e5-small');
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'config.json'), '{}');
    expect(prefixesFor(d)).toMatchObject({ queryPrefix: 'query: ', passagePrefix: 'passage: ' });
  });

  it('model pull fails fast with a clear message where the network is closed', async () => {
    globalThis.fetch = realFetch;
    const t0 = Date.now();
    // an address that refuses at once (nothing listens on port 9 of loopback)
    const err = await pullModel({ model: 'multilingual-e5-small', dir: path.join(tmp, 'pulled'), endpoint: 'http://127.0.0.1:9', timeoutMs: 5000 }).catch((e: Error & { hint?: string }) => e);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect((err as Error).message).toMatch(/could not download multilingual-e5-small/);
    expect((err as { hint?: string }).hint).toContain('CODE_INTEL_MODEL_DIR');
    expect(fs.existsSync(path.join(tmp, 'pulled'))).toBe(false);
    expect(fs.existsSync(path.join(tmp, 'pulled.partial'))).toBe(false);
  });

  it('resolves the model directory: env, then .code-intel/config.json, then the default', () => {
    const root = path.join(tmp, 'proj');
    fs.mkdirSync(path.join(root, '.code-intel'), { recursive: true });
    const saved = process.env.CODE_INTEL_MODEL_DIR;
    try {
      delete process.env.CODE_INTEL_MODEL_DIR;
      // nothing configured: the built-in model, whose vector leg stays out of the gate
      expect(loadConfig(root)).toMatchObject({ modelDirSource: 'default', model: 'code-intel-search', gateVector: false });
      fs.writeFileSync(path.join(root, '.code-intel', 'config.json'), JSON.stringify({ model: 'multilingual-e5-small' }));
      expect(loadConfig(root)).toMatchObject({ modelDirSource: 'default', model: 'multilingual-e5-small', gateVector: true });
      // a model directory means an ONNX model (e5 unless named)
      fs.writeFileSync(path.join(root, '.code-intel', 'config.json'), JSON.stringify({ model_dir: 'models/x', ranking: { weights: { vector: 0.6 }, min_confidence: 0.4, vector_in_gate: false } }));
      expect(loadConfig(root)).toMatchObject({ model: 'multilingual-e5-small', modelDir: path.join(root, 'models', 'x'), modelDirSource: '.code-intel/config.json', weights: { vector: 0.6, keyword: 0.3, history: 0.2 }, minConfidence: 0.4, gateVector: false });
      process.env.CODE_INTEL_MODEL_DIR = modelDir;
      expect(loadConfig(root)).toMatchObject({ modelDir, modelDirSource: 'CODE_INTEL_MODEL_DIR' });
    } finally {
      if (saved === undefined) delete process.env.CODE_INTEL_MODEL_DIR;
      else process.env.CODE_INTEL_MODEL_DIR = saved;
    }
  });
});
