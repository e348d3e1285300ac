/**
 * Latency of the client hooks as Claude Code runs them: a fresh `node` process per call, cold
 * start included, fed a payload on stdin. Baseline: a bare `node -e ''` in the same run. The hooks
 * fire before and after every tool call, so both the "nothing to do" path and the effect check
 * (a snapshot of the working tree compared with the accepted one) are measured, median and worst.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Project } from '../../src/project/project.js';
import { SessionService } from '../../src/session/service.js';
import { median } from './util.js';

export interface HookTiming { case: string; decision: string; median_ms: number; max_ms: number; runs: number }

// the guard's key, seals and undo store go to a folder of this run, not the user's ~/.local/state
process.env.CODE_INTEL_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-bench-state-'));

/** A Claude Code transcript the hooks check prompts against (as the client keeps one). */
const CLAUDE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-bench-claude-'));
const TRANSCRIPT = path.join(CLAUDE_DIR, 'projects', 'bench', `${randomUUID()}.jsonl`);
fs.mkdirSync(path.dirname(TRANSCRIPT), { recursive: true });
function userTyped(text: string): void {
  fs.appendFileSync(TRANSCRIPT, JSON.stringify({ type: 'user', message: { role: 'user', content: text }, uuid: randomUUID() }) + '\n');
}

function time(args: string[], input: string, cwd: string, runs: number, before?: () => void): { ms: number[]; stdout: string } {
  const ms: number[] = [];
  let stdout = '';
  for (let i = 0; i < runs; i++) {
    before?.();
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { input, cwd, encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: cwd, CLAUDE_CONFIG_DIR: CLAUDE_DIR } });
    ms.push(performance.now() - t0);
    stdout = r.stdout;
  }
  return { ms, stdout };
}

function decision(s: string): string {
  if (!s) return 'allow (no output)';
  const o = JSON.parse(s) as { hookSpecificOutput?: { permissionDecision?: string }; decision?: string; systemMessage?: string };
  if (o.hookSpecificOutput?.permissionDecision) return o.hookSpecificOutput.permissionDecision;
  if (o.decision === 'block' || o.systemMessage) return 'undid a change';
  return 'allow';
}

/**
 * `touch` names a project file (relative to root) that the undo case changes before each run. The
 * hooks run on a copy of `root` without its `.code-intel/`: guard records a run before sealed under
 * another state folder would be (rightly) judged tampered with, and the bench must not change the
 * cache it was given.
 */
export function measureHooks(repo: string, source: string, touch: string, runs = 10): HookTiming[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-bench-hooks-'));
  fs.cpSync(source, root, { recursive: true, filter: (from) => path.basename(from) !== '.code-intel' });
  try {
    return measureOn(repo, root, touch, runs);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function measureOn(repo: string, root: string, touch: string, runs: number): HookTiming[] {
  const hook = path.join(repo, 'dist', 'src', 'hooks', 'main.js');
  const out: HookTiming[] = [];
  const common = { cwd: root, session_id: 'bench', transcript_path: TRANSCRIPT };
  const pre = (tool: string, input: Record<string, unknown>) => JSON.stringify({ ...common, hook_event_name: 'PreToolUse', tool_name: tool, tool_use_id: 'toolu_bench', tool_input: input });
  const post = (tool: string, input: Record<string, unknown>) => JSON.stringify({ ...common, hook_event_name: 'PostToolUse', tool_name: tool, tool_use_id: 'toolu_bench', tool_input: input, tool_response: {} });
  const edit = pre('Edit', { file_path: path.join(root, touch), old_string: 'a', new_string: 'b' });
  const read = pre('Read', { file_path: path.join(root, touch) });
  const push = (name: string, r: { ms: number[]; stdout: string }, d = decision(r.stdout)) =>
    out.push({ case: name, decision: d, median_ms: median(r.ms), max_ms: Math.max(...r.ms), runs });
  push('node -e "" (baseline: process start)', time(['-e', ''], '', root, runs), '-');
  const add = (name: string, input: string, event = 'pre-tool-use', before?: () => void) => push(name, time([hook, event], input, root, runs, before));
  const prompt = JSON.stringify({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'bench: hook latency' });
  userTyped('bench: hook latency');
  add('UserPromptSubmit, no session (recorded)', prompt, 'user-prompt-submit');
  add('PreToolUse Read, no session', read);
  add('PreToolUse Edit, no session', edit);
  const project = new Project(root);
  const sessions = new SessionService(project);
  const file = path.join(root, touch);
  try {
    const t0 = performance.now();
    sessions.start('IMPLEMENT', 'bench: hook latency');
    out.push({ case: 'start_session (first snapshot of the tree)', decision: '-', median_ms: performance.now() - t0, max_ms: performance.now() - t0, runs: 1 });
    add('PreToolUse Read, EXPLORATION (tree checked)', read);
    add('PreToolUse Edit, EXPLORATION', edit);
    add('PreToolUse Bash `echo x > f`, EXPLORATION', pre('Bash', { command: 'echo x > f' }));
    add('PreToolUse Bash `ls -la | head`, EXPLORATION', pre('Bash', { command: 'ls -la | head' }));
    add('PostToolUse Bash, nothing changed', post('Bash', { command: 'ls' }), 'post-tool-use');
    add('PostToolUse Bash, a file changed: undone', post('Bash', { command: 'python3 -c …' }), 'post-tool-use', () => fs.appendFileSync(file, '\n// changed\n'));
    add('PostToolUse Read (recorded)', post('Read', { file_path: file }), 'post-tool-use');
    add('Stop', JSON.stringify({ ...common, hook_event_name: 'Stop', stop_hook_active: false }), 'stop');
  } finally {
    try {
      sessions.abort('bench finished');
    } catch {
      /* already ended */
    }
    project.close();
  }
  // the turn stays guarded after the abort until the next prompt: end it like a user would
  userTyped('bench: hook latency');
  add('UserPromptSubmit (checks the tree, ends the turn)', prompt, 'user-prompt-submit');
  fs.rmSync(CLAUDE_DIR, { recursive: true, force: true });
  return out;
}
