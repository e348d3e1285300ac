/**
 * References that go through imports, pointed at the symbols the imports resolved to: plain
 * imported names, merged declarations by meaning, overloads by arity, members of imported
 * owners, and (Java) names a class inherits.
 */
import { languageFor } from '../languages.js';
import type { LinkContext } from './context.js';
import { findMember, unionMemberSymbols } from './members.js';
import { isSubmodule, resolveIn, valueType } from './resolve.js';

export type MemberRef = {
  id: number; name: string; role: string; import_id: number; args: number | null; access: string | null;
  /** what the last link wrote (a re-link rewrites only the rows whose answer changed) */
  symbol_id: number | null; confidence: string | null;
};

/** `ns.name`, `x.m` through an import (read before linking writes any reference) */
export function readMemberRefs(ctx: LinkContext): MemberRef[] {
  return ctx.db.prepare(
    `SELECT r.id, r.name, r.role, r.import_id, r.args, r.access, r.symbol_id, r.confidence FROM refs r WHERE r.target_kind = 'member_of_import' AND r.derived = 0${ctx.inScope('r.file_id')}`,
  ).all() as MemberRef[];
}

/** references through an import: the import's symbol, or nothing outside the project */
export function pointImportRefs(ctx: LinkContext): void {
  const { db } = ctx;
  // (one look-up of the import per row; rows that already hold the answer are not written again:
  // after one file changed, nearly all)
  db.exec(`UPDATE refs SET symbol_id = i.resolved_symbol_id, confidence = IIF(i.resolved_symbol_id IS NULL, NULL, 'imported')
      FROM imports i WHERE i.id = refs.import_id AND refs.target_kind = 'import'
        AND (refs.symbol_id IS NOT i.resolved_symbol_id OR refs.confidence IS NOT IIF(i.resolved_symbol_id IS NULL, NULL, 'imported'))${ctx.inScope('refs.file_id')}`);
  // a name of the file's own package is resolved by scope, as in the file itself; a name declared
  // twice in the package (build variants) is a guess between them
  const byScope = db.prepare(`UPDATE refs SET confidence = ? WHERE import_id = ? AND target_kind = 'import'`);
  for (const { id } of ctx.imports) {
    const via = ctx.scopeVia.get(id);
    if (via === 'package') byScope.run('resolved', id);
    else if (via === 'unknown') byScope.run('name_match', id);
  }
}

/**
 * An import names a symbol, but merged declarations (`interface X` + `const X`) give the name
 * two meanings: a use in a type position means the type, any other use the value.
 */
export function splitMergedMeanings(ctx: LinkContext): void {
  const { db } = ctx;
  const merged = db.prepare(`SELECT t.id, t.kind FROM symbols s JOIN symbols t ON t.file_id = s.file_id AND t.name = s.name
      AND t.container_id IS s.container_id AND t.local = 0 WHERE s.id = ? ORDER BY t.id`);
  const byMeaning = db.prepare(`UPDATE refs SET symbol_id = ? WHERE import_id = ? AND target_kind = 'import' AND (role = 'type') = ?`);
  // (`+t.container_id`: not through the container index, which holds every top-level symbol under NULL;
  // a re-link of a few files asks about each of their imports instead)
  const mergedIds = ctx.scope ? undefined : new Set((db.prepare(`SELECT s.id FROM symbols s WHERE s.local = 0 AND EXISTS (SELECT 1 FROM symbols t
      WHERE t.file_id = s.file_id AND t.name = s.name AND +t.container_id IS s.container_id AND t.local = 0 AND t.id <> s.id)`).all() as { id: number }[]).map((r) => r.id));
  for (const imp of ctx.imports) {
    const t = ctx.importTargets.get(imp.id);
    if (!t || !('symbol' in t) || (mergedIds && !mergedIds.has(t.symbol))) continue;
    const decls = merged.all(t.symbol) as { id: number; kind: string }[];
    // (the symbol itself among them: it is not local, as the whole link's list requires)
    if (decls.length < 2 || !decls.some((d) => d.id === t.symbol)) continue;
    const typeDecl = decls.find((d) => ['interface', 'type', 'class', 'enum', 'namespace'].includes(d.kind));
    const valueDecl = decls.find((d) => !['interface', 'type'].includes(d.kind));
    if (typeDecl) byMeaning.run(typeDecl.id, imp.id, 1);
    if (valueDecl) byMeaning.run(valueDecl.id, imp.id, 0);
  }
}

/**
 * A call through an import of an overloaded method (Java `import static a.B.pad;`): the
 * overload that takes the call's number of arguments (after the merged declarations).
 */
export function pickOverloads(ctx: LinkContext): void {
  const overloaded = ctx.db.prepare(`SELECT r.id, r.args, s.container_id AS container, s.name FROM refs r JOIN symbols s ON s.id = r.symbol_id
      WHERE r.target_kind = 'import' AND r.args IS NOT NULL AND s.kind = 'method' AND s.container_id IS NOT NULL AND s.arity IS NOT NULL${ctx.inScope('r.file_id')}`)
    .all() as { id: number; args: number; container: number; name: string }[];
  for (const r of overloaded) {
    const m = findMember(ctx, r.container, r.name, true, r.args);
    if (m === null) ctx.updRef.run(null, 'name_match', r.id);
    else if (typeof m === 'number') ctx.updRef.run(m, 'imported', r.id);
  }
}

/**
 * `ns.name` / `ImportedClass.member` / `x.m` with `x: ImportedType`: look the member up in
 * what the import resolved to, through its bases.
 */
export function resolveMemberRefs(ctx: LinkContext, memberRefs: MemberRef[]): void {
  const { db, importTargets, enumOf, updRef, scopeVia, addDerived } = ctx;
  const status = db.prepare('SELECT status FROM imports WHERE id = ?');
  db.exec(`DELETE FROM refs WHERE derived = 1${ctx.inScope('file_id')}`);
  for (const r of memberRefs) {
    const t = importTargets.get(r.import_id);
    let symbol: number | null = null;
    let others: number[] = [];
    let external = !t && (status.get(r.import_id) as { status: string }).status === 'external';
    if (t && !('symbol' in t)) {
      const e = resolveIn(ctx, t, r.name, new Set());
      if (e && 'symbol' in e) symbol = e.symbol;
      // a module (Rust `a::m::f`, Python `pkg.sub.f`): a fact, but not one about a symbol
      else if (e || isSubmodule(ctx, ctx.importById.get(r.import_id)!, r.name)) external = true;
    } else if (t) {
      const owner = (enumOf.get(t.symbol) as { id: number } | undefined)?.id ?? t.symbol;
      // a variable or a field of another file: a member of the type it declares, else its own
      // (an object literal's members)
      const typed = valueType(ctx, t.symbol, new Set());
      // (a variable's type is reached through an instance)
      let m = typed != null ? findMember(ctx, typed, r.name, r.role === 'call', r.args, false, 'instance') : null;
      let searched = typed;
      if (typeof m !== 'number') {
        const own = findMember(ctx, owner, r.name, r.role === 'call', r.args, false, r.access);
        if (own !== null) [m, searched] = [own, owner];
      }
      if (m === 'external') external = true;
      else symbol = m;
      if (typeof m === 'number' && searched != null) others = unionMemberSymbols(ctx, searched, r.name, r.role === 'call', r.args).filter((o) => o !== m);
    }
    const confidence = symbol == null ? (external ? null : 'name_match') : scopeVia.get(r.import_id) === 'package' ? 'resolved' : 'imported';
    // one file changed: nearly every other row keeps its answer, and writing it again is most of the cost
    if (symbol !== r.symbol_id || confidence !== r.confidence) updRef.run(symbol, confidence, r.id);
    for (const other of others) addDerived.run(other, r.id);
  }
}

/**
 * Java: a name a class body uses without declaring it, found nowhere in the package or the
 * imports, may be a member the class inherits (`run()`, `count` from a superclass).
 */
export function resolveInheritedNames(ctx: LinkContext): void {
  const { db, fileOf, containerOf, updRef } = ctx;
  const inClass = ctx.files.filter((f) => languageFor(f.path)?.membersInScope).map((f) => f.id);
  if (inClass.length > 0) {
    const rows = db.prepare(`SELECT r.id, r.file_id, r.name, r.role, r.target_kind, r.enclosing_id, r.args, i.source FROM refs r JOIN imports i ON i.id = r.import_id
        WHERE i.kind = 'scope' AND i.status = 'external' AND r.target_kind IN ('import', 'member_of_import') AND r.enclosing_id IS NOT NULL${ctx.inScope('r.file_id')}`)
      .all() as { id: number; file_id: number; name: string; role: string; target_kind: string; enclosing_id: number; args: number | null; source: string }[];
    const inClassFiles = new Set(inClass);
    // (a name that is not called is a field: in Java a method is only ever called)
    const inherited = (from: number, name: string, call: boolean, args: number | null = null): number | null => {
      for (let s: number | null = from, depth = 0; s != null && depth < 12; depth++) {
        const m = findMember(ctx, s, name, call, args, !call);
        if (typeof m === 'number') return m;
        s = (containerOf.get(s) as { id: number | null } | undefined)?.id ?? null;
      }
      return null;
    };
    for (const r of rows) {
      if (!inClassFiles.has(r.file_id)) continue;
      if (r.target_kind === 'import') {
        const m = inherited(r.enclosing_id, r.name, r.role === 'call', r.args);
        if (m != null) updRef.run(m, (fileOf.get(m) as { id: number }).id === r.file_id ? 'resolved' : 'imported', r.id);
      } else if (inherited(r.enclosing_id, r.source.split('.')[0]!, false) != null) {
        // `field.m()` on an inherited field: its type is not known here, so only a guess
        updRef.run(null, 'name_match', r.id);
      }
    }
  }
}
