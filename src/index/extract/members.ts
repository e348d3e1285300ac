/**
 * Members declared apart from their type (Go receivers, Python `self.x = v`), members in scope
 * inside their class, and the arity of overloads.
 */
import type { Node } from 'web-tree-sitter';
import { type FileContext, endOf } from './context.js';
import type { Owner } from './owner.js';
import { resolveName } from './imports.js';
import { THIS_KINDS } from './rules.js';
import { bind, lookup, nextStop, scopeOf } from './scopes.js';
import { signatureAt } from './symbols.js';

/** Go: `func (s *Server) Start()` belongs to Server, declared in this file or elsewhere in the package */
export function attachReceivers(ctx: FileContext): void {
  const { symbols } = ctx;
  for (const d of ctx.symbolDefs) {
    const recv = ctx.receivers.get(d.name.id);
    if (!recv || d.symbol == null) continue;
    const b = resolveName(ctx, recv, recv.text, 'type');
    if (b?.type === 'symbol') symbols[d.symbol]!.container = b.index;
    else if (b?.type === 'import') symbols[d.symbol]!.containerImport = b.index;
  }
}

/** Java: inside a class body its own members are in scope (inherited ones are found at link time) */
export function bindOwnMembers(ctx: FileContext): void {
  const { symbols, symbolDefs, scopes } = ctx;
  if (ctx.row.membersInScope) {
    for (const d of symbolDefs) {
      const c = d.symbol != null ? symbols[d.symbol]!.container : null;
      if (d.rule.binding !== 'member' || c == null) continue;
      const owner = symbolDefs[c]!.node;
      const body = owner.childForFieldName('body') ?? owner.namedChildren.find((n) => n != null && scopes.has(n.id)) ?? null;
      if (body && scopes.has(body.id)) bind(ctx, body, d.name.text, { type: 'symbol', index: d.symbol! }, d.rule.kind === 'method' ? 'call' : 'value');
    }
  }
}

/**
 * Python: a class body's own names (methods, attributes) are in scope in the body, not in its
 * methods (`@x.setter` names the property x).
 */
export function bindClassBodyNames(ctx: FileContext): void {
  for (const d of ctx.symbolDefs) {
    if (d.rule.binding !== 'member' || d.symbol == null) continue;
    const scope = scopeOf(ctx, nextStop(ctx, d.node), false);
    if (ctx.classScopes.has(scope.id)) bind(ctx, scope, d.name.text, { type: 'symbol', index: d.symbol }, 'value');
  }
}

/** The type a member belongs to, from inside it: its class or trait, or the type of its impl block (maybe imported). */
export function containerOwnerAt(ctx: FileContext, n: Node): Owner | undefined {
  for (let p: Node | null = n; p; p = ctx.up(p)) {
    const d = ctx.defByNode.get(p.id);
    if (d?.symbol == null) continue;
    if (d.rule.binding === 'member') {
      const s = ctx.symbols[d.symbol]!;
      return s.container != null ? { type: 'symbol', index: s.container } : s.containerImport != null ? { type: 'import', index: s.containerImport } : undefined;
    }
    if (THIS_KINDS.has(d.rule.kind) || d.rule.kind === 'trait') return { type: 'symbol', index: d.symbol };
  }
  return undefined;
}

// `self.x = v` declares x on the receiver's class, unless the class or a base in this file has it
function hasMember(ctx: FileContext, cls: number, name: string, depth = 0): boolean {
  return ctx.symbols.some((s) => s.container === cls && s.name === name) ||
    (depth < 8 && ctx.baseClasses.some(({ derived, base }) => {
      if (ctx.defByNode.get(derived.id)?.symbol !== cls) return false;
      const b = lookup(ctx, base, base.text);
      return b?.type === 'symbol' && hasMember(ctx, b.index, name, depth + 1);
    }));
}

/** `self.x = v`: a member of the receiver's class, now that the class is known */
export function declareAssignedMembers(ctx: FileContext): void {
  const { defByNode, memberRefs, symbols, reassigned, symbolDefs, handled } = ctx;
  for (const d of ctx.defs) {
    if (!d.rule.assigned) continue;
    if (defByNode.get(d.node.id) === d) defByNode.delete(d.node.id); // an assignment statement, not a scope of its own
    ctx.symbolRanges = undefined;
    const object = memberRefs.get(d.name.id)?.object;
    const receiver = object ? lookup(ctx, object, object.text) : undefined;
    const owner = receiver?.type === 'local' && receiver.def?.rule.receiver ? containerOwnerAt(ctx, receiver.def.node) : undefined;
    if (owner?.type !== 'symbol') continue;
    if (hasMember(ctx, owner.index, d.name.text)) {
      // a write to the member (a reference); an attribute assigned twice has no evident type
      const m = symbols.findIndex((s) => s.container === owner.index && s.name === d.name.text);
      if (m >= 0 && symbolDefs[m]) reassigned.add(symbolDefs.find((x) => x.symbol === m)!);
      continue;
    }
    d.symbol = symbols.length;
    symbolDefs.push(d);
    handled.add(d.name.id);
    symbols.push({
      name: d.name.text, kind: d.rule.kind, container: owner.index,
      line: d.node.startPosition.row + 1, column: d.node.startPosition.column + 1,
      endLine: endOf(ctx, d.node).row + 1, endColumn: endOf(ctx, d.node).column + 1,
      nameLine: d.name.startPosition.row + 1, nameColumn: d.name.startPosition.column + 1,
      exported: false, isDefault: false, local: false, signature: signatureAt(ctx.lines, d.node.startPosition.row, d.node.startPosition.column),
    });
  }
}

/** overloads told apart by their number of parameters (Java): how many each method declares */
export function countParameters(ctx: FileContext): void {
  const { symbols } = ctx;
  if (ctx.row.overloadsByArity) {
    for (const d of ctx.symbolDefs) if (d.symbol != null && (d.rule.kind === 'method' || d.rule.kind === 'function')) symbols[d.symbol]!.arity = 0;
    for (const d of ctx.defs) {
      if (d.rule.kind !== 'parameter' || !d.scope) continue;
      const fn = ctx.defByNode.get(d.scope.id);
      const s = fn?.symbol != null ? symbols[fn.symbol] : undefined;
      if (s?.arity === undefined) continue;
      s.arity++;
      if (d.rule.variadic) s.variadic = true;
    }
  }
}

/**
 * `this` in a method of an object literal (`{ m() { this.n() } }`, `{ m: function () {…} }`): the
 * object, named by what holds it (a variable, or the function that returns it), as the compiler
 * types it; not in an arrow function's value (`m: () => this.n()` is the `this` around the object).
 */
export function enclosingObject(ctx: FileContext, n: Node): number | null {
  const memberMethod = (x: Node | null) => {
    const d = x ? ctx.defByNode.get(x.id) : undefined;
    // (a getter or setter of an object literal is a property, and `this` in it is the object too:
    // koa's `set type(type) { … this.remove('Content-Type') }` — agent trial tr150)
    return d && d.rule.binding === 'member' && (d.rule.kind === 'method' || d.node.type === 'method_definition') ? d : undefined;
  };
  for (let p = ctx.up(n); p; p = ctx.up(p)) {
    const d = memberMethod(p);
    if (d) {
      const value = d.node.childForFieldName('value');
      if (d.symbol == null || (value && !ctx.tables.thisRebinders.has(value.type))) return null;
      const holder = ctx.symbols[d.symbol]!.container;
      return holder != null && !THIS_KINDS.has(ctx.symbols[holder]!.kind) ? holder : null;
    }
    // a function rebinds `this`, unless it is the value of such a method
    if (ctx.tables.thisRebinders.has(p.type) && !memberMethod(ctx.up(p))) return null;
  }
  return null;
}

/** The class whose instance `this` is at `n`, if nothing rebinds it in between. */
export function enclosingClass(ctx: FileContext, n: Node): number | null {
  for (let p = ctx.up(n); p; p = ctx.up(p)) {
    const d = ctx.defByNode.get(p.id);
    if (d?.symbol != null && THIS_KINDS.has(d.rule.kind)) return d.symbol;
    // `this` is rebound by a nested non-arrow function or an anonymous class (Java `new T() {...}`)
    if (ctx.tables.thisRebinders.has(p.type) && !(d?.rule.kind === 'method')) return null;
    if (p.type === 'class_body' && ctx.up(p)?.type === 'object_creation_expression') return null;
  }
  return null;
}
