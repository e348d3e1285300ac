/**
 * What an import names: through the module graph (re-exports, `export *`, default and namespace
 * exports), a package scope, or the members of what another import names. One module because
 * these recurse into each other (an export through an import through an export): modules here
 * import only downward (test/imports.test.ts).
 */
import { type ImportRow, type LinkContext, type ScopeVia, type Target, VALUE_KINDS } from './context.js';
import { findMember } from './members.js';
import { resolveModule, resolverOf } from './modules.js';
import { inPackage } from './packages.js';

/** `(arg:param)`: the type a function passed as argument `arg` gets for its parameter `param`; `(arg:-1)`: the type an object literal passed as `arg` is written for */
const CALLBACK = /^\((\d+):(-1|\d+)\)$/;

export function resolveImport(ctx: LinkContext, imp: ImportRow, seen: Set<string>): Target {
  const { importTargets } = ctx;
  if (importTargets.has(imp.id)) return importTargets.get(imp.id)!;
  let t: Target = null;
  if (imp.kind === 'scope') t = resolveScope(ctx, imp, seen);
  else if (imp.base_import_id != null) {
    // `a.b.c` after `import a`, `T::new` after `use m::T`, `f()`: a name in what another import names
    const base = ctx.importById.get(imp.base_import_id);
    t = resolveIn(ctx, base ? resolveImport(ctx, base, seen) : null, imp.imported, seen);
  } else {
    const mod = resolveModule(ctx, imp.file_id, imp.source, imp.scope);
    if (typeof mod !== 'string') {
      t = typeof mod.module === 'number' ? { module: mod.module } : mod.module;
      for (const name of mod.rest) t = resolveIn(ctx, t, name, seen);
      if (imp.imported !== '*') t = resolveIn(ctx, t, imp.imported, seen);
    }
  }
  // a name a module does not define may be its submodule (Python `from . import x`, `a.b.c`)
  if (!t && imp.imported !== '*' && !/^[([]/.test(imp.imported)) {
    const spec = specOf(ctx, imp);
    const mod = spec !== undefined ? resolveModule(ctx, imp.file_id, spec, imp.scope) : undefined;
    if (mod && typeof mod !== 'string' && mod.rest.length === 0) t = typeof mod.module === 'number' ? { module: mod.module } : mod.module;
  }
  importTargets.set(imp.id, t);
  return t;
}

export function isSubmodule(ctx: LinkContext, imp: ImportRow, name: string): boolean {
  const spec = specOf(ctx, imp);
  const join = resolverOf(ctx, imp.file_id)?.join;
  if (spec === undefined || !join) return false;
  const mod = resolveModule(ctx, imp.file_id, join(spec, name), imp.scope);
  return typeof mod !== 'string';
}

/** The module specifier an import names, for resolvers that can join a name onto one (Python `a.b` + `c`). */
function specOf(ctx: LinkContext, imp: ImportRow, depth = 0): string | undefined {
  const join = resolverOf(ctx, imp.file_id)?.join;
  if (!join || imp.kind !== 'import' || depth > 16) return undefined;
  if (imp.base_import_id == null) return imp.imported === '*' ? imp.source : join(imp.source, imp.imported);
  const base = ctx.importById.get(imp.base_import_id);
  const parent = base ? specOf(ctx, base, depth + 1) : undefined;
  return parent !== undefined && !/^[([]/.test(imp.imported) ? join(parent, imp.imported) : undefined;
}

/**
 * A name the file uses without declaring it, in a language whose files share a package scope:
 * `a.b.c` is `a` in the package, else in a wildcard import, then `b` and `c` among its members;
 * failing that, a qualified name (Java `com.acme.Util`) through the resolver. Found nowhere in
 * the project, it is declared outside it (Go's predeclared names, java.lang, a library).
 */
function resolveScope(ctx: LinkContext, imp: ImportRow, seen: Set<string>): Target {
  const [first, ...rest] = imp.source.split('.') as [string, ...string[]];
  let t: Target = null;
  let via: ScopeVia = 'missing';
  const own = inPackage(ctx, imp.file_id, first);
  if (own.length === 1) [t, via] = [{ symbol: own[0]! }, 'package'];
  else if (own.length > 1) via = 'unknown'; // declared twice (build variants): no single answer
  for (const w of via === 'missing' ? ctx.wildcards.get(imp.file_id) ?? [] : []) {
    const found = resolveIn(ctx, resolveImport(ctx, w, seen), first, seen, true);
    if (found) {
      [t, via] = [found, 'import'];
      break;
    }
  }
  if (t) {
    for (const name of rest) t = resolveIn(ctx, t, name, seen);
    if (!t) via = 'unknown';
  } else if (via === 'missing') {
    // a qualified name (`com.acme.Util.run()`) or a package name alone (`java2d` in
    // `import java2d.Util.State;`), through the resolver
    const mod = resolveModule(ctx, imp.file_id, imp.source);
    if (typeof mod !== 'string') {
      t = typeof mod.module === 'number' ? { module: mod.module } : mod.module;
      for (const name of mod.rest) t = resolveIn(ctx, t, name, seen);
      via = t ? 'import' : 'unknown';
    }
  }
  ctx.scopeVia.set(imp.id, via);
  return t;
}

/** `name` inside a target: a module's or a package's exports (only those `*` takes, for a wildcard), a symbol's members; `()`: what calling it gives */
export function resolveIn(ctx: LinkContext, t: Target, name: string, seen: Set<string>, star = false): Target {
  if (!t) return null;
  if ('module' in t) return resolveExport(ctx, t.module, name, seen, star);
  if ('files' in t) {
    let hit: Target = null;
    for (const f of t.files) {
      const found = resolveExport(ctx, f, name, new Set(seen), star);
      if (!found) continue;
      if (hit && JSON.stringify(hit) !== JSON.stringify(found)) return null; // two files declare it: no single answer
      hit = found;
    }
    return hit;
  }
  if (name === '[]') {
    // the elements of the collection a value holds or a function returns
    const e = ctx.elementsOf.get(t.symbol) as { symbol: number | null; imp: number | null } | undefined;
    return typeFact(ctx, e?.symbol, e?.imp, seen);
  }
  if (name === '()') {
    // a class or struct called makes an instance; a function gives the type it declares it returns
    const s = ctx.callInfo.get(t.symbol) as { kind: string; returns: number | null; returnsImport: number | null } | undefined;
    if (!s) return null;
    if (['class', 'struct', 'record', 'enum'].includes(s.kind)) return t;
    if (VALUE_KINDS.has(s.kind)) return null; // a value's `returns` is its own type, not a call's result
    return typeFact(ctx, s.returns, s.returnsImport, seen);
  }
  const cb = CALLBACK.exec(name);
  if (cb) {
    // what a function passed to it gets as a parameter; a class called with `new`: its constructor's
    const s = ctx.callInfo.get(t.symbol) as { kind: string } | undefined;
    const fn = s && ['class', 'struct', 'record'].includes(s.kind) ? findMember(ctx, t.symbol, 'constructor', true) : t.symbol;
    if (typeof fn !== 'number') return null;
    const c = ctx.callbackOf.get(Number(cb[1]), Number(cb[2]), fn) as { type: number | null; imp: number | null } | undefined;
    return typeFact(ctx, c?.type, c?.imp, seen);
  }
  const m = findMember(ctx, t.symbol, name);
  if (typeof m === 'number') return { symbol: m };
  // an enum constant is a value of its enum (Java `Role.ADMIN.label()`); a variable or a field,
  // of the type it declares (`a.field.member` across files)
  const e = (ctx.enumOf.get(t.symbol) as { id: number } | undefined)?.id ?? valueType(ctx, t.symbol, seen);
  return e != null ? resolveIn(ctx, { symbol: e }, name, seen) : null;
}

function resolveExport(ctx: LinkContext, fileId: number, name: string, seen: Set<string>, star = false): Target {
  const key = `${fileId}\0${name}`;
  if (seen.has(key)) return null; // export cycle
  seen.add(key);
  const list = ctx.exportsByFile.get(fileId) ?? [];
  for (const e of list) {
    if (e.name !== name || (star && e.hidden)) continue;
    if (e.kind === 'symbol' && e.symbol_id != null) return { symbol: e.symbol_id };
    if (e.kind === 'import' && e.import_id != null) {
      const imp = ctx.importById.get(e.import_id);
      if (imp) return resolveImport(ctx, imp, seen);
    }
  }
  if (name === 'default') return null; // `export *` never re-exports a default
  for (const e of list) {
    if (e.kind !== 'star' || !e.source) continue;
    const mod = resolveModule(ctx, fileId, e.source);
    if (typeof mod === 'string' || typeof mod.module !== 'number') continue;
    let from: Target = { module: mod.module };
    for (const r of mod.rest) from = resolveIn(ctx, from, r, seen);
    const t = resolveIn(ctx, from, name, seen, true);
    if (t) return t;
  }
  return null;
}

/** the type a variable, field or constant declares (stored as its `returns`), as a symbol */
export function valueType(ctx: LinkContext, symbol: number, seen: Set<string>): number | null {
  const s = ctx.callInfo.get(symbol) as { kind: string; returns: number | null; returnsImport: number | null } | undefined;
  if (!s || !VALUE_KINDS.has(s.kind)) return null;
  return typeFact(ctx, s.returns, s.returnsImport, seen)?.symbol ?? null;
}

/** A type stated as a symbol of its file, or as an import of it (resolved now): the symbol. */
function typeFact(ctx: LinkContext, symbol: number | null | undefined, importId: number | null | undefined, seen: Set<string>): { symbol: number } | null {
  if (symbol != null) return { symbol };
  const imp = importId != null ? ctx.importById.get(importId) : undefined;
  const r = imp ? resolveImport(ctx, imp, seen) : null;
  return r && 'symbol' in r ? r : null;
}
