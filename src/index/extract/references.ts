/**
 * References: each use of a name — a member access, an object literal's key, a destructured
 * binding, a doc-comment link, a plain name — with what it resolves to inside the file.
 */
import type { RefTarget } from '../facts.js';
import { DOC_LINK, countNewlines, sameTarget } from '../type-syntax.js';
import { type FileContext, upq } from './context.js';
import { resolveName } from './imports.js';
import { inheritedInNested, memberIn, unionTargets } from './member-lookup.js';
import { type Owner, asOwner } from './owner.js';
import { pushRef, enclosingSymbol } from './ref-fact.js';
import { argumentCount, roleOf } from './roles.js';
import { lookup } from './scopes.js';
import { destructured, destructuredMember, objectContext, ownersOf } from './types.js';

/** Names that are not references: declarations, and what `@ignore` covers. */
export function markDeclarations(ctx: FileContext): void {
  const { handled, dropped } = ctx;
  for (const d of ctx.defs) if (!dropped.has(d) && !d.rule.assigned && !d.rule.alsoReference) handled.add(d.name.id);
  for (const id of ctx.ignore) handled.add(id);
}

/** `obj.prop`: the member of what obj can be */
export function resolveMemberRefs(ctx: FileContext): void {
  const { handled, row } = ctx;
  for (const { prop, object } of ctx.memberRefs.values()) {
    if (handled.has(prop.id)) continue;
    handled.add(prop.id);
    const role = roleOf(prop, ctx.parentOf, ctx.tables);
    const args = role === 'call' && row.overloadsByArity ? argumentCount(prop) : undefined;
    let target: RefTarget = { kind: 'member' };
    let extra: RefTarget[] = [];
    for (const owner of ownersOf(ctx, object, 0)) {
      const t = memberIn(ctx, owner, prop.text, role === 'call', args);
      if (t) {
        target = t;
        // `x.m` with `x: A | B`: also B's m (one reference per member it may be)
        if (owner.type === 'union') extra = unionTargets(ctx, owner, prop.text, role === 'call', args).filter((u) => !sameTarget(u, t));
        break;
      }
    }
    // a name that is a member of its object's type or a name in scope (Java `case X:` is an enum
    // constant on an enum, a constant in scope on an int): of an unknown type, the one in scope
    if (target.kind === 'member' && ctx.inScopeToo.has(prop.id) && lookup(ctx, prop, prop.text)) {
      handled.delete(prop.id);
      continue;
    }
    pushRef(ctx, prop, target, role, args);
    for (const t of extra) pushRef(ctx, prop, t, role, args);
  }
}

/**
 * `x[k]`, `this[kRun]()`: a use of the member named `[k]` (a computed key's own name, as the index
 * declares `[kRun]() {}`) of what x can be. The key stays a read of k: this reference is beside it.
 */
export function resolveComputedRefs(ctx: FileContext): void {
  for (const { key, object, access } of ctx.computedRefs) {
    const name = `[${key.text}]`;
    // (how `x[k]` is used, as for any name: called, written, read)
    const role = roleOf(access, ctx.parentOf, ctx.tables);
    let target: RefTarget = { kind: 'member' };
    for (const owner of ownersOf(ctx, object, 0)) {
      const t = memberIn(ctx, owner, name, role === 'call');
      if (t) {
        target = t;
        break;
      }
    }
    pushRef(ctx, key, target, role, undefined, name);
  }
}

/**
 * `const x: T = { a: 1 }`, `f({ a: 1, b() {} })`: the keys write the members of the type the object
 * is written for (no type in sight: nothing, they only declare the literal's own members).
 */
export function resolveObjectKeys(ctx: FileContext): void {
  const { symbols, up } = ctx;
  for (const key of ctx.objectKeys) {
    // a member of a declared object whose type is its base (`const p: T = { now() {} }`) is related
    // to T's member as an implementation, not a use of it
    const own = ctx.defsByName.get(`${key.id}:m`)?.symbol;
    const container = own != null ? symbols[own]!.container : null;
    if (container != null && symbols[container]!.bases?.length) continue;
    const object = up(key)?.type === 'object' ? up(key) : upq(ctx, up(key));
    const owner = object?.type === 'object' ? objectContext(ctx, object) : undefined;
    const target = owner ? memberIn(ctx, owner, key.text) : undefined;
    if (target && target.kind !== 'member') pushRef(ctx, key, target, 'write');
  }
}

/** `const { a, b: c } = v`: `a` and `b` read those members of v (of a value of unknown type: a guess) */
export function resolveDestructured(ctx: FileContext): void {
  for (const d of ctx.defs) {
    if (d.rule.binding === 'member' || ctx.dropped.has(d) || ctx.requireNames.has(d.name.id)) continue;
    const src = destructured(ctx, d);
    if (!src || (src.value?.type === 'call_expression' && src.value.childForFieldName('function')?.text === 'require')) continue;
    pushRef(ctx, src.key, destructuredMember(ctx, src.key, src.owners) ?? { kind: 'member' }, 'read');
  }
}

/**
 * `{@link Name}`, `{@link Name.member}`, `@see Name` in a doc comment: the compiler resolves them
 * from where the comment is, and so do we; a name that does not resolve is dropped, not guessed.
 */
export function resolveDocLinks(ctx: FileContext): void {
  for (const comment of ctx.docComments) {
    const text = comment.text;
    if (!text.startsWith('/**')) continue;
    const start = comment.startPosition;
    const positionOf = (offset: number) => {
      const before = text.lastIndexOf('\n', offset - 1);
      const row = start.row + (before < 0 ? 0 : countNewlines(text, offset));
      return { line: row + 1, column: before < 0 ? start.column + offset + 1 : offset - before };
    };
    for (const m of text.matchAll(DOC_LINK)) {
      const path = m[1] ?? m[2]!;
      let offset = m.index! + m[0].length - path.length;
      const parts = path.split(/[.#]/);
      let owner: Owner | undefined;
      for (const [i, part] of parts.entries()) {
        let target: RefTarget | undefined;
        if (i === 0) {
          const b = lookup(ctx, comment, part);
          owner = asOwner(b);
          target = b?.type === 'symbol' ? { kind: 'symbol', symbol: b.index } : b?.type === 'import' ? { kind: 'import', importIndex: b.index } : undefined;
        } else if (owner) {
          target = memberIn(ctx, owner, part);
          owner = target?.kind === 'symbol' ? { type: 'symbol', index: target.symbol } : undefined;
        }
        if (!target || target.kind === 'member') break;
        const at = positionOf(offset);
        ctx.refs.push({ name: part, line: at.line, column: at.column, endColumn: at.column + part.length, role: 'doc', target, enclosing: enclosingSymbol(ctx, comment) });
        offset += part.length + 1;
      }
    }
  }
}

/** Plain names: what they are bound to in scope (or unbound) */
export function resolvePlainRefs(ctx: FileContext): void {
  const { handled, selfTypes, macroRefs, moduleRefs, symbols, row } = ctx;
  for (const node of ctx.plainRefs.values()) {
    if (handled.has(node.id) || selfTypes.has(node.id)) continue;
    if (macroRefs.has(node.id)) {
      // a macro of this file, or nothing: `format!` is not the function `format`
      const m = lookup(ctx, node, node.text, 'macro');
      if (m?.type === 'symbol') pushRef(ctx, node, { kind: 'symbol', symbol: m.index }, 'call');
      continue;
    }
    if (moduleRefs.has(node.id) && (node.type !== 'identifier' || (!ctx.hasWildcard && !lookup(ctx, node, node.text)))) continue; // `self::`, a crate's name
    const role = roleOf(node, ctx.parentOf, ctx.tables);
    const b = resolveName(ctx, node, node.text, node.type === 'type_identifier' ? 'type' : role === 'call' ? 'call' : 'value');
    if (b?.type === 'local') {
      // a parameter or local variable: not an indexed symbol, unless the parameter declares a
      // property (`constructor(public x)`: `x` in the body is that property, as TypeScript sees it)
      const property = b.def ? ctx.defsByName.get(`${b.def.name.id}:m`)?.symbol : undefined;
      if (property != null) pushRef(ctx, node, { kind: 'symbol', symbol: property }, role);
      continue;
    }
    let target: RefTarget =
      b?.type === 'symbol' ? { kind: 'symbol', symbol: b.index }
      : b?.type === 'import' ? { kind: 'import', importIndex: b.index }
      : { kind: 'unbound' };
    // an unqualified call of an overloaded method: the overload that takes this many arguments
    const args = role === 'call' && row.overloadsByArity ? argumentCount(node) : undefined;
    const container = b?.type === 'symbol' ? symbols[b.index]!.container : null;
    if (args !== undefined && container != null && symbols[b!.index]!.kind === 'method') {
      const t = memberIn(ctx, { type: 'symbol', index: container }, node.text, true, args);
      if (t) target = t;
    }
    // a member of an outer class is hidden by one a nested class inherits (Java: `ListItr extends
    // Itr` sees Itr's method before the enclosing class's); bases of this file only
    if (row.membersInScope && container != null) {
      const inherited = inheritedInNested(ctx, node, container, role === 'call', args);
      if (inherited != null) target = { kind: 'symbol', symbol: inherited };
    }
    pushRef(ctx, node, target, role, args);
  }
}
