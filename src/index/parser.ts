import { Language, Parser, Query } from 'web-tree-sitter';
import { type LanguageRow, querySource, wasmPath } from './languages.js';

interface Loaded {
  language: Language;
  query: Query;
  parser: Parser;
}

let initialised: Promise<void> | undefined;
const loaded = new Map<string, Promise<Loaded>>();

/** Parser, language and compiled query for a language row; loaded once per process (or worker). */
export function loadLanguage(row: LanguageRow): Promise<Loaded> {
  let p = loaded.get(row.id);
  if (!p) {
    p = (async () => {
      initialised ??= Parser.init();
      await initialised;
      const language = await Language.load(wasmPath(row));
      const query = new Query(language, querySource(row));
      const parser = new Parser();
      parser.setLanguage(language);
      return { language, query, parser };
    })();
    loaded.set(row.id, p);
  }
  return p;
}
