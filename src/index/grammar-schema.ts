/**
 * The zod schemas of grammars/languages.json and of the node tables: loaded where something is
 * checked (the indexing thread, the tests), not by a parse worker, which takes the rows and tables
 * its indexing thread checked (checked-grammars.ts) — loading zod cost each worker ≈ 50 ms.
 */
import { z } from 'zod';
import type { LanguageRow } from './languages.js';

// Strict: a misspelt flag fails at load, not as a language that silently goes without it.
const LANGUAGE_ROW = z.strictObject({
  id: z.string().min(1),
  extensions: z.array(z.string().startsWith('.')).min(1),
  wasm: z.string().endsWith('.wasm'),
  queries: z.array(z.string().endsWith('.scm')).min(1),
  tables: z.array(z.string().endsWith('.json')).min(1),
  resolver: z.string().min(1),
  packageScope: z.enum(['directory', 'declared']).optional(),
  membersInScope: z.boolean().optional(),
  asi: z.boolean().optional(),
  presumeEndsBefore: z.string().min(1).regex(/^[^\sA-Za-z0-9_$]+$/, 'punctuation characters only').optional(),
  blank: z.string().refine((re) => {
    try {
      new RegExp(re, 'gu');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression').optional(),
  localsAfterDeclaration: z.boolean().optional(),
  jsdocTypes: z.boolean().optional(),
  membersOverride: z.boolean().optional(),
  overloadsByArity: z.boolean().optional(),
  exportsTopLevel: z.boolean().optional(),
  privatePrefix: z.string().min(1).optional(),
  pathSeparator: z.string().min(1).optional(),
  pathsStartInScope: z.boolean().optional(),
  gated: z.array(z.strictObject({
    queries: z.array(z.string().endsWith('.scm')).min(1),
    names: z.array(z.string().regex(/^[\p{L}\p{N}_$]+$/u, 'a name')).min(1),
  })).optional(),
});
const LANGUAGES_FILE = z.strictObject({ $comment: z.string().optional(), languages: z.array(LANGUAGE_ROW).min(1) });

/** The rows of a languages.json, checked; an error names the file, the language and the field. */
export function parseLanguages(json: unknown, file = 'grammars/languages.json'): LanguageRow[] {
  const parsed = LANGUAGES_FILE.safeParse(json);
  if (parsed.success) return parsed.data.languages;
  const rows = (json as { languages?: unknown } | null)?.languages;
  const where = (at: PropertyKey[]): string => {
    const [top, index, ...rest] = at;
    const id = top === 'languages' && typeof index === 'number' && Array.isArray(rows) ? (rows[index] as { id?: unknown } | null)?.id : undefined;
    const row = typeof id === 'string' ? `languages[${String(index)}] (${id})` : at.slice(0, 2).map(String).join('.');
    return [row, ...rest.map(String)].filter(Boolean).join('.') || '(top level)';
  };
  throw new Error(`${file} is not valid:\n${parsed.error.issues.map((i) => `  ${where(i.path)}: ${i.message}`).join('\n')}`);
}

const types = z.array(z.string().min(1));
const fieldOf = z.record(z.string().min(1), z.string().min(1));
// Strict: a misspelt role fails at load, not as a grammar that silently lacks it.
const TABLES_FILE = z.strictObject({
  $comment: z.string().optional(),
  memberPath: types.optional(),
  returnStatements: types.optional(),
  requireBindingParents: types.optional(),
  thisRebinders: types.optional(),
  memberAccess: fieldOf.optional(),
  callees: fieldOf.optional(),
  assignments: fieldOf.optional(),
  qualifiedTypes: z.record(z.string().min(1), z.enum(['first', 'last'])).optional(),
  constructions: fieldOf.optional(),
  typeWrappers: z.record(z.string().min(1), z.array(z.string().min(1))).optional(),
  elementAccess: fieldOf.optional(),
  elementTypes: fieldOf.optional(),
  initializers: types.optional(),
  calls: types.optional(),
  argumentLists: types.optional(),
  callMembers: types.optional(),
  functionValues: types.optional(),
  parameterHolders: types.optional(),
  declarationHolders: types.optional(),
  sequenceTypes: types.optional(),
  mapTypes: types.optional(),
  elementCallbacks: z.record(z.string().min(1), z.number().int().min(0)).optional(),
  collectionAccessors: z.record(z.string().min(1), z.enum(['element', 'value'])).optional(),
  objectWrappers: types.optional(),
});
export type TablesFile = z.infer<typeof TABLES_FILE>;

/** One table file, checked; an error names the file and the key. */
export function parseTablesFile(json: unknown, file: string): TablesFile {
  const parsed = TABLES_FILE.safeParse(json);
  if (parsed.success) return parsed.data;
  const where = (at: PropertyKey[]): string => at.map(String).join('.') || '(top level)';
  throw new Error(`grammars/${file} is not valid:\n${parsed.error.issues.map((i) => `  ${where(i.path)}: ${i.message}`).join('\n')}`);
}

