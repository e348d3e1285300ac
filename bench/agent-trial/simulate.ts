/**
 * One tool call the way Claude Code makes it: the assistant's tool_use line in the transcript →
 * PreToolUse hooks (a denial stops here) → the call itself → the tool_result line → PostToolUse (or
 * PostToolUseFailure) hooks. What the agent would see is printed; one line goes to trial-log.jsonl.
 */
import type { ToolOutcome } from './cc-tools.js';
import { hookLines, runHooks, undid, type HookVerdict } from './hooks.js';
import { appendLog, type Outcome, phaseOf } from './log.js';
import { saveState, type TrialState } from './state.js';
import { toolResultLine, toolUseLine, userLine } from './transcript.js';

export interface CallOutcome extends ToolOutcome {
  /** what to print instead of `text` (MCP: the structured answer, pretty) */
  printed?: string;
  /** an answer that says no without being an error (check_write_target allowed:false, success:false) */
  refused?: string;
  /** the log message instead of the default */
  logMessage?: string;
}

export interface Call {
  command: string;
  /** the tool name Claude Code records (Read, Bash, mcp__code-intel__query …) */
  tool: string;
  /** the name in trial-log.jsonl */
  logTool: string;
  input: Record<string, unknown>;
  perform: () => Promise<CallOutcome>;
}

export const EXIT = { ok: 0, error: 1, denied: 2 } as const;

export function print(lines: string[]): void {
  for (const l of lines) process.stdout.write(l.endsWith('\n') ? l : l + '\n');
}

export async function simulate(s: TrialState, c: Call): Promise<number> {
  const t0 = Date.now();
  const phase = phaseOf(s.project);
  const id = `toolu_trial_${s.nextId++}`;
  toolUseLine(s, id, c.tool, c.input);
  saveState(s);
  const pre = runHooks(s, 'PreToolUse', { tool_name: c.tool, tool_input: c.input, tool_use_id: id }, c.tool);
  const preLines = hookLines(pre);
  if (pre.denied) {
    toolResultLine(s, id, `<tool_use_error>${pre.denied}</tool_use_error>`, true);
    saveState(s);
    print([...preLines, `DENIED: ${pre.denied}`]);
    appendLog(s.dir, { command: c.command, tool: c.logTool, args: c.input, outcome: 'denied', phase, phase_after: phaseOf(s.project), message: pre.denied, ms: Date.now() - t0 });
    return EXIT.denied;
  }
  let out: CallOutcome;
  try {
    out = await c.perform();
  } catch (e) {
    const msg = (e as Error)?.message ?? String(e);
    out = { ok: false, text: `<tool_use_error>${msg}</tool_use_error>`, response: {}, error: msg };
  }
  saveState(s); // the tools update the read-before-edit record
  toolResultLine(s, id, out.text, !out.ok);
  saveState(s);
  const post: HookVerdict = out.ok
    ? runHooks(s, 'PostToolUse', { tool_name: c.tool, tool_input: c.input, tool_use_id: id, tool_response: out.response }, c.tool)
    : runHooks(s, 'PostToolUseFailure', { tool_name: c.tool, tool_input: c.input, tool_use_id: id, error: out.error ?? 'the tool failed', is_interrupt: false }, c.tool);
  print([...preLines, out.printed ?? out.text, ...hookLines(post)]);
  const undo = undid(pre) ?? undid(post);
  const outcome: Outcome = undo ? 'undone' : !out.ok ? 'error' : out.refused ? 'refused' : 'ok';
  const message = undo ?? out.logMessage ?? (out.ok ? out.refused ?? out.text : out.error ?? out.text);
  appendLog(s.dir, { command: c.command, tool: c.logTool, args: c.input, outcome, phase, phase_after: phaseOf(s.project), message, ms: Date.now() - t0 });
  return out.ok ? EXIT.ok : EXIT.error;
}

/** The user typing a message: the transcript's user line, then UserPromptSubmit. */
export function userPrompt(s: TrialState, text: string, command: string, t0 = Date.now()): HookVerdict {
  const phase = phaseOf(s.project);
  userLine(s, text);
  saveState(s);
  const v = runHooks(s, 'UserPromptSubmit', { prompt: text });
  const undo = undid(v);
  appendLog(s.dir, {
    command, tool: null, args: text, outcome: v.blocked ? 'denied' : undo ? 'undone' : 'ok', phase, phase_after: phaseOf(s.project),
    message: v.blocked ?? undo ?? [...v.context, ...v.systemMessages].join(' '), ms: Date.now() - t0,
  });
  return v;
}

/** The agent's turn ends: Stop. */
export function stopTurn(s: TrialState): number {
  const t0 = Date.now();
  const phase = phaseOf(s.project);
  const v = runHooks(s, 'Stop', { stop_hook_active: false });
  const lines = hookLines(v);
  print(lines.length > 0 ? lines : ['(Stop hook: nothing to report)']);
  const undo = undid(v);
  appendLog(s.dir, { command: 'stop', tool: null, args: '', outcome: undo ? 'undone' : v.blocked ? 'denied' : 'ok', phase, phase_after: phaseOf(s.project), message: undo ?? v.blocked ?? lines.join(' '), ms: Date.now() - t0 });
  return EXIT.ok;
}
