/**
 * Module specifiers to files of the project, through each language's resolver (cached per importer).
 */
import { languageFor } from '../languages.js';
import type { LinkContext, Module } from './context.js';

export const resolverOf = (ctx: LinkContext, fileId: number) => ctx.resolvers.get(languageFor(ctx.pathById.get(fileId)!)?.resolver ?? '');

export function resolveModule(ctx: LinkContext, fileId: number, spec: string, scope?: string | null): Module | 'external' | 'unresolved' {
  const { idByPath } = ctx;
  const importer = ctx.pathById.get(fileId)!;
  const key = `${importer}\0${spec}\0${scope ?? ''}`;
  let hit = ctx.moduleCache.get(key);
  if (hit === undefined) {
    const resolver = resolverOf(ctx, fileId);
    const r = resolver ? resolver(importer, spec, scope ? scope.split('::') : undefined) : { unresolved: 'no resolver' };
    if ('file' in r) hit = idByPath.has(r.file) ? { module: idByPath.get(r.file)!, rest: r.rest ?? [] } : 'unresolved';
    else if ('package' in r) {
      const ids = r.package.map((f) => idByPath.get(f)).filter((id): id is number => id !== undefined);
      hit = ids.length > 0 ? { module: { files: ids }, rest: r.rest ?? [] } : 'unresolved';
    } else hit = 'external' in r ? 'external' : 'unresolved';
    // a path may start with a name the file itself declares or imports (Rust `use Kind::*;`)
    const row = languageFor(importer);
    if (hit === 'external' && !scope && row?.pathsStartInScope && row.pathSeparator) {
      const segs = spec.split(row.pathSeparator);
      if ((ctx.exportsByFile.get(fileId) ?? []).some((e) => e.name === segs[0])) hit = { module: fileId, rest: segs };
    }
    ctx.moduleCache.set(key, hit);
  }
  return hit;
}
