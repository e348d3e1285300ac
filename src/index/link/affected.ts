/**
 * The files a change of some files' link interface can reach, for a re-link of only those. A file's
 * answers are read from the files its imports lead to (the module each import resolved to, the
 * sources of its `export *`), and from there only through those files' interfaces: their
 * re-exports and the imports their declarations' types and bases name. So the reach of a changed
 * file C is every file with an import into S, where S is C and every file whose interface leads
 * into S. Every answer another file holds about C was found along such a path.
 *
 * Only for JavaScript and TypeScript: there, what a file reads of another follows its imports. In
 * languages where files share a package scope (Go, Java) or declare members of another file's
 * types (Go receivers, Rust `impl Trait for T`), answers also flow against imports: undefined,
 * the whole link then.
 */
import type { DB } from '../../store/db.js';
import { languageFor } from '../languages.js';
import { createResolvers } from '../resolvers/index.js';

/** the imports a file's interface names: its re-exports, its declarations' types and bases, and what those are looked up in */
const INTERFACE_EDGES = `WITH RECURSIVE named(id) AS (
    SELECT import_id FROM exports WHERE import_id IS NOT NULL
    UNION SELECT returns_import_id FROM symbols WHERE returns_import_id IS NOT NULL
    UNION SELECT elements_import_id FROM symbols WHERE elements_import_id IS NOT NULL
    UNION SELECT container_import_id FROM symbols WHERE container_import_id IS NOT NULL
    UNION SELECT type_import_id FROM callbacks WHERE type_import_id IS NOT NULL
    UNION SELECT base_import_id FROM bases WHERE base_import_id IS NOT NULL
    UNION SELECT symbol_import_id FROM bases WHERE symbol_import_id IS NOT NULL
    UNION SELECT i.base_import_id FROM imports i JOIN named n ON i.id = n.id WHERE i.base_import_id IS NOT NULL)
  SELECT DISTINCT i.file_id AS file, i.resolved_file_id AS target FROM imports i JOIN named n ON n.id = i.id
  WHERE i.resolved_file_id IS NOT NULL AND i.resolved_file_id <> i.file_id`;

/** `limit`: past this many files, undefined (the whole link is cheaper) */
export function reachOf(db: DB, root: string, changed: ReadonlySet<number>, limit = Infinity): Set<number> | undefined {
  const { pathById, idByPath } = fileIndex(db);
  for (const id of changed) {
    const p = pathById.get(id);
    if (p === undefined || languageFor(p)?.resolver !== 'ecmascript') return undefined;
  }
  // `export *` sources: not import rows, resolved here as the link resolves them
  const resolvers = createResolvers(root, new Set([...idByPath.keys()].sort()));
  const stars: { file: number; target: number }[] = [];
  for (const e of db.prepare(`SELECT file_id AS file, source FROM exports WHERE kind = 'star' AND source IS NOT NULL`).all() as { file: number; source: string }[]) {
    const importer = pathById.get(e.file);
    const resolve = importer !== undefined ? resolvers.get(languageFor(importer)?.resolver ?? '') : undefined;
    const r = resolve?.(importer!, e.source);
    if (!r || 'external' in r || 'unresolved' in r) continue;
    // (a package, or a module path with names left to look up in it: not these languages')
    if (!('file' in r) || (r.rest?.length ?? 0) > 0) return undefined;
    const target = idByPath.get(r.file);
    if (target !== undefined) stars.push({ file: e.file, target });
  }
  const into = (edges: { file: number; target: number }[]) => {
    const m = new Map<number, number[]>();
    for (const { file, target } of edges) {
      let list = m.get(target);
      if (!list) m.set(target, (list = []));
      list.push(file);
    }
    return m;
  };
  // S: the changed files and every file whose interface leads into S
  const interfaceInto = into([...(db.prepare(INTERFACE_EDGES).all() as { file: number; target: number }[]), ...stars]);
  const seen = new Set(changed);
  const queue = [...changed];
  while (queue.length > 0) {
    for (const f of interfaceInto.get(queue.pop()!) ?? []) {
      if (!seen.has(f)) {
        seen.add(f);
        queue.push(f);
        if (seen.size > limit) return undefined;
      }
    }
  }
  // and every file with an import into S
  const reach = new Set(seen);
  const edges = db.prepare('SELECT DISTINCT file_id AS file, resolved_file_id AS target FROM imports WHERE resolved_file_id IS NOT NULL').all() as { file: number; target: number }[];
  for (const e of [...edges, ...stars]) if (seen.has(e.target)) reach.add(e.file);
  return reach.size > limit ? undefined : reach;
}

/** The project's files by id and by path. */
function fileIndex(db: DB): { pathById: Map<number, string>; idByPath: Map<string, number> } {
  const files = db.prepare('SELECT id, path FROM files').all() as { id: number; path: string }[];
  return { pathById: new Map(files.map((f) => [f.id, f.path])), idByPath: new Map(files.map((f) => [f.path, f.id])) };
}

const IMPORT_SOURCES = 'SELECT DISTINCT file_id AS file, source FROM imports WHERE source IS NOT NULL';
/** the sources of `export *`, which are no import rows */
const STAR_SOURCES = `SELECT DISTINCT file_id AS file, source FROM exports WHERE kind = 'star' AND source IS NOT NULL`;

/**
 * Adds to `out` the JavaScript/TypeScript files (other than `skip`) whose rows of `sql` (file,
 * source) resolve to one of `targets` against the files the index holds now; false when there is
 * no resolver to ask.
 */
function resolvingTo(db: DB, root: string, idx: ReturnType<typeof fileIndex>, targets: ReadonlySet<string>, skip: ReadonlySet<number>, sqls: string[], out: Set<number>): boolean {
  const resolve = createResolvers(root, new Set([...idx.idByPath.keys()].sort())).get('ecmascript');
  if (!resolve) return false;
  for (const sql of sqls) {
    for (const { file, source } of db.prepare(sql).iterate() as Iterable<{ file: number; source: string }>) {
      const importer = idx.pathById.get(file);
      if (importer === undefined || skip.has(file) || languageFor(importer)?.resolver !== 'ecmascript') continue;
      const r = resolve(importer, source);
      if (r && 'file' in r && targets.has(r.file)) out.add(file);
    }
  }
  return true;
}

/** The paths of these files when every one is JavaScript/TypeScript or of no language (the others share package scopes: see reachOf). */
function ecmascriptOnly(paths: Iterable<string | undefined>): Set<string> | undefined {
  const out = new Set<string>();
  for (const p of paths) {
    if (p === undefined) return undefined;
    const lang = languageFor(p);
    if (lang && lang.resolver !== 'ecmascript') return undefined;
    out.add(p);
  }
  return out;
}

/**
 * The files whose imports lead to a file that was just added: an added JavaScript or TypeScript
 * module, or a file such a module imports by its name (`./data.json`). Every import and `export *`
 * of those languages is resolved again against the files as they are now (a file that did not
 * exist led nowhere before: leading to it now is the change); undefined where one cannot tell.
 */
export function importersOfAdded(db: DB, root: string, added: ReadonlySet<number>): Set<number> | undefined {
  const idx = fileIndex(db);
  const targets = ecmascriptOnly([...added].map((id) => idx.pathById.get(id)));
  const out = new Set<number>();
  return targets && resolvingTo(db, root, idx, targets, added, [IMPORT_SOURCES, STAR_SOURCES], out) ? out : undefined;
}

/**
 * The files whose imports or `export *` led to files about to be removed (read before their rows
 * go): the import rows that resolved to them, and the `export *` sources that resolve to them
 * against the files as they were. Undefined where one cannot tell (see importersOfAdded).
 */
export function importersOfRemoved(db: DB, root: string, removed: readonly string[]): Set<number> | undefined {
  const idx = fileIndex(db);
  const targets = ecmascriptOnly(removed);
  const gone = new Set(removed.map((p) => idx.idByPath.get(p)).filter((id): id is number => id !== undefined));
  if (!targets || gone.size !== removed.length) return undefined;
  const out = new Set<number>();
  for (const r of db.prepare('SELECT DISTINCT file_id AS file FROM imports WHERE resolved_file_id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...gone])) as { file: number }[]) {
    if (!gone.has(r.file)) out.add(r.file);
  }
  return resolvingTo(db, root, idx, targets, gone, [STAR_SOURCES], out) ? out : undefined;
}
