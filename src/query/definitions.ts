import { quote, UserError } from '../util/paths.js';
import { type Page, paginate } from './page.js';
import type { Project } from '../project/project.js';
import {
  type DefinitionOut, MEMBER_KINDS, requireFile, SYMBOL_COLUMNS, type SymbolRow, symbolAtName, symbolById, symbolsByName, toDefinition, importedAs,
} from './symbols.js';

export interface Site {
  file: string;
  line: number;
  column: number;
}

export interface DefinitionsResult extends Page<DefinitionOut> {
  /** how the answer was found, in plain words */
  resolution: string;
}

interface RefRow {
  id: number;
  name: string;
  line: number;
  col: number;
  role: string;
  target_kind: string;
  symbol_id: number | null;
  import_id: number | null;
  confidence: string | null;
}

/**
 * The reference written at a position of a file, if the index has one there; of two at one name (`{ x }`
 * reads the local x and writes the member x), the read; of the key of `x[k]`, its read of k before
 * the use of the member `[k]` beside it (as TypeScript's go-to-definition on k).
 */
export function refAt(p: Project, fileId: number, line: number, column: number): RefRow | undefined {
  return p.db
    .prepare(
      `SELECT id, name, line, col, role, target_kind, symbol_id, import_id, confidence FROM refs
       WHERE file_id = ? AND line = ? AND col <= ? AND end_col > ? ORDER BY col DESC, role = 'write', substr(name, 1, 1) = '[', id LIMIT 1`,
    )
    .get(fileId, line, column, column) as RefRow | undefined;
}

/** Definitions by name, or — given a usage site — the one definition that usage resolves to. */
export function findDefinitions(
  p: Project,
  args: { name?: string; from?: Site; kind?: string; offset?: number; limit?: number },
): DefinitionsResult {
  if (args.from) return fromSite(p, args.from, args);
  if (!args.name) throw new UserError('pass `name`, or `from` (a usage site)', 'Example: {"name": "parseConfig"}', 'missing_argument');
  let rows = symbolsByName(p, args.name, { kind: args.kind });
  // nothing top-level or a member by that name: a function declared inside another one (a local)
  const local = rows.length === 0;
  if (local) rows = symbolsByName(p, args.name, { kind: args.kind, includeLocal: true });
  // nothing declared by that name at all: what imports call by it (an anonymous default export, an alias)
  const imported = rows.length === 0 && !args.kind ? importedAs(p, args.name) : [];
  if (imported.length) rows = imported;
  const page = paginate(rows.map((r) => (imported.length ? { ...toDefinition(r, 'resolved'), imported_as: args.name! } : toDefinition(r, 'resolved'))), args.offset, args.limit);
  const where = imported.length && imported.every((r) => r.name === 'default') ? ` (the default export of ${[...new Set(rows.map((r) => r.path))].slice(0, 3).join(', ')}, imported as '${quote(args.name)}': it is declared without a name)`
    : imported.length ? ` ('${quote(args.name)}' is the name an import gives ${[...new Set(rows.map((r) => r.name))].slice(0, 3).join(', ')})`
    : local && rows.length > 0 ? ` (declared inside ${[...new Set(rows.map((r) => r.container_name ?? 'a function body'))].slice(0, 3).join(', ')}: local, not importable)` : '';
  return {
    ...page,
    resolution:
      rows.length > 1
        ? `${rows.length} definitions are named '${quote(args.name)}'${where}. Pass \`from\` (the file, line and column of a usage) to get the one that usage refers to.`
        : rows.length === 1 ? `found by name${where}` : `no definition named '${quote(args.name)}' in the index (a name declared inside a function is found by \`from\`, the file, line and column of a use)`,
  };
}

function fromSite(p: Project, site: Site, args: { offset?: number; limit?: number }): DefinitionsResult {
  const fileId = requireFile(p, site.file);
  const one = (s: SymbolRow | undefined, confidence: DefinitionOut['confidence'], resolution: string): DefinitionsResult => ({
    ...paginate(s ? [toDefinition(s, confidence)] : [], args.offset, args.limit),
    resolution,
  });
  const ref = refAt(p, fileId, site.line, site.column);
  if (!ref) {
    const own = symbolAtName(p, fileId, site.line, site.column);
    if (own) return one(own, 'resolved', 'the position is the definition itself');
    throw new UserError(
      `no indexed reference or definition at ${quote(site.file)}:${site.line}:${site.column}`,
      'Point at an identifier (1-based line and column), e.g. a position returned by find_references. ' +
        'Parameters and local variables are not indexed: their definition is in the enclosing function.',
      'no_symbol_at_position',
    );
  }
  if (ref.symbol_id != null) {
    const how = ref.confidence === 'imported' ? `resolved through the imports of ${site.file}` : `resolved in the scope of ${site.file}`;
    // a member of a union type (`x.m` with `x: A | B`) is each member type's `m`
    const all = (p.db.prepare(`SELECT DISTINCT symbol_id AS id FROM refs WHERE file_id = ? AND line = ? AND col = ? AND name = ? AND role = ?
        AND symbol_id IS NOT NULL AND confidence IN ('resolved', 'imported') ORDER BY id`).all(fileId, ref.line, ref.col, ref.name, ref.role) as { id: number }[])
      .map((r) => symbolById(p, r.id)).filter((s): s is SymbolRow => s !== undefined);
    if (all.length > 1) {
      return {
        ...paginate(all.map((s) => toDefinition(s, ref.confidence as DefinitionOut['confidence'])), args.offset, args.limit),
        resolution: `${how}: a member of a union type, declared by each of its ${all.length} member types`,
      };
    }
    return one(symbolById(p, ref.symbol_id), ref.confidence as DefinitionOut['confidence'], how);
  }
  if (ref.import_id != null) {
    const imp = p.db
      .prepare(`SELECT i.source, i.status, f.path FROM imports i LEFT JOIN files f ON f.id = i.resolved_file_id WHERE i.id = ?`)
      .get(ref.import_id) as { source: string; status: string; path: string | null };
    // the name of a namespace itself (`utils` in `utils.format`), not a member of it
    if (imp.status === 'module' && imp.path && ref.target_kind === 'import') {
      return {
        ...paginate([{
          file: imp.path, line: 1, column: 1, end_line: 1, name: ref.name, kind: 'module', container: null,
          exported: true, confidence: 'imported' as const, snippet: `module ${imp.source}`,
        }], args.offset, args.limit),
        resolution: `'${ref.name}' is the namespace of module '${imp.source}'`,
      };
    }
    if (imp.status === 'external')
      return one(undefined, 'imported', `'${ref.name}' comes from the external module '${imp.source}' (not part of this project)`);
    if (ref.confidence === null)
      return one(undefined, 'imported', `'${ref.name}' is imported from '${imp.source}', which does not define it`);
  }
  // Not resolvable without types: every same-named member (or global) is a candidate.
  const members = ref.target_kind === 'member' || ref.target_kind === 'member_of_import';
  // `pkg.Name` or a name of the file's own package declared in several files (Go build variants:
  // `x_unix.go`, `x_windows.go`): the top-level declarations are the candidates
  const via = ref.import_id != null
    ? (p.db.prepare('SELECT kind, status FROM imports WHERE id = ?').get(ref.import_id) as { kind: string; status: string } | undefined)
    : undefined;
  const inPackage = (ref.target_kind === 'member_of_import' && via?.status === 'module') || (ref.target_kind === 'import' && via?.kind === 'scope');
  const named = p.db
    .prepare(`SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ? AND s.local = 0 ORDER BY f.path, s.line`)
    .all(ref.name) as SymbolRow[];
  const topLevel = named.filter((s) => s.container_id === null);
  const sameMembers = named.filter((s) => MEMBER_KINDS.has(s.kind));
  // a member of a module with no export of that name: what the module exports as a whole
  // (`module.exports = Fixer`, then `Fixer.applyFixes` elsewhere) may hold it, so its members are
  // the guesses when no top-level declaration has the name
  const [rows, resolution] = inPackage && topLevel.length > 0
    ? [topLevel, `'${ref.name}' has no single declaration in that package (several files declare it, e.g. for different builds): these are same-named top-level definitions (guesses)`]
    : inPackage
      ? [sameMembers, `'${ref.name}' is not an export of that module; what it exports as a whole may hold it: these are same-named members (guesses)`]
      : members
        ? [sameMembers, `'${ref.name}' is a member of a value whose type is unknown without a type checker: these are same-named members (guesses)`]
        : [topLevel, `'${ref.name}' is not declared or imported in ${site.file}: these are same-named top-level definitions (guesses)`];
  return { ...paginate(rows.map((r) => toDefinition(r, 'name_match')), args.offset, args.limit), resolution };
}
