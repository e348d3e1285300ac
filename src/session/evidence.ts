/**
 * What a session has really seen, derived from the ledger only: files whose code a tool result
 * showed, symbol names that appeared in results, and the tools that ran successfully. One module
 * answers for the session and the write guard alike.
 *
 * A file is explored when the agent saw its code: a Read (recorded by the hook) or its outline
 * (get_symbols, analyze_structure — one that shows something: an empty outline of package.json
 * shows nothing of it), or a definition's whole code (find_definitions with include_body, as a Read
 * of a whole declaration). A definition row (find_definitions, find_references' definitions) shows
 * where a symbol is declared and its signature line, not the file's code. A text match (search_text, a Grep) shows one line
 * that holds the pattern — a comment, a string, a sentence of a README — and one
 * `search_text('e')` names nearly every file; a use row of find_references shows one line too (the
 * index resolved it to the symbol, which tells what the line uses, not what the file is), and one
 * `find_references('log')` names every file that logs; `find_definitions('get')` names every file
 * declaring a get. Such files are named (verification evidence
 * may cite them, the declaration a use sits in is seen) but not explored: they are neither
 * editable in READY nor files_analyzed until the agent opens them (a Read, get_symbols).
 *
 * code_evidence may cite only lines the session was shown (`shownLines`): a Read's range, a row's
 * line (a signature, a use, a match), a definition's body. An outline explores a file, but a line
 * of a body it never showed is no evidence of having looked (red team adv8).
 */
import path from 'node:path';
import type { LedgerEntry, ShownLines } from './store.js';
import { DEFAULT_LIMIT, MIN_WHOLE } from '../guard/read-shown.js';

type Obj = Record<string, unknown>;
const arr = (x: unknown): Obj[] => (Array.isArray(x) ? (x as Obj[]) : []);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** The files and symbol names a tool's result showed. A directory listing or a ranking shows no file's content. */
export interface Proof {
  files: string[];
  symbols: string[];
  /** files named by one line each (a reference's use), whose code the result did not show */
  named?: string[];
  /** the lines of files the rows showed (a row shows one line: a signature, a use, a match) */
  lines?: ShownLines;
}

/** Collects a result's files and the symbols its rows are about. */
class Shown {
  readonly files = new Set<string>();
  readonly symbols = new Set<string>();
  readonly named = new Set<string>();
  readonly lines = new Map<string, [number, number][]>();
  file(f: unknown): void {
    if (typeof f === 'string') this.files.add(f);
  }
  /** a row about a symbol shows its name, and the container it names (a class, a module) as well */
  symbol(name: unknown, container?: unknown): void {
    if (typeof name !== 'string' || !name) return;
    this.symbols.add(name);
    if (typeof container === 'string' && container) {
      this.symbols.add(`${container}.${name}`);
      this.symbols.add(container);
    }
  }
  /** a row shows a line of a file (its text: a signature, a use, a match), or a body its lines */
  line(f: unknown, line: unknown, last = line): void {
    if (typeof f !== 'string' || typeof line !== 'number' || !Number.isInteger(line) || line < 1 || typeof last !== 'number' || last < line) return;
    const rs = this.lines.get(f) ?? [];
    rs.push([line, last]);
    this.lines.set(f, rs);
  }
  proof(): Proof {
    const named = [...this.named].filter((f) => !this.files.has(f));
    const lines: ShownLines = {};
    for (const [f, rs] of this.lines) lines[f] = rangesOf(rs);
    return { files: [...this.files], symbols: [...this.symbols], ...(named.length ? { named } : {}), ...(this.lines.size ? { lines } : {}) };
  }
}

/**
 * find_definitions: each definition's name (and container), and its file as named: a row shows
 * where the symbol is declared and its one-line signature, not the code of the file (nor of the
 * symbol's body) — no more than a reference's use row shows of its file. A row with its `body`
 * (include_body) shows the symbol's code.
 */
export function definitionRows(result: Obj): Proof {
  const shown = new Shown();
  for (const d of arr(result.items)) {
    if (typeof d.file === 'string') shown.named.add(d.file);
    shown.symbol(d.name, d.container);
    // an anonymous default export, found by the name it is imported as: seen under that name too
    if (str(d.imported_as)) shown.symbols.add(d.imported_as as string);
    // with include_body the row shows the definition's code: its lines, and — a whole declaration of
    // MIN_WHOLE lines, as a Read of it — the file's code; a local's (a closure inside a function) is
    // not the file's, as a Read of it is not (red team adv9: 3 lines of a closure unlocked 354)
    const body = str(d.body);
    const n = body === undefined ? 1 : body.split('\n').length;
    shown.line(d.file, d.line, typeof d.line === 'number' ? d.line + n - 1 : d.line);
    if (body !== undefined && d.body_truncated !== true && n >= MIN_WHOLE && d.local !== true) shown.file(d.file);
  }
  return shown.proof();
}

/** find_references: the definitions (name; file named, as find_definitions), the declarations the uses sit in, and the files of the uses (named, one line each). */
export function referenceRows(result: Obj): Proof {
  const shown = new Shown();
  for (const r of arr(result.items)) {
    if (typeof r.file === 'string') shown.named.add(r.file);
    shown.line(r.file, r.line);
    // the row names the declaration the reference sits in (file and line shown): that symbol was seen
    if (str(r.container)) shown.symbols.add(r.container as string);
  }
  for (const d of arr(result.definitions)) {
    if (typeof d.file === 'string') shown.named.add(d.file);
    shown.line(d.file, d.line);
    shown.symbol(d.name, d.container);
  }
  return shown.proof();
}

/**
 * search_text: a text match names files and shows lines (the service adds the symbols declared on
 * them); its files are not explored (deriveEvidence). A row names the declaration the match sits
 * in, as a reference row does: that symbol was seen.
 */
export function textMatchRows(result: Obj): Proof {
  const shown = new Shown();
  for (const m of arr(result.items)) {
    shown.file(m.file);
    shown.line(m.file, m.line);
    if (str(m.container)) shown.symbols.add(m.container as string);
  }
  return shown.proof();
}

/**
 * get_symbols: the file and every symbol of its outline, nested ones with their container. An empty
 * outline (package.json, a shell script, a README) showed nothing of the file: it is not explored
 * (a Read is how such a file is seen).
 */
export function outlineRows(result: Obj): Proof {
  const shown = new Shown();
  if (arr(result.items).length > 0) shown.file(result.file);
  const walk = (nodes: Obj[], container?: string) => {
    for (const n of nodes) {
      shown.symbol(n.name, container);
      shown.line(result.file, n.line); // its signature
      walk(arr(n.children), str(n.name));
    }
  };
  walk(arr(result.items));
  return shown.proof();
}

/** analyze_structure: a file's declarations and callees; a directory listing, or a file it finds no code in, shows no file's code. */
export function structureRows(result: Obj): Proof {
  const shown = new Shown();
  if (result.type === 'file' && str(result.file)) {
    if (['declarations', 'imports', 'exports', 'calls'].some((k) => arr(result[k]).length > 0)) shown.file(result.file);
    for (const d of arr(result.declarations)) shown.symbol(d.name);
    for (const c of arr(result.calls)) shown.symbol(c.callee);
  }
  return shown.proof();
}

/** A ranking shows names and signatures, not a file's code: names count as seen, files do not. */
export function rankingRows(result: Obj): Proof {
  const shown = new Shown();
  for (const s of arr(result.symbols ?? result.items)) shown.symbol(s.name ?? s.symbol, s.container);
  return shown.proof();
}

/** Tools whose rows are text matches: a line each, not a file's code (see above). */
export const TEXT_MATCH_TOOLS: ReadonlySet<string> = new Set(['search_text', 'hook:Grep']);

export interface Evidence {
  exploredFiles: Set<string>;
  /** the lines of each file the session was shown (a Read's range, the line of a row): what code_evidence may cite */
  shownLines: Map<string, [number, number][]>;
  symbolsSeen: Set<string>;
  toolsUsed: Set<string>;
  /** files only a text match or a reference's use named (not explored): what to open before listing or editing them */
  matchedFiles?: Set<string>;
}

/**
 * The files check_write_target allowed in a session: the real path it judged (`judged_file`), not
 * the spelling that asked. A new file it approved stays writable once it is made (it was never read:
 * nothing else would count it as explored), for the write guard and check_write_target alike.
 */
export function approvedWrites(ledger: readonly LedgerEntry[], root: string): Set<string> {
  return new Set(ledger.filter((e) => e.tool === 'check_write_target' && e.outcome === 'ok' && typeof e.args.file_path === 'string')
    .map((e) => (typeof e.args.judged_file === 'string' ? e.args.judged_file : path.relative(root, path.resolve(root, String(e.args.file_path))).split(path.sep).join('/'))));
}

export function deriveEvidence(ledger: readonly LedgerEntry[], sinceSeq = 0): Evidence {
  const exploredFiles = new Set<string>();
  const matched = new Set<string>();
  const symbolsSeen = new Set<string>();
  const toolsUsed = new Set<string>();
  const shown = new Map<string, [number, number][]>();
  for (const e of ledger) {
    if (e.seq <= sinceSeq || e.outcome !== 'ok') continue;
    for (const [f, rs] of Object.entries(linesOf(e))) {
      if (!shown.has(f)) shown.set(f, []);
      shown.get(f)!.push(...rs);
    }
    // a call that found nothing did not use the tool for anything
    if (e.files.length > 0 || e.symbols.length > 0) toolsUsed.add(e.tool);
    e.files.forEach((f) => (TEXT_MATCH_TOOLS.has(e.tool) ? matched : exploredFiles).add(f));
    e.named?.forEach((f) => matched.add(f));
    e.symbols.forEach((s) => symbolsSeen.add(s));
  }
  for (const [f, rs] of shown) shown.set(f, rangesOf(rs));
  return { exploredFiles, shownLines: shown, symbolsSeen, toolsUsed, matchedFiles: new Set([...matched].filter((f) => !exploredFiles.has(f))) };
}

/**
 * The lines an entry showed. A Read recorded before its lines were (an older version's ledger): the
 * range its offset and limit name, as Claude Code counts them.
 */
export function linesOf(e: LedgerEntry): ShownLines {
  if (e.lines) return e.lines;
  if (e.tool !== 'hook:Read' || e.files.length !== 1) return {};
  const from = typeof e.args.offset === 'number' && e.args.offset > 0 ? Math.floor(e.args.offset) : 1;
  const count = typeof e.args.limit === 'number' && e.args.limit > 0 ? Math.floor(e.args.limit) : DEFAULT_LIMIT;
  return { [e.files[0]!]: [[from, from + count - 1]] };
}

/** Line ranges sorted and merged (adjacent ones joined). */
export function rangesOf(rs: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...rs].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Whether every line from `first` to `last` lies in the ranges. */
export function linesShown(ranges: readonly [number, number][] | undefined, first: number, last = first): boolean {
  return (ranges ?? []).some(([a, b]) => a <= first && last <= b);
}
