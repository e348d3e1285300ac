/**
 * Which definitions become symbols of the file (and which are locals, or not definitions after
 * all), each with its container; every definition is bound in its scope here.
 */
import { NodeRanges } from '../ancestry.js';
import type { Node } from 'web-tree-sitter';
import { type Def, type FileContext, endOf } from './context.js';
import { CONTAINER_KINDS, NAMESPACE_KINDS, NAMESPACE_OF_KIND } from './rules.js';
import { bind, isNamespaceScope, lookup, scopeOf } from './scopes.js';
import { LONG_LINE } from '../../util/words.js';

const SIGNATURE_MAX = 160;
/** A declaration's signature: its line, whitespace folded, cut at SIGNATURE_MAX; on a bundle's long line, from the declaration's column. */
export function signatureAt(lines: string[], row: number, column: number): string {
  const line = lines[row] ?? '';
  const text = (line.length > LONG_LINE ? line.slice(column, column + 4 * SIGNATURE_MAX) : line).trim().replace(/\s+/g, ' ');
  return text.length > SIGNATURE_MAX ? text.slice(0, SIGNATURE_MAX - 1) + '…' : text;
}

// the declarations that can hold members, by range: for a declaration that is not a member, its
// container is the nearest one around it
export function containerOf(ctx: FileContext, d: Def): Def | undefined {
  const h = holderOf(ctx, d);
  return h && 'rule' in h ? h : undefined;
}

/**
 * A declaration's container; for a member no declaration holds, the node that would hold it —
 * the call it is passed to (`export default createRule({ create() {…} })`) or the outermost object
 * or class around it (`export default { setup() {…} }`): the default exports.ts makes of that
 * node holds the member.
 */
function holderOf(ctx: FileContext, d: Def): Def | Node | undefined {
  const { defByNode } = ctx;
  if (d.rule.expando) return expandoHolder(ctx, d);
  if (d.rule.binding !== 'member' && ctx.macroRoots.length === 0) {
    ctx.containerRanges ??= new NodeRanges([...defByNode.values()].filter((c) => CONTAINER_KINDS.has(c.rule.kind)).map((c) => c.node));
    const near = ctx.containerRanges.nearest(d.node);
    if (near !== undefined) return near ? defByNode.get(near.id) : undefined;
  }
  for (let n = ctx.parentOf(d.node), from = d.node; n; from = n, n = ctx.parentOf(n)) {
    const c = defByNode.get(n.id);
    if (c && c !== d && CONTAINER_KINDS.has(c.rule.kind)) return c;
    if (d.rule.binding !== 'member') continue;
    // the `value()` and `set()` of `Object.defineProperties(limit, { clearQueue: { value() {} } })`
    // implement clearQueue: they are no members of limit (nor of anything)
    if (c && c !== d && c.rule.described) return undefined;
    // the object a factory returns: its methods are what the factory's callers reach
    // (`const driver = (opts) => { …; return { getItem() {…} } }` → driver.getItem)
    if (ctx.tables.returnStatements.has(n.type)) return returnedBy(ctx, ctx.parentOf(ctx.parentOf(n) ?? n), ctx.parentOf(n));
    if (ctx.tables.functionValues.has(n.type)) return returnedBy(ctx, n, from);
    // an object passed to a call that is a declaration's value holds the declaration's members
    // (`const rule = createRule({ create() {…} })`: rule.create; agent trial tr59)
    if (ctx.tables.argumentLists.has(n.type)) return valueOfCall(ctx, n, from, !!d.rule.described);
    // a member belongs only to the declaration whose body holds it: a property of an inline
    // type literal in a parameter belongs to nothing
    if (!ctx.tables.memberPath.has(n.type)) return from;
  }
  return undefined;
}

/**
 * The declaration whose value is the call `args` belongs to; else the class or function of this file
 * the call's first argument names, when the object (`arg`) comes after it; else that call.
 */
function valueOfCall(ctx: FileContext, args: Node, arg: Node, described: boolean): Def | Node | undefined {
  const call = ctx.parentOf(args);
  if (!call || !ctx.tables.calls.has(call.type)) return undefined;
  const holder = ctx.parentOf(call);
  const own = holder ? ctx.defByNode.get(holder.id) : undefined;
  if (!own) return extendedBy(ctx, args, arg, described) ?? call;
  return CONTAINER_KINDS.has(own.rule.kind) ? own : undefined;
}

/** kinds whose prototype a call extends with an object's methods */
const EXTENDED_KINDS = new Set(['class', 'function']);

/**
 * `utils.inherits(AxiosError, Error, { toJSON() {…} })`, `Object.assign(Cart.prototype, { add() {…} })`:
 * an object passed after a class or function of this file (or its `prototype`), named as the call's
 * first argument, gives it its methods (agent trial tr71: `toJSON` was no symbol). `Object.assign({},
 * defaults, {…})` makes a new object: its first argument names nothing.
 */
function extendedBy(ctx: FileContext, args: Node, arg: Node, described: boolean): Def | undefined {
  const first = args.namedChild(0);
  if (!first || first.id === arg.id) return undefined;
  const property = ctx.tables.memberAccess.get(first.type);
  const target = property ? (first.childForFieldName(property)?.text === 'prototype' ? first.namedChild(0) : null) : first;
  if (!target || target.namedChildCount > 0) return undefined;
  const name = target.text;
  for (const d of ctx.defByNode.values()) {
    if (d.name.text === name && d.scope?.id === ctx.root.id && EXTENDED_KINDS.has(d.rule.kind)) return d;
  }
  // what property descriptors define, on a function declared in an enclosing scope too: `const limit =
  // (…) => …; Object.defineProperties(limit, {…})` inside a factory (p-limit: agent trial tr75)
  if (!described) return undefined;
  const b = lookup(ctx, args, name);
  const local = b?.type === 'local' ? b.def : b?.type === 'symbol' ? [...ctx.defByNode.values()].find((d) => d.symbol === b.index) : undefined;
  return local && EXTENDED_KINDS.has(local.rule.kind) ? local : undefined;
}

/**
 * The declared function or method whose body is `body` (a block whose return it is, or an arrow's
 * expression): an ESLint rule's `create(context) { return { CallExpression(node) {…} } }` hands out
 * its visitors (agent trial tr64).
 */
function returnedBy(ctx: FileContext, fn: Node | null, body: Node | null): Def | undefined {
  if (!fn || !body || !ctx.tables.parameterHolders.has(fn.type) || fn.childForFieldName('body')?.id !== body.id) return undefined;
  const own = ctx.defByNode.get(fn.id) ?? (ctx.tables.declarationHolders.has(ctx.up(fn)?.type ?? '') ? ctx.defByNode.get(ctx.up(fn)!.id) : undefined);
  return own?.rule.kind === 'function' || own?.rule.kind === 'method' ? own : undefined;
}

function insideFunction(ctx: FileContext, d: Def): boolean {
  const { defByNode, scopes, classScopes, root } = ctx;
  for (let n = ctx.parentOf(d.node); n && n.id !== root.id; n = ctx.parentOf(n)) {
    const kind = defByNode.get(n.id)?.rule.kind;
    if (scopes.get(n.id) === true && !classScopes.has(n.id) && !(kind && NAMESPACE_KINDS.has(kind)) && n.type !== 'internal_module') return true;
  }
  return false;
}

/** `const x = require('m')` binds an import, not a symbol of its own (like `import x from 'm'`) */
export function findRequireNames(ctx: FileContext): void {
  for (const caps of ctx.importMatches) {
    const local = caps['import.alias'] ?? caps['import.name'] ?? caps['import.namespace'];
    if (local && ctx.tables.requireBindingParents.has(ctx.up(local)?.type ?? '')) ctx.requireNames.add(local.id);
  }
}

/** names imported in each scope: a later assignment to one writes to the import (Python) */
export function findImportedNames(ctx: FileContext): void {
  for (const caps of ctx.importMatches) {
    const local = caps['import.alias'] ?? caps['import.name'] ?? caps['import.namespace'];
    if (local) ctx.importedIn.add(`${scopeOf(ctx, ctx.up(local), false).id}:${local.text}`);
  }
}

/**
 * The object an assignment in a body gives a method to (`self.requiredArguments = function …` in
 * yargs' validation factory: the index held only the interface's signature, agent trial tr126): the
 * variable the same block declares with an object literal (`const self = {} as T`), before it — or
 * with a function, whose properties the compiler reads the same way (`const ky = (input) => …;
 * ky.extend = (defaults) => …` in ky's createInstance: agent trial tr158 found no `extend`).
 */
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

function expandoHolder(ctx: FileContext, d: Def): Def | undefined {
  const assign = d.node;
  const receiver = assign.childForFieldName('left')?.childForFieldName('object');
  const block = ctx.parentOf(ctx.parentOf(assign) ?? assign);
  if (!receiver || !block) return undefined;
  for (const stmt of block.namedChildren) {
    if (!stmt || stmt.startIndex >= assign.startIndex) break;
    for (const decl of stmt.namedChildren) {
      if (decl?.type !== 'variable_declarator' || decl.childForFieldName('name')?.text !== receiver.text) continue;
      let value = decl.childForFieldName('value');
      while (value && (value.type === 'as_expression' || value.type === 'satisfies_expression' || value.type === 'parenthesized_expression')) value = value.namedChild(0);
      const own = ctx.defByNode.get(decl.id);
      if (own && value && (value.type === 'object' || FUNCTION_VALUES.has(value.type))) return own;
    }
  }
  return undefined;
}

/**
 * A local object that holds methods is stored with them: `const store = { $subscribe() {…} }`
 * inside a function is code the function hands out, and its methods are what callers reach.
 */
export function findMethodHolders(ctx: FileContext): void {
  for (const d of ctx.defs) {
    if (d.rule.binding !== 'member' || d.rule.kind !== 'method') continue;
    const holder = containerOf(ctx, d);
    if (holder && holder.rule.store === 'toplevel') ctx.methodHolders.add(holder);
  }
}

export function storeSymbols(ctx: FileContext): void {
  const { outsideNames, bindings, importedIn, dropped, symbolDefs, reassigned, requireNames, receivers, root, methodHolders } = ctx;
  for (const d of ctx.defs) {
    if (d.rule.assigned) continue; // `self.x = v`: decided once the receiver's class is known (members.ts)
    const name = d.name.text;
    if (d.scope && d.rule.binding !== 'member' &&
      (outsideNames.get(d.scope.id)?.has(name) ||
        (d.rule.once && (bindings.get(d.scope.id)?.has(`value:${name}`) || importedIn.has(`${d.scope.id}:${name}`))))) {
      dropped.add(d);
      // assigned again: its first value no longer says what it holds
      const first = bindings.get(d.scope.id)?.get(`value:${name}`);
      const firstDef = first?.type === 'local' ? first.def : first?.type === 'symbol' ? symbolDefs[first.index] : undefined;
      if (firstDef) reassigned.add(firstDef);
      continue;
    }
    const holder = holderOf(ctx, d);
    const container = holder && 'rule' in holder ? holder : undefined;
    // held by a node no declaration holds (a call, an object, a class): stored if that node is the file's default (exports.ts)
    if (holder && !('rule' in holder) && d.rule.store !== 'never') listAt(ctx.passedMembers, holder.id, d);
    let stored: boolean;
    if (d.rule.store === 'never' || requireNames.has(d.name.id)) stored = false;
    // a Go method's type may be declared after it, or in another file: its container is set in members.ts
    else if (d.rule.binding === 'member') {
      stored = container?.symbol != null || receivers.has(d.name.id);
      // a container stored later (a method of the default, exports.ts) stores it then
      if (!stored && container) listAt(ctx.awaitingContainer, container, d);
    }
    else if (d.rule.store === 'toplevel') stored = d.scope != null && (d.scope.id === root.id || isNamespaceScope(ctx, d.scope) || methodHolders.has(d));
    else stored = true;
    if (stored) storeSymbol(ctx, d, container?.symbol ?? null);
    if (d.scope)
      bind(ctx, d.scope, d.name.text, d.symbol != null ? { type: 'symbol', index: d.symbol } : { type: 'local', def: d }, NAMESPACE_OF_KIND[d.rule.kind] ?? 'value');
  }
}

/** a name written as a string literal (no grammar names an identifier so) */
const QUOTED = /^(["'`]).*\1$/s;

/** `d` as a symbol of the file, inside `container` (a symbol's index) or at the top. */
export function storeSymbol(ctx: FileContext, d: Def, container: number | null): void {
  d.symbol = ctx.symbols.length;
  ctx.symbolDefs.push(d);
  const start = d.node.startPosition;
  const end = endOf(ctx, d.node);
  ctx.symbols.push({
    // a method named by a string (`"Program:exit"() {}`) is named by what the string says
    name: QUOTED.test(d.name.text) ? d.name.text.slice(1, -1) : d.name.text,
    kind: d.rule.kind,
    container,
    line: start.row + 1,
    column: start.column + 1,
    endLine: end.row + 1,
    endColumn: end.column + 1,
    nameLine: d.name.startPosition.row + 1,
    nameColumn: d.name.startPosition.column + 1,
    exported: false,
    isDefault: false,
    local: d.rule.binding !== 'member' && insideFunction(ctx, d),
    signature: signatureAt(ctx.lines, start.row, start.column),
    ...(d.rule.binding === 'member' && d.node.children.some((c) => c?.type === 'static') ? { isStatic: true } : {}),
  });
  for (const m of ctx.awaitingContainer.get(d) ?? []) if (m.symbol == null) storeSymbol(ctx, m, d.symbol);
}

function listAt<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
