/**
 * JavaScript: the types doc comments declare (`@param {T} x`, `@type {T}`, `@returns {T}`).
 */
import type { Node } from 'web-tree-sitter';
import { docCommentOf, jsdocTypeName } from '../type-syntax.js';
import type { Def, FileContext } from './context.js';
import { type Owner, asOwner } from './owner.js';
import { VALUE_KINDS } from './rules.js';
import { lookup } from './scopes.js';

/** A JSDoc type name, resolved from the comment's position. */
function jsdocOwner(ctx: FileContext, comment: Node | undefined, tag: 'param' | 'type' | 'returns', name?: string): Owner | undefined {
  const typeName = comment ? jsdocTypeName(comment.text, tag, name) : undefined;
  return typeName ? asOwner(lookup(ctx, comment!, typeName, 'type')) : undefined;
}

/** `@param {T} x` of the function a parameter belongs to; `@type {T}` of a variable or field. */
export function jsdocDeclared(ctx: FileContext, d: Def): Owner | undefined {
  const { up } = ctx;
  if (d.rule.kind === 'parameter') {
    let fn: Node | null = up(d.name);
    for (let i = 0; fn && i < 3 && !ctx.tables.parameterHolders.has(fn.type); i++) fn = up(fn);
    return fn && ctx.tables.parameterHolders.has(fn.type) ? jsdocOwner(ctx, docCommentOf(fn, ctx.tables.declarationHolders, up), 'param', d.name.text) : undefined;
  }
  return VALUE_KINDS.has(d.rule.kind) ? jsdocOwner(ctx, docCommentOf(d.node, ctx.tables.declarationHolders, up), 'type') : undefined;
}

/** `@returns {T}` of a function. */
export const jsdocResult = (ctx: FileContext, fn: Def): Owner | undefined => (ctx.row.jsdocTypes ? jsdocOwner(ctx, docCommentOf(fn.node, ctx.tables.declarationHolders, ctx.up), 'returns') : undefined);
