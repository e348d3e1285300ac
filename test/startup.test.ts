/**
 * Startup (#12): `serve` answers `initialize` before it has indexed anything, indexes in the
 * background, and a tool call during indexing answers from what is indexed (saying so) or, for the
 * tools that judge, `index_not_ready`. Indexing commits in batches: a server killed half-way resumes
 * with the files it had not parsed yet.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/store/db.js';
import { startServer } from './helpers/mcp.js';
import { CLI, makeProject, removeProject } from './helpers/project.js';

const FILES = 1500;
let root: string;

function bigProject(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) {
    const body = Array.from({ length: 12 }, (_, k) => `export function f${i}_${k}(a: number): number {\n  return helper${i}(a) + ${k};\n}\n`).join('');
    files[`src/m${Math.floor(i / 100)}/file${i}.ts`] = `import { helper${i} } from './h${i}';\n${body}export class C${i} {\n  run(): number {\n    return f${i}_0(1);\n  }\n}\n`;
    files[`src/m${Math.floor(i / 100)}/h${i}.ts`] = `export const helper${i} = (x: number): number => x * 2;\n`;
  }
  return makeProject(files);
}

const indexedFiles = (dir: string): number => {
  const db = openDb(fs.realpathSync(dir));
  try {
    return (db.prepare('SELECT COUNT(*) n FROM files').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

beforeAll(() => {
  root = bigProject();
});
afterAll(() => removeProject(root));

describe('serve on a cold repository', () => {
  it('answers initialize before indexing, answers exploration from a partial index and refuses to judge from one', { timeout: 240_000 }, async () => {
    const s = await startServer(root, { CODE_INTEL_INDEX_WAIT_MS: '0' });
    try {
      // connect() has done initialize: indexing is still under way
      const early = await s.call('find_definitions', { name: 'f0_0' });
      expect(early.isError).toBeFalsy();
      const index = early.structuredContent!.index;
      expect(index.complete).toBe(false);
      expect(index.indexing).toMatchObject({ stage: expect.stringMatching(/walk|parse|link/), total: expect.any(Number) });
      const judge = await s.call('check_write_target', { file_path: 'src/m0/file0.ts' });
      expect(judge.structuredContent).toMatchObject({ error: 'index_not_ready', hint: expect.stringContaining('again') });
      // the index completes in the background; then answers are complete
      let done = false;
      for (let i = 0; i < 400 && !done; i++) {
        const r = await s.call('find_definitions', { name: `f${FILES - 1}_0` });
        done = r.structuredContent!.index.complete === true;
        if (done) expect(r.structuredContent!.items).toHaveLength(1);
        else await new Promise((res) => setTimeout(res, 500));
      }
      expect(done).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('a server killed half-way through indexing resumes with the files it had not parsed', { timeout: 240_000 }, async () => {
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true, force: true });
    const s = await startServer(root, { CODE_INTEL_INDEX_WAIT_MS: '0' });
    let committed = 0;
    for (let i = 0; i < 200; i++) {
      await new Promise((res) => setTimeout(res, 100));
      committed = (await s.call('get_session_status')).structuredContent?.index?.files ?? 0;
      if (committed >= 200) break;
    }
    process.kill(s.pid!, 'SIGKILL');
    await s.close().catch(() => {});
    const atKill = indexedFiles(root);
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(2 * FILES);
    const r = spawnSync(process.execPath, [CLI, 'index', root, '--json'], { encoding: 'utf8', env: { ...process.env, CODE_INTEL_LOG: 'silent' } });
    expect(r.status).toBe(0);
    const stats = JSON.parse(r.stdout) as { files: number; parsed: number; unchanged: number };
    expect(stats.files).toBe(2 * FILES);
    expect(stats.parsed).toBe(2 * FILES - atKill); // only what the killed server had not committed
    expect(stats.parsed + stats.unchanged).toBeLessThanOrEqual(2 * FILES);
  });
});

describe('session control while the index catches up', () => {
  it('get_session_status and end_session answer at once, not after the index (agent trial tr152: a server started after edits spent end_session\'s budget re-indexing)', { timeout: 240_000 }, async () => {
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true, force: true });
    // (a budget and a wait long enough that a step that waits would see the index complete)
    const s = await startServer(root, { CODE_INTEL_INDEX_WAIT_MS: '120000', CODE_INTEL_BUDGET_MS: '120000' });
    try {
      const status = await s.call('get_session_status');
      expect(status.isError).toBeFalsy();
      expect(status.structuredContent!.index.complete).toBe(false);
      const end = await s.call('end_session', { outcome: 'abandoned' });
      expect(end.structuredContent).toMatchObject({ error: 'no_active_session' });
      // an exploration tool still waits for the index
      const r = await s.call('find_definitions', { name: `f${FILES - 1}_0` });
      expect(r.structuredContent!.index.complete).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('the root', () => {
  it('refuses the file system root and the home directory (clients that start servers with cwd / or ~)', async () => {
    const os = await import('node:os');
    const { Project } = await import('../src/project/project.js');
    expect(() => new Project('/')).toThrow(/refusing to index \/: that is the root of the file system/);
    expect(() => new Project(os.homedir())).toThrow(/the home directory/);
    const r = spawnSync(process.execPath, [CLI, 'serve'], { cwd: '/', encoding: 'utf8', input: '' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('refusing to index');
    expect(r.stdout).toBe(''); // stdout belongs to the protocol
  });
});

describe('configs that travel', () => {
  it('init names the code-intel command when the one on PATH is this installation, and says what to do next', () => {
    const dir = makeProject({ 'src/a.ts': 'export const a = 1;\n' });
    const bin = fs.mkdtempSync(path.join(fs.realpathSync(tmpdir()), 'ci-bin-'));
    try {
      fs.symlinkSync(CLI, path.join(bin, 'code-intel'));
      fs.symlinkSync(path.join(path.dirname(CLI), '..', 'hooks', 'main.js'), path.join(bin, 'code-intel-hook'));
      const r = spawnSync(process.execPath, [CLI, 'init', dir], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, CODE_INTEL_LOG: 'silent' } });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('the configs name the `code-intel` command');
      expect(r.stdout).toContain('Claude Code: start `claude`');
      const mcp = JSON.parse(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8'));
      expect(mcp.mcpServers['code-intel']).toMatchObject({ command: 'code-intel', args: ['serve', '.'] });
      expect(fs.existsSync(path.join(dir, '.claude', 'settings.json'))).toBe(false); // the hooks are per-user
      const settings = fs.readFileSync(path.join(dir, '.claude', 'settings.local.json'), 'utf8');
      expect(settings).toContain('code-intel-hook pre-tool-use');
      expect(settings).not.toContain(path.dirname(CLI)); // no path of this machine
    } finally {
      removeProject(dir);
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('a lighter tool set', () => {
  it('serve --tools exploration lists only the read-only exploration tools, and they work', { timeout: 60_000 }, async () => {
    const { startServer: start } = await import('./helpers/mcp.js');
    const dir = makeProject({ 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' });
    const s = await start(dir, {}, ['--tools', 'exploration']);
    try {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['analyze_structure', 'find_definitions', 'find_references', 'get_symbols', 'query', 'search_text']);
      expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
      const r = await s.call('find_definitions', { name: 'alpha' });
      expect(r.structuredContent!.items).toHaveLength(1);
    } finally {
      await s.close();
      removeProject(dir);
    }
    const bad = spawnSync(process.execPath, [CLI, 'serve', '.', '--tools', 'write'], { encoding: 'utf8', input: '' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("unknown tool set 'write'");
  });
});
