/**
 * Writing a reference fact: its position, and the symbol whose declaration encloses it.
 */
import type { Node } from 'web-tree-sitter';
import type { RefFact, RefTarget } from '../facts.js';
import { NodeRanges } from '../ancestry.js';
import type { FileContext } from './context.js';

export function enclosingSymbol(ctx: FileContext, n: Node): number | null {
  const { defByNode, enclosers } = ctx;
  const symbolOf = (node: Node) => defByNode.get(node.id)?.symbol ?? enclosers.get(node.id)?.symbol ?? null;
  if (ctx.macroRoots.length === 0) {
    ctx.symbolRanges ??= new NodeRanges([...[...defByNode.values()].filter((d) => d.symbol != null).map((d) => d.node), ...[...enclosers.values()].map((e) => e.node)]);
    const near = ctx.symbolRanges.nearest(n);
    if (near !== undefined) return near && symbolOf(near);
  }
  for (let p = ctx.parentOf(n); p; p = ctx.parentOf(p)) {
    const s = symbolOf(p);
    if (s != null) return s;
  }
  return null;
}

export function pushRef(ctx: FileContext, node: Node, target: RefTarget, role: RefFact['role'], args?: number, name = node.text): void {
  ctx.refs.push({
    name,
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    endColumn: node.startPosition.row === node.endPosition.row ? node.endPosition.column + 1 : node.startPosition.column + 1 + node.text.length,
    role,
    target,
    enclosing: enclosingSymbol(ctx, node),
    ...(args !== undefined ? { args } : {}),
  });
}
