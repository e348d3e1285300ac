/**
 * What a session has really seen, derived from the ledger only: files whose content a tool result
 * showed, symbol names that appeared in results, and the tools that ran successfully.
 */
import type { LedgerEntry } from './store.js';

type Obj = Record<string, unknown>;
const arr = (x: unknown): Obj[] => (Array.isArray(x) ? (x as Obj[]) : []);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** Files and symbol names a tool's result showed. A directory listing or a ranking shows no file's content. */
export function resultEvidence(tool: string, result: Obj): { files: string[]; symbols: string[] } {
  const files = new Set<string>();
  const symbols = new Set<string>();
  // a row about a symbol shows its name, and the container it names (a class, a module) as well
  const addSymbol = (name: unknown, container?: unknown) => {
    if (typeof name !== 'string' || !name) return;
    symbols.add(name);
    if (typeof container === 'string' && container) {
      symbols.add(`${container}.${name}`);
      symbols.add(container);
    }
  };
  switch (tool) {
    case 'find_definitions':
      for (const d of arr(result.items)) {
        if (str(d.file) && d.kind !== 'module') files.add(d.file as string);
        addSymbol(d.name, d.container);
      }
      break;
    case 'find_references':
      for (const r of arr(result.items)) {
        if (str(r.file)) files.add(r.file as string);
        // the row names the declaration the reference sits in (file and line shown): that symbol was seen
        if (str(r.container)) symbols.add(r.container as string);
      }
      for (const d of arr(result.definitions)) {
        if (str(d.file)) files.add(d.file as string);
        addSymbol(d.name, d.container);
      }
      break;
    case 'search_text':
      // a text match shows lines, not symbols: the service adds the symbols defined on those lines
      for (const m of arr(result.items)) if (str(m.file)) files.add(m.file as string);
      break;
    case 'get_symbols': {
      if (str(result.file)) files.add(result.file as string);
      const walk = (nodes: Obj[], container?: string) => {
        for (const n of nodes) {
          addSymbol(n.name, container);
          walk(arr(n.children), str(n.name));
        }
      };
      walk(arr(result.items));
      break;
    }
    case 'analyze_structure':
      if (result.type === 'file' && str(result.file)) {
        files.add(result.file as string);
        for (const d of arr(result.declarations)) addSymbol(d.name);
        for (const c of arr(result.calls)) addSymbol(c.callee);
      }
      break;
    case 'validate_symbol_relevance':
    case 'confirm_symbol_relevance':
    case 'query':
    case 'semantic_search':
      // a ranking shows names and signatures, not a file's code: names count as seen, files do not
      for (const s of arr(result.symbols ?? result.items)) addSymbol(s.name ?? s.symbol, s.container);
      break;
  }
  return { files: [...files], symbols: [...symbols] };
}

export interface Evidence {
  exploredFiles: Set<string>;
  symbolsSeen: Set<string>;
  toolsUsed: Set<string>;
}

export function deriveEvidence(ledger: readonly LedgerEntry[], sinceSeq = 0): Evidence {
  const exploredFiles = new Set<string>();
  const symbolsSeen = new Set<string>();
  const toolsUsed = new Set<string>();
  for (const e of ledger) {
    if (e.seq <= sinceSeq || e.outcome !== 'ok') continue;
    // a call that found nothing did not use the tool for anything
    if (e.files.length > 0 || e.symbols.length > 0) toolsUsed.add(e.tool);
    e.files.forEach((f) => exploredFiles.add(f));
    e.symbols.forEach((s) => symbolsSeen.add(s));
  }
  return { exploredFiles, symbolsSeen, toolsUsed };
}
