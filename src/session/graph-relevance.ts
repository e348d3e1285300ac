/**
 * Relevance through the code graph: the pieces of a feature rank together. A symbol the words of
 * the request do not reach can still be part of the feature because it calls, is called by,
 * contains or is contained by a symbol that the request does reach (a seed). The graph is the
 * index's own: references (the enclosing declaration → what it references) and containment.
 *
 * The tier such a link earns is bounded: one step from a FACT or an accepted seed is "accepted, risk
 * HIGH" — never FACT. The reason names the path, so the agent and the person see why. (Two steps
 * were measured on the real-commit benchmark and let in too much: in a real project nearly
 * everything is two steps from a class or a hub.)
 */
import { qualifiedName } from '../query/symbols.js';
import type { DB } from '../store/db.js';
import { currentDeadline } from '../util/deadline.js';
import { splitWords } from '../util/words.js';

/**
 * The rank leg, calibrated on the real-commit benchmark's tune split (docs/relevance.md): a
 * declaration among the project's best few for the target by its code text (BM25F over name, path,
 * doc, signature and body identifiers) is accepted, risk HIGH, whatever its words' coverage. "Few"
 * is the same share of every project — one in RANK_SHARE declarations — and never more than
 * RANK_ACCEPT: in a ten-declaration project only the best one. The best RANK_ANCHORS of them seed
 * the graph when their neighbourhood is specific (at most ANCHOR_MAX_DEGREE neighbours: one step
 * from a hub reaches half a project).
 */
export const RANK_ACCEPT = 5;
export const RANK_SHARE = 40;
export const RANK_ANCHORS = 3;
export const ANCHOR_MAX_DEGREE = 10;

/**
 * The propagation leg (personalizedRank): the declarations closest to the seeds over every path of
 * the graph are accepted, risk HIGH — the best one in PPR_SHARE of the project, at most PPR_ACCEPT.
 * Chosen on the tune split (pinia) and then measured once on eval: docs/relevance.md.
 */
export const PPR_ACCEPT = 10;
export const PPR_SHARE = 10;
/** What such an acceptance is worth: the accepted tier, never FACT, below a one-step link (0.32). */
export const PROPAGATED_SCORE = 0.31;

/** How many of the declarations closest to the seeds the propagation leg accepts, for a project of `total` declarations. */
export function propagationCutoff(total: number): number {
  return Math.max(1, Math.min(PPR_ACCEPT, Math.round(total / PPR_SHARE)));
}

/** How many of the project's best-ranked declarations the rank leg accepts, for a project of `total` declarations. */
export function rankCutoff(total: number): number {
  return Math.max(1, Math.min(RANK_ACCEPT, Math.round(total / RANK_SHARE)));
}

/** The accepted-tier score of a rank: 0.5 for the best, falling to just above 0.3 at the cutoff; 0 beyond. */
export function rankedScore(rank: number | undefined, total: number): number {
  const k = rankCutoff(total);
  if (rank === undefined || rank < 1 || rank > k) return 0;
  return Math.round((0.3 + (0.2 * (k + 1 - rank)) / k) * 1000) / 1000;
}

/** The symbol a chunk (file, name, name line) stands for. */
export function symbolIdAt(db: DB, file: string, name: string, nameLine: number): number | undefined {
  const r = db.prepare('SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name = ? AND s.name_line = ? LIMIT 1').get(file, name, nameLine) as { id: number } | undefined;
  return r?.id;
}

/** Graph seeds from the project's best declarations for the target by code text (symbol id → seed score). */
export function rankAnchors(db: DB, ranking: { order: readonly { path: string; name: string; name_line: number }[]; total: number }): Map<number, number> {
  const out = new Map<number, number>();
  ranking.order.slice(0, Math.min(RANK_ANCHORS, rankCutoff(ranking.total))).forEach((c, i) => {
    const id = symbolIdAt(db, c.path, c.name, c.name_line);
    if (id !== undefined && !out.has(id) && neighbours(db, id).length <= ANCHOR_MAX_DEGREE) out.set(id, rankedScore(i + 1, ranking.total));
  });
  return out;
}

export interface GraphLink {
  /** the seed reached */
  seed: number;
  /** steps from the symbol to the seed */
  hops: number;
  /** the ids on the way, the symbol first */
  path: number[];
}

/**
 * A declaration is local when it is declared in a body, or is a member of something that is (a
 * method of an object literal built inside a function: nitro's `getKey` in `_opts` inside
 * `defineCachedEventHandler`, whose calls agent trial tr46 found unlinked from it).
 */
const LOCAL = '(local = 1 OR EXISTS (SELECT 1 FROM symbols c WHERE c.id = symbols.container_id AND c.local = 1))';
const SPAN = `id, file_id AS file, ${LOCAL} AS local, line, col, end_line AS endLine, end_col AS endCol`;

/**
 * The code graph, defined once: a declaration is linked to what its body references and to who
 * references it, and a member to its container. A local (a function or object declared inside a
 * body) is linked to its owner, the smallest declaration around it that is not local, and what
 * the local references its owner references too: `track` calls `helper` when a closure inside
 * `track` does. One node's links (capped, for a bounded walk) and all links (for the rank) come
 * from the same relation.
 */
const EDGE_SQL = {
  references: 'SELECT DISTINCT symbol_id AS n FROM refs WHERE enclosing_id = ? AND symbol_id IS NOT NULL LIMIT 400',
  referencedBy: 'SELECT DISTINCT enclosing_id AS n FROM refs WHERE symbol_id = ? AND enclosing_id IS NOT NULL LIMIT 400',
  container: 'SELECT container_id AS n FROM symbols WHERE id = ? AND local = 0',
  members: 'SELECT id AS n FROM symbols WHERE container_id = ? AND local = 0 LIMIT 400',
  /** the locals that reference it (their owners do too) */
  referencedByLocals: 'SELECT DISTINCT r.enclosing_id AS n FROM refs r JOIN symbols l ON l.id = r.enclosing_id LEFT JOIN symbols c ON c.id = l.container_id WHERE r.symbol_id = ? AND (l.local = 1 OR c.local = 1) LIMIT 400',
  allReferences: 'SELECT DISTINCT enclosing_id AS a, symbol_id AS b FROM refs WHERE enclosing_id IS NOT NULL AND symbol_id IS NOT NULL',
  /**
   * Writing a data member changes the type that holds it (`rctx.routeParams.Values = append(…)`
   * changes RouteParams): the types whose fields a declaration writes, and the declarations that
   * write its fields. Reads are left out — an options interface is read everywhere, and linking its
   * readers let unrelated code through (measured) — and so are methods: a call links to the method.
   */
  fieldOwners: `SELECT DISTINCT m.container_id AS n FROM refs r JOIN symbols m ON m.id = r.symbol_id WHERE r.enclosing_id = ? AND r.role = 'write' AND m.kind = 'property' AND m.container_id IS NOT NULL LIMIT 400`,
  fieldUsers: `SELECT DISTINCT r.enclosing_id AS n FROM symbols m JOIN refs r ON r.symbol_id = m.id WHERE m.container_id = ? AND m.kind = 'property' AND r.role = 'write' AND r.enclosing_id IS NOT NULL LIMIT 400`,
  allMembers: 'SELECT id AS a, container_id AS b FROM symbols WHERE container_id IS NOT NULL AND local = 0',
  /**
   * A field one class writes and other code reads carries data between them: commander's
   * passThroughOptions() sets `this._passThroughOptions`, which parseOptions reads (agent trial tr123
   * had parseOptions refused); Option.makeOptionMandatory sets `mandatory`, which Command's check of
   * missing options reads (tr122). The member names a declaration writes or reads (a member access
   * on any value: the index seldom knows a JavaScript value's type), and for one name, who writes and
   * who reads it. Which names are specific enough is judged in JavaScript (fieldLinked).
   */
  memberAccesses: `SELECT DISTINCT name, role FROM refs WHERE enclosing_id = ? AND role IN ('read', 'write') AND target_kind = 'member' LIMIT 400`,
  // (a member of a value the code holds — `this`, a parameter, a local — not one of what an import
  // gives: express's `{ types: … }` passed to createError and `accept.types` on the accepts library's
  // object linked res.format to req.accepts — red team adv91)
  memberWriters: `SELECT DISTINCT r.enclosing_id AS n, s.container_id AS c, s.name AS name FROM refs r JOIN symbols s ON s.id = r.enclosing_id WHERE r.name = ? AND r.role = 'write' AND r.target_kind = 'member' LIMIT 20`,
  memberReaders: `SELECT DISTINCT enclosing_id AS n FROM refs WHERE name = ? AND role = 'read' AND target_kind = 'member' AND enclosing_id IS NOT NULL LIMIT 20`,
  /** the member names a line reads or writes, with the declaration each access lies in */
  memberAccessesAt: `SELECT DISTINCT r.name AS name, r.enclosing_id AS n FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ? AND r.role IN ('read', 'write')
    AND r.target_kind = 'member' AND r.enclosing_id IS NOT NULL LIMIT 40`,
  /**
   * A call the index could only guess (`cancelToken.toAbortSignal()` on a value of no known type:
   * confidence name_match, no symbol) and the one function or method of that name the project's
   * code declares (declaration files aside): its callees and its callers. Which names are specific
   * enough is judged in JavaScript (guessable).
   */
  guessedCallees: `SELECT DISTINCT r.name AS name FROM refs r WHERE r.enclosing_id = ? AND r.symbol_id IS NULL AND r.confidence = 'name_match' AND r.role = 'call' LIMIT 400`,
  guessedCallers: `SELECT DISTINCT r.enclosing_id AS n FROM refs r WHERE r.name = ? AND r.symbol_id IS NULL AND r.confidence = 'name_match' AND r.role = 'call' AND r.enclosing_id IS NOT NULL LIMIT 400`,
  /** the function or method a computed-key property's value names (`[k]: fn`), and the reverse */
  heldCallable: `SELECT DISTINCT r.symbol_id AS id FROM refs r JOIN symbols t ON t.id = r.symbol_id JOIN symbols p ON p.id = r.enclosing_id
    WHERE r.enclosing_id = ? AND p.kind = 'property' AND r.role = 'read' AND t.kind IN ('function', 'method') LIMIT 2`,
  holders: `SELECT DISTINCT p.name AS name FROM refs r JOIN symbols p ON p.id = r.enclosing_id WHERE r.symbol_id = ? AND r.role = 'read' AND p.kind = 'property' AND p.name LIKE '[%]' LIMIT 5`,
  callablesNamed: `SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ? AND s.local = 0 AND (s.kind IN ('function', 'method') OR (s.kind = 'property' AND s.name LIKE '[%]')) AND f.path NOT LIKE '%.d.ts' AND f.path NOT LIKE '%.d.cts' AND f.path NOT LIKE '%.d.mts' LIMIT 2`,
  allGuessedCalls: `SELECT DISTINCT enclosing_id AS a, name FROM refs WHERE symbol_id IS NULL AND confidence = 'name_match' AND role = 'call' AND enclosing_id IS NOT NULL`,
  /** every declaration by file and start, for the owners of all locals at once */
  allSpans: `SELECT ${SPAN} FROM symbols ORDER BY file_id, line, col`,
  /** the declarations of the file that holds one */
  fileSpans: `SELECT ${SPAN} FROM symbols WHERE file_id = (SELECT file_id FROM symbols WHERE id = ?)`,
} as const;

interface Span { id: number; file: number; local: number; line: number; col: number; endLine: number; endCol: number }

let runtimeMemberNames: ReadonlySet<string> | undefined;
/**
 * Members of the runtime's own objects (`toString`, `addEventListener`, `forEach`): a guessed call
 * of one is most often a call on a built-in value, whatever the project declares by that name. Read
 * at the first guessed call, not at start-up (walking the runtime's objects takes ≈ 15 ms).
 */
const runtimeMembers = (): ReadonlySet<string> => (runtimeMemberNames ??= (() => {
  const g = globalThis as Record<string, unknown>;
  const names = new Set<string>();
  for (const key of Object.getOwnPropertyNames(g)) {
    const v = g[key];
    if (typeof v !== 'function') continue;
    for (const o of [v, (v as { prototype?: unknown }).prototype]) if (o && (typeof o === 'object' || typeof o === 'function')) for (const n of Object.getOwnPropertyNames(o)) names.add(n);
  }
  for (const n of Object.getOwnPropertyNames(Object.getPrototypeOf(Uint8Array.prototype) as object)) names.add(n);
  return names;
})());

/**
 * The one declaration a guessed call of `name` can mean: a compound name no runtime object has,
 * declared once — for a member under a computed key that holds a function (`[setLevelSym]: setLevel`),
 * the function it holds: `instance[setLevelSym]()` calls setLevel (agent trials tr127, tr134: pino's child).
 */
function guessable(db: DB, name: string): number | undefined {
  return guess(db, name)?.meant;
}

/** guessable()'s answer, with the computed-key member the call goes through (`key`, where it differs). */
function guess(db: DB, name: string): { meant: number; key?: number } | undefined {
  if (splitWords(name).length < 2 || runtimeMembers().has(name)) return undefined;
  const ids = db.prepare(EDGE_SQL.callablesNamed).all(name) as { id: number }[];
  if (ids.length !== 1) return undefined;
  const id = ids[0]!.id;
  if (!name.startsWith('[')) return { meant: id };
  const held = db.prepare(EDGE_SQL.heldCallable).all(id) as { id: number }[];
  return held.length === 1 ? { meant: held[0]!.id, key: id } : { meant: id };
}

/** What a guessed call of `name` reaches: the declaration guessable() means, and the computed-key member it goes through. */
function guessedTargets(db: DB, name: string): number[] {
  const g = guess(db, name);
  return !g ? [] : g.key !== undefined ? [g.meant, g.key] : [g.meant];
}

/** The computed-key members that hold a function (`[k]: fn`): the names its guessed calls go by. */
function heldUnder(db: DB, id: number): string[] {
  return (db.prepare(EDGE_SQL.holders).all(id) as { name: string }[]).map((r) => r.name).filter((n) => guessable(db, n) === id);
}

/** The most declarations that may write, and read, a field for it to link them: more is a hub, not a data path. */
export const FIELD_WRITERS = 4;
export const FIELD_READERS = 8;
const INITIALISERS = new Set(['constructor', '__init__', '__new__', 'initialize']);

/**
 * The writers and readers a field links, or undefined where the name is not specific: a member of
 * the runtime's objects (`length`, `name`), written outside one class (a name every options object
 * has), or written or read in more places than a data path has. An initialiser's default is no data
 * path: it is left out of the writers linked (it counts towards the bound).
 */
function fieldLinked(db: DB, name: string): { writers: number[]; readers: number[] } | undefined {
  if (runtimeMembers().has(name)) return undefined;
  const w = db.prepare(EDGE_SQL.memberWriters).all(name) as { n: number; c: number | null; name: string }[];
  if (w.length === 0 || w.length > FIELD_WRITERS || w[0]!.c === null || w.some((x) => x.c !== w[0]!.c)) return undefined;
  const readers = (db.prepare(EDGE_SQL.memberReaders).all(name) as { n: number }[]).map((r) => r.n);
  if (readers.length === 0 || readers.length > FIELD_READERS) return undefined;
  const writers = w.filter((x) => !INITIALISERS.has(x.name)).map((x) => x.n);
  return { writers, readers };
}

/** A field `writer` sets and `reader` reads that links them (fieldLinked), or undefined. */
function fieldBetween(db: DB, writer: number, reader: number): { name: string; writer: number } | undefined {
  for (const { name, role } of db.prepare(EDGE_SQL.memberAccesses).all(reader) as { name: string; role: string }[]) {
    if (role !== 'read') continue;
    if (fieldLinked(db, name)?.writers.includes(writer)) return { name, writer };
  }
  return undefined;
}

/**
 * The fields a line of declaration `id` reads or writes (in its own code or a closure of it) that
 * one class alone writes, each with the other declarations of that class that read or write it: a
 * state they share (koa's callback runs `this.ctxStorage.run(…)`, the AsyncLocalStorage that
 * currentContext reads: agent trial tr165 had callback refused). Unlike fieldLinked's data path, an
 * initialiser counts (it makes the value) and two readers share it; so the caller takes only a
 * field the target's words name (validation.ts), and the bounds on writers and readers hold.
 */
export function sharedFieldsAt(db: DB, id: number, file: string, line: number): { name: string; partners: number[] }[] {
  const spans = db.prepare(EDGE_SQL.fileSpans).all(id) as Span[];
  const owners = ownersOf(spans);
  const ownerOf = (n: number) => owners.get(n) ?? n;
  const container = db.prepare('SELECT container_id AS c FROM symbols WHERE id = ?').get(id) as { c: number | null } | undefined;
  if (!container?.c) return [];
  const out: { name: string; partners: number[] }[] = [];
  for (const { name, n } of db.prepare(EDGE_SQL.memberAccessesAt).all(file, line) as { name: string; n: number }[]) {
    if (ownerOf(n) !== id || runtimeMembers().has(name) || out.some((o) => o.name === name)) continue;
    const w = db.prepare(EDGE_SQL.memberWriters).all(name) as { n: number; c: number | null }[];
    if (w.length === 0 || w.length > FIELD_WRITERS || w.some((x) => x.c !== container.c)) continue;
    const readers = (db.prepare(EDGE_SQL.memberReaders).all(name) as { n: number }[]).map((r) => r.n);
    if (readers.length > FIELD_READERS) continue;
    const partners = [...new Set([...w.map((x) => x.n), ...readers].map((x) => (spans.some((s) => s.id === x) ? ownerOf(x) : x)))].filter((x) => x !== id);
    out.push({ name, partners });
  }
  return out;
}

/** What a declaration's fields link it to: the readers of what it writes, the writers of what it reads. */
function fieldPartners(db: DB, id: number): number[] {
  const out: number[] = [];
  for (const { name, role } of db.prepare(EDGE_SQL.memberAccesses).all(id) as { name: string; role: string }[]) {
    const f = fieldLinked(db, name);
    if (!f) continue;
    if (role === 'read') out.push(...f.writers);
    else if (f.writers.includes(id)) out.push(...f.readers);
  }
  return out;
}

/** The owner of each local among one file's declarations: the smallest declaration around it that is not local. */
function ownersOf(file: readonly Span[], into = new Map<number, number>()): Map<number, number> {
  const holds = (s: Span, l: Span) =>
    (s.line < l.line || (s.line === l.line && s.col <= l.col)) && (s.endLine > l.endLine || (s.endLine === l.endLine && s.endCol >= l.endCol));
  for (const l of file) {
    if (!l.local) continue;
    let best: Span | undefined;
    for (const s of file) {
      if (s.local || s.id === l.id || !holds(s, l)) continue;
      if (!best || s.endLine - s.line < best.endLine - best.line || (s.endLine - s.line === best.endLine - best.line && s.endCol - s.col < best.endCol - best.col)) best = s;
    }
    if (best) into.set(l.id, best.id);
  }
  return into;
}

/** The owner of every local (one pass over the declarations, file by file). */
function allOwners(db: DB): Map<number, number> {
  const owners = new Map<number, number>();
  let file: Span[] = [];
  for (const r of db.prepare(EDGE_SQL.allSpans).iterate() as Iterable<Span>) {
    if (file.length && file[0]!.file !== r.file) {
      ownersOf(file, owners);
      file = [];
    }
    file.push(r);
  }
  ownersOf(file, owners);
  return owners;
}

/** Symbols one step away: what its body references, who references it, its container and members; a local's owner. */
/**
 * A call of a method runs the methods that override or implement it: Session.send's
 * `adapter.send(…)` resolves to BaseAdapter.send and runs HTTPAdapter.send (agent trial tr115 had
 * HTTPAdapter.send refused as linked to nothing). The same-named instance methods of a method's
 * ancestors (`up`: what it overrides) or descendants (`down`: what overrides it), a few levels deep.
 */
function dispatchRelated(db: DB, id: number, way: 'up' | 'down'): number[] {
  const s = db.prepare("SELECT container_id AS c, name FROM symbols WHERE id = ? AND kind = 'method' AND is_static = 0 AND container_id IS NOT NULL").get(id) as { c: number; name: string } | undefined;
  if (!s) return [];
  const edge = db.prepare(way === 'up' ? 'SELECT base_symbol_id AS n FROM bases WHERE symbol_id = ? AND base_symbol_id IS NOT NULL AND is_union = 0' : 'SELECT symbol_id AS n FROM bases WHERE base_symbol_id = ? AND is_union = 0 LIMIT 50');
  const member = db.prepare("SELECT id FROM symbols WHERE container_id = ? AND name = ? AND kind = 'method' AND is_static = 0");
  const out: number[] = [];
  const seen = new Set([s.c]);
  let frontier = [s.c];
  for (let depth = 0; depth < 4 && frontier.length > 0 && seen.size < 50; depth++) {
    const next: number[] = [];
    for (const c of frontier) for (const { n } of edge.all(c) as { n: number }[]) if (!seen.has(n)) (seen.add(n), next.push(n));
    for (const c of next) for (const { id: m } of member.all(c, s.name) as { id: number }[]) out.push(m);
    frontier = next;
  }
  return out;
}

function neighbours(db: DB, id: number): number[] {
  const out = new Set<number>();
  const add = (n: number | null | undefined) => n != null && n !== id && out.add(n);
  const rows = (sql: string, arg: number | string = id) => (db.prepare(sql).all(arg) as { n: number | null }[]).map((r) => r.n);
  for (const sql of [EDGE_SQL.references, EDGE_SQL.fieldOwners, EDGE_SQL.referencedBy, EDGE_SQL.fieldUsers, EDGE_SQL.container, EDGE_SQL.members]) rows(sql).forEach(add);
  // dispatch: the callers of what it overrides; what overrides the methods it calls
  for (const m of dispatchRelated(db, id, 'up')) rows(EDGE_SQL.referencedBy, m).forEach(add);
  for (const callee of rows(EDGE_SQL.references)) if (callee !== null) dispatchRelated(db, callee, 'down').slice(0, 10).forEach(add);
  const guessedFrom = (from: number) => {
    for (const { name } of db.prepare(EDGE_SQL.guessedCallees).all(from) as { name: string }[]) guessedTargets(db, name).forEach(add);
  };
  guessedFrom(id);
  fieldPartners(db, id).forEach(add);
  // owners by file, each file read once
  const known: Map<number, number>[] = [];
  const ownerOf = (n: number) => {
    let m = known.find((x) => x.has(n));
    if (!m) known.push((m = ownersOf(db.prepare(EDGE_SQL.fileSpans).all(n) as Span[])));
    return m.get(n);
  };
  add(ownerOf(id));
  for (const [local, owner] of known[0]!) { // id's own file
    if (owner !== id) continue;
    add(local);
    rows(EDGE_SQL.references, local).forEach(add);
    rows(EDGE_SQL.fieldOwners, local).forEach(add);
    guessedFrom(local);
  }
  for (const local of rows(EDGE_SQL.referencedByLocals)) if (local !== null) add(ownerOf(local));
  const own = db.prepare('SELECT name FROM symbols WHERE id = ?').get(id) as { name: string } | undefined;
  // (its callers by its name, and by the computed keys it is held under)
  for (const name of [...(own && guessedTargets(db, own.name).includes(id) ? [own.name] : []), ...heldUnder(db, id)]) {
    for (const caller of rows(EDGE_SQL.guessedCallers, name)) if (caller !== null) add(ownerOf(caller) ?? caller);
  }
  return [...out];
}

/**
 * The declarations a set of symbols links to directly (calls, is called by, holds, lies in, shares a
 * field with), themselves included, less the locals inside functions: what an agent could name
 * truthfully beside them. Counted up to `cap`.
 */
export function neighbourhoodOf(db: DB, ids: Iterable<number>, cap: number): Set<number> {
  const out = new Set<number>();
  const local = db.prepare(`SELECT 1 FROM symbols WHERE id = ? AND ${LOCAL}`);
  // (and every declaration that uses its name, resolved or not: `this.req.accepts(keys)` in res.format is
  // a caller of req.accepts the index could not tell from the `accepts` import)
  const byName = db.prepare(`SELECT DISTINCT s.id AS n FROM symbols t JOIN refs r ON r.name = t.name JOIN symbols s ON s.file_id = r.file_id AND r.line BETWEEN s.line AND s.end_line
    WHERE t.id = ? AND s.id <> t.id AND s.local = 0 LIMIT 16`);
  for (const id of ids) {
    for (const n of [id, ...neighbours(db, id), ...(byName.all(id) as { n: number }[]).map((r) => r.n)]) {
      if (out.size >= cap) return out;
      if (!local.get(n)) out.add(n);
    }
  }
  return out;
}

/** Whether a declaration's code uses one of the names (by its last part: `acceptsCharsets` of req.acceptsCharsets). */
export function usesNamed(db: DB, id: number, names: readonly string[]): boolean {
  const bare = [...new Set(names.map((n) => n.split('.').pop()!))];
  return db.prepare(`SELECT 1 FROM refs r JOIN symbols s ON s.id = ? WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line
    AND r.name IN (${bare.map(() => '?').join(',')}) LIMIT 1`).get(id, ...bare) !== undefined;
}

/** Every link of the graph, both ways. */
function allEdges(db: DB): Map<number, Set<number>> {
  const edges = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    if (a === b) return;
    (edges.get(a) ?? edges.set(a, new Set()).get(a)!).add(b);
    (edges.get(b) ?? edges.set(b, new Set()).get(b)!).add(a);
  };
  const owners = allOwners(db);
  for (const [local, owner] of owners) link(local, owner);
  for (const r of db.prepare(EDGE_SQL.allReferences).iterate() as Iterable<{ a: number; b: number }>) {
    link(r.a, r.b);
    const owner = owners.get(r.a);
    if (owner !== undefined) link(owner, r.b);
  }
  for (const r of db.prepare(EDGE_SQL.allMembers).iterate() as Iterable<{ a: number; b: number }>) link(r.a, r.b);
  const meant = new Map<string, number[]>();
  for (const r of db.prepare(EDGE_SQL.allGuessedCalls).iterate() as Iterable<{ a: number; name: string }>) {
    if (!meant.has(r.name)) meant.set(r.name, guessedTargets(db, r.name));
    for (const b of meant.get(r.name)!) link(r.a, b);
  }
  return edges;
}

/** The seeds a symbol links to directly (one hop of linkToSeeds), in the graph's order. */
export function seedsBeside(db: DB, from: number, seeds: ReadonlySet<number>): number[] {
  return neighbours(db, from).filter((n) => seeds.has(n));
}

/** A direct link said as what it is ("A uses B"): an arrow alone read as a call either way (agent trial tr118). */
export function linkWords(db: DB, seed: number, id: number, direction: LinkDirection): string {
  const [s, x] = [symbolLabel(db, seed), symbolLabel(db, id)];
  switch (direction) {
    case 'down': return `${s} uses ${x}`;
    case 'up': return `${x} uses ${s}`;
    case 'both': return `${x} and ${s} use each other`;
    default: {
      const f = fieldBetween(db, seed, id) ?? fieldBetween(db, id, seed);
      if (f) return `${f.writer === seed ? s : x} sets the field \`${f.name}\`, which ${f.writer === seed ? x : s} reads`;
      return `${x} and ${s} are one declaration's parts (one holds the other, or a field links them)`;
    }
  }
}

/** The nearest seed within `maxHops` steps of `from` (breadth first, bounded), or undefined. */
export function linkToSeeds(db: DB, from: number, seeds: ReadonlySet<number>, maxHops = 2): GraphLink | undefined {
  if (seeds.has(from)) return { seed: from, hops: 0, path: [from] };
  let frontier = [[from]];
  const seen = new Set([from]);
  for (let hop = 1; hop <= maxHops; hop++) {
    const next: number[][] = [];
    for (const path of frontier) {
      for (const n of neighbours(db, path[path.length - 1]!)) {
        if (seen.has(n)) continue;
        seen.add(n);
        if (seeds.has(n)) return { seed: n, hops: hop, path: [...path, n] };
        if (next.length < 2000) next.push([...path, n]);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** Which way a link from a seed to a symbol runs: the seed's code uses it (down), it uses the seed (up), both, or neither (containment, a written field). */
/** (`shared`: the two use one field of a class, which the target names — validation.ts sharedState — and no call or containment joins them) */
export type LinkDirection = 'down' | 'up' | 'both' | 'other' | 'shared';

export function linkDirection(db: DB, seed: number, id: number): LinkDirection {
  // a reference inside the span of one (its locals and closures are its code too) to the other
  // (or a call the index guessed, of the one declaration its name can mean: neighbours)
  const direct = (outer: number, inner: number) => db.prepare(`SELECT 1 FROM refs x JOIN symbols s ON s.id = ? WHERE x.symbol_id = ? AND x.file_id = s.file_id
    AND x.line BETWEEN s.line AND s.end_line LIMIT 1`).get(outer, inner) !== undefined;
  // (a call of what it overrides runs it: dispatchRelated)
  const uses = (outer: number, inner: number) => direct(outer, inner) || guessedUse(db, outer, inner) || dispatchRelated(db, inner, 'up').some((m) => direct(outer, m));
  const [down, up] = [uses(seed, id), uses(id, seed)];
  return down && up ? 'both' : down ? 'down' : up ? 'up' : 'other';
}

/**
 * May a symbol a link accepted (reached `seedWay` from its own seed) link `id`? A chain keeps its
 * way. Not by turning from a helper reached down a call path back up to callers of it in other
 * files: that took axios's buildURL through the shared toFormData to transformRequest (red team
 * adv27). Not by turning from a caller reached up back down to what else it calls: that took
 * buildURL through the http adapter that calls it to the adapter's proxy and redirect helpers,
 * beside it in its file (red team adv28; on the real-commit bench: tune EN false refusal 30.4 →
 * 31.1 %, random accepted 18.8 → 17.0 %; eval EN 36.8 → 37.2 %, 3.8 → 3.7 %).
 */
/**
 * How long a chain of links may grow in one session: three links (suspend_ → clearObserving →
 * removeObserver → queueForUnobservation, an agent's trace down mobx), two of them up to callers.
 * Bounding it moved no figure of the real-commit bench (tune and eval).
 */
export const MAX_CHAIN = 3;
export const MAX_UP_CHAIN = 2;

export function linksOnward(db: DB, seed: number, seedWay: LinkDirection | undefined, id: number, seedDepth = 1): boolean {
  // a chain is bounded: callers of callers fan out to every user of a public entry point (red team
  // adv32 went HTTPError's constructor → Ky.create → createInstance → ky → a memory-leak test helper),
  // and what containment reached ('other') is a way of its own for one step only
  if (seedDepth >= MAX_CHAIN) return false;
  // a state shared through a field vouches for that one use, not for what the symbol calls or holds
  // (red team adv90: callback, linked through ctxStorage, linked handleRequest and then respond)
  if (seedWay === 'shared') return false;
  if (seedWay === 'up') return seedDepth < MAX_UP_CHAIN && linkDirection(db, seed, id) !== 'down';
  if (seedWay !== 'down') return seedDepth <= 1;
  // from a helper reached down a call path, back up to its other callers: only to those beside it in
  // its own file (the hooks createHook makes, changed with it), not to other modules that share it —
  // and only from a helper one link from a seed: at the end of a longer chain the turn took koa's
  // ctx.back() → redirect → set up to append and attachment beside set (red team adv30)
  // — and only to a caller that is a variant of the helper (vue's `onMounted = createHook(…)`), not
  // to one that merely uses it among other things: express's res.json calls res.set with three more,
  // and redirect → res.set → res.json was accepted (red team adv74)
  return linkDirection(db, seed, id) !== 'up' || (seedDepth <= 1 && sameFile(db, seed, id) && thinOver(db, id));
}

/** At most this many declarations called by a caller that a turn up from a helper may reach (the helper among them). */
export const THIN_CALLS = 2;

/** Whether declaration `id`'s code calls at most THIN_CALLS distinct declarations: a thin wrapper. */
function thinOver(db: DB, id: number): boolean {
  const r = db.prepare(`SELECT COUNT(DISTINCT x.symbol_id) AS n FROM refs x JOIN symbols s ON s.id = ? WHERE x.file_id = s.file_id
    AND x.line BETWEEN s.line AND s.end_line AND x.role = 'call' AND x.symbol_id IS NOT NULL AND x.symbol_id != s.id`).get(id) as { n: number };
  return r.n <= THIN_CALLS;
}

function guessedUse(db: DB, outer: number, inner: number): boolean {
  const name = (db.prepare('SELECT name FROM symbols WHERE id = ?').get(inner) as { name: string } | undefined)?.name;
  if (name === undefined) return false;
  // (by its name, or a computed key it is held under: `instance[setLevelSym]()` calls setLevel)
  const names = [...(guessable(db, name) === inner ? [name] : []), ...heldUnder(db, inner)];
  return names.some((n) => db.prepare(`SELECT 1 FROM refs x JOIN symbols s ON s.id = ? WHERE x.name = ? AND x.symbol_id IS NULL
    AND x.confidence = 'name_match' AND x.role = 'call' AND x.file_id = s.file_id AND x.line BETWEEN s.line AND s.end_line LIMIT 1`).get(outer, n) !== undefined);
}

function sameFile(db: DB, a: number, b: number): boolean {
  return db.prepare('SELECT 1 FROM symbols x JOIN symbols y ON y.id = ? WHERE x.id = ? AND x.file_id = y.file_id').get(b, a) !== undefined;
}

/** Whether declaration `id` lies inside declaration `outer` (a member of it, or a function in its body). */
export function within(db: DB, id: number, outer: number): boolean {
  // (or a member of it declared apart: `req.range = function …` holds `req` on its own line, a
  // reference that made every method of express's `req` linked to it — red team adv91)
  return db.prepare(`SELECT 1 FROM symbols a JOIN symbols b ON b.id = ? WHERE a.id = ? AND (a.container_id = b.id
    OR (a.file_id = b.file_id AND b.line <= a.line AND a.end_line <= b.end_line))`).get(outer, id) !== undefined;
}

/** Whether declaration `id` is a function or method: what it holds is its own code (closures), not members. */
export function isCallable(db: DB, id: number): boolean {
  const r = db.prepare('SELECT kind FROM symbols WHERE id = ?').get(id) as { kind: string } | undefined;
  return r?.kind === 'function' || r?.kind === 'method';
}

/**
 * The score a graph link is worth, given the seed's own score: one step from an accepted seed or
 * up to two from a FACT seed lands in the accepted tier (0.3–0.6), never above it.
 */
export function linkedScore(seedScore: number, hops: number): number {
  if (hops === 0) return seedScore;
  if (seedScore > 0.6) return hops === 1 ? 0.45 : 0.35;
  if (seedScore >= 0.3 && hops === 1) return 0.32;
  return 0;
}

/** How a symbol is described in a reason: Container.name; a module's `default` with its file (every rule of eslint is one: agent trial tr98). */
export function symbolLabel(db: DB, id: number): string {
  const r = db.prepare('SELECT s.id, s.name, s.container_id, s.container_name, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?').get(id) as { id: number; name: string; container_id: number | null; container_name: string | null; path: string } | undefined;
  if (!r) return `#${id}`;
  // (`request.is` where the module is imported as request: koa's request.is and response.is, red team adv80)
  const label = qualifiedName({ db }, r);
  return r.name === 'default' || r.container_name === 'default' ? `${label} (${r.path})` : label;
}

/**
 * Personalized PageRank over the code graph (references in both directions, containment), restarting
 * at the seeds in proportion to their scores: how close each declaration is to the seeds, counting
 * every path, with hubs spreading their share thin. Returns the non-seed declarations by score, best
 * first.
 */
export function personalizedRank(db: DB, seeds: ReadonlyMap<number, number>, opts: { damping?: number; iterations?: number } = {}): { id: number; score: number }[] {
  const damping = opts.damping ?? 0.85;
  const edges = allEdges(db);
  const total = [...seeds.values()].reduce((x, y) => x + y, 0);
  if (total <= 0) return [];
  const restart = new Map([...seeds].map(([id, w]) => [id, w / total]));
  let rank = new Map(restart);
  for (let it = 0; it < (opts.iterations ?? 20); it++) {
    // a huge project's walk stops at the call's budget with what it has (fewer steps reach less):
    // confirm must finish, or the agent could never get past it
    if (currentDeadline()?.expired()) break;
    const next = new Map<number, number>();
    for (const [id, r] of restart) next.set(id, (1 - damping) * r);
    let dangling = 0;
    for (const [id, r] of rank) {
      const out = edges.get(id);
      if (!out || out.size === 0) {
        dangling += r;
        continue;
      }
      const share = (damping * r) / out.size;
      for (const n of out) next.set(n, (next.get(n) ?? 0) + share);
    }
    // a walk that reaches a dead end starts again at the seeds
    for (const [id, r] of restart) next.set(id, next.get(id)! + damping * dangling * r);
    rank = next;
  }
  return [...rank].filter(([id]) => !seeds.has(id)).map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
