/**
 * The linker's state for one run: the project's files, imports and exports read once, the
 * statements the phases query symbols with, and the caches of what is resolved so far.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../../store/db.js';
import { createResolvers } from '../resolvers/index.js';

export interface ImportRow {
  id: number; file_id: number; source: string; imported: string; kind: string; scope: string | null; base_import_id: number | null;
  /** what the last link stored (a re-link writes only what changed) */
  status: string | null; resolved_file_id: number | null; resolved_symbol_id: number | null;
}
export interface ExportRow { file_id: number; name: string; kind: string; symbol_id: number | null; import_id: number | null; source: string | null; hidden: number }
export interface FileRow { id: number; path: string; package: string | null }
/** a symbol, a module (one file), or a package (files that share one scope) */
export type Target = { symbol: number } | { module: number } | { files: number[] } | null;
/** how a package-scope name was found: in the package, through an import, nowhere in the project, or ambiguously */
export type ScopeVia = 'package' | 'import' | 'missing' | 'unknown';
/** what a module specifier resolves to, and the names left to look up inside it */
export type Module = { module: number | { files: number[] }; rest: string[] };

/** kinds of symbols that hold a value: their members are those of the type they declare */
export const VALUE_KINDS = new Set(['variable', 'constant', 'property']);

/** A map whose missing keys are read on first use (a re-link of a few files reads only the rows it reaches). */
export class LazyMap<K, V> extends Map<K, V> {
  constructor(private readonly load: (key: K) => V) {
    super();
  }
  override get(key: K): V {
    if (!super.has(key)) super.set(key, this.load(key));
    return super.get(key)!;
  }
}

const IMPORT_COLUMNS = 'id, file_id, source, imported, kind, scope, base_import_id, status, resolved_file_id, resolved_symbol_id';
const EXPORT_COLUMNS = 'file_id, name, kind, symbol_id, import_id, source, hidden';

export class LinkContext {
  readonly files: FileRow[];
  readonly idByPath: Map<string, number>;
  readonly pathById: Map<number, string>;
  readonly resolvers: ReturnType<typeof createResolvers>;
  /** the imports of the files whose rows this run resolves */
  readonly imports: ImportRow[];
  readonly importById: Map<number, ImportRow | undefined>;
  readonly exportsByFile: Map<number, ExportRow[] | undefined>;

  // ---- packages (packages.ts) ------------------------------------------------------------------
  readonly packageKey = new Map<number, string>();
  readonly packageFiles = new Map<string, number[]>();
  readonly packageNames = new Map<string, Map<string, number[]>>();
  readonly wildcards: Map<number, ImportRow[] | undefined>;

  // ---- what is resolved so far (modules.ts, members.ts, resolve.ts) -----------------------------
  readonly moduleCache = new Map<string, Module | 'external' | 'unresolved'>();
  // members are looked up many times over with the same question (Java: every inherited name
  // of every class body); the answers hold until the bases change (`memberCache.clear()` then)
  readonly memberCache = new Map<string, number | 'external' | null>();
  readonly importTargets = new Map<number, Target>();
  readonly scopeVia = new Map<number, ScopeVia>();

  // ---- statements --------------------------------------------------------------------------------
  readonly topLevelOf: Statement;
  readonly memberOf: Statement;
  readonly basesOf: Statement;
  readonly updImport: Statement;
  readonly updRef: Statement;
  readonly unionParts: Statement;
  readonly addDerived: Statement;
  readonly fileOf: Statement;
  readonly containerOf: Statement;
  readonly enumOf: Statement;
  readonly callInfo: Statement;
  readonly elementsOf: Statement;
  readonly callbackOf: Statement;

  /**
   * `scope`: the files whose rows this run resolves (a re-link after they changed and nothing
   * another file reads of them did); the rows of other files are read only as resolving reaches
   * them. Without it, every file's: the tables are read whole, once.
   */
  constructor(readonly db: DB, root: string, readonly scope?: ReadonlySet<number>) {
    this.files = db.prepare('SELECT id, path, package FROM files').all() as FileRow[];
    this.idByPath = new Map(this.files.map((f) => [f.path, f.id]));
    this.pathById = new Map(this.files.map((f) => [f.id, f.path]));
    // (in path order, not in the order parse workers stored the files: a package's files are listed
    // in it, and a package import names the first of them)
    this.resolvers = createResolvers(root, new Set([...this.idByPath.keys()].sort()));
    if (scope) {
      this.imports = db.prepare(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE file_id IN (${[...scope].join(',')}) ORDER BY id`).all() as ImportRow[];
      const importOf = db.prepare(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = ?`);
      this.importById = new LazyMap((id) => importOf.get(id) as ImportRow | undefined);
      for (const i of this.imports) this.importById.set(i.id, i);
      const exportsOf = db.prepare(`SELECT ${EXPORT_COLUMNS} FROM exports WHERE file_id = ? ORDER BY id`);
      this.exportsByFile = new LazyMap((file) => exportsOf.all(file) as ExportRow[]);
      const wildcardsOf = db.prepare(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE file_id = ? AND kind = 'wildcard' ORDER BY id`);
      this.wildcards = new LazyMap((file) => wildcardsOf.all(file) as ImportRow[]);
    } else {
      this.imports = db.prepare(`SELECT ${IMPORT_COLUMNS} FROM imports`).all() as ImportRow[];
      this.importById = new Map(this.imports.map((i) => [i.id, i]));
      this.exportsByFile = new Map();
      for (const e of db.prepare(`SELECT ${EXPORT_COLUMNS} FROM exports`).all() as ExportRow[]) {
        let list = this.exportsByFile.get(e.file_id);
        if (!list) this.exportsByFile.set(e.file_id, (list = []));
        list.push(e);
      }
      this.wildcards = new Map();
    }
    this.topLevelOf = db.prepare(
      'SELECT id, name FROM symbols WHERE file_id = ? AND container_id IS NULL AND container_import_id IS NULL AND local = 0',
    );
    this.memberOf = db.prepare('SELECT id, kind, arity, variadic, is_static FROM symbols WHERE container_id = ? AND name = ? ORDER BY (kind = \'method\') = ? DESC, id');
    this.basesOf = db.prepare(
      `SELECT b.base_symbol_id AS base, i.status FROM bases b LEFT JOIN imports i ON i.id = b.base_import_id WHERE b.symbol_id = ?`,
    );
    this.updImport = db.prepare('UPDATE imports SET status = ?, resolved_file_id = ?, resolved_symbol_id = ? WHERE id = ?');
    this.updRef = db.prepare('UPDATE refs SET symbol_id = ?, confidence = ? WHERE id = ?');
    // `x.m` with x of a union type from another file: the first member type's m is the reference's
    // symbol; the others' get a row of their own (derived, rebuilt on every link)
    this.unionParts = db.prepare('SELECT base_symbol_id AS id FROM bases WHERE symbol_id = ? AND is_union = 1 AND base_symbol_id IS NOT NULL');
    this.addDerived = db.prepare(`INSERT INTO refs(file_id, name, line, col, end_col, role, target_kind, symbol_id, import_id, enclosing_id, confidence, args, derived)
    SELECT file_id, name, line, col, end_col, role, target_kind, ?, import_id, enclosing_id, confidence, args, 1 FROM refs WHERE id = ?`);
    this.fileOf = db.prepare('SELECT file_id AS id FROM symbols WHERE id = ?');
    this.containerOf = db.prepare('SELECT container_id AS id FROM symbols WHERE id = ?');
    this.enumOf = db.prepare(`SELECT container_id AS id FROM symbols WHERE id = ? AND kind = 'enum_member' AND container_id IS NOT NULL`);
    this.callInfo = db.prepare('SELECT kind, returns_symbol_id AS returns, returns_import_id AS returnsImport FROM symbols WHERE id = ?');
    this.elementsOf = db.prepare('SELECT elements_symbol_id AS symbol, elements_import_id AS imp FROM symbols WHERE id = ?');
    // the declaration of the function, or of an overload of it (same file, name and container), that types the callback
    this.callbackOf = db.prepare(`SELECT c.type_symbol_id AS type, c.type_import_id AS imp FROM symbols f
    JOIN symbols o ON o.file_id = f.file_id AND o.name = f.name AND o.container_id IS f.container_id
    JOIN callbacks c ON c.symbol_id = o.id AND c.arg = ? AND c.param = ? WHERE f.id = ? ORDER BY o.id LIMIT 1`);
  }

  /** `AND <column> IN (the files in scope)`, or nothing when every file's rows are resolved */
  inScope(column: string): string {
    return this.scope ? ` AND ${column} IN (${[...this.scope].join(',')})` : '';
  }
}
