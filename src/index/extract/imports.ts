/**
 * Imports: those the file writes (bound in their scope), and those it implies — a package-scope
 * name, a name inside an imported namespace, a path from a module — which link.ts resolves.
 */
import type { Node } from 'web-tree-sitter';
import type { ImportFact } from '../facts.js';
import type { Bound, FileContext } from './context.js';
import { NAMESPACE_KINDS } from './rules.js';
import { bind, lookup, scopeOf } from './scopes.js';
import { pushRef } from './ref-fact.js';

export const stripQuotes = (s: string) => s.replace(/^['"]|['"]$/g, '');

/** the inline modules / namespaces around a node, outermost first (resolvers of relative paths need them) */
export function namespacePath(ctx: FileContext, n: Node): string[] | undefined {
  const out: string[] = [];
  for (let p = ctx.up(n); p; p = ctx.up(p)) {
    const d = ctx.defByNode.get(p.id);
    // `mod m;` is written in its parent, not in m
    if (d && NAMESPACE_KINDS.has(d.rule.kind) && d.name.id !== n.id) out.unshift(d.name.text);
  }
  return out.length > 0 ? out : undefined;
}

export function readImports(ctx: FileContext): void {
  const defNames = new Set(ctx.defs.map((d) => d.name.id));
  for (const caps of ctx.importMatches) readImport(ctx, caps, defNames);
  ctx.hasWildcard = ctx.imports.some((i) => i.kind === 'wildcard');
}

function readImport(ctx: FileContext, caps: Record<string, Node>, defNames: Set<number>): void {
  const { imports, handled, row, root } = ctx;
  const anchor = caps['import.source'] ?? caps['import.name'] ?? caps['import.self'] ?? caps['import.wildcard']!;
  // inside nested groups (`use a::{b::{C}}`) each group's path prefixes the source
  const parts: string[] = caps['import.source'] ? [caps['import.source'].text] : [];
  let innermostGroup: Node | undefined;
  for (let p = ctx.up(anchor); p; p = ctx.up(p)) {
    const prefix = ctx.importGroups.get(p.id);
    if (!prefix) continue;
    innermostGroup ??= prefix;
    parts.unshift(prefix.text);
  }
  const source = parts.join(row.pathSeparator ?? '');
  const scope = namespacePath(ctx, anchor);
  const addImport = (localNode: Node | null, imported: string, at: Node): number => {
    const index = imports.length;
    imports.push({
      localName: localNode ? localNode.text : null,
      source,
      imported,
      line: at.startPosition.row + 1,
      column: at.startPosition.column + 1,
      ...(scope ? { scope } : {}),
    });
    // `const x = require('m')` / `const { x } = require('m')` declare x and import it, and Rust
    // `mod m;` declares m and loads it: the import is what references should follow
    if (localNode) bind(ctx, scopeOf(ctx, ctx.up(localNode), false), localNode.text, { type: 'import', index }, 'both',
      ctx.tables.requireBindingParents.has(ctx.up(localNode)?.type ?? '') || defNames.has(localNode.id));
    return index;
  };
  if (caps['import.default']) {
    const n = caps['import.default'];
    const i = addImport(n, 'default', n);
    pushRef(ctx, n, { kind: 'import', importIndex: i }, 'import');
    handled.add(n.id);
  } else if (caps['import.namespace']) {
    const n = caps['import.namespace'];
    addImport(n, '*', n);
    handled.add(n.id);
  } else if (caps['import.name']) {
    const nameNode = caps['import.name'];
    const alias = caps['import.alias'];
    const i = addImport(alias ?? nameNode, stripQuotes(nameNode.text), nameNode);
    pushRef(ctx, nameNode, { kind: 'import', importIndex: i }, 'import');
    handled.add(nameNode.id);
    if (alias) handled.add(alias.id);
  } else if (caps['import.self']) {
    // `use a::b::{self}` binds b, the group's module itself
    const local = innermostGroup && innermostGroup.namedChildCount > 0 ? innermostGroup.lastNamedChild : innermostGroup;
    if (local) addImport(local, '*', caps['import.self']);
    handled.add(caps['import.self'].id);
  } else if (caps['import.wildcard']) {
    imports.push({ localName: null, source, imported: '*', line: caps['import.wildcard'].startPosition.row + 1, column: caps['import.wildcard'].startPosition.column + 1, kind: 'wildcard', ...(scope ? { scope } : {}) });
  } else if (caps['import.package']) {
    // Go `import "a/b/v2"` binds the package's own name: by convention the path's last element
    const n = caps['import.package'];
    const index = imports.length;
    const local = packageNameOf(source);
    imports.push({ localName: local, source, imported: '*', line: n.startPosition.row + 1, column: n.startPosition.column + 1 });
    bind(ctx, root, local, { type: 'import', index }, 'both');
  } else {
    // an import that binds no name (Go `import _ "p"`): a dependency all the same
    const n = caps['import.source']!;
    imports.push({ localName: null, source, imported: '*', line: n.startPosition.row + 1, column: n.startPosition.column + 1 });
  }
}

/** An import the file does not write: a package-scope name, or a name inside an imported namespace. */
export function implicitImport(ctx: FileContext, source: string, imported: string, kind: ImportFact['kind'], at: Node): number {
  const key = `${kind ?? ''}\0${source}\0${imported}`;
  let index = ctx.implicitImports.get(key);
  if (index === undefined) {
    index = ctx.imports.length;
    ctx.imports.push({ localName: null, source, imported, line: at.startPosition.row + 1, column: at.startPosition.column + 1, ...(kind ? { kind } : {}) });
    ctx.implicitImports.set(key, index);
  }
  return index;
}

/** `name` in what import `base` resolves to (`a.b` after `import a`; `()`: the result of calling it) */
export function memberImport(ctx: FileContext, base: number, name: string, at: Node): number {
  const key = `base\0${base}\0${name}`;
  let index = ctx.implicitImports.get(key);
  if (index === undefined) {
    index = ctx.imports.length;
    ctx.imports.push({ localName: null, source: ctx.imports[base]!.source, imported: name, line: at.startPosition.row + 1, column: at.startPosition.column + 1, base });
    ctx.implicitImports.set(key, index);
  }
  return index;
}

/** a path that starts at a module (Rust `crate::`, `super::`, `self::`, a crate's name) */
export function moduleImport(ctx: FileContext, n: Node): number {
  const scope = namespacePath(ctx, n);
  const key = `module\0${scope?.join('::') ?? ''}\0${n.text}`;
  let index = ctx.implicitImports.get(key);
  if (index === undefined) {
    index = ctx.imports.length;
    ctx.imports.push({ localName: null, source: n.text, imported: '*', line: n.startPosition.row + 1, column: n.startPosition.column + 1, ...(scope ? { scope } : {}) });
    ctx.implicitImports.set(key, index);
  }
  return index;
}

/** `lookup`, falling back to the package scope or the wildcard imports (resolved at link time) */
export function resolveName(ctx: FileContext, at: Node, name: string, ns: 'value' | 'type' | 'call' = 'value'): Bound | undefined {
  return lookup(ctx, at, name, ns) ?? (ctx.row.packageScope || ctx.hasWildcard ? { type: 'import', index: implicitImport(ctx, name, '*', 'scope', at) } : undefined);
}

/** The name a Go import path binds without an alias: its last element, without a major version
 * (`/v2`, `.v3`) or a `go-` prefix. The package clause decides in the end; this is the convention. */
function packageNameOf(source: string): string {
  const parts = source.split('/').filter(Boolean);
  let last = parts.pop() ?? source;
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop()!;
  return last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/-go$/, '');
}
