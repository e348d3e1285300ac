import { Language, Parser, Query } from 'web-tree-sitter';
import { type LanguageRow, querySource, wasmPath } from './languages.js';
import { fastTransfer } from './wasm-transfer.js';

interface Loaded {
  language: Language;
  query: Query;
  parser: Parser;
}

let initialised: Promise<void> | undefined;
let fast = false;

/** Whether the binding this process loaded moves nodes through the fast transfer (wasm-transfer.ts). */
export function fastTransferActive(): boolean {
  return fast;
}
const loaded = new Map<string, Promise<Loaded>>();

/** Parser, language and compiled query for a language row; loaded once per process (or worker). */
export function loadLanguage(row: LanguageRow): Promise<Loaded> {
  let p = loaded.get(row.id);
  if (!p) {
    p = (async () => {
      initialised ??= initBinding();
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

/** Loads the wasm binding once, with its transfer of nodes made cheaper (wasm-transfer.ts). */
async function initBinding(): Promise<void> {
  const module: Record<string, unknown> = {};
  await Parser.init(module as Parameters<typeof Parser.init>[0]);
  fast = fastTransfer(module);
}
