/**
 * Runs the hooks `code-intel init` configured (snapshotted from .claude/settings.json and settings.local.json at setup) the
 * way Claude Code does: every matching command through the shell, the JSON payload on stdin, cwd the
 * project, and reads the answer with Claude Code's rules:
 *   exit 2            a blocking error, stderr is the reason (PreToolUse: the call is denied;
 *                     PostToolUse: stderr goes to the agent; UserPromptSubmit: the prompt is dropped)
 *   exit 0 + JSON     hookSpecificOutput.permissionDecision deny|ask|allow (+ permissionDecisionReason),
 *                     decision "block" + reason, continue:false + stopReason, additionalContext,
 *                     systemMessage (shown to the person)
 *   exit 0 + text     UserPromptSubmit: context for the agent; other events: transcript-only
 *   other exit codes  a non-blocking error: stderr is shown to the person
 */
import { spawnSync } from 'node:child_process';
import { envFor, type TrialState } from './state.js';

export type HookEventName = 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure' | 'UserPromptSubmit' | 'Stop';

export interface HookRun { command: string; exitCode: number | null; stdout: string; stderr: string; ms: number; timedOut: boolean }

export interface HookVerdict {
  event: HookEventName;
  runs: HookRun[];
  /** PreToolUse: the call must not run (the reason the agent is given) */
  denied?: string;
  /** decision "block" / exit 2 on the other events: a reason fed back to the agent */
  blocked?: string;
  /** continue:false: Claude Code would stop the agent's turn */
  stopped?: string;
  /** additionalContext, and UserPromptSubmit's plain stdout: added to what the agent sees */
  context: string[];
  /** systemMessage: shown to the person */
  systemMessages: string[];
  /** non-blocking errors and the hook's stderr diagnostics */
  stderr: string[];
  /** anything the harness could not map onto Claude Code's behaviour */
  problems: string[];
}

function matches(matcher: string | undefined, tool: string | undefined): boolean {
  if (!matcher || matcher === '*') return true;
  if (tool === undefined) return true; // events without tools ignore matchers
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher === tool;
  }
}

type Json = Record<string, unknown>;
const obj = (x: unknown): Json | undefined => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Json) : undefined);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

export function runHooks(s: TrialState, event: HookEventName, fields: Json, tool?: string): HookVerdict {
  const v: HookVerdict = { event, runs: [], context: [], systemMessages: [], stderr: [], problems: [] };
  const specs = (s.hooks[event] ?? []).filter((h) => matches(h.matcher, tool));
  if (specs.length === 0) v.problems.push(`no ${event} hook is configured in .claude/settings.json or settings.local.json`);
  const payload = JSON.stringify({
    session_id: s.sessionId, transcript_path: s.transcript, cwd: s.project, permission_mode: 'default', hook_event_name: event, ...fields,
  });
  for (const h of specs) {
    const t0 = Date.now();
    const r = spawnSync('sh', ['-c', h.command], {
      input: payload, cwd: s.project, env: envFor(s), encoding: 'utf8', timeout: (h.timeout ?? 60) * 1000, maxBuffer: 64 * 1024 * 1024,
    });
    const run: HookRun = { command: h.command, exitCode: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: Date.now() - t0, timedOut: !!r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' };
    v.runs.push(run);
    interpret(v, run);
  }
  return v;
}

function interpret(v: HookVerdict, run: HookRun): void {
  const err = run.stderr.trim();
  if (run.timedOut) {
    v.problems.push(`the ${v.event} hook timed out after ${run.ms} ms (Claude Code would go on as if it had not run)`);
    return;
  }
  if (run.exitCode === 2) {
    const reason = err || `${v.event} hook exited 2`;
    if (v.event === 'PreToolUse') v.denied ??= reason;
    else v.blocked ??= reason;
    return;
  }
  if (err) v.stderr.push(err);
  if (run.exitCode !== 0) {
    v.problems.push(`the ${v.event} hook exited ${run.exitCode} (a non-blocking error in Claude Code: the call goes on)`);
    return;
  }
  const out = run.stdout.trim();
  if (!out) return;
  let j: Json | undefined;
  if (out.startsWith('{')) {
    try {
      j = obj(JSON.parse(out));
    } catch {
      v.problems.push(`the ${v.event} hook printed something that is not JSON: ${out.slice(0, 200)}`);
    }
  }
  if (!j) {
    if (v.event === 'UserPromptSubmit') v.context.push(out);
    else if (!out.startsWith('{')) v.problems.push(`the ${v.event} hook printed plain text (Claude Code shows it in transcript mode only): ${out.slice(0, 200)}`);
    return;
  }
  const known = new Set(['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput']);
  for (const k of Object.keys(j)) if (!known.has(k)) v.problems.push(`unknown field '${k}' in the ${v.event} hook output`);
  const sys = str(j.systemMessage);
  if (sys) v.systemMessages.push(sys);
  if (j.continue === false) v.stopped = str(j.stopReason) ?? 'continue: false';
  const hso = obj(j.hookSpecificOutput);
  if (hso) {
    const name = str(hso.hookEventName);
    if (name && name !== v.event) v.problems.push(`hookSpecificOutput.hookEventName is '${name}' in a ${v.event} hook`);
    const ctx = str(hso.additionalContext);
    if (ctx) v.context.push(ctx);
    const pd = str(hso.permissionDecision);
    if (pd !== undefined) {
      if (v.event !== 'PreToolUse') v.problems.push(`permissionDecision in a ${v.event} hook`);
      else if (pd === 'deny') v.denied ??= str(hso.permissionDecisionReason) ?? '(no reason given)';
      else if (pd === 'ask') {
        v.denied ??= `${str(hso.permissionDecisionReason) ?? ''} [the hook asked for the person's permission; a trial has no person, so it counts as denied]`;
        v.problems.push('permissionDecision "ask": no person to ask in a trial, treated as deny');
      } else if (pd !== 'allow') v.problems.push(`unknown permissionDecision '${pd}'`);
    }
  }
  const decision = str(j.decision);
  if (decision === 'block') {
    const reason = str(j.reason) ?? '(no reason given)';
    if (v.event === 'PreToolUse') v.denied ??= reason;
    else v.blocked ??= reason;
  } else if (decision === 'approve' && v.event !== 'PreToolUse') v.problems.push(`decision "approve" in a ${v.event} hook`);
  else if (decision !== undefined && decision !== 'approve') v.problems.push(`unknown decision '${decision}'`);
}

/** The lines the harness prints about a hook: what Claude Code would tell the agent and the person. */
export function hookLines(v: HookVerdict): string[] {
  const lines: string[] = [];
  const ev = v.event;
  if (v.blocked) {
    const what = ev === 'UserPromptSubmit' ? 'blocked the prompt (the agent never sees it)' : ev === 'Stop' ? 'blocked stopping (the agent must go on)' : 'fed back to the agent';
    lines.push(`HOOK ${ev} ${what}: ${v.blocked}`);
  }
  for (const c of v.context) lines.push(`HOOK ${ev} additional context for the agent: ${c}`);
  for (const m of v.systemMessages) if (m !== v.blocked && !v.context.includes(m)) lines.push(`HOOK ${ev} message to the user: ${m}`);
  if (v.stopped) lines.push(`HOOK ${ev} stopped the turn: ${v.stopped}`);
  for (const e of v.stderr) lines.push(`HOOK ${ev} stderr: ${e}`);
  for (const p of v.problems) lines.push(`HARNESS NOTE (${ev}): ${p}`);
  return lines;
}

/** Did the guard put something back (its notice names an undo)? */
export function undid(v: HookVerdict): string | undefined {
  const all = [v.blocked, v.denied, ...v.systemMessages, ...v.context].filter((x): x is string => !!x);
  return all.find((m) => /\bUndid\b|Could not undo/.test(m));
}
