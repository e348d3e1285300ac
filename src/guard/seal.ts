/**
 * The seal over the guard's records in the project database: an HMAC, keyed by a secret kept in
 * the user's state folder (outside the project), over the session rows, the ledger and
 * transitions of the sessions that decide what may be written, the latest recorded prompts and
 * the guard's baselines. Every write through SessionStore checks the seal first and seals again
 * after, in one transaction; the hooks and the server check it before they trust a row. A row
 * changed by anything else (`sqlite3 … UPDATE sessions SET phase='READY'`, a deleted session, an
 * inserted ledger entry) breaks the seal, and the guard then denies every write until a person
 * runs `code-intel guard reset` in a terminal.
 *
 * What it cannot stop: a process of the same user can read the key. It raises the bar from one
 * SQL statement to re-implementing this file; docs/guard.md says so.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../store/db.js';
import { dropAnchor, readAnchor } from './anchor.js';
import { stateDir } from './state-dir.js';

export const SEAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS guard_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS guard_seal (id INTEGER PRIMARY KEY CHECK (id = 1), mac TEXT NOT NULL);
`;

export { stateDir } from './state-dir.js';

function secret(): Buffer {
  const file = path.join(stateDir(), 'guard.key');
  try {
    return fs.readFileSync(file);
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32), { mode: 0o600, flag: 'wx' });
    } catch {
      // another process created it first
    }
    return fs.readFileSync(file);
  }
}

/**
 * An HMAC of one record of a project's database under the seal's key: rows outside the sealed
 * tables (the NL→symbol cache) carry their own, so a row a script inserts names no symbol.
 */
export function recordMac(root: string, text: string): string {
  // (the key read at most once a second: a prune checks every row of the cache)
  if (!keyMemo || Date.now() - keyMemo.at > 1000) keyMemo = { at: Date.now(), key: secret() };
  return crypto.createHmac('sha256', keyMemo.key).update(path.resolve(root)).update('\u0000').update(text).digest('hex');
}
let keyMemo: { at: number; key: Buffer } | undefined;

/** A per-project marker outside the project: "this project's records are sealed". */
function markerFile(root: string): string {
  return path.join(stateDir(), 'sealed', crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 24));
}

/** Has this project's guard sealed records (a session ran here, and no turn has ended it)? */
export function isMarked(root: string): boolean {
  return fs.existsSync(markerFile(root));
}

export class TamperedError extends Error {
  readonly code = 'guard_tampered';
}

export class Seal {
  constructor(private readonly db: DB, private readonly root: string) {
    db.exec(SEAL_SCHEMA);
  }

  /** Canonical text of everything the seal covers. */
  private digest(): string {
    const h = crypto.createHash('sha256');
    const add = (rows: unknown[]) => {
      for (const r of rows) h.update(JSON.stringify(r)).update('\n');
      h.update('\u0000');
    };
    const sessions = this.db.prepare('SELECT * FROM sessions ORDER BY id').all() as { id: string; status: string; created_at: number }[];
    add(sessions);
    // the sessions whose evidence decides writes: the active one and the latest one
    const latest = [...sessions].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))[0];
    const ids = [...new Set([...sessions.filter((s) => s.status === 'active').map((s) => s.id), ...(latest ? [latest.id] : [])])].sort();
    for (const id of ids) {
      add(this.db.prepare('SELECT * FROM ledger WHERE session_id = ? ORDER BY seq').all(id));
      add(this.db.prepare('SELECT * FROM transitions WHERE session_id = ? ORDER BY id').all(id));
    }
    add(this.db.prepare('SELECT * FROM prompts ORDER BY id DESC LIMIT 20').all());
    add(this.db.prepare('SELECT * FROM guard_state ORDER BY key').all());
    return h.digest('hex');
  }

  private mac(): string {
    return crypto.createHmac('sha256', secret()).update(path.resolve(this.root)).update('\u0000').update(this.digest()).digest('hex');
  }

  private stored(): string | undefined {
    return (this.db.prepare('SELECT mac FROM guard_seal WHERE id = 1').get() as { mac: string } | undefined)?.mac;
  }

  /** Why the records cannot be trusted, or undefined when the seal holds. */
  problem(): string | undefined {
    // read before the records: an accept commits first and writes the anchor after, so records read
    // later are never behind an anchor read earlier
    const anchor = readAnchor(this.root);
    // the seal and the records it covers from one snapshot: read one by one, another process's write
    // could commit in between, and an honest session was told its records were changed (a CI run
    // of 24 hooks and 24 server calls at once)
    if (!this.db.inTransaction) return this.db.transaction(() => this.judge(anchor)).deferred();
    return this.judge(anchor);
  }

  private judge(anchor: ReturnType<typeof readAnchor>): string | undefined {
    const stored = this.stored();
    if (stored === undefined) {
      if (fs.existsSync(markerFile(this.root)) || anchor) return 'the seal over the guard\'s records is missing (the database was replaced or its seal deleted)';
      return undefined; // never sealed: a new database, sealed on its first write
    }
    const want = this.mac();
    if (stored.length !== want.length || !crypto.timingSafeEqual(Buffer.from(stored), Buffer.from(want))) {
      return 'the guard\'s records were changed outside code-intel (sessions, ledger, prompts or baselines no longer match their seal)';
    }
    // a sealed copy from earlier (a turn when the guard was off) put back in place of the database
    const seq = Number((this.db.prepare(`SELECT value FROM guard_state WHERE key = 'seq'`).get() as { value: string } | undefined)?.value ?? 0);
    if (anchor && seq < anchor.seq) return 'the guard\'s records are older than the state the guard last accepted (an earlier copy of the database was put back)';
    return undefined;
  }

  assert(): void {
    const why = this.problem();
    if (why) throw new TamperedError(why);
  }

  /** Seals the current rows. Call only inside the transaction that wrote them, after assert(). */
  write(): void {
    this.db.prepare('INSERT OR REPLACE INTO guard_seal(id, mac) VALUES (1, ?)').run(this.mac());
  }

  /** From now on a missing seal means tampering (written when a session starts). */
  mark(): void {
    const f = markerFile(this.root);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, path.resolve(this.root) + '\n');
  }

  /** Nothing is guarded any more (no session, the turn is over): a new database is fine again. */
  unmark(): void {
    fs.rmSync(markerFile(this.root), { force: true });
    dropAnchor(this.root);
  }
}
