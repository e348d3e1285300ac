/**
 * git as the guard runs it: within the hook's time limit, and in the project's own repository
 * never its programs (no fsmonitor, no hooks, no GIT_* variable of the environment redirecting it).
 */
import { execFileSync } from 'node:child_process';

/** git's well-known empty tree: the state of a project with no files. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const GIT_TIMEOUT_MS = 20_000;

/**
 * When the hook process must have answered (hooks/main.ts sets it): git never runs past it, so a
 * slow or stuck git makes the hook deny in time instead of outliving the client's hook timeout —
 * which Codex and Gemini CLI treat as "not blocking". Unlimited in the server.
 */
let gitDeadline = Number.POSITIVE_INFINITY;

export function limitGitTo(deadline: number): void {
  gitDeadline = deadline;
}

/** Milliseconds left before the deadline (Infinity in the server). */
export function gitTimeLeft(): number {
  return gitDeadline - Date.now();
}

export function gitTimeout(cap: number): number {
  const left = Math.floor(gitDeadline - Date.now());
  if (left <= 0) throw new Error('the hook ran out of its time limit before git could check the project');
  return Math.min(cap, left);
}

/** git in the project's own repository (its output as text; stderr kept for the error). */
export function projectGit(root: string, args: string[], extraEnv: Record<string, string> = {}, input?: string): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return execFileSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', '-C', root, ...args],
    { env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', ...extraEnv }, encoding: 'utf8', input, timeout: gitTimeout(GIT_TIMEOUT_MS), maxBuffer: 256 * 1024 * 1024, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
}
