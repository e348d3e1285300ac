/**
 * The roles grammar node types play for the engine (`member path node`, `type wrapper`, `element
 * access` …) and the names of the standard collections, read from the data files a language row
 * lists in `tables` (grammars/README.md, *Node tables*): the engine asks for a role, never for a
 * grammar's node name. Each file is checked with zod at load; a misspelt role or a value of the
 * wrong shape stops the index with the file and the key named.
 */
import fs from 'node:fs';
import path from 'node:path';
import { GIVEN } from './checked-grammars.js';
import type { TablesFile } from './grammar-schema.js';
import { PACKAGE_ROOT } from '../util/paths.js';

const GRAMMARS_DIR = path.join(PACKAGE_ROOT, 'grammars');

// (zod, ≈ 50 ms to load, only where something is checked: not in a parse worker given checked tables)
const schema = GIVEN ? undefined : await import('./grammar-schema.js');

/** What a language's table files say, merged (every role present, empty where no file names it). */
export interface GrammarTables {
  /** node types between a member declaration and its container's declaration (bodies, wrappers) */
  memberPath: ReadonlySet<string>;
  /** statements that hand a value out of their function (an object a factory returns holds its members) */
  returnStatements: ReadonlySet<string>;
  /** parents of the local name of a `require` binding (import statements never have these) */
  requireBindingParents: ReadonlySet<string>;
  /** nodes that give `this` a new meaning inside them (a non-arrow function, a class) */
  thisRebinders: ReadonlySet<string>;
  /** member access → the field holding the property */
  memberAccess: ReadonlyMap<string, string>;
  /** call → the field holding the callee */
  callees: ReadonlyMap<string, string>;
  /** assignment → the field holding its target */
  assignments: ReadonlyMap<string, string>;
  /** wrappers of a type name that still construct it (`pkg.T{}`, `new a.T<>()`) → the named child that is the type's own name */
  qualifiedTypes: ReadonlyMap<string, 'first' | 'last'>;
  /** construction (`new T()`, `T{}`, `T { .. }`) → the field holding the type constructed */
  constructions: ReadonlyMap<string, string>;
  /** type node or evidently-typed expression wrapping a type's name → the fields where the inner type is, tried in order (else a child) */
  typeWrappers: ReadonlyMap<string, readonly string[]>;
  /** element access (`xs[i]`) → the field holding the collection */
  elementAccess: ReadonlyMap<string, string>;
  /** collection type (`[]T`, `T[]`, `map[K]V`) → the field holding the element type */
  elementTypes: ReadonlyMap<string, string>;
  /** initializers whose type is evident besides calls and wrappers (a variable, `this`, `a.b`, `(x)`, `xs[i]`) */
  initializers: ReadonlySet<string>;
  /** calls: their result is what the callee declares it returns */
  calls: ReadonlySet<string>;
  /** argument lists of calls: an object literal passed in one is the value of the declaration the call is the value of (`const rule = createRule({ create() {…} })`) */
  argumentLists: ReadonlySet<string>;
  /** member accesses that are calls themselves (Java `a.m()`): a chain through them is typed by the result */
  callMembers: ReadonlySet<string>;
  /** function values that can be passed as arguments (their untyped parameters are typed by the callee) */
  functionValues: ReadonlySet<string>;
  /** declarations whose parameters a doc comment's `@param` describes */
  parameterHolders: ReadonlySet<string>;
  /** statements around a declaration that its doc comment is written before (`export const x = …`) */
  declarationHolders: ReadonlySet<string>;
  /** generic collections whose elements are their first type argument (`Array<T>`, `list[T]`) */
  sequenceTypes: ReadonlySet<string>;
  /** generic maps whose values are their second type argument */
  mapTypes: ReadonlySet<string>;
  // (plain objects, looked up by a name the code writes: as they were in the engine, `toString`
  // finds Object.prototype's — kept, this being a move)
  /** collection methods whose callback gets an element → in which argument */
  elementCallbacks: Readonly<Record<string, number>>;
  /** collection methods that give one of their elements (`pop`) or a map's value (`get`) */
  collectionAccessors: Readonly<Record<string, 'element' | 'value'>>;
  /** generic types whose members are their argument's (`Partial<T>` is written like a T) */
  objectWrappers: ReadonlySet<string>;
}

/** One table file, checked; an error names the file and the key. */
export function parseTablesFile(json: unknown, file: string): TablesFile {
  if (!schema) throw new Error('parseTablesFile: a parse worker does not check grammars (its indexing thread did)');
  return schema.parseTablesFile(json, file);
}

/** Merges the files in order; a node type given two values (one field here, another there) is an error. */
export function mergeTables(files: { file: string; tables: TablesFile }[]): GrammarTables {
  const sets = new Map<string, Set<string>>();
  const maps = new Map<string, Map<string, unknown>>();
  const objects = new Map<string, Record<string, unknown>>();
  const from = new Map<string, string>();
  for (const { file, tables } of files) {
    for (const [role, value] of Object.entries(tables)) {
      if (role === '$comment' || value === undefined) continue;
      if (Array.isArray(value)) {
        let s = sets.get(role);
        if (!s) sets.set(role, (s = new Set()));
        for (const t of value) s.add(t);
        continue;
      }
      const plain = role === 'elementCallbacks' || role === 'collectionAccessors';
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const at = `${role}.${key}`;
        if (from.has(at)) throw new Error(`grammars/${file}: ${at} is given already in grammars/${from.get(at)}`);
        from.set(at, file);
        if (plain) {
          let o = objects.get(role);
          if (!o) objects.set(role, (o = {}));
          o[key] = v;
        } else {
          let m = maps.get(role);
          if (!m) maps.set(role, (m = new Map()));
          m.set(key, v);
        }
      }
    }
  }
  const set = (r: string): ReadonlySet<string> => sets.get(r) ?? new Set();
  const map = <T>(r: string): ReadonlyMap<string, T> => (maps.get(r) as Map<string, T> | undefined) ?? new Map();
  const object = <T>(r: string): Record<string, T> => (objects.get(r) as Record<string, T> | undefined) ?? {};
  return {
    memberPath: set('memberPath'), returnStatements: set('returnStatements'), requireBindingParents: set('requireBindingParents'), thisRebinders: set('thisRebinders'),
    memberAccess: map('memberAccess'), callees: map('callees'), assignments: map('assignments'), qualifiedTypes: map('qualifiedTypes'),
    constructions: map('constructions'), typeWrappers: map('typeWrappers'), elementAccess: map('elementAccess'), elementTypes: map('elementTypes'),
    initializers: set('initializers'), calls: set('calls'), argumentLists: set('argumentLists'), callMembers: set('callMembers'), functionValues: set('functionValues'),
    parameterHolders: set('parameterHolders'), declarationHolders: set('declarationHolders'), sequenceTypes: set('sequenceTypes'),
    mapTypes: set('mapTypes'), elementCallbacks: object('elementCallbacks'), collectionAccessors: object('collectionAccessors'),
    objectWrappers: set('objectWrappers'),
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(path.join(GRAMMARS_DIR, file), 'utf8'));
  } catch (e) {
    throw new Error(`grammars/${file}: ${(e as Error).message}`);
  }
}

const loaded = new Map<string, TablesFile>();
const merged = new Map<string, GrammarTables>();

/** The tables of a language row's files (paths in grammars/), read and checked once per process. */
export function grammarTables(files: readonly string[]): GrammarTables {
  const key = files.join('\n');
  let t = merged.get(key);
  if (!t) {
    const read = files.map((file) => {
      let tables = loaded.get(file);
      if (!tables) loaded.set(file, (tables = GIVEN ? givenTables(file) : parseTablesFile(readJson(file), file)));
      return { file, tables };
    });
    merged.set(key, (t = mergeTables(read)));
  }
  return t;
}

function givenTables(file: string): TablesFile {
  const t = GIVEN?.tables[file];
  if (!t) throw new Error(`grammars/${file} was not handed to this worker`);
  return t;
}

/** Every table file read and checked so far (languages.ts reads those of every row at load), by path. */
export function checkedTables(): Record<string, TablesFile> {
  return Object.fromEntries(loaded);
}
