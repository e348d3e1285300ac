/** Symbol rows and the lookups shared by definitions, references and outlines. */
import { quote, UserError } from '../util/paths.js';
import type { Project } from '../project/project.js';

export interface SymbolRow {
  id: number;
  file_id: number;
  path: string;
  name: string;
  kind: string;
  container_id: number | null;
  container_name: string | null;
  line: number;
  col: number;
  end_line: number;
  end_col: number;
  name_line: number;
  name_col: number;
  exported: number;
  is_default: number;
  local: number;
  is_static: number;
  signature: string;
}

export const SYMBOL_COLUMNS = `s.id, s.file_id, f.path, s.name, s.kind, s.container_id, s.container_name, s.line, s.col,
  s.end_line, s.end_col, s.name_line, s.name_col, s.exported, s.is_default, s.local, s.is_static, s.signature`;

/**
 * What a declaration stands for when counting symbols: one function named twice
 * (`res.set = res.header = function header() {}`: two declarations ending where the function
 * ends) is one; anything else is its own row (red team adv74 counted res.set and res.header twice).
 */
export function valueIdentity(s: Pick<SymbolRow, 'id' | 'path' | 'kind' | 'end_line' | 'end_col'>): string {
  return s.kind === 'function' || s.kind === 'method' ? `${s.path}@${s.end_line}:${s.end_col}` : `#${s.id}`;
}

export const MEMBER_KINDS = new Set(['method', 'property', 'enum_member']);

/** What every definition result looks like. */
export interface DefinitionOut {
  file: string;
  line: number;
  column: number;
  end_line: number;
  name: string;
  kind: string;
  container: string | null;
  exported: boolean;
  confidence: 'resolved' | 'imported' | 'name_match';
  snippet: string;
  /** declared inside a function: not importable, reached only from its enclosing body */
  local?: true;
  /** an anonymous default export found by the name other files import it as */
  imported_as?: string;
}

export function toDefinition(s: SymbolRow, confidence: DefinitionOut['confidence']): DefinitionOut {
  return {
    file: s.path,
    line: s.name_line,
    column: s.name_col,
    end_line: s.end_line,
    name: s.name,
    kind: s.kind,
    container: s.container_name,
    exported: s.exported === 1,
    confidence,
    snippet: s.signature,
    ...(s.local === 1 ? { local: true as const } : {}),
  };
}

export function symbolById(p: Project, id: number): SymbolRow | undefined {
  return p.db.prepare(`SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?`).get(id) as
    | SymbolRow
    | undefined;
}

/**
 * Symbols by name. `Container.member` qualifies by container. Local symbols (declared inside a
 * function body) are left out unless `includeLocal`.
 */
export function symbolsByName(p: Project, rawName: string, opts: { kind?: string; includeLocal?: boolean } = {}): SymbolRow[] {
  const name = rawName.trim();
  if (!name) throw new UserError('the symbol name is empty', 'Pass a name such as `parseConfig` or `Server.start`.', 'empty_name');
  const dot = name.lastIndexOf('.');
  const member = dot > 0 ? name.slice(dot + 1) : name;
  const container = dot > 0 ? name.slice(0, dot).split('.').pop()! : undefined;
  const rows = p.db
    .prepare(
      `SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.name = ? ${container ? 'AND s.container_name = ?' : ''} ${opts.includeLocal ? '' : 'AND s.local = 0'}
       ${opts.kind ? 'AND s.kind = ?' : ''}
       ORDER BY s.exported DESC, f.path, s.line`,
    )
    .all(...[member, ...(container ? [container] : []), ...(opts.kind ? [opts.kind] : [])]) as SymbolRow[];
  // `request.is`: a member of an anonymous default export (`module.exports = { is() {…} }`, which
  // the index calls `default.is`) by the name its importers give the module (`const request =
  // require('./request')`): koa's request.is and response.is were both `default.is` (red team adv80)
  if (rows.length === 0 && container) {
    const holders = importedAs(p, container, true).map((d) => d.id);
    if (holders.length > 0) {
      return p.db
        .prepare(
          `SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
           WHERE s.name = ? AND s.container_id IN (SELECT value FROM json_each(?)) ${opts.includeLocal ? '' : 'AND s.local = 0'} ${opts.kind ? 'AND s.kind = ?' : ''}
           ORDER BY s.exported DESC, f.path, s.line`,
        )
        .all(...[member, JSON.stringify(holders), ...(opts.kind ? [opts.kind] : [])]) as SymbolRow[];
    }
  }
  return rows;
}

/**
 * The declarations a name is imported as where none is declared by it: an anonymous default export
 * (`import resolveConfig from './helpers/resolveConfig.js'` names that file's `export default (config)
 * => {…}`, which the index calls `default`: agent trial tr67 was told it does not exist), or, unless
 * `defaultsOnly`, any other alias (`from ._types import SupportsRead as _SupportsRead`: tr79).
 */
export function importedAs(p: Project, name: string, defaultsOnly = false): SymbolRow[] {
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name) || name === 'default') return [];
  // (a whole module taken under a name — `const isStream = require('./is-stream')` — is its default
  // where the default is all the module exports: `module.exports = (stream) => …`, agent trial tr90)
  return p.db
    .prepare(
      `SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.id IN (SELECT resolved_symbol_id FROM imports WHERE local_name = ? AND imported <> local_name AND status = 'symbol'
         UNION SELECT e.symbol_id FROM imports i JOIN exports e ON e.file_id = i.resolved_file_id AND e.name = 'default' AND e.kind = 'symbol'
           WHERE i.local_name = ? AND i.imported = '*' AND i.status = 'module'
             AND NOT EXISTS (SELECT 1 FROM exports o WHERE o.file_id = i.resolved_file_id AND o.name <> 'default') LIMIT 50)
       ${defaultsOnly ? "AND s.name = 'default'" : ''} ORDER BY f.path, s.line`,
    )
    .all(name, name) as SymbolRow[];
}

/**
 * The names a file's anonymous default export (symbol `id`) is imported as elsewhere: by name, or
 * as the whole module where the default is all it exports (importedAs, the other way round).
 */
export function importedNamesOf(p: Project | { db: Project['db'] }, id: number): string[] {
  const rows = p.db.prepare(
    `SELECT DISTINCT local_name AS name FROM imports WHERE resolved_symbol_id = ? AND status = 'symbol' AND local_name IS NOT NULL AND local_name != 'default'
     UNION SELECT DISTINCT i.local_name FROM exports e JOIN imports i ON i.resolved_file_id = e.file_id AND i.imported = '*' AND i.status = 'module'
       WHERE e.symbol_id = ? AND e.name = 'default' AND e.kind = 'symbol' AND i.local_name IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM exports o WHERE o.file_id = e.file_id AND o.name <> 'default')
     LIMIT 20`,
  ).all(id, id) as { name: string }[];
  return rows.map((r) => r.name);
}

/**
 * How a symbol is named to the agent: `Container.name`, where a member of an anonymous default
 * export goes by the name the module is imported as (`request.is`, not `default.is`); `default`
 * itself likewise.
 */
export function qualifiedName(p: Project | { db: Project['db'] }, row: { id: number; name: string; container_name: string | null; container_id?: number | null }): string {
  if (row.container_name === 'default' && row.container_id) {
    const [alias] = importedNamesOf(p, row.container_id);
    if (alias) return `${alias}.${row.name}`;
  }
  if (row.name === 'default' && !row.container_name) return importedNamesOf(p, row.id)[0] ?? row.name;
  return row.container_name ? `${row.container_name}.${row.name}` : row.name;
}

/** The file id for a project-relative path, or a clear error when it is not indexed. */
export function requireFile(p: Project, rel: string): number {
  const id = p.fileId(rel);
  if (id === undefined) {
    throw new UserError(
      `file '${quote(rel)}' is not in the index`,
      'Use a path relative to the project root (as returned by other tools); ignored, binary and files over 1 MiB are not indexed.',
      'unknown_file',
    );
  }
  return id;
}

/** The symbol whose name is written at (line, column) of a file, if any. */
export function symbolAtName(p: Project, fileId: number, line: number, column?: number): SymbolRow | undefined {
  const rows = p.db
    .prepare(`SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ? AND s.name_line = ?`)
    .all(fileId, line) as SymbolRow[];
  if (column === undefined) return rows[0];
  return rows.find((r) => column >= r.name_col && column < r.name_col + r.name.length);
}

/**
 * The innermost declaration (not a local) whose span holds a line of a file, as `Container.name`:
 * what a text match sits in, as a reference row names its container.
 */
export function enclosingDeclaration(p: Project, fileId: number, line: number): string | null {
  const row = p.db
    .prepare('SELECT name, container_name FROM symbols WHERE file_id = ? AND line <= ? AND end_line >= ? AND local = 0 ORDER BY end_line - line, line DESC LIMIT 1')
    .get(fileId, line, line) as { name: string; container_name: string | null } | undefined;
  return row ? (row.container_name ? `${row.container_name}.${row.name}` : row.name) : null;
}
