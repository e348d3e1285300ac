/**
 * Brings a project's index up to date: stat every file, hash only those whose size or mtime moved,
 * parse only those whose content changed, drop removed ones, then re-link the module graph.
 * A cold index with many files is parsed on worker threads (one per core, as many as the memory
 * budget holds: worker-budget.ts). Parsed files are committed in batches as they arrive, so an
 * index that is killed resumes where it stopped: the files already committed are unchanged the
 * next time, and `index_pending` (set before the first batch, cleared once linking and chunks are
 * done) says the link step is still owed. The indexing thread holds no facts beyond the batch it
 * is writing (a 27–30 MB heap while workers parse effect 4.1); after them, linking and the chunk
 * worker beside it (project/indexing.ts) hold 300–350 MB, below the parse's peak.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import { type DB, getMeta, setMeta } from '../store/db.js';
import { log } from '../util/log.js';
import { isDeclarationFile, PACKAGE_ROOT } from '../util/paths.js';
import type { FileFacts } from './facts.js';
import { checkedGrammars, extractorFingerprint, languageFor } from './languages.js';
import { linkInterfaceDigest } from './link-interface.js';
import { type LinkStats, linkProject } from './link.js';
import { type WorkerBatch, unpackBatch } from './packed-refs.js';
import { importersOfAdded, importersOfRemoved, reachOf } from './link/affected.js';
import { RESOLVER_INPUTS } from './resolvers/index.js';
import { type ParseJob, type ParseResult, runParseJob } from './parse-job.js';
import { walkProject } from './walk.js';
import { memoryBudgetMb, planWorkers } from './worker-budget.js';

export interface IndexStats {
  files: number;
  parsed: number;
  unchanged: number;
  removed: number;
  symbols: number;
  references: number;
  /** files of the index whose tree had errors that recovery made fewer, or whose likely statement ends were written before parsing (code without semicolons) */
  recovered: number;
  /** files of the index whose tree still has syntax errors (their declarations may be incomplete) */
  parseErrors: number;
  skipped: { file: string; reason: string }[];
  ms: number;
  link?: LinkStats;
}

export interface IndexOptions {
  /** files parsed so far of those to parse; `stage` 'link' once parsing is done */
  /** `wrote`: the step changed facts (false for a batch of files that were skipped or unchanged) */
  onProgress?: (done: number, total: number, stage?: 'parse' | 'link', wrote?: boolean) => void;
  /** worker threads to use for large batches; 0 parses in-process */
  workers?: number;
  /** called once parsing is done and every parsed file is committed, before linking: work that
   * reads the files' facts but not their links can start beside it (the files parsed, their bytes) */
  onParsed?: (parsed: { files: number; bytes: number }) => void;
  /** each worker's old generation in MB instead of the memory budget's (tests: a worker out of memory) */
  workerHeapMb?: number;
}

const WORKER_THRESHOLD = 64;
const BATCH = 16;
/** batches handed to a worker ahead of its results */
const IN_FLIGHT = 2;
/**
 * Past 8, workers buy no speed: on a 16-core machine effect indexed in 5.0 s with 8 workers and
 * 5.2 s with 16 (medians of 3). `CODE_INTEL_INDEX_WORKERS` sets the number (0: the main thread);
 * how many run at once, and each one's heap, is then bounded by the memory budget (worker-budget.ts).
 */
const MAX_WORKERS = 8;

/**
 * A worker costs about a second before its first results on the 2-core machine (loading the
 * parser, compiling the query: 120 ms; then its own JIT warm-up), in which this thread alone
 * parses ≈ 2.5 MB. Measured cold index, in-process against two workers: rxjs (1.1 MB, 271 files)
 * 0.9–1.3 s against 1.4–1.8 s; 6.6 MB of effect's files 3.3–3.4 s against 3.2–3.4 s.
 */
const WORKER_START_BYTES = 2_500_000;

/**
 * How many parse workers to run for `bytes` to parse: the number asked for (`requested`, else
 * CODE_INTEL_INDEX_WORKERS); by default the cores' (defaultWorkers), where n workers save more
 * than starting them costs (bytes · (1 − 1/n) ≥ WORKER_START_BYTES), else none.
 */
export function workersFor(bytes: number, requested?: number, env: NodeJS.ProcessEnv = process.env): number {
  const set = requested ?? workersSet(env);
  if (set !== undefined) return set;
  const n = coreWorkers();
  return n >= 2 && bytes * (1 - 1 / n) >= WORKER_START_BYTES ? n : 0;
}

/** The workers a large cold index runs: CODE_INTEL_INDEX_WORKERS, else one per core up to MAX_WORKERS. */
export function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return workersSet(env) ?? coreWorkers();
}

const coreWorkers = () => Math.min(os.availableParallelism(), MAX_WORKERS);

/** CODE_INTEL_INDEX_WORKERS when it is a whole number from 0 to 64 (anything else is said and ignored) */
function workersSet(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.CODE_INTEL_INDEX_WORKERS;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 0 && n <= 64) return n;
  log.info(`CODE_INTEL_INDEX_WORKERS=${JSON.stringify(raw.slice(0, 40))} is not a whole number from 0 to 64: using the default (${coreWorkers()})`);
  return undefined;
}

interface FileRow { id: number; path: string; hash: string; size: number; mtime_ms: number; language: string | null; link_digest: string | null; is_module: number }

/**
 * A re-link of some files reads their rows one by one, the whole link every table once: in effect
 * (657 files) one costs about 1 ms a file, the other ~450 ms, and 578 files re-linked took longer
 * than all. Up to this many files, or this share of the project, only they are re-linked.
 */
const RELINK_FILES = 64;
const RELINK_SHARE = 0.4;

export async function updateIndex(db: DB, root: string, opts: IndexOptions = {}): Promise<IndexStats> {
  const t0 = performance.now();
  const walk = walkProject(root);
  // facts from another extractor (an upgrade, an edited query) are not reused: every file is parsed
  // again — marked as changed first, so that an index killed half-way resumes with the rest
  const extractor = extractorFingerprint();
  if (getMeta(db, 'extractor') !== extractor) {
    db.transaction(() => {
      db.prepare("UPDATE files SET hash = '', mtime_ms = -1").run();
      setMeta(db, 'extractor', extractor);
    })();
  }
  const known = new Map((db.prepare('SELECT id, path, hash, size, mtime_ms, language, link_digest, is_module FROM files').all() as FileRow[]).map((r) => [r.path, r]));
  const seen = new Set<string>();
  const jobs: ParseJob[] = [];
  let jobBytes = 0;
  for (const f of walk.files) {
    seen.add(f.rel);
    const row = known.get(f.rel);
    const n = jobs.length;
    if (!row) jobs.push({ rel: f.rel });
    else if (row.size !== f.size || row.mtime_ms !== f.mtimeMs) jobs.push({ rel: f.rel, oldHash: row.hash });
    if (jobs.length > n) jobBytes += f.size;
  }
  const removed = [...known.values()].filter((r) => !seen.has(r.path));

  const skipped = [...walk.skipped];
  let parsed = 0, parsedBytes = 0, unchanged = 0;
  const pending = getMeta(db, 'index_pending') === '1';
  if (jobs.length + removed.length > 0) setMeta(db, 'index_pending', '1');
  // what the link must do: the files whose own rows are new, and whether any other file's answers
  // may have changed (a file's link interface changed, a file came or went)
  const relink = new Set<number>();
  // files whose interface changed (their symbols have new ids: the old ones, to check none is left
  // pointed at), and whether files came or went (imports anywhere may resolve elsewhere)
  const reshaped = new Set<number>();
  const oldSymbols: number[] = [];
  // a removed JavaScript/TypeScript module (or a file of no language such a module may import)
  // re-links what led to it; a removed script, .d.ts or file of another language, the whole project
  let filesMoved = removed.some((r) => !linksInPart(r.path, r.is_module === 1));
  // files new to the index whose reach can be found (link/affected.ts importersOfAdded): the files
  // whose imports now lead to them are re-linked, not the whole project
  const added: string[] = [];
  // the references with an answer that the re-linked files held before (see `references` below)
  let resolvedBefore = 0;
  // true when the batch changed a fact (a file parsed, or one indexed before now skipped): a batch of
  // files that are skipped every time (binaries the walk lists) or unchanged changes no answer
  const writeBatch = db.transaction((batch: ParseResult[]): boolean => {
    const now = Date.now();
    let wrote = false;
    for (const res of batch) {
      const row = known.get(res.rel);
      if (res.status === 'skipped' || res.status === 'parsed') wrote ||= res.status === 'parsed' || row !== undefined;
      if (res.status === 'skipped') {
        skipped.push({ file: res.rel, reason: res.reason });
        if (row) {
          deleteFile(db, row.id);
          filesMoved = true;
        }
      } else if (res.status === 'unchanged') {
        unchanged++;
        stmt(db, 'UPDATE files SET size = ?, mtime_ms = ? WHERE id = ?').run(res.size, res.mtimeMs, row!.id);
      } else {
        parsed++;
        parsedBytes += res.size;
        if (res.note) skipped.push({ file: res.rel, reason: res.note });
        const digest = res.facts ? linkInterfaceDigest(res.facts) : null;
        // the same interface: the file and its symbols keep their ids, so that every other file's
        // answers (which point at them) stay right
        let keep: Kept | undefined;
        if (row && row.language !== null && digest !== null) {
          const ids = (stmt(db, 'SELECT id FROM symbols WHERE file_id = ? ORDER BY id').all(row.id) as { id: number }[]).map((r) => r.id);
          if (row.link_digest === digest && ids.length === res.facts!.symbols.length) keep = { fileId: row.id, symbolIds: ids };
          else {
            // the file keeps its id (imports elsewhere that resolved to it still say so); its
            // symbols get ids never used before, so that nothing left pointing at an old one
            // can name a new one by chance
            const top = (stmt(db, 'SELECT max(id) AS top FROM symbols').get() as { top: number | null }).top ?? 0;
            keep = { fileId: row.id, symbolIds: res.facts!.symbols.map((_, i) => top + 1 + i) };
            reshaped.add(row.id);
            oldSymbols.push(...ids);
          }
          relink.add(row.id);
        } else if (!row && linksInPart(res.rel, !!res.facts?.isModule)) added.push(res.rel);
        else if (!(row && row.language === null && !res.facts && !RESOLVER_INPUTS.has(path.posix.basename(res.rel)))) filesMoved = true;
        if (row) {
          resolvedBefore += countResolved(db, [row.id]);
          deleteFile(db, row.id);
        }
        insertFile(db, res.rel, res.hash, res.size, res.mtimeMs, now, res.facts, digest, keep);
      }
    }
    return wrote;
  });
  // what led to the removed files, found before their rows go (`export *` sources resolve by path)
  const removedIds = new Set(removed.map((r) => r.id));
  const leadingToRemoved = !filesMoved && removed.length > 0 ? importersOfRemoved(db, root, removed.map((r) => r.path)) : new Set<number>();
  if (leadingToRemoved === undefined) filesMoved = true;
  db.transaction(() => {
    for (const r of removed) {
      oldSymbols.push(...(stmt(db, 'SELECT id FROM symbols WHERE file_id = ?').all(r.id) as { id: number }[]).map((x) => x.id));
      resolvedBefore += countResolved(db, [r.id]); // (its answers leave the count with it)
      deleteFile(db, r.id);
    }
  })();
  // a cold index (nothing indexed yet): the fact tables' indexes are built once, after the rows are
  // in; those of refs that linking does not read, once it has updated the rows
  const dropped = known.size === 0 && jobs.length >= WORKER_THRESHOLD ? dropFactIndexes(db) : [];
  const afterLink = dropped.filter((i) => AFTER_LINK.has(i.name));
  const createIndexes = (list: typeof dropped) => {
    if (list.length > 0) db.transaction(() => { for (const i of list) db.exec(i.sql); })();
  };
  let link: LinkStats | undefined;
  /** the files a partial re-link resolved (their references are the only ones it changed) */
  let scope: ReadonlySet<number> | undefined;
  let changed = 0;
  try {
    try {
      await parseAll(root, jobs, jobBytes, opts, writeBatch);
    } finally {
      createIndexes(dropped.filter((i) => !AFTER_LINK.has(i.name)));
    }
    changed = parsed + removed.length;
    if (changed > 0 || pending) {
      opts.onProgress?.(jobs.length, jobs.length, 'link');
      opts.onParsed?.({ files: parsed, bytes: parsedBytes });
      const addedIds = added.map((rel) => (stmt(db, 'SELECT id FROM files WHERE path = ?').get(rel) as { id: number }).id);
      for (const [i, rel] of added.entries()) if (languageFor(rel)) relink.add(addedIds[i]!);
      ({ link, scope } = relinkProject(db, root, { pending: pending || filesMoved, relink, reshaped, oldSymbols, added: new Set(addedIds), leadingToRemoved: leadingToRemoved ?? new Set(), removed: removedIds }, (files) => {
        // (the files re-linked that were not parsed again: their rows are the ones from before)
        resolvedBefore += countResolved(db, [...files].filter((f) => !relink.has(f)));
      }));
    }
  } finally {
    createIndexes(afterLink);
  }
  setMeta(db, 'indexed_at', new Date().toISOString());
  if (changed > 0) setMeta(db, 'changed_at', new Date().toISOString());
  setMeta(db, 'skipped', JSON.stringify(skipped.slice(0, 200)));
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  // counting the references with an answer reads every row of refs (40 ms in effect, most of what
  // one changed file costs): after a partial re-link, the count before, less what the files it
  // resolved held before, plus what they hold now
  const before = Number(getMeta(db, 'resolved_refs') ?? NaN);
  const references = link && !scope ? count('SELECT COUNT(*) n FROM refs WHERE confidence IS NOT NULL')
    : scope && Number.isInteger(before) ? before - resolvedBefore + countResolved(db, [...scope])
    : !link && Number.isInteger(before) ? before - resolvedBefore // (no reference changed, but a removed file's left with it)
    : count('SELECT COUNT(*) n FROM refs WHERE confidence IS NOT NULL');
  setMeta(db, 'resolved_refs', String(references));
  setMeta(db, 'index_pending', '0');
  return {
    files: count('SELECT COUNT(*) n FROM files'),
    parsed,
    unchanged,
    removed: removed.length,
    symbols: count('SELECT COUNT(*) n FROM symbols'),
    references,
    recovered: count('SELECT COUNT(*) n FROM files WHERE recovered > 0'),
    parseErrors: count('SELECT COUNT(*) n FROM files WHERE parse_errors > 0'),
    skipped,
    ms: performance.now() - t0,
    link,
  };
}

/**
 * Whether a file that comes or goes re-links only what leads to it (link/affected.ts): a
 * JavaScript or TypeScript module, or a file of no language such a module may import by name
 * (`./data.json`). A script's declarations are global and a .d.ts may declare modules and globals
 * (they reach every file); a file a resolver reads, or one of another language (package scopes):
 * the whole link.
 */
function linksInPart(rel: string, isModule: boolean): boolean {
  if (RESOLVER_INPUTS.has(path.posix.basename(rel))) return false;
  const lang = languageFor(rel);
  return !lang || (lang.resolver === 'ecmascript' && isModule && !isDeclarationFile(rel));
}

/**
 * The link after an update: of the changed files' own rows when nothing another file reads of
 * them changed (their link interface is the same, their symbols kept their ids); of every file
 * a changed interface can reach (link/affected.ts) when they are few; else of the whole project.
 * A text file no resolver reads needs none.
 */
function relinkProject(
  db: DB, root: string, c: {
    pending: boolean; relink: Set<number>; reshaped: Set<number>; oldSymbols: number[];
    added: ReadonlySet<number>; leadingToRemoved: ReadonlySet<number>; removed: ReadonlySet<number>;
  },
  beforeLink: (scope: ReadonlySet<number>) => void,
): { link?: LinkStats; scope?: ReadonlySet<number> } {
  const whole = () => ({ link: linkProject(db, root) });
  if (c.pending) return whole();
  const t0 = performance.now();
  const files = (db.prepare('SELECT COUNT(*) AS n FROM files').get() as { n: number }).n;
  const limit = Math.max(RELINK_FILES, Math.floor(files * RELINK_SHARE));
  // more files added than a partial link covers (a cold index adds them all): no reach to look for
  if (c.added.size > limit) return whole();
  // an added file: what now imports it changes its answers, and so does every file its interface reaches
  const found = c.added.size > 0 ? importersOfAdded(db, root, c.added) : new Set<number>();
  if (!found) return whole();
  const importers = new Set([...found, ...[...c.leadingToRemoved].filter((f) => !c.removed.has(f))]);
  const changedInterface = new Set([...c.reshaped, ...importers]);
  // nothing leads to what went: no link, unless an answer still names it (then the reach missed a way)
  const dangling = () => (c.oldSymbols.length > 0 && pointsAtAny(db, c.oldSymbols)) || (c.removed.size > 0 && leadsToAny(db, [...c.removed]));
  if (c.relink.size === 0 && importers.size === 0) return dangling() ? whole() : {};
  let scope: Set<number> | undefined = new Set([...c.relink, ...importers]);
  if (changedInterface.size > 0) {
    const reach = reachOf(db, root, changedInterface, limit);
    scope = reach && new Set([...reach, ...scope]);
  }
  if (!scope || scope.size > limit) return whole();
  beforeLink(scope);
  const link = linkProject(db, root, scope);
  link.ms = performance.now() - t0; // (with finding the reach)
  // every answer that named a symbol the changed files no longer have was in the reach: if one
  // is left, the reach missed a way answers flow (a bug), and the whole link puts it right
  if (dangling()) {
    log.info(`re-link of ${scope.size} files left answers naming symbols of the old version of ${[...c.reshaped].length} changed files: linking the whole project`);
    return whole();
  }
  return { link, scope };
}

/** references with an answer (a confidence) in some files, through the index by file */
function countResolved(db: DB, files: number[]): number {
  const one = stmt(db, 'SELECT COUNT(*) AS n FROM refs WHERE file_id = ? AND confidence IS NOT NULL');
  let n = 0;
  for (const f of files) n += (one.get(f) as { n: number }).n;
  return n;
}

function pointsAtAny(db: DB, ids: number[]): boolean {
  const old = 'SELECT value FROM json_each(?)';
  const row = db.prepare(`SELECT EXISTS (SELECT 1 FROM refs WHERE symbol_id IN (${old}))
      OR EXISTS (SELECT 1 FROM imports WHERE resolved_symbol_id IN (${old}))
      OR EXISTS (SELECT 1 FROM bases WHERE base_symbol_id IN (${old}) OR symbol_id IN (${old}))
      OR EXISTS (SELECT 1 FROM symbols WHERE returns_symbol_id IN (${old}) OR container_id IN (${old}) OR elements_symbol_id IN (${old})) AS hit`)
    .get(...Array(7).fill(JSON.stringify(ids))) as { hit: number };
  return row.hit === 1;
}

/** True when an import row still leads to one of these files (removed: a re-link missed it). */
function leadsToAny(db: DB, files: number[]): boolean {
  return (db.prepare('SELECT EXISTS (SELECT 1 FROM imports WHERE resolved_file_id IN (SELECT value FROM json_each(?))) AS hit').get(JSON.stringify(files)) as { hit: number }).hit === 1;
}

/** Prepared statements of a database, by their SQL: writing a file runs a dozen, thousands of files run them again. */
const statements = new WeakMap<DB, Map<string, Statement>>();
function stmt(db: DB, sql: string): Statement {
  let m = statements.get(db);
  if (!m) statements.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

/** The tables holding a file's facts: their secondary indexes are built once after a cold index instead of row by row. */
const FACT_TABLES = ['symbols', 'imports', 'exports', 'refs', 'bases', 'callbacks'];

/**
 * Indexes of refs that linking neither reads nor needs kept up to date: created after it, its
 * updates of the references' symbols skip them (linking effect: 680 → 535 ms; building them costs
 * the same either way).
 */
const AFTER_LINK = new Set(['refs_symbol', 'refs_name', 'refs_file', 'refs_enclosing']);

/**
 * Drops the secondary indexes of the fact tables and returns the statements that create them again.
 * Inserting a few hundred thousand rows and sorting them into an index once is several times
 * cheaper than keeping five indexes of `refs` up to date row by row. An index killed before they
 * are back loses nothing: opening the database creates missing indexes (db.ts's schema).
 */
function dropFactIndexes(db: DB): { name: string; sql: string }[] {
  const rows = db.prepare(
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${FACT_TABLES.map(() => '?').join(',')})`,
  ).all(...FACT_TABLES) as { name: string; sql: string }[];
  db.transaction(() => {
    for (const r of rows) db.exec(`DROP INDEX IF EXISTS "${r.name}"`);
  })();
  return rows;
}

function deleteFile(db: DB, id: number): void {
  for (const t of FACT_TABLES) stmt(db, `DELETE FROM ${t} WHERE file_id = ?`).run(id);
  stmt(db, 'DELETE FROM files WHERE id = ?').run(id);
}

/** the ids a re-indexed file keeps: its own, and its symbols' in order */
interface Kept { fileId: number; symbolIds: number[] }

function insertFile(db: DB, rel: string, hash: string, size: number, mtimeMs: number, now: number, facts: FileFacts | null, digest: string | null, keep?: Kept): void {
  const fileId = Number(
    stmt(db, 
      'INSERT INTO files(id, path, language, hash, size, mtime_ms, indexed_at, is_module, parse_errors, recovered, package, link_digest) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
    ).run(keep?.fileId ?? null, rel, facts?.language ?? null, hash, size, mtimeMs, now, facts?.isModule ? 1 : 0, facts?.parseErrors ?? 0, facts?.recovered ?? 0, facts?.package ?? null, digest).lastInsertRowid,
  );
  if (!facts) return;
  // the ids the rows get, known before they are written (SQLite gives a new row the largest id + 1):
  // a symbol's columns that name a later symbol or an import are then written with the row itself,
  // instead of by an UPDATE per symbol afterwards
  const impTop = (stmt(db, 'SELECT max(id) AS top FROM imports').get() as { top: number | null }).top ?? 0;
  const impIds = facts.imports.map((_, i) => impTop + 1 + i);
  const symTop = keep ? 0 : (stmt(db, 'SELECT max(id) AS top FROM symbols').get() as { top: number | null }).top ?? 0;
  const symIds = keep ? keep.symbolIds : facts.symbols.map((_, i) => symTop + 1 + i);
  const symbolOf = (t: { symbol: number } | { importIndex: number } | undefined) => (t && 'symbol' in t ? symIds[t.symbol] ?? null : null);
  const importOf = (t: { symbol: number } | { importIndex: number } | undefined) => (t && 'importIndex' in t ? impIds[t.importIndex] ?? null : null);
  insertRows(db, 'imports', ['id', 'file_id', 'local_name', 'source', 'imported', 'line', 'col', 'kind', 'scope', 'base_import_id'], facts.imports, (i, k, v) => {
    v.push(impIds[k]!, fileId, i.localName, i.source, i.imported, i.line, i.column, i.kind ?? 'import', i.scope ? i.scope.join('::') : null, i.base != null ? impIds[i.base] ?? null : null);
  });
  insertRows(db, 'symbols', ['id', 'file_id', 'name', 'kind', 'container_id', 'container_name', 'line', 'col', 'end_line', 'end_col', 'name_line', 'name_col',
    'exported', 'is_default', 'local', 'is_static', 'signature', 'container_import_id', 'returns_symbol_id', 'returns_import_id', 'arity', 'variadic',
    'elements_symbol_id', 'elements_import_id'], facts.symbols, (s, i, v) => {
    const container = s.container != null ? facts.symbols[s.container] : undefined;
    v.push(
      symIds[i]!, fileId, s.name, s.kind, s.container != null ? symIds[s.container] ?? null : null,
      container?.name ?? (s.containerImport != null ? facts.imports[s.containerImport]?.source ?? null : null),
      s.line, s.column, s.endLine, s.endColumn, s.nameLine, s.nameColumn,
      s.exported ? 1 : 0, s.isDefault ? 1 : 0, s.local ? 1 : 0, s.isStatic ? 1 : 0, s.signature,
      s.containerImport != null ? impIds[s.containerImport] ?? null : null, symbolOf(s.returns), importOf(s.returns),
      s.arity ?? null, s.arity !== undefined && s.variadic ? 1 : 0, symbolOf(s.elements), importOf(s.elements),
    );
  });
  const insCallback = stmt(db, 'INSERT INTO callbacks(symbol_id, file_id, arg, param, type_symbol_id, type_import_id) VALUES (?,?,?,?,?,?)');
  facts.symbols.forEach((s, i) => {
    for (const c of s.callbacks ?? []) insCallback.run(symIds[i], fileId, c.arg, c.param, symbolOf(c.type), importOf(c.type));
  });
  const insBase = stmt(db, 'INSERT INTO bases(symbol_id, symbol_import_id, file_id, base_symbol_id, base_import_id) VALUES (?,?,?,?,?)');
  facts.symbols.forEach((s, i) => {
    for (const b of s.bases ?? []) insBase.run(symIds[i], null, fileId, symbolOf(b), importOf(b));
  });
  const insUnion = stmt(db, 'INSERT INTO bases(symbol_id, symbol_import_id, file_id, base_symbol_id, base_import_id, is_union) VALUES (?,?,?,?,?,1)');
  facts.symbols.forEach((s, i) => {
    for (const b of s.union ?? []) insUnion.run(symIds[i], null, fileId, symbolOf(b), importOf(b));
  });
  for (const { derivedImport, base: b } of facts.importBases ?? []) insBase.run(null, impIds[derivedImport] ?? null, fileId, symbolOf(b), importOf(b));
  const insExp = stmt(db, 'INSERT INTO exports(file_id, name, kind, symbol_id, import_id, source, hidden) VALUES (?,?,?,?,?,?,?)');
  for (const e of facts.exports) {
    if (e.kind === 'symbol') insExp.run(fileId, e.name, 'symbol', symIds[e.symbol] ?? null, null, null, e.hidden ? 1 : 0);
    else if (e.kind === 'import') insExp.run(fileId, e.name, 'import', null, impIds[e.importIndex] ?? null, null, e.hidden ? 1 : 0);
    else insExp.run(fileId, '*', 'star', null, null, e.source, 0);
  }
  insertRows(db, 'refs', ['file_id', 'name', 'line', 'col', 'end_col', 'role', 'target_kind', 'symbol_id', 'import_id', 'enclosing_id', 'confidence', 'args', 'access'], facts.refs, (r, _, v) => {
    const t = r.target;
    const symbolId = t.kind === 'symbol' ? symIds[t.symbol] ?? null : null;
    const importId = t.kind === 'import' || t.kind === 'member_of_import' ? impIds[t.importIndex] ?? null : null;
    const confidence = t.kind === 'symbol' ? 'resolved' : t.kind === 'member' || t.kind === 'unbound' ? 'name_match' : null;
    v.push(fileId, r.name, r.line, r.column, r.endColumn, r.role, t.kind, symbolId, importId,
      r.enclosing != null ? symIds[r.enclosing] ?? null : null, confidence, r.args ?? null, t.kind === 'member_of_import' ? t.access ?? null : null);
  });
}

/** the multi-row INSERT of a table (by its head) for each number of rows */
const insertSql = new Map<string, string[]>();
/** rows a multi-row INSERT writes at once */
const ROWS_PER_INSERT = 64;

/**
 * Inserts rows in order, ROWS_PER_INSERT to a statement: a file's hundreds of references cost a
 * few statements instead of one each (each run crosses into SQLite and binds anew).
 * `values` pushes one row's values, in `columns` order.
 */
function insertRows<T>(db: DB, table: string, columns: string[], rows: readonly T[], values: (row: T, i: number, out: unknown[]) => void): void {
  const head = `INSERT INTO ${table}(${columns.join(', ')}) VALUES `;
  let bySize = insertSql.get(head);
  if (!bySize) insertSql.set(head, (bySize = []));
  const row = `(${columns.map(() => '?').join(',')})`;
  const sql = (n: number) => (bySize[n] ??= head + Array(n).fill(row).join(','));
  const out: unknown[] = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const n = Math.min(ROWS_PER_INSERT, rows.length - at);
    out.length = 0;
    for (let i = at; i < at + n; i++) values(rows[i]!, i, out);
    stmt(db, sql(n)).run(out);
  }
}

/** Parses every job, handing results to `commit` in batches as they arrive (on worker threads when many). */
async function parseAll(root: string, jobs: ParseJob[], bytes: number, opts: IndexOptions, commit: (batch: ParseResult[]) => boolean): Promise<void> {
  const total = jobs.length;
  let done = 0;
  const take = (batch: ParseResult[]) => {
    if (batch.length === 0) return;
    const wrote = commit(batch);
    done += batch.length;
    opts.onProgress?.(done, total, 'parse', wrote);
  };
  /** parses on this thread, committing in batches; after each file the event loop runs (a server
   * answers its calls while a project of a few MB, parsed here, is indexed) */
  const parseHere = async (list: ParseJob[]) => {
    let batch: ParseResult[] = [];
    for (const job of list) {
      batch.push(await runParseJob(root, job));
      if (batch.length >= BATCH) take(batch.splice(0));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    take(batch);
  };
  const workerFile = path.join(PACKAGE_ROOT, 'dist', 'src', 'index', 'worker.js');
  const nWorkers = Math.min(workersFor(bytes, opts.workers), Math.ceil(total / BATCH));
  if (total < WORKER_THRESHOLD || nWorkers < 2 || !fs.existsSync(workerFile)) return parseHere(jobs);
  const budget = memoryBudgetMb();
  if (budget.bad !== undefined) log.info(`CODE_INTEL_INDEX_MEMORY_MB=${JSON.stringify(budget.bad)} is not a whole number of MB from 128 to 1048576: using ${budget.mb}`);
  const plan = planWorkers(nWorkers, budget.mb);
  if (opts.workerHeapMb !== undefined) plan.limits.maxOldGenerationSizeMb = opts.workerHeapMb;
  if (plan.capped) {
    log.info(`${nWorkers} parse workers do not fit the index's memory budget of ${budget.mb} MB (CODE_INTEL_INDEX_MEMORY_MB): parsing with ${plan.workers}, each with a ${plan.limits.maxOldGenerationSizeMb} MB heap`);
  }
  let next = 0;
  // the rows and node tables checked here: a worker takes them instead of loading zod to check them again
  const grammars = checkedGrammars();
  const workers = new Set<Worker>();
  // a worker out of memory (a file past what its heap holds) is replaced, as often as there are workers
  let replacements = plan.workers;
  const start = () => {
    const w = new Worker(workerFile, { workerData: { root, grammars }, resourceLimits: plan.limits });
    workers.add(w);
    return w;
  };
  const drive = (w: Worker): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      // each worker holds IN_FLIGHT batches: it parses the next while this thread writes the last
      const held: ParseJob[][] = [];
      const feed = () => {
        while (held.length < IN_FLIGHT && next < total) {
          const batch = jobs.slice(next, next + BATCH);
          next += batch.length;
          held.push(batch);
          w.postMessage(batch);
        }
        if (held.length === 0) resolve();
      };
      w.on('message', (batch: WorkerBatch) => {
        held.shift();
        try {
          take(unpackBatch(batch));
        } catch (e) {
          return reject(e);
        }
        feed();
      });
      w.on('error', (e: Error & { code?: string }) => {
        if (e.code !== 'ERR_WORKER_OUT_OF_MEMORY') return reject(e);
        workers.delete(w);
        // its batches are parsed here (this thread's heap is not limited), the rest by a new worker
        const files = held.flat();
        log.info(`a parse worker ran out of its ${plan.limits.maxOldGenerationSizeMb} MB heap on one of ${files.length} files (${files[0]?.rel} …): parsed on the indexing thread`);
        void (async () => {
          await parseHere(files);
          if (next < total && replacements-- > 0) await drive(start());
        })().then(resolve, reject);
      });
      feed();
    });
  try {
    await Promise.all(Array.from({ length: plan.workers }, () => drive(start())));
    await parseHere(jobs.slice(next)); // (left by workers out of memory once none may be replaced)
  } finally {
    await Promise.all([...workers].map((w) => w.terminate()));
  }
}
