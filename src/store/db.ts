import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type DB = Database.Database;

/** Bumped whenever the schema or the meaning of extracted facts changes: an old index is rebuilt. */
export const SCHEMA_VERSION = 13;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  language TEXT,            -- NULL: a text file kept for search_text, not parsed
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  indexed_at INTEGER NOT NULL,
  is_module INTEGER NOT NULL DEFAULT 0,
  parse_errors INTEGER NOT NULL DEFAULT 0,  -- 1: the tree (after any recovery) still has ERROR or MISSING nodes
  recovered INTEGER NOT NULL DEFAULT 0,     -- statement ends recovery made explicit (code without semicolons that tree-sitter misread)
  package TEXT,             -- the package the file declares (Go, Java): files of one package share a scope
  link_digest TEXT          -- what other files' links can read of it (link-interface.ts): unchanged, a re-link resolves only its own rows
);
CREATE TABLE IF NOT EXISTS symbols (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  container_id INTEGER,
  container_name TEXT,
  line INTEGER NOT NULL, col INTEGER NOT NULL, end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
  name_line INTEGER NOT NULL, name_col INTEGER NOT NULL,
  exported INTEGER NOT NULL, is_default INTEGER NOT NULL, local INTEGER NOT NULL,
  is_static INTEGER NOT NULL DEFAULT 0,
  container_import_id INTEGER,  -- a Go method whose receiver type is in another file: set container_id at link time
  returns_symbol_id INTEGER,    -- what calling a function gives (its declared result type), for members of a call's result; a variable's, field's or constant's declared type
  returns_import_id INTEGER,    -- the same, declared in another file: set returns_symbol_id at link time
  elements_symbol_id INTEGER,   -- the element type of the collection a value holds or a function returns (T[], Array<T>, []T)
  elements_import_id INTEGER,   -- the same, declared in another file: set elements_symbol_id at link time
  arity INTEGER,                -- parameters of a function or method, where overloads are chosen by them (Java)
  variadic INTEGER NOT NULL DEFAULT 0,
  signature TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id, line);
CREATE INDEX IF NOT EXISTS symbols_file_name ON symbols(file_id, name);
CREATE INDEX IF NOT EXISTS symbols_container ON symbols(container_id);
CREATE TABLE IF NOT EXISTS imports (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  local_name TEXT,
  source TEXT NOT NULL,
  imported TEXT NOT NULL,
  line INTEGER NOT NULL, col INTEGER NOT NULL,
  kind TEXT NOT NULL DEFAULT 'import',      -- import | wildcard (Java a.b.*, Go dot import) | scope (a name from the package scope)
  scope TEXT,                -- the inline modules the import is written in, '::'-joined (Rust: mod tests { use super::*; })
  base_import_id INTEGER,    -- the name (imported) looked up in what that import resolves to (a.b.c after import a; '()': a call's result)
  status TEXT NOT NULL DEFAULT 'pending',   -- symbol | module | external | unresolved
  resolved_file_id INTEGER,
  resolved_symbol_id INTEGER
);
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);
CREATE TABLE IF NOT EXISTS exports (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,        -- symbol | import | star
  symbol_id INTEGER,
  import_id INTEGER,
  source TEXT,
  hidden INTEGER NOT NULL DEFAULT 0   -- importable by name but not taken by * (Python _private, or not in __all__)
);
CREATE INDEX IF NOT EXISTS exports_file ON exports(file_id, name);
CREATE TABLE IF NOT EXISTS bases (        -- class/interface inheritance, for inherited members
  symbol_id INTEGER,         -- NULL until link.ts resolves symbol_import_id
  symbol_import_id INTEGER,  -- the derived type is imported (Rust: impl Trait for T, T from another module)
  file_id INTEGER NOT NULL,
  base_symbol_id INTEGER,    -- set directly for a base in the same file, by link.ts for an imported one
  base_import_id INTEGER,
  is_union INTEGER NOT NULL DEFAULT 0  -- \`type S = A | B\`: A is a member type of S (S's members are A's and B's), not a base to inherit from
);
CREATE INDEX IF NOT EXISTS bases_symbol ON bases(symbol_id);
CREATE INDEX IF NOT EXISTS bases_file ON bases(file_id);
CREATE TABLE IF NOT EXISTS callbacks (    -- f(cb) with cb: (a: A, b: B) => R: the type a function passed as argument arg gets for its parameter param
  symbol_id INTEGER NOT NULL,  -- the function or method that takes the callback
  file_id INTEGER NOT NULL,
  arg INTEGER NOT NULL,        -- 0-based, without TypeScript's \`this\` parameter
  param INTEGER NOT NULL,
  type_symbol_id INTEGER,      -- set directly for a type in the same file, by link.ts for an imported one
  type_import_id INTEGER
);
CREATE INDEX IF NOT EXISTS callbacks_symbol ON callbacks(symbol_id, arg, param);
CREATE INDEX IF NOT EXISTS callbacks_file ON callbacks(file_id);
CREATE TABLE IF NOT EXISTS refs (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  line INTEGER NOT NULL, col INTEGER NOT NULL, end_col INTEGER NOT NULL,
  role TEXT NOT NULL,
  target_kind TEXT NOT NULL,  -- symbol | import | member_of_import | member | unbound
  symbol_id INTEGER,          -- the definition, when known
  import_id INTEGER,
  enclosing_id INTEGER,
  args INTEGER,               -- a call's number of arguments, where overloads are chosen by it
  confidence TEXT,            -- resolved | imported | name_match (NULL: bound to something outside the project)
  access TEXT,                -- member_of_import: 'static' (through the class) | 'instance' (this, a typed value) | NULL (unknown)
  derived INTEGER NOT NULL DEFAULT 0  -- added by link.ts (a member of a union type imported from another file): rebuilt on every link
);
CREATE INDEX IF NOT EXISTS refs_symbol ON refs(symbol_id);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name, target_kind);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id, line);
CREATE INDEX IF NOT EXISTS refs_import ON refs(import_id);
CREATE INDEX IF NOT EXISTS refs_enclosing ON refs(enclosing_id);
`;

export function dbPath(root: string): string {
  return path.join(root, '.code-intel', 'index.db');
}

/** Opens (creating if needed) the project database. WAL so readers (hooks, CLI) never block the server. */
export function openDb(root: string): DB {
  const file = dbPath(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const gitignore = path.join(path.dirname(file), '.gitignore');
  if (!fs.existsSync(gitignore)) fs.writeFileSync(gitignore, '*\n');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const version = (db.prepare(`SELECT name FROM sqlite_master WHERE type='table' AND name='meta'`).get() as unknown)
    ? (db.prepare(`SELECT value FROM meta WHERE key='schema_version'`).get() as { value: string } | undefined)?.value
    : undefined;
  if (version !== undefined && Number(version) !== SCHEMA_VERSION) {
    // facts from an older extractor are not trusted: start the index over
    db.exec(`DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS symbols; DROP TABLE IF EXISTS imports;
             DROP TABLE IF EXISTS exports; DROP TABLE IF EXISTS refs; DROP TABLE IF EXISTS bases; DROP TABLE IF EXISTS callbacks; DELETE FROM meta;`);
  }
  db.exec(SCHEMA);
  db.prepare(`INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)`).run(String(SCHEMA_VERSION));
  return db;
}

export function getMeta(db: DB, key: string): string | undefined {
  return (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

export function setMeta(db: DB, key: string, value: string): void {
  db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(key, value);
}
