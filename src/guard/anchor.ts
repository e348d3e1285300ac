/**
 * The guard's last accepted state, kept outside the project too (in the user's state folder, beside
 * the seal's key): the accepted commit of the snapshot store, its ignore rules and fingerprint, the
 * manifest of the guard's own files, the project's git history, and a sequence number that grows
 * with every accept.
 *
 * The project database holds the same state under the seal, but a command can remove the database,
 * empty it, break its seal or put back an older sealed copy of it (from a turn when the guard was
 * off) in the very command that writes a file: the records then say nothing, or "off". The anchor
 * still says what the project looked like when the guard last accepted it:
 *  - a database whose sequence number is below the anchor's was rolled back (seal.ts refuses it);
 *  - while the records cannot be trusted or are gone, every change since the anchor is put back
 *    (effects.ts undoToAnchor), until a person runs `code-intel guard reset`.
 * The anchor is dropped when the guard goes off (no guarded turn), and by the reset.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { GitHistory } from './git-history.js';
import type { Manifest } from './protected.js';
import { stateDir } from './state-dir.js';

export interface Anchor {
  root: string;
  seq: number;
  commit: string;
  tree: string;
  excludes: string;
  /** the snapshot store's fingerprint after the accept (TreeSnapshot.fingerprint) */
  store: string;
  protected: Manifest;
  /** the project's HEAD, refs and index as accepted (absent: no repository, or an anchor from an older version) */
  history?: GitHistory;
}

function anchorFile(root: string): string {
  return path.join(stateDir(), 'guard-anchor', crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 24) + '.json');
}

export function readAnchor(root: string): Anchor | undefined {
  try {
    const a = JSON.parse(fs.readFileSync(anchorFile(root), 'utf8')) as Anchor;
    return a && typeof a.seq === 'number' && typeof a.commit === 'string' && typeof a.tree === 'string' ? a : undefined;
  } catch {
    return undefined;
  }
}

/** Records an accepted state, unless a later one is already there (two hooks at once); `same`: the same state again (its store's fingerprint renewed). */
export function writeAnchor(a: Anchor, same = false): void {
  const cur = readAnchor(a.root);
  if (cur && (same ? cur.seq !== a.seq || cur.commit !== a.commit : cur.seq >= a.seq)) return;
  const file = anchorFile(a.root);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(a));
  fs.renameSync(tmp, file);
}

export function dropAnchor(root: string): void {
  fs.rmSync(anchorFile(root), { force: true });
}

/**
 * The outermost folder at or above `from` with an anchor: a project in a guarded turn, whatever
 * happened to its database (an index made in a subfolder of it does not take its hooks away).
 */
export function anchoredRoot(from: string): string | undefined {
  let found: string | undefined;
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(anchorFile(dir))) found = dir;
    if (path.dirname(dir) === dir) return found;
  }
}
