/**
 * Cross-file binding: resolves every import through the module graph (re-exports, `export *`,
 * default and namespace exports) to the symbol it names, then points the references that go
 * through those imports at that symbol. Runs after every index update; it works on whole tables
 * in memory, which costs milliseconds even for thousands of files.
 */
import type { DB } from '../store/db.js';
import { languageFor } from './languages.js';
import { createResolvers } from './resolvers/index.js';

interface ImportRow { id: number; file_id: number; source: string; imported: string }
interface ExportRow { file_id: number; name: string; kind: string; symbol_id: number | null; import_id: number | null; source: string | null }
type Target = { symbol: number } | { module: number } | null;

export interface LinkStats { imports: number; resolved: number; external: number; unresolved: number; ms: number }

export function linkProject(db: DB, root: string): LinkStats {
  const t0 = performance.now();
  const files = db.prepare('SELECT id, path FROM files').all() as { id: number; path: string }[];
  const idByPath = new Map(files.map((f) => [f.path, f.id]));
  const pathById = new Map(files.map((f) => [f.id, f.path]));
  const resolvers = createResolvers(root, new Set(idByPath.keys()));
  const imports = db.prepare('SELECT id, file_id, source, imported FROM imports').all() as ImportRow[];
  const importById = new Map(imports.map((i) => [i.id, i]));
  const exportsByFile = new Map<number, ExportRow[]>();
  for (const e of db.prepare('SELECT file_id, name, kind, symbol_id, import_id, source FROM exports').all() as ExportRow[]) {
    let list = exportsByFile.get(e.file_id);
    if (!list) exportsByFile.set(e.file_id, (list = []));
    list.push(e);
  }

  const moduleCache = new Map<string, number | 'external' | 'unresolved'>();
  const resolveModule = (fileId: number, spec: string): number | 'external' | 'unresolved' => {
    const importer = pathById.get(fileId)!;
    const key = `${importer}\0${spec}`;
    let hit = moduleCache.get(key);
    if (hit === undefined) {
      const resolver = resolvers.get(languageFor(importer)?.resolver ?? '');
      const r = resolver ? resolver(importer, spec) : { unresolved: 'no resolver' };
      hit = 'file' in r ? idByPath.get(r.file)! : 'external' in r ? 'external' : 'unresolved';
      moduleCache.set(key, hit);
    }
    return hit;
  };

  const importTargets = new Map<number, Target>();
  const resolveImport = (imp: ImportRow, seen: Set<string>): Target => {
    if (importTargets.has(imp.id)) return importTargets.get(imp.id)!;
    const mod = resolveModule(imp.file_id, imp.source);
    const t = typeof mod !== 'number' ? null : imp.imported === '*' ? { module: mod } : resolveExport(mod, imp.imported, seen);
    importTargets.set(imp.id, t);
    return t;
  };
  const resolveExport = (fileId: number, name: string, seen: Set<string>): Target => {
    const key = `${fileId}\0${name}`;
    if (seen.has(key)) return null; // export cycle
    seen.add(key);
    const list = exportsByFile.get(fileId) ?? [];
    for (const e of list) {
      if (e.name !== name) continue;
      if (e.kind === 'symbol' && e.symbol_id != null) return { symbol: e.symbol_id };
      if (e.kind === 'import' && e.import_id != null) {
        const imp = importById.get(e.import_id);
        if (imp) return resolveImport(imp, seen);
      }
    }
    if (name === 'default') return null; // `export *` never re-exports a default
    for (const e of list) {
      if (e.kind !== 'star' || !e.source) continue;
      const mod = resolveModule(fileId, e.source);
      if (typeof mod !== 'number') continue;
      const t = resolveExport(mod, name, seen);
      if (t) return t;
    }
    return null;
  };

  let resolved = 0, external = 0, unresolved = 0;
  const updImport = db.prepare('UPDATE imports SET status = ?, resolved_file_id = ?, resolved_symbol_id = ? WHERE id = ?');
  const memberRefs = db.prepare(
    `SELECT r.id, r.name, r.import_id FROM refs r WHERE r.target_kind = 'member_of_import'`,
  ).all() as { id: number; name: string; import_id: number }[];
  const memberOf = db.prepare('SELECT id FROM symbols WHERE container_id = ? AND name = ? ORDER BY id LIMIT 1');
  const basesOf = db.prepare(
    `SELECT b.base_symbol_id AS base, i.status FROM bases b LEFT JOIN imports i ON i.id = b.base_import_id WHERE b.symbol_id = ?`,
  );
  const updRef = db.prepare('UPDATE refs SET symbol_id = ?, confidence = ? WHERE id = ?');
  /**
   * A member of a class or interface, or of what it extends (across files). `external` when the
   * chain reaches a base outside the project: the member is then most likely defined there.
   */
  const findMember = (owner: number, name: string): number | 'external' | null => {
    const queue = [owner];
    const seen = new Set<number>();
    let external = false;
    while (queue.length > 0 && seen.size < 64) {
      const o = queue.shift()!;
      if (seen.has(o)) continue;
      seen.add(o);
      const m = memberOf.get(o, name) as { id: number } | undefined;
      if (m) return m.id;
      for (const b of basesOf.all(o) as { base: number | null; status: string | null }[]) {
        if (b.base != null) queue.push(b.base);
        else if (b.status === 'external') external = true;
      }
    }
    return external ? 'external' : null;
  };

  db.transaction(() => {
    for (const imp of imports) {
      const t = resolveImport(imp, new Set());
      const mod = resolveModule(imp.file_id, imp.source);
      if (t && 'symbol' in t) {
        updImport.run('symbol', typeof mod === 'number' ? mod : null, t.symbol, imp.id);
        resolved++;
      } else if (t && 'module' in t) {
        updImport.run('module', t.module, null, imp.id);
        resolved++;
      } else if (mod === 'external') {
        updImport.run('external', null, null, imp.id);
        external++;
      } else {
        updImport.run('unresolved', typeof mod === 'number' ? mod : null, null, imp.id);
        unresolved++;
      }
    }
    // references through an import: the import's symbol, or nothing outside the project
    db.exec(`UPDATE refs SET
        symbol_id = (SELECT resolved_symbol_id FROM imports i WHERE i.id = refs.import_id),
        confidence = CASE WHEN (SELECT resolved_symbol_id FROM imports i WHERE i.id = refs.import_id) IS NULL THEN NULL ELSE 'imported' END
      WHERE target_kind = 'import'`);
    // An import names a symbol, but merged declarations (`interface X` + `const X`) give the name
    // two meanings: a use in a type position means the type, any other use the value.
    const merged = db.prepare(`SELECT t.id, t.kind FROM symbols s JOIN symbols t ON t.file_id = s.file_id AND t.name = s.name
      AND t.container_id IS s.container_id AND t.local = 0 WHERE s.id = ? ORDER BY t.id`);
    const byMeaning = db.prepare(`UPDATE refs SET symbol_id = ? WHERE import_id = ? AND target_kind = 'import' AND (role = 'type') = ?`);
    const mergedIds = new Set((db.prepare(`SELECT s.id FROM symbols s WHERE s.local = 0 AND EXISTS (SELECT 1 FROM symbols t
      WHERE t.file_id = s.file_id AND t.name = s.name AND t.container_id IS s.container_id AND t.local = 0 AND t.id <> s.id)`).all() as { id: number }[]).map((r) => r.id));
    for (const imp of imports) {
      const t = importTargets.get(imp.id);
      if (!t || !('symbol' in t) || !mergedIds.has(t.symbol)) continue;
      const decls = merged.all(t.symbol) as { id: number; kind: string }[];
      if (decls.length < 2) continue;
      const typeDecl = decls.find((d) => ['interface', 'type', 'class', 'enum', 'namespace'].includes(d.kind));
      const valueDecl = decls.find((d) => !['interface', 'type'].includes(d.kind));
      if (typeDecl) byMeaning.run(typeDecl.id, imp.id, 1);
      if (valueDecl) byMeaning.run(valueDecl.id, imp.id, 0);
    }
    // inheritance from an imported base: point the base at the symbol the import resolved to
    db.exec(`UPDATE bases SET base_symbol_id = (SELECT resolved_symbol_id FROM imports i WHERE i.id = bases.base_import_id)
      WHERE base_import_id IS NOT NULL`);
    // `ns.name` / `ImportedClass.member` / `x.m` with `x: ImportedType`: look the member up in
    // what the import resolved to, through its bases
    for (const r of memberRefs) {
      const t = importTargets.get(r.import_id);
      let symbol: number | null = null;
      let external = !t && resolveModule(importById.get(r.import_id)!.file_id, importById.get(r.import_id)!.source) === 'external';
      if (t && 'module' in t) {
        const e = resolveExport(t.module, r.name, new Set());
        if (e && 'symbol' in e) symbol = e.symbol;
      } else if (t && 'symbol' in t) {
        const m = findMember(t.symbol, r.name);
        if (m === 'external') external = true;
        else symbol = m;
      }
      updRef.run(symbol, symbol != null ? 'imported' : external ? null : 'name_match', r.id);
    }
  })();
  return { imports: imports.length, resolved, external, unresolved, ms: performance.now() - t0 };
}
