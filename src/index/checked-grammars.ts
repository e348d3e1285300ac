/**
 * A parse worker's grammars: the language rows and node tables its indexing thread read and
 * checked, handed over in workerData (structured clone), so that the worker neither reads nor
 * checks them again, nor loads zod to do so. Undefined elsewhere: those modules read and check.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import type { TablesFile } from './grammar-schema.js';
import type { LanguageRow } from './languages.js';

export interface CheckedGrammars {
  languages: LanguageRow[];
  /** every node table file the rows list, by its path in grammars/ */
  tables: Record<string, TablesFile>;
}

export const GIVEN: CheckedGrammars | undefined = isMainThread ? undefined : (workerData as { grammars?: CheckedGrammars } | null)?.grammars;
