import { Language, Parser, Query } from 'web-tree-sitter';
import { type LanguageRow, querySource, wasmPath } from './languages.js';
import { fastTransfer } from './wasm-transfer.js';

export interface Loaded {
  language: Language;
  query: Query;
  parser: Parser;
  /** the row's gated queries (languages.ts `gated`), each compiled when a file first needs it */
  gated: GatedQuery[];
}

export interface GatedQuery {
  /** the names one of which a file must use (as a reference) for the query to be matched */
  names: readonly string[];
  /** a quick test of the source: none of the names is written in it at all */
  written: RegExp;
  query: () => Query;
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
      const gated = (row.gated ?? []).map((g): GatedQuery => {
        let compiled: Query | undefined;
        return {
          names: g.names,
          written: new RegExp(`(?<![\\p{L}\\p{N}_$])(?:${g.names.map((n) => n.replace(/\$/g, '\\$')).join('|')})(?![\\p{L}\\p{N}_$])`, 'u'),
          query: () => (compiled ??= new Query(language, querySource(g))),
        };
      });
      return { language, query, parser, gated };
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
