/**
 * Latency of the Claude Code hooks as the client runs them: a fresh `node` process per call, cold
 * start included, fed a payload on stdin. Baseline: a bare `node -e ''` in the same run.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Project } from '../../src/query/project.js';
import { SessionService } from '../../src/session/service.js';
import { median } from './util.js';

export interface HookTiming { case: string; decision: string; median_ms: number; runs: number }

function time(args: string[], input: string, cwd: string, runs: number): { ms: number; stdout: string } {
  const ms: number[] = [];
  let stdout = '';
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { input, cwd, encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: cwd } });
    ms.push(performance.now() - t0);
    stdout = r.stdout;
  }
  return { ms: median(ms), stdout };
}

export function measureHooks(repo: string, root: string, runs = 10): HookTiming[] {
  const hook = path.join(repo, 'dist', 'src', 'hooks', 'main.js');
  const out: HookTiming[] = [];
  const decision = (s: string) => (s ? (JSON.parse(s) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision ?? '?' : 'allow (no output)');
  const payload = (tool: string, input: Record<string, unknown>) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, session_id: 'bench', tool_name: tool, tool_input: input });
  const edit = payload('Edit', { file_path: path.join(root, 'src/internal/Observable.ts'), old_string: 'a', new_string: 'b' });
  const baseline = time(['-e', ''], '', root, runs);
  out.push({ case: 'node -e "" (baseline: process start)', decision: '-', median_ms: baseline.ms, runs });
  const add = (name: string, input: string, event = 'pre-tool-use') => {
    const r = time([hook, event], input, root, runs);
    out.push({ case: name, decision: event === 'pre-tool-use' ? decision(r.stdout) : 'recorded', median_ms: r.ms, runs });
  };
  add('Edit, no session', edit);
  const project = new Project(root);
  const sessions = new SessionService(project);
  try {
    sessions.start('IMPLEMENT', 'bench: hook latency');
    add('Edit, session in EXPLORATION', edit);
    add('Bash `echo x > f`, session active', payload('Bash', { command: 'echo x > f' }));
    add('Bash `ls -la | head`, session active', payload('Bash', { command: 'ls -la | head' }));
    add('PostToolUse Read', JSON.stringify({ hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Read', tool_input: { file_path: path.join(root, 'src/index.ts') }, tool_response: {} }), 'post-tool-use');
    add('UserPromptSubmit', JSON.stringify({ hook_event_name: 'UserPromptSubmit', cwd: root, session_id: 'bench', prompt: 'bench' }), 'user-prompt-submit');
  } finally {
    try {
      sessions.abort('bench finished');
    } catch {
      /* already ended */
    }
    project.close();
  }
  return out;
}
