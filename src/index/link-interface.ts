/**
 * A file's link interface: everything the linker can read from a file while resolving ANOTHER
 * file's rows — its declarations (names, kinds, containers, declared types, bases, arity), its
 * exports and re-exports, and the imports those name (by what they say, not by row id), its
 * wildcard imports and its package. Not in it: its references and the imports only they use,
 * positions and signatures. Two versions of a file with one digest give every other file the same
 * answers, provided the file's symbols keep their ids (the declarations are listed in order, so
 * the n-th symbol of one version is the n-th of the other).
 */
import { createHash } from 'node:crypto';
import type { FileFacts, ImportFact } from './facts.js';

type Ref = { symbol: number } | { importIndex: number };

export function linkInterfaceDigest(facts: FileFacts): string {
  const imp = (i: number | undefined, depth = 0): unknown => {
    const f: ImportFact | undefined = i === undefined ? undefined : facts.imports[i];
    if (!f) return null;
    return [f.source, f.imported, f.kind ?? 'import', f.scope ?? null, f.base != null && depth < 32 ? imp(f.base, depth + 1) : null];
  };
  const ref = (r: Ref | undefined): unknown => (!r ? null : 'symbol' in r ? r.symbol : imp(r.importIndex));
  const data = {
    language: facts.language,
    package: facts.package ?? null,
    symbols: facts.symbols.map((s) => [
      s.name, s.kind, s.container, s.local, s.exported, s.isDefault, s.isStatic ?? false,
      s.containerImport != null ? imp(s.containerImport) : null,
      ref(s.returns), ref(s.elements), (s.callbacks ?? []).map((c) => [c.arg, c.param, ref(c.type)]),
      (s.bases ?? []).map(ref), (s.union ?? []).map(ref), s.arity ?? null, s.variadic ?? false,
    ]),
    exports: facts.exports.map((e) => e.kind === 'symbol' ? [e.name, 'symbol', e.symbol, e.hidden ?? false]
      : e.kind === 'import' ? [e.name, 'import', imp(e.importIndex), e.hidden ?? false] : ['*', 'star', e.source]),
    wildcards: facts.imports.flatMap((i, n) => (i.kind === 'wildcard' ? [imp(n)] : [])),
    importBases: (facts.importBases ?? []).map((b) => [imp(b.derivedImport), ref(b.base)]),
  };
  return createHash('sha1').update(JSON.stringify(data)).digest('hex');
}
