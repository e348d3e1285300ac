/** DIR/trial-log.jsonl, and the session state read (read-only) from the project's database. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { trunc } from './state.js';

export type Outcome = 'ok' | 'denied' | 'error' | 'undone' | 'refused';

export interface LogEntry {
  t: string;
  command: string;
  /** the Claude Code / MCP tool the command stands for (Read, Grep, Edit, Write, Bash, or the MCP tool's name); null for setup/stop/prompt/… */
  tool: string | null;
  args: string;
  outcome: Outcome;
  /** the active session's phase when the command ran ('none' without one) */
  phase: string;
  phase_after: string;
  message: string;
  ms: number;
}

export interface SessionInfo { id: string; intent: string; query: string; status: string; outcome: string | null; phase: string; created_at: number; updated_at: number }

function open(project: string): Database.Database | undefined {
  const f = path.join(project, '.code-intel', 'index.db');
  if (!fs.existsSync(f)) return undefined;
  try {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  } catch {
    return undefined;
  }
}

export function sessions(project: string): SessionInfo[] {
  const db = open(project);
  if (!db) return [];
  try {
    return db.prepare('SELECT id, intent, query, status, outcome, phase, created_at, updated_at FROM sessions ORDER BY created_at, rowid').all() as SessionInfo[];
  } catch {
    return [];
  } finally {
    db.close();
  }
}

/** The active session's phase, or 'none'. */
export function phaseOf(project: string): string {
  return sessions(project).find((s) => s.status === 'active')?.phase ?? 'none';
}

/** The guard's own record of the hook evidence (how many Reads/Greps counted, were pending, were refused). */
export function hookLedger(project: string, sessionId: string): { tool: string; outcome: string; n: number }[] {
  const db = open(project);
  if (!db) return [];
  try {
    return db.prepare(`SELECT tool, outcome, COUNT(*) AS n FROM ledger WHERE session_id = ? AND tool LIKE 'hook:%' GROUP BY tool, outcome ORDER BY tool, outcome`).all(sessionId) as { tool: string; outcome: string; n: number }[];
  } catch {
    return [];
  } finally {
    db.close();
  }
}

export function appendLog(dir: string, e: Omit<LogEntry, 't' | 'args' | 'message'> & { args: unknown; message: string }): void {
  const args = typeof e.args === 'string' ? e.args : JSON.stringify(e.args);
  const line: LogEntry = { t: new Date().toISOString(), command: e.command, tool: e.tool, args: trunc(args, 300), outcome: e.outcome, phase: e.phase, phase_after: e.phase_after, message: trunc(e.message.replace(/\s+/g, ' ').trim(), 600), ms: e.ms };
  fs.appendFileSync(path.join(dir, 'trial-log.jsonl'), JSON.stringify(line) + '\n');
}

export function readLog(dir: string): LogEntry[] {
  const f = path.join(dir, 'trial-log.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as LogEntry);
}
