/**
 * What the file says about its symbols' types, for this file's member lookups and for link.ts:
 * bases, the results and elements of functions and values, unions, callback parameters.
 */
import { functionType, parametersOf } from '../type-syntax.js';
import type { FileContext } from './context.js';
import { jsdocResult } from './jsdoc.js';
import { resolveName } from './imports.js';
import { asOwner, ownerFact } from './owner.js';
import { VALUE_KINDS } from './rules.js';
import { callbackType, declaredType, elementOfType, objectType, typeNodeOf, typeOwner } from './types.js';

/** `class A extends B`, `interface I extends J`: the bases of the file's classes */
export function recordBases(ctx: FileContext): void {
  const { basesOf, symbols } = ctx;
  for (const { derived, base } of ctx.baseClasses) {
    const cls = ctx.defByNode.get(derived.id)?.symbol;
    const b = typeOwner(ctx, base, 0);
    if (cls == null || !b) continue;
    basesOf.set(cls, [...(basesOf.get(cls) ?? []), b]);
    symbols[cls]!.bases = [...(symbols[cls]!.bases ?? []), ownerFact(b)];
  }
}

/** `impl Trait for T`: T (declared here, or imported) gains Trait as a base */
export function recordImplementers(ctx: FileContext): void {
  const { basesOf, symbols } = ctx;
  for (const { derived, base } of ctx.implementers) {
    const t = asOwner(resolveName(ctx, derived, derived.text, 'type'));
    const b = typeOwner(ctx, base, 0);
    if (!t || !b) continue;
    const fact = ownerFact(b);
    if (t.type === 'import') ctx.importBases.push({ derivedImport: t.index, base: fact });
    else {
      basesOf.set(t.index, [...(basesOf.get(t.index) ?? []), b]);
      symbols[t.index]!.bases = [...(symbols[t.index]!.bases ?? []), fact];
    }
  }
}

/**
 * What calling a function gives: the type its declared result names (for members of a call's
 * result); a variable's, field's or constant's declared type (for members of it in other files).
 */
export function recordTypeFacts(ctx: FileContext): void {
  const { symbols } = ctx;
  for (const d of ctx.symbolDefs) {
    if (d.symbol == null) continue;
    const stated = ctx.declaredTypes.get(d.name.id) ?? ctx.declaredResults.get(d.name.id);
    const isFunction = d.rule.kind === 'function' || d.rule.kind === 'method';
    const t = VALUE_KINDS.has(d.rule.kind) ? declaredType(ctx, d)
      : stated && isFunction ? typeOwner(ctx, stated, 0) : isFunction ? jsdocResult(ctx, d) : undefined;
    if (t) symbols[d.symbol]!.returns = ownerFact(t);
    // what its elements are, for a collection value or a function returning one (`items: T[]`,
    // `findAll(): Array<T>`): for `for (x of a.items)`, `f().forEach((x) => ...)` in other files
    const collection = VALUE_KINDS.has(d.rule.kind) ? typeNodeOf(ctx, d, 0)
      : d.rule.kind === 'function' || d.rule.kind === 'method' ? stated ?? null : null;
    const element = collection ? elementOfType(ctx, collection, 0) : undefined;
    if (element) symbols[d.symbol]!.elements = ownerFact(element);
    // `type S = A | B`: S's members are those of A and of B (for `x: S` in other files)
    const union = d.rule.kind === 'type' ? d.node.childForFieldName('value') : null;
    const parts = union?.type === 'union_type' ? typeOwner(ctx, union, 0) : undefined;
    if (parts?.type === 'union') symbols[d.symbol]!.union = parts.parts.map(ownerFact);
    // what a function passed to it receives (`cb: (a: A) => void`): for untyped callback parameters in other files
    if (d.rule.kind === 'function' || d.rule.kind === 'method') {
      const fn = d.node.type === 'variable_declarator' ? d.node.childForFieldName('value') : d.node;
      parametersOf(fn ?? d.node).forEach((p, arg) => {
        // (TypeScript's annotations: object literals and callbacks are typed by them)
        const declared = p.childForFieldName('type');
        if (declared?.type !== 'type_annotation') return;
        // the type an object literal passed here is written for (param -1)
        const objectOwner = declared && !functionType(declared) ? objectType(ctx, declared) : undefined;
        if (objectOwner) (symbols[d.symbol!]!.callbacks ??= []).push({ arg, param: -1, type: ownerFact(objectOwner) });
        const fnType = declared ? functionType(declared) : undefined;
        if (!fnType) return;
        parametersOf(fnType).forEach((_, param) => {
          const o = callbackType(ctx, [d], arg, param);
          if (o) (symbols[d.symbol!]!.callbacks ??= []).push({ arg, param, type: ownerFact(o) });
        });
      });
    }
  }
}
