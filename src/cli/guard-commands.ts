/**
 * `code-intel guard status|reset`: the person's side of the write guard.
 *
 * `reset` is the override only a person should be able to use: it talks to the controlling
 * terminal (/dev/tty), not to stdin, and asks for a code it prints there. An agent's shell tool
 * runs commands without a terminal, so it cannot answer. (A process of the same user can still
 * allocate a pseudo-terminal and type into it; docs/guard.md lists this among the residual risks.)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { dropAnchor } from '../guard/anchor.js';
import { guardMode } from '../guard/mode.js';
import { SessionStore } from '../session/store.js';
import { UserError } from '../util/paths.js';

function openStore(root: string): { db: Database.Database; store: SessionStore } {
  const file = path.join(root, '.code-intel', 'index.db');
  if (!fs.existsSync(file)) throw new UserError(`no code-intel database in ${root}`, 'Run it in the project (or pass --root DIR).');
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  return { db, store: new SessionStore(db) };
}

export function guardStatus(root: string, json: boolean): number {
  const { db, store } = openStore(root);
  try {
    const mode = guardMode(store, root);
    const info = {
      mode: mode.kind,
      why: mode.kind === 'locked' ? mode.why : undefined,
      session: mode.kind === 'off' ? undefined : mode.session?.id,
      explored_files: mode.kind === 'ready' ? mode.explored.size : undefined,
      tampered: store.problem() ?? null,
    };
    process.stdout.write(json ? JSON.stringify(info) + '\n'
      : `write guard: ${info.mode}${info.session ? ` (session ${info.session})` : ''}\n${info.why ? info.why + '\n' : ''}${info.tampered ? `records: ${info.tampered}\n` : 'records: sealed\n'}`);
    return 0;
  } finally {
    db.close();
  }
}

/** Reads one line from the controlling terminal; undefined when there is none (an agent's shell). */
function askTerminal(question: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync('/dev/tty', 'r+');
  } catch {
    return undefined;
  }
  try {
    fs.writeSync(fd, question);
    const buf = Buffer.alloc(256);
    let line = '';
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      line += buf.subarray(0, n).toString('utf8');
      if (line.includes('\n')) break;
    }
    return line.split('\n')[0]!.trim();
  } finally {
    fs.closeSync(fd);
  }
}

export function guardReset(root: string): number {
  const { db, store } = openStore(root);
  try {
    const problem = store.problem();
    const active = db.prepare(`SELECT id, phase FROM sessions WHERE status = 'active'`).get() as { id: string; phase: string } | undefined;
    const code = String(crypto.randomInt(1000, 10000));
    const answer = askTerminal(
      `code-intel guard reset in ${root}\n` +
      `  records: ${problem ?? 'sealed'}\n` +
      `  active session: ${active ? `${active.id} (${active.phase}) — it will be aborted` : 'none'}\n` +
      `  The current /code turn ends: edits are no longer refused.\n` +
      `Type ${code} to confirm: `,
    );
    if (answer === undefined) {
      throw new UserError('guard reset needs a person at a terminal (there is no controlling terminal here)', 'Run `code-intel guard reset` yourself in a terminal; an agent cannot.', 'no_terminal');
    }
    if (answer !== code) throw new UserError('the code did not match; nothing was changed', 'Run it again and type the code shown.', 'not_confirmed');
    // the records may have been changed by hand: nothing in them is trusted, the session is aborted,
    // and a person's action ends the turn like a new prompt does
    db.transaction(() => {
      db.prepare(`UPDATE sessions SET status = 'aborted', phase = 'ABORTED', outcome = 'reset by a person', updated_at = ? WHERE status = 'active'`).run(Date.now());
      db.prepare('INSERT INTO prompts(client_session, prompt, at) VALUES (?, ?, ?)').run('person:guard-reset', '[code-intel guard reset]', Date.now() + 1);
      store.seal.write();
    }).immediate();
    // the state the guard last accepted no longer binds: the person accepts the project as it is
    dropAnchor(root);
    process.stderr.write('code-intel: the guard was reset; the records are sealed again.\n');
    return 0;
  } finally {
    db.close();
  }
}
