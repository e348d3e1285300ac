/**
 * semantic_search and the relevance backend over a real MCP stdio client: the lexical backend
 * when no model is installed, the neural one when CODE_INTEL_MODEL_DIR points at a model (the
 * generated test model); and the doctor / model pull commands.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from './helpers/mcp.js';
import { CLI, makeProject, REPO_ROOT, removeProject } from './helpers/project.js';
import { writeTinyModel } from './helpers/tiny-model.js';

const FILES = {
  'src/auth.ts': '/** Signs a user in with a password. */\nexport function login(user: string, password: string) {\n  return user.length > 0 && password.length > 0;\n}\n',
  'src/cart.ts': 'export class Cart {\n  /** Sums the prices of the items. */\n  total(items: number[]) { return items.reduce((a, b) => a + b, 0); }\n}\n',
  'src/log.ts': 'export class Logger {\n  write(message: string) { process.stderr.write(message); }\n}\n',
  'README.md': '# Sample\n\n## ログイン (login)\n\nログインは login() で行う。\n',
};

let tmp: string;
let modelDir: string;
let root: string | undefined;
let server: Server | undefined;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-e2e-model-')));
  modelDir = path.join(tmp, 'tiny');
  writeTinyModel(modelDir, 32);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (root) removeProject(root);
  root = undefined;
});

const missingModel = () => path.join(tmp, 'no-model-here');

describe('semantic_search over MCP', () => {
  it('lexical backend without a model: file, span, symbol, score, backend', async () => {
    root = makeProject(FILES);
    server = await startServer(root, { CODE_INTEL_MODEL_DIR: missingModel() });
    const r = await server.call('semantic_search', { query: 'ユーザーのログイン', limit: 5 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ backend: 'lexical', vector: { available: false } });
    expect(r.structuredContent!.vector.why).toContain('no model');
    expect(r.structuredContent!.items[0]).toMatchObject({ file: 'src/auth.ts', start_line: 1, end_line: 4, symbol: 'login', kind: 'function', backend: 'lexical' });
    const docs = await server.call('semantic_search', { query: 'ログイン', path: 'README.md' });
    expect(docs.structuredContent!.items[0]).toMatchObject({ file: 'README.md', kind: 'section' });
    const outside = await server.call('semantic_search', { query: 'login', path: '../etc' });
    expect(outside.isError).toBe(true);
  });

  it('neural + lexical with a model in CODE_INTEL_MODEL_DIR, loaded offline', async () => {
    root = makeProject(FILES);
    server = await startServer(root, { CODE_INTEL_MODEL_DIR: modelDir });
    // a model still loading gives a keyword-only answer within the budget, never an error
    let r = await server.call('semantic_search', { query: 'カートの合計', limit: 3 });
    for (let i = 0; i < 40 && !r.isError && r.structuredContent!.backend === 'lexical'; i++) {
      expect(r.structuredContent!.vector).toMatchObject({ available: false, why: expect.stringContaining('still loading') });
      await new Promise((done) => setTimeout(done, 250));
      r = await server.call('semantic_search', { query: 'カートの合計', limit: 3 });
    }
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ backend: 'neural(tiny)+lexical', vector: { model: 'tiny', knn: 'sqlite-vec' } });
    expect(r.structuredContent!.items[0]).toMatchObject({ symbol: 'Cart.total', backend: 'neural+lexical' });
    expect(r.structuredContent!.items[0].legs).toMatchObject({ vector: { cosine: expect.any(Number), score: expect.any(Number) }, keyword: expect.any(Number) });
  });
});

describe('doctor and model pull', () => {
  const cli = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  it('doctor names the backend, where the model is or is not, and what to do', () => {
    root = makeProject(FILES);
    const without = cli(['doctor', root], { CODE_INTEL_MODEL_DIR: missingModel() });
    expect(without.status).toBe(0);
    expect(without.stdout).toMatch(/backend\s+lexical/);
    expect(without.stdout).toContain(`${missingModel()}  [from CODE_INTEL_MODEL_DIR]  MISSING`);
    expect(without.stdout).toContain('code-intel model pull');
    const withModel = cli(['doctor', root, '--json'], { CODE_INTEL_MODEL_DIR: modelDir });
    const report = JSON.parse(withModel.stdout);
    expect(report.backend).toMatchObject({ active: 'neural', model_present: true, loaded: { dim: 32, dtype: 'fp32' } });
    expect(report.glossary_terms).toBeGreaterThan(500);
  });
  it('doctor and semantic_search without the model runtime: lexical, and they say how to install it', async () => {
    root = makeProject(FILES);
    const noRuntime = path.join(tmp, 'empty-runtime');
    fs.mkdirSync(noRuntime, { recursive: true });
    const env = { CODE_INTEL_MODEL_DIR: modelDir, CODE_INTEL_RUNTIME_DIR: noRuntime };
    const text = cli(['doctor', root], env);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/backend\s+lexical/);
    expect(text.stdout).toMatch(/runtime\s+@huggingface\/transformers NOT INSTALLED/);
    expect(text.stdout).toContain('code-intel model install-runtime');
    const report = JSON.parse(cli(['doctor', root, '--json'], env).stdout);
    expect(report.backend).toMatchObject({ active: 'lexical', model_present: true, runtime: { present: false, searched: [noRuntime] } });
    server = await startServer(root, env);
    const r = await server.call('semantic_search', { query: 'カートの合計', limit: 3 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ backend: 'lexical', vector: { available: false } });
    expect(r.structuredContent!.vector.why).toContain('runtime');
    // and where it is installed (here: the development checkout's devDependency), doctor says which one
    const withRuntime = JSON.parse(cli(['doctor', root, '--json'], { CODE_INTEL_MODEL_DIR: modelDir }).stdout);
    expect(withRuntime.backend.runtime).toMatchObject({ present: true, version: expect.stringMatching(/^\d+\./), source: 'node resolution' });
    // a runtime folder laid out as `npm install --prefix DIR` leaves it (here a link to the checkout's copy) is loaded from there
    const prefix = path.join(tmp, 'runtime-prefix');
    fs.mkdirSync(path.join(prefix, 'node_modules', '@huggingface'), { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', '@huggingface', 'transformers'), path.join(prefix, 'node_modules', '@huggingface', 'transformers'), 'dir');
    const fromPrefix = JSON.parse(cli(['doctor', root, '--json'], { CODE_INTEL_MODEL_DIR: modelDir, CODE_INTEL_RUNTIME_DIR: prefix }).stdout);
    expect(fromPrefix.backend).toMatchObject({ active: 'neural', loaded: { dim: 32 }, runtime: { present: true, source: 'CODE_INTEL_RUNTIME_DIR' } });
  });

  it('model pull fails fast and says what to do when the hub cannot be reached', () => {
    const r = cli(['model', 'pull', '--dir', path.join(tmp, 'pulled')], { HF_ENDPOINT: 'http://127.0.0.1:9' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('could not download multilingual-e5-small');
    expect(r.stderr).toContain('CODE_INTEL_MODEL_DIR');
    expect(fs.existsSync(path.join(tmp, 'pulled'))).toBe(false);
  });
});
