import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../util/paths.js';
import { type CheckedGrammars, GIVEN } from './checked-grammars.js';
import { checkedTables, grammarTables } from './grammar-tables.js';

export interface LanguageRow {
  id: string;
  extensions: string[];
  wasm: string;
  queries: string[];
  /** node tables (`grammars/README.md`, *Node tables*), merged in order: what the engine asks of node types */
  tables: string[];
  resolver: string;
  /**
   * Files of one package share a top-level scope (no import between them): 'directory' (Go: the
   * files of a directory that declare the same package) or 'declared' (Java: the files that
   * declare the same package, wherever they are). Names a file uses without declaring them are
   * resolved at link time through that scope.
   */
  packageScope?: 'directory' | 'declared';
  /** members (fields, methods) are in scope inside their class body, inherited ones too (Java) */
  membersInScope?: boolean;
  /** statement ends may be left to automatic semicolon insertion (JavaScript, TypeScript): where
   * the tree has errors, the damaged regions are parsed again with them written (recover.ts) */
  asi?: boolean;
  /**
   * With `asi`: a code line that starts with one of these characters, not indented deeper than the
   * code line before it, which ends a statement, is presumed to start a new statement, and a `;` is
   * written before the first parse (recover.ts `presumeStatementEnds`). TypeScript without
   * semicolons: the generic call signatures of an overloaded type (`(a: A): E` ⏎ `<M>(m: M): E`)
   * are read as `E<M>(…)` and fail — 117 of effect's 625 files, each then parsed again by recovery.
   */
  presumeEndsBefore?: string;
  /**
   * Syntax the grammar does not know and no fact needs, as a regular expression: each match is
   * written as spaces before parsing (offsets, lines and columns stay the file's own; names and
   * signatures are read from the file as it is). TypeScript's variance annotations (`interface
   * Cache<in out K, out V>`, TS 4.7) are an ERROR to tree-sitter-typescript: 49 of effect's files.
   * So are the type arguments of a tagged template (sql<{ n: number }>`SELECT …`, TS 2.9), read as
   * `sql < {…} > !`…``: blanked, the call of the tag and the code around it are read, not the
   * types inside (on effect: 12 type references lost, ~90 references from misread statements gone,
   * 3 declarations of the right kind). Bounded (at most three levels, a few hundred characters): a
   * file of comparisons with no `>` costs one short scan per `<`; a `${` is never blanked (a
   * template that writes `Promise<${t}>` keeps its substitution).
   */
  blank?: string;
  /** a local variable is visible only after its declaration, not in the whole block (Go, Java) */
  localsAfterDeclaration?: boolean;
  /** types come from JSDoc tags where the language has no annotations (JavaScript: `@param {T} x`,
   * `@type {T}`, `@returns {T}` in the doc comment right before the declaration) */
  jsdocTypes?: boolean;
  /** false: a member declared again in a type that embeds another shadows the embedded one, it
   * does not override it (Go), so find_references does not relate them */
  membersOverride?: boolean;
  /** methods of one name are overloads told apart by their number of parameters (Java): a call
   * binds to the one that takes its number of arguments, and each is its own symbol */
  overloadsByArity?: boolean;
  /** every top-level name of a file (declared or imported) is importable from it (Python, Rust) */
  exportsTopLevel?: boolean;
  /** top-level names with this prefix are not public and not taken by `*` imports (Python `_`) */
  privatePrefix?: string;
  /** joins the paths of nested import groups (Rust `use a::{b::{C}}` → `a::b`) */
  pathSeparator?: string;
  /** an import path that names no module may start with a top-level name of the file (Rust 2018 `use Kind::*;`) */
  pathsStartInScope?: boolean;
  /**
   * Queries matched only in a file where one of `names` is the text of a node the main query
   * captures as `@reference` or `@reference.member` (extract.ts `gatedMatches`): patterns that a
   * few files need and that cost much to compile (CommonJS in TypeScript). Each of their patterns
   * tests one of the names with `#eq?` on such a node, so a file without one matches none of them.
   */
  gated?: { queries: string[]; names: string[] }[];
}

const GRAMMARS_DIR = path.join(PACKAGE_ROOT, 'grammars');

// (zod, ≈ 50 ms to load, only where something is checked: not in a parse worker given checked rows)
const schema = GIVEN ? undefined : await import('./grammar-schema.js');

/** The rows of a languages.json, checked; an error names the file, the language and the field. */
export function parseLanguages(json: unknown, file = 'grammars/languages.json'): LanguageRow[] {
  if (!schema) throw new Error('parseLanguages: a parse worker does not check grammars (its indexing thread did)');
  return schema.parseLanguages(json, file);
}

export const LANGUAGES: LanguageRow[] = GIVEN?.languages ?? parseLanguages(JSON.parse(fs.readFileSync(path.join(GRAMMARS_DIR, 'languages.json'), 'utf8')));

/** What a parse worker is handed (workerData.grammars): the rows and node tables checked here. */
export function checkedGrammars(): CheckedGrammars {
  return { languages: LANGUAGES, tables: checkedTables() };
}

// every row's node tables are read and checked now: a bad file stops the index before any file is parsed
for (const row of LANGUAGES) grammarTables(row.tables);

const byExtension = new Map<string, LanguageRow>();
for (const row of LANGUAGES) for (const ext of row.extensions) byExtension.set(ext, row);

/** The language of a file by its extension, or undefined when we do not index it. */
export function languageFor(file: string): LanguageRow | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith('.d.ts')) return byExtension.get('.ts');
  return byExtension.get(path.extname(lower));
}

export function querySource(row: LanguageRow | { queries: string[] }): string {
  return row.queries.map((q) => fs.readFileSync(path.join(GRAMMARS_DIR, q), 'utf8')).join('\n');
}

export function wasmPath(row: LanguageRow): string {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json'));
  return path.join(pkg, 'wasm', row.wasm);
}

let fingerprint: string | undefined;
/**
 * What the facts of an index depend on besides the files: the grammars, the queries and the
 * extractor's own code. When it changes (an upgrade, a query edited), every file is parsed again.
 */
export function extractorFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = crypto.createHash('sha256');
  const here = path.dirname(fileURLToPath(import.meta.url));
  // every folder of the index's code, found rather than listed: a change in extract/, link/ or a
  // folder added later must parse every file again too
  const code = fs.readdirSync(here, { recursive: true, encoding: 'utf8' }).map((f) => path.join(here, f)).filter((f) => fs.statSync(f).isDirectory());
  // every folder a row's queries or node tables are in (not only the first query's: typescript/ and
  // javascript/ come after ecma/)
  const data = LANGUAGES.flatMap((r) => [...r.queries, ...(r.gated ?? []).flatMap((g) => g.queries), ...r.tables].map((f) => path.join(GRAMMARS_DIR, path.dirname(f))));
  const dirs = [GRAMMARS_DIR, ...data, here, ...code];
  for (const dir of [...new Set(dirs)].sort()) {
    for (const f of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, f);
      if (!/\.(scm|json|js|ts)$/.test(f) || !fs.statSync(file).isFile()) continue;
      hash.update(file.slice(PACKAGE_ROOT.length)).update(fs.readFileSync(file));
    }
  }
  for (const row of LANGUAGES) hash.update(row.wasm).update(String(fs.statSync(wasmPath(row)).size));
  return (fingerprint = hash.digest('hex').slice(0, 16));
}
