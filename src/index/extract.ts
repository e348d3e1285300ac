/**
 * The language-neutral extraction engine. A language contributes only a query (grammars/) using
 * the capture vocabulary in grammars/README.md; this module turns its captures into definitions,
 * scopes, bindings, imports, exports and references, resolved inside the file. Cross-file binding
 * happens later, in link.ts.
 */
import type { Node, QueryCapture } from 'web-tree-sitter';
import type { ExportFact, FileFacts, ImportFact, RefFact, RefTarget, SymbolFact } from './facts.js';
import type { LanguageRow } from './languages.js';
import { loadLanguage } from './parser.js';

type Binding = 'lexical' | 'hoisted' | 'member' | 'none';
type Store = 'always' | 'toplevel' | 'never';

/** capture suffix after `definition.` → symbol kind, how it binds, and whether it becomes a symbol */
const DEFINITION_RULES: Record<string, { kind: string; binding: Binding; store: Store }> = {
  function: { kind: 'function', binding: 'lexical', store: 'always' },
  'function.var': { kind: 'function', binding: 'hoisted', store: 'always' },
  class: { kind: 'class', binding: 'lexical', store: 'always' },
  class_expression: { kind: 'class', binding: 'none', store: 'never' },
  method: { kind: 'method', binding: 'member', store: 'always' },
  property: { kind: 'property', binding: 'member', store: 'always' },
  property_parameter: { kind: 'property', binding: 'member', store: 'always' },
  enum_member: { kind: 'enum_member', binding: 'member', store: 'always' },
  interface: { kind: 'interface', binding: 'lexical', store: 'always' },
  type: { kind: 'type', binding: 'lexical', store: 'always' },
  enum: { kind: 'enum', binding: 'lexical', store: 'always' },
  namespace: { kind: 'namespace', binding: 'lexical', store: 'always' },
  constant: { kind: 'constant', binding: 'lexical', store: 'toplevel' },
  variable: { kind: 'variable', binding: 'lexical', store: 'toplevel' },
  'variable.var': { kind: 'variable', binding: 'hoisted', store: 'toplevel' },
  binding: { kind: 'variable', binding: 'lexical', store: 'toplevel' },
  parameter: { kind: 'parameter', binding: 'lexical', store: 'never' },
  type_parameter: { kind: 'type_parameter', binding: 'lexical', store: 'never' },
};

/** node types between a member declaration and its container's declaration (bodies, wrappers) */
const MEMBER_PATH = new Set([
  'class_body', 'interface_body', 'enum_body', 'enum_assignment', 'object', 'object_type', 'pair',
  'class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration', 'enum_declaration',
  'type_alias_declaration', 'variable_declarator', 'parenthesized_expression', 'as_expression', 'satisfies_expression',
  'required_parameter', 'formal_parameters', 'method_definition', 'extends_type_clause',
]);
/** nodes that give `this` a new meaning: ordinary functions and class expressions */
const THIS_REBINDERS = new Set(['function_declaration', 'function_expression', 'generator_function_declaration', 'generator_function', 'class']);

/** kinds whose members can be looked up with `X.member` */
const CONTAINER_KINDS = new Set(['class', 'interface', 'type', 'enum', 'namespace', 'constant', 'variable', 'function']);

/** parents of the local name of a `require` binding (import statements never have these) */
const REQUIRE_BINDING_PARENTS = new Set(['variable_declarator', 'object_pattern', 'pair_pattern']);

type Bound = { type: 'symbol'; index: number } | { type: 'import'; index: number } | { type: 'local'; def?: Def };

/**
 * TypeScript keeps values and types apart: `interface X` and `const X` can share a name, and
 * `new X()` means the const while `let a: X` means the interface. Bindings live in one of the two
 * namespaces (or both: classes, enums, namespaces, imports).
 */
type Namespace = 'value' | 'type' | 'both';
const NAMESPACE_OF_KIND: Record<string, Namespace> = {
  interface: 'type', type: 'type', type_parameter: 'type',
  class: 'both', enum: 'both', namespace: 'both',
};

interface Def {
  node: Node;
  name: Node;
  rule: { kind: string; binding: Binding; store: Store };
  pattern: number;
  scope: Node | null;
  symbol: number | null;
}

const SIGNATURE_MAX = 160;

export async function extractFile(row: LanguageRow, source: string): Promise<FileFacts> {
  const { parser, query } = await loadLanguage(row);
  const tree = parser.parse(source);
  if (!tree) throw new Error('parser returned no tree');
  try {
    return extractTree(row, source, tree.rootNode, query.matches(tree.rootNode));
  } finally {
    tree.delete();
  }
}

function extractTree(
  row: LanguageRow,
  source: string,
  root: Node,
  matches: { patternIndex: number; captures: QueryCapture[] }[],
): FileFacts {
  const lines = source.split('\n');
  const scopes = new Map<number, boolean>(); // node id → is function scope
  scopes.set(root.id, true);
  const defsByName = new Map<string, Def>(); // key: name node id + member flag
  const ignore = new Set<number>();
  const plainRefs = new Map<number, Node>();
  const memberRefs = new Map<number, { prop: Node; object: Node }>();
  const baseClasses: { derived: Node; base: Node }[] = [];
  const importMatches: Record<string, Node>[] = [];
  const exportMatches: Record<string, Node>[] = [];

  for (const m of matches) {
    const caps: Record<string, Node> = {};
    for (const c of m.captures) caps[c.name] = c.node;
    for (const c of m.captures) {
      const n = c.name;
      if (n === 'scope') scopes.set(c.node.id, scopes.get(c.node.id) ?? false);
      else if (n === 'scope.function') scopes.set(c.node.id, true);
      else if (n === 'ignore') ignore.add(c.node.id);
      else if (n === 'class.extends' && caps['class.derived']) baseClasses.push({ derived: caps['class.derived'], base: c.node });
      else if (n === 'reference') plainRefs.set(c.node.id, c.node);
      else if (n === 'reference.member' && caps['member.object'])
        memberRefs.set(c.node.id, { prop: c.node, object: caps['member.object'] });
      else if (n.startsWith('definition.')) {
        const rule = DEFINITION_RULES[n.slice('definition.'.length)];
        const name = caps['name'];
        if (!rule || !name) continue;
        const key = `${name.id}:${rule.binding === 'member' ? 'm' : 'l'}`;
        const prev = defsByName.get(key);
        if (!prev || prev.pattern > m.patternIndex)
          defsByName.set(key, { node: c.node, name, rule, pattern: m.patternIndex, scope: null, symbol: null });
      }
    }
    if (caps['import.source']) importMatches.push(caps);
    else if (Object.keys(caps).some((k) => k.startsWith('export.') || k.startsWith('reexport.'))) exportMatches.push(caps);
  }

  // ---- scopes and bindings -------------------------------------------------------------------
  const scopeOf = (from: Node | null, fnOnly: boolean): Node => {
    for (let n = from; n; n = n.parent) {
      const isFn = scopes.get(n.id);
      if (isFn !== undefined && (isFn || !fnOnly)) return n;
    }
    return root;
  };
  const bindings = new Map<number, Map<string, Bound>>();
  const bind = (scope: Node, name: string, b: Bound, ns: Namespace, force = false) => {
    let m = bindings.get(scope.id);
    if (!m) bindings.set(scope.id, (m = new Map()));
    for (const key of ns === 'both' ? ['value', 'type'] : [ns]) {
      // first declaration wins (overloads, merged declarations)
      if (force || !m.has(`${key}:${name}`)) m.set(`${key}:${name}`, b);
    }
  };
  /** the binding of `name` seen from `at`, in namespace `ns` (falling back to the other one) */
  const lookup = (at: Node, name: string, ns: 'value' | 'type' = 'value'): Bound | undefined => {
    for (const key of ns === 'value' ? ['value', 'type'] : ['type', 'value']) {
      for (let n: Node | null = at; n; n = n.parent) {
        if (!scopes.has(n.id)) continue;
        const b = bindings.get(n.id)?.get(`${key}:${name}`);
        if (b) return b;
      }
    }
    return undefined;
  };

  const defs = [...defsByName.values()].sort((a, b) => a.node.startIndex - b.node.startIndex || a.pattern - b.pattern);
  const defByNode = new Map<number, Def>();
  const isNamespaceScope = (scope: Node): boolean => {
    const owner = scope.parent ? defByNode.get(scope.parent.id) ?? defByNode.get(scope.id) : defByNode.get(scope.id);
    return owner?.rule.kind === 'namespace';
  };
  for (const d of defs) {
    // a definition binds in the innermost scope that strictly contains its declaration node
    if (d.rule.binding === 'lexical') d.scope = scopeOf(d.node.parent, false);
    else if (d.rule.binding === 'hoisted') d.scope = scopeOf(d.node.parent, true);
    if (!defByNode.has(d.node.id) || d.rule.binding !== 'member') defByNode.set(d.node.id, d);
  }

  // ---- symbols --------------------------------------------------------------------------------
  const symbols: SymbolFact[] = [];
  const symbolDefs: Def[] = [];
  const containerOf = (d: Def): Def | undefined => {
    for (let n = d.node.parent; n; n = n.parent) {
      const c = defByNode.get(n.id);
      if (c && c !== d && CONTAINER_KINDS.has(c.rule.kind)) return c;
      // a member belongs only to the declaration whose body holds it: a property of an inline
      // type literal in a parameter, or of an object passed as an argument, belongs to nothing
      if (d.rule.binding === 'member' && !MEMBER_PATH.has(n.type)) return undefined;
    }
    return undefined;
  };
  const insideFunction = (d: Def): boolean => {
    for (let n = d.node.parent; n && n.id !== root.id; n = n.parent) {
      if (scopes.get(n.id) === true && defByNode.get(n.id)?.rule.kind !== 'namespace' && n.type !== 'internal_module') return true;
    }
    return false;
  };
  // `const x = require('m')` binds an import, not a symbol of its own (like `import x from 'm'`)
  const requireNames = new Set<number>();
  for (const caps of importMatches) {
    const local = caps['import.alias'] ?? caps['import.name'] ?? caps['import.namespace'];
    if (local && REQUIRE_BINDING_PARENTS.has(local.parent?.type ?? '')) requireNames.add(local.id);
  }
  for (const d of defs) {
    const container = containerOf(d);
    let stored: boolean;
    if (d.rule.store === 'never' || requireNames.has(d.name.id)) stored = false;
    else if (d.rule.binding === 'member') stored = container?.symbol != null;
    else if (d.rule.store === 'toplevel') stored = d.scope != null && (d.scope.id === root.id || isNamespaceScope(d.scope));
    else stored = true;
    if (stored) {
      d.symbol = symbols.length;
      symbolDefs.push(d);
      const start = d.node.startPosition;
      const end = d.node.endPosition;
      symbols.push({
        name: d.name.text,
        kind: d.rule.kind,
        container: container?.symbol ?? null,
        line: start.row + 1,
        column: start.column + 1,
        endLine: end.row + 1,
        endColumn: end.column + 1,
        nameLine: d.name.startPosition.row + 1,
        nameColumn: d.name.startPosition.column + 1,
        exported: false,
        isDefault: false,
        local: d.rule.binding !== 'member' && insideFunction(d),
        signature: signatureAt(lines, start.row),
        ...(d.rule.binding === 'member' && d.node.children.some((c) => c?.type === 'static') ? { isStatic: true } : {}),
      });
    }
    if (d.scope)
      bind(d.scope, d.name.text, d.symbol != null ? { type: 'symbol', index: d.symbol } : { type: 'local', def: d }, NAMESPACE_OF_KIND[d.rule.kind] ?? 'value');
  }

  // ---- imports --------------------------------------------------------------------------------
  const imports: ImportFact[] = [];
  const refs: RefFact[] = [];
  const handled = new Set<number>(); // nodes already turned into references (or deliberately not)
  for (const d of defs) handled.add(d.name.id);
  for (const id of ignore) handled.add(id);
  const enclosingSymbol = (n: Node): number | null => {
    for (let p = n.parent; p; p = p.parent) {
      const d = defByNode.get(p.id);
      if (d?.symbol != null) return d.symbol;
    }
    return null;
  };
  const pushRef = (node: Node, target: RefTarget, role: RefFact['role']) => {
    refs.push({
      name: node.text,
      line: node.startPosition.row + 1,
      column: node.startPosition.column + 1,
      endColumn: node.startPosition.row === node.endPosition.row ? node.endPosition.column + 1 : node.startPosition.column + 1 + node.text.length,
      role,
      target,
      enclosing: enclosingSymbol(node),
    });
  };
  const stripQuotes = (s: string) => s.replace(/^['"]|['"]$/g, '');

  for (const caps of importMatches) {
    const source = caps['import.source']!.text;
    const addImport = (localNode: Node | null, imported: string, at: Node): number => {
      const index = imports.length;
      imports.push({
        localName: localNode ? localNode.text : null,
        source,
        imported,
        line: at.startPosition.row + 1,
        column: at.startPosition.column + 1,
      });
      // `const x = require('m')` / `const { x } = require('m')` declare x and import it: the import is
      // what references should follow
      if (localNode) bind(scopeOf(localNode.parent, false), localNode.text, { type: 'import', index }, 'both', REQUIRE_BINDING_PARENTS.has(localNode.parent?.type ?? ''));
      return index;
    };
    if (caps['import.default']) {
      const n = caps['import.default'];
      const i = addImport(n, 'default', n);
      pushRef(n, { kind: 'import', importIndex: i }, 'import');
      handled.add(n.id);
    } else if (caps['import.namespace']) {
      const n = caps['import.namespace'];
      addImport(n, '*', n);
      handled.add(n.id);
    } else if (caps['import.name']) {
      const nameNode = caps['import.name'];
      const alias = caps['import.alias'];
      const i = addImport(alias ?? nameNode, stripQuotes(nameNode.text), nameNode);
      pushRef(nameNode, { kind: 'import', importIndex: i }, 'import');
      handled.add(nameNode.id);
      if (alias) handled.add(alias.id);
    }
  }

  // ---- exports --------------------------------------------------------------------------------
  const exportsOut: ExportFact[] = [];
  const exportedDeclarations = new Set<number>();
  const defaultDeclarations = new Set<number>();
  const syntheticDefault = (node: Node) => {
    const kind = /class/.test(node.type) ? 'class' : /function|arrow/.test(node.type) ? 'function' : 'variable';
    const index = symbols.length;
    symbols.push({
      name: 'default', kind, container: null,
      line: node.startPosition.row + 1, column: node.startPosition.column + 1,
      endLine: node.endPosition.row + 1, endColumn: node.endPosition.column + 1,
      nameLine: node.startPosition.row + 1, nameColumn: node.startPosition.column + 1,
      exported: true, isDefault: true, local: false, signature: signatureAt(lines, node.startPosition.row),
    });
    exportsOut.push({ name: 'default', kind: 'symbol', symbol: index });
  };
  const exportBinding = (exportedName: string, localNode: Node) => {
    const b = lookup(localNode, localNode.text);
    if (b?.type === 'symbol') {
      exportsOut.push({ name: exportedName, kind: 'symbol', symbol: b.index });
      const s = symbols[b.index]!;
      s.exported = true;
      if (exportedName === 'default') s.isDefault = true;
    } else if (b?.type === 'import') exportsOut.push({ name: exportedName, kind: 'import', importIndex: b.index });
  };
  for (const caps of exportMatches) {
    if (caps['export.default_declaration']) {
      const n = caps['export.default_declaration'];
      defaultDeclarations.add(n.id);
      const d = defByNode.get(n.id);
      if (d?.symbol != null) {
        symbols[d.symbol]!.exported = true;
        symbols[d.symbol]!.isDefault = true;
        exportsOut.push({ name: 'default', kind: 'symbol', symbol: d.symbol });
      } else syntheticDefault(n);
    } else if (caps['export.default_value']) {
      const n = caps['export.default_value'];
      if (n.type === 'identifier') exportBinding('default', n);
      else syntheticDefault(n);
    } else if (caps['export.declaration']) {
      exportedDeclarations.add(caps['export.declaration'].id);
    } else if (caps['export.local']) {
      const local = caps['export.local'];
      const alias = caps['export.alias'];
      if (alias) handled.add(alias.id);
      exportBinding(stripQuotes((alias ?? local).text), local);
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
      if (nameNode) pushRef(nameNode, { kind: 'import', importIndex: index }, 'export');
      handled.add(at.id);
      if (alias) handled.add(alias.id);
    } else if (caps['reexport.star']) {
      exportsOut.push({ name: '*', kind: 'star', source: caps['reexport.star'].text });
    }
  }
  for (const id of defaultDeclarations) exportedDeclarations.delete(id);
  if (exportedDeclarations.size > 0) {
    for (const d of symbolDefs) {
      if (d.scope?.id !== root.id || d.symbol == null) continue;
      for (let n: Node | null = d.node; n && n.id !== root.id; n = n.parent) {
        if (exportedDeclarations.has(n.id)) {
          symbols[d.symbol]!.exported = true;
          exportsOut.push({ name: symbols[d.symbol]!.name, kind: 'symbol', symbol: d.symbol });
          break;
        }
      }
    }
  }

  // ---- references ------------------------------------------------------------------------------
  const membersOf = new Map<number, Map<string, number>>();
  symbols.forEach((s, i) => {
    if (s.container == null) return;
    let m = membersOf.get(s.container);
    if (!m) membersOf.set(s.container, (m = new Map()));
    if (!m.has(s.name)) m.set(s.name, i);
  });
  const enclosingClass = (n: Node): number | null => {
    for (let p = n.parent; p; p = p.parent) {
      const d = defByNode.get(p.id);
      if (d?.symbol != null && d.rule.kind === 'class') return d.symbol;
      // `this` is rebound by a nested non-arrow function or an anonymous class
      if (THIS_REBINDERS.has(p.type) && !(d?.rule.kind === 'method')) return null;
    }
    return null;
  };

  // ---- members: `obj.prop` ---------------------------------------------------------------------
  type Owner = { type: 'symbol'; index: number } | { type: 'import'; index: number };
  const asOwner = (b: Bound | undefined): Owner | undefined => (b && b.type !== 'local' ? b : undefined);

  // `class A extends B`, `interface I extends J`: what the base is bound to, for inherited members
  const basesOf = new Map<number, Owner[]>();
  for (const { derived, base } of baseClasses) {
    const cls = defByNode.get(derived.id)?.symbol;
    const b = asOwner(lookup(base, base.text, base.type === 'type_identifier' ? 'type' : 'value'));
    if (cls == null || !b) continue;
    basesOf.set(cls, [...(basesOf.get(cls) ?? []), b]);
    symbols[cls]!.bases = [...(symbols[cls]!.bases ?? []), b.type === 'symbol' ? { symbol: b.index } : { importIndex: b.index }];
  }

  /** The type a declaration states: `x: Foo`, `x: Foo<T>`, `x = new Foo()`, `x = y as Foo`. */
  const declaredType = (d: Def | undefined): Owner | undefined => {
    if (!d) return undefined;
    for (const holder of [d.node, d.name.parent]) {
      if (!holder) continue;
      const value = holder.childForFieldName('value');
      const candidates = [
        holder.childForFieldName('type'),
        value?.type === 'new_expression' ? value.childForFieldName('constructor') : null,
        value?.type === 'as_expression' || value?.type === 'satisfies_expression' ? value.namedChildren[1] : null,
      ];
      for (let c of candidates) {
        if (c?.type === 'type_annotation') c = c.firstNamedChild;
        if (c?.type === 'generic_type') c = c.childForFieldName('name');
        if (c && (c.type === 'type_identifier' || c.type === 'identifier')) {
          return asOwner(lookup(c, c.text, c.type === 'type_identifier' ? 'type' : 'value'));
        }
      }
    }
    return undefined;
  };
  const defOf = (b: Bound | undefined): Def | undefined => (b?.type === 'symbol' ? symbolDefs[b.index] : b?.type === 'local' ? b.def : undefined);

  /** `name` in an owner or its bases; an imported owner is finished by link.ts */
  const memberIn = (owner: Owner, name: string): RefTarget | undefined => {
    const queue: Owner[] = [owner];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const o = queue.shift()!;
      const key = `${o.type}:${o.index}`;
      if (seen.has(key) || seen.size > 32) continue;
      seen.add(key);
      if (o.type === 'import') return { kind: 'member_of_import', importIndex: o.index };
      const m = membersOf.get(o.index)?.get(name);
      if (m != null) return { kind: 'symbol', symbol: m };
      queue.push(...(basesOf.get(o.index) ?? []));
    }
    return undefined;
  };

  /** What `object` in `object.prop` can be, most specific first. */
  const ownersOf = (object: Node, depth: number): Owner[] => {
    switch (object.type) {
      case 'this': {
        const c = enclosingClass(object);
        return c != null ? [{ type: 'symbol', index: c }] : [];
      }
      case 'super': {
        const c = enclosingClass(object);
        return c != null ? basesOf.get(c) ?? [] : [];
      }
      case 'identifier': {
        const b = lookup(object, object.text);
        const own = asOwner(b);
        const typed = declaredType(defOf(b));
        return [own, typed].filter((o): o is Owner => o !== undefined);
      }
      case 'parenthesized_expression':
      case 'non_null_expression':
        return object.firstNamedChild ? ownersOf(object.firstNamedChild, depth) : [];
      case 'member_expression': {
        // a.b.c: c is looked up in b, or in the type b declares
        const inner = object.childForFieldName('object');
        const prop = object.childForFieldName('property');
        if (!inner || !prop || depth > 3) return [];
        for (const o of ownersOf(inner, depth + 1)) {
          const t = memberIn(o, prop.text);
          if (t?.kind !== 'symbol') continue;
          const typed = declaredType(symbolDefs[t.symbol]);
          return [{ type: 'symbol', index: t.symbol } as Owner, ...(typed ? [typed] : [])];
        }
        return [];
      }
      default:
        return [];
    }
  };

  for (const { prop, object } of memberRefs.values()) {
    if (handled.has(prop.id)) continue;
    handled.add(prop.id);
    let target: RefTarget = { kind: 'member' };
    for (const owner of ownersOf(object, 0)) {
      const t = memberIn(owner, prop.text);
      if (t) {
        target = t;
        break;
      }
    }
    pushRef(prop, target, roleOf(prop));
  }
  for (const node of plainRefs.values()) {
    if (handled.has(node.id)) continue;
    const b = lookup(node, node.text, node.type === 'type_identifier' ? 'type' : 'value');
    if (b?.type === 'local') continue; // a parameter or local variable: not an indexed symbol
    const target: RefTarget =
      b?.type === 'symbol' ? { kind: 'symbol', symbol: b.index }
      : b?.type === 'import' ? { kind: 'import', importIndex: b.index }
      : { kind: 'unbound' };
    pushRef(node, target, roleOf(node));
  }
  refs.sort((a, b) => a.line - b.line || a.column - b.column);

  return {
    language: row.id,
    isModule: imports.length > 0 || exportsOut.length > 0,
    symbols,
    imports,
    exports: exportsOut,
    refs,
    parseErrors: root.hasError ? 1 : 0,
  };
}

function signatureAt(lines: string[], row: number): string {
  const text = (lines[row] ?? '').trim().replace(/\s+/g, ' ');
  return text.length > SIGNATURE_MAX ? text.slice(0, SIGNATURE_MAX - 1) + '…' : text;
}

function roleOf(node: Node): RefFact['role'] {
  const parent = node.parent;
  if (!parent) return 'read';
  if (node.type === 'type_identifier' || parent.type === 'nested_type_identifier') return 'type';
  let expr: Node = node;
  if (parent.type === 'member_expression' && parent.childForFieldName('property')?.id === node.id) expr = parent;
  const up = expr.parent;
  if (!up) return 'read';
  if (up.type === 'call_expression' && up.childForFieldName('function')?.id === expr.id) return 'call';
  if (up.type === 'new_expression' && up.childForFieldName('constructor')?.id === expr.id) return 'new';
  if ((up.type === 'assignment_expression' || up.type === 'augmented_assignment_expression') && up.childForFieldName('left')?.id === expr.id)
    return 'write';
  if (up.type === 'update_expression') return 'write';
  if (up.type.startsWith('jsx_')) return 'jsx';
  if (up.type === 'export_specifier' || up.type === 'export_statement') return 'export';
  if (up.type === 'extends_clause' || up.type === 'class_heritage') return 'type';
  return 'read';
}
