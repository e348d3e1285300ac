/**
 * Finding a member by name in an owner (a symbol of this file, its bases, a union, or an import
 * whose members link.ts finds).
 */
import type { Node } from 'web-tree-sitter';
import type { RefTarget, SymbolFact } from '../facts.js';
import { sameTarget } from '../type-syntax.js';
import type { FileContext } from './context.js';
import type { Access, Owner } from './owner.js';
import { implicitImport, memberImport } from './imports.js';
import { THIS_KINDS } from './rules.js';

/** The members of each container by name, and each member access by its node: all symbols are known now. */
export function indexMembers(ctx: FileContext): void {
  const { membersOf, memberExprs } = ctx;
  ctx.symbols.forEach((s, i) => {
    if (s.container == null) return;
    let m = membersOf.get(s.container);
    if (!m) membersOf.set(s.container, (m = new Map()));
    const same = m.get(s.name);
    if (same) same.push(i);
    else m.set(s.name, [i]);
  });
  for (const m of ctx.memberRefs.values()) if (ctx.up(m.prop)) memberExprs.set(ctx.up(m.prop)!.id, m);
}

/** a member by name: for a call the method where a field shares its name (Java), else the first declared */
function memberNamed(ctx: FileContext, container: number, name: string, call: boolean, args?: number, access?: Access): number | null | undefined {
  const { symbols } = ctx;
  let same = ctx.membersOf.get(container)?.get(name);
  // a static and an instance member of one name: `C.x` is the static one, `this.x` the other
  if (same && access && same.some((i) => symbols[i]!.isStatic) && same.some((i) => !symbols[i]!.isStatic)) {
    same = same.filter((i) => (symbols[i]!.isStatic === true) === (access === 'static'));
  }
  if (same && call && args !== undefined && ctx.row.overloadsByArity) {
    // overloads: the one that takes this many arguments; several do: no single answer (null);
    // none does: an overload the class inherits (undefined: look in the bases)
    const methods = same.filter((i) => symbols[i]!.kind === 'method');
    if (methods.length > 0) {
      const fitting = methods.filter((i) => takes(symbols[i]!, args));
      if (fitting.length !== 1) return fitting.length > 1 ? null : undefined;
      return fitting[0];
    }
  }
  return same?.find((i) => (symbols[i]!.kind === 'method') === call) ?? same?.[0];
}

/** Whether a method takes a call's number of arguments (a variadic last parameter takes any). */
function takes(s: SymbolFact, args: number): boolean {
  return s.arity === args || (s.variadic === true && s.arity !== undefined && args >= s.arity - 1);
}

/** `name` in an owner or its bases; an imported owner is finished by link.ts */
export function memberIn(ctx: FileContext, owner: Owner, name: string, call = false, args?: number): RefTarget | undefined {
  // (inherited members are reached the way the first owner was: through the class or an instance)
  const access = owner.type === 'union' ? undefined : owner.access;
  const queue: Owner[] = [owner];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const o = queue.shift()!;
    const key = o.type === 'union' ? `union:${queue.length}:${seen.size}` : `${o.type}:${o.index}`;
    if (seen.has(key) || seen.size > 32) continue;
    seen.add(key);
    if (o.type === 'import') return { kind: 'member_of_import', importIndex: o.index, ...(access ? { access } : {}) };
    if (o.type === 'union') {
      // the first member type that has it (the others: see unionTargets)
      for (const part of o.parts) {
        const t = memberIn(ctx, part, name, call, args);
        if (t && t.kind !== 'member') return t;
      }
      continue;
    }
    const m = memberNamed(ctx, o.index, name, call, args, access);
    if (m === null) return { kind: 'member' }; // overloads that take as many arguments: a guess
    if (m !== undefined) return { kind: 'symbol', symbol: m };
    queue.push(...(ctx.basesOf.get(o.index) ?? []));
  }
  return undefined;
}

/**
 * A field or method named like `at` that a class nested inside `outer`, whose body holds `at`,
 * inherits from a base of this file (not a type, not a constructor).
 */
export function inheritedInNested(ctx: FileContext, at: Node, outer: number, call: boolean, args: number | undefined): number | null {
  if (at.type !== 'identifier') return null;
  const { symbols } = ctx;
  for (let prev = at, p = ctx.parentOf(at); p; prev = p, p = ctx.parentOf(p)) {
    const d = ctx.defByNode.get(p.id);
    if (d?.symbol == null || !THIS_KINDS.has(d.rule.kind)) continue;
    if (d.symbol === outer || p.childForFieldName('body')?.id !== prev.id) return null;
    for (const base of ctx.basesOf.get(d.symbol) ?? []) {
      if (base.type !== 'symbol') continue;
      const t = memberIn(ctx, base, at.text, call, args);
      if (t?.kind !== 'symbol') continue;
      const s = symbols[t.symbol]!;
      if ((s.kind === 'method' || s.kind === 'property') && s.name !== symbols[s.container ?? -1]?.name) return t.symbol;
    }
  }
  return null;
}

/** `m` in each member type of a union that has it (distinct answers). */
export function unionTargets(ctx: FileContext, u: { type: 'union'; parts: Owner[] }, name: string, call: boolean, args?: number): RefTarget[] {
  const out: RefTarget[] = [];
  for (const part of u.parts) {
    const found = part.type === 'union' ? unionTargets(ctx, part, name, call, args) : [memberIn(ctx, part, name, call, args)];
    for (const t of found) if (t && t.kind !== 'member' && !out.some((o) => sameTarget(o, t))) out.push(t);
  }
  return out;
}

/** `ns.Name` where ns is an imported namespace or a package-scope name: an import of Name itself */
export function importedMember(ctx: FileContext, o: Owner, name: string, at: Node): Owner | undefined {
  if (o.type !== 'import') return undefined;
  const imp = ctx.imports[o.index]!;
  if (imp.kind === 'scope') return { type: 'import', index: implicitImport(ctx, `${imp.source}.${name}`, '*', 'scope', at) };
  if (imp.kind) return undefined;
  if (imp.imported === '*' && !imp.scope && imp.base === undefined) return { type: 'import', index: implicitImport(ctx, imp.source, name, undefined, at) };
  // a member of what the import names (`a.b.c` after `import a`; `T::new` after `use m::T`; Java
  // `Outer.Inner` after `import a.b.Outer`; Go `m.Method` with `m pkg.T`)
  return { type: 'import', index: memberImport(ctx, o.index, name, at) };
}
