/**
 * Packages: files that share one top-level scope (Go directories, Java packages), and the
 * wildcard imports a file's unknown names may come from.
 */
import { languageFor } from '../languages.js';
import type { LinkContext } from './context.js';

export function readPackages(ctx: LinkContext): void {
  const { packageKey, packageFiles } = ctx;
  for (const f of ctx.files) {
    const mode = languageFor(f.path)?.packageScope;
    if (!mode) continue;
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    const key = mode === 'directory' || f.package === null ? `${dir}\0${f.package ?? ''}` : f.package;
    packageKey.set(f.id, key);
    let list = packageFiles.get(key);
    if (!list) packageFiles.set(key, (list = []));
    list.push(f.id);
  }
}

/** the top-level declarations named `name` in the package of a file (methods are not top-level) */
export function inPackage(ctx: LinkContext, fileId: number, name: string): number[] {
  const key = ctx.packageKey.get(fileId);
  if (key === undefined) return [];
  let names = ctx.packageNames.get(key);
  if (!names) {
    ctx.packageNames.set(key, (names = new Map()));
    for (const f of ctx.packageFiles.get(key)!) {
      for (const s of ctx.topLevelOf.all(f) as { id: number; name: string }[]) {
        const same = names.get(s.name);
        if (same) same.push(s.id);
        else names.set(s.name, [s.id]);
      }
    }
  }
  return names.get(name) ?? [];
}

export function readWildcards(ctx: LinkContext): void {
  const { wildcards } = ctx;
  if (ctx.scope) return; // (read per file as they are reached)
  for (const i of ctx.imports) {
    if (i.kind !== 'wildcard') continue;
    let list = wildcards.get(i.file_id);
    if (!list) wildcards.set(i.file_id, (list = []));
    list.push(i);
  }
}
