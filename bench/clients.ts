/**
 * `npm run bench:clients`: what `code-intel init` writes, checked by the clients themselves. The
 * CLIs of Claude Code, Codex, Gemini CLI and OpenCode are installed from the npm registry (pinned versions,
 * into bench/.cache/clients; no login, no model call), a cold copy of three@0.170.0 (1,066 files,
 * no index) is set up with `init`, the folder is trusted the way each client records a person's
 * trust (in a throw-away HOME), and each client lists its MCP servers: Claude Code and Gemini CLI
 * start the server and report whether it connected; Codex reports whether it loaded the entry.
 * Prints each client's verdict and how long the whole command took (node start included).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchPackage } from './lib/fetch.js';
import { heading, table } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = path.join(REPO, 'bench', '.cache');
const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
/** the versions these checks were written against; CLIENTS_LATEST=1 takes the registry's newest */
const CLIENTS: Record<string, { pkg: string; version: string; bin: string }> = {
  'Claude Code': { pkg: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  Codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  'Gemini CLI': { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  OpenCode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
};

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: opts.timeout ?? 120_000, cwd: opts.cwd, env: opts.env ?? process.env, maxBuffer: 16 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: performance.now() - t0, error: r.error?.message };
}

function installClients(): string {
  const prefix = path.join(CACHE, 'clients');
  const specs = Object.values(CLIENTS).map((c) => `${c.pkg}@${process.env.CLIENTS_LATEST === '1' ? 'latest' : c.version}`);
  const have = Object.values(CLIENTS).every((c) => run(path.join(prefix, 'node_modules', '.bin', c.bin), ['--version']).status === 0);
  if (!have || process.env.CLIENTS_LATEST === '1') {
    fs.mkdirSync(prefix, { recursive: true });
    // Claude Code's own install step puts its native binary in place (from its npm packages)
    const r = run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', ...specs], { timeout: 600_000 });
    if (r.status !== 0) throw new Error(`npm install of the clients failed: ${r.out.slice(-500)}`);
  }
  return path.join(prefix, 'node_modules', '.bin');
}

function main(): void {
  console.log(`code-intel client check — node ${process.version}, ${os.availableParallelism()} cores`);
  const bin = installClients();
  const pkg = fetchPackage(path.join(CACHE, 'packages'), 'three@0.170.0');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-clients-'));
  const project = path.join(work, 'three');
  const home = path.join(work, 'home');
  try {
    fs.cpSync(pkg.dir, project, { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    const git = (...a: string[]) => run('git', ['-c', 'user.email=bench@code-intel', '-c', 'user.name=bench', ...a], { cwd: project });
    git('init', '-q');
    const init = run(process.execPath, [CLI, 'init', '--client', 'claude-code', '--client', 'codex', '--client', 'gemini', '--client', 'opencode', project], { cwd: project });
    if (init.status !== 0) throw new Error(`init failed: ${init.out.slice(-500)}`);
    const files = run('git', ['ls-files', '--others', '--exclude-standard', '--cached'], { cwd: project }).out.split('\n').filter(Boolean).length;
    // what a person does once per folder: trust it (Claude Code's dialog, Codex's and Gemini CLI's trust prompts)
    const claudeDir = path.join(home, '.claude');
    fs.mkdirSync(claudeDir, { recursive: true });
    fs.writeFileSync(path.join(claudeDir, '.claude.json'), JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }));
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(home, '.codex', 'config.toml'), `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const env = {
      ...process.env, HOME: home, CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: path.join(home, '.codex'),
      XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_STATE_HOME: path.join(home, '.local', 'state'),
    };

    heading(`${files} files of three@0.170.0, set up by \`code-intel init\`, no index (each run starts cold)`);
    const rows: string[][] = [['client', 'version', 'command', 'verdict', 'time']];
    const check = (name: string, args: string[], verdict: (out: string) => string) => {
      fs.rmSync(path.join(project, '.code-intel'), { recursive: true, force: true }); // cold: the server indexes after it answers
      const c = CLIENTS[name]!;
      const version = run(path.join(bin, c.bin), ['--version'], { env }).out.trim().split('\n')[0] ?? '?';
      const r = run(path.join(bin, c.bin), args, { cwd: project, env });
      rows.push([name, version, `${c.bin} ${args.join(' ')}`, r.error ? `failed: ${r.error}` : verdict(r.out), `${(r.ms / 1000).toFixed(2)} s`]);
    };
    const line = (out: string) => out.split('\n').find((l) => l.includes('code-intel')) ?? '';
    check('Claude Code', ['mcp', 'list'], (o) => (/code-intel:.*Connected/.test(o) ? 'connected' : line(o).replace(/^.* - /, '') || 'not listed'));
    check('Gemini CLI', ['mcp', 'list'], (o) => (/code-intel:.*Connected/.test(o) ? 'connected' : line(o).replace(/^.* - /, '') || 'not listed'));
    check('Codex', ['mcp', 'list'], (o) => (/code-intel\s+\S+.*\benabled\b/.test(o) ? 'listed, enabled (codex mcp list does not start servers)' : line(o) || 'not listed'));
    check('OpenCode', ['mcp', 'list'], (o) => (/code-intel.*connected/.test(o) ? 'connected' : line(o) || 'not listed'));
    // the guard is a plugin: OpenCode resolves it from the project (its tool calls need a model, so not run here)
    check('OpenCode', ['debug', 'config'], (o) => (o.includes('.opencode/plugins/code-intel-guard.js') ? 'guard plugin resolved' : 'guard plugin not loaded'));
    console.log(table(rows));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
