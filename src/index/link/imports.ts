/**
 * Every import's resolution stored (its status, file and symbol), and counted.
 */
import type { ImportRow, LinkContext } from './context.js';
import { resolveModule } from './modules.js';
import { resolveImport } from './resolve.js';

export type ImportCounts = { resolved: number; external: number; unresolved: number };

export function storeImportStatus(ctx: LinkContext): ImportCounts {
  let resolved = 0, external = 0, unresolved = 0;
  const { fileOf } = ctx;
  // a re-link after one file changed leaves nearly every import as it was: write only what changed
  const store = (imp: ImportRow, status: string, file: number | null, symbol: number | null) => {
    if (imp.status !== status || imp.resolved_file_id !== file || imp.resolved_symbol_id !== symbol) ctx.updImport.run(status, file, symbol, imp.id);
  };
  for (const imp of ctx.imports) {
    const t = resolveImport(ctx, imp, new Set());
    const via = ctx.scopeVia.get(imp.id);
    const mod = imp.kind === 'scope' || imp.base_import_id != null ? undefined : resolveModule(ctx, imp.file_id, imp.source, imp.scope);
    const modFile = mod && typeof mod !== 'string' && typeof mod.module === 'number' ? mod.module : null;
    let status: string;
    if (t && 'symbol' in t) {
      status = 'symbol';
      store(imp, status, modFile ?? (fileOf.get(t.symbol) as { id: number }).id, t.symbol);
    } else if (t) {
      status = 'module';
      store(imp, status, ('module' in t ? t.module : t.files[0]) ?? null, null);
    } else {
      status = via === 'missing' || mod === 'external' ? 'external' : 'unresolved';
      store(imp, status, modFile, null);
    }
    // names taken from the package scope, or members reached through another import, are not
    // imports anyone wrote: they are not counted
    if (imp.kind === 'scope' || imp.base_import_id != null) continue;
    if (status === 'external') external++;
    else if (status === 'unresolved') unresolved++;
    else resolved++;
  }
  return { resolved, external, unresolved };
}
