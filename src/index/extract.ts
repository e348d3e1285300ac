/**
 * The language-neutral extraction engine. A language contributes only a query (grammars/) using
 * the capture vocabulary in grammars/README.md; this module turns its captures into definitions,
 * scopes, bindings, imports, exports and references, resolved inside the file. Cross-file binding
 * happens later, in link.ts.
 */
import type { Node, Point, QueryCapture } from 'web-tree-sitter';
import type { ExportFact, FileFacts, ImportFact, RefFact, RefTarget, SymbolFact } from './facts.js';
import type { LanguageRow } from './languages.js';
import { loadLanguage } from './parser.js';
import { NodeRanges } from './ancestry.js';
import { type Recovery, recoverStatementEnds } from './recover.js';
import {
  DOC_LINK, countNewlines, sameTarget, docCommentOf, jsdocTypeName, FUNCTION_DECLARATIONS, ELEMENT_CALLBACKS, COLLECTION_ACCESSORS, OBJECT_WRAPPERS, FUNCTION_NODES, parametersOf, functionType, objectParts, isGetter, argumentSite,
} from './type-syntax.js';

type Binding = 'lexical' | 'hoisted' | 'member' | 'none';
type Store = 'always' | 'toplevel' | 'never';
/**
 * `once`: only the first definition of the name in its scope defines it, later ones are writes to
 * it (Python assignments). `receiver`: a parameter whose type is the container of the method it
 * belongs to (`self`). `assigned`: a member declared by assigning through the receiver
 * (`self.x = v`), on the receiver's class, unless the class (or a base in the file) declares it.
 */
type Rule = { kind: string; binding: Binding; store: Store; once?: true; receiver?: true; assigned?: true; alsoReference?: true; variadic?: true };

/** capture suffix after `definition.` → symbol kind, how it binds, and whether it becomes a symbol */
const DEFINITION_RULES: Record<string, Rule> = {
  function: { kind: 'function', binding: 'lexical', store: 'always' },
  'function.var': { kind: 'function', binding: 'hoisted', store: 'always' },
  class: { kind: 'class', binding: 'lexical', store: 'always' },
  struct: { kind: 'struct', binding: 'lexical', store: 'always' },
  record: { kind: 'record', binding: 'lexical', store: 'always' },
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
  trait: { kind: 'trait', binding: 'lexical', store: 'always' },
  module: { kind: 'module', binding: 'lexical', store: 'always' },
  macro: { kind: 'macro', binding: 'lexical', store: 'always' },
  'constant.member': { kind: 'constant', binding: 'member', store: 'always' },
  'type.member': { kind: 'type', binding: 'member', store: 'always' },
  'variable.assign': { kind: 'variable', binding: 'hoisted', store: 'toplevel', once: true },
  self: { kind: 'parameter', binding: 'lexical', store: 'never', receiver: true },
  attribute: { kind: 'property', binding: 'member', store: 'always', assigned: true },
  // the last parameter, taking any number of arguments (Java `String... xs`): overloads by arity
  'parameter.variadic': { kind: 'parameter', binding: 'lexical', store: 'never', variadic: true },
  // a Go embedded field is named by its type: the name is also a use of that type
  'property.embedded': { kind: 'property', binding: 'member', store: 'always', alsoReference: true },
};

/** node types between a member declaration and its container's declaration (bodies, wrappers) */
const MEMBER_PATH = new Set([
  'class_body', 'interface_body', 'enum_body', 'enum_assignment', 'object', 'object_type', 'pair',
  'class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration', 'enum_declaration',
  'type_alias_declaration', 'variable_declarator', 'parenthesized_expression', 'as_expression', 'satisfies_expression',
  'required_parameter', 'optional_parameter', 'formal_parameters', 'method_definition', 'extends_type_clause',
  // Go
  'type_spec', 'struct_type', 'interface_type', 'field_declaration_list', 'field_declaration',
  // Java
  'record_declaration', 'enum_body_declarations', 'annotation_type_declaration', 'annotation_type_body', 'constant_declaration',
  // Python (class bodies, decorated methods) and Rust (trait bodies, struct fields, enum variants)
  'block', 'decorated_definition', 'class_definition', 'expression_statement',
  'declaration_list', 'trait_item', 'struct_item', 'union_item', 'enum_variant_list', 'enum_item', 'enum_variant',
]);
/** nodes that give `this` a new meaning: ordinary functions and class expressions */
const THIS_REBINDERS = new Set(['function_declaration', 'function_expression', 'generator_function_declaration', 'generator_function', 'class']);

/** kinds whose members can be looked up with `X.member` */
const CONTAINER_KINDS = new Set(['class', 'struct', 'record', 'interface', 'type', 'enum', 'namespace', 'constant', 'variable', 'function', 'trait', 'module', 'enum_member']);
/** kinds whose bodies are namespaces: their top-level definitions are stored, and they are not function bodies */
const NAMESPACE_KINDS = new Set(['namespace', 'module']);
/** kinds whose bodies give `this` a meaning */
const THIS_KINDS = new Set(['class', 'struct', 'record', 'enum', 'interface']);

/**
 * Type nodes that wrap the name of a type (or expressions whose type is evident), and the fields
 * where the inner type is, tried in order (else the first named child): `*T`, `G[T]`, `T{}`,
 * `&T{}`, `new T()`, a Go result list `(T, error)`.
 */
const TYPE_WRAPPERS: Record<string, string[]> = {
  type_annotation: [], generic_type: ['name', 'type'], pointer_type: [], parenthesized_type: [],
  composite_literal: ['type'], unary_expression: ['operand'], object_creation_expression: ['type'], new_expression: ['constructor'],
  parameter_list: [], parameter_declaration: ['type'], type_assertion_expression: ['type'], cast_expression: ['type'],
  // Rust `&T`, `dyn T`, `impl T`, `T { .. }`; a Python annotation
  reference_type: ['type'], dynamic_type: ['trait'], abstract_type: ['trait'], struct_expression: ['name'], type: [], string: [],
  trait_bounds: [], constraint: [],
};
/** element access → the field holding the collection: Go `xs[i]`, Java `a[i]` */
const ELEMENT_ACCESS: Record<string, string> = { index_expression: 'operand', array_access: 'array', subscript_expression: 'object' };
/** collection types → the field holding their element type */
const ELEMENT_TYPES: Record<string, string> = { slice_type: 'element', array_type: 'element', map_type: 'value' };
/** kinds of declarations that hold a value: as a type they stand for the type they declare */
const VALUE_KINDS = new Set(['variable', 'constant', 'parameter', 'property']);
/** other initializers whose type is evident: `T { .. }` (Rust), `y` (a variable: its type), `this`,
 * `a.b` (a field: its declared type), `x!`, `(x)`, `xs[i]` (an element of `T[]`) */
const INITIALIZERS = new Set(['struct_expression', 'identifier', 'this', 'member_expression', 'non_null_expression', 'parenthesized_expression', 'subscript_expression']);
/** calls whose result type is the callee's declared type (a function's result, a method's return type) */
const CALLS = new Set(['call_expression', 'method_invocation', 'call']);
/** member-access nodes whose property is a call (Java `a.m()` is one node): a chain through them is typed by the result */
const CALL_MEMBERS = new Set(['method_invocation']);

/** parents of the local name of a `require` binding (import statements never have these) */
const REQUIRE_BINDING_PARENTS = new Set(['variable_declarator', 'object_pattern', 'pair_pattern']);

type Bound = { type: 'symbol'; index: number } | { type: 'import'; index: number } | { type: 'local'; def?: Def };

/**
 * TypeScript keeps values and types apart: `interface X` and `const X` can share a name, and
 * `new X()` means the const while `let a: X` means the interface. Bindings live in one of the two
 * namespaces (or both: classes, enums, namespaces, imports).
 */
type Namespace = 'value' | 'type' | 'both' | 'call' | 'macro';
const NAMESPACE_OF_KIND: Record<string, Namespace> = {
  interface: 'type', type: 'type', type_parameter: 'type',
  class: 'both', enum: 'both', namespace: 'both', struct: 'both', record: 'both',
  trait: 'type', module: 'type', macro: 'macro',
};
/** generic collections whose elements are their (first) type argument */
const SEQUENCE_TYPES = /^((Readonly)?(Array|Set)|list|List|set|Set|frozenset|FrozenSet|Sequence|MutableSequence|Iterable|Iterator|Collection|AbstractSet|MutableSet|deque|Deque)$/;

/** how a member is reached: through its class (`C.x`: a static member) or an instance (`this.x`, `v.x`) */
type Access = 'static' | 'instance';

/** the order in which namespaces are searched for a use of each kind; 'call' holds the methods of
 * languages where a field and a method may share a name (Java `name` and `name()`) */
const SEARCH: Record<'value' | 'type' | 'call' | 'macro', string[]> = {
  // (a name read as a value or a type is never one of those methods: Java `ks = keySet` is a field)
  value: ['value', 'type'], type: ['type', 'value'], call: ['call', 'value', 'type'],
  // Rust macros have a namespace of their own: `format!` is never the function `format`
  macro: ['macro'],
};

interface Def {
  node: Node;
  name: Node;
  rule: Rule;
  pattern: number;
  scope: Node | null;
  symbol: number | null;
}

const SIGNATURE_MAX = 160;

/** how deep `@macro.items` bodies inside macro bodies are parsed again */
const MACRO_DEPTH = 3;

export async function extractFile(row: LanguageRow, source: string): Promise<FileFacts> {
  const { parser, query } = await loadLanguage(row);
  let tree = parser.parse(source);
  if (!tree) throw new Error('parser returned no tree');
  // code without semicolons that tree-sitter misreads: parsed again with its statement ends written
  let recovery: Recovery | undefined;
  if (row.asi && tree.rootNode.hasError) {
    recovery = recoverStatementEnds(parser, source, tree);
    if (recovery) {
      tree.delete();
      tree = recovery.tree;
    }
  }
  const trees = [tree];
  try {
    let matches = query.matches(tree.rootNode);
    // `@macro.items`: a macro's token tree that holds items (Rust `cfg_x! { mod m; struct S; }`) is
    // parsed again as source, restricted to those ranges, so positions stay the file's; its items
    // join the file's top level, and the tokens themselves are not read as references
    const bodies: Node[] = [];
    for (let depth = 0, found = macroBodies(matches); found.length > 0 && depth < MACRO_DEPTH; depth++) {
      bodies.push(...found);
      const ranges = found.map((b) => ({
        startIndex: b.startIndex + 1, endIndex: b.endIndex - 1,
        startPosition: { row: b.startPosition.row, column: b.startPosition.column + 1 },
        endPosition: { row: b.endPosition.row, column: b.endPosition.column - 1 },
      }));
      const sub = parser.parse(source, null, { includedRanges: ranges });
      if (!sub) break;
      trees.push(sub);
      const more = query.matches(sub.rootNode);
      matches = matches.concat(more);
      found = macroBodies(more);
    }
    const facts = extractTree(row, source, tree.rootNode, matches, trees.slice(1).map((t) => t.rootNode), bodies, recovery?.ends);
    if (recovery) facts.recovered = recovery.ends.size;
    return facts;
  } finally {
    for (const t of trees) t.delete();
  }
}

/**
 * Runs one phase of extractTree as a function of its own. V8 optimizes a function again whenever
 * it meets object shapes it has not seen (captures, facts) — a dozen times per worker: compiling
 * the whole of extractTree took ≈ 200 ms each time, a phase compiles alone in a few ms.
 */
function phase(run: () => void): void {
  run();
}

function macroBodies(matches: { captures: QueryCapture[] }[]): Node[] {
  const out: Node[] = [];
  for (const m of matches) for (const c of m.captures) if (c.name === 'macro.items' && c.node.endIndex - c.node.startIndex > 2) out.push(c.node);
  return out;
}

function extractTree(
  row: LanguageRow,
  source: string,
  root: Node,
  matches: { patternIndex: number; captures: QueryCapture[] }[],
  /** roots of macro bodies parsed again (`@macro.items`): their items are the file's own */
  macroRoots: Node[] = [],
  /** those bodies' token trees in the main tree: not references */
  macroTokens: Node[] = [],
  /** statement ends written in by recovery (`;` at index → the end of the statement it ends) */
  insertedEnds?: Map<number, Point>,
): FileFacts {
  // a declaration that ends with an inserted `;` ends where its last token does, as it would with one written
  const endOf = (n: Node): Point => (insertedEnds?.get(n.endIndex - 1) ?? n.endPosition);
  const lines = source.split('\n');
  const scopes = new Map<number, boolean>(); // node id → is function scope
  scopes.set(root.id, true);
  const macroRootIds = new Set(macroRoots.map((r) => r.id));
  const defsByName = new Map<string, Def>(); // key: name node id + member flag
  const ignore = new Set<number>();
  const plainRefs = new Map<number, Node>();
  const memberRefs = new Map<number, { prop: Node; object: Node }>();
  const memberPattern = new Map<number, number>(); // property node id → the pattern that captured it
  const inScopeToo = new Set<number>(); // `@member.in_scope`: properties that may be names in scope instead
  const baseClasses: { derived: Node; base: Node }[] = [];
  const importMatches: Record<string, Node>[] = [];
  const exportMatches: Record<string, Node>[] = [];
  let packageName: string | undefined;
  const declaredTypes = new Map<number, Node>(); // name node id → the type its declaration states
  const declaredResults = new Map<number, Node>(); // function name node id → the type calling it gives (TS return type)
  const receivers = new Map<number, Node>(); // method name node id → the type it is declared on (Go)
  const declaredElements = new Map<number, Node>(); // name node id → the collection it ranges over (Go `for _, x := range xs`)
  const ignoredTrees: Node[] = [...macroTokens];
  const classScopes = new Set<number>(); // scopes the functions inside them do not see (Python class bodies)
  const declaredOutside: { node: Node; global: boolean }[] = []; // `global x` / `nonlocal x`
  const moduleRefs = new Set<number>(); // path roots naming a module (Rust `crate`, `super`)
  const outerNodes = new Set<number>(); // evaluated around their function (Python default values, annotations)
  const stopNodes = new Map<number, Node>([[root.id, root]]); // the scopes and `@scope.outer` nodes, by id
  const macroRefs = new Set<number>();
  const selfTypes = new Set<number>(); // `Self`: the enclosing impl's or trait's type
  const superCalls = new Set<number>(); // Python `super()`
  const importGroups = new Map<number, Node>(); // group node → its path (Rust `use a::{...}`)
  const exportList = new Set<string>(); // Python `__all__`
  const docComments: Node[] = []; // `{@link X}` / `@see X` inside them are references
  const objectKeys: Node[] = []; // keys of object literals: members of the type the object is written for
  const implementers: { derived: Node; base: Node }[] = []; // Rust `impl Trait for T`: T named, not declared here
  // every `.parent` crosses into wasm and builds a Node: walks from thousands of references share
  // their ancestors, so each node's parent is fetched once, and those the captures show (a member
  // access around its object and property) are not fetched at all
  // (tree-sitter nodes have no parent pointer: `.parent` searches down from the root each time)
  const parents = new Map<number, Node | null>();

  phase(() => {
    for (const m of matches) {
      const caps: Record<string, Node> = {};
      for (const c of m.captures) caps[c.name] = c.node;
      const access = caps['member.access'];
      if (access && caps['reference.member'] && caps['member.object']) {
        parents.set(caps['reference.member'].id, access);
        parents.set(caps['member.object'].id, access);
      }
      for (const c of m.captures) {
        const n = c.name;
        if (macroRootIds.has(c.node.id) && n.startsWith('scope')) continue; // the file's root is the scope
        if (n.startsWith('scope')) stopNodes.set(c.node.id, c.node);
        if (n === 'scope') scopes.set(c.node.id, scopes.get(c.node.id) ?? false);
        else if (n === 'scope.function') scopes.set(c.node.id, true);
        else if (n === 'scope.class') {
          // names assigned in a class body bind there, but the functions inside it do not see them
          scopes.set(c.node.id, true);
          classScopes.add(c.node.id);
        } else if (n === 'binding.global' || n === 'binding.nonlocal') declaredOutside.push({ node: c.node, global: n === 'binding.global' });
        else if (n === 'scope.outer') outerNodes.add(c.node.id);
        else if (n === 'reference.module') moduleRefs.add(c.node.id);
        else if (n === 'reference.macro') macroRefs.add(c.node.id);
        else if (n === 'receiver.self') selfTypes.add(c.node.id);
        else if (n === 'receiver.super') superCalls.add(c.node.id);
        else if (n === 'import.group' && caps['import.prefix']) importGroups.set(c.node.id, caps['import.prefix']);
        else if (n === 'export.list') exportList.add(c.node.text);
        else if (n === 'doc.comment') docComments.push(c.node);
        else if (n === 'object.key') objectKeys.push(c.node);
        else if (n === 'ignore') {
          ignore.add(c.node.id);
          if (c.node.namedChildCount > 0) ignoredTrees.push(c.node);
        } else if (n === 'package') packageName = c.node.text;
        else if (n === 'declared.type' && caps['name']) {
          if (!declaredTypes.has(caps['name'].id)) declaredTypes.set(caps['name'].id, c.node);
        } else if (n === 'declared.result' && caps['name']) {
          if (!declaredResults.has(caps['name'].id)) declaredResults.set(caps['name'].id, c.node);
        } else if (n === 'member.of' && caps['name']) receivers.set(caps['name'].id, c.node);
        else if (n === 'declared.element' && caps['name']) declaredElements.set(caps['name'].id, c.node);
        else if (n === 'class.extends' && caps['class.derived']) baseClasses.push({ derived: caps['class.derived'], base: c.node });
        else if (n === 'class.extends' && caps['class.implementer']) implementers.push({ derived: caps['class.implementer'], base: c.node });
        else if (n === 'reference') plainRefs.set(c.node.id, c.node);
        else if (n === 'reference.member' && caps['member.object']) {
          // as for definitions, the earliest pattern that captures a property wins
          if ((memberPattern.get(c.node.id) ?? Infinity) > m.patternIndex) {
            memberRefs.set(c.node.id, { prop: c.node, object: caps['member.object'] });
            memberPattern.set(c.node.id, m.patternIndex);
          }
          if (caps['member.in_scope']) inScopeToo.add(c.node.id);
        }
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
      if (caps['import.source'] || ((caps['import.name'] || caps['import.self'] || caps['import.wildcard']) && !caps['import.group'])) importMatches.push(caps);
      else if (Object.keys(caps).some((k) => k.startsWith('export.') || k.startsWith('reexport.'))) exportMatches.push(caps);
    }
  });
  // `@ignore` covers everything inside the node: the path in `import a.b.C;` names no symbol
  phase(() => {
    for (const stack = ignoredTrees; stack.length > 0; ) {
      const n = stack.pop()!;
      for (const c of n.namedChildren) {
        if (!c) continue;
        ignore.add(c.id);
        stack.push(c);
      }
    }
  });
  // a name captured both as a member and as a plain definition (a method is also a `def`/`fn`) is
  // the member; a parameter that declares a property (`constructor(private x)`) stays both
  for (const [key, d] of defsByName) {
    if (key.endsWith(':l') && d.rule.kind !== 'parameter' && defsByName.has(`${d.name.id}:m`)) defsByName.delete(key);
  }

  // ---- scopes and bindings -------------------------------------------------------------------
  // the scopes by range (not with macro bodies parsed again: their ranges are the main tree's too)
  const scopeRanges = macroRoots.length === 0 ? new NodeRanges(stopNodes.values()) : undefined;
  /** `n.parent`, fetched once per node */
  const up = (n: Node): Node | null => {
    let p = parents.get(n.id);
    if (p === undefined) parents.set(n.id, (p = n.parent));
    return p;
  };
  const upq = (n: Node | null | undefined): Node | null => (n ? up(n) : null);
  // a macro body parsed again hangs under the file's root: its names are seen from it and see it
  const parentOf = (n: Node): Node | null => (macroRootIds.size > 0 && macroRootIds.has(n.id) ? root : up(n));
  // Walks to the root (one per name looked up, per namespace) only stop at scopes and at nodes
  // evaluated outside their function: each node's nearest such ancestor is found once, so a walk
  // costs the scopes around a name, not its depth
  const stops = new Map<number, Node | null>();
  /** the nearest proper ancestor of `n` that is a scope or a `@scope.outer` node */
  const nextStop = (n: Node): Node | null => {
    const near = scopeRanges?.nearest(n);
    if (near !== undefined) return near;
    const pending: number[] = [];
    let result: Node | null;
    for (let cur = n; ; ) {
      const known = stops.get(cur.id);
      if (known !== undefined) {
        result = known;
        break;
      }
      pending.push(cur.id);
      const p = parentOf(cur);
      if (!p || scopes.has(p.id) || outerNodes.has(p.id)) {
        result = p;
        break;
      }
      cur = p;
    }
    for (const id of pending) stops.set(id, result);
    return result;
  };
  const scopeOf = (from: Node | null, fnOnly: boolean): Node => {
    for (let n = from; n; n = nextStop(n)) {
      const isFn = scopes.get(n.id);
      if (isFn !== undefined && (isFn || !fnOnly)) return n;
    }
    return root;
  };
  const bindings = new Map<number, Map<string, Bound>>();
  /** where locals are visible only after their declaration, every declaration of a name in a scope, in order (Rust `let x = x.trim();` shadows) */
  const shadowing = new Map<number, Map<string, Bound[]>>();
  const bind = (scope: Node, name: string, b: Bound, ns: Namespace, force = false) => {
    let m = bindings.get(scope.id);
    if (!m) bindings.set(scope.id, (m = new Map()));
    for (const key of ns === 'both' ? ['value', 'type'] : [ns]) {
      // first declaration wins (overloads, merged declarations)
      if (force || !m.has(`${key}:${name}`)) m.set(`${key}:${name}`, b);
      if (row.localsAfterDeclaration && b.type === 'local') {
        let sm = shadowing.get(scope.id);
        if (!sm) shadowing.set(scope.id, (sm = new Map()));
        sm.set(`${key}:${name}`, [...(sm.get(`${key}:${name}`) ?? []), b]);
      }
    }
  };
  // `global x` / `nonlocal x` in a function: x is not local to it (its assignments bind outside)
  const outsideNames = new Map<number, Map<string, boolean>>(); // function scope → name → global?
  for (const { node, global } of declaredOutside) {
    const fn = scopeOf(node, true);
    let m = outsideNames.get(fn.id);
    if (!m) outsideNames.set(fn.id, (m = new Map()));
    m.set(node.text, global);
  }
  /** the binding of `name` seen from `at`, in namespace `ns` (falling back to the others) */
  const lookup = (at: Node, name: string, ns: 'value' | 'type' | 'call' | 'macro' = 'value'): Bound | undefined => {
    for (const key of SEARCH[ns]) {
      let inFunction = false;
      let outer = false;
      for (let n: Node | null = at; n; n = nextStop(n)) {
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
          const g = bindings.get(root.id)?.get(`${key}:${name}`);
          if (g) return g;
          break;
        }
      }
    }
    return undefined;
  };

  const defs = [...defsByName.values()].sort((a, b) => a.node.startIndex - b.node.startIndex || a.pattern - b.pattern);
  const defByNode = new Map<number, Def>();
  const isNamespaceScope = (scope: Node): boolean => {
    const owner = up(scope) ? defByNode.get(up(scope)!.id) ?? defByNode.get(scope.id) : defByNode.get(scope.id);
    return owner !== undefined && NAMESPACE_KINDS.has(owner.rule.kind);
  };
  for (const d of defs) {
    // a definition binds in the innermost scope that strictly contains its declaration node
    if (d.rule.binding === 'lexical') d.scope = scopeOf(nextStop(d.node), false);
    else if (d.rule.binding === 'hoisted') d.scope = scopeOf(nextStop(d.node), true);
    if (!defByNode.has(d.node.id) || d.rule.binding !== 'member') defByNode.set(d.node.id, d);
  }

  // ---- symbols --------------------------------------------------------------------------------
  const symbols: SymbolFact[] = [];
  const symbolDefs: Def[] = [];
  // the declarations that can hold members, by range: for a declaration that is not a member, its
  // container is the nearest one around it
  let containerRanges: NodeRanges | undefined;
  const containerOf = (d: Def): Def | undefined => {
    if (d.rule.binding !== 'member' && macroRoots.length === 0) {
      containerRanges ??= new NodeRanges([...defByNode.values()].filter((c) => CONTAINER_KINDS.has(c.rule.kind)).map((c) => c.node));
      const near = containerRanges.nearest(d.node);
      if (near !== undefined) return near ? defByNode.get(near.id) : undefined;
    }
    for (let n = parentOf(d.node); n; n = parentOf(n)) {
      const c = defByNode.get(n.id);
      if (c && c !== d && CONTAINER_KINDS.has(c.rule.kind)) return c;
      // a member belongs only to the declaration whose body holds it: a property of an inline
      // type literal in a parameter, or of an object passed as an argument, belongs to nothing
      if (d.rule.binding === 'member' && !MEMBER_PATH.has(n.type)) return undefined;
    }
    return undefined;
  };
  const insideFunction = (d: Def): boolean => {
    for (let n = parentOf(d.node); n && n.id !== root.id; n = parentOf(n)) {
      const kind = defByNode.get(n.id)?.rule.kind;
      if (scopes.get(n.id) === true && !classScopes.has(n.id) && !(kind && NAMESPACE_KINDS.has(kind)) && n.type !== 'internal_module') return true;
    }
    return false;
  };
  // `const x = require('m')` binds an import, not a symbol of its own (like `import x from 'm'`)
  const requireNames = new Set<number>();
  for (const caps of importMatches) {
    const local = caps['import.alias'] ?? caps['import.name'] ?? caps['import.namespace'];
    if (local && REQUIRE_BINDING_PARENTS.has(up(local)?.type ?? '')) requireNames.add(local.id);
  }
  // names imported in each scope: a later assignment to one writes to the import (Python)
  const importedIn = new Set<string>();
  for (const caps of importMatches) {
    const local = caps['import.alias'] ?? caps['import.name'] ?? caps['import.namespace'];
    if (local) importedIn.add(`${scopeOf(up(local), false).id}:${local.text}`);
  }
  // a local object that holds methods is stored with them: `const store = { $subscribe() {…} }`
  // inside a function is code the function hands out, and its methods are what callers reach
  const methodHolders = new Set<Def>();
  for (const d of defs) {
    if (d.rule.binding !== 'member' || d.rule.kind !== 'method') continue;
    const holder = containerOf(d);
    if (holder && holder.rule.store === 'toplevel') methodHolders.add(holder);
  }
  /** definitions that turned out not to define: a reassignment, a name declared `global` */
  const dropped = new Set<Def>();
  /** definitions assigned again later (Python): typed by their annotation only, not by a value */
  const reassigned = new Set<Def>();
  phase(() => {
    for (const d of defs) {
      if (d.rule.assigned) continue; // `self.x = v`: decided once the receiver's class is known (below)
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
      const container = containerOf(d);
      let stored: boolean;
      if (d.rule.store === 'never' || requireNames.has(d.name.id)) stored = false;
      // a Go method's type may be declared after it, or in another file: its container is set below
      else if (d.rule.binding === 'member') stored = container?.symbol != null || receivers.has(d.name.id);
      else if (d.rule.store === 'toplevel') stored = d.scope != null && (d.scope.id === root.id || isNamespaceScope(d.scope) || methodHolders.has(d));
      else stored = true;
      if (stored) {
        d.symbol = symbols.length;
        symbolDefs.push(d);
        const start = d.node.startPosition;
        const end = endOf(d.node);
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
  });

  // ---- imports --------------------------------------------------------------------------------
  const imports: ImportFact[] = [];
  const refs: RefFact[] = [];
  const handled = new Set<number>(); // nodes already turned into references (or deliberately not)
  for (const d of defs) if (!dropped.has(d) && !d.rule.assigned && !d.rule.alsoReference) handled.add(d.name.id);
  for (const id of ignore) handled.add(id);
  // the declarations stored as symbols, by range: built at the first reference, when all are
  // known (again if an assignment below leaves defByNode)
  let symbolRanges: NodeRanges | undefined;
  const enclosingSymbol = (n: Node): number | null => {
    if (macroRoots.length === 0) {
      symbolRanges ??= new NodeRanges([...defByNode.values()].filter((d) => d.symbol != null).map((d) => d.node));
      const near = symbolRanges.nearest(n);
      if (near !== undefined) return near && defByNode.get(near.id)!.symbol;
    }
    for (let p = parentOf(n); p; p = parentOf(p)) {
      const d = defByNode.get(p.id);
      if (d?.symbol != null) return d.symbol;
    }
    return null;
  };
  const pushRef = (node: Node, target: RefTarget, role: RefFact['role'], args?: number) => {
    refs.push({
      name: node.text,
      line: node.startPosition.row + 1,
      column: node.startPosition.column + 1,
      endColumn: node.startPosition.row === node.endPosition.row ? node.endPosition.column + 1 : node.startPosition.column + 1 + node.text.length,
      role,
      target,
      enclosing: enclosingSymbol(node),
      ...(args !== undefined ? { args } : {}),
    });
  };
  const stripQuotes = (s: string) => s.replace(/^['"]|['"]$/g, '');

  /** the inline modules / namespaces around a node, outermost first (resolvers of relative paths need them) */
  const namespacePath = (n: Node): string[] | undefined => {
    const out: string[] = [];
    for (let p = up(n); p; p = up(p)) {
      const d = defByNode.get(p.id);
      // `mod m;` is written in its parent, not in m
      if (d && NAMESPACE_KINDS.has(d.rule.kind) && d.name.id !== n.id) out.unshift(d.name.text);
    }
    return out.length > 0 ? out : undefined;
  };
  const defNames = new Set(defs.map((d) => d.name.id));
  phase(() => {
    for (const caps of importMatches) {
      const anchor = caps['import.source'] ?? caps['import.name'] ?? caps['import.self'] ?? caps['import.wildcard']!;
      // inside nested groups (`use a::{b::{C}}`) each group's path prefixes the source
      const parts: string[] = caps['import.source'] ? [caps['import.source'].text] : [];
      let innermostGroup: Node | undefined;
      for (let p = up(anchor); p; p = up(p)) {
        const prefix = importGroups.get(p.id);
        if (!prefix) continue;
        innermostGroup ??= prefix;
        parts.unshift(prefix.text);
      }
      const source = parts.join(row.pathSeparator ?? '');
      const scope = namespacePath(anchor);
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
        if (localNode) bind(scopeOf(up(localNode), false), localNode.text, { type: 'import', index }, 'both',
          REQUIRE_BINDING_PARENTS.has(up(localNode)?.type ?? '') || defNames.has(localNode.id));
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
        bind(root, local, { type: 'import', index }, 'both');
      } else {
        // an import that binds no name (Go `import _ "p"`): a dependency all the same
        const n = caps['import.source']!;
        imports.push({ localName: null, source, imported: '*', line: n.startPosition.row + 1, column: n.startPosition.column + 1 });
      }
    }
  });

  /** An import the file does not write: a package-scope name, or a name inside an imported namespace. */
  const implicitImports = new Map<string, number>();
  const implicitImport = (source: string, imported: string, kind: ImportFact['kind'], at: Node): number => {
    const key = `${kind ?? ''}\0${source}\0${imported}`;
    let index = implicitImports.get(key);
    if (index === undefined) {
      index = imports.length;
      imports.push({ localName: null, source, imported, line: at.startPosition.row + 1, column: at.startPosition.column + 1, ...(kind ? { kind } : {}) });
      implicitImports.set(key, index);
    }
    return index;
  };
  /** `name` in what import `base` resolves to (`a.b` after `import a`; `()`: the result of calling it) */
  const memberImport = (base: number, name: string, at: Node): number => {
    const key = `base\0${base}\0${name}`;
    let index = implicitImports.get(key);
    if (index === undefined) {
      index = imports.length;
      imports.push({ localName: null, source: imports[base]!.source, imported: name, line: at.startPosition.row + 1, column: at.startPosition.column + 1, base });
      implicitImports.set(key, index);
    }
    return index;
  };
  /** a path that starts at a module (Rust `crate::`, `super::`, `self::`, a crate's name) */
  const moduleImport = (n: Node): number => {
    const scope = namespacePath(n);
    const key = `module\0${scope?.join('::') ?? ''}\0${n.text}`;
    let index = implicitImports.get(key);
    if (index === undefined) {
      index = imports.length;
      imports.push({ localName: null, source: n.text, imported: '*', line: n.startPosition.row + 1, column: n.startPosition.column + 1, ...(scope ? { scope } : {}) });
      implicitImports.set(key, index);
    }
    return index;
  };
  // a name the file does not declare may come from a wildcard import (`from m import *`, `use m::*`)
  const hasWildcard = imports.some((i) => i.kind === 'wildcard');
  /** `lookup`, falling back to the package scope or the wildcard imports (resolved at link time) */
  const resolveName = (at: Node, name: string, ns: 'value' | 'type' | 'call' = 'value'): Bound | undefined =>
    lookup(at, name, ns) ?? (row.packageScope || hasWildcard ? { type: 'import', index: implicitImport(name, '*', 'scope', at) } : undefined);

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
      endLine: endOf(node).row + 1, endColumn: endOf(node).column + 1,
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
  phase(() => {
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
  });
  for (const id of defaultDeclarations) exportedDeclarations.delete(id);
  phase(() => {
    if (exportedDeclarations.size > 0) {
      for (const d of symbolDefs) {
        if (d.scope?.id !== root.id || d.symbol == null) continue;
        for (let n: Node | null = d.node; n && n.id !== root.id; n = up(n)) {
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
  });

  // Python, Rust: every top-level name is importable from the file; `*` takes only the public ones
  // (not `_private`; with a literal `__all__`, only those it lists)
  phase(() => {
    if (row.exportsTopLevel) {
      const named = new Set(exportsOut.map((e) => e.name));
      const isHidden = (name: string) =>
        exportList.size > 0 ? !exportList.has(name) : row.privatePrefix !== undefined && name.startsWith(row.privatePrefix);
      for (const [key, b] of bindings.get(root.id) ?? []) {
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
      for (const i of imports) if (i.kind === 'wildcard' && !i.scope) exportsOut.push({ name: '*', kind: 'star', source: i.source });
    }
  });

  // ---- members declared apart from their type; members in scope --------------------------------
  // Go: `func (s *Server) Start()` belongs to Server, declared in this file or elsewhere in the package
  for (const d of symbolDefs) {
    const recv = receivers.get(d.name.id);
    if (!recv || d.symbol == null) continue;
    const b = resolveName(recv, recv.text, 'type');
    if (b?.type === 'symbol') symbols[d.symbol]!.container = b.index;
    else if (b?.type === 'import') symbols[d.symbol]!.containerImport = b.index;
  }
  // Java: inside a class body its own members are in scope (inherited ones are found at link time)
  if (row.membersInScope) {
    for (const d of symbolDefs) {
      const c = d.symbol != null ? symbols[d.symbol]!.container : null;
      if (d.rule.binding !== 'member' || c == null) continue;
      const owner = symbolDefs[c]!.node;
      const body = owner.childForFieldName('body') ?? owner.namedChildren.find((n) => n != null && scopes.has(n.id)) ?? null;
      if (body && scopes.has(body.id)) bind(body, d.name.text, { type: 'symbol', index: d.symbol! }, d.rule.kind === 'method' ? 'call' : 'value');
    }
  }
  // Python: a class body's own names (methods, attributes) are in scope in the body, not in its
  // methods (`@x.setter` names the property x)
  for (const d of symbolDefs) {
    if (d.rule.binding !== 'member' || d.symbol == null) continue;
    const scope = scopeOf(nextStop(d.node), false);
    if (classScopes.has(scope.id)) bind(scope, d.name.text, { type: 'symbol', index: d.symbol }, 'value');
  }
  /** The type a member belongs to, from inside it: its class or trait, or the type of its impl block (maybe imported). */
  const containerOwnerAt = (n: Node): Owner | undefined => {
    for (let p: Node | null = n; p; p = up(p)) {
      const d = defByNode.get(p.id);
      if (d?.symbol == null) continue;
      if (d.rule.binding === 'member') {
        const s = symbols[d.symbol]!;
        return s.container != null ? { type: 'symbol', index: s.container } : s.containerImport != null ? { type: 'import', index: s.containerImport } : undefined;
      }
      if (THIS_KINDS.has(d.rule.kind) || d.rule.kind === 'trait') return { type: 'symbol', index: d.symbol };
    }
    return undefined;
  };
  // `self.x = v` declares x on the receiver's class, unless the class or a base in this file has it
  const hasMember = (cls: number, name: string, depth = 0): boolean =>
    symbols.some((s) => s.container === cls && s.name === name) ||
    (depth < 8 && baseClasses.some(({ derived, base }) => {
      if (defByNode.get(derived.id)?.symbol !== cls) return false;
      const b = lookup(base, base.text);
      return b?.type === 'symbol' && hasMember(b.index, name, depth + 1);
    }));
  phase(() => {
    for (const d of defs) {
      if (!d.rule.assigned) continue;
      if (defByNode.get(d.node.id) === d) defByNode.delete(d.node.id); // an assignment statement, not a scope of its own
      symbolRanges = undefined;
      const object = memberRefs.get(d.name.id)?.object;
      const receiver = object ? lookup(object, object.text) : undefined;
      const owner = receiver?.type === 'local' && receiver.def?.rule.receiver ? containerOwnerAt(receiver.def.node) : undefined;
      if (owner?.type !== 'symbol') continue;
      if (hasMember(owner.index, d.name.text)) {
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
        endLine: endOf(d.node).row + 1, endColumn: endOf(d.node).column + 1,
        nameLine: d.name.startPosition.row + 1, nameColumn: d.name.startPosition.column + 1,
        exported: false, isDefault: false, local: false, signature: signatureAt(lines, d.node.startPosition.row),
      });
    }
  });

  // overloads told apart by their number of parameters (Java): how many each method declares
  if (row.overloadsByArity) {
    for (const d of symbolDefs) if (d.symbol != null && (d.rule.kind === 'method' || d.rule.kind === 'function')) symbols[d.symbol]!.arity = 0;
    for (const d of defs) {
      if (d.rule.kind !== 'parameter' || !d.scope) continue;
      const fn = defByNode.get(d.scope.id);
      const s = fn?.symbol != null ? symbols[fn.symbol] : undefined;
      if (s?.arity === undefined) continue;
      s.arity++;
      if (d.rule.variadic) s.variadic = true;
    }
  }

  // ---- references ------------------------------------------------------------------------------
  const membersOf = new Map<number, Map<string, number[]>>();
  symbols.forEach((s, i) => {
    if (s.container == null) return;
    let m = membersOf.get(s.container);
    if (!m) membersOf.set(s.container, (m = new Map()));
    const same = m.get(s.name);
    if (same) same.push(i);
    else m.set(s.name, [i]);
  });
  /** a member by name: for a call the method where a field shares its name (Java), else the first declared */
  const memberNamed = (container: number, name: string, call: boolean, args?: number, access?: Access): number | null | undefined => {
    let same = membersOf.get(container)?.get(name);
    // a static and an instance member of one name: `C.x` is the static one, `this.x` the other
    if (same && access && same.some((i) => symbols[i]!.isStatic) && same.some((i) => !symbols[i]!.isStatic)) {
      same = same.filter((i) => (symbols[i]!.isStatic === true) === (access === 'static'));
    }
    if (same && call && args !== undefined && row.overloadsByArity) {
      // overloads: the one that takes this many arguments; several do: no single answer (null);
      // none does: an overload the class inherits (undefined: look in the bases)
      const methods = same.filter((i) => symbols[i]!.kind === 'method');
      if (methods.length > 0) {
        const fitting = methods.filter((i) => takes(symbols[i]!, args));
        if (fitting.length !== 1) return fitting.length > 1 ? null : undefined;
        return fitting[0];
      }
    }
    return same?.find((i) => (symbols[i]!.kind === 'method') === call) ?? same?.[0];
  };
  const enclosingClass = (n: Node): number | null => {
    for (let p = up(n); p; p = up(p)) {
      const d = defByNode.get(p.id);
      if (d?.symbol != null && THIS_KINDS.has(d.rule.kind)) return d.symbol;
      // `this` is rebound by a nested non-arrow function or an anonymous class (Java `new T() {...}`)
      if (THIS_REBINDERS.has(p.type) && !(d?.rule.kind === 'method')) return null;
      if (p.type === 'class_body' && up(p)?.type === 'object_creation_expression') return null;
    }
    return null;
  };

  /** The type the nearest `this`-binding function declares for `this` (`function (this: T) {}`). */
  const thisParameterType = (n: Node): Owner | undefined => {
    for (let p = up(n); p; p = up(p)) {
      if (!THIS_REBINDERS.has(p.type) && p.type !== 'method_definition') continue;
      const self = p.childForFieldName('parameters')?.namedChildren.find((c) => c?.childForFieldName('pattern')?.type === 'this');
      const type = self?.childForFieldName('type');
      return type ? typeOwner(type, 1) : undefined;
    }
    return undefined;
  };

  // ---- members: `obj.prop` ---------------------------------------------------------------------
  /** what a member is looked up in: a symbol of this file, an import (finished at link time), or
   * the members of a union type (`A | B`: `x.m` is A's m and B's m) */
  type Owner = { type: 'symbol'; index: number; access?: Access } | { type: 'import'; index: number; access?: Access } | { type: 'union'; parts: Owner[] };
  /** The same owner, reached through a value of its type (members are the instance's). */
  const instance = <T extends Owner | undefined>(o: T): T => (o && o.type !== 'union' ? { ...o, access: 'instance' } : o);
  /** An owner as a fact of the file (a union by its first member: what a single answer can say). */
  const ownerFact = (o: Owner): { symbol: number } | { importIndex: number } =>
    o.type === 'symbol' ? { symbol: o.index } : o.type === 'import' ? { importIndex: o.index } : ownerFact(o.parts[0]!);
  const asOwner = (b: Bound | undefined): Exclude<Owner, { type: 'union' }> | undefined => (b && b.type !== 'local' ? b : undefined);
  /** `class A extends B`, `interface I extends J`: what the base is bound to, for inherited members */
  const basesOf = new Map<number, Owner[]>();
  /** member-access node (`a.b`, Go `pkg.T`, Java `a.m()`) → its object and property */
  const memberExprs = new Map<number, { object: Node; prop: Node }>();
  for (const m of memberRefs.values()) if (up(m.prop)) memberExprs.set(up(m.prop)!.id, m);

  /** The type a declaration states: `x: Foo`, `x: Foo<T>`, `x = new Foo()`, `x = y as Foo`, or its `@declared.type`. */
  // a declaration's type is asked for at each use of its name: once is enough
  const typeOfDef = new Map<Def, Owner | undefined>();
  const declaredType = (d: Def | undefined): Owner | undefined => {
    if (!d) return undefined;
    if (typeOfDef.has(d)) return typeOfDef.get(d);
    typeOfDef.set(d, undefined); // a cycle (`x = x.y`) finds nothing
    const t = declaredTypeOf(d);
    typeOfDef.set(d, t);
    return t;
  };
  const declaredTypeOf = (d: Def): Owner | undefined => {
    if (d.rule.receiver) return containerOwnerAt(d.node); // `self`
    // a getter's type is what it returns (`get x(): T`); another function's is not its result
    const stated = declaredTypes.get(d.name.id) ?? (isGetter(d.node) ? declaredResults.get(d.name.id) : undefined);
    if (stated) return typeOwner(stated, 0);
    const ranged = declaredElements.get(d.name.id);
    if (ranged) return elementOwner(ranged, 0);
    // JavaScript: what the doc comment declares (`@param {T} x`, `@type {T}`)
    const documented = row.jsdocTypes ? jsdocDeclared(d) : undefined;
    if (documented) return documented;
    // an enum constant is a value of its enum (Java `Role.ADMIN.label()`)
    const container = d.rule.kind === 'enum_member' && d.symbol != null ? symbols[d.symbol]!.container : null;
    if (container != null) return { type: 'symbol', index: container };
    for (const holder of [d.node, up(d.name)]) {
      if (!holder) continue;
      const value = holder.childForFieldName('value') ?? holder.childForFieldName('right'); // Python `x = v`
      const candidates = [
        holder.childForFieldName('type'),
        value?.type === 'new_expression' ? value.childForFieldName('constructor') : null,
        value?.type === 'as_expression' || value?.type === 'satisfies_expression' ? value.namedChildren[1] : null,
      ];
      for (let c of candidates) {
        if (c?.type === 'type_annotation') c = c.firstNamedChild;
        if (c?.type === 'generic_type') c = c.childForFieldName('name') ?? c.childForFieldName('type');
        if (c && (c.type === 'type_identifier' || c.type === 'identifier')) {
          // (through typeOwner: an alias of a union is the union, a type parameter its bound)
          const b = lookup(c, c.text, c.type === 'type_identifier' ? 'type' : 'value');
          const d = defOf(b);
          return d?.rule.kind === 'type' || d?.rule.kind === 'type_parameter' ? typeOwner(c, 0) ?? asOwner(b) : asOwner(b);
        }
        const t = c ? typeOwner(c, 0) : undefined; // `&T`, `a::T`, a Python annotation
        if (t) return t;
      }
      // `x = Foo()`, `let x = T::new()`, `let x = T { .. }`: the type the value evidently has
      // (`self.x = x` with a parameter `x: T`: the parameter's type)
      if (value && !reassigned.has(d) && (CALLS.has(value.type) || INITIALIZERS.has(value.type))) {
        const t = typeOwner(value, 0);
        if (t) return t;
      }
    }
    return d.rule.kind === 'parameter' ? contextualType(d) : destructuredType(d);
  };
  /** A JSDoc type name, resolved from the comment's position. */
  const jsdocOwner = (comment: Node | undefined, tag: 'param' | 'type' | 'returns', name?: string): Owner | undefined => {
    const typeName = comment ? jsdocTypeName(comment.text, tag, name) : undefined;
    return typeName ? asOwner(lookup(comment!, typeName, 'type')) : undefined;
  };
  /** `@param {T} x` of the function a parameter belongs to; `@type {T}` of a variable or field. */
  const jsdocDeclared = (d: Def): Owner | undefined => {
    if (d.rule.kind === 'parameter') {
      let fn: Node | null = up(d.name);
      for (let i = 0; fn && i < 3 && !FUNCTION_DECLARATIONS.has(fn.type); i++) fn = up(fn);
      return fn && FUNCTION_DECLARATIONS.has(fn.type) ? jsdocOwner(docCommentOf(fn, up), 'param', d.name.text) : undefined;
    }
    return VALUE_KINDS.has(d.rule.kind) ? jsdocOwner(docCommentOf(d.node, up), 'type') : undefined;
  };
  /** `@returns {T}` of a function. */
  const jsdocResult = (fn: Def): Owner | undefined => (row.jsdocTypes ? jsdocOwner(docCommentOf(fn.node, up), 'returns') : undefined);
  /**
   * `f((a, b) => a.x)` / `new C((a) => ...)`: an untyped parameter of a function passed as an
   * argument has the type the callee's parameter declares for it (`cb: (a: A, b: B) => void`).
   * The callee may be in another file: then an import `(arg:param)` of it, resolved at link time.
   */
  const contextualType = (d: Def): Owner | undefined => {
    const holder = up(d.name);
    if (!holder) return undefined;
    // (`x => ...`, JavaScript's bare `(x, y)`, TypeScript's `(x: T)` with the name in `pattern`)
    const param = FUNCTION_NODES.has(holder.type) || holder.type === 'formal_parameters' ? d.name : holder.childForFieldName('pattern')?.id === d.name.id ? holder : null;
    const fn = FUNCTION_NODES.has(holder.type) ? holder : holder.type === 'formal_parameters' ? up(holder) : up(holder)?.type === 'formal_parameters' ? up(up(holder)!) : null;
    const site = param && fn && FUNCTION_NODES.has(fn.type) ? argumentSite(fn, up) : undefined;
    const p = site ? parametersOf(fn!).findIndex((x) => x.id === param!.id) : -1;
    if (!site || p < 0) return undefined;
    const { callee, index: a } = site;
    // `xs.forEach((x) => ...)`, `xs.map(...)`, `set.forEach(...)`, `map.forEach((value) => ...)`:
    // the standard collections pass their elements (values) to these callbacks
    const access = memberExprs.get(callee.id);
    const element = access && a === 0 ? ELEMENT_CALLBACKS[access.prop.text] : undefined;
    if (element !== undefined && p === element) {
      const t = elementOwner(access!.object, 1) ?? (access!.prop.text === 'forEach' ? elementOwner(access!.object, 1, 'value') : undefined);
      if (t) return t;
    }
    const target = calleeTarget(callee);
    if (target?.type === 'import') return { type: 'import', index: memberImport(target.index, `(${a}:${p})`, fn!) };
    return target ? callbackType(target.defs, a, p) : undefined;
  };
  /** What a call's callee is: declarations of this file (a class: its constructor), or an import to resolve at link time. */
  type Callee = { type: 'defs'; defs: Def[] } | { type: 'import'; index: number };
  const calleeTarget = (callee: Node): Callee | undefined => {
    const found = (t: RefTarget | undefined, name: string, at: Node): Callee | undefined => {
      if (t?.kind === 'member_of_import') return { type: 'import', index: memberImport(t.importIndex, name, at) };
      if (t?.kind !== 'symbol') return undefined;
      const s = symbols[t.symbol]!;
      if (THIS_KINDS.has(s.kind)) return found(memberIn({ type: 'symbol', index: t.symbol }, 'constructor', true), 'constructor', at);
      // overloads: every declaration of the name in the same container
      return { type: 'defs', defs: symbolDefs.filter((x) => x.symbol != null && symbols[x.symbol]!.name === s.name && symbols[x.symbol]!.container === s.container && x.scope?.id === symbolDefs[t.symbol]!.scope?.id) };
    };
    if (callee.type === 'identifier') {
      const b = resolveName(callee, callee.text);
      if (b?.type === 'import') return b;
      if (b?.type === 'local') return b.def ? { type: 'defs', defs: [b.def] } : undefined;
      return b ? found({ kind: 'symbol', symbol: b.index }, callee.text, callee) : undefined;
    }
    const access = memberExprs.get(callee.id);
    if (!access) return undefined;
    for (const o of ownersOf(access.object, 1)) {
      if (o.type === 'import') {
        const m = importedMember(o, access.prop.text, access.prop);
        return m?.type === 'import' ? m : undefined;
      }
      const t = found(memberIn(o, access.prop.text, true), access.prop.text, access.prop);
      if (t) return t;
    }
    return undefined;
  };
  /**
   * The type a function passed as argument `arg` to one of `defs` gets for its parameter `param`;
   * with `param` -1, the type an object literal passed as that argument is checked against.
   */
  const callbackType = (defs: Def[], arg: number, param: number): Owner | undefined => {
    for (const d of defs) {
      const fn = d.node.type === 'variable_declarator' ? d.node.childForFieldName('value') : d.node;
      const declared = fn ? parametersOf(fn)[arg]?.childForFieldName('type') : undefined;
      if (param < 0) {
        const o = declared ? objectType(declared) : undefined;
        if (o) return o;
        continue;
      }
      const fnType = declared ? functionType(declared) : undefined;
      const t = fnType ? parametersOf(fnType)[param]?.childForFieldName('type') : undefined;
      const o = t ? typeOwner(t, 1) : undefined;
      if (o) return o;
    }
    return undefined;
  };
  /** What an object literal written where `type` is expected implements: `T`, `Partial<T>`, `T | ((x) => void)`. */
  const objectType = (type: Node): Owner | undefined => {
    let t: Node | null = type;
    for (let depth = 0; t && depth < 4; depth++) {
      if (t.type === 'type_annotation' || t.type === 'parenthesized_type') t = t.firstNamedChild;
      else if (t.type === 'union_type') {
        const parts = objectParts(t);
        t = parts.length === 1 ? parts[0]! : null;
      } else if (t.type === 'generic_type' && OBJECT_WRAPPERS.has(t.childForFieldName('name')?.text ?? '')) t = t.childForFieldName('type_arguments')?.firstNamedChild ?? null;
      else return typeOwner(t, 1);
    }
    return undefined;
  };
  /** `const x: T = { a: 1 }`, `f({ a: 1 })`, `{ a: 1 } as T`: the type an object literal is written for. */
  const objectContext = (object: Node): Owner | undefined => {
    const parent = up(object);
    if (!parent) return undefined;
    if (parent.type === 'variable_declarator' && parent.childForFieldName('value')?.id === object.id) {
      const type = parent.childForFieldName('type');
      return type ? objectType(type) : undefined;
    }
    if ((parent.type === 'as_expression' || parent.type === 'satisfies_expression') && parent.namedChildren[0]?.id === object.id) {
      return objectType(parent.namedChildren[1]!);
    }
    if (parent.type === 'parenthesized_expression') return objectContext(parent);
    const site = argumentSite(object, up);
    const target = site ? calleeTarget(site.callee) : undefined;
    if (target?.type === 'import') return { type: 'import', index: memberImport(target.index, `(${site!.index}:-1)`, object) };
    return target ? callbackType(target.defs, site!.index, -1) : undefined;
  };
  /**
   * `const { a, b: c } = v`, `({ a }: Props) => ...`: the property a binding is taken from (`a`,
   * `b`), and what it is taken from (v's owners, or the parameter's declared type).
   */
  const destructured = (d: Def): { key: Node; owners: Owner[]; value: Node | null } | undefined => {
    const holder = up(d.name);
    const key = holder?.type === 'pair_pattern' ? holder.childForFieldName('key') : d.name.type === 'shorthand_property_identifier_pattern' ? d.name : null;
    if (!key || key.type === 'computed_property_name') return undefined; // (most declarations: before their grandparent is fetched)
    const pattern = holder?.type === 'pair_pattern' || holder?.type === 'object_assignment_pattern' ? up(holder) : holder;
    const source = pattern?.type === 'object_pattern' ? upq(pattern) : null;
    if (!source || !pattern) return undefined;
    if (source.type === 'variable_declarator') {
      const value = source.childForFieldName('value');
      return value ? { key, owners: ownersOf(value, 1), value } : undefined;
    }
    const type = source.childForFieldName('pattern')?.id === pattern.id ? source.childForFieldName('type') : null;
    const t = type ? typeOwner(type, 1) : undefined;
    return t ? { key, owners: [t], value: null } : undefined;
  };
  /** The member a destructured binding reads, as a reference target. */
  const destructuredMember = (key: Node, owners: Owner[]): RefTarget | undefined => {
    for (const o of owners) {
      const t = memberIn(o, key.text);
      if (t) return t;
    }
    return undefined;
  };
  /** A destructured binding takes the type of the member it is taken from. */
  const destructuredType = (d: Def): Owner | undefined => {
    const src = destructured(d);
    const t = src ? destructuredMember(src.key, src.owners) : undefined;
    if (t?.kind === 'member_of_import') return { type: 'import', index: memberImport(t.importIndex, src!.key.text, src!.key) };
    return t?.kind === 'symbol' ? declaredType(symbolDefs[t.symbol]) : undefined;
  };
  const defOf = (b: Bound | undefined): Def | undefined => (b?.type === 'symbol' ? symbolDefs[b.index] : b?.type === 'local' ? b.def : undefined);

  /** What a type names, or the type of an expression that states it: `T{}`, `&T{}`, `new T()`, `NewT()`, `T(x)`. */
  const typeOwner = (n: Node | null, depth: number): Owner | undefined => {
    if (!n || depth > 12) return undefined;
    if (selfTypes.has(n.id)) return containerOwnerAt(n); // Rust `Self`
    // (a name node of another type: a Python forward reference `"Foo"`)
    if (n.type === 'identifier' || n.type === 'type_identifier' || (n.namedChildCount === 0 && plainRefs.has(n.id))) {
      const b = resolveName(n, n.text, n.type === 'identifier' ? 'value' : 'type');
      // a variable stands for its type (Go `y := x`), a type or a class for itself
      const d = defOf(b);
      // a type parameter stands for its bound: `T: Shape`, `T extends Shape` (what its members can be)
      if (d?.rule.kind === 'type_parameter') {
        const bound = up(d.name)?.childForFieldName('bounds') ?? up(d.name)?.childForFieldName('constraint');
        return bound ? typeOwner(bound, depth + 1) : undefined;
      }
      if (d && VALUE_KINDS.has(d.rule.kind)) return declaredType(d);
      // a type alias of a union (`type S = A | B`) is that union
      const aliased = d?.rule.kind === 'type' ? d.node.childForFieldName('value') : null;
      if (aliased?.type === 'union_type') return typeOwner(aliased, depth + 1) ?? asOwner(b);
      return asOwner(b);
    }
    if (n.type === 'this' || n.type === 'non_null_expression' || n.type === 'parenthesized_expression') {
      const owners = n.type === 'this' ? ownersOf(n, depth + 1) : n.firstNamedChild ? [typeOwner(n.firstNamedChild, depth + 1)] : [];
      return owners[0]; // `const self = this`, `x!`, `(x)`
    }
    // pkg.T, Outer.Inner; an access to a field or variable (Go `c := n.first`) stands for its type
    if (memberExprs.has(n.id) && !CALL_MEMBERS.has(n.type)) {
      const owners = ownersOf(n, depth + 1);
      const first = owners[0];
      const value = first?.type === 'symbol' && VALUE_KINDS.has(symbols[first.index]!.kind);
      return value ? owners[1] : first;
    }
    // `xs[i]` (Go), `a[i]` (Java): an element of the collection's declared type
    const collection = ELEMENT_ACCESS[n.type];
    if (collection) return elementOwner(n.childForFieldName(collection), depth + 1);
    if (CALLS.has(n.type)) {
      const builtin = collectionCall(n, depth);
      if (builtin) return builtin;
      const callee = calleeOf(n, depth);
      if (!callee) return importedCall(n, depth);
      // a conversion `T(x)` has type T; a call, the type its callee declares it returns
      if (THIS_KINDS.has(callee.rule.kind) || callee.rule.kind === 'type') return callee.symbol != null ? { type: 'symbol', index: callee.symbol } : undefined;
      const stated = declaredTypes.get(callee.name.id) ?? declaredResults.get(callee.name.id);
      if (stated) return typeOwner(stated, depth + 1);
      const documented = jsdocResult(callee);
      if (documented) return documented;
      // a value of a function type (`factory: () => T`): what the type says calling it gives
      const fnType = VALUE_KINDS.has(callee.rule.kind) ? functionType((up(callee.name) ?? callee.node).childForFieldName('type')) : undefined;
      return fnType ? typeOwner(fnType.childForFieldName('return_type'), depth + 1) : undefined;
    }
    // `T | null | undefined`: the one type that is not a literal or a primitive (two or more:
    // unknown); `T | (() => void)`: a member of it other than a function's is T's (the code narrowed it)
    if (n.type === 'union_type') {
      const parts = objectParts(n);
      if (parts.length === 1) return typeOwner(parts[0]!, depth + 1);
      const owners = parts.map((m) => typeOwner(m, depth + 1));
      // every member must be known: a member of an unknown one could be the one meant
      return owners.length > 1 && owners.every((o) => o !== undefined) ? { type: 'union', parts: owners as Owner[] } : undefined;
    }
    const fields = TYPE_WRAPPERS[n.type];
    if (!fields) return undefined;
    let inner: Node | null = null;
    for (const f of fields) if ((inner = n.childForFieldName(f))) break;
    // else the first child that names a type (a Python `"Foo"` is string_start, string_content, ...)
    inner ??= n.namedChildren.find((c) => c != null && (plainRefs.has(c.id) || memberExprs.has(c.id) || TYPE_WRAPPERS[c.type] !== undefined)) ?? n.firstNamedChild;
    return typeOwner(inner, depth + 1);
  };
  /** A call of something declared in another file: what calling it gives is found at link time (`()`). */
  const importedCall = (call: Node, depth: number, what: '()' | '[]' = '()'): Owner | undefined => {
    const fn = call.childForFieldName('function');
    if (!fn) return undefined;
    let callee: Owner | undefined;
    const access = memberExprs.get(fn.id);
    if (!access) callee = asOwner(resolveName(fn, fn.text, 'call'));
    else {
      for (const o of ownersOf(access.object, depth + 1)) if ((callee = importedMember(o, access.prop.text, access.prop))) break;
    }
    // `()`: what calling it gives; `[]`: the elements of that (a function returning `T[]`)
    return callee?.type === 'import' ? { type: 'import', index: memberImport(callee.index, what, call) } : undefined;
  };
  /** The element type of a collection expression: `xs` declared `[]T`, `[N]T`, `map[K]T`, `T[]`. */
  const elementOwner = (collection: Node | null, depth: number, which: 'element' | 'value' = 'element'): Owner | undefined => {
    if (!collection || depth > 8) return undefined;
    // a call: the elements of what its callee declares it returns (of another file: `[]` at link time)
    if (CALLS.has(collection.type)) {
      const callee = calleeOf(collection, depth);
      if (callee) return elementOfType(declaredTypes.get(callee.name.id) ?? declaredResults.get(callee.name.id) ?? null, depth, which);
      return which === 'element' ? importedCall(collection, depth, '[]') : undefined;
    }
    let d: Def | undefined;
    let imported: Owner | undefined;
    if (collection.type === 'identifier') {
      const b = lookup(collection, collection.text);
      d = defOf(b);
      if (b?.type === 'import') imported = b;
    } else {
      const access = memberExprs.get(collection.id);
      const owner = access ? ownersOf(collection, depth + 1)[0] : undefined;
      d = owner?.type === 'symbol' ? symbolDefs[owner.index] : undefined;
      if (owner?.type === 'import') imported = owner;
    }
    // a variable or field of another file: the elements of the type it declares, at link time
    if (!d) return imported?.type === 'import' && which === 'element' ? { type: 'import', index: memberImport(imported.index, '[]', collection) } : undefined;
    return elementOfType(typeNodeOf(d, depth), depth, which);
  };
  /** The element (or, for `which: 'value'`, a Map's value) type of a collection type: `T[]`, `[]T`, `Array<T>`, `Set<T>`, `map[K]T`. */
  const elementOfType = (type: Node | null, depth: number, which: 'element' | 'value' = 'element'): Owner | undefined => {
    let t = type;
    // (a Python annotation is wrapped in `type`)
    while (t?.type === 'pointer_type' || t?.type === 'parenthesized_type' || t?.type === 'type_annotation' || t?.type === 'type') t = t.firstNamedChild;
    // `Array<T>`, `Set<T>`, Python `list[T]`, `Sequence[T]`: T; `Map<K, V>`: V for `get`, the entries otherwise (unknown)
    if (t?.type === 'generic_type') {
      // (TypeScript: `name` and `type_arguments`; Python: the name first, then `type_parameter`)
      const list = t.childForFieldName('type_arguments') ?? t.namedChildren.find((c) => c?.type === 'type_parameter') ?? null;
      const args = list?.namedChildren.filter((c): c is Node => c != null) ?? [];
      const generic = (t.childForFieldName('name') ?? t.firstNamedChild)?.text ?? '';
      if (SEQUENCE_TYPES.test(generic) && which === 'element') return typeOwner(args[0] ?? null, depth + 1);
      if (/^(Readonly|Weak)?Map$/.test(generic) && which === 'value') return typeOwner(args[1] ?? null, depth + 1);
      return undefined;
    }
    if (which !== 'element') return undefined;
    const element = t ? ELEMENT_TYPES[t.type] : undefined;
    // (TypeScript's `T[]` has no field for T)
    return element ? typeOwner(t!.childForFieldName(element) ?? t!.firstNamedChild, depth + 1) : undefined;
  };
  /**
   * The type a declaration writes down (TypeScript: its `type` field), or, for a variable without
   * one, its initializer's when that is a field or a variable (`const xs = this.items_`).
   */
  const typeNodeOf = (d: Def, depth: number): Node | null => {
    const t = declaredTypes.get(d.name.id) ?? up(d.name)?.childForFieldName('type') ?? d.node.childForFieldName('type');
    if (t || depth > 8) return t ?? null;
    const value = d.node.childForFieldName('value');
    if (!value || reassigned.has(d)) return null;
    let from: Def | undefined;
    if (value.type === 'identifier') from = defOf(lookup(value, value.text));
    else if (memberExprs.has(value.id)) {
      const owner = ownersOf(value, depth + 1)[0];
      from = owner?.type === 'symbol' ? symbolDefs[owner.index] : undefined;
    }
    return from && from !== d ? typeNodeOf(from, depth + 1) : null;
  };
  /** `xs.pop()`, `xs.find(f)`, `map.get(k)`: what the standard collections' accessors give (an element, a value). */
  const collectionCall = (call: Node, depth: number): Owner | undefined => {
    const fn = call.childForFieldName('function');
    const access = fn ? memberExprs.get(fn.id) : undefined;
    const which = access ? COLLECTION_ACCESSORS[access.prop.text] : undefined;
    return which ? elementOwner(access!.object, depth + 1, which) : undefined;
  };
  /** The declaration a call invokes, when this file has it. */
  const calleeOf = (call: Node, depth: number): Def | undefined => {
    const member = memberExprs.get(call.id); // Java `a.m()`
    const fn = member ? null : call.childForFieldName('function') ?? call.childForFieldName('name');
    if (fn && (fn.type === 'identifier' || fn.type === 'type_identifier')) return defOf(lookup(fn, fn.text, 'call'));
    const access = member ?? (fn ? memberExprs.get(fn.id) : undefined);
    if (!access) return undefined;
    for (const o of ownersOf(access.object, depth + 1)) {
      const t = memberIn(o, access.prop.text, true);
      if (t?.kind === 'symbol') return symbolDefs[t.symbol];
    }
    return undefined;
  };

  /** `name` in an owner or its bases; an imported owner is finished by link.ts */
  const memberIn = (owner: Owner, name: string, call = false, args?: number): RefTarget | undefined => {
    // (inherited members are reached the way the first owner was: through the class or an instance)
    const access = owner.type === 'union' ? undefined : owner.access;
    const queue: Owner[] = [owner];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const o = queue.shift()!;
      const key = o.type === 'union' ? `union:${queue.length}:${seen.size}` : `${o.type}:${o.index}`;
      if (seen.has(key) || seen.size > 32) continue;
      seen.add(key);
      if (o.type === 'import') return { kind: 'member_of_import', importIndex: o.index, ...(access ? { access } : {}) };
      if (o.type === 'union') {
        // the first member type that has it (the others: see unionTargets)
        for (const part of o.parts) {
          const t = memberIn(part, name, call, args);
          if (t && t.kind !== 'member') return t;
        }
        continue;
      }
      const m = memberNamed(o.index, name, call, args, access);
      if (m === null) return { kind: 'member' }; // overloads that take as many arguments: a guess
      if (m !== undefined) return { kind: 'symbol', symbol: m };
      queue.push(...(basesOf.get(o.index) ?? []));
    }
    return undefined;
  };
  /**
   * A field or method named like `at` that a class nested inside `outer`, whose body holds `at`,
   * inherits from a base of this file (not a type, not a constructor).
   */
  const inheritedInNested = (at: Node, outer: number, call: boolean, args: number | undefined): number | null => {
    if (at.type !== 'identifier') return null;
    for (let prev = at, p = parentOf(at); p; prev = p, p = parentOf(p)) {
      const d = defByNode.get(p.id);
      if (d?.symbol == null || !THIS_KINDS.has(d.rule.kind)) continue;
      if (d.symbol === outer || p.childForFieldName('body')?.id !== prev.id) return null;
      for (const base of basesOf.get(d.symbol) ?? []) {
        if (base.type !== 'symbol') continue;
        const t = memberIn(base, at.text, call, args);
        if (t?.kind !== 'symbol') continue;
        const s = symbols[t.symbol]!;
        if ((s.kind === 'method' || s.kind === 'property') && s.name !== symbols[s.container ?? -1]?.name) return t.symbol;
      }
    }
    return null;
  };
  /** `m` in each member type of a union that has it (distinct answers). */
  const unionTargets = (u: { type: 'union'; parts: Owner[] }, name: string, call: boolean, args?: number): RefTarget[] => {
    const out: RefTarget[] = [];
    for (const part of u.parts) {
      const found = part.type === 'union' ? unionTargets(part, name, call, args) : [memberIn(part, name, call, args)];
      for (const t of found) if (t && t.kind !== 'member' && !out.some((o) => sameTarget(o, t))) out.push(t);
    }
    return out;
  };
  /** `ns.Name` where ns is an imported namespace or a package-scope name: an import of Name itself */
  const importedMember = (o: Owner, name: string, at: Node): Owner | undefined => {
    if (o.type !== 'import') return undefined;
    const imp = imports[o.index]!;
    if (imp.kind === 'scope') return { type: 'import', index: implicitImport(`${imp.source}.${name}`, '*', 'scope', at) };
    if (imp.kind) return undefined;
    if (imp.imported === '*' && !imp.scope && imp.base === undefined) return { type: 'import', index: implicitImport(imp.source, name, undefined, at) };
    // a member of what the import names (`a.b.c` after `import a`; `T::new` after `use m::T`; Java
    // `Outer.Inner` after `import a.b.Outer`; Go `m.Method` with `m pkg.T`)
    return { type: 'import', index: memberImport(o.index, name, at) };
  };
  /** `a.b.c` written with names only: its text and its first name */
  const dottedName = (n: Node): { text: string; root: Node } | undefined => {
    const parts: string[] = [];
    let cur = n;
    for (let access = memberExprs.get(cur.id); access && !CALL_MEMBERS.has(cur.type); access = memberExprs.get(cur.id)) {
      parts.unshift(access.prop.text);
      cur = access.object;
    }
    if (parts.length === 0 || !['identifier', 'type_identifier', 'package_identifier'].includes(cur.type)) return undefined;
    return { text: [cur.text, ...parts].join('.'), root: cur };
  };

  /** What `object` in `object.prop` can be, most specific first. */
  const ownersOf = (object: Node, depth: number): Owner[] => {
    if (selfTypes.has(object.id)) {
      const o = containerOwnerAt(object); // Rust `Self::new()`
      return o ? [o] : [];
    }
    if (superCalls.has(object.id)) {
      const c = enclosingClass(object); // Python `super().m()`
      return c != null ? basesOf.get(c) ?? [] : [];
    }
    // a path that starts at a module: `crate::`, `super::`, or a crate's name nothing here declares
    if (moduleRefs.has(object.id) && (object.type !== 'identifier' || (!hasWildcard && !lookup(object, object.text))))
      return [{ type: 'import', index: moduleImport(object) }];
    // a name node of another type (Rust `self`): bound like an identifier
    if (object.namedChildCount === 0 && plainRefs.has(object.id) && !['identifier', 'type_identifier', 'package_identifier'].includes(object.type)) {
      const b = lookup(object, object.text);
      return [asOwner(b), declaredType(defOf(b))].filter((o): o is Owner => o !== undefined);
    }
    switch (object.type) {
      case 'this': {
        const c = enclosingClass(object);
        if (c != null) return [{ type: 'symbol', index: c, access: 'instance' }];
        // `function (this: T, ...)`: a function that states what `this` is
        const t = thisParameterType(object);
        return t ? [instance(t)] : [];
      }
      case 'super': {
        const c = enclosingClass(object);
        return c != null ? basesOf.get(c) ?? [] : [];
      }
      case 'identifier':
      case 'type_identifier':
      case 'package_identifier': {
        const b = resolveName(object, object.text, object.type === 'type_identifier' ? 'type' : 'value');
        // `C.x` on a class is a static access; `v.x` on a value of type C an instance's
        const bound = asOwner(b);
        const own = bound?.type === 'symbol' && THIS_KINDS.has(symbols[bound.index]!.kind) ? { ...bound, access: 'static' as const } : bound;
        const typed = instance(declaredType(defOf(b)));
        // a value with a type (`const p: T = { ... }`) is seen through its type, as the compiler
        // sees it; its own members (an object literal's) come after
        return [typed, own].filter((o): o is Owner => o !== undefined);
      }
      case 'parenthesized_expression':
      case 'non_null_expression':
        return object.firstNamedChild ? ownersOf(object.firstNamedChild, depth) : [];
      case 'as_expression':
      case 'satisfies_expression': {
        const t = typeOwner(object.namedChildren[1] ?? null, depth + 1); // `(x as T).m`
        return t ? [t] : [];
      }
      case 'member_expression': {
        // a.b.c: c is looked up in b, or in the type b declares
        const inner = object.childForFieldName('object');
        const prop = object.childForFieldName('property');
        if (!inner || !prop || depth > 3) return [];
        for (const o of ownersOf(inner, depth + 1)) {
          // through another file: `b` looked up in what the import resolves to, at link time
          if (o.type === 'import') {
            const m = importedMember(o, prop.text, prop);
            if (m) return [m];
            continue;
          }
          const t = memberIn(o, prop.text);
          if (t?.kind === 'member_of_import') return [{ type: 'import', index: memberImport(t.importIndex, prop.text, prop) }];
          if (t?.kind !== 'symbol') continue;
          const typed = declaredType(symbolDefs[t.symbol]);
          return [{ type: 'symbol', index: t.symbol } as Owner, ...(typed ? [typed] : [])];
        }
        return [];
      }
      default:
        return chainOwners(object, depth);
    }
  };
  /** Owners of an access or a call written with other languages' node types: Go `a.b`, Java `a.m()`, `f()`, `T{}`. */
  const chainOwners = (object: Node, depth: number): Owner[] => {
    // (a chain through a call's result type and a qualified type is a few levels deep; the bound
    // only stops cycles)
    if (depth > 10) return [];
    const access = memberExprs.get(object.id);
    if (!access) {
      const t = CALLS.has(object.type) || TYPE_WRAPPERS[object.type] || ELEMENT_ACCESS[object.type] ? typeOwner(object, depth + 1) : undefined;
      return t ? [t] : [];
    }
    // a dotted name whose first part is declared nowhere in the file: a package-scope or a fully
    // qualified name (Java `com.acme.Util.run()`), resolved as a whole at link time
    const dotted = row.packageScope ? dottedName(object) : undefined;
    if (dotted && !lookup(dotted.root, dotted.root.text)) return [{ type: 'import', index: implicitImport(dotted.text, '*', 'scope', object) }];
    const call = CALL_MEMBERS.has(object.type);
    for (const o of ownersOf(access.object, depth + 1)) {
      const t = memberIn(o, access.prop.text, call);
      if (t?.kind === 'symbol') {
        const typed = declaredType(symbolDefs[t.symbol]);
        return [...(call ? [] : [{ type: 'symbol', index: t.symbol } as Owner]), ...(typed ? [typed] : [])];
      }
      const derived = call ? undefined : importedMember(o, access.prop.text, access.prop);
      if (derived) return [derived];
    }
    return [];
  };

  phase(() => {
    for (const { derived, base } of baseClasses) {
      const cls = defByNode.get(derived.id)?.symbol;
      const b = typeOwner(base, 0);
      if (cls == null || !b) continue;
      basesOf.set(cls, [...(basesOf.get(cls) ?? []), b]);
      symbols[cls]!.bases = [...(symbols[cls]!.bases ?? []), ownerFact(b)];
    }
  });
  // `impl Trait for T`: T (declared here, or imported) gains Trait as a base
  const importBases: NonNullable<FileFacts['importBases']> = [];
  phase(() => {
    for (const { derived, base } of implementers) {
      const t = asOwner(resolveName(derived, derived.text, 'type'));
      const b = typeOwner(base, 0);
      if (!t || !b) continue;
      const fact = ownerFact(b);
      if (t.type === 'import') importBases.push({ derivedImport: t.index, base: fact });
      else {
        basesOf.set(t.index, [...(basesOf.get(t.index) ?? []), b]);
        symbols[t.index]!.bases = [...(symbols[t.index]!.bases ?? []), fact];
      }
    }
  });

  // what calling a function gives: the type its declared result names (for members of a call's
  // result); a variable's, field's or constant's declared type (for members of it in other files)
  phase(() => {
    for (const d of symbolDefs) {
      if (d.symbol == null) continue;
      const stated = declaredTypes.get(d.name.id) ?? declaredResults.get(d.name.id);
      const isFunction = d.rule.kind === 'function' || d.rule.kind === 'method';
      const t = VALUE_KINDS.has(d.rule.kind) ? declaredType(d)
        : stated && isFunction ? typeOwner(stated, 0) : isFunction ? jsdocResult(d) : undefined;
      if (t) symbols[d.symbol]!.returns = ownerFact(t);
      // what its elements are, for a collection value or a function returning one (`items: T[]`,
      // `findAll(): Array<T>`): for `for (x of a.items)`, `f().forEach((x) => ...)` in other files
      const collection = VALUE_KINDS.has(d.rule.kind) ? typeNodeOf(d, 0)
        : d.rule.kind === 'function' || d.rule.kind === 'method' ? stated ?? null : null;
      const element = collection ? elementOfType(collection, 0) : undefined;
      if (element) symbols[d.symbol]!.elements = ownerFact(element);
      // `type S = A | B`: S's members are those of A and of B (for `x: S` in other files)
      const union = d.rule.kind === 'type' ? d.node.childForFieldName('value') : null;
      const parts = union?.type === 'union_type' ? typeOwner(union, 0) : undefined;
      if (parts?.type === 'union') symbols[d.symbol]!.union = parts.parts.map(ownerFact);
      // what a function passed to it receives (`cb: (a: A) => void`): for untyped callback parameters in other files
      if (d.rule.kind === 'function' || d.rule.kind === 'method') {
        const fn = d.node.type === 'variable_declarator' ? d.node.childForFieldName('value') : d.node;
        parametersOf(fn ?? d.node).forEach((p, arg) => {
          // (TypeScript's annotations: object literals and callbacks are typed by them)
          const declared = p.childForFieldName('type');
          if (declared?.type !== 'type_annotation') return;
          // the type an object literal passed here is written for (param -1)
          const objectOwner = declared && !functionType(declared) ? objectType(declared) : undefined;
          if (objectOwner) (symbols[d.symbol!]!.callbacks ??= []).push({ arg, param: -1, type: ownerFact(objectOwner) });
          const fnType = declared ? functionType(declared) : undefined;
          if (!fnType) return;
          parametersOf(fnType).forEach((_, param) => {
            const o = callbackType([d], arg, param);
            if (o) (symbols[d.symbol!]!.callbacks ??= []).push({ arg, param, type: ownerFact(o) });
          });
        });
      }
    }
  });

  phase(() => {
    for (const { prop, object } of memberRefs.values()) {
      if (handled.has(prop.id)) continue;
      handled.add(prop.id);
      const role = roleOf(prop, parentOf);
      const args = role === 'call' && row.overloadsByArity ? argumentCount(prop) : undefined;
      let target: RefTarget = { kind: 'member' };
      let extra: RefTarget[] = [];
      for (const owner of ownersOf(object, 0)) {
        const t = memberIn(owner, prop.text, role === 'call', args);
        if (t) {
          target = t;
          // `x.m` with `x: A | B`: also B's m (one reference per member it may be)
          if (owner.type === 'union') extra = unionTargets(owner, prop.text, role === 'call', args).filter((u) => !sameTarget(u, t));
          break;
        }
      }
      // a name that is a member of its object's type or a name in scope (Java `case X:` is an enum
      // constant on an enum, a constant in scope on an int): of an unknown type, the one in scope
      if (target.kind === 'member' && inScopeToo.has(prop.id) && lookup(prop, prop.text)) {
        handled.delete(prop.id);
        continue;
      }
      pushRef(prop, target, role, args);
      for (const t of extra) pushRef(prop, t, role, args);
    }
  });
  // `const x: T = { a: 1 }`, `f({ a: 1, b() {} })`: the keys write the members of the type the object
  // is written for (no type in sight: nothing, they only declare the literal's own members)
  phase(() => {
    for (const key of objectKeys) {
      // a member of a declared object whose type is its base (`const p: T = { now() {} }`) is related
      // to T's member as an implementation, not a use of it
      const own = defsByName.get(`${key.id}:m`)?.symbol;
      const container = own != null ? symbols[own]!.container : null;
      if (container != null && symbols[container]!.bases?.length) continue;
      const object = up(key)?.type === 'object' ? up(key) : upq(up(key));
      const owner = object?.type === 'object' ? objectContext(object) : undefined;
      const target = owner ? memberIn(owner, key.text) : undefined;
      if (target && target.kind !== 'member') pushRef(key, target, 'write');
    }
  });
  // `const { a, b: c } = v`: `a` and `b` read those members of v (of a value of unknown type: a guess)
  phase(() => {
    for (const d of defs) {
      if (d.rule.binding === 'member' || dropped.has(d) || requireNames.has(d.name.id)) continue;
      const src = destructured(d);
      if (!src || (src.value?.type === 'call_expression' && src.value.childForFieldName('function')?.text === 'require')) continue;
      pushRef(src.key, destructuredMember(src.key, src.owners) ?? { kind: 'member' }, 'read');
    }
  });
  // `{@link Name}`, `{@link Name.member}`, `@see Name` in a doc comment: the compiler resolves them
  // from where the comment is, and so do we; a name that does not resolve is dropped, not guessed
  phase(() => {
    for (const comment of docComments) {
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
            const b = lookup(comment, part);
            owner = asOwner(b);
            target = b?.type === 'symbol' ? { kind: 'symbol', symbol: b.index } : b?.type === 'import' ? { kind: 'import', importIndex: b.index } : undefined;
          } else if (owner) {
            target = memberIn(owner, part);
            owner = target?.kind === 'symbol' ? { type: 'symbol', index: target.symbol } : undefined;
          }
          if (!target || target.kind === 'member') break;
          const at = positionOf(offset);
          refs.push({ name: part, line: at.line, column: at.column, endColumn: at.column + part.length, role: 'doc', target, enclosing: enclosingSymbol(comment) });
          offset += part.length + 1;
        }
      }
    }
  });
  phase(() => {
    for (const node of plainRefs.values()) {
      if (handled.has(node.id) || selfTypes.has(node.id)) continue;
      if (macroRefs.has(node.id)) {
        // a macro of this file, or nothing: `format!` is not the function `format`
        const m = lookup(node, node.text, 'macro');
        if (m?.type === 'symbol') pushRef(node, { kind: 'symbol', symbol: m.index }, 'call');
        continue;
      }
      if (moduleRefs.has(node.id) && (node.type !== 'identifier' || (!hasWildcard && !lookup(node, node.text)))) continue; // `self::`, a crate's name
      const role = roleOf(node, parentOf);
      const b = resolveName(node, node.text, node.type === 'type_identifier' ? 'type' : role === 'call' ? 'call' : 'value');
      if (b?.type === 'local') {
        // a parameter or local variable: not an indexed symbol, unless the parameter declares a
        // property (`constructor(public x)`: `x` in the body is that property, as TypeScript sees it)
        const property = b.def ? defsByName.get(`${b.def.name.id}:m`)?.symbol : undefined;
        if (property != null) pushRef(node, { kind: 'symbol', symbol: property }, role);
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
        const t = memberIn({ type: 'symbol', index: container }, node.text, true, args);
        if (t) target = t;
      }
      // a member of an outer class is hidden by one a nested class inherits (Java: `ListItr extends
      // Itr` sees Itr's method before the enclosing class's); bases of this file only
      if (row.membersInScope && container != null) {
        const inherited = inheritedInNested(node, container, role === 'call', args);
        if (inherited != null) target = { kind: 'symbol', symbol: inherited };
      }
      pushRef(node, target, role, args);
    }
  });
  refs.sort((a, b) => a.line - b.line || a.column - b.column);

  return {
    language: row.id,
    ...(packageName !== undefined ? { package: packageName } : {}),
    isModule: imports.length > 0 || exportsOut.length > 0,
    symbols,
    imports,
    exports: exportsOut,
    refs,
    parseErrors: root.hasError ? 1 : 0,
    ...(importBases.length > 0 ? { importBases } : {}),
  };
}

function signatureAt(lines: string[], row: number): string {
  const text = (lines[row] ?? '').trim().replace(/\s+/g, ' ');
  return text.length > SIGNATURE_MAX ? text.slice(0, SIGNATURE_MAX - 1) + '…' : text;
}

/** member-access node types → the field holding the property */
const MEMBER_ACCESS: Record<string, string> = {
  member_expression: 'property', selector_expression: 'field', field_access: 'field', attribute: 'attribute', field_expression: 'field', scoped_identifier: 'name',
};
/** calls (the callee in field `function`) and assignments (the target in field `left`) of each grammar */
const CALL_NODES = new Set(['call_expression', 'call']);
const ASSIGNMENTS = new Set(['assignment_expression', 'augmented_assignment_expression', 'assignment', 'augmented_assignment', 'compound_assignment_expr']);
/** wrappers of a type name that still construct it: Go `pkg.T{}`, `G[T]{}`, Java `new a.T<>()` */
const QUALIFIED_TYPES = new Set(['qualified_type', 'scoped_type_identifier', 'generic_type']);

/** How a name is used. `parentOf` is the caller's cached `.parent` (each one is a call into wasm). */
function roleOf(node: Node, parentOf: (n: Node) => Node | null): RefFact['role'] {
  const parent = parentOf(node);
  if (!parent) return 'read';
  // (`.type` and every other accessor is a call into wasm: each is read once)
  const ptype = parent.type;
  // `new T()` (Java), `T{}` (Go): the type's own name, not the package or class that qualifies it
  const qualified = QUALIFIED_TYPES.has(ptype) && (ptype === 'generic_type' ? parent.firstNamedChild : parent.lastNamedChild)?.id === node.id;
  const typeNode = qualified ? parent : node;
  const ctor = qualified ? parentOf(parent) : parent;
  const ctype = qualified ? ctor?.type : ptype;
  if ((ctype === 'object_creation_expression' || ctype === 'composite_literal') && ctor!.childForFieldName('type')?.id === typeNode.id) return 'new';
  if (ctype === 'struct_expression' && ctor!.childForFieldName('name')?.id === typeNode.id) return 'new'; // Rust `T { .. }`
  if (node.type === 'type_identifier' || ptype === 'nested_type_identifier' || ptype === 'type' || (ptype === 'string' && parentOf(parent)?.type === 'type')) return 'type';
  if (ptype === 'method_invocation' && parent.childForFieldName('name')?.id === node.id) return 'call';
  let expr: Node = node;
  const field = MEMBER_ACCESS[ptype];
  if (field && parent.childForFieldName(field)?.id === node.id) expr = parent;
  const up = expr === node ? parent : parentOf(expr);
  if (!up) return 'read';
  const utype = expr === node ? ptype : up.type;
  // a macro's arguments are tokens: `f(` there is still a call
  if (utype === 'token_tree' && expr.nextSibling?.type === 'token_tree' && expr.nextSibling.text.startsWith('(')) return 'call';
  // Go: `a, b = ...` and `x++` are statements over expression lists
  if (utype === 'expression_list' && parentOf(up)?.type === 'assignment_statement' && parentOf(up)?.childForFieldName('left')?.id === up.id) return 'write';
  if (utype === 'inc_statement' || utype === 'dec_statement') return 'write';
  if (CALL_NODES.has(utype) && up.childForFieldName('function')?.id === expr.id) return 'call';
  if (utype === 'new_expression' && up.childForFieldName('constructor')?.id === expr.id) return 'new';
  if (ASSIGNMENTS.has(utype) && up.childForFieldName('left')?.id === expr.id) return 'write';
  if (utype === 'update_expression') return 'write';
  if (utype.startsWith('jsx_')) return 'jsx';
  if (utype === 'export_specifier' || utype === 'export_statement') return 'export';
  if (utype === 'extends_clause' || utype === 'class_heritage') return 'type';
  if (utype === 'argument_list' && parentOf(up)?.type === 'class_definition') return 'type'; // Python `class A(B)`
  return 'read';
}

/** Whether a method takes a call's number of arguments (a variadic last parameter takes any). */
function takes(s: SymbolFact, args: number): boolean {
  return s.arity === args || (s.variadic === true && s.arity !== undefined && args >= s.arity - 1);
}

/** The number of arguments of the call whose callee a name is (`f(a, b)`, `x.f(a, b)`). */
function argumentCount(node: Node): number | undefined {
  for (let p = node.parent, up = 0; p && up < 2; p = p.parent, up++) {
    const args = p.childForFieldName('arguments');
    if (args) return args.namedChildren.filter((c) => c != null && !c.type.includes('comment')).length;
  }
  return undefined;
}

/** The name a Go import path binds without an alias: its last element, without a major version
 * (`/v2`, `.v3`) or a `go-` prefix. The package clause decides in the end; this is the convention. */
function packageNameOf(source: string): string {
  const parts = source.split('/').filter(Boolean);
  let last = parts.pop() ?? source;
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop()!;
  return last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/-go$/, '');
}
