/**
 * The types the file states, evidently gives or implies: a declaration's type, what a type node
 * names, what the object of `object.prop` can be, a call's result, a collection's elements, and
 * the types a value gets from where it is written (a callback's parameters, an object literal, a
 * destructured binding).
 * One module because these recurse into each other (a type through a member through a type):
 * modules here import only downward (test/imports.test.ts).
 */
import type { Node } from 'web-tree-sitter';
import type { RefTarget } from '../facts.js';
import { argumentSite, functionType, isGetter, objectParts, parametersOf } from '../type-syntax.js';
import { type Bound, type Def, type FileContext, upq } from './context.js';
import { jsdocDeclared, jsdocResult } from './jsdoc.js';
import { implicitImport, memberImport, moduleImport, resolveName } from './imports.js';
import { importedMember, memberIn } from './member-lookup.js';
import { containerOwnerAt, enclosingClass, enclosingObject } from './members.js';
import { type Owner, asOwner, instance } from './owner.js';
import { THIS_KINDS, VALUE_KINDS } from './rules.js';
import { lookup } from './scopes.js';

export const defOf = (ctx: FileContext, b: Bound | undefined): Def | undefined => (b?.type === 'symbol' ? ctx.symbolDefs[b.index] : b?.type === 'local' ? b.def : undefined);

/** The type a declaration states: `x: Foo`, `x: Foo<T>`, `x = new Foo()`, `x = y as Foo`, or its `@declared.type`. */
export function declaredType(ctx: FileContext, d: Def | undefined): Owner | undefined {
  if (!d) return undefined;
  const { typeOfDef } = ctx;
  if (typeOfDef.has(d)) return typeOfDef.get(d);
  typeOfDef.set(d, undefined); // a cycle (`x = x.y`) finds nothing
  const t = declaredTypeOf(ctx, d);
  typeOfDef.set(d, t);
  return t;
}

function declaredTypeOf(ctx: FileContext, d: Def): Owner | undefined {
  if (d.rule.receiver) return containerOwnerAt(ctx, d.node); // `self`
  // a getter's type is what it returns (`get x(): T`); another function's is not its result
  const stated = ctx.declaredTypes.get(d.name.id) ?? (isGetter(d.node) ? ctx.declaredResults.get(d.name.id) : undefined);
  if (stated) return typeOwner(ctx, stated, 0);
  const ranged = ctx.declaredElements.get(d.name.id);
  if (ranged) return elementOwner(ctx, ranged, 0);
  // JavaScript: what the doc comment declares (`@param {T} x`, `@type {T}`)
  const documented = ctx.row.jsdocTypes ? jsdocDeclared(ctx, d) : undefined;
  if (documented) return documented;
  // an enum constant is a value of its enum (Java `Role.ADMIN.label()`)
  const container = d.rule.kind === 'enum_member' && d.symbol != null ? ctx.symbols[d.symbol]!.container : null;
  if (container != null) return { type: 'symbol', index: container };
  for (const holder of [d.node, ctx.up(d.name)]) {
    if (!holder) continue;
    const value = holder.childForFieldName('value') ?? holder.childForFieldName('right'); // Python `x = v`
    const candidates = [
      holder.childForFieldName('type'),
      value?.type === 'new_expression' ? value.childForFieldName('constructor') : null,
      value?.type === 'as_expression' || value?.type === 'satisfies_expression' ? value.namedChildren[1] : null,
    ];
    for (let c of candidates) {
      if (c?.type === 'type_annotation') c = c.firstNamedChild;
      if (c?.type === 'generic_type') c = c.childForFieldName('name') ?? c.childForFieldName('type');
      if (c && (c.type === 'type_identifier' || c.type === 'identifier')) {
        // (through typeOwner: an alias of a union is the union, a type parameter its bound)
        const b = lookup(ctx, c, c.text, c.type === 'type_identifier' ? 'type' : 'value');
        const d = defOf(ctx, b);
        return d?.rule.kind === 'type' || d?.rule.kind === 'type_parameter' ? typeOwner(ctx, c, 0) ?? asOwner(b) : asOwner(b);
      }
      const t = c ? typeOwner(ctx, c, 0) : undefined; // `&T`, `a::T`, a Python annotation
      if (t) return t;
    }
    // `x = Foo()`, `let x = T::new()`, `let x = T { .. }`: the type the value evidently has
    // (`self.x = x` with a parameter `x: T`: the parameter's type)
    if (value && !ctx.reassigned.has(d) && (ctx.tables.calls.has(value.type) || ctx.tables.initializers.has(value.type))) {
      const t = typeOwner(ctx, value, 0);
      if (t) return t;
    }
  }
  return d.rule.kind === 'parameter' ? contextualType(ctx, d) : destructuredType(ctx, d);
}

/** What a type names, or the type of an expression that states it: `T{}`, `&T{}`, `new T()`, `NewT()`, `T(x)`. */
export function typeOwner(ctx: FileContext, n: Node | null, depth: number): Owner | undefined {
  if (!n || depth > 12) return undefined;
  const { plainRefs, memberExprs } = ctx;
  if (ctx.selfTypes.has(n.id)) return containerOwnerAt(ctx, n); // Rust `Self`
  // (a name node of another type: a Python forward reference `"Foo"`)
  if (n.type === 'identifier' || n.type === 'type_identifier' || (n.namedChildCount === 0 && plainRefs.has(n.id))) {
    const b = resolveName(ctx, n, n.text, n.type === 'identifier' ? 'value' : 'type');
    // a variable stands for its type (Go `y := x`), a type or a class for itself
    const d = defOf(ctx, b);
    // a type parameter stands for its bound: `T: Shape`, `T extends Shape` (what its members can be)
    if (d?.rule.kind === 'type_parameter') {
      const bound = ctx.up(d.name)?.childForFieldName('bounds') ?? ctx.up(d.name)?.childForFieldName('constraint');
      return bound ? typeOwner(ctx, bound, depth + 1) : undefined;
    }
    if (d && VALUE_KINDS.has(d.rule.kind)) return declaredType(ctx, d);
    // a type alias of a union (`type S = A | B`) is that union
    const aliased = d?.rule.kind === 'type' ? d.node.childForFieldName('value') : null;
    if (aliased?.type === 'union_type') return typeOwner(ctx, aliased, depth + 1) ?? asOwner(b);
    return asOwner(b);
  }
  if (n.type === 'this' || n.type === 'non_null_expression' || n.type === 'parenthesized_expression') {
    const owners = n.type === 'this' ? ownersOf(ctx, n, depth + 1) : n.firstNamedChild ? [typeOwner(ctx, n.firstNamedChild, depth + 1)] : [];
    return owners[0]; // `const self = this`, `x!`, `(x)`
  }
  // pkg.T, Outer.Inner; an access to a field or variable (Go `c := n.first`) stands for its type
  if (memberExprs.has(n.id) && !ctx.tables.callMembers.has(n.type)) {
    const owners = ownersOf(ctx, n, depth + 1);
    const first = owners[0];
    const value = first?.type === 'symbol' && VALUE_KINDS.has(ctx.symbols[first.index]!.kind);
    return value ? owners[1] : first;
  }
  // `xs[i]` (Go), `a[i]` (Java): an element of the collection's declared type
  const collection = ctx.tables.elementAccess.get(n.type);
  if (collection) return elementOwner(ctx, n.childForFieldName(collection), depth + 1);
  if (ctx.tables.calls.has(n.type)) return callOwner(ctx, n, depth);
  // `T | null | undefined`: the one type that is not a literal or a primitive (two or more:
  // unknown); `T | (() => void)`: a member of it other than a function's is T's (the code narrowed it)
  if (n.type === 'union_type') {
    const parts = objectParts(n);
    if (parts.length === 1) return typeOwner(ctx, parts[0]!, depth + 1);
    const owners = parts.map((m) => typeOwner(ctx, m, depth + 1));
    // every member must be known: a member of an unknown one could be the one meant
    return owners.length > 1 && owners.every((o) => o !== undefined) ? { type: 'union', parts: owners as Owner[] } : undefined;
  }
  const fields = ctx.tables.typeWrappers.get(n.type);
  if (!fields) return undefined;
  let inner: Node | null = null;
  for (const f of fields) if ((inner = n.childForFieldName(f))) break;
  // else the first child that names a type (a Python `"Foo"` is string_start, string_content, ...)
  inner ??= n.namedChildren.find((c) => c != null && (plainRefs.has(c.id) || memberExprs.has(c.id) || ctx.tables.typeWrappers.has(c.type))) ?? n.firstNamedChild;
  return typeOwner(ctx, inner, depth + 1);
}

/** What a call gives: a conversion `T(x)` has type T; a call, the type its callee declares it returns. */
function callOwner(ctx: FileContext, n: Node, depth: number): Owner | undefined {
  const builtin = collectionCall(ctx, n, depth);
  if (builtin) return builtin;
  const callee = calleeOf(ctx, n, depth);
  if (!callee) return importedCall(ctx, n, depth);
  if (THIS_KINDS.has(callee.rule.kind) || callee.rule.kind === 'type') return callee.symbol != null ? { type: 'symbol', index: callee.symbol } : undefined;
  const stated = ctx.declaredTypes.get(callee.name.id) ?? ctx.declaredResults.get(callee.name.id);
  if (stated) return typeOwner(ctx, stated, depth + 1);
  const documented = jsdocResult(ctx, callee);
  if (documented) return documented;
  // a value of a function type (`factory: () => T`): what the type says calling it gives
  const fnType = VALUE_KINDS.has(callee.rule.kind) ? functionType((ctx.up(callee.name) ?? callee.node).childForFieldName('type')) : undefined;
  return fnType ? typeOwner(ctx, fnType.childForFieldName('return_type'), depth + 1) : undefined;
}

/** A call of something declared in another file: what calling it gives is found at link time (`()`). */
function importedCall(ctx: FileContext, call: Node, depth: number, what: '()' | '[]' = '()'): Owner | undefined {
  const fn = call.childForFieldName('function');
  if (!fn) return undefined;
  let callee: Owner | undefined;
  const access = ctx.memberExprs.get(fn.id);
  if (!access) callee = asOwner(resolveName(ctx, fn, fn.text, 'call'));
  else {
    for (const o of ownersOf(ctx, access.object, depth + 1)) if ((callee = importedMember(ctx, o, access.prop.text, access.prop))) break;
  }
  // `()`: what calling it gives; `[]`: the elements of that (a function returning `T[]`)
  return callee?.type === 'import' ? { type: 'import', index: memberImport(ctx, callee.index, what, call) } : undefined;
}

/** The element type of a collection expression: `xs` declared `[]T`, `[N]T`, `map[K]T`, `T[]`. */
export function elementOwner(ctx: FileContext, collection: Node | null, depth: number, which: 'element' | 'value' = 'element'): Owner | undefined {
  if (!collection || depth > 8) return undefined;
  // a call: the elements of what its callee declares it returns (of another file: `[]` at link time)
  if (ctx.tables.calls.has(collection.type)) {
    const callee = calleeOf(ctx, collection, depth);
    if (callee) return elementOfType(ctx, ctx.declaredTypes.get(callee.name.id) ?? ctx.declaredResults.get(callee.name.id) ?? null, depth, which);
    return which === 'element' ? importedCall(ctx, collection, depth, '[]') : undefined;
  }
  let d: Def | undefined;
  let imported: Owner | undefined;
  if (collection.type === 'identifier') {
    const b = lookup(ctx, collection, collection.text);
    d = defOf(ctx, b);
    if (b?.type === 'import') imported = b;
  } else {
    const access = ctx.memberExprs.get(collection.id);
    const owner = access ? ownersOf(ctx, collection, depth + 1)[0] : undefined;
    d = owner?.type === 'symbol' ? ctx.symbolDefs[owner.index] : undefined;
    if (owner?.type === 'import') imported = owner;
  }
  // a variable or field of another file: the elements of the type it declares, at link time
  if (!d) return imported?.type === 'import' && which === 'element' ? { type: 'import', index: memberImport(ctx, imported.index, '[]', collection) } : undefined;
  return elementOfType(ctx, typeNodeOf(ctx, d, depth), depth, which);
}

/** The element (or, for `which: 'value'`, a Map's value) type of a collection type: `T[]`, `[]T`, `Array<T>`, `Set<T>`, `map[K]T`. */
export function elementOfType(ctx: FileContext, type: Node | null, depth: number, which: 'element' | 'value' = 'element'): Owner | undefined {
  let t = type;
  // (a Python annotation is wrapped in `type`)
  while (t?.type === 'pointer_type' || t?.type === 'parenthesized_type' || t?.type === 'type_annotation' || t?.type === 'type') t = t.firstNamedChild;
  // `Array<T>`, `Set<T>`, Python `list[T]`, `Sequence[T]`: T; `Map<K, V>`: V for `get`, the entries otherwise (unknown)
  if (t?.type === 'generic_type') {
    // (TypeScript: `name` and `type_arguments`; Python: the name first, then `type_parameter`)
    const list = t.childForFieldName('type_arguments') ?? t.namedChildren.find((c) => c?.type === 'type_parameter') ?? null;
    const args = list?.namedChildren.filter((c): c is Node => c != null) ?? [];
    const generic = (t.childForFieldName('name') ?? t.firstNamedChild)?.text ?? '';
    if (ctx.tables.sequenceTypes.has(generic) && which === 'element') return typeOwner(ctx, args[0] ?? null, depth + 1);
    if (ctx.tables.mapTypes.has(generic) && which === 'value') return typeOwner(ctx, args[1] ?? null, depth + 1);
    return undefined;
  }
  if (which !== 'element') return undefined;
  const element = t ? ctx.tables.elementTypes.get(t.type) : undefined;
  // (TypeScript's `T[]` has no field for T)
  return element ? typeOwner(ctx, t!.childForFieldName(element) ?? t!.firstNamedChild, depth + 1) : undefined;
}

/**
 * The type a declaration writes down (TypeScript: its `type` field), or, for a variable without
 * one, its initializer's when that is a field or a variable (`const xs = this.items_`).
 */
export function typeNodeOf(ctx: FileContext, d: Def, depth: number): Node | null {
  const t = ctx.declaredTypes.get(d.name.id) ?? ctx.up(d.name)?.childForFieldName('type') ?? d.node.childForFieldName('type');
  if (t || depth > 8) return t ?? null;
  const value = d.node.childForFieldName('value');
  if (!value || ctx.reassigned.has(d)) return null;
  let from: Def | undefined;
  if (value.type === 'identifier') from = defOf(ctx, lookup(ctx, value, value.text));
  else if (ctx.memberExprs.has(value.id)) {
    const owner = ownersOf(ctx, value, depth + 1)[0];
    from = owner?.type === 'symbol' ? ctx.symbolDefs[owner.index] : undefined;
  }
  return from && from !== d ? typeNodeOf(ctx, from, depth + 1) : null;
}

/** `xs.pop()`, `xs.find(f)`, `map.get(k)`: what the standard collections' accessors give (an element, a value). */
function collectionCall(ctx: FileContext, call: Node, depth: number): Owner | undefined {
  const fn = call.childForFieldName('function');
  const access = fn ? ctx.memberExprs.get(fn.id) : undefined;
  const which = access ? ctx.tables.collectionAccessors[access.prop.text] : undefined;
  return which ? elementOwner(ctx, access!.object, depth + 1, which) : undefined;
}

/** The declaration a call invokes, when this file has it. */
function calleeOf(ctx: FileContext, call: Node, depth: number): Def | undefined {
  const member = ctx.memberExprs.get(call.id); // Java `a.m()`
  const fn = member ? null : call.childForFieldName('function') ?? call.childForFieldName('name');
  if (fn && (fn.type === 'identifier' || fn.type === 'type_identifier')) return defOf(ctx, lookup(ctx, fn, fn.text, 'call'));
  const access = member ?? (fn ? ctx.memberExprs.get(fn.id) : undefined);
  if (!access) return undefined;
  for (const o of ownersOf(ctx, access.object, depth + 1)) {
    const t = memberIn(ctx, o, access.prop.text, true);
    if (t?.kind === 'symbol') return ctx.symbolDefs[t.symbol];
  }
  return undefined;
}

// ---- the object of a member access ---------------------------------------------------------

/** The type the nearest `this`-binding function declares for `this` (`function (this: T) {}`). */
function thisParameterType(ctx: FileContext, n: Node): Owner | undefined {
  for (let p = ctx.up(n); p; p = ctx.up(p)) {
    if (!ctx.tables.thisRebinders.has(p.type) && p.type !== 'method_definition') continue;
    const self = p.childForFieldName('parameters')?.namedChildren.find((c) => c?.childForFieldName('pattern')?.type === 'this');
    const type = self?.childForFieldName('type');
    return type ? typeOwner(ctx, type, 1) : undefined;
  }
  return undefined;
}

/** `a.b.c` written with names only: its text and its first name */
function dottedName(ctx: FileContext, n: Node): { text: string; root: Node } | undefined {
  const { memberExprs } = ctx;
  const parts: string[] = [];
  let cur = n;
  for (let access = memberExprs.get(cur.id); access && !ctx.tables.callMembers.has(cur.type); access = memberExprs.get(cur.id)) {
    parts.unshift(access.prop.text);
    cur = access.object;
  }
  if (parts.length === 0 || !['identifier', 'type_identifier', 'package_identifier'].includes(cur.type)) return undefined;
  return { text: [cur.text, ...parts].join('.'), root: cur };
}

/** What `object` in `object.prop` can be, most specific first. */
export function ownersOf(ctx: FileContext, object: Node, depth: number): Owner[] {
  if (ctx.selfTypes.has(object.id)) {
    const o = containerOwnerAt(ctx, object); // Rust `Self::new()`
    return o ? [o] : [];
  }
  if (ctx.superCalls.has(object.id)) {
    const c = enclosingClass(ctx, object); // Python `super().m()`
    return c != null ? ctx.basesOf.get(c) ?? [] : [];
  }
  // a path that starts at a module: `crate::`, `super::`, or a crate's name nothing here declares
  if (ctx.moduleRefs.has(object.id) && (object.type !== 'identifier' || (!ctx.hasWildcard && !lookup(ctx, object, object.text))))
    return [{ type: 'import', index: moduleImport(ctx, object) }];
  // a name node of another type (Rust `self`): bound like an identifier
  if (object.namedChildCount === 0 && ctx.plainRefs.has(object.id) && !['identifier', 'type_identifier', 'package_identifier'].includes(object.type)) {
    const b = lookup(ctx, object, object.text);
    return [asOwner(b), declaredType(ctx, defOf(ctx, b))].filter((o): o is Owner => o !== undefined);
  }
  switch (object.type) {
    case 'this': {
      const c = enclosingClass(ctx, object);
      if (c != null) return [{ type: 'symbol', index: c, access: 'instance' }];
      // `function (this: T, ...)`: a function that states what `this` is
      const t = thisParameterType(ctx, object);
      if (t) return [instance(t)];
      const o = enclosingObject(ctx, object);
      return o != null ? [{ type: 'symbol', index: o }] : [];
    }
    case 'super': {
      const c = enclosingClass(ctx, object);
      return c != null ? ctx.basesOf.get(c) ?? [] : [];
    }
    case 'identifier':
    case 'type_identifier':
    case 'package_identifier': {
      const b = resolveName(ctx, object, object.text, object.type === 'type_identifier' ? 'type' : 'value');
      // `C.x` on a class is a static access; `v.x` on a value of type C an instance's
      const bound = asOwner(b);
      const own = bound?.type === 'symbol' && THIS_KINDS.has(ctx.symbols[bound.index]!.kind) ? { ...bound, access: 'static' as const } : bound;
      const typed = instance(declaredType(ctx, defOf(ctx, b)));
      // narrowed where it is used (`if (x instanceof C) x.m()`): C first, as the compiler sees it
      const narrowed = ctx.narrowings.length > 0 && b ? instance(narrowedType(ctx, object, b, depth)) : undefined;
      // a value with a type (`const p: T = { ... }`) is seen through its type, as the compiler
      // sees it; its own members (an object literal's) come after
      return [narrowed, typed, own].filter((o): o is Owner => o !== undefined);
    }
    case 'parenthesized_expression':
    case 'non_null_expression':
      return object.firstNamedChild ? ownersOf(ctx, object.firstNamedChild, depth) : [];
    case 'as_expression':
    case 'satisfies_expression': {
      const t = typeOwner(ctx, object.namedChildren[1] ?? null, depth + 1); // `(x as T).m`
      return t ? [t] : [];
    }
    case 'member_expression':
      return memberExpressionOwners(ctx, object, depth);
    default:
      return chainOwners(ctx, object, depth);
  }
}

/** a.b.c: c is looked up in b, or in the type b declares */
function memberExpressionOwners(ctx: FileContext, object: Node, depth: number): Owner[] {
  const inner = object.childForFieldName('object');
  const prop = object.childForFieldName('property');
  if (!inner || !prop || depth > 3) return [];
  for (const o of ownersOf(ctx, inner, depth + 1)) {
    // through another file: `b` looked up in what the import resolves to, at link time
    if (o.type === 'import') {
      const m = importedMember(ctx, o, prop.text, prop);
      if (m) return [m];
      continue;
    }
    const t = memberIn(ctx, o, prop.text);
    if (t?.kind === 'member_of_import') return [{ type: 'import', index: memberImport(ctx, t.importIndex, prop.text, prop) }];
    if (t?.kind !== 'symbol') continue;
    const typed = declaredType(ctx, ctx.symbolDefs[t.symbol]);
    return [{ type: 'symbol', index: t.symbol } as Owner, ...(typed ? [typed] : [])];
  }
  return [];
}

/** Owners of an access or a call written with other languages' node types: Go `a.b`, Java `a.m()`, `f()`, `T{}`. */
function chainOwners(ctx: FileContext, object: Node, depth: number): Owner[] {
  // (a chain through a call's result type and a qualified type is a few levels deep; the bound
  // only stops cycles)
  if (depth > 10) return [];
  const access = ctx.memberExprs.get(object.id);
  if (!access) {
    const t = ctx.tables.calls.has(object.type) || ctx.tables.typeWrappers.has(object.type) || ctx.tables.elementAccess.has(object.type) ? typeOwner(ctx, object, depth + 1) : undefined;
    return t ? [t] : [];
  }
  // a dotted name whose first part is declared nowhere in the file: a package-scope or a fully
  // qualified name (Java `com.acme.Util.run()`), resolved as a whole at link time
  const dotted = ctx.row.packageScope ? dottedName(ctx, object) : undefined;
  if (dotted && !lookup(ctx, dotted.root, dotted.root.text)) return [{ type: 'import', index: implicitImport(ctx, dotted.text, '*', 'scope', object) }];
  const call = ctx.tables.callMembers.has(object.type);
  for (const o of ownersOf(ctx, access.object, depth + 1)) {
    const t = memberIn(ctx, o, access.prop.text, call);
    if (t?.kind === 'symbol') {
      const typed = declaredType(ctx, ctx.symbolDefs[t.symbol]);
      return [...(call ? [] : [{ type: 'symbol', index: t.symbol } as Owner]), ...(typed ? [typed] : [])];
    }
    const derived = call ? undefined : importedMember(ctx, o, access.prop.text, access.prop);
    if (derived) return [derived];
  }
  return [];
}

// ---- types from where a value is written ------------------------------------------------------

/**
 * `f((a, b) => a.x)` / `new C((a) => ...)`: an untyped parameter of a function passed as an
 * argument has the type the callee's parameter declares for it (`cb: (a: A, b: B) => void`).
 * The callee may be in another file: then an import `(arg:param)` of it, resolved at link time.
 */
export function contextualType(ctx: FileContext, d: Def): Owner | undefined {
  const { up } = ctx;
  const holder = up(d.name);
  if (!holder) return undefined;
  // (`x => ...`, JavaScript's bare `(x, y)`, TypeScript's `(x: T)` with the name in `pattern`)
  const param = ctx.tables.functionValues.has(holder.type) || holder.type === 'formal_parameters' ? d.name : holder.childForFieldName('pattern')?.id === d.name.id ? holder : null;
  const fn = ctx.tables.functionValues.has(holder.type) ? holder : holder.type === 'formal_parameters' ? up(holder) : up(holder)?.type === 'formal_parameters' ? up(up(holder)!) : null;
  const site = param && fn && ctx.tables.functionValues.has(fn.type) ? argumentSite(fn, up) : undefined;
  const p = site ? parametersOf(fn!).findIndex((x) => x.id === param!.id) : -1;
  if (!site || p < 0) return undefined;
  const { callee, index: a } = site;
  // `xs.forEach((x) => ...)`, `xs.map(...)`, `set.forEach(...)`, `map.forEach((value) => ...)`:
  // the standard collections pass their elements (values) to these callbacks
  const access = ctx.memberExprs.get(callee.id);
  const element = access && a === 0 ? ctx.tables.elementCallbacks[access.prop.text] : undefined;
  if (element !== undefined && p === element) {
    const t = elementOwner(ctx, access!.object, 1) ?? (access!.prop.text === 'forEach' ? elementOwner(ctx, access!.object, 1, 'value') : undefined);
    if (t) return t;
  }
  const target = calleeTarget(ctx, callee);
  if (target?.type === 'import') return { type: 'import', index: memberImport(ctx, target.index, `(${a}:${p})`, fn!) };
  return target ? callbackType(ctx, target.defs, a, p) : undefined;
}

/** What a call's callee is: declarations of this file (a class: its constructor), or an import to resolve at link time. */
type Callee = { type: 'defs'; defs: Def[] } | { type: 'import'; index: number };

function calleeTarget(ctx: FileContext, callee: Node): Callee | undefined {
  const { symbols, symbolDefs } = ctx;
  const found = (t: RefTarget | undefined, name: string, at: Node): Callee | undefined => {
    if (t?.kind === 'member_of_import') return { type: 'import', index: memberImport(ctx, t.importIndex, name, at) };
    if (t?.kind !== 'symbol') return undefined;
    const s = symbols[t.symbol]!;
    if (THIS_KINDS.has(s.kind)) return found(memberIn(ctx, { type: 'symbol', index: t.symbol }, 'constructor', true), 'constructor', at);
    // overloads: every declaration of the name in the same container
    return { type: 'defs', defs: symbolDefs.filter((x) => x.symbol != null && symbols[x.symbol]!.name === s.name && symbols[x.symbol]!.container === s.container && x.scope?.id === symbolDefs[t.symbol]!.scope?.id) };
  };
  if (callee.type === 'identifier') {
    const b = resolveName(ctx, callee, callee.text);
    if (b?.type === 'import') return b;
    if (b?.type === 'local') return b.def ? { type: 'defs', defs: [b.def] } : undefined;
    return b ? found({ kind: 'symbol', symbol: b.index }, callee.text, callee) : undefined;
  }
  const access = ctx.memberExprs.get(callee.id);
  if (!access) return undefined;
  for (const o of ownersOf(ctx, access.object, 1)) {
    if (o.type === 'import') {
      const m = importedMember(ctx, o, access.prop.text, access.prop);
      return m?.type === 'import' ? m : undefined;
    }
    const t = found(memberIn(ctx, o, access.prop.text, true), access.prop.text, access.prop);
    if (t) return t;
  }
  return undefined;
}

/**
 * The type a function passed as argument `arg` to one of `defs` gets for its parameter `param`;
 * with `param` -1, the type an object literal passed as that argument is checked against.
 */
export function callbackType(ctx: FileContext, defs: Def[], arg: number, param: number): Owner | undefined {
  for (const d of defs) {
    const fn = d.node.type === 'variable_declarator' ? d.node.childForFieldName('value') : d.node;
    const declared = fn ? parametersOf(fn)[arg]?.childForFieldName('type') : undefined;
    if (param < 0) {
      const o = declared ? objectType(ctx, declared) : undefined;
      if (o) return o;
      continue;
    }
    const fnType = declared ? functionType(declared) : undefined;
    const t = fnType ? parametersOf(fnType)[param]?.childForFieldName('type') : undefined;
    const o = t ? typeOwner(ctx, t, 1) : undefined;
    if (o) return o;
  }
  return undefined;
}

/** What an object literal written where `type` is expected implements: `T`, `Partial<T>`, `T | ((x) => void)`. */
export function objectType(ctx: FileContext, type: Node): Owner | undefined {
  let t: Node | null = type;
  for (let depth = 0; t && depth < 4; depth++) {
    if (t.type === 'type_annotation' || t.type === 'parenthesized_type') t = t.firstNamedChild;
    else if (t.type === 'union_type') {
      const parts = objectParts(t);
      t = parts.length === 1 ? parts[0]! : null;
    } else if (t.type === 'generic_type' && ctx.tables.objectWrappers.has(t.childForFieldName('name')?.text ?? '')) t = t.childForFieldName('type_arguments')?.firstNamedChild ?? null;
    else return typeOwner(ctx, t, 1);
  }
  return undefined;
}

/** `const x: T = { a: 1 }`, `f({ a: 1 })`, `{ a: 1 } as T`: the type an object literal is written for. */
export function objectContext(ctx: FileContext, object: Node): Owner | undefined {
  const parent = ctx.up(object);
  if (!parent) return undefined;
  if (parent.type === 'variable_declarator' && parent.childForFieldName('value')?.id === object.id) {
    const type = parent.childForFieldName('type');
    return type ? objectType(ctx, type) : undefined;
  }
  if ((parent.type === 'as_expression' || parent.type === 'satisfies_expression') && parent.namedChildren[0]?.id === object.id) {
    return objectType(ctx, parent.namedChildren[1]!);
  }
  if (parent.type === 'parenthesized_expression') return objectContext(ctx, parent);
  const site = argumentSite(object, ctx.up);
  const target = site ? calleeTarget(ctx, site.callee) : undefined;
  if (target?.type === 'import') return { type: 'import', index: memberImport(ctx, target.index, `(${site!.index}:-1)`, object) };
  return target ? callbackType(ctx, target.defs, site!.index, -1) : undefined;
}

/**
 * `const { a, b: c } = v`, `({ a }: Props) => ...`: the property a binding is taken from (`a`,
 * `b`), and what it is taken from (v's owners, or the parameter's declared type).
 */
export function destructured(ctx: FileContext, d: Def): { key: Node; owners: Owner[]; value: Node | null } | undefined {
  const holder = ctx.up(d.name);
  const key = holder?.type === 'pair_pattern' ? holder.childForFieldName('key') : d.name.type === 'shorthand_property_identifier_pattern' ? d.name : null;
  if (!key || key.type === 'computed_property_name') return undefined; // (most declarations: before their grandparent is fetched)
  const pattern = holder?.type === 'pair_pattern' || holder?.type === 'object_assignment_pattern' ? ctx.up(holder) : holder;
  const source = pattern?.type === 'object_pattern' ? upq(ctx, pattern) : null;
  if (!source || !pattern) return undefined;
  if (source.type === 'variable_declarator') {
    const value = source.childForFieldName('value');
    return value ? { key, owners: ownersOf(ctx, value, 1), value } : undefined;
  }
  const type = source.childForFieldName('pattern')?.id === pattern.id ? source.childForFieldName('type') : null;
  const t = type ? typeOwner(ctx, type, 1) : undefined;
  return t ? { key, owners: [t], value: null } : undefined;
}

/** The member a destructured binding reads, as a reference target. */
export function destructuredMember(ctx: FileContext, key: Node, owners: Owner[]): RefTarget | undefined {
  for (const o of owners) {
    const t = memberIn(ctx, o, key.text);
    if (t) return t;
  }
  return undefined;
}

/** A destructured binding takes the type of the member it is taken from. */
export function destructuredType(ctx: FileContext, d: Def): Owner | undefined {
  const src = destructured(ctx, d);
  const t = src ? destructuredMember(ctx, src.key, src.owners) : undefined;
  if (t?.kind === 'member_of_import') return { type: 'import', index: memberImport(ctx, t.importIndex, src!.key.text, src!.key) };
  return t?.kind === 'symbol' ? declaredType(ctx, ctx.symbolDefs[t.symbol]) : undefined;
}

/** The type the innermost `x instanceof C` around `use` narrows the same variable to (a scope that holds the use). */
function narrowedType(ctx: FileContext, use: Node, b: Bound, depth: number): Owner | undefined {
  let best: FileContext['narrowings'][number] | undefined;
  for (const n of ctx.narrowings) {
    if (n.name.text !== use.text || n.scope.startIndex > use.startIndex || n.scope.endIndex < use.endIndex) continue;
    if (best && best.scope.startIndex >= n.scope.startIndex) continue;
    if (!sameBinding(resolveName(ctx, n.name, n.name.text, 'value'), b)) continue;
    best = n;
  }
  return best ? typeOwner(ctx, best.type, depth + 1) : undefined;
}

/** Two uses bound to the same declaration (a local's own definition, not just its name). */
function sameBinding(a: Bound | undefined, b: Bound): boolean {
  if (!a || a.type !== b.type) return false;
  return a.type === 'local' ? a.def !== undefined && a.def === (b as typeof a).def : a.index === (b as typeof a).index;
}
