/**
 * The effect check in-process, where a failure can be forced: an undo that cannot be done must
 * never become the accepted state.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProtectedFiles } from '../src/guard/protected.js';
import { TreeSnapshot } from '../src/guard/tree-snapshot.js';
import { runHook } from '../src/hooks/hooks.js';
import { Project } from '../src/project/project.js';
import { SessionService } from '../src/session/service.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';

let root: string;
let project: Project;

beforeEach(() => {
  root = makeProject(SAMPLE);
  project = new Project(root);
  new SessionService(project).start('IMPLEMENT', 'add tax to the cart total');
});
afterEach(() => {
  vi.restoreAllMocks();
  project.close();
  removeProject(root);
});

const bash = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, session_id: 's', tool_name: 'Bash', tool_use_id: 't1', tool_input: { command } });
const decision = (stdout: string) => (stdout ? (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } }).hookSpecificOutput : undefined);

describe('an undo that fails', () => {
  it('is not accepted: writes are refused meanwhile, and the next check puts the file back', async () => {
    const file = path.join(root, 'src', 'cart.ts');
    const before = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, '// changed before READY\n');
    const restore = vi.spyOn(TreeSnapshot.prototype, 'restore').mockImplementation(() => {
      throw new Error('EBUSY: resource busy');
    });
    const first = decision((await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root })).stdout);
    expect(first?.permissionDecision).toBe('deny');
    expect(first?.permissionDecisionReason).toMatch(/Could not undo: src\/cart\.ts/);
    expect(fs.readFileSync(file, 'utf8')).not.toBe(before);
    // still refused at the next call: the change was not taken as the new accepted state
    expect(decision((await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root })).stdout)?.permissionDecision).toBe('deny');
    restore.mockRestore();
    const second = decision((await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root })).stdout);
    expect(second?.permissionDecision).not.toBe('deny');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('an undo that still fails at the user\'s next prompt', () => {
  it('is said to the person as a change that stays, not as writes that wait (red team adv34)', async () => {
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// changed before READY\n');
    vi.spyOn(TreeSnapshot.prototype, 'restore').mockImplementation(() => {
      throw new Error('EPERM: operation not permitted');
    });
    const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', cwd: root, session_id: 's', prompt: 'ok thanks' });
    const out = JSON.parse((await runHook('user-prompt-submit', prompt, { cwd: root, projectDir: root })).stdout) as { systemMessage?: string };
    expect(out.systemMessage).toMatch(/src\/cart\.ts/);
    expect(out.systemMessage).toMatch(/stay in the project/);
    expect(out.systemMessage).not.toMatch(/refused until/);
  });
});

describe('an undo through a folder that became a link', () => {
  it('moves the link aside and never copies, unlocks or deletes what lies beyond it (red team adv35)', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-adv35-'));
    try {
      const snap = new TreeSnapshot(root);
      const baseline = snap.capture();
      fs.mkdirSync(path.join(outside, 'victim'));
      fs.writeFileSync(path.join(outside, 'victim', 'cart.ts'), 'not the project\'s\n');
      fs.renameSync(path.join(root, 'src'), path.join(outside, 'src_old'));
      fs.symlinkSync(path.join(outside, 'victim'), path.join(root, 'src'));
      const keep = path.join(root, '.code-intel', 'guard', 'reverted', 'adv35');
      fs.mkdirSync(keep, { recursive: true });
      snap.restore(baseline, 'src/cart.ts', keep, 'D');
      expect(fs.readFileSync(path.join(outside, 'victim', 'cart.ts'), 'utf8')).toBe('not the project\'s\n');
      expect(fs.lstatSync(path.join(root, 'src')).isDirectory()).toBe(true);
      expect(fs.readFileSync(path.join(root, 'src', 'cart.ts'), 'utf8')).toBe(fs.readFileSync(path.join(outside, 'src_old', 'cart.ts'), 'utf8'));
      expect(fs.readFileSync(path.join(keep, 'src.symlink'), 'utf8')).toBe(path.join(outside, 'victim'));
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('the client settings the guard keeps', () => {
  // only where the test may create the system-wide file and take it away again (root, none there)
  const managed = '/etc/claude-code/managed-settings.json';
  const canTry = process.getuid?.() === 0 && !fs.existsSync(path.dirname(managed));
  it.runIf(canTry)('include Claude Code\'s managed settings, whose disableAllHooks outranks every other file', () => {
    try {
      fs.mkdirSync(path.dirname(managed));
      fs.writeFileSync(managed, '{}\n');
      const prot = new ProtectedFiles(root);
      const manifest = prot.capture();
      expect(Object.keys(manifest)).toContain(managed);
      fs.writeFileSync(managed, '{"disableAllHooks": true}\n');
      expect(prot.changed(manifest)).toContain(managed);
      expect(prot.restore(manifest, managed, path.join(root, '.code-intel', 'guard', 'reverted', 'x')).restored).toBe(true);
      expect(fs.readFileSync(managed, 'utf8')).toBe('{}\n');
    } finally {
      fs.rmSync(path.dirname(managed), { recursive: true, force: true });
    }
  });
});

describe('a file rewritten with its size and times kept to the second (red team adv78)', () => {
  it('is seen: the snapshot compares stat to the nanosecond, which git (to the second) does not', async () => {
    const file = path.join(root, 'src', 'cart.ts');
    const snap = new TreeSnapshot(root);
    snap.capture();
    // (start early in a second, so the rewrite below keeps the change time's second; a modification
    // time well before the index's, so git does not take the file as racily clean and hash it anyway)
    while (Date.now() % 1000 > 200) await new Promise((r) => setTimeout(r, 10));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    const baseline = snap.capture();
    const commit = snap.accept(baseline);
    const st = fs.statSync(file);
    const before = fs.readFileSync(file, 'utf8');
    const after = before.replace(/[a-z]/, (c) => (c === 'x' ? 'y' : 'x'));
    expect(after).not.toBe(before);
    fs.writeFileSync(file, after);
    fs.utimesSync(file, st.atime, st.mtime);
    expect(fs.statSync(file).size).toBe(st.size);
    expect(snap.unchangedSince(commit)).toBe(false);
    const now = snap.capture();
    expect(snap.diff(baseline, now)).toEqual([{ path: 'src/cart.ts', status: 'M' }]);
  });
});

describe('the session store stamps records in order whatever the clock says (red team adv78)', () => {
  it('an abort recorded with the clock set back an hour is still after the /code prompt: the turn stays guarded', async () => {
    const { SessionStore } = await import('../src/session/store.js');
    const { guardMode } = await import('../src/guard/mode.js');
    const service = new SessionService(project);
    service.abort('the fixture session');
    const store = new SessionStore(project.db);
    store.recordPrompt('/code add tax to the cart total', 'c1');
    await new Promise((r) => setTimeout(r, 5));
    service.start('IMPLEMENT', 'add tax to the cart total');
    const real = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(real - 3_600_000);
    service.abort('restart');
    vi.restoreAllMocks();
    const last = store.list(1)[0]!;
    expect(store.endedAt(last.id)!).toBeGreaterThan(store.lastPromptAt()!);
    expect(guardMode(store, root).kind).toBe('locked');
  });
});

describe('a change its stat does not show (red team adv80: a store into a shared mapping, a clock set to the nanosecond)', () => {
  it('is undone: a small project is hashed whole at every check, whatever git and the stat record say', async () => {
    const file = path.join(root, 'src', 'cart.ts');
    const before = fs.readFileSync(file, 'utf8');
    expect((await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root })).exitCode).toBe(0);
    // (the stat says nothing moved: git's check and the nanosecond record are both told so)
    vi.spyOn(TreeSnapshot.prototype, 'unchangedSince').mockReturnValue(true);
    vi.spyOn(TreeSnapshot.prototype, 'movedSinceCapture').mockReturnValue(false);
    fs.writeFileSync(file, before.replace(/[a-z]/, (c) => (c === 'x' ? 'y' : 'x')));
    const out = (await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root })).stdout;
    expect(out).toMatch(/src\/cart\.ts/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('a file whose name is not UTF-8 (red team adv82)', () => {
  it('is hashed at every check too: its change is undone although the stat says nothing moved', async () => {
    const raw = Buffer.concat([Buffer.from(path.join(root, 'src') + '/'), Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from('.ts')]);
    // (in the project before the session: part of its baseline)
    const service = new SessionService(project);
    service.abort('the fixture session');
    fs.writeFileSync(raw, 'export const cafe = 1;\n');
    service.start('IMPLEMENT', 'add tax to the cart total');
    expect((await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root })).exitCode).toBe(0);
    expect(fs.readFileSync(raw, 'utf8')).toBe('export const cafe = 1;\n');
    vi.spyOn(TreeSnapshot.prototype, 'unchangedSince').mockReturnValue(true);
    fs.writeFileSync(raw, 'export const cafe = 2;\n');
    await runHook('pre-tool-use', bash('ls'), { cwd: root, projectDir: root });
    expect(fs.readFileSync(raw, 'utf8')).toBe('export const cafe = 1;\n');
  });
});
