/**
 * The project's own git history is watched like its files: a commit, a stash, a branch or a staged
 * change made by a program the command analyser cannot read (here: git run directly, as an
 * interpreter would) is put back before READY; in READY it stands when it carries only files the
 * session may change.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHook } from '../src/hooks/hooks.js';
import { Project } from '../src/project/project.js';
import { SessionService } from '../src/session/service.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';
import { driveToReady } from './helpers/session.js';

let root: string;
let project: Project;

const git = (...args: string[]): string => {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
const hook = async () => {
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, session_id: 's', tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'ls' } });
  const out = (await runHook('pre-tool-use', input, { cwd: root, projectDir: root })).stdout;
  return out ? (JSON.parse(out) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string } }).hookSpecificOutput : undefined;
};
const said = (h: Awaited<ReturnType<typeof hook>>) => `${h?.permissionDecisionReason ?? ''} ${h?.additionalContext ?? ''}`;

beforeEach(() => {
  root = makeProject(SAMPLE);
  git('init', '-q', '-b', 'main');
  fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.code-intel/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  project = new Project(root);
});
afterEach(() => {
  project.close();
  removeProject(root);
});

describe('before READY', () => {
  beforeEach(() => {
    new SessionService(project).start('IMPLEMENT', 'add tax to the cart total');
  });

  it('a commit is taken out of the branch, the index and the file put back; the commit id is reported', async () => {
    const base = git('rev-parse', 'HEAD');
    const file = path.join(root, 'src', 'cart.ts');
    const before = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, '// committed before READY\n');
    git('commit', '-q', '-am', 'sneaked in');
    const sneaked = git('rev-parse', 'HEAD');
    const h = await hook();
    expect(git('rev-parse', 'HEAD')).toBe(base);
    expect(git('status', '--porcelain')).toBe('');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(said(h)).toContain('.git/refs/heads/main');
    expect(said(h)).toContain(sneaked.slice(0, 12));
  });

  it('a stash, a new branch and a staged new file are put back', async () => {
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// stashed\n');
    git('stash', '-q');
    git('branch', 'other');
    fs.writeFileSync(path.join(root, 'src', 'evil.ts'), 'export const x = 1;\n');
    git('add', 'src/evil.ts');
    await hook();
    expect(git('stash', 'list')).toBe('');
    expect(git('branch', '--list', 'other')).toBe('');
    expect(git('ls-files', 'src/evil.ts')).toBe('');
    expect(fs.existsSync(path.join(root, 'src', 'evil.ts'))).toBe(false);
    expect(git('status', '--porcelain')).toBe('');
  });

  it('a detached HEAD is put back on its branch', async () => {
    git('checkout', '-q', '--detach');
    await hook();
    expect(git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  });

  it('HEAD made a link is put back as a file, never written through: the branch it named and a file outside stay whole (red team adv86g)', async () => {
    const base = git('rev-parse', 'HEAD');
    fs.rmSync(path.join(root, '.git', 'HEAD'));
    fs.symlinkSync('refs/heads/main', path.join(root, '.git', 'HEAD'));
    await hook();
    expect(fs.lstatSync(path.join(root, '.git', 'HEAD')).isSymbolicLink()).toBe(false);
    expect(git('rev-parse', 'refs/heads/main')).toBe(base);
    expect(git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    const victim = path.join(path.dirname(root), `victim-${path.basename(root)}.txt`);
    fs.writeFileSync(victim, 'user data\n');
    try {
      fs.rmSync(path.join(root, '.git', 'HEAD'));
      fs.symlinkSync(`refs/../../../${path.basename(victim)}`, path.join(root, '.git', 'HEAD'));
      await hook();
      expect(fs.readFileSync(victim, 'utf8')).toBe('user data\n');
      expect(git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    } finally {
      fs.rmSync(victim, { force: true });
    }
  });

  it('a linked worktree with a commit, MERGE_HEAD, index flags and thousands of refs are put back in one event (red team adv86g)', async () => {
    const wt = `${root}-wt`;
    try {
      git('worktree', 'add', '-q', '--detach', wt);
      fs.appendFileSync(path.join(wt, 'README.md'), 'evil\n');
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'evil'], { cwd: wt });
      const evil = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: wt, encoding: 'utf8' }).stdout.trim();
      fs.writeFileSync(path.join(root, '.git', 'MERGE_HEAD'), `${evil}\n`);
      git('update-index', '--skip-worktree', 'README.md');
      const lines = Array.from({ length: 3000 }, (_, i) => `${evil} refs/heads/a${String(i).padStart(5, '0')}`);
      fs.appendFileSync(path.join(root, '.git', 'packed-refs'), `${lines.join('\n')}\n`);
      await hook();
      expect(git('log', '--all', '--format=%H')).not.toContain(evil);
      expect(git('worktree', 'list')).not.toContain(wt);
      expect(fs.existsSync(path.join(root, '.git', 'MERGE_HEAD'))).toBe(false);
      expect(git('ls-files', '-v', 'README.md')).toBe('H README.md');
      expect(git('for-each-ref', '--count=5', 'refs/heads/')).toBe(`${git('rev-parse', 'HEAD')} commit\trefs/heads/main`);
    } finally {
      fs.rmSync(wt, { recursive: true, force: true });
    }
  });

  it('with the records gone (the database removed by the same script), the commit is put back from the anchor outside the project', async () => {
    const base = git('rev-parse', 'HEAD');
    await hook(); // the anchor holds the accepted history
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// committed with the records gone\n');
    git('commit', '-q', '-am', 'sneaked in');
    git('branch', 'kept');
    const sneaked = git('rev-parse', 'HEAD');
    project.close();
    for (const f of fs.readdirSync(path.join(root, '.code-intel'))) if (f.startsWith('index.db')) fs.rmSync(path.join(root, '.code-intel', f));
    const h = await hook();
    expect(h?.permissionDecision).toBe('deny');
    expect(git('rev-parse', 'HEAD')).toBe(base);
    expect(git('branch', '--list', 'kept')).toBe('');
    expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(said(h)).toContain(sneaked.slice(0, 12));
    // put back once: the next event finds nothing to undo and no git history to read again
    expect(said(await hook())).not.toContain('Undid');
    project = new Project(root);
  });

  it('lock files a script leaves in .git are removed once no git has written them for 10 s, so the put-back and the person\'s git go on', async () => {
    const base = git('rev-parse', 'HEAD');
    await hook();
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// committed, then the ref locked\n');
    git('commit', '-q', '-am', 'sneaked in');
    const refLock = path.join(root, '.git', 'refs', 'heads', 'main.lock');
    const indexLock = path.join(root, '.git', 'index.lock');
    fs.writeFileSync(refLock, '');
    fs.writeFileSync(indexLock, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(refLock, old, old);
    let h = await hook();
    expect(git('rev-parse', 'HEAD')).toBe(base);
    expect(fs.existsSync(refLock)).toBe(false);
    expect(said(h)).toContain('.git/refs/heads/main.lock');
    // the young one waits (a git may be running), says nothing, and is looked at again
    expect(fs.existsSync(indexLock)).toBe(true);
    expect(said(h)).not.toContain('index.lock');
    h = await hook();
    expect(fs.existsSync(indexLock)).toBe(true);
    fs.utimesSync(indexLock, old, old);
    // an old lock stays while a git process runs (a `git commit` waiting on its editor holds index.lock)
    if (fs.existsSync('/proc/self/comm')) {
      const running = spawn('git', ['cat-file', '--batch'], { cwd: root, stdio: ['pipe', 'ignore', 'ignore'] });
      await new Promise((r) => setTimeout(r, 200));
      h = await hook();
      expect(fs.existsSync(indexLock)).toBe(true);
      running.stdin!.end();
      await new Promise((r) => running.on('exit', r));
    }
    h = await hook();
    expect(fs.existsSync(indexLock)).toBe(false);
    expect(said(h)).toContain('.git/index.lock');
    git('stash', 'list'); // git works again
    expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
  });

  it('reading git (status, log: the index stat refreshed) changes nothing and reports nothing', async () => {
    fs.utimesSync(path.join(root, 'src', 'cart.ts'), new Date(), new Date(Date.now() + 5000));
    git('status', '--porcelain');
    git('log', '--oneline');
    const h = await hook();
    expect(said(h)).not.toMatch(/\.git\//);
    expect(h?.permissionDecision).not.toBe('deny');
  });
});

describe('in READY', () => {
  let sessions: SessionService;
  beforeEach(async () => {
    sessions = new SessionService(project);
    await driveToReady(project, sessions);
  });

  it('a commit of an explored file stands', async () => {
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// the change\n');
    git('commit', '-q', '-am', 'the change');
    const head = git('rev-parse', 'HEAD');
    const h = await hook();
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(said(h)).not.toMatch(/\.git\//);
  });

  it('a commit that carries a file never explored is put back with it', async () => {
    const base = git('rev-parse', 'HEAD');
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// the change\n');
    fs.appendFileSync(path.join(root, 'README.md'), 'not explored\n');
    git('commit', '-q', '-am', 'the change and more');
    const h = await hook();
    expect(git('rev-parse', 'HEAD')).toBe(base);
    expect(said(h)).toMatch(/README\.md/);
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toBe(SAMPLE['README.md']);
    // the explored file's change is the agent's to make: it stays in the working tree, unstaged
    expect(fs.readFileSync(path.join(root, 'src', 'cart.ts'), 'utf8')).toContain('// the change');
    expect(git('diff', '--cached', '--name-only')).toBe('');
  });

  it('a pair of commits that change an unexplored file and change it back is put back; so is a rewrite of the commit the turn began on (red team adv86g)', async () => {
    const base = git('rev-parse', 'HEAD');
    fs.appendFileSync(path.join(root, 'README.md'), 'hidden\n');
    git('commit', '-qam', 'perf');
    git('revert', '--no-edit', 'HEAD');
    await hook();
    expect(git('rev-parse', 'HEAD')).toBe(base);
    git('commit', '-q', '--amend', '-m', 'rewritten by the agent');
    await hook();
    expect(git('rev-parse', 'HEAD')).toBe(base);
    // the agent's own commit of an explored file, amended: its to make
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// the change\n');
    git('commit', '-qam', 'the change');
    await hook();
    git('commit', '-q', '--amend', '-m', 'the change, said better');
    const amended = git('rev-parse', 'HEAD');
    await hook();
    expect(git('rev-parse', 'HEAD')).toBe(amended);
  });

  it('staging an explored file stands', async () => {
    fs.appendFileSync(path.join(root, 'src', 'cart.ts'), '// staged\n');
    git('add', 'src/cart.ts');
    await hook();
    expect(git('diff', '--cached', '--name-only')).toBe('src/cart.ts');
  });
});

describe('a repository with no commit yet', () => {
  it('in READY the first commit of explored files stands; before READY it is taken back out', async () => {
    // (a branch with no commit: its first commit is compared with git's empty tree)
    removeProject(root);
    root = makeProject(SAMPLE);
    git('init', '-q', '-b', 'main');
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.code-intel/\n');
    project.close();
    project = new Project(root);
    const sessions = new SessionService(project);
    sessions.start('IMPLEMENT', 'add tax to the cart total');
    git('add', 'src/cart.ts');
    git('commit', '-q', '-m', 'sneaked');
    await hook();
    expect(spawnSync('git', ['rev-parse', '-q', '--verify', 'HEAD'], { cwd: root }).status).not.toBe(0);
    expect(git('ls-files')).toBe('');
    sessions.abort('again');
    await driveToReady(project, sessions);
    git('add', 'src/cart.ts', 'src/util/format.ts');
    git('commit', '-q', '-m', 'first');
    const head = git('rev-parse', 'HEAD');
    await hook();
    expect(git('rev-parse', 'HEAD')).toBe(head);
  });
});
