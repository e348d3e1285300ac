/**
 * Doc sentence → declaration requests of a package read with its comments (the held-out bench and
 * the tuning of semantic_search's order): the first sentence of each documented function, method or
 * class, with the declarations it documents as targets. A declaration's copies in its module's
 * other files count as the same target: a `url.d.ts` documents what the undocumented `url.js`
 * beside it implements, and ranking that `decodePath` first is a right answer, not a miss.
 */
import type { ChunkRow } from '../src/embeddings/chunks.js';
import { firstSentence, qualified } from '../src/embeddings/engine.js';
import type { DB } from '../src/store/db.js';

export interface DocCase {
  query: string;
  /** path \0 qualified name, copies included */
  targets: Set<string>;
  /** distinct qualified names among the targets (a sentence shared by many declarations says little) */
  distinct: number;
}

/** One module's files differ by extension only (`url.d.ts`, `url.js`, `url.mjs`): a declaration's key across them. */
export function copyKey(file: string, qualifiedName: string): string {
  return `${file.replace(/(\.d)?\.[cm]?[jt]sx?$/, '')}\0${qualifiedName}`;
}

export function docCases(db: DB): DocCase[] {
  const copies = new Map<string, string[]>();
  for (const c of db.prepare(`SELECT * FROM chunks WHERE kind <> 'section'`).all() as ChunkRow[]) {
    const k = copyKey(c.path, qualified(c));
    copies.set(k, [...(copies.get(k) ?? []), `${c.path}\0${qualified(c)}`]);
  }
  const byQuery = new Map<string, DocCase>();
  const rows = db.prepare(`SELECT * FROM chunks WHERE doc <> '' AND kind IN ('function','method','class')`).all() as ChunkRow[];
  for (const c of rows) {
    const q = firstSentence(c.doc);
    if (q.split(/\s+/).length < 4 || /^@|deprecated/i.test(q)) continue;
    const x = byQuery.get(q) ?? { query: q, targets: new Set<string>(), distinct: 0 };
    for (const t of copies.get(copyKey(c.path, qualified(c))) ?? [`${c.path}\0${qualified(c)}`]) x.targets.add(t);
    byQuery.set(q, x);
  }
  for (const x of byQuery.values()) x.distinct = new Set([...x.targets].map((t) => t.split('\0')[1])).size;
  return [...byQuery.values()];
}
