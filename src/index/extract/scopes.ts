/**
 * Scopes and bindings: where each definition binds, and what a name seen from a node is bound to.
 */
import type { Node } from 'web-tree-sitter';
import { NodeRanges } from '../ancestry.js';
import type { Bound, FileContext } from './context.js';
import { NAMESPACE_KINDS, type Namespace } from './rules.js';

/** the order in which namespaces are searched for a use of each kind; 'call' holds the methods of
 * languages where a field and a method may share a name (Java `name` and `name()`) */
const SEARCH: Record<'value' | 'type' | 'call' | 'macro', string[]> = {
  // (a name read as a value or a type is never one of those methods: Java `ks = keySet` is a field)
  value: ['value', 'type'], type: ['type', 'value'], call: ['call', 'value', 'type'],
  // Rust macros have a namespace of their own: `format!` is never the function `format`
  macro: ['macro'],
};

/** The scopes by range, once the captures have named them all. */
export function indexScopes(ctx: FileContext): void {
  ctx.scopeRanges = ctx.macroRoots.length === 0 ? new NodeRanges(ctx.stopNodes.values()) : undefined;
}

/** the nearest proper ancestor of `n` that is a scope or a `@scope.outer` node */
export function nextStop(ctx: FileContext, n: Node): Node | null {
  const near = ctx.scopeRanges?.nearest(n);
  if (near !== undefined) return near;
  const { stops, scopes, outerNodes } = ctx;
  const pending: number[] = [];
  let result: Node | null;
  for (let cur = n; ; ) {
    const known = stops.get(cur.id);
    if (known !== undefined) {
      result = known;
      break;
    }
    pending.push(cur.id);
    const p = ctx.parentOf(cur);
    if (!p || scopes.has(p.id) || outerNodes.has(p.id)) {
      result = p;
      break;
    }
    cur = p;
  }
  for (const id of pending) stops.set(id, result);
  return result;
}

export function scopeOf(ctx: FileContext, from: Node | null, fnOnly: boolean): Node {
  const { scopes } = ctx;
  for (let n = from; n; n = nextStop(ctx, n)) {
    const isFn = scopes.get(n.id);
    if (isFn !== undefined && (isFn || !fnOnly)) return n;
  }
  return ctx.root;
}

export function bind(ctx: FileContext, scope: Node, name: string, b: Bound, ns: Namespace, force = false): void {
  const { bindings, shadowing } = ctx;
  let m = bindings.get(scope.id);
  if (!m) bindings.set(scope.id, (m = new Map()));
  for (const key of ns === 'both' ? ['value', 'type'] : [ns]) {
    // first declaration wins (overloads, merged declarations)
    if (force || !m.has(`${key}:${name}`)) m.set(`${key}:${name}`, b);
    if (ctx.row.localsAfterDeclaration && b.type === 'local') {
      let sm = shadowing.get(scope.id);
      if (!sm) shadowing.set(scope.id, (sm = new Map()));
      sm.set(`${key}:${name}`, [...(sm.get(`${key}:${name}`) ?? []), b]);
    }
  }
}

/** `global x` / `nonlocal x` in a function: x is not local to it (its assignments bind outside) */
export function declareOutsideNames(ctx: FileContext): void {
  const { outsideNames } = ctx;
  for (const { node, global } of ctx.declaredOutside) {
    const fn = scopeOf(ctx, node, true);
    let m = outsideNames.get(fn.id);
    if (!m) outsideNames.set(fn.id, (m = new Map()));
    m.set(node.text, global);
  }
}

/** the binding of `name` seen from `at`, in namespace `ns` (falling back to the others) */
export function lookup(ctx: FileContext, at: Node, name: string, ns: 'value' | 'type' | 'call' | 'macro' = 'value'): Bound | undefined {
  const { outerNodes, scopes, shadowing, classScopes, bindings, outsideNames, row } = ctx;
  for (const key of SEARCH[ns]) {
    let inFunction = false;
    let outer = false;
    for (let n: Node | null = at; n; n = nextStop(ctx, n)) {
      if (outerNodes.has(n.id)) outer = true;
      if (!scopes.has(n.id)) continue;
      if (outer && scopes.get(n.id)) {
        outer = false; // the function's own scope is not seen from its defaults and annotations
        continue;
      }
      // the latest local declared before `at` (a later `let x` shadows an earlier one)
      let latest: Bound | undefined;
      for (const l of shadowing.get(n.id)?.get(`${key}:${name}`) ?? []) if (l.type === 'local' && l.def && l.def.node.endIndex <= at.startIndex) latest = l;
      if (latest) return latest;
      // a class body is not seen from the functions inside it (Python)
      const b = inFunction && classScopes.has(n.id) ? undefined : bindings.get(n.id)?.get(`${key}:${name}`);
      // where locals are visible only after their declaration, an earlier use means an outer binding
      if (b && !(row.localsAfterDeclaration && b.type === 'local' && b.def && at.startIndex < b.def.node.endIndex)) return b;
      if (scopes.get(n.id)) inFunction = true;
      if (outsideNames.get(n.id)?.get(name) === true) {
        const g = bindings.get(ctx.root.id)?.get(`${key}:${name}`);
        if (g) return g;
        break;
      }
    }
  }
  return undefined;
}

/** The definitions in source order, each with the scope it binds in. */
export function placeDefinitions(ctx: FileContext): void {
  ctx.defs = [...ctx.defsByName.values()].sort((a, b) => a.node.startIndex - b.node.startIndex || a.pattern - b.pattern);
  const { defByNode } = ctx;
  for (const d of ctx.defs) {
    // a definition binds in the innermost scope that strictly contains its declaration node
    if (d.rule.binding === 'lexical') d.scope = scopeOf(ctx, nextStop(ctx, d.node), false);
    else if (d.rule.binding === 'hoisted') d.scope = scopeOf(ctx, nextStop(ctx, d.node), true);
    if (!defByNode.has(d.node.id) || d.rule.binding !== 'member') defByNode.set(d.node.id, d);
  }
}

/** Whether a scope is the body of a namespace or module (its top-level definitions are stored). */
export function isNamespaceScope(ctx: FileContext, scope: Node): boolean {
  const { defByNode } = ctx;
  const owner = ctx.up(scope) ? defByNode.get(ctx.up(scope)!.id) ?? defByNode.get(scope.id) : defByNode.get(scope.id);
  return owner !== undefined && NAMESPACE_KINDS.has(owner.rule.kind);
}
