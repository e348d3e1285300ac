/**
 * The OpenCode guard: the plugin `init` writes, loaded as OpenCode loads it (an ES module whose
 * exported function returns the hooks), called with OpenCode's tool names and arguments, running
 * the real hook process against a session the server-side code drives. The disk is checked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyInit, planInit, planRemove } from '../src/clients/init.js';
import { OPENCODE_PLUGIN_FILE } from '../src/clients/opencode-plugin.js';
import { normalize } from '../src/hooks/dialects.js';
import { Project } from '../src/project/project.js';
import { SessionService } from '../src/session/service.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';
import { driveToReady } from './helpers/session.js';

type Hooks = Record<'tool.execute.before' | 'tool.execute.after', (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>>;

let root: string;
let project: Project;
let sessions: SessionService;
const scratch: string[] = [];

/** The plugin file as OpenCode would load it (copied to .mjs: Node needs the extension to read it as a module). */
async function loadPlugin(source: string, dir = root): Promise<Hooks> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-opencode-')), 'code-intel-guard.mjs');
  scratch.push(path.dirname(file));
  fs.writeFileSync(file, source);
  const mod = (await import(file)) as { CodeIntelGuard: (ctx: Record<string, unknown>) => Promise<Hooks> };
  return mod.CodeIntelGuard({ directory: dir, worktree: dir });
}
const call = (tool: string) => ({ tool, sessionID: 'oc-1', callID: `call-${Math.random()}` });

beforeEach(() => {
  root = makeProject(SAMPLE);
  applyInit(planInit(root, ['opencode']));
  project = new Project(root);
  sessions = new SessionService(project);
});
afterEach(() => {
  project.close();
  removeProject(root);
  for (const d of scratch.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the OpenCode dialect', () => {
  it("maps OpenCode's tools and arguments onto the guard's", () => {
    const n = (tool: string, args: Record<string, unknown>) => normalize('opencode', { hook_event_name: 'PreToolUse', cwd: '/p', tool, args });
    expect(n('edit', { filePath: '/p/a.ts', oldString: 'x', newString: 'y' })).toMatchObject({ tool_name: 'Edit', tool_input: { file_path: '/p/a.ts' } });
    expect(n('write', { filePath: 'b.ts', content: '' })).toMatchObject({ tool_name: 'Write', tool_input: { file_path: 'b.ts' } });
    expect(n('bash', { command: 'ls', timeout: 5 })).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'ls', timeout: 5 } });
    expect(n('read', { filePath: 'a.ts', offset: 10, limit: 5 })).toMatchObject({ tool_name: 'Read', tool_input: { file_path: 'a.ts', offset: 10, limit: 5 } });
    expect(n('patch', { patchText: '*** Begin Patch\n*** Update File: src/a.ts\n*** Add File: src/b.ts\n*** End Patch' })).toMatchObject({ tool_name: 'ApplyPatch', tool_input: { file_paths: ['src/a.ts', 'src/b.ts'] } });
    expect(n('code-intel_start_session', { intent: 'MODIFY' }).tool_name).toBe('mcp__code-intel__start_session');
    expect(n('code_intel_check_write_target', {}).tool_name).toBe('mcp__code-intel__check_write_target');
    expect(n('shell_execute_command', { command: 'rm -rf src' }).tool_name).toBe('mcp__shell__execute_command');
  });
});

describe('the OpenCode plugin', () => {
  it('denies edits and writing commands before READY, lets reads through, and the disk stays as it was', async () => {
    const hooks = await loadPlugin(fs.readFileSync(path.join(root, OPENCODE_PLUGIN_FILE), 'utf8'));
    sessions.start('IMPLEMENT', 'add tax to the cart total');
    const cart = path.join(root, 'src/cart.ts');
    const before = fs.readFileSync(cart, 'utf8');
    await expect(hooks['tool.execute.before'](call('edit'), { args: { filePath: cart, oldString: 'a', newString: 'b' } })).rejects.toThrow(/code-intel:.*EXPLORATION/);
    await expect(hooks['tool.execute.before'](call('bash'), { args: { command: 'echo x > src/new.ts' } })).rejects.toThrow(/code-intel:/);
    await expect(hooks['tool.execute.before'](call('shell_execute_command'), { args: { command: 'touch src/x.ts' } })).rejects.toThrow(/code-intel:/);
    await expect(hooks['tool.execute.before'](call('read'), { args: { filePath: cart } })).resolves.toBeUndefined();
    await expect(hooks['tool.execute.before'](call('code-intel_get_session_status'), { args: {} })).resolves.toBeUndefined();
    expect(fs.readFileSync(cart, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(root, 'src/new.ts'))).toBe(false);
  });

  it('undoes what a command changed behind the guard, and tells the model in the tool output', async () => {
    const hooks = await loadPlugin(fs.readFileSync(path.join(root, OPENCODE_PLUGIN_FILE), 'utf8'));
    sessions.start('IMPLEMENT', 'add tax to the cart total');
    const cart = path.join(root, 'src/cart.ts');
    const before = fs.readFileSync(cart, 'utf8');
    await hooks['tool.execute.before'](call('bash'), { args: { command: 'python3 -c "print(1)"' } });
    fs.appendFileSync(cart, '\n// written by a command the guard could not read\n');
    const output = { title: '', output: '1', metadata: {} };
    await hooks['tool.execute.after']({ ...call('bash'), args: { command: 'python3 -c "print(1)"' } }, output);
    expect(fs.readFileSync(cart, 'utf8')).toBe(before);
    expect(output.output).toMatch(/^1\n\ncode-intel: .*src\/cart\.ts/s);
  });

  it('in READY, lets an explored file be edited, never the guard plugin itself', async () => {
    const hooks = await loadPlugin(fs.readFileSync(path.join(root, OPENCODE_PLUGIN_FILE), 'utf8'));
    await driveToReady(project, sessions);
    await expect(hooks['tool.execute.before'](call('edit'), { args: { filePath: path.join(root, 'src/cart.ts'), oldString: 'a', newString: 'b' } })).resolves.toBeUndefined();
    await expect(hooks['tool.execute.before'](call('write'), { args: { filePath: path.join(root, OPENCODE_PLUGIN_FILE), content: '' } })).rejects.toThrow(/code-intel:/);
    await expect(hooks['tool.execute.before'](call('bash'), { args: { command: `rm ${OPENCODE_PLUGIN_FILE}` } })).rejects.toThrow(/code-intel:/);
  });

  it('denies when the hook cannot run in a project set up here, and does nothing in one never set up', async () => {
    const source = fs.readFileSync(path.join(root, OPENCODE_PLUGIN_FILE), 'utf8');
    const broken = source.replace(/const HOOK = .*;/, `const HOOK = ["node", ${JSON.stringify(path.join(root, 'missing', 'main.js'))}];`);
    expect(broken).not.toBe(source);
    const hooks = await loadPlugin(broken);
    await expect(hooks['tool.execute.before'](call('read'), { args: { filePath: path.join(root, 'src/cart.ts') } })).rejects.toThrow(/could not run/);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-opencode-bare-'));
    scratch.push(elsewhere);
    const bare = await loadPlugin(broken, elsewhere);
    await expect(bare['tool.execute.before'](call('edit'), { args: { filePath: path.join(elsewhere, 'a.ts') } })).resolves.toBeUndefined();
  });

  it('init --remove takes the plugin out, and keeps one the user edited', () => {
    expect(fs.existsSync(path.join(root, OPENCODE_PLUGIN_FILE))).toBe(true);
    applyInit(planRemove(root, ['opencode']).changes);
    expect(fs.existsSync(path.join(root, OPENCODE_PLUGIN_FILE))).toBe(false);
    applyInit(planInit(root, ['opencode']));
    fs.appendFileSync(path.join(root, OPENCODE_PLUGIN_FILE), '\n// mine\n');
    const { changes, kept } = planRemove(root, ['opencode']);
    applyInit(changes);
    expect(kept.map((k) => path.relative(root, k.file))).toEqual([OPENCODE_PLUGIN_FILE]);
    expect(fs.existsSync(path.join(root, OPENCODE_PLUGIN_FILE))).toBe(true);
  });
});
