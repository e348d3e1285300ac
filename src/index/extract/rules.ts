/**
 * What each definition capture means, and the kinds of symbols the phases tell apart: the
 * engine's own vocabulary (grammars/README.md), the same for every language.
 */

type Binding = 'lexical' | 'hoisted' | 'member' | 'none';
type Store = 'always' | 'toplevel' | 'never';
/**
 * `once`: only the first definition of the name in its scope defines it, later ones are writes to
 * it (Python assignments). `receiver`: a parameter whose type is the container of the method it
 * belongs to (`self`). `assigned`: a member declared by assigning through the receiver
 * (`self.x = v`), on the receiver's class, unless the class (or a base in the file) declares it.
 */
export type Rule = { kind: string; binding: Binding; store: Store; once?: true; receiver?: true; assigned?: true; alsoReference?: true; variadic?: true; described?: true; expando?: true };

/** capture suffix after `definition.` → symbol kind, how it binds, and whether it becomes a symbol */
export const DEFINITION_RULES: Record<string, Rule> = {
  function: { kind: 'function', binding: 'lexical', store: 'always' },
  'function.var': { kind: 'function', binding: 'hoisted', store: 'always' },
  class: { kind: 'class', binding: 'lexical', store: 'always' },
  struct: { kind: 'struct', binding: 'lexical', store: 'always' },
  record: { kind: 'record', binding: 'lexical', store: 'always' },
  class_expression: { kind: 'class', binding: 'none', store: 'never' },
  // a named function passed as an argument: a symbol by the name it is known by, bound nowhere outside it
  function_expression: { kind: 'function', binding: 'none', store: 'always' },
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
  // a member an object's property descriptor defines (`Object.defineProperties(o, { m: { value() {} } })`):
  // the functions of its descriptor implement it, they are no members of their own (`described`)
  'method.described': { kind: 'method', binding: 'member', store: 'always', described: true },
  'property.described': { kind: 'property', binding: 'member', store: 'always', described: true },
  // a method assigned to an object a body declares (`const self = {}; self.run = function () {}`):
  // that object's, where the same block declares it; else no declaration (`expando`)
  'method.expando': { kind: 'method', binding: 'member', store: 'always', expando: true },
  // a Go embedded field is named by its type: the name is also a use of that type
  'property.embedded': { kind: 'property', binding: 'member', store: 'always', alsoReference: true },
};

/** kinds whose members can be looked up with `X.member` */
export const CONTAINER_KINDS = new Set(['class', 'struct', 'record', 'interface', 'type', 'enum', 'namespace', 'constant', 'variable', 'function', 'trait', 'module', 'enum_member']);
/** kinds whose bodies are namespaces: their top-level definitions are stored, and they are not function bodies */
export const NAMESPACE_KINDS = new Set(['namespace', 'module']);
/** kinds whose bodies give `this` a meaning */
export const THIS_KINDS = new Set(['class', 'struct', 'record', 'enum', 'interface']);
/** kinds of declarations that hold a value: as a type they stand for the type they declare */
export const VALUE_KINDS = new Set(['variable', 'constant', 'parameter', 'property']);

/**
 * TypeScript keeps values and types apart: `interface X` and `const X` can share a name, and
 * `new X()` means the const while `let a: X` means the interface. Bindings live in one of the two
 * namespaces (or both: classes, enums, namespaces, imports).
 */
export type Namespace = 'value' | 'type' | 'both' | 'call' | 'macro';
export const NAMESPACE_OF_KIND: Record<string, Namespace> = {
  interface: 'type', type: 'type', type_parameter: 'type',
  class: 'both', enum: 'both', namespace: 'both', struct: 'both', record: 'both',
  trait: 'type', module: 'type', macro: 'macro',
};
