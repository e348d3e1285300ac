/**
 * Cross-file binding: resolves every import through the module graph (re-exports, `export *`,
 * default and namespace exports) to the symbol it names, then points the references that go
 * through those imports at that symbol. Runs after every index update; it works on whole tables
 * in memory, which costs milliseconds even for thousands of files.
 */
import type { DB } from '../store/db.js';
import { languageFor } from './languages.js';
import { createResolvers } from './resolvers/index.js';

interface ImportRow { id: number; file_id: number; source: string; imported: string; kind: string; scope: string | null; base_import_id: number | null }
interface ExportRow { file_id: number; name: string; kind: string; symbol_id: number | null; import_id: number | null; source: string | null; hidden: number }
/** a symbol, a module (one file), or a package (files that share one scope) */
type Target = { symbol: number } | { module: number } | { files: number[] } | null;
/** how a package-scope name was found: in the package, through an import, nowhere in the project, or ambiguously */
type ScopeVia = 'package' | 'import' | 'missing' | 'unknown';

/** kinds of symbols that hold a value: their members are those of the type they declare */
const VALUE_KINDS = new Set(['variable', 'constant', 'property']);
/** `(arg:param)`: the type a function passed as argument `arg` gets for its parameter `param`; `(arg:-1)`: the type an object literal passed as `arg` is written for */
const CALLBACK = /^\((\d+):(-1|\d+)\)$/;

export interface LinkStats { imports: number; resolved: number; external: number; unresolved: number; ms: number }

export function linkProject(db: DB, root: string): LinkStats {
  const t0 = performance.now();
  const files = db.prepare('SELECT id, path, package FROM files').all() as { id: number; path: string; package: string | null }[];
  const idByPath = new Map(files.map((f) => [f.path, f.id]));
  const pathById = new Map(files.map((f) => [f.id, f.path]));
  // (in path order, not in the order parse workers stored the files: a package's files are listed
  // in it, and a package import names the first of them)
  const resolvers = createResolvers(root, new Set([...idByPath.keys()].sort()));
  const imports = db.prepare('SELECT id, file_id, source, imported, kind, scope, base_import_id FROM imports').all() as ImportRow[];
  const importById = new Map(imports.map((i) => [i.id, i]));
  const exportsByFile = new Map<number, ExportRow[]>();
  for (const e of db.prepare('SELECT file_id, name, kind, symbol_id, import_id, source, hidden FROM exports').all() as ExportRow[]) {
    let list = exportsByFile.get(e.file_id);
    if (!list) exportsByFile.set(e.file_id, (list = []));
    list.push(e);
  }

  // ---- packages: files that share one top-level scope (Go directories, Java packages) ---------
  const packageKey = new Map<number, string>();
  const packageFiles = new Map<string, number[]>();
  for (const f of files) {
    const mode = languageFor(f.path)?.packageScope;
    if (!mode) continue;
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    const key = mode === 'directory' || f.package === null ? `${dir}\0${f.package ?? ''}` : f.package;
    packageKey.set(f.id, key);
    let list = packageFiles.get(key);
    if (!list) packageFiles.set(key, (list = []));
    list.push(f.id);
  }
  const topLevelOf = db.prepare(
    'SELECT id, name FROM symbols WHERE file_id = ? AND container_id IS NULL AND container_import_id IS NULL AND local = 0',
  );
  const packageNames = new Map<string, Map<string, number[]>>();
  /** the top-level declarations named `name` in the package of a file (methods are not top-level) */
  const inPackage = (fileId: number, name: string): number[] => {
    const key = packageKey.get(fileId);
    if (key === undefined) return [];
    let names = packageNames.get(key);
    if (!names) {
      packageNames.set(key, (names = new Map()));
      for (const f of packageFiles.get(key)!) {
        for (const s of topLevelOf.all(f) as { id: number; name: string }[]) {
          const same = names.get(s.name);
          if (same) same.push(s.id);
          else names.set(s.name, [s.id]);
        }
      }
    }
    return names.get(name) ?? [];
  };
  const wildcards = new Map<number, ImportRow[]>();
  for (const i of imports) {
    if (i.kind !== 'wildcard') continue;
    let list = wildcards.get(i.file_id);
    if (!list) wildcards.set(i.file_id, (list = []));
    list.push(i);
  }

  type Module = { module: number | { files: number[] }; rest: string[] };
  const moduleCache = new Map<string, Module | 'external' | 'unresolved'>();
  const resolverOf = (fileId: number) => resolvers.get(languageFor(pathById.get(fileId)!)?.resolver ?? '');
  const resolveModule = (fileId: number, spec: string, scope?: string | null): Module | 'external' | 'unresolved' => {
    const importer = pathById.get(fileId)!;
    const key = `${importer}\0${spec}\0${scope ?? ''}`;
    let hit = moduleCache.get(key);
    if (hit === undefined) {
      const resolver = resolverOf(fileId);
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
        if ((exportsByFile.get(fileId) ?? []).some((e) => e.name === segs[0])) hit = { module: fileId, rest: segs };
      }
      moduleCache.set(key, hit);
    }
    return hit;
  };

  const memberOf = db.prepare('SELECT id, kind, arity, variadic, is_static FROM symbols WHERE container_id = ? AND name = ? ORDER BY (kind = \'method\') = ? DESC, id');
  const basesOf = db.prepare(
    `SELECT b.base_symbol_id AS base, i.status FROM bases b LEFT JOIN imports i ON i.id = b.base_import_id WHERE b.symbol_id = ?`,
  );
  /**
   * A member of a class or interface, or of what it extends (across files). `external` when the
   * chain reaches a base outside the project: the member is then most likely defined there. For a
   * call, a method is preferred to a field of the same name (Java allows both); with `args`, the
   * overload that takes that many arguments (several do: null, a guess).
   */
  // members are looked up many times over with the same question (Java: every inherited name
  // of every class body); the answers hold until the bases change (`memberCache.clear()` then)
  const memberCache = new Map<string, number | 'external' | null>();
  const findMember = (owner: number, name: string, call = false, args: number | null = null, fieldsOnly = false, access: string | null = null): number | 'external' | null => {
    const key = `${owner}\0${name}\0${call ? 1 : 0}\0${args ?? ''}\0${fieldsOnly ? 1 : 0}\0${access ?? ''}`;
    let hit = memberCache.get(key);
    if (hit === undefined) memberCache.set(key, (hit = lookupMember(owner, name, call, args, fieldsOnly, access)));
    return hit;
  };
  const lookupMember = (owner: number, name: string, call: boolean, args: number | null, fieldsOnly: boolean, access: string | null): number | 'external' | null => {
    const queue = [owner];
    const seen = new Set<number>();
    let external = false;
    while (queue.length > 0 && seen.size < 64) {
      const o = queue.shift()!;
      if (seen.has(o)) continue;
      seen.add(o);
      let same = (memberOf.all(o, name, call ? 1 : 0) as { id: number; kind: string; arity: number | null; variadic: number; is_static: number }[])
        .filter((m) => !fieldsOnly || m.kind !== 'method');
      // a static and an instance member of one name: the one the access reaches
      if (access && same.some((m) => m.is_static) && same.some((m) => !m.is_static)) same = same.filter((m) => (m.is_static === 1) === (access === 'static'));
      const methods = call && args != null ? same.filter((m) => m.kind === 'method' && m.arity != null) : [];
      if (methods.length > 0) {
        // none takes this many arguments: an overload inherited from a base
        const fitting = methods.filter((m) => m.arity === args || (m.variadic === 1 && args! >= m.arity! - 1));
        if (fitting.length === 1) return fitting[0]!.id;
        if (fitting.length > 1) return null;
      } else if (same[0]) return same[0].id;
      for (const b of basesOf.all(o) as { base: number | null; status: string | null }[]) {
        if (b.base != null) queue.push(b.base);
        else if (b.status === 'external') external = true;
      }
    }
    return external ? 'external' : null;
  };

  const importTargets = new Map<number, Target>();
  const scopeVia = new Map<number, ScopeVia>();
  const resolveImport = (imp: ImportRow, seen: Set<string>): Target => {
    if (importTargets.has(imp.id)) return importTargets.get(imp.id)!;
    let t: Target = null;
    if (imp.kind === 'scope') t = resolveScope(imp, seen);
    else if (imp.base_import_id != null) {
      // `a.b.c` after `import a`, `T::new` after `use m::T`, `f()`: a name in what another import names
      const base = importById.get(imp.base_import_id);
      t = resolveIn(base ? resolveImport(base, seen) : null, imp.imported, seen);
    } else {
      const mod = resolveModule(imp.file_id, imp.source, imp.scope);
      if (typeof mod !== 'string') {
        t = typeof mod.module === 'number' ? { module: mod.module } : mod.module;
        for (const name of mod.rest) t = resolveIn(t, name, seen);
        if (imp.imported !== '*') t = resolveIn(t, imp.imported, seen);
      }
    }
    // a name a module does not define may be its submodule (Python `from . import x`, `a.b.c`)
    if (!t && imp.imported !== '*' && !/^[([]/.test(imp.imported)) {
      const spec = specOf(imp);
      const mod = spec !== undefined ? resolveModule(imp.file_id, spec, imp.scope) : undefined;
      if (mod && typeof mod !== 'string' && mod.rest.length === 0) t = typeof mod.module === 'number' ? { module: mod.module } : mod.module;
    }
    importTargets.set(imp.id, t);
    return t;
  };
  const isSubmodule = (imp: ImportRow, name: string): boolean => {
    const spec = specOf(imp);
    const join = resolverOf(imp.file_id)?.join;
    if (spec === undefined || !join) return false;
    const mod = resolveModule(imp.file_id, join(spec, name), imp.scope);
    return typeof mod !== 'string';
  };
  /** The module specifier an import names, for resolvers that can join a name onto one (Python `a.b` + `c`). */
  const specOf = (imp: ImportRow, depth = 0): string | undefined => {
    const join = resolverOf(imp.file_id)?.join;
    if (!join || imp.kind !== 'import' || depth > 16) return undefined;
    if (imp.base_import_id == null) return imp.imported === '*' ? imp.source : join(imp.source, imp.imported);
    const base = importById.get(imp.base_import_id);
    const parent = base ? specOf(base, depth + 1) : undefined;
    return parent !== undefined && !/^[([]/.test(imp.imported) ? join(parent, imp.imported) : undefined;
  };
  /**
   * A name the file uses without declaring it, in a language whose files share a package scope:
   * `a.b.c` is `a` in the package, else in a wildcard import, then `b` and `c` among its members;
   * failing that, a qualified name (Java `com.acme.Util`) through the resolver. Found nowhere in
   * the project, it is declared outside it (Go's predeclared names, java.lang, a library).
   */
  const resolveScope = (imp: ImportRow, seen: Set<string>): Target => {
    const [first, ...rest] = imp.source.split('.') as [string, ...string[]];
    let t: Target = null;
    let via: ScopeVia = 'missing';
    const own = inPackage(imp.file_id, first);
    if (own.length === 1) [t, via] = [{ symbol: own[0]! }, 'package'];
    else if (own.length > 1) via = 'unknown'; // declared twice (build variants): no single answer
    for (const w of via === 'missing' ? wildcards.get(imp.file_id) ?? [] : []) {
      const found = resolveIn(resolveImport(w, seen), first, seen, true);
      if (found) {
        [t, via] = [found, 'import'];
        break;
      }
    }
    if (t) {
      for (const name of rest) t = resolveIn(t, name, seen);
      if (!t) via = 'unknown';
    } else if (via === 'missing') {
      // a qualified name (`com.acme.Util.run()`) or a package name alone (`java2d` in
      // `import java2d.Util.State;`), through the resolver
      const mod = resolveModule(imp.file_id, imp.source);
      if (typeof mod !== 'string') {
        t = typeof mod.module === 'number' ? { module: mod.module } : mod.module;
        for (const name of mod.rest) t = resolveIn(t, name, seen);
        via = t ? 'import' : 'unknown';
      }
    }
    scopeVia.set(imp.id, via);
    return t;
  };
  /** `name` inside a target: a module's or a package's exports (only those `*` takes, for a wildcard), a symbol's members; `()`: what calling it gives */
  const resolveIn = (t: Target, name: string, seen: Set<string>, star = false): Target => {
    if (!t) return null;
    if ('module' in t) return resolveExport(t.module, name, seen, star);
    if ('files' in t) {
      let hit: Target = null;
      for (const f of t.files) {
        const found = resolveExport(f, name, new Set(seen), star);
        if (!found) continue;
        if (hit && JSON.stringify(hit) !== JSON.stringify(found)) return null; // two files declare it: no single answer
        hit = found;
      }
      return hit;
    }
    if (name === '[]') {
      // the elements of the collection a value holds or a function returns
      const e = elementsOf.get(t.symbol) as { symbol: number | null; imp: number | null } | undefined;
      return typeFact(e?.symbol, e?.imp, seen);
    }
    if (name === '()') {
      // a class or struct called makes an instance; a function gives the type it declares it returns
      const s = callInfo.get(t.symbol) as { kind: string; returns: number | null; returnsImport: number | null } | undefined;
      if (!s) return null;
      if (['class', 'struct', 'record', 'enum'].includes(s.kind)) return t;
      if (VALUE_KINDS.has(s.kind)) return null; // a value's `returns` is its own type, not a call's result
      return typeFact(s.returns, s.returnsImport, seen);
    }
    const cb = CALLBACK.exec(name);
    if (cb) {
      // what a function passed to it gets as a parameter; a class called with `new`: its constructor's
      const s = callInfo.get(t.symbol) as { kind: string } | undefined;
      const fn = s && ['class', 'struct', 'record'].includes(s.kind) ? findMember(t.symbol, 'constructor', true) : t.symbol;
      if (typeof fn !== 'number') return null;
      const c = callbackOf.get(Number(cb[1]), Number(cb[2]), fn) as { type: number | null; imp: number | null } | undefined;
      return typeFact(c?.type, c?.imp, seen);
    }
    const m = findMember(t.symbol, name);
    if (typeof m === 'number') return { symbol: m };
    // an enum constant is a value of its enum (Java `Role.ADMIN.label()`); a variable or a field,
    // of the type it declares (`a.field.member` across files)
    const e = (enumOf.get(t.symbol) as { id: number } | undefined)?.id ?? valueType(t.symbol, seen);
    return e != null ? resolveIn({ symbol: e }, name, seen) : null;
  };
  const resolveExport = (fileId: number, name: string, seen: Set<string>, star = false): Target => {
    const key = `${fileId}\0${name}`;
    if (seen.has(key)) return null; // export cycle
    seen.add(key);
    const list = exportsByFile.get(fileId) ?? [];
    for (const e of list) {
      if (e.name !== name || (star && e.hidden)) continue;
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
      if (typeof mod === 'string' || typeof mod.module !== 'number') continue;
      let from: Target = { module: mod.module };
      for (const r of mod.rest) from = resolveIn(from, r, seen);
      const t = resolveIn(from, name, seen, true);
      if (t) return t;
    }
    return null;
  };

  let resolved = 0, external = 0, unresolved = 0;
  const updImport = db.prepare('UPDATE imports SET status = ?, resolved_file_id = ?, resolved_symbol_id = ? WHERE id = ?');
  const memberRefs = db.prepare(
    `SELECT r.id, r.name, r.role, r.import_id, r.args, r.access FROM refs r WHERE r.target_kind = 'member_of_import' AND r.derived = 0`,
  ).all() as { id: number; name: string; role: string; import_id: number; args: number | null; access: string | null }[];
  const updRef = db.prepare('UPDATE refs SET symbol_id = ?, confidence = ? WHERE id = ?');
  // `x.m` with x of a union type from another file: the first member type's m is the reference's
  // symbol; the others' get a row of their own (derived, rebuilt on every link)
  const unionParts = db.prepare('SELECT base_symbol_id AS id FROM bases WHERE symbol_id = ? AND is_union = 1 AND base_symbol_id IS NOT NULL');
  const addDerived = db.prepare(`INSERT INTO refs(file_id, name, line, col, end_col, role, target_kind, symbol_id, import_id, enclosing_id, confidence, args, derived)
    SELECT file_id, name, line, col, end_col, role, target_kind, ?, import_id, enclosing_id, confidence, args, 1 FROM refs WHERE id = ?`);
  /** `name` in each member type of a union alias (nested unions flattened), distinct */
  const unionMemberSymbols = (alias: number, name: string, call: boolean, args: number | null, depth = 0): number[] => {
    const out: number[] = [];
    for (const { id } of unionParts.all(alias) as { id: number }[]) {
      const nested = depth < 4 ? unionMemberSymbols(id, name, call, args, depth + 1) : [];
      const found = nested.length > 0 ? nested : [findMember(id, name, call, args)];
      for (const m of found) if (typeof m === 'number' && !out.includes(m)) out.push(m);
    }
    return out;
  };
  const fileOf = db.prepare('SELECT file_id AS id FROM symbols WHERE id = ?');
  const containerOf = db.prepare('SELECT container_id AS id FROM symbols WHERE id = ?');
  const enumOf = db.prepare(`SELECT container_id AS id FROM symbols WHERE id = ? AND kind = 'enum_member' AND container_id IS NOT NULL`);
  const callInfo = db.prepare('SELECT kind, returns_symbol_id AS returns, returns_import_id AS returnsImport FROM symbols WHERE id = ?');
  const elementsOf = db.prepare('SELECT elements_symbol_id AS symbol, elements_import_id AS imp FROM symbols WHERE id = ?');
  // the declaration of the function, or of an overload of it (same file, name and container), that types the callback
  const callbackOf = db.prepare(`SELECT c.type_symbol_id AS type, c.type_import_id AS imp FROM symbols f
    JOIN symbols o ON o.file_id = f.file_id AND o.name = f.name AND o.container_id IS f.container_id
    JOIN callbacks c ON c.symbol_id = o.id AND c.arg = ? AND c.param = ? WHERE f.id = ? ORDER BY o.id LIMIT 1`);
  /** the type a variable, field or constant declares (stored as its `returns`), as a symbol */
  const valueType = (symbol: number, seen: Set<string>): number | null => {
    const s = callInfo.get(symbol) as { kind: string; returns: number | null; returnsImport: number | null } | undefined;
    if (!s || !VALUE_KINDS.has(s.kind)) return null;
    return typeFact(s.returns, s.returnsImport, seen)?.symbol ?? null;
  };
  /** A type stated as a symbol of its file, or as an import of it (resolved now): the symbol. */
  const typeFact = (symbol: number | null | undefined, importId: number | null | undefined, seen: Set<string>): { symbol: number } | null => {
    if (symbol != null) return { symbol };
    const imp = importId != null ? importById.get(importId) : undefined;
    const r = imp ? resolveImport(imp, seen) : null;
    return r && 'symbol' in r ? r : null;
  };

  db.transaction(() => {
    // Go methods declared in another file than their receiver's type: first, so that members are
    // found through them below
    const setContainer = db.prepare('UPDATE symbols SET container_id = ?, container_name = (SELECT name FROM symbols WHERE id = ?) WHERE id = ?');
    for (const s of db.prepare('SELECT id, container_import_id AS imp FROM symbols WHERE container_import_id IS NOT NULL').all() as { id: number; imp: number }[]) {
      const imp = importById.get(s.imp);
      const t = imp ? resolveImport(imp, new Set()) : null;
      const owner = t && 'symbol' in t ? t.symbol : null;
      setContainer.run(owner, owner, s.id);
    }
    // Rust `impl Trait for T` with T imported; bases and declared results in other files: before
    // anything looks members up through them
    const setDerived = db.prepare('UPDATE bases SET symbol_id = ? WHERE rowid = ?');
    for (const b of db.prepare('SELECT rowid, symbol_import_id AS imp FROM bases WHERE symbol_import_id IS NOT NULL').all() as { rowid: number; imp: number }[]) {
      const imp = importById.get(b.imp);
      const t = imp ? resolveImport(imp, new Set()) : null;
      setDerived.run(t && 'symbol' in t ? t.symbol : null, b.rowid);
    }
    const setBase = db.prepare('UPDATE bases SET base_symbol_id = ? WHERE rowid = ?');
    for (const b of db.prepare('SELECT rowid, base_import_id AS imp FROM bases WHERE base_import_id IS NOT NULL').all() as { rowid: number; imp: number }[]) {
      const imp = importById.get(b.imp);
      const t = imp ? resolveImport(imp, new Set()) : null;
      setBase.run(t && 'symbol' in t ? t.symbol : null, b.rowid);
    }
    const setReturns = db.prepare('UPDATE symbols SET returns_symbol_id = ? WHERE id = ?');
    for (const s of db.prepare('SELECT id, returns_import_id AS imp FROM symbols WHERE returns_import_id IS NOT NULL').all() as { id: number; imp: number }[]) {
      const imp = importById.get(s.imp);
      const t = imp ? resolveImport(imp, new Set()) : null;
      setReturns.run(t && 'symbol' in t ? t.symbol : null, s.id);
    }
    // what was resolved so far did not see those: resolve again
    importTargets.clear();
    scopeVia.clear();
    memberCache.clear();
    for (const imp of imports) {
      const t = resolveImport(imp, new Set());
      const via = scopeVia.get(imp.id);
      const mod = imp.kind === 'scope' || imp.base_import_id != null ? undefined : resolveModule(imp.file_id, imp.source, imp.scope);
      const modFile = mod && typeof mod !== 'string' && typeof mod.module === 'number' ? mod.module : null;
      let status: string;
      if (t && 'symbol' in t) {
        status = 'symbol';
        updImport.run(status, modFile ?? (fileOf.get(t.symbol) as { id: number }).id, t.symbol, imp.id);
      } else if (t) {
        status = 'module';
        updImport.run(status, 'module' in t ? t.module : t.files[0], null, imp.id);
      } else {
        status = via === 'missing' || mod === 'external' ? 'external' : 'unresolved';
        updImport.run(status, modFile, null, imp.id);
      }
      // names taken from the package scope, or members reached through another import, are not
      // imports anyone wrote: they are not counted
      if (imp.kind === 'scope' || imp.base_import_id != null) continue;
      if (status === 'external') external++;
      else if (status === 'unresolved') unresolved++;
      else resolved++;
    }
    // references through an import: the import's symbol, or nothing outside the project
    db.exec(`UPDATE refs SET
        symbol_id = (SELECT resolved_symbol_id FROM imports i WHERE i.id = refs.import_id),
        confidence = CASE WHEN (SELECT resolved_symbol_id FROM imports i WHERE i.id = refs.import_id) IS NULL THEN NULL ELSE 'imported' END
      WHERE target_kind = 'import'`);
    // a name of the file's own package is resolved by scope, as in the file itself; a name declared
    // twice in the package (build variants) is a guess between them
    const byScope = db.prepare(`UPDATE refs SET confidence = ? WHERE import_id = ? AND target_kind = 'import'`);
    for (const [id, via] of scopeVia) {
      if (via === 'package') byScope.run('resolved', id);
      else if (via === 'unknown') byScope.run('name_match', id);
    }
    // An import names a symbol, but merged declarations (`interface X` + `const X`) give the name
    // two meanings: a use in a type position means the type, any other use the value.
    const merged = db.prepare(`SELECT t.id, t.kind FROM symbols s JOIN symbols t ON t.file_id = s.file_id AND t.name = s.name
      AND t.container_id IS s.container_id AND t.local = 0 WHERE s.id = ? ORDER BY t.id`);
    const byMeaning = db.prepare(`UPDATE refs SET symbol_id = ? WHERE import_id = ? AND target_kind = 'import' AND (role = 'type') = ?`);
    // (`+t.container_id`: not through the container index, which holds every top-level symbol under NULL)
    const mergedIds = new Set((db.prepare(`SELECT s.id FROM symbols s WHERE s.local = 0 AND EXISTS (SELECT 1 FROM symbols t
      WHERE t.file_id = s.file_id AND t.name = s.name AND +t.container_id IS s.container_id AND t.local = 0 AND t.id <> s.id)`).all() as { id: number }[]).map((r) => r.id));
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
    memberCache.clear();
    db.exec(`UPDATE bases SET base_symbol_id = (SELECT resolved_symbol_id FROM imports i WHERE i.id = bases.base_import_id)
      WHERE base_import_id IS NOT NULL`);
    // a call through an import of an overloaded method (Java `import static a.B.pad;`): the
    // overload that takes the call's number of arguments (after the merged declarations above)
    const overloaded = db.prepare(`SELECT r.id, r.args, s.container_id AS container, s.name FROM refs r JOIN symbols s ON s.id = r.symbol_id
      WHERE r.target_kind = 'import' AND r.args IS NOT NULL AND s.kind = 'method' AND s.container_id IS NOT NULL AND s.arity IS NOT NULL`)
      .all() as { id: number; args: number; container: number; name: string }[];
    for (const r of overloaded) {
      const m = findMember(r.container, r.name, true, r.args);
      if (m === null) updRef.run(null, 'name_match', r.id);
      else if (typeof m === 'number') updRef.run(m, 'imported', r.id);
    }
    // `ns.name` / `ImportedClass.member` / `x.m` with `x: ImportedType`: look the member up in
    // what the import resolved to, through its bases
    const status = db.prepare('SELECT status FROM imports WHERE id = ?');
    db.exec('DELETE FROM refs WHERE derived = 1');
    for (const r of memberRefs) {
      const t = importTargets.get(r.import_id);
      let symbol: number | null = null;
      let others: number[] = [];
      let external = !t && (status.get(r.import_id) as { status: string }).status === 'external';
      if (t && !('symbol' in t)) {
        const e = resolveIn(t, r.name, new Set());
        if (e && 'symbol' in e) symbol = e.symbol;
        // a module (Rust `a::m::f`, Python `pkg.sub.f`): a fact, but not one about a symbol
        else if (e || isSubmodule(importById.get(r.import_id)!, r.name)) external = true;
      } else if (t) {
        const owner = (enumOf.get(t.symbol) as { id: number } | undefined)?.id ?? t.symbol;
        // a variable or a field of another file: a member of the type it declares, else its own
        // (an object literal's members)
        const typed = valueType(t.symbol, new Set());
        // (a variable's type is reached through an instance)
        let m = typed != null ? findMember(typed, r.name, r.role === 'call', r.args, false, 'instance') : null;
        let searched = typed;
        if (typeof m !== 'number') {
          const own = findMember(owner, r.name, r.role === 'call', r.args, false, r.access);
          if (own !== null) [m, searched] = [own, owner];
        }
        if (m === 'external') external = true;
        else symbol = m;
        if (typeof m === 'number' && searched != null) others = unionMemberSymbols(searched, r.name, r.role === 'call', r.args).filter((o) => o !== m);
      }
      const confidence = symbol == null ? (external ? null : 'name_match') : scopeVia.get(r.import_id) === 'package' ? 'resolved' : 'imported';
      updRef.run(symbol, confidence, r.id);
      for (const other of others) addDerived.run(other, r.id);
    }
    // Java: a name a class body uses without declaring it, found nowhere in the package or the
    // imports, may be a member the class inherits (`run()`, `count` from a superclass)
    const inClass = files.filter((f) => languageFor(f.path)?.membersInScope).map((f) => f.id);
    if (inClass.length > 0) {
      const rows = db.prepare(`SELECT r.id, r.file_id, r.name, r.role, r.target_kind, r.enclosing_id, r.args, i.source FROM refs r JOIN imports i ON i.id = r.import_id
        WHERE i.kind = 'scope' AND i.status = 'external' AND r.target_kind IN ('import', 'member_of_import') AND r.enclosing_id IS NOT NULL`)
        .all() as { id: number; file_id: number; name: string; role: string; target_kind: string; enclosing_id: number; args: number | null; source: string }[];
      const inClassFiles = new Set(inClass);
      // (a name that is not called is a field: in Java a method is only ever called)
      const inherited = (from: number, name: string, call: boolean, args: number | null = null): number | null => {
        for (let s: number | null = from, depth = 0; s != null && depth < 12; depth++) {
          const m = findMember(s, name, call, args, !call);
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
  })();
  return { imports: resolved + external + unresolved, resolved, external, unresolved, ms: performance.now() - t0 };
}
