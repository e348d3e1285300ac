/**
 * Exports: what the file's export statements name, the declarations they mark, and, where a
 * language exports every top-level name, those names.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact } from '../facts.js';
import { type FileContext, endOf } from './context.js';
import { stripQuotes } from './imports.js';
import { pushRef } from './ref-fact.js';
import { lookup } from './scopes.js';
import { signatureAt, storeSymbol } from './symbols.js';

/** `export default <expression>`: a symbol of its own, named `default` */
function syntheticDefault(ctx: FileContext, node: Node): void {
  const kind = /class/.test(node.type) ? 'class' : /function|arrow/.test(node.type) ? 'function' : 'variable';
  const index = ctx.symbols.length;
  // a class or function expression that has a name goes by it, as `export default class Application`
  // does: `module.exports = class Application …` (koa) was `default`, and Application.handleRequest
  // "not in the index" to an agent (red team adv65)
  const own = kind !== 'variable' ? node.childForFieldName('name') : null;
  const at = own ?? node;
  ctx.symbols.push({
    name: own?.text ?? 'default', kind, container: null,
    line: node.startPosition.row + 1, column: node.startPosition.column + 1,
    endLine: endOf(ctx, node).row + 1, endColumn: endOf(ctx, node).column + 1,
    nameLine: at.startPosition.row + 1, nameColumn: at.startPosition.column + 1,
    exported: true, isDefault: true, local: false, signature: signatureAt(ctx.lines, node.startPosition.row, node.startPosition.column),
  });
  holdsDefault(ctx, node, index);
}

/**
 * The variable a module's default is also given a name in: `const proto = module.exports = {…}`
 * (koa's context, request and response): the object's methods are proto's, as its code calls them
 * (agent trial tr130 was told `proto` contains nothing, its methods filed under a `default` apart).
 */
function namedDefault(ctx: FileContext, node: Node): number | undefined {
  const assign = node.parent;
  const decl = assign?.type === 'assignment_expression' && assign.childForFieldName('right')?.id === node.id ? assign.parent : null;
  const name = decl?.type === 'variable_declarator' && decl.childForFieldName('value')?.id === assign!.id ? decl.childForFieldName('name') : null;
  if (name?.type !== 'identifier') return undefined;
  const b = lookup(ctx, name, name.text);
  if (b?.type !== 'symbol') return undefined;
  const s = ctx.symbols[b.index]!;
  s.exported = true;
  s.isDefault = true;
  return b.index;
}

/** The default's symbol holds the expression's code and the members it has or passes. */
function holdsDefault(ctx: FileContext, node: Node, index: number): void {
  ctx.exportsOut.push({ name: 'default', kind: 'symbol', symbol: index });
  // the code of the expression is the default's: `export default createRule({ create() { … } })`
  // holds a whole ESLint rule, whose calls the graph links to it (agent trial tr59)
  ctx.enclosers.set(node.id, { node, symbol: index });
  ctx.symbolRanges = undefined;
  // the members of a named class or function expression (`module.exports = class Queue {…}`), whose
  // own name binds only inside it, wait for it: they are the default's
  const own = ctx.defByNode.get(node.id);
  for (const m of (own && ctx.awaitingContainer.get(own)) ?? []) if (m.symbol == null) storeSymbol(ctx, m, index);
  // and the methods of an object it is, or passes, are the default's (`create` of an ESLint rule)
  const members = ctx.passedMembers.get(node.id);
  if (!members) return;
  for (const d of members) storeSymbol(ctx, d, index);
  // the declarations inside them, stored before them without a container, are theirs
  const held = members.map((d) => d.symbol!);
  for (const s of ctx.symbols) {
    if (s.container !== null || s.isDefault) continue;
    // the innermost member around it
    const around = held.filter((m) => ctx.symbols[m] !== s && encloses(ctx.symbols[m]!, s)).sort((a, b) => (encloses(ctx.symbols[a]!, ctx.symbols[b]!) ? 1 : -1))[0];
    if (around !== undefined) s.container = around;
  }
}

function exportBinding(ctx: FileContext, exportedName: string, localNode: Node): void {
  const b = lookup(ctx, localNode, localNode.text);
  if (b?.type === 'symbol') {
    ctx.exportsOut.push({ name: exportedName, kind: 'symbol', symbol: b.index });
    const s = ctx.symbols[b.index]!;
    s.exported = true;
    if (exportedName === 'default') s.isDefault = true;
  } else if (b?.type === 'import') ctx.exportsOut.push({ name: exportedName, kind: 'import', importIndex: b.index });
}

export function readExports(ctx: FileContext): void {
  const { defaultDeclarations, defByNode, symbols, exportsOut, exportedDeclarations, handled, imports } = ctx;
  let byName: Map<number, (typeof ctx.symbolDefs)[number]> | undefined;
  for (const caps of ctx.exportMatches) {
    if (caps['export.default_declaration']) {
      const n = caps['export.default_declaration'];
      defaultDeclarations.add(n.id);
      const d = defByNode.get(n.id);
      if (d?.symbol != null) {
        symbols[d.symbol]!.exported = true;
        symbols[d.symbol]!.isDefault = true;
        exportsOut.push({ name: 'default', kind: 'symbol', symbol: d.symbol });
      } else syntheticDefault(ctx, n);
    } else if (caps['export.default_value']) {
      const n = caps['export.default_value'];
      if (ctx.enclosers.has(n.id)) continue; // matched once per method (`module.exports = { a() {}, b() {} }`)
      if (n.type === 'identifier') exportBinding(ctx, 'default', n);
      else {
        const named = namedDefault(ctx, n);
        if (named === undefined) syntheticDefault(ctx, n);
        else holdsDefault(ctx, n, named);
      }
    } else if (caps['export.declaration']) {
      exportedDeclarations.add(caps['export.declaration'].id);
    } else if (caps['export.member']) {
      // visible outside its package (Go's capitalised methods and fields), but no name of the module;
      // captured by its name (a Go field declaration may declare several)
      byName ??= new Map(ctx.symbolDefs.map((x) => [x.name.id, x]));
      const d = byName.get(caps['export.member'].id);
      if (d?.symbol != null) symbols[d.symbol]!.exported = true;
    } else if (caps['export.local']) {
      const local = caps['export.local'];
      const alias = caps['export.alias'];
      if (alias) handled.add(alias.id);
      exportBinding(ctx, stripQuotes((alias ?? local).text), local);
    } else if (caps['reexport.source']) {
      const source = caps['reexport.source'].text;
      const nameNode = caps['reexport.name'];
      const nsNode = caps['reexport.namespace'];
      const at = nameNode ?? nsNode!;
      const index = imports.length;
      imports.push({
        localName: null, source, imported: nameNode ? stripQuotes(nameNode.text) : '*',
        line: at.startPosition.row + 1, column: at.startPosition.column + 1,
      });
      const alias = caps['reexport.alias'];
      exportsOut.push({ name: stripQuotes((alias ?? at).text), kind: 'import', importIndex: index });
      if (nameNode) pushRef(ctx, nameNode, { kind: 'import', importIndex: index }, 'export');
      handled.add(at.id);
      if (alias) handled.add(alias.id);
    } else if (caps['reexport.star']) {
      exportsOut.push({ name: '*', kind: 'star', source: caps['reexport.star'].text });
    }
  }
  for (const id of defaultDeclarations) exportedDeclarations.delete(id);
}

/** `export <declaration>`: the top-level symbols declared inside it are exported */
export function exportDeclarations(ctx: FileContext): void {
  const { exportedDeclarations, root, symbols, bindings, imports, exportsOut } = ctx;
  if (exportedDeclarations.size > 0) {
    for (const d of ctx.symbolDefs) {
      if (d.scope?.id !== root.id || d.symbol == null) continue;
      for (let n: Node | null = d.node; n && n.id !== root.id; n = ctx.up(n)) {
        if (exportedDeclarations.has(n.id)) {
          symbols[d.symbol]!.exported = true;
          // a declaration that loads a module (Rust `pub mod m;`) exports the module, not the stub
          const loads = bindings.get(root.id)?.get(`type:${d.name.text}`);
          const stub = loads?.type === 'import' ? imports[loads.index] : undefined;
          if (loads?.type === 'import' && stub?.line === d.name.startPosition.row + 1 && stub.column === d.name.startPosition.column + 1) exportsOut.push({ name: d.name.text, kind: 'import', importIndex: loads.index });
          else exportsOut.push({ name: symbols[d.symbol]!.name, kind: 'symbol', symbol: d.symbol });
          break;
        }
      }
    }
  }
}

/**
 * Python, Rust: every top-level name is importable from the file; `*` takes only the public ones
 * (not `_private`; with a literal `__all__`, only those it lists).
 */
export function exportTopLevel(ctx: FileContext): void {
  const { row, exportsOut, exportList, symbols } = ctx;
  if (row.exportsTopLevel) {
    const named = new Set(exportsOut.map((e) => e.name));
    const isHidden = (name: string) =>
      exportList.size > 0 ? !exportList.has(name) : row.privatePrefix !== undefined && name.startsWith(row.privatePrefix);
    for (const [key, b] of ctx.bindings.get(ctx.root.id) ?? []) {
      const name = key.slice(key.indexOf(':') + 1);
      if (named.has(name) || b.type === 'local') continue;
      named.add(name);
      const hidden = isHidden(name);
      if (b.type === 'symbol') {
        exportsOut.push({ name, kind: 'symbol', symbol: b.index, ...(hidden ? { hidden } : {}) });
        // without a `pub`-like marker, public means not hidden (Python)
        if (row.privatePrefix !== undefined && !hidden) symbols[b.index]!.exported = true;
      } else exportsOut.push({ name, kind: 'import', importIndex: b.index, ...(hidden ? { hidden } : {}) });
    }
    // names a wildcard import brings in are the module's too (a package `__init__` re-exporting)
    for (const i of ctx.imports) if (i.kind === 'wildcard' && !i.scope) exportsOut.push({ name: '*', kind: 'star', source: i.source });
  }
}

const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
/** whether `outer`'s range holds `inner`'s */
function encloses(outer: SymbolFact, inner: SymbolFact): boolean {
  return before(outer.line, outer.column, inner.line, inner.column) && before(inner.endLine, inner.endColumn, outer.endLine, outer.endColumn);
}
