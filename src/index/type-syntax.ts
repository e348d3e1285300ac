/**
 * Syntax the member typing of extract/types.ts reads: TypeScript parameter lists, function and union
 * types, accessors, doc comments and their links. Pure functions of tree-sitter nodes; the engine's
 * state stays in extract/context.ts, the grammars' node tables in grammars/ (grammar-tables.ts).
 */
import type { Node } from 'web-tree-sitter';
import type { RefTarget } from './facts.js';

/** `{@link A.b}` / `{@linkcode A#b}` / `@see A` (not a URL: `{@link https://...}`) in a doc comment */
export const DOC_LINK = /\{@link(?:code|plain)?\s+([A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)*)(?![\w$:])|@see\s+([A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)*)(?![\w$:])/g;

export function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function sameTarget(a: RefTarget, b: RefTarget): boolean {
  return a.kind === b.kind && ('symbol' in a ? a.symbol === (b as { symbol: number }).symbol : true) &&
    ('importIndex' in a ? a.importIndex === (b as { importIndex: number }).importIndex : true);
}

/** A function's (or function type's) parameters, without TypeScript's `this` parameter, which takes no argument. */
export function parametersOf(fn: Node): Node[] {
  const list = fn.childForFieldName('parameters');
  if (!list) {
    const single = fn.type === 'arrow_function' ? fn.childForFieldName('parameter') : null; // `x => ...`
    return single ? [single] : [];
  }
  return list.namedChildren.filter((c): c is Node => c != null && !c.type.includes('comment') && c.childForFieldName('pattern')?.type !== 'this');
}

/** The function type a declared type is, through annotations, parentheses and `| undefined`. */
export function functionType(t: Node | null): Node | undefined {
  for (let depth = 0; t && depth < 4; depth++) {
    if (t.type === 'function_type') return t;
    if (t.type === 'union_type') {
      const parts = typeParts(t);
      t = parts.length === 1 ? parts[0]! : null;
    } else if (t.type === 'type_annotation' || t.type === 'parenthesized_type') t = t.firstNamedChild;
    else return undefined;
  }
  return undefined;
}

/** The members of a (nested, binary) union type: `A | B | C`. */
export function unionMembers(n: Node): Node[] {
  const out: Node[] = [];
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'union_type') out.push(...unionMembers(c));
    else out.push(c);
  }
  return out;
}

/** The members of a union that name types: not `null`, `undefined`, a literal or a primitive. */
export function typeParts(union: Node): Node[] {
  return unionMembers(union).filter((m) => m.type !== 'literal_type' && m.type !== 'predefined_type');
}

/** Those that can have members an object literal or a member access means: not function types either
 * (`T | (() => void)`: a member other than a function's is T's). */
export function objectParts(union: Node): Node[] {
  return typeParts(union).filter((m) => !functionType(m));
}

/** A TypeScript/JavaScript getter (`get x(): T`): reading it gives what it returns. */
export function isGetter(n: Node): boolean {
  return n.type === 'method_definition' && n.children.some((c) => c?.type === 'get');
}

/**
 * The doc comment (`/** ... *\/`) written right before a declaration, if any; `holders` are the
 * statements that may hold the declaration (the grammar's `declarationHolders`).
 */
export function docCommentOf(n: Node, holders: ReadonlySet<string>, parentOf: (n: Node) => Node | null = (x) => x.parent): Node | undefined {
  let decl = n;
  // the statement that holds it: `export function f`, `const x = ...`, `export const x = ...`
  for (let p = parentOf(decl); p && holders.has(p.type); p = parentOf(decl)) decl = p;
  const prev = decl.previousNamedSibling;
  return prev?.type === 'comment' && prev.text.startsWith('/**') ? prev : undefined;
}

/**
 * The one type name a JSDoc tag states (`@param {Foo} x`, `@type {?Foo}`, `@returns {Foo<T>|null}`),
 * or undefined when it states something else (a union of two types, an array, a function, a record).
 */
export function jsdocTypeName(comment: string, tag: 'param' | 'type' | 'returns', name?: string): string | undefined {
  const text = comment.replace(/^\s*\*/gm, ' ');
  const re = tag === 'param' ? /@param\s*\{([^}]*)\}\s*\[?([\w$]+)/g : tag === 'type' ? /@type\s*\{([^}]*)\}/g : /@returns?\s*\{([^}]*)\}/g;
  for (const m of text.matchAll(re)) {
    if (tag === 'param' && m[2] !== name) continue;
    const parts = m[1]!.split('|').map((t) => t.trim().replace(/^[?!]/, '')).filter((t) => t && !/^(null|undefined|void)$/.test(t));
    const only = parts.length === 1 ? /^([A-Za-z_$][\w$]*)(<.*>)?$/.exec(parts[0]!) : null;
    return only ? only[1] : undefined;
  }
  return undefined;
}

/** A node passed as an argument (`f(a, node)`, `new C(node)`): the callee and the argument's position. */
export function argumentSite(node: Node, parentOf: (n: Node) => Node | null = (x) => x.parent): { callee: Node; index: number } | undefined {
  const args = parentOf(node);
  const call = args?.type === 'arguments' ? parentOf(args) : null;
  const callee = call?.childForFieldName(call.type === 'new_expression' ? 'constructor' : 'function');
  if (!args || !callee) return undefined;
  const index = args.namedChildren.filter((x) => x != null && !x.type.includes('comment')).findIndex((x) => x!.id === node.id);
  return index >= 0 ? { callee, index } : undefined;
}
