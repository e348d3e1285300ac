/**
 * `setup`: a project copy under git, `code-intel init` + `index` in it, the simulated client's
 * folders, DIR/PROMPT.md, and the user typing `/code REQUEST`.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { commandList } from './commands.js';
import { hookLines } from './hooks.js';
import { listTools } from './mcp.js';
import { print, userPrompt } from './simulate.js';
import { CLI, envFor, type HookCommand, saveState, type TrialState } from './state.js';

export interface SetupOpts { repo: string; request: string; rev?: string; filesFrom?: string[] }

function isGitDir(p: string): boolean {
  return fs.existsSync(path.join(p, 'HEAD')) && fs.existsSync(path.join(p, 'objects')) && fs.existsSync(path.join(p, 'refs'));
}

function run(log: string, what: string, cmd: string, args: string[], opts: { cwd: string; env?: Record<string, string> }): string {
  const r = spawnSync(cmd, args, { ...opts, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  fs.appendFileSync(log, `$ ${[cmd, ...args].join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}\n`);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error ?? '')).trim().slice(0, 2000)}`);
  return r.stdout ?? '';
}

function keepOnly(root: string, globs: string[]): number {
  const isMatch = picomatch(globs, { dot: true });
  let kept = 0;
  const visit = (dir: string): boolean => {
    let empty = true;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (e.isDirectory()) {
        if (visit(abs)) fs.rmdirSync(abs);
        else empty = false;
      } else if (isMatch(rel)) {
        kept++;
        empty = false;
      } else if (e.name === '.gitignore' || e.name === '.gitattributes') {
        // a checkout has its ignore rules: without them a test run's caches (.pytest_cache,
        // __pycache__) are project files to the guard, which a real user's would not be (tr25)
        empty = false;
      } else fs.rmSync(abs, { force: true });
    }
    return empty;
  };
  visit(root);
  return kept;
}

/** Claude Code expands a slash command's file: frontmatter dropped, $ARGUMENTS replaced. */
export function expandCommand(file: string, args: string): string {
  const text = fs.readFileSync(file, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
  return text.split('$ARGUMENTS').join(args);
}

export async function setup(dir: string, o: SetupOpts): Promise<number> {
  const t0 = Date.now();
  if (!o.repo || !o.request?.trim()) throw new Error('setup needs --repo PATH and --request "TEXT"');
  const repo = path.resolve(o.repo);
  if (!fs.existsSync(repo)) throw new Error(`--repo ${repo} does not exist`);
  if (fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f !== '.lock')) throw new Error(`${dir} exists and is not empty: give a fresh trial directory`);
  const project = path.join(dir, 'project');
  const claudeDir = path.join(dir, 'claude');
  const stateDir = path.join(dir, 'state');
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const log = path.join(dir, 'setup.log');
  fs.writeFileSync(log, '');
  const sessionId = randomUUID();
  const transcriptDir = path.join(claudeDir, 'projects', 'trial');
  fs.mkdirSync(transcriptDir, { recursive: true });
  const transcript = path.join(transcriptDir, `${sessionId}.jsonl`);
  fs.writeFileSync(transcript, '');
  const env = envFor({ claudeDir, project, stateDir });

  // 1. the project's files
  if (o.rev || isGitDir(repo)) {
    const rev = o.rev ?? 'HEAD';
    run(log, `git archive ${rev}`, 'bash', ['-c', 'set -o pipefail; git --git-dir "$1" archive --format=tar "$2" | tar -x -C "$3"', 'archive', repo, rev, project], { cwd: dir });
  } else {
    fs.cpSync(repo, project, { recursive: true, filter: (src) => src === repo || !['.git', '.code-intel'].includes(path.basename(src)) });
  }
  if (o.filesFrom && o.filesFrom.length > 0) {
    const kept = keepOnly(project, o.filesFrom);
    if (kept === 0) throw new Error(`--files-from ${o.filesFrom.join(' ')} matched no file`);
  }
  if (fs.readdirSync(project).length === 0) throw new Error(`nothing was copied from ${repo}`);

  // 2. under git, so git commands behave (the base commit is the project as given)
  const git = (...args: string[]) => run(log, `git ${args[0]}`, 'git', args, { cwd: project, env });
  git('init', '-q');
  git('config', 'user.name', 'agent-trial');
  git('config', 'user.email', 'agent-trial@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '--allow-empty', '-m', 'trial base');

  // 3. what a user of code-intel runs
  run(log, 'code-intel init', process.execPath, [CLI, 'init', project], { cwd: project, env });
  const indexed = run(log, 'code-intel index', process.execPath, [CLI, 'index', project], { cwd: project, env }).trim();

  // 4. the client's configuration, as Claude Code reads it when a session starts
  // hooks from the shared and the per-user project settings (init writes the guard's into
  // settings.local.json); Claude Code runs the hooks of both
  type Settings = { hooks?: Record<string, { matcher?: string; hooks?: { type?: string; command?: string; timeout?: number }[] }[]> };
  const hooks: Record<string, HookCommand[]> = {};
  for (const file of ['settings.json', 'settings.local.json']) {
    const f = path.join(project, '.claude', file);
    if (!fs.existsSync(f)) continue;
    const settings = JSON.parse(fs.readFileSync(f, 'utf8')) as Settings;
    for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
      const cmds = groups.flatMap((g) => (g.hooks ?? []).filter((h) => h.type === 'command' && typeof h.command === 'string').map((h) => ({ matcher: g.matcher, command: h.command!, timeout: h.timeout })));
      hooks[event] = [...(hooks[event] ?? []), ...cmds];
    }
  }
  if (!hooks.PreToolUse?.length) throw new Error('init configured no PreToolUse hook in .claude/settings.json or settings.local.json');
  const mcpJson = JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8')) as { mcpServers?: Record<string, { command: string; args?: string[]; env?: Record<string, string> }> };
  const entry = mcpJson.mcpServers?.['code-intel'];
  if (!entry) throw new Error('.mcp.json has no code-intel server after init');

  const s: TrialState = {
    version: 1, dir, project, claudeDir, stateDir, transcript, sessionId, request: o.request, nextId: 1, lastUuid: null,
    hooks, mcp: { command: entry.command, args: entry.args ?? [], env: entry.env }, reads: {}, createdAt: new Date().toISOString(),
  };
  saveState(s);

  // 5. the agent's brief
  fs.writeFileSync(path.join(dir, 'PROMPT.md'), expandCommand(path.join(project, '.claude', 'commands', 'code.md'), o.request));
  fs.writeFileSync(path.join(dir, 'COMMANDS.md'), commandList(dir));

  // 6. Claude Code starts the project's MCP servers when its session opens (initialize, tools/list),
  // before the user can type: the server creates the session tables the hooks need
  const tools = await listTools(s);
  fs.writeFileSync(path.join(dir, 'TOOLS.json'), JSON.stringify(tools.map((t) => ({ name: `mcp__code-intel__${t.name}`, description: t.description, inputSchema: t.inputSchema })), null, 2) + '\n');

  // 7. the user types /code REQUEST
  const v = userPrompt(s, `/code ${o.request}`, 'setup', t0);
  print([
    `trial ready in ${dir}`,
    `  project     ${project}`,
    `  index       ${indexed.split('\n').filter((l) => /^\s+(files|symbols|references)\s/.test(l)).map((l) => l.trim().replace(/\s+/g, ' ')).join(', ')}`,
    `  mcp tools   ${tools.length} (TOOLS.json)`,
    `  transcript  ${transcript}`,
    `  prompt      ${path.join(dir, 'PROMPT.md')}   (give the agent this and COMMANDS.md)`,
    ...hookLines(v),
  ]);
  return v.blocked ? 2 : 0;
}
