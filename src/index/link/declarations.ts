/**
 * Declarations whose container, base or declared result is an import: pointed at the symbol the
 * import names, before anything looks members up through them.
 */
import type { LinkContext } from './context.js';
import { resolveImport } from './resolve.js';

/** the containers, bases and declared results found in other files, cleared (the files in scope) */
export function resetLinks(ctx: LinkContext): void {
  const { db } = ctx;
  db.exec(`UPDATE symbols SET container_id = NULL WHERE container_import_id IS NOT NULL${ctx.inScope('file_id')}`);
  db.exec(`UPDATE symbols SET returns_symbol_id = NULL WHERE returns_import_id IS NOT NULL${ctx.inScope('file_id')}`);
  db.exec(`UPDATE bases SET symbol_id = NULL WHERE symbol_import_id IS NOT NULL${ctx.inScope('file_id')}`);
  db.exec(`UPDATE bases SET base_symbol_id = NULL WHERE base_import_id IS NOT NULL${ctx.inScope('file_id')}`);
}

/** Go methods declared in another file than their receiver's type: first, so that members are found through them */
export function attachImportedContainers(ctx: LinkContext): void {
  const { db } = ctx;
  const setContainer = db.prepare('UPDATE symbols SET container_id = ?, container_name = (SELECT name FROM symbols WHERE id = ?) WHERE id = ?');
  for (const s of db.prepare(`SELECT id, container_import_id AS imp FROM symbols WHERE container_import_id IS NOT NULL${ctx.inScope('file_id')}`).all() as { id: number; imp: number }[]) {
    const imp = ctx.importById.get(s.imp);
    const t = imp ? resolveImport(ctx, imp, new Set()) : null;
    const owner = t && 'symbol' in t ? t.symbol : null;
    setContainer.run(owner, owner, s.id);
  }
}

/** Rust `impl Trait for T` with T imported; bases and declared results in other files */
export function resolveImportedTypes(ctx: LinkContext): void {
  const { db, importById } = ctx;
  const setDerived = db.prepare('UPDATE bases SET symbol_id = ? WHERE rowid = ?');
  for (const b of db.prepare(`SELECT rowid, symbol_import_id AS imp FROM bases WHERE symbol_import_id IS NOT NULL${ctx.inScope('file_id')}`).all() as { rowid: number; imp: number }[]) {
    const imp = importById.get(b.imp);
    const t = imp ? resolveImport(ctx, imp, new Set()) : null;
    setDerived.run(t && 'symbol' in t ? t.symbol : null, b.rowid);
  }
  const setBase = db.prepare('UPDATE bases SET base_symbol_id = ? WHERE rowid = ?');
  for (const b of db.prepare(`SELECT rowid, base_import_id AS imp FROM bases WHERE base_import_id IS NOT NULL${ctx.inScope('file_id')}`).all() as { rowid: number; imp: number }[]) {
    const imp = importById.get(b.imp);
    const t = imp ? resolveImport(ctx, imp, new Set()) : null;
    setBase.run(t && 'symbol' in t ? t.symbol : null, b.rowid);
  }
  const setReturns = db.prepare('UPDATE symbols SET returns_symbol_id = ? WHERE id = ?');
  for (const s of db.prepare(`SELECT id, returns_import_id AS imp FROM symbols WHERE returns_import_id IS NOT NULL${ctx.inScope('file_id')}`).all() as { id: number; imp: number }[]) {
    const imp = importById.get(s.imp);
    const t = imp ? resolveImport(ctx, imp, new Set()) : null;
    setReturns.run(t && 'symbol' in t ? t.symbol : null, s.id);
  }
}

/** inheritance from an imported base: point the base at the symbol the import resolved to */
export function pointBasesAtImports(ctx: LinkContext): void {
  ctx.memberCache.clear();
  ctx.db.exec(`UPDATE bases SET base_symbol_id = (SELECT resolved_symbol_id FROM imports i WHERE i.id = bases.base_import_id)
      WHERE base_import_id IS NOT NULL${ctx.inScope('file_id')}`);
}
