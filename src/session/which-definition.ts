/**
 * Which of a name's definitions the target means. A plain word of the target that is a symbol's whole
 * name ("the memory driver" → `driver`) names every `driver` of the project alike; the target's other
 * words tell them apart where a definition's place says them (src/drivers/memory.ts, a container
 * `MemoryDriver`). A definition whose place says fewer of them than another one of the same name is
 * not the one the target names (red team adv8: the `driver` of cloudflare-kv-http.ts was accepted for
 * "the memory driver's getKeys", and the code linked to it came in with it).
 */
import type Database from 'better-sqlite3';
import { identifierWords, STOP_EN, translationsOf } from '../embeddings/text.js';
import { stem } from './stem.js';

/** More definitions than this are not compared (a name that common says nothing of its own). */
const MAX_DEFINITIONS = 500;

/** The words (stemmed, 3+ letters, no stop words) of a text, the translations of its CJK terms included. */
function wordsOf(text: string): Set<string> {
  const ws = [...identifierWords(text), ...translationsOf(text).flatMap((t) => identifierWords(t))];
  return new Set(ws.filter((w) => /^[a-z]/.test(w) && w.length >= 3 && !STOP_EN.has(w)).map(stem));
}

/** The words of a definition's place: its file's folders and name, and its container. */
const placeWords = (path: string, container: string | null) => wordsOf(`${path.replace(/\.[^./]+$/, '')} ${container ?? ''}`);

/**
 * Whether another definition of the name sits where more of the target's other words (not the
 * name's own) are said than where `path`/`container` is: then the target names that one.
 */
export function targetMeansAnother(db: Database.Database, target: string, name: string, path: string, container: string | null): boolean {
  const own = wordsOf(name);
  const wanted = [...wordsOf(target)].filter((w) => !own.has(w));
  if (wanted.length === 0) return false;
  const said = (p: string, c: string | null) => {
    const ws = placeWords(p, c);
    return wanted.filter((w) => ws.has(w)).length;
  };
  const mine = said(path, container);
  const others = db.prepare('SELECT f.path AS path, s.container_name AS container FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ? AND s.local = 0 LIMIT ?')
    .all(name, MAX_DEFINITIONS + 1) as { path: string; container: string | null }[];
  if (others.length > MAX_DEFINITIONS) return false;
  return others.some((o) => (o.path !== path || o.container !== container) && said(o.path, o.container) > mine);
}

/**
 * The file or folder beside `path` whose name says one of `missing` (words of the target a symbol
 * lacks): "the fetch adapter" for `isXHRAdapterSupported` in lib/adapters/xhr.js, beside
 * lib/adapters/fetch.js. The word the symbol shares with the target (adapter) is then the family
 * both belong to, and the target names the other member (red team adv13: it was accepted at 0.43
 * on "adapter", and xhr.js's adapter came in linked to it). Undefined when no sibling says one.
 */
export function siblingSaying(db: Database.Database, path: string, missing: readonly string[], matched: readonly string[] = []): string | undefined {
  // (an adverb of the target names no file: "… only when …" is not koa's lib/only.js — red team adv88)
  const wanted = new Set(missing.flatMap((m) => [...wordsOf(m)]).filter((w) => !ADVERBS.has(w)));
  if (wanted.size === 0) return undefined;
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash + 1);
  const own = path.slice(dir.length).split('/')[0]!;
  const entryWords = (entry: string) => wordsOf(entry.replace(/\.[^.]+$/, ''));
  // the target's words the file's own name carries: a sibling of the family carries them too (xhr.js and
  // fetch.js under adapters/); one that does not is another file the target names beside this one
  // ("getter-return and accessor-pairs rules": agent trial tr98 had both rules' code capped)
  const ownWords = entryWords(own);
  const specific = matched.flatMap((m) => [...wordsOf(m)]).filter((w) => ownWords.has(w));
  const rows = db.prepare('SELECT path FROM files WHERE substr(path, 1, ?) = ? LIMIT ?').all(dir.length, dir, MAX_SIBLINGS) as { path: string }[];
  for (const { path: p } of rows) {
    const entry = p.slice(dir.length).split('/')[0]!;
    if (entry === own) continue;
    const words = entryWords(entry);
    if ([...words].some((w) => wanted.has(w)) && specific.every((w) => words.has(w))) return dir + entry;
  }
  return undefined;
}

/** The target's missing words a sibling's name carries (what siblingSaying found it by): the words a refusal names. */
export function wordsNamingSibling(sibling: string, missing: readonly string[]): string[] {
  const entry = sibling.slice(sibling.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const words = wordsOf(entry);
  return missing.filter((m) => [...wordsOf(m)].some((w) => words.has(w)));
}

/** Words a request says of the case or the manner, never of a thing a file is named for. */
const ADVERBS = new Set(['only', 'also', 'just', 'even', 'still', 'again', 'already', 'always', 'never', 'same', 'other'].map(stem));

/** Files under a folder looked at for siblings (a folder of thousands says nothing of one file). */
const MAX_SIBLINGS = 2000;
