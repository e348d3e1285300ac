/** `code-intel show <id>`: a session's story, so a user sees at a glance why an edit was refused. */
import type { LedgerEntry, SessionRow } from './store.js';

export interface Timeline {
  session: Omit<SessionRow, 'snapshot'> & { snapshot?: undefined };
  transitions: { from_phase: string; to_phase: string; event: string; reason: string | null; at: number }[];
  ledger: LedgerEntry[];
}

const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const LABELS: Record<string, string> = {
  'hook:PreToolUse': 'DENIED by the write guard',
  'hook:undo': 'UNDONE by the write guard',
  'hook:refused': 'evidence REFUSED (not the client\'s)',
};

export function formatTimeline(t: Timeline): string {
  const s = t.session;
  const lines = [
    `session ${s.id}  ${s.intent}  ${s.status}${s.outcome ? ` (${s.outcome})` : ''}  phase ${s.phase}`,
    `request: ${s.query}`,
    '',
  ];
  type Row = { at: number; order: number; text: string };
  const rows: Row[] = [];
  t.transitions.forEach((x, i) =>
    rows.push({ at: x.at, order: i, text: `== ${x.from_phase} → ${x.to_phase}  (${x.event}${x.reason ? `: ${x.reason}` : ''})` }),
  );
  for (const e of t.ledger) {
    const mark = e.outcome === 'ok' ? '  ' : e.outcome === 'blocked' ? '✗ ' : e.outcome === 'pending' ? '? ' : '! ';
    const args = JSON.stringify(e.args);
    const shown = e.files.length ? `  → files: ${e.files.slice(0, 5).join(', ')}${e.files.length > 5 ? ` (+${e.files.length - 5})` : ''}` : '';
    const label = LABELS[e.tool] ?? e.tool;
    rows.push({
      at: e.at,
      order: 1e6 + e.seq,
      text: `${mark}${label} ${args.length > 120 ? args.slice(0, 119) + '…' : args}${e.summary ? `  [${e.summary}]` : ''}${shown}`,
    });
  }
  rows.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const r of rows) lines.push(`${time(r.at)}  ${r.text}`);
  const denials = t.ledger.filter((e) => e.outcome === 'blocked');
  if (denials.length) lines.push('', `${denials.length} call(s) refused; the reason is in brackets on each ✗ line.`);
  return lines.join('\n');
}
