/**
 * Keeps a per-user file out of git without touching anything committed: a line in the clone's own
 * .git/info/exclude, marked so init --remove takes exactly that line out again. Claude Code ignores
 * .claude/settings.local.json itself only when it creates the file; init may create it first.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type FileChange, readText } from './config-files.js';

const MARK = '# code-intel: per-user client settings (code-intel init)';

function git(root: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', timeout: 10_000 });
  return { status: r.error ? null : r.status, out: (r.stdout ?? '').trim() };
}

/** The clone's exclude file, or undefined when root is not in a git work tree (or git is missing). */
function excludeFile(root: string): string | undefined {
  const r = git(root, ['rev-parse', '--git-path', 'info/exclude']);
  return r.status === 0 && r.out ? path.resolve(root, r.out) : undefined;
}

/** Adds `rel` (project-relative, `/`) to the exclude file unless git already ignores it; undefined: nothing to do. */
export function planExclude(root: string, rel: string): FileChange | undefined {
  const file = excludeFile(root);
  if (!file) return undefined;
  const before = readText(file);
  const line = `/${rel}`;
  if (before?.split('\n').includes(line)) return undefined;
  if (git(root, ['check-ignore', '-q', '--no-index', rel]).status === 0) return undefined; // ignored already (a .gitignore, the user's global excludes)
  const base = before === null || before === '' || before.endsWith('\n') ? before ?? '' : before + '\n';
  return { file, before, after: `${base}${MARK}\n${line}\n` };
}

/** Takes our marked line for `rel` out of the exclude file again. */
export function planUnexclude(root: string, rel: string): FileChange | undefined {
  const file = excludeFile(root);
  const before = file ? readText(file) : null;
  if (!file || before === null) return undefined;
  const lines = before.split('\n');
  const at = lines.findIndex((l, i) => l === MARK && lines[i + 1] === `/${rel}`);
  if (at < 0) return undefined;
  lines.splice(at, 2);
  return { file, before, after: lines.join('\n') };
}
