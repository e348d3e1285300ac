/**
 * Sessions, their persisted machine snapshots, the evidence ledger and the timeline, in the project
 * database. One active session per project is enforced by a partial unique index, so two servers
 * (or a server and a hook) can never both believe they own a session.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Seal, SEAL_SCHEMA } from '../guard/seal.js';
import type { DB } from '../store/db.js';

export const SESSION_SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  intent TEXT NOT NULL,
  query TEXT NOT NULL,
  status TEXT NOT NULL,            -- active | finished | aborted
  outcome TEXT,
  phase TEXT NOT NULL,
  snapshot TEXT NOT NULL,          -- XState persisted snapshot
  query_frame TEXT,                -- validated QueryFrame (JSON)
  understanding TEXT,              -- last accepted submit_understanding (JSON)
  mapped_symbols TEXT,             -- symbols confirmed relevant (JSON)
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS one_active_session ON sessions(status) WHERE status = 'active';
CREATE TABLE IF NOT EXISTS ledger (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  tool TEXT NOT NULL,
  args TEXT NOT NULL,
  phase TEXT NOT NULL,
  outcome TEXT NOT NULL,           -- ok | error | blocked | pending (hook evidence not yet found in the client's transcript)
  files TEXT NOT NULL,             -- files whose content the result showed (JSON array)
  symbols TEXT NOT NULL,           -- symbol names the result showed (JSON array)
  summary TEXT,
  named TEXT,                      -- files the result named by one line each (a reference's use), not showing their code (JSON array)
  lines TEXT,                      -- the lines of files the result showed: {file: [[first, last], …]} (JSON)
  at INTEGER NOT NULL,
  UNIQUE(session_id, seq)
);
CREATE TABLE IF NOT EXISTS prompts (      -- what the user typed, recorded by the UserPromptSubmit hook
  id INTEGER PRIMARY KEY,
  client_session TEXT,
  prompt TEXT NOT NULL,
  at INTEGER NOT NULL,
  transcript TEXT,                 -- the client's transcript that must show the user typing it
  verified INTEGER,                -- NULL: the client keeps no transcript we read; 0 pending; 1 found; -1 not found (never counts)
  line TEXT                        -- the transcript line it was found as: one line proves one prompt
);
CREATE TABLE IF NOT EXISTS transitions (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  from_phase TEXT NOT NULL,
  to_phase TEXT NOT NULL,
  event TEXT NOT NULL,
  reason TEXT,
  at INTEGER NOT NULL,
  witness TEXT                     -- the token the tool's answer carried: the client's transcript must show it (guard/witness.ts)
);
`;

export interface SessionRow {
  id: string;
  intent: string;
  query: string;
  status: 'active' | 'finished' | 'aborted';
  outcome: string | null;
  phase: string;
  snapshot: string;
  query_frame: string | null;
  understanding: string | null;
  mapped_symbols: string | null;
  created_at: number;
  updated_at: number;
}

export interface LedgerEntry {
  seq: number;
  tool: string;
  args: Record<string, unknown>;
  phase: string;
  outcome: 'ok' | 'error' | 'blocked' | 'pending';
  files: string[];
  symbols: string[];
  /** files the result named by one line each (a reference's use): not explored */
  named?: string[];
  /** the lines (1-based, inclusive ranges) of each file the result showed: what code_evidence may cite */
  lines?: ShownLines;
  summary: string | null;
  at: number;
}

/** file → the line ranges (1-based, inclusive) shown of it */
export type ShownLines = Record<string, [number, number][]>;

type StoredEntry = Omit<LedgerEntry, 'args' | 'files' | 'symbols' | 'named' | 'lines'> & { args: string; files: string; symbols: string; named: string | null; lines: string | null };
const parseEntry = (r: StoredEntry): LedgerEntry => ({
  ...r, args: JSON.parse(r.args), files: JSON.parse(r.files), symbols: JSON.parse(r.symbols), named: r.named ? JSON.parse(r.named) : [], lines: r.lines ? JSON.parse(r.lines) : undefined,
});

/**
 * The user's /code command: `/code`, with or without a request, in any case, namespaced as older
 * Claude Code versions wrote project and user commands (`/project:code`) or as a plugin's
 * (`/code-intel:code`), or the server's own MCP prompt as Claude Code offers it
 * (`/mcp__code-intel__code`: red team adv24). A bare `/code` starts a guarded turn too (red team
 * adv23: it was no /code prompt, and the request the user then wrote in a plain message left the
 * guard off).
 */
export const CODE_COMMAND = /^\s*\/(?:[\w.-]+:|mcp__[\w.-]+__)?code(?![\w:-])/i;

export class SessionStore {
  /** the HMAC over these records (guard/seal.ts): every write below checks it first and renews it */
  readonly seal: Seal;
  private depth = 0;
  private markPending = false;
  /** work that must follow the outermost write's commit (never run when it rolls back) */
  private committed: (() => void)[] = [];

  constructor(private readonly db: DB) {
    db.exec(SESSION_SCHEMA);
    db.exec(SEAL_SCHEMA);
    // the database lives at <root>/.code-intel/index.db
    this.seal = new Seal(db, path.dirname(path.dirname(path.resolve(db.name))));
    this.migrate();
  }

  /** Columns added since a database was made; the seal is renewed only if it held before. */
  private migrate(): void {
    const columns = (table: string) => new Set((this.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
    const [prompts, ledger, transitions] = [columns('prompts'), columns('ledger'), columns('transitions')];
    const add = [
      ...[['transcript', 'TEXT'], ['verified', 'INTEGER'], ['line', 'TEXT']].filter(([c]) => !prompts.has(c!)).map(([c, t]) => ['prompts', c!, t!]),
      ...['named', 'lines'].filter((c) => !ledger.has(c)).map((c) => ['ledger', c, 'TEXT']),
      ...(transitions.has('witness') ? [] : [['transitions', 'witness', 'TEXT']]),
    ];
    if (add.length === 0) return;
    this.db.transaction(() => {
      const held = this.seal.problem() === undefined;
      for (const [table, c, t] of add) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${c} ${t}`);
      // the transitions before tokens began carry none (guard/witness.ts); every later one must
      if (!transitions.has('witness')) {
        const last = (this.db.prepare('SELECT max(id) AS id FROM transitions').get() as { id: number | null }).id ?? 0;
        this.db.prepare('INSERT OR REPLACE INTO guard_state(key, value) VALUES (?, ?)').run('witness_from', String(last));
      }
      if (held) this.seal.write();
    }).immediate();
  }

  /**
   * Runs a write of the guard's records: in one immediate transaction, the seal is checked (a
   * record changed from outside is never laundered by a later legitimate write), the write is
   * made, and the seal renewed. Nested writes join the outer one.
   */
  private mutate<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    let out: T;
    try {
      out = this.db.transaction(() => {
        this.depth++;
        try {
          this.seal.assert();
          const r = fn();
          this.seal.write();
          return r;
        } finally {
          this.depth--;
        }
      }).immediate();
    } catch (e) {
      this.committed = [];
      throw e;
    }
    for (const f of this.committed.splice(0)) f();
    if (this.markPending) {
      this.markPending = false;
      this.seal.mark();
    }
    return out;
  }

  /** Why these records cannot be trusted, or undefined (always trusted inside our own write). */
  problem(): string | undefined {
    return this.depth > 0 ? undefined : this.seal.problem();
  }

  active(): SessionRow | undefined {
    return this.db.prepare(`SELECT * FROM sessions WHERE status = 'active'`).get() as SessionRow | undefined;
  }

  get(id: string): SessionRow | undefined {
    return this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
  }

  list(limit = 50): SessionRow[] {
    return this.db.prepare('SELECT * FROM sessions ORDER BY created_at DESC LIMIT ?').all(limit) as SessionRow[];
  }

  /** Creates the active session; throws if another is active (the unique index decides). */
  create(row: Pick<SessionRow, 'id' | 'intent' | 'query' | 'phase' | 'snapshot'>): void {
    this.markPending = true;
    this.mutate(() => {
      const now = this.stamp();
      this.db
        .prepare(`INSERT INTO sessions(id, intent, query, status, phase, snapshot, created_at, updated_at) VALUES (?,?,?,'active',?,?,?,?)`)
        .run(row.id, row.intent, row.query, row.phase, row.snapshot, now, now);
    });
  }

  /**
   * The time a record is stamped with: the wall clock, but never earlier than the last prompt,
   * session change or phase change recorded. The guard orders a turn's prompt and a session's end
   * by these: with the clock set back an hour, abort_session was stamped before the /code prompt
   * and the guard went off for the rest of the turn (red team adv78). Called inside a write.
   */
  private stamp(): number {
    const last = (this.db.prepare(`SELECT MAX(t) AS t FROM (SELECT (SELECT at FROM prompts ORDER BY id DESC LIMIT 1) AS t
      UNION ALL SELECT (SELECT at FROM transitions ORDER BY id DESC LIMIT 1) UNION ALL SELECT MAX(updated_at) FROM sessions)`).get() as { t: number | null }).t ?? 0;
    return Math.max(Date.now(), last + 1);
  }

  update(id: string, fields: Partial<Pick<SessionRow, 'status' | 'outcome' | 'phase' | 'snapshot' | 'query_frame' | 'understanding' | 'mapped_symbols'>>): void {
    const keys = Object.keys(fields) as (keyof typeof fields)[];
    if (keys.length === 0) return;
    this.mutate(() => this.db
      .prepare(`UPDATE sessions SET ${keys.map((k) => `${k} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
      .run(...keys.map((k) => fields[k] ?? null), this.stamp(), id));
  }

  record(sessionId: string, e: Omit<LedgerEntry, 'seq' | 'at'>): number {
    return this.mutate(() => this.append(sessionId, e));
  }

  private append(sessionId: string, e: Omit<LedgerEntry, 'seq' | 'at'>): number {
    const seq = ((this.db.prepare('SELECT MAX(seq) AS m FROM ledger WHERE session_id = ?').get(sessionId) as { m: number | null }).m ?? 0) + 1;
    this.db
      .prepare('INSERT INTO ledger(session_id, seq, tool, args, phase, outcome, files, symbols, summary, at, named, lines) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)')
      .run(
        sessionId, seq, e.tool, JSON.stringify(e.args), e.phase, e.outcome, JSON.stringify(e.files), JSON.stringify(e.symbols), e.summary, Date.now(),
        e.named?.length ? JSON.stringify(e.named) : null, e.lines && Object.keys(e.lines).length ? JSON.stringify(e.lines) : null,
      );
    return seq;
  }

  /** Whether the client's hooks recorded any event of a session (a Read, a Grep, a refusal): the guard runs there. */
  hookSeen(sessionId: string): boolean {
    return this.db.prepare("SELECT 1 FROM ledger WHERE session_id = ? AND tool LIKE 'hook:%' LIMIT 1").get(sessionId) !== undefined;
  }

  ledger(sessionId: string): LedgerEntry[] {
    const rows = this.db.prepare('SELECT * FROM ledger WHERE session_id = ? ORDER BY seq').all(sessionId) as StoredEntry[];
    return rows.map(parseEntry);
  }

  /** Records a phase change; returns the token the answer of the call that made it carries (its witness). */
  transition(sessionId: string, from: string, to: string, event: string, reason: string | null): string {
    const witness = randomBytes(8).toString('hex');
    this.mutate(() => this.db
      .prepare('INSERT INTO transitions(session_id, from_phase, to_phase, event, reason, at, witness) VALUES (?,?,?,?,?,?,?)')
      .run(sessionId, from, to, event, reason, this.stamp(), witness));
    return witness;
  }

  /** A session's last recorded phase change. */
  lastTransition(sessionId: string): { id: number; from_phase: string; to_phase: string } | undefined {
    return this.db.prepare('SELECT id, from_phase, to_phase FROM transitions WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(sessionId) as never;
  }

  /** The last transition recorded before phase changes carried tokens (0 for a database made since). */
  witnessFrom(): number {
    return Number(this.guardValue('witness_from') ?? 0);
  }

  /** The phase changes of a session, with the tokens their answers carried. */
  witnessesOf(sessionId: string): { id: number; to_phase: string; event: string; witness: string | null }[] {
    return this.db.prepare('SELECT id, to_phase, event, witness FROM transitions WHERE session_id = ? ORDER BY id LIMIT 1000').all(sessionId) as never;
  }

  /** The phase a finished or aborted session ended from. */
  endedFrom(sessionId: string): string | undefined {
    return (this.db.prepare(`SELECT from_phase FROM transitions WHERE session_id = ? AND to_phase IN ('FINISHED', 'ABORTED') ORDER BY id DESC LIMIT 1`)
      .get(sessionId) as { from_phase: string } | undefined)?.from_phase;
  }

  /** When a finished or aborted session ended. */
  endedAt(sessionId: string): number | undefined {
    return (this.db.prepare(`SELECT at FROM transitions WHERE session_id = ? AND to_phase IN ('FINISHED', 'ABORTED') ORDER BY id DESC LIMIT 1`)
      .get(sessionId) as { at: number } | undefined)?.at;
  }

  transitions(sessionId: string): { from_phase: string; to_phase: string; event: string; reason: string | null; at: number }[] {
    return this.db.prepare('SELECT from_phase, to_phase, event, reason, at FROM transitions WHERE session_id = ? ORDER BY id').all(sessionId) as never;
  }

  /**
   * `transcript`: the client's transcript that must show it (then it counts only once found there).
   * `find` looks for the user's line in it, given the lines earlier prompts were found as: it runs
   * inside the write, so two hooks at once never prove two prompts by one line.
   */
  recordPrompt(prompt: string, clientSession: string | null, transcript?: string, find?: (claimed: Set<string>) => string | undefined): void {
    this.mutate(() => {
      const line = transcript && find ? find(this.claimedPromptLines()) : undefined;
      this.db.prepare('INSERT INTO prompts(client_session, prompt, at, transcript, verified, line) VALUES (?,?,?,?,?,?)')
        .run(clientSession, prompt, this.stamp(), transcript ?? null, transcript ? (line ? 1 : 0) : null, line ?? null);
    });
  }

  /** The client transcript the user's last prompt was found in (the conversation the /code turn is in). */
  promptTranscript(): string | undefined {
    return (this.db.prepare('SELECT transcript FROM prompts WHERE verified = 1 AND transcript IS NOT NULL ORDER BY id DESC LIMIT 1').get() as { transcript: string } | undefined)?.transcript;
  }

  /** The transcript lines recent prompts were found as. */
  claimedPromptLines(): Set<string> {
    return new Set((this.db.prepare('SELECT line FROM prompts WHERE line IS NOT NULL ORDER BY id DESC LIMIT 500').all() as { line: string }[]).map((r) => r.line));
  }

  /** Prompts still waiting to be found in their transcript (oldest first: the earlier prompt is found first). */
  pendingPrompts(): { id: number; prompt: string; at: number; transcript: string }[] {
    return this.db.prepare('SELECT id, prompt, at, transcript FROM (SELECT * FROM prompts WHERE verified = 0 ORDER BY id DESC LIMIT 20) ORDER BY id').all() as never;
  }

  /** Settles a pending prompt: found as a line `find` names (not one an earlier prompt was found as), or never (`find` absent). */
  settlePrompt(id: number, find?: (claimed: Set<string>) => string | undefined, giveUp = false): void {
    this.mutate(() => {
      const line = find?.(this.claimedPromptLines());
      if (line) this.db.prepare('UPDATE prompts SET verified = 1, line = ? WHERE id = ? AND verified = 0').run(line, id);
      else if (giveUp) this.db.prepare('UPDATE prompts SET verified = -1 WHERE id = ? AND verified = 0').run(id);
    });
  }

  /** Hook evidence of a session still waiting to be found in the client's transcript. */
  pendingEvidence(sessionId: string): LedgerEntry[] {
    const rows = this.db.prepare(`SELECT * FROM ledger WHERE session_id = ? AND outcome = 'pending' ORDER BY seq`).all(sessionId) as StoredEntry[];
    return rows.map(parseEntry);
  }

  settleEvidence(sessionId: string, seq: number, found: boolean): void {
    this.mutate(() => this.db.prepare(`UPDATE ledger SET outcome = ?, summary = ? WHERE session_id = ? AND seq = ? AND outcome = 'pending'`)
      .run(found ? 'ok' : 'blocked', found ? 'read by the agent (found in the client\'s transcript)' : 'not in the client\'s transcript: not counted', sessionId, seq));
  }

  /** When the user last sent a prompt (recorded by the UserPromptSubmit hook; one not found in the transcript never counts). */
  lastPromptAt(): number | undefined {
    return (this.db.prepare('SELECT at FROM prompts WHERE verified IS NULL OR verified = 1 ORDER BY id DESC LIMIT 1').get() as { at: number } | undefined)?.at;
  }

  /** The guard's own values (baselines), sealed with the sessions. */
  guardValue(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM guard_state WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setGuardValues(values: Record<string, string>): void {
    this.mutate(() => {
      for (const [k, v] of Object.entries(values)) this.db.prepare('INSERT OR REPLACE INTO guard_state(key, value) VALUES (?, ?)').run(k, v);
    });
  }

  /** The user's latest recorded prompt (found in the transcript, or from a client that keeps none), without a leading `/code`. */
  latestPrompt(): string | undefined {
    const p = this.currentPrompt();
    return p && !p.pending ? p.prompt : undefined;
  }

  /**
   * The request the agent is serving: the user's latest prompt, whatever its age — an older one
   * is never the request (an hour-old prompt let the agent's own query through, and a prompt
   * still being checked let an earlier one stand in for it). `pending`: the transcript does not
   * show it yet. A prompt never found there (forged by running the hook by hand) is no prompt.
   */
  currentPrompt(): { prompt: string; at: number; pending: boolean } | undefined {
    const row = this.db.prepare(`SELECT prompt, at, verified FROM prompts WHERE (client_session IS NULL OR client_session NOT LIKE 'person:%') AND (verified IS NULL OR verified >= 0) ORDER BY id DESC LIMIT 1`).get() as { prompt: string; at: number; verified: number | null } | undefined;
    return row && { prompt: row.prompt.replace(CODE_COMMAND, '').trimStart(), at: row.at, pending: row.verified === 0 };
  }

  /** The id of the user's latest /code prompt recorded after `since` (ms), whatever the user wrote after it. */
  codePromptSince(since: number): number | undefined {
    // (every hook event asks this: SQLite passes only prompts that may be a slash command, newest
    // first, and the scan stops at the first that is /code — the pattern decides)
    const rows = this.db.prepare(`SELECT id, prompt FROM prompts WHERE (client_session IS NULL OR client_session NOT LIKE 'person:%') AND (verified IS NULL OR verified = 1) AND at > ? AND instr(prompt, '/') > 0 ORDER BY id DESC`)
      .iterate(since) as IterableIterator<{ id: number; prompt: string }>;
    for (const r of rows) if (CODE_COMMAND.test(r.prompt)) return r.id;
    return undefined;
  }

  /** Runs `fn` once the current write has committed (now, outside one). */
  afterCommit(fn: () => void): void {
    if (this.depth > 0) this.committed.push(fn);
    else fn();
  }

  transaction<T>(fn: () => T): T {
    return this.mutate(fn);
  }
}
