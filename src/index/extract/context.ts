/**
 * One file's extraction state: the tables its phases share. Each table is filled by one phase and
 * read by the later ones (extract.ts runs them in order); holding them here, rather than in one
 * function's closure, lets each phase live in a module of its own.
 */
import type { Node, Point, QueryCapture } from 'web-tree-sitter';
import type { ExportFact, FileFacts, ImportFact, RefFact, SymbolFact } from '../facts.js';
import { type GrammarTables, grammarTables } from '../grammar-tables.js';
import type { LanguageRow } from '../languages.js';
import type { NodeRanges } from '../ancestry.js';
import type { Owner } from './owner.js';
import type { Rule } from './rules.js';

export type Match = { patternIndex: number; captures: QueryCapture[] };

export interface Def {
  node: Node;
  name: Node;
  rule: Rule;
  pattern: number;
  scope: Node | null;
  symbol: number | null;
}

export type Bound = { type: 'symbol'; index: number } | { type: 'import'; index: number } | { type: 'local'; def?: Def };

// Every table is created in the class body or the constructor, never added later: all contexts
// share one shape, so the phases' property reads stay monomorphic.
export class FileContext {
  readonly lines: string[];
  /** what the row's node tables say of node types (grammar-tables.ts) */
  readonly tables: GrammarTables;
  readonly macroRootIds: Set<number>;

  // ---- captures (captures.ts) -----------------------------------------------------------------
  readonly scopes = new Map<number, boolean>(); // node id → is function scope
  readonly defsByName = new Map<string, Def>(); // key: name node id + member flag
  readonly ignore = new Set<number>();
  readonly plainRefs = new Map<number, Node>();
  readonly memberRefs = new Map<number, { prop: Node; object: Node }>();
  /** `x[k]`: the key's name (a read of k too) and what it indexes — the member named `[k]` */
  readonly computedRefs: { key: Node; object: Node; access: Node }[] = [];
  readonly memberPattern = new Map<number, number>(); // property node id → the pattern that captured it
  readonly inScopeToo = new Set<number>(); // `@member.in_scope`: properties that may be names in scope instead
  readonly baseClasses: { derived: Node; base: Node }[] = [];
  readonly importMatches: Record<string, Node>[] = [];
  readonly exportMatches: Record<string, Node>[] = [];
  packageName: string | undefined = undefined;
  readonly declaredTypes = new Map<number, Node>(); // name node id → the type its declaration states
  /** `if (x instanceof C) {…}`: inside `scope`, the variable `name` holds a `type` (captures.ts) */
  readonly narrowings: { name: Node; type: Node; scope: Node }[] = [];
  readonly declaredResults = new Map<number, Node>(); // function name node id → the type calling it gives (TS return type)
  readonly receivers = new Map<number, Node>(); // method name node id → the type it is declared on (Go)
  readonly declaredElements = new Map<number, Node>(); // name node id → the collection it ranges over (Go `for _, x := range xs`)
  readonly ignoredTrees: Node[];
  readonly classScopes = new Set<number>(); // scopes the functions inside them do not see (Python class bodies)
  readonly declaredOutside: { node: Node; global: boolean }[] = []; // `global x` / `nonlocal x`
  readonly moduleRefs = new Set<number>(); // path roots naming a module (Rust `crate`, `super`)
  readonly outerNodes = new Set<number>(); // evaluated around their function (Python default values, annotations)
  readonly stopNodes: Map<number, Node>; // the scopes and `@scope.outer` nodes, by id
  readonly macroRefs = new Set<number>();
  readonly selfTypes = new Set<number>(); // `Self`: the enclosing impl's or trait's type
  readonly superCalls = new Set<number>(); // Python `super()`
  readonly importGroups = new Map<number, Node>(); // group node → its path (Rust `use a::{...}`)
  readonly exportList = new Set<string>(); // Python `__all__`
  readonly docComments: Node[] = []; // `{@link X}` / `@see X` inside them are references
  readonly objectKeys: Node[] = []; // keys of object literals: members of the type the object is written for
  readonly implementers: { derived: Node; base: Node }[] = []; // Rust `impl Trait for T`: T named, not declared here
  // every `.parent` crosses into wasm and builds a Node: walks from thousands of references share
  // their ancestors, so each node's parent is fetched once, and those the captures show (a member
  // access around its object and property) are not fetched at all
  // (tree-sitter nodes have no parent pointer: `.parent` searches down from the root each time)
  readonly parents = new Map<number, Node | null>();

  // ---- scopes and bindings (scopes.ts) ----------------------------------------------------------
  /** the scopes by range (not with macro bodies parsed again: their ranges are the main tree's too) */
  scopeRanges: NodeRanges | undefined = undefined;
  // Walks to the root (one per name looked up, per namespace) only stop at scopes and at nodes
  // evaluated outside their function: each node's nearest such ancestor is found once, so a walk
  // costs the scopes around a name, not its depth
  readonly stops = new Map<number, Node | null>();
  readonly bindings = new Map<number, Map<string, Bound>>();
  /** where locals are visible only after their declaration, every declaration of a name in a scope, in order (Rust `let x = x.trim();` shadows) */
  readonly shadowing = new Map<number, Map<string, Bound[]>>();
  /** `global x` / `nonlocal x` in a function: x is not local to it (its assignments bind outside) */
  readonly outsideNames = new Map<number, Map<string, boolean>>(); // function scope → name → global?
  /** the definitions, in source order */
  defs: Def[] = [];
  readonly defByNode = new Map<number, Def>();

  // ---- symbols (symbols.ts) --------------------------------------------------------------------
  readonly symbols: SymbolFact[] = [];
  readonly symbolDefs: Def[] = [];
  /** the declarations that can hold members, by range, built at first use */
  containerRanges: NodeRanges | undefined = undefined;
  /** `const x = require('m')` binds an import, not a symbol of its own (like `import x from 'm'`) */
  readonly requireNames = new Set<number>();
  /** names imported in each scope: a later assignment to one writes to the import (Python) */
  readonly importedIn = new Set<string>();
  /** local objects that hold methods, stored with them */
  readonly methodHolders = new Set<Def>();
  /** definitions that turned out not to define: a reassignment, a name declared `global` */
  readonly dropped = new Set<Def>();
  /** definitions assigned again later (Python): typed by their annotation only, not by a value */
  readonly reassigned = new Set<Def>();

  // ---- imports and references (imports.ts, ref-fact.ts, references.ts) ------------------------
  readonly imports: ImportFact[] = [];
  readonly refs: RefFact[] = [];
  readonly handled = new Set<number>(); // nodes already turned into references (or deliberately not)
  /** the declarations stored as symbols, by range: built at the first reference, when all are
   * known (again if an assignment leaves defByNode) */
  symbolRanges: NodeRanges | undefined = undefined;
  /** symbols no definition stands for that still enclose code: `export default <expression>` (node id → symbol) */
  readonly enclosers = new Map<number, { node: Node; symbol: number }>();
  /** members no declaration holds, by the node that would hold them (a call they are passed to, an object, a class): the file's default holds them if that node is it */
  readonly passedMembers = new Map<number, Def[]>();
  /** members whose container was not stored when they were met: stored with it, if it is later */
  readonly awaitingContainer = new Map<Def, Def[]>();
  /** imports the file does not write, by what they import */
  readonly implicitImports = new Map<string, number>();
  /** a name the file does not declare may come from a wildcard import (`from m import *`, `use m::*`) */
  hasWildcard = false;

  // ---- exports (exports.ts) -------------------------------------------------------------------
  readonly exportsOut: ExportFact[] = [];
  readonly exportedDeclarations = new Set<number>();
  readonly defaultDeclarations = new Set<number>();

  // ---- members and types (member-lookup.ts, type-facts.ts, types.ts) ----------------------------
  /** container symbol → member name → the members of that name */
  readonly membersOf = new Map<number, Map<string, number[]>>();
  /** `class A extends B`, `interface I extends J`: what the base is bound to, for inherited members */
  readonly basesOf = new Map<number, Owner[]>();
  /** member-access node (`a.b`, Go `pkg.T`, Java `a.m()`) → its object and property */
  readonly memberExprs = new Map<number, { object: Node; prop: Node }>();
  // a declaration's type is asked for at each use of its name: once is enough
  readonly typeOfDef = new Map<Def, Owner | undefined>();
  readonly importBases: NonNullable<FileFacts['importBases']> = [];

  constructor(
    readonly row: LanguageRow,
    readonly source: string,
    readonly root: Node,
    /** roots of macro bodies parsed again (`@macro.items`): their items are the file's own */
    readonly macroRoots: Node[],
    /** those bodies' token trees in the main tree: not references */
    macroTokens: Node[],
    /** statement ends written in by recovery (`;` at index → the end of the statement it ends) */
    readonly insertedEnds: Map<number, Point> | undefined,
  ) {
    this.lines = source.split('\n');
    this.tables = grammarTables(row.tables);
    this.scopes.set(root.id, true);
    this.macroRootIds = new Set(macroRoots.map((r) => r.id));
    this.ignoredTrees = [...macroTokens];
    this.stopNodes = new Map<number, Node>([[root.id, root]]);
  }

  // (arrows, not methods: type-syntax.ts and roleOf take them as callbacks)
  /** `n.parent`, fetched once per node */
  readonly up = (n: Node): Node | null => {
    let p = this.parents.get(n.id);
    if (p === undefined) this.parents.set(n.id, (p = n.parent));
    return p;
  };
  /** a macro body parsed again hangs under the file's root: its names are seen from it and see it */
  readonly parentOf = (n: Node): Node | null => (this.macroRootIds.size > 0 && this.macroRootIds.has(n.id) ? this.root : this.up(n));
}

export const upq = (ctx: FileContext, n: Node | null | undefined): Node | null => (n ? ctx.up(n) : null);

/** a declaration that ends with an inserted `;` ends where its last token does, as it would with one written */
export const endOf = (ctx: FileContext, n: Node): Point => (ctx.insertedEnds?.get(n.endIndex - 1) ?? n.endPosition);
