/**
 * `code-intel init` and `init --remove` on real files, and the hook commands init writes run as the
 * clients run them (sh -c), with the hook binary there and gone.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { applyInit, CLIENTS, describeChange, planInit, planRemove } from '../src/clients/init.js';
import { CLI, makeProject, removeProject, REPO_ROOT } from './helpers/project.js';

const HOOK = path.join(REPO_ROOT, 'dist', 'src', 'hooks', 'main.js');
const dirs: string[] = [];
const project = (files: Record<string, string>) => {
  const d = makeProject(files);
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) removeProject(d);
});
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');
const json = (dir: string, rel: string) => JSON.parse(read(dir, rel));
const git = (dir: string, ...args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

/** What a user already has before init: their own servers, hooks, settings and comments. */
const USER_FILES = {
  '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-own-guard' }] }] } }, null, 2) + '\n',
  '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'other-server' } } }, null, 2) + '\n',
  '.codex/config.toml': '# my settings\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "other"\n',
  '.gemini/settings.json': JSON.stringify({ ui: { theme: 'GitHub' }, hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'lint-it' }] }] } }, null, 2) + '\n',
  'src/a.ts': 'export const a = 1;\n',
};

describe('code-intel init', () => {
  it('merges into existing settings without losing them, puts the Claude Code hooks in the per-user file, and is idempotent', () => {
    const dir = project(USER_FILES);
    applyInit(planInit(dir, CLIENTS));
    const codex = parseToml(read(dir, '.codex/config.toml')) as any;
    expect(codex.model).toBe('o4');
    expect(Object.keys(codex.mcp_servers)).toEqual(['other', 'code-intel']);
    expect(codex.mcp_servers['code-intel']).toMatchObject({ command: 'node', args: [expect.stringContaining('main.js'), 'serve', '.'], startup_timeout_sec: 30 });
    expect(read(dir, '.codex/config.toml')).toContain('# my settings');
    const codexHooks = json(dir, '.codex/hooks.json');
    expect(Object.keys(codexHooks.hooks)).toEqual(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop']);
    expect(codexHooks.hooks.PreToolUse[0]).toEqual({ hooks: [{ type: 'command', command: expect.stringContaining('pre-tool-use --client=codex'), timeout: 30, statusMessage: 'code-intel pre-tool-use' }] });
    // the committed settings keep only what the user wrote; the hooks are per-user
    expect(json(dir, '.claude/settings.json')).toEqual(JSON.parse(USER_FILES['.claude/settings.json']));
    const local = json(dir, '.claude/settings.local.json');
    expect(Object.keys(local.hooks).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'Stop', 'SubagentStop', 'UserPromptSubmit']);
    expect(local.hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command: expect.stringContaining('pre-tool-use'), timeout: 30, onFailure: 'block' }] }]);
    expect(local.hooks.UserPromptSubmit[0].hooks[0].onFailure).toBeUndefined(); // a broken recorder never blocks the person's prompt
    expect(local.permissions).toEqual({ allow: ['mcp__code-intel'] }); // no permission prompt for each of the server's tools
    expect(local.enabledMcpjsonServers).toEqual(['code-intel']); // not held at "Pending approval"
    const mcp = json(dir, '.mcp.json');
    expect(Object.keys(mcp.mcpServers)).toEqual(['other', 'code-intel']);
    expect(json(dir, '.cursor/mcp.json').mcpServers['code-intel'].args).toContain('serve');
    const gemini = json(dir, '.gemini/settings.json');
    expect(gemini.ui).toEqual({ theme: 'GitHub' });
    expect(gemini.mcpServers['code-intel'].command).toBe('node');
    expect(gemini.hooks.BeforeTool).toEqual([
      { matcher: 'write_file', hooks: [{ type: 'command', command: 'lint-it' }] },
      { matcher: '.*', hooks: [{ type: 'command', name: 'code-intel pre-tool-use', command: expect.stringContaining('--client=gemini'), timeout: 30000 }] },
    ]);
    const cursorHooks = json(dir, '.cursor/hooks.json');
    expect(cursorHooks.version).toBe(1);
    expect(cursorHooks.hooks.beforeShellExecution[0]).toMatchObject({ command: expect.stringContaining('--client=cursor'), failClosed: true });
    expect(cursorHooks.hooks.afterFileEdit[0].failClosed).toBeUndefined();
    expect(json(dir, 'opencode.json').mcp['code-intel']).toMatchObject({ type: 'local', enabled: true, timeout: 30000 });
    expect(planInit(dir, CLIENTS)).toEqual([]); // second run: nothing to change
    fs.writeFileSync(path.join(dir, '.mcp.json'), '{ broken');
    expect(() => planInit(dir, ['claude-code'])).toThrow(/not valid JSON/);
  });

  it('moves the hooks an earlier init put in the committed .claude/settings.json, keeping the user\'s', () => {
    const old = (event: string) => ({ type: 'command', command: `node "/old/clone/dist/src/hooks/main.js" ${event} --installed-by=code-intel`, timeout: 30 });
    const dir = project({
      '.claude/settings.json': JSON.stringify({
        model: 'opus',
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-own-guard' }] }, { matcher: '*', hooks: [old('pre-tool-use')] }],
          UserPromptSubmit: [{ hooks: [old('user-prompt-submit')] }],
          Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
        },
      }),
    });
    const changes = planInit(dir, ['claude-code']);
    expect(describeChange(dir, changes.find((c) => c.file.endsWith('settings.json'))!)).toContain('- ');
    applyInit(changes);
    expect(json(dir, '.claude/settings.json')).toEqual({
      model: 'opus',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-own-guard' }] }], Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }] },
    });
    expect(read(dir, '.claude/settings.local.json')).not.toContain('/old/clone');
    expect(json(dir, '.claude/settings.local.json').hooks.PreToolUse).toHaveLength(1);
  });

  it('keeps .claude/settings.local.json out of git in the clone only (.git/info/exclude), unless something ignores it already', () => {
    const dir = project({ 'src/a.ts': 'export const a = 1;\n' });
    expect(git(dir, 'init', '-q').status).toBe(0);
    applyInit(planInit(dir, ['claude-code']));
    expect(git(dir, 'check-ignore', '-q', '.claude/settings.local.json').status).toBe(0);
    expect(git(dir, 'status', '--porcelain').stdout).not.toContain('settings.local.json');
    expect(planInit(dir, ['claude-code'])).toEqual([]);
    const ignored = project({ '.gitignore': '.claude/settings.local.json\n' });
    git(ignored, 'init', '-q');
    applyInit(planInit(ignored, ['claude-code']));
    expect(read(ignored, '.git/info/exclude')).not.toContain('code-intel');
  });
});

describe('code-intel init --remove', () => {
  it('takes out exactly what init added, from every client, and leaves what the user wrote byte for byte', () => {
    const dir = project(USER_FILES);
    git(dir, 'init', '-q');
    const exclude = read(dir, '.git/info/exclude');
    applyInit(planInit(dir, CLIENTS));
    const { changes, kept } = planRemove(dir);
    expect(kept).toEqual([]);
    const dry = changes.map((c) => describeChange(dir, c)).join('\n');
    expect(dry).toContain('+++ /dev/null'); // files only init wrote go
    applyInit(changes);
    for (const [rel, text] of Object.entries(USER_FILES)) expect(read(dir, rel), rel).toBe(text);
    for (const rel of ['.claude/settings.local.json', '.claude/commands', '.cursor', '.codex/hooks.json', 'opencode.json']) expect(fs.existsSync(path.join(dir, rel)), rel).toBe(false);
    expect(read(dir, '.git/info/exclude')).toBe(exclude);
    expect(planRemove(dir).changes).toEqual([]); // idempotent
  });

  it('in a project with nothing else, leaves no client file or folder behind; an edited /code command stays', () => {
    const dir = project({ 'src/a.ts': 'export const a = 1;\n' });
    applyInit(planInit(dir, CLIENTS));
    fs.appendFileSync(path.join(dir, '.claude/commands/code.md'), '\nMy own extra rule.\n');
    const { changes, kept } = planRemove(dir, CLIENTS);
    applyInit(changes);
    expect(kept.map((k) => path.relative(dir, k.file))).toEqual([path.join('.claude', 'commands', 'code.md')]);
    expect(fs.readdirSync(dir).sort()).toEqual(['.claude', 'src']);
    expect(fs.readdirSync(path.join(dir, '.claude'))).toEqual(['commands']);
  });

  it('allows the server tools once, keeps the user permission rules, and takes out only its own', () => {
    const dir = project({ '.claude/settings.local.json': JSON.stringify({ permissions: { allow: ['Bash(npm test)'], deny: ['Read(.env)'] }, enabledMcpjsonServers: ['other'] }) });
    applyInit(planInit(dir, ['claude-code']));
    applyInit(planInit(dir, ['claude-code']));
    expect(json(dir, '.claude/settings.local.json').permissions).toEqual({ allow: ['Bash(npm test)', 'mcp__code-intel'], deny: ['Read(.env)'] });
    expect(json(dir, '.claude/settings.local.json').enabledMcpjsonServers).toEqual(['other', 'code-intel']);
    applyInit(planRemove(dir, ['claude-code']).changes);
    expect(json(dir, '.claude/settings.local.json')).toEqual({ permissions: { allow: ['Bash(npm test)'], deny: ['Read(.env)'] }, enabledMcpjsonServers: ['other'] });
  });

  it('only the clients named: --client codex leaves Claude Code set up', () => {
    const dir = project({});
    applyInit(planInit(dir, ['claude-code', 'codex']));
    applyInit(planRemove(dir, ['codex']).changes);
    expect(fs.existsSync(path.join(dir, '.codex'))).toBe(false);
    expect(json(dir, '.claude/settings.local.json').hooks.PreToolUse).toHaveLength(1);
  });

  it('the CLI: --dry-run shows the removal and changes nothing; the real run reports each file', () => {
    const dir = project({ 'src/a.ts': 'export const a = 1;\n' });
    applyInit(planInit(dir, ['claude-code', 'gemini']));
    const dry = spawnSync(process.execPath, [CLI, 'init', '--remove', '--dry-run', dir], { encoding: 'utf8' });
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+++ /dev/null');
    expect(fs.existsSync(path.join(dir, '.gemini/settings.json'))).toBe(true);
    const real = spawnSync(process.execPath, [CLI, 'init', '--remove', dir], { encoding: 'utf8' });
    expect(real.status, real.stderr).toBe(0);
    expect(real.stdout).toContain('deleted .gemini/settings.json');
    expect(real.stdout).toContain('deleted .claude/settings.local.json');
    const again = spawnSync(process.execPath, [CLI, 'init', '--remove', dir], { encoding: 'utf8' });
    expect(again.stdout).toContain('nothing of code-intel');
  });
});

describe('the hook commands init writes fail closed, and only where code-intel was set up', () => {
  /** Every hook command init writes for `client`, by event name as the client knows it. */
  function commands(dir: string): { client: string; event: string; command: string }[] {
    const out: { client: string; event: string; command: string }[] = [];
    const groups = (client: string, hooks: Record<string, { hooks: { command: string }[] }[]>) => {
      for (const [event, gs] of Object.entries(hooks)) for (const g of gs) for (const h of g.hooks) if (h.command.includes('--installed-by=code-intel')) out.push({ client, event, command: h.command });
    };
    const hooksOf = (rel: string) => (fs.existsSync(path.join(dir, rel)) ? json(dir, rel).hooks : {});
    groups('claude-code', hooksOf('.claude/settings.local.json'));
    groups('gemini', hooksOf('.gemini/settings.json'));
    groups('codex', hooksOf('.codex/hooks.json'));
    for (const [event, list] of Object.entries(hooksOf('.cursor/hooks.json') as Record<string, { command: string }[]>)) for (const h of list) out.push({ client: 'cursor', event, command: h.command });
    return out;
  }
  const PRE = new Set(['PreToolUse', 'BeforeTool', 'preToolUse', 'beforeShellExecution', 'beforeMCPExecution']);
  const payload = (dir: string) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd: dir, session_id: 's', tool_name: 'Edit', tool_input: { file_path: path.join(dir, 'src/a.ts'), old_string: 'a', new_string: 'b' } });
  const run = (command: string, cwd: string, env: Record<string, string> = {}) =>
    spawnSync('sh', ['-c', command], { input: payload(cwd), cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });

  it('with the hook there: exit 0, the hook\'s own answer', () => {
    const dir = project({ 'src/a.ts': 'export const a = 1;\n' });
    applyInit(planInit(dir, ['claude-code', 'gemini', 'codex', 'cursor']));
    fs.mkdirSync(path.join(dir, '.code-intel'));
    for (const c of commands(dir).filter((c) => PRE.has(c.event))) {
      const r = run(c.command, dir, { CLAUDE_PROJECT_DIR: dir });
      expect(r.status, `${c.client} ${c.event}: ${r.stderr}`).toBe(0);
      expect(r.stderr, c.client).toBe('');
    }
  });

  it('with the hook gone (moved clone, uninstalled, node missing): pre-tool events block in every dialect, the others warn', () => {
    const dir = project({ 'src/a.ts': 'export const a = 1;\n' });
    applyInit(planInit(dir, ['claude-code', 'gemini', 'codex', 'cursor']));
    fs.mkdirSync(path.join(dir, '.code-intel')); // set up on this machine
    fs.mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
    const all = commands(dir);
    expect(all.filter((c) => PRE.has(c.event)).map((c) => c.client).sort()).toEqual(['claude-code', 'codex', 'cursor', 'cursor', 'cursor', 'gemini']);
    for (const c of all) {
      expect(c.command).toContain(HOOK);
      const moved = c.command.split(HOOK).join('/nonexistent/code-intel/dist/src/hooks/main.js');
      // from a subfolder, without the client's project variable: the setup is found walking up
      for (const [cwd, env] of [[dir, { CLAUDE_PROJECT_DIR: dir }], [path.join(dir, 'src', 'deep'), {}]] as const) {
        const r = run(moved, cwd, env);
        if (!PRE.has(c.event)) {
          expect(r.status, `${c.client} ${c.event}`).toBe(1); // a warning the person sees; never a block
          expect(r.stderr).toMatch(/code-intel: the [a-z-]+ hook could not run/);
          continue;
        }
        expect(r.status, `${c.client} ${c.event}`).toBe(2); // "block" for Claude Code, Codex and Gemini CLI; failClosed for Cursor
        expect(r.stderr).toMatch(/write guard could not run .*exit status 1\)/);
        const answer = JSON.parse(r.stdout);
        if (c.client === 'cursor') expect(answer).toMatchObject({ permission: 'deny' });
        else if (c.client === 'gemini') expect(answer).toMatchObject({ decision: 'deny' });
        else expect(answer).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      }
    }
    // node is named by its path, not looked up on PATH, where a folder ahead of it may hold a shim that
    // exits 0 for every hook (red team adv20); node itself gone: the shell answers 127, still a block
    const pre = all.find((c) => c.client === 'claude-code' && c.event === 'PreToolUse')!;
    expect(pre.command.startsWith(`'${process.execPath}' `)).toBe(true);
    const noNode = spawnSync('/bin/sh', ['-c', pre.command.split(process.execPath).join('/nonexistent/bin/node')], { input: payload(dir), cwd: dir, encoding: 'utf8', env: { PATH: '/nonexistent' } });
    expect(noNode.status).toBe(2);
    expect(noNode.stderr).toContain('exit status 127');
  });

  it('a teammate who never set code-intel up is not locked out by committed hooks', () => {
    const dir = project({ 'src/a.ts': 'export const a = 1;\n' }); // no .code-intel/: a fresh clone
    applyInit(planInit(dir, ['gemini', 'codex', 'cursor']));
    expect(commands(dir).length).toBe(17);
    for (const c of commands(dir)) {
      const r = run(c.command.split(HOOK).join('/nonexistent/main.js'), dir, { GEMINI_PROJECT_DIR: dir });
      expect(r.status, `${c.client} ${c.event}`).toBe(0);
      expect(r.stdout).toBe('');
    }
  });
});
