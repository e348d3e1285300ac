/**
 * What the extractor learns about one file, before cross-file linking. Plain data so it can cross a
 * worker-thread boundary. Lines and columns are 1-based; columns count UTF-16 code units.
 */

export type Confidence = 'resolved' | 'imported' | 'name_match';

export interface SymbolFact {
  name: string;
  kind: string;
  /** index into FileFacts.symbols of the enclosing container (class, interface, function, ...) */
  container: number | null;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  nameLine: number;
  nameColumn: number;
  exported: boolean;
  isDefault: boolean;
  /** declared inside a function body: reachable by resolution, hidden from name search */
  local: boolean;
  signature: string;
  /** a static class member: not part of instances, so not related to base or interface members */
  isStatic?: boolean;
  /** what a class or interface extends: a symbol of this file or an import (resolved by link.ts) */
  bases?: ({ symbol: number } | { importIndex: number })[];
  /** a method declared outside its type (Go receiver) whose type is not in this file: the import
   * (a package-scope name) that link.ts resolves to the container */
  containerImport?: number;
  /** the type a function's declared result names (`-> Foo`, `-> Self`): what calling it gives, for
   * members of a call's result across files (a symbol here, or an import resolved by link.ts) */
  returns?: { symbol: number } | { importIndex: number };
  /** the element type of the collection a value holds or a function returns (`T[]`, `Array<T>`,
   * `Set<T>`, Go `[]T`), for elements reached from other files (a symbol here, or an import) */
  elements?: { symbol: number } | { importIndex: number };
  /** what a function passed to this one as argument `arg` (0-based, without `this`) receives as its
   * parameter `param`: the type the declared function type states (`cb: (a: A, b: B) => void`), for
   * untyped callback parameters in other files (a symbol here, or an import resolved by link.ts);
   * `param` -1: the type an object literal passed as argument `arg` is written for (`Partial<T>`: T) */
  callbacks?: { arg: number; param: number; type: { symbol: number } | { importIndex: number } }[];
  /** a type alias of a union (`type S = A | B`): its member types, whose members are S's members
   * (a symbol here, or an import resolved by link.ts) */
  union?: ({ symbol: number } | { importIndex: number })[];
  /** how many parameters a function or method declares (the last one variadic: at least arity - 1
   * arguments), for languages that choose among overloads by the number of arguments */
  arity?: number;
  variadic?: boolean;
}

export interface ImportFact {
  /** the local binding; null for re-exports (`export { a } from`) */
  localName: string | null;
  source: string;
  /** an exported name, 'default', or '*' for the module namespace */
  imported: string;
  line: number;
  column: number;
  /**
   * 'wildcard': binds no name itself; its exports fill names the file does not declare (Java
   * `import a.b.*`, Go `import . "p"`). 'scope': not written as an import: a (dotted) name the file
   * uses without declaring it, resolved at link time through the package scope, the wildcard
   * imports and package names (languages with `packageScope`).
   */
  kind?: 'wildcard' | 'scope';
  /** the inline modules / namespaces the import is written in, outermost first (Rust `mod tests`) */
  scope?: string[];
  /** not written as an import: `imported` looked up in what another import of this file resolves
   * to (index into FileFacts.imports), e.g. `a.b.c` after `import a`; `()` is a call's result */
  base?: number;
}

/** `hidden`: importable by name, but not brought in by `*` (Python `_private` or not in `__all__`) */
export type ExportFact =
  | { name: string; kind: 'symbol'; symbol: number; hidden?: boolean }
  | { name: string; kind: 'import'; importIndex: number; hidden?: boolean }
  | { name: '*'; kind: 'star'; source: string };

/** How a reference was bound inside its own file. Cross-file binding happens at link time. */
export type RefTarget =
  | { kind: 'symbol'; symbol: number }
  | { kind: 'import'; importIndex: number }
  /** `obj.name` where obj is bound to a local symbol (class, enum, namespace, object) */
  | { kind: 'member_of_symbol'; symbol: number }
  /** `obj.name` where obj is an imported binding (namespace import, imported class, ...); `access`:
   * reached through the class itself (a static member) or an instance, where that is known */
  | { kind: 'member_of_import'; importIndex: number; access?: 'static' | 'instance' }
  /** `obj.name` where obj's type is unknown without a type checker */
  | { kind: 'member' }
  /** an identifier with no binding in the file: a global or an ambient declaration */
  | { kind: 'unbound' };

export interface RefFact {
  name: string;
  line: number;
  column: number;
  endColumn: number;
  /** `doc`: a `{@link X}` / `@see X` tag in a documentation comment, resolved like code */
  role: 'read' | 'write' | 'call' | 'new' | 'type' | 'import' | 'export' | 'jsx' | 'doc';
  target: RefTarget;
  /** index of the innermost enclosing stored symbol, for call graphs and the `container` field */
  enclosing: number | null;
  /** a call's number of arguments, where overloads are chosen by it */
  args?: number;
}

export interface FileFacts {
  language: string;
  /** the package the file declares (Go `package x`, Java `package a.b;`) */
  package?: string;
  isModule: boolean;
  symbols: SymbolFact[];
  imports: ImportFact[];
  exports: ExportFact[];
  refs: RefFact[];
  parseErrors: number;
  /** statement ends that recovery made explicit where the tree had errors (code without semicolons) */
  recovered?: number;
  /** `impl Trait for T` where T is imported: T gains Trait as a base once link.ts resolves T */
  importBases?: { derivedImport: number; base: { symbol: number } | { importIndex: number } }[];
}
