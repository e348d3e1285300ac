/**
 * The ignore rules git keeps outside the project's .gitignore files: the repository's
 * `.git/info/exclude` and the user's global excludes file. The write guard counts what they ignore
 * as not the project's (an agent may write there before READY), so the index must not read it
 * either: a file there would feed the symbol graph that relevance is judged by.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

let globalFile: { value: string | undefined } | undefined;

/**
 * The user's global excludes file as git would find it (core.excludesFile, else XDG's git/ignore);
 * looked up once per process. `timeoutMs`: the hook passes what is left of its own budget.
 */
export function globalExcludesFile(timeoutMs = 5000): string | undefined {
  if (globalFile) return globalFile.value;
  let value: string | undefined;
  try {
    value = execFileSync('git', ['config', '--global', '--path', 'core.excludesFile'], { encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    // not set, or no git
  }
  if (!value) {
    const xdg = process.env.XDG_CONFIG_HOME || (process.env.HOME ? path.join(process.env.HOME, '.config') : undefined);
    value = xdg ? path.join(xdg, 'git', 'ignore') : undefined;
  }
  globalFile = { value };
  return value;
}

/** a file's text, or '' where there is none */
export const readIf = (file: string | undefined): string => {
  if (!file) return '';
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/**
 * Patterns (relative to the project's root) of `.git/info/exclude`, the global excludes file, and the
 * copy of both the write guard took when it first looked (its private store's `info/exclude`): what
 * any of them ignores, the guard lets an agent write.
 */
export function gitExcludePatterns(root: string): string[] {
  return [
    readIf(path.join(root, '.git', 'info', 'exclude')),
    readIf(globalExcludesFile()),
    readIf(path.join(root, '.code-intel', 'guard', 'git', 'info', 'exclude')),
  ].flatMap((t) => t.split('\n')).filter((l) => l.trim() && !l.startsWith('#'));
}
