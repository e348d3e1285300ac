/**
 * The package as a user gets it: `npm pack`, then `npm install -g <tarball>` into a temporary
 * prefix (the npm registry, or npm's cache, is all it may use), then every command driven from the
 * installed copy: doctor, index, semantic, serve (a real MCP stdio client), init and hook. The model
 * runtime (@huggingface/transformers on onnxruntime-node) is not part of that install: the installed
 * copy runs on the lexical backend and says how to add the runtime.
 *
 * Needs `npm` on PATH and a built dist/ (`npm test` builds first). better-sqlite3 is compiled from
 * source where its prebuilt binary cannot be downloaded (about a minute), as on a user's machine.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/project.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npmVersion = spawnSync(NPM, ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
const npmMissing = npmVersion.status !== 0;
if (npmMissing) console.warn(`package-install.test.ts skipped: npm is not available (${npmVersion.error?.message ?? npmVersion.stderr})`);

const MAX_NODE_MODULES = 150 * 1024 * 1024;
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

/** The environment of a user's shell: what `npm test` injected for its own lifecycle removed, state kept in scratch folders. */
function userEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(lifecycle_|package_|command$|execpath$|node_execpath$|config_(local_prefix|prefix|global_prefix)$)/.test(k) || k === 'INIT_CWD') continue;
    if (k === 'CODE_INTEL_RUNTIME_DIR' || k === 'CODE_INTEL_MODEL_DIR') continue;
    env[k] = v;
  }
  env.XDG_CACHE_HOME = path.join(tmp, 'cache'); // no runtime or model from this machine's ~/.cache
  env.CODE_INTEL_LOG = 'silent';
  return env;
}

function duBytes(p: string): number {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of fs.readdirSync(p)) n += duBytes(path.join(p, e));
  return n;
}

let tmp: string;
let prefix: string;
let installed: string;
let bin: string;
let env: NodeJS.ProcessEnv;
let repo: string;
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
let install: SpawnSyncReturns<string>;
let installSeconds = 0;

const run = (args: string[], opts: { input?: string; cwd?: string } = {}) =>
  spawnSync(bin, args, { encoding: 'utf8', env, cwd: opts.cwd ?? tmp, input: opts.input, timeout: 60_000 });

describe.skipIf(npmMissing)('npm pack → npm install -g <tarball> → the installed binary', () => {
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is not built: run `npx tsc -p tsconfig.json` (npm test does) first');
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-pkg-')));
    env = userEnv(tmp);
    // dist/ is already built; packing must not rebuild it (prepare) nor need the network
    const pack = spawnSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 });
    if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
    packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
    prefix = path.join(tmp, 'prefix');
    const t0 = Date.now();
    // from a folder with no package.json or .npmrc of the project: a user's global install
    install = spawnSync(
      NPM,
      ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--allow-scripts=better-sqlite3', path.join(tmp, packed.filename)],
      { cwd: tmp, env, encoding: 'utf8', timeout: 420_000 },
    );
    installSeconds = (Date.now() - t0) / 1000;
    if (install.status !== 0) throw new Error(`npm install -g of the tarball failed (exit ${install.status}):\n${install.stderr.slice(-4000)}`);
    installed = path.join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', 'code-intel');
    bin = process.platform === 'win32' ? path.join(prefix, 'code-intel.cmd') : path.join(prefix, 'bin', 'code-intel');
    repo = path.join(tmp, 'repo');
    fs.cpSync(path.join(REPO_ROOT, 'fixtures', 'ts-app'), repo, { recursive: true });
  }, 480_000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('ships what runs (dist/src, grammars, data, docs), not tests, benchmarks or sources', () => {
    const files = packed.files.map((f) => f.path);
    for (const f of ['package.json', 'README.md', 'dist/src/cli/main.js', 'dist/src/hooks/main.js', 'data/glossary.json', 'grammars/languages.json', 'docs/relevance.md']) expect(files).toContain(f);
    expect(files.filter((f) => /^(test|bench|fixtures|src|dist\/test|dist\/bench)\//.test(f) || f === '.npmrc')).toEqual([]);
    expect(files).toContain('data/model/code-search.bin');
    expect(files).toContain('data/model/code-search.json');
    // the built-in model is most of it (~7 MB of int8 weights compress little)
    expect(packed.size).toBeLessThan(12 * 1024 * 1024);
  });

  it('installs small, without the model runtime', () => {
    const nm = path.join(installed, 'node_modules');
    const bytes = duBytes(nm);
    console.info(`installed in ${installSeconds.toFixed(0)} s; tarball ${(packed.size / 1024).toFixed(0)} kB; node_modules ${(bytes / 1024 / 1024).toFixed(1)} MB`);
    expect(bytes).toBeLessThan(MAX_NODE_MODULES);
    for (const heavy of ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-web']) expect(fs.existsSync(path.join(nm, heavy)), heavy).toBe(false);
    expect(fs.existsSync(path.join(nm, 'better-sqlite3'))).toBe(true);
    expect(run(['--version']).stdout.trim()).toBe(pkg.version);
  });

  it('doctor: the built-in model from the installed copy, verified, with no runtime to install', () => {
    const r = run(['doctor', repo]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/backend\s+neural \(code-intel-search, int8, 256 dims/);
    expect(r.stdout).toMatch(/model\s+code-intel-search v\S+, built in .*verified on load/);
    const json = JSON.parse(run(['doctor', repo, '--json']).stdout);
    expect(json.backend).toMatchObject({ active: 'neural', model: 'code-intel-search', runtime: { present: true, version: 'built-in' } });
  });

  it('doctor: with an ONNX model configured but absent, the lexical backend and how to add the model and its runtime', () => {
    const onnx = { ...env, CODE_INTEL_MODEL_DIR: path.join(tmp, 'no-such-model') };
    const r = spawnSync(bin, ['doctor', repo], { encoding: 'utf8', env: onnx, cwd: tmp, timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/backend\s+lexical/);
    expect(r.stdout).toMatch(/runtime\s+@huggingface\/transformers NOT INSTALLED/);
    expect(r.stdout).toContain('code-intel model install-runtime');
    expect(r.stdout).toContain('code-intel model pull');
    const json = JSON.parse(spawnSync(bin, ['doctor', repo, '--json'], { encoding: 'utf8', env: onnx, cwd: tmp, timeout: 60_000 }).stdout);
    expect(json.glossary_terms).toBeGreaterThan(500);
    expect(json.backend).toMatchObject({ active: 'lexical', runtime: { present: false } });
  });

  it('index and semantic', () => {
    const r = run(['index', repo, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout);
    expect(stats.files).toBeGreaterThan(10);
    expect(stats.symbols).toBeGreaterThan(50);
    expect(stats.skipped).toEqual([]);
    const s = run(['semantic', '--root', repo, 'greet', 'the', 'user']);
    expect(s.status, s.stderr).toBe(0);
    expect(s.stdout).toContain('src/services/greeter.ts');
    expect(s.stdout).toContain('backend neural(code-intel-search)+lexical');
  });

  it('serve: an MCP client initializes, lists the tools and calls one', async () => {
    const transport = new StdioClientTransport({ command: bin, args: ['serve', repo], env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'package-install-test', version: '0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'code-intel', version: pkg.version });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['find_definitions', 'find_references', 'semantic_search', 'start_session']));
      const defs = (await client.callTool({ name: 'find_definitions', arguments: { name: 'Greeter' } })) as { isError?: boolean; structuredContent?: { items: { file: string }[] } };
      expect(defs.isError).toBeFalsy();
      expect(defs.structuredContent!.items[0]!.file).toBe('src/services/greeter.ts');
    } finally {
      await client.close();
    }
  });

  it('init in a git repository, then hook pre-tool-use runs the installed guard', () => {
    const proj = path.join(tmp, 'proj');
    fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
    fs.writeFileSync(path.join(proj, 'src', 'a.ts'), 'export const a = 1;\n');
    expect(spawnSync('git', ['init', '-q'], { cwd: proj }).status).toBe(0);
    // a user's shell: the global install's bin folder on PATH, so the configs name the commands
    const binDir = path.dirname(bin);
    const onPath = { ...env, PATH: `${binDir}${path.delimiter}${env.PATH ?? ''}` };
    const init = spawnSync(bin, ['init', proj], { encoding: 'utf8', env: onPath, cwd: tmp, timeout: 60_000 });
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('wrote .claude/settings.local.json'); // the hooks are per-user (git-ignored in the clone)
    expect(fs.existsSync(path.join(proj, '.claude', 'settings.json'))).toBe(false);
    const settings = fs.readFileSync(path.join(proj, '.claude', 'settings.local.json'), 'utf8');
    const mcp = fs.readFileSync(path.join(proj, '.mcp.json'), 'utf8');
    if (process.platform !== 'win32') {
      expect(settings).toContain('code-intel-hook pre-tool-use');
      expect(JSON.parse(mcp).mcpServers['code-intel']).toMatchObject({ command: 'code-intel', args: ['serve', '.'] });
      expect(settings + mcp).not.toContain(installed); // nothing of this machine in the configs
      // the written command, run by a shell that cannot find code-intel-hook (uninstalled): blocks, exit 2
      const pre = String(JSON.parse(settings).hooks.PreToolUse[0].hooks[0].command);
      const gone = spawnSync('sh', ['-c', pre], { encoding: 'utf8', cwd: proj, input: '{}', env: { ...env, PATH: '/usr/bin:/bin', CLAUDE_PROJECT_DIR: proj } });
      expect(gone.status, gone.stderr).toBe(2);
      expect(gone.stderr).toContain('exit status 127');
    }
    const hookBin = process.platform === 'win32' ? path.join(prefix, 'code-intel-hook.cmd') : path.join(prefix, 'bin', 'code-intel-hook');
    expect(fs.existsSync(hookBin)).toBe(true);
    const hook = (input: string) => spawnSync(hookBin, ['pre-tool-use'], { encoding: 'utf8', env: onPath, cwd: proj, input, timeout: 60_000 });
    const edit = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: proj, session_id: 'pkg-1', tool_name: 'Edit', tool_input: { file_path: path.join(proj, 'src', 'a.ts'), old_string: '1', new_string: '2' } });
    const quiet = hook(edit);
    expect(quiet).toMatchObject({ status: 0, stdout: '' }); // no /code turn: the guard stays out of the way
    fs.writeFileSync(path.join(proj, '.code-intel', 'config.json'), '{"strict": true}');
    const denied = hook(edit);
    expect(denied.status, denied.stderr).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.parse(hook('not json').stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    // the CLI's own `hook` command stays an entry too
    expect(JSON.parse(run(['hook', 'pre-tool-use'], { input: 'not json', cwd: proj }).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});
