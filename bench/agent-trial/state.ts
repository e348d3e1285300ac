/**
 * The trial directory: where a trial keeps its state, and the environment every process of the
 * simulated Claude Code (hooks, the MCP server, the agent's shell) runs with.
 *
 *   DIR/project          the project under test (a git repository; `code-intel init` + `index` ran in it)
 *   DIR/claude           CLAUDE_CONFIG_DIR: DIR/claude/projects/trial/<uuid>.jsonl is the transcript
 *   DIR/state            CODE_INTEL_STATE_DIR: the guard's seal key and markers, kept out of ~/.local/state
 *   DIR/PROMPT.md        the /code prompt the agent follows ($ARGUMENTS replaced by the request)
 *   DIR/trial.json       this file's TrialState
 *   DIR/trial-log.jsonl  one line per harness command
 *   DIR/server.log       the MCP server's stderr;  DIR/setup.log  what init and index printed
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/bench/agent-trial/ → the repository root */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
export const TRIAL_JS = path.join(REPO_ROOT, 'dist', 'bench', 'agent-trial', 'trial.js');

export interface HookCommand { matcher?: string; command: string; timeout?: number }

export interface TrialState {
  version: 1;
  dir: string;
  project: string;
  claudeDir: string;
  stateDir: string;
  transcript: string;
  /** Claude Code's session id (the transcript's file name) */
  sessionId: string;
  request: string;
  /** the next toolu_trial_<n> */
  nextId: number;
  /** the uuid of the transcript's last line (parentUuid of the next) */
  lastUuid: string | null;
  /** .claude/settings.json and settings.local.json hooks as they were at setup (Claude Code snapshots hooks when a session starts) */
  hooks: Record<string, HookCommand[]>;
  /** .mcp.json's code-intel entry as it was at setup */
  mcp: { command: string; args: string[]; env?: Record<string, string> };
  /** absolute path → mtimeMs when the agent last Read (or wrote) it: Claude Code's read-before-edit rule */
  reads: Record<string, number>;
  createdAt: string;
}

export function trialDir(opt: string | undefined): string {
  const d = opt ?? process.env.TRIAL_DIR;
  if (!d) throw new Error('no trial directory: pass --dir DIR or set TRIAL_DIR');
  return path.resolve(d);
}

const stateFile = (dir: string) => path.join(dir, 'trial.json');

export function loadState(dir: string): TrialState {
  const f = stateFile(dir);
  if (!fs.existsSync(f)) throw new Error(`${dir} is not a trial directory (no trial.json): run \`setup\` first`);
  return JSON.parse(fs.readFileSync(f, 'utf8')) as TrialState;
}

export function saveState(s: TrialState): void {
  const f = stateFile(s.dir);
  fs.writeFileSync(f + '.tmp', JSON.stringify(s, null, 2));
  fs.renameSync(f + '.tmp', f);
}

/** What every process of the simulated client runs with. */
export function envFor(s: Pick<TrialState, 'claudeDir' | 'project' | 'stateDir'>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TRIAL_DIR') env[k] = v;
  env.CLAUDE_CONFIG_DIR = s.claudeDir;
  env.CLAUDE_PROJECT_DIR = s.project;
  env.CODE_INTEL_STATE_DIR = s.stateDir;
  return env;
}

/** Set in the simulated shell's environment: the harness refuses to run inside its own Bash tool. */
export const NESTED_MARK = 'AGENT_TRIAL_INSIDE_BASH';

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One harness command at a time per trial (a Bash call can take minutes; the next waits). */
export async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(dir, '.lock');
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      if (!holder || !alive(holder)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another harness command (pid ${holder}) holds ${lock}`);
      sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

export function trunc(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n)}… [${s.length - n} more chars]`;
}
