/** `report`: DIR/trial-log.jsonl summarised, with the session records from the project database. */
import { hookLedger, type LogEntry, type Outcome, readLog, sessions } from './log.js';
import type { TrialState } from './state.js';

const READS_CODE = new Set(['Read', 'Grep', 'find_definitions', 'find_references', 'search_text', 'get_symbols', 'analyze_structure', 'query']);
const OUTCOMES: Outcome[] = ['ok', 'denied', 'error', 'undone', 'refused'];

export interface Report {
  dir: string;
  request: string;
  commands: number;
  tool_calls: number;
  code_reading_calls: number;
  per_tool: Record<string, Record<Outcome, number> & { calls: number }>;
  per_phase: Record<string, number>;
  phase_path: string[];
  incidents: { n: number; t: string; command: string; tool: string | null; phase: string; outcome: Outcome; message: string }[];
  sessions: { id: string; intent: string; status: string; outcome: string | null; phase: string }[];
  final_phase: string;
  session_outcome: string;
  guard_evidence: { session: string; tool: string; outcome: string; n: number }[];
}

export function buildReport(s: TrialState): Report {
  const log = readLog(s.dir);
  const calls = log.filter((e): e is LogEntry & { tool: string } => e.tool !== null);
  const per_tool: Report['per_tool'] = {};
  const per_phase: Record<string, number> = {};
  for (const e of calls) {
    const row = (per_tool[e.tool] ??= { calls: 0, ok: 0, denied: 0, error: 0, undone: 0, refused: 0 });
    row.calls++;
    row[e.outcome]++;
    per_phase[e.phase] = (per_phase[e.phase] ?? 0) + 1;
  }
  const phase_path: string[] = [];
  for (const e of log) for (const p of [e.phase, e.phase_after]) if (phase_path[phase_path.length - 1] !== p) phase_path.push(p);
  const incidents = log.map((e, i) => ({ n: i + 1, t: e.t, command: e.command, tool: e.tool, phase: e.phase, outcome: e.outcome, message: e.message })).filter((e) => e.outcome !== 'ok');
  const rows = sessions(s.project);
  const active = rows.find((r) => r.status === 'active');
  const last = rows[rows.length - 1];
  return {
    dir: s.dir,
    request: s.request,
    commands: log.length,
    tool_calls: calls.length,
    code_reading_calls: calls.filter((e) => READS_CODE.has(e.tool)).length,
    per_tool,
    per_phase,
    phase_path,
    incidents,
    sessions: rows.map((r) => ({ id: r.id, intent: r.intent, status: r.status, outcome: r.outcome, phase: r.phase })),
    final_phase: active ? active.phase : 'none',
    session_outcome: active ? `active (${active.phase})` : last ? `${last.status}${last.outcome ? ` (${last.outcome})` : ''} in ${last.phase}` : 'no session was started',
    guard_evidence: rows.flatMap((r) => hookLedger(s.project, r.id).map((h) => ({ session: r.id, ...h }))),
  };
}

function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(w[i]!))).join('  ');
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function formatReport(r: Report): string {
  const out: string[] = [];
  out.push(`trial ${r.dir}`, `request: ${r.request}`, '');
  out.push(`commands: ${r.commands}   tool calls: ${r.tool_calls}   calls that read code: ${r.code_reading_calls}`);
  out.push(`final phase: ${r.final_phase}   session: ${r.session_outcome}`);
  out.push(`phases seen: ${r.phase_path.join(' → ')}`, '');
  out.push(table(['tool', 'calls', ...OUTCOMES], Object.entries(r.per_tool).sort((a, b) => b[1].calls - a[1].calls).map(([t, v]) => [t, v.calls, ...OUTCOMES.map((o) => v[o])])), '');
  out.push(table(['phase (when called)', 'calls'], Object.entries(r.per_phase).map(([p, n]) => [p, n])), '');
  out.push(`refusals, denials, undos, errors: ${r.incidents.length}`);
  if (r.incidents.length > 0) {
    out.push(table(['#', 'command', 'tool', 'phase', 'outcome', 'message'], r.incidents.map((i) => [i.n, i.command, i.tool ?? '-', i.phase, i.outcome, i.message.length > 220 ? i.message.slice(0, 220) + '…' : i.message])));
  }
  out.push('');
  if (r.sessions.length > 0) out.push(table(['session', 'intent', 'status', 'outcome', 'phase'], r.sessions.map((s) => [s.id, s.intent, s.status, s.outcome ?? '-', s.phase])), '');
  if (r.guard_evidence.length > 0) {
    out.push('hook evidence in the session ledger (how the guard took the simulated client\'s events):');
    out.push(table(['session', 'entry', 'outcome', 'n'], r.guard_evidence.map((g) => [g.session, g.tool, g.outcome, g.n])));
  }
  return out.join('\n');
}
