import { languageFor } from '../index/languages.js';
import { quote, UserError } from '../util/paths.js';
import { refAt } from './definitions.js';
import { type Page, paginate } from './page.js';
import type { Project } from '../project/project.js';
import { checkDeadline } from '../util/deadline.js';
import {
  type DefinitionOut, importedAs, MEMBER_KINDS, requireFile, SYMBOL_COLUMNS, type SymbolRow, symbolAtName, symbolById, symbolsByName, toDefinition,
} from './symbols.js';

export interface ReferenceOut {
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  name: string;
  /** how the name is used: call, new, read, write, type, import, export, jsx; `override` /
   * `overridden`: the declaration of a member that overrides or implements it / that it overrides
   * or implements */
  kind: string;
  /** the symbol the reference sits in (Class.method), null at module level */
  container: string | null;
  confidence: 'resolved' | 'imported' | 'name_match';
  /** the definition it refers to (file:line), useful when several share the name */
  definition: string | null;
  snippet: string;
}

export interface ReferencesResult extends Page<ReferenceOut> {
  definitions: DefinitionOut[];
  counts: { resolved: number; imported: number; name_match: number };
  note: string;
}

const ORDER = { resolved: 0, imported: 1, name_match: 2 } as const;

interface RefRow {
  path: string; name: string; line: number; col: number; end_col: number; role: string; confidence: ReferenceOut['confidence'];
  symbol_id: number | null; enclosing_name: string | null; enclosing_container: string | null;
}

/**
 * References to one symbol (picked by its definition site) or to every symbol of a name.
 * Facts (resolved, imported) come first; `name_match` guesses only when asked for.
 */
export function findReferences(
  p: Project,
  args: { name?: string; file?: string; line?: number; column?: number; include_guesses?: boolean; offset?: number; limit?: number },
): ReferencesResult {
  const targets = pickTargets(p, args);
  if (targets.length === 0) {
    throw new UserError(
      args.name ? `no definition named '${quote(args.name)}' in the index` : 'no symbol at that position',
      args.name
        ? 'Check the spelling with `query` or `find_definitions` (names are case-sensitive); a variable declared inside a function is not indexed by name: `search_text` in its file finds its uses.'
        : 'Pass the position of a definition\'s name as find_definitions returns it.',
      'unknown_symbol',
    );
  }
  const ids = new Set<number>();
  const defSite = new Map<number, string>();
  // every declaration of the symbol — an overloaded function's signatures and its implementation,
  // merged declarations — is listed as one of its definitions, as TypeScript lists them
  const declarations: SymbolRow[] = [];
  for (const t of targets) {
    checkDeadline();
    for (const id of declarationGroup(p, t)) {
      const d = ids.has(id) ? undefined : id === t.id ? t : symbolById(p, id);
      if (d) declarations.push(d);
      ids.add(id);
      defSite.set(id, `${t.path}:${t.name_line}`);
    }
  }
  // a member's overrides and implementations are the same member to a caller (as for TypeScript's
  // findReferences): `base.m()` may run `Derived.m`, and `derived.m()` is a use of `Base.m`'s contract
  let related = 0;
  // their declarations are listed too (kind `override` / `overridden`), as TypeScript lists them:
  // changing a member's contract means changing those
  const relatedDecls: RefRow[] = [];
  for (const t of targets) {
    checkDeadline();
    if (!MEMBER_KINDS.has(t.kind) || t.container_id === null || t.is_static || languageFor(t.path)?.membersOverride === false) continue;
    if (t.name === 'constructor') continue; // a constructor is not inherited (`new Derived()` is not `new Base()`)
    const arity = languageFor(t.path)?.overloadsByArity ? (p.db.prepare('SELECT arity FROM symbols WHERE id = ?').get(t.id) as { arity: number | null }).arity : null;
    for (const r of hierarchyMembers(p, t.container_id, t.name, t.kind, arity)) {
      if (ids.has(r.id)) continue;
      ids.add(r.id);
      defSite.set(r.id, `${r.path}:${r.name_line}`);
      related++;
      const owner = symbolById(p, r.id);
      relatedDecls.push({
        path: r.path, name: t.name, line: r.name_line, col: r.name_col, end_col: r.name_col + t.name.length,
        role: r.ancestor ? 'overridden' : 'override', confidence: r.file_id === t.file_id ? 'resolved' : 'imported', symbol_id: r.id,
        enclosing_name: owner?.container_name ?? null, enclosing_container: null,
      });
    }
  }

  // an import or export of a merged name (`interface X` + `const X`) brings both meanings: it is a
  // reference of the other declarations too (link.ts binds it to the value)
  const mergedSiblings: number[] = [];
  const sameName = p.db.prepare('SELECT id FROM symbols WHERE file_id = ? AND name = ? AND +container_id IS ? AND local = 0');
  for (const t of targets) {
    checkDeadline();
    if (t.local) continue;
    const rows = sameName.all(t.file_id, t.name, t.container_id) as { id: number }[];
    for (const r of rows) {
      if (ids.has(r.id)) continue;
      mergedSiblings.push(r.id);
      defSite.set(r.id, `${t.path}:${t.name_line}`);
    }
  }
  const idList = [...ids];
  const select = `SELECT f.path, r.name, r.line, r.col, r.end_col, r.role, r.confidence, r.symbol_id,
      e.name AS enclosing_name, e.container_name AS enclosing_container
    FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols e ON e.id = r.enclosing_id`;
  const facts = (p.db
    .prepare(`${select} WHERE r.symbol_id IN (${idList.map(() => '?').join(',')})`)
    .all(...idList) as RefRow[]).concat(relatedDecls).concat(mergedSiblings.length === 0 ? [] : p.db
    .prepare(`${select} WHERE r.symbol_id IN (${mergedSiblings.map(() => '?').join(',')}) AND r.role IN ('import', 'export')`)
    .all(...mergedSiblings) as RefRow[]);
  let guesses: RefRow[] = [];
  const wantGuesses = args.include_guesses !== false;
  const names = [...new Set(targets.map((t) => t.name))];
  for (const name of names) {
    checkDeadline();
    const memberTarget = targets.some((t) => t.name === name && MEMBER_KINDS.has(t.kind));
    const globalTarget = targets.some((t) => t.name === name && t.container_id === null);
    const kinds = [...(memberTarget ? ["'member'", "'member_of_import'"] : []), ...(globalTarget ? ["'unbound'", "'import'"] : [])];
    if (kinds.length === 0) continue;
    // a top-level name may also be a guess as `pkg.Name`, where the package declares it in several
    // files (Go build variants)
    const inPackage = globalTarget && !memberTarget
      ? ` OR (r.target_kind = 'member_of_import' AND (SELECT status FROM imports i WHERE i.id = r.import_id) = 'module')` : '';
    const rows = p.db
      .prepare(`${select} WHERE r.name = ? AND r.symbol_id IS NULL AND r.confidence = 'name_match' AND (r.target_kind IN (${kinds.join(',')})${inPackage})`)
      .all(name) as RefRow[];
    guesses = guesses.concat(rows);
  }
  // one site, one answer: `x.m` on a union `A | B` has a row for A.m and one for B.m, and both may
  // be related to the asked symbol (the first one kept: resolved before imported)
  // guesses nearest the definition first: code beside it (its package, its tests) is likelier to
  // hold its objects than a vendored bundle elsewhere (agent trial tr49: `.replace` on strings in a
  // docs bundle came before the set's own tests)
  const near = nearness(targets.map((t) => t.path));
  const sorted = (wantGuesses ? facts.concat(guesses) : facts).sort(
    (a, b) => ORDER[a.confidence] - ORDER[b.confidence] || (a.confidence === 'name_match' ? near(b.path) - near(a.path) : 0) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || a.col - b.col,
  );
  const sites = new Set<string>();
  const rows = sorted.filter((r) => {
    const k = `${r.path}:${r.line}:${r.col}:${r.role}`;
    if (sites.has(k)) return false;
    sites.add(k);
    return true;
  });
  const counts = { resolved: 0, imported: 0, name_match: 0 };
  for (const r of rows) counts[r.confidence]++;
  if (!wantGuesses) counts.name_match = guesses.filter((g) => !sites.has(`${g.path}:${g.line}:${g.col}:${g.role}`)).length;
  const page = paginate(rows, args.offset, args.limit);
  return {
    items: page.items.map((r) => ({
      file: r.path,
      line: r.line,
      column: r.col,
      end_line: r.line,
      end_column: r.end_col,
      name: r.name,
      kind: r.role,
      container: r.enclosing_name ? (r.enclosing_container ? `${r.enclosing_container}.${r.enclosing_name}` : r.enclosing_name) : null,
      confidence: r.confidence,
      definition: r.symbol_id != null ? defSite.get(r.symbol_id) ?? null : null,
      snippet: p.snippet(r.path, r.line),
    })),
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    next_offset: page.next_offset,
    definitions: declarations.slice(0, 20).map((t) => toDefinition(t, 'resolved')),
    counts,
    note: [
      targets.length > 1 ? `${targets.length} definitions share this name; pass file/line/column of one to narrow.` : '',
      related > 0 ? `Includes ${related} overriding, overridden or implementing member(s) (kind override/overridden) and their references; \`definition\` says which.` : '',
      counts.name_match > 0
        ? `${counts.name_match} name_match results are guesses: same name, but the object's type is unknown without a type checker${wantGuesses ? '' : ' (left out: include_guesses is false)'}.`
        : '',
    ].filter(Boolean).join(' ') || 'all results are resolved through scopes and imports',
  };
}

function pickTargets(p: Project, args: { name?: string; file?: string; line?: number; column?: number }): SymbolRow[] {
  if (args.file !== undefined) {
    if (args.line === undefined) throw new UserError('`file` needs `line` (and preferably `column`) of the definition', 'Example: {"file": "src/a.ts", "line": 12, "column": 17}', 'missing_argument');
    const fileId = requireFile(p, args.file);
    const own = symbolAtName(p, fileId, args.line, args.column);
    if (own && (!args.name || own.name === args.name || args.name.endsWith('.' + own.name))) return [own];
    if (args.column !== undefined) {
      // a usage site works too: follow it to its definition
      const ref = refAt(p, fileId, args.line, args.column);
      if (ref?.symbol_id != null) {
        const s = symbolById(p, ref.symbol_id);
        if (s) return [s];
      }
    }
    if (args.name) {
      const near = p.db
        .prepare(`SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ? AND s.name = ? AND s.line <= ? AND s.end_line >= ? ORDER BY s.line DESC`)
        .all(fileId, args.name.split('.').pop(), args.line, args.line) as SymbolRow[];
      if (near[0]) return [near[0]];
    }
    throw new UserError(
      `no definition${args.name ? ` of '${quote(args.name)}'` : ''} at ${quote(args.file)}:${args.line}${args.column ? ':' + args.column : ''}`,
      'Pass the position of the definition\'s name as returned by find_definitions (line and column are 1-based).',
      'no_symbol_at_position',
    );
  }
  if (!args.name) throw new UserError('pass `name`, or `file` + `line` + `column` of a definition', 'Example: {"name": "parseConfig"}', 'missing_argument');
  const rows = symbolsByName(p, args.name);
  if (rows.length > 0) return rows;
  const local = symbolsByName(p, args.name, { includeLocal: true }); // a function declared inside another one
  // nothing declared by that name: what imports call by it, as find_definitions finds it (`_SupportsRead`
  // of `SupportsRead as _SupportsRead`: agent trial tr102 had find_definitions find it and find_references not)
  return local.length > 0 ? local : importedAs(p, args.name);
}

/**
 * Members related to `container.name` the way TypeScript relates them: the same-named members of
 * its ancestors (what it overrides or implements), and every member that overrides or implements
 * one of those in a descendant. Two members that merely share a name in unrelated branches are not
 * related.
 */
type Related = { id: number; path: string; name_line: number; name_col: number; file_id: number; ancestor: boolean };
function hierarchyMembers(p: Project, container: number, name: string, kind: string, arity: number | null = null): Related[] {
  // (the member types of a union alias are not bases: `type S = A | B` relates nothing)
  const up = p.db.prepare('SELECT base_symbol_id AS id FROM bases WHERE symbol_id = ? AND base_symbol_id IS NOT NULL AND is_union = 0');
  const down = p.db.prepare('SELECT symbol_id AS id FROM bases WHERE base_symbol_id = ? AND is_union = 0');
  const memberOf = p.db.prepare(
    'SELECT s.id, f.path, s.name_line, s.name_col, s.file_id, s.kind, s.arity FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.container_id = ? AND s.name = ? AND s.is_static = 0',
  );
  // where a class has a field and a method of one name (Java `name`, `name()`), only members of the
  // same kind are related; elsewhere a property may implement a method signature (TypeScript)
  // and the same arity where overloads are told apart by it (an override takes what it overrides)
  type Row = Omit<Related, 'ancestor'> & { kind: string; arity: number | null };
  const sameKind = (rows: Row[]) => rows.filter((r) => (r.kind === 'method') === (kind === 'method') && (arity === null || r.arity === arity));
  const strict = sameKind(memberOf.all(container, name) as Row[]).length < (memberOf.all(container, name) as Row[]).length;
  const ofKind = (rows: Row[]) => {
    const same = sameKind(rows);
    return same.length > 0 || strict ? same : rows;
  };
  const walk = (start: number[], edge: typeof up): number[] => {
    const seen = new Set<number>(start);
    const queue = [...start];
    while (queue.length > 0 && seen.size < 500) {
      checkDeadline();
      for (const r of edge.all(queue.shift()!) as { id: number }[]) {
        if (!seen.has(r.id)) {
          seen.add(r.id);
          queue.push(r.id);
        }
      }
    }
    return [...seen];
  };
  // roots: the container and its ancestors that declare the member
  const ancestors = walk([container], up);
  const roots = ancestors.filter((c) => c === container || ofKind(memberOf.all(c, name) as Row[]).length > 0);
  const out: Related[] = [];
  for (const c of walk(roots, down)) {
    checkDeadline();
    if (c === container) continue;
    for (const r of ofKind(memberOf.all(c, name) as Row[])) out.push({ id: r.id, path: r.path, name_line: r.name_line, name_col: r.name_col, file_id: r.file_id, ancestor: ancestors.includes(c) });
  }
  return out;
}

/**
 * Overloads and merged declarations (same name, same scope, same file, same meaning) are one
 * symbol. As in TypeScript, `interface X` and `const X` share a name but not a meaning: the const's
 * references are value uses, the interface's are type uses.
 */
function declarationGroup(p: Project, s: SymbolRow): number[] {
  if (s.local) return [s.id];
  const rows = p.db
    // (`+container_id`: through the (file, name) index, not the container one, where every top-level symbol is NULL)
    .prepare(`SELECT id, kind, arity, is_static FROM symbols WHERE file_id = ? AND name = ? AND +container_id IS ? AND local = 0`)
    .all(s.file_id, s.name, s.container_id) as { id: number; kind: string; arity: number | null; is_static: number }[];
  const meaning = meaningOf(s.kind);
  // a field and a method may share a name (Java `name` and `name()`): they are different members;
  // where overloads are told apart by their parameters (Java), those of another arity are too
  const byArity = languageFor(s.path)?.overloadsByArity === true;
  const arity = rows.find((r) => r.id === s.id)?.arity ?? null;
  // and a static member is not the instance member of the same name (`static now` / `now`)
  const sameMember = (r: { kind: string; arity: number | null; is_static: number }) =>
    !MEMBER_KINDS.has(s.kind) || ((r.kind === 'method') === (s.kind === 'method') && (!byArity || r.arity === arity) && !r.is_static === !s.is_static);
  return rows.filter((r) => r.id === s.id || (sameMember(r) && meaningOf(r.kind).some((m) => meaning.includes(m)))).map((r) => r.id);
}

export function meaningOf(kind: string): ('value' | 'type')[] {
  if (kind === 'interface' || kind === 'type' || kind === 'trait' || kind === 'module') return ['type'];
  if (kind === 'class' || kind === 'enum' || kind === 'namespace' || kind === 'struct') return ['value', 'type'];
  return ['value'];
}

/** How many leading folders a file shares with the nearest of the definitions (memoised per path). */
function nearness(defPaths: string[]): (file: string) => number {
  const defs = defPaths.map((d) => d.split('/').slice(0, -1));
  const memo = new Map<string, number>();
  return (file) => {
    let n = memo.get(file);
    if (n === undefined) {
      const dirs = file.split('/').slice(0, -1);
      n = 0;
      for (const d of defs) {
        let k = 0;
        while (k < d.length && k < dirs.length && d[k] === dirs[k]) k++;
        n = Math.max(n, k);
      }
      memo.set(file, n);
    }
    return n;
  };
}
