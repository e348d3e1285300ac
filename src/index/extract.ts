/**
 * The language-neutral extraction engine. A language contributes only a query (grammars/) using
 * the capture vocabulary in grammars/README.md; the phases in extract/ turn its captures into
 * definitions, scopes, bindings, imports, exports and references, resolved inside the file.
 * Cross-file binding happens later, in link.ts.
 */
import type { Node, Point, QueryCapture } from 'web-tree-sitter';
import type { FileFacts } from './facts.js';
import type { LanguageRow } from './languages.js';
import { type GatedQuery, type Loaded, loadLanguage } from './parser.js';
import { presumeStatementEnds, readsSource, type Recovery, recoverStatementEnds } from './recover.js';
import { ignoreSubtrees, preferMembers, readCaptures } from './extract/captures.js';
import { FileContext, type Match } from './extract/context.js';
import { exportDeclarations, exportTopLevel, readExports } from './extract/exports.js';
import { readImports } from './extract/imports.js';
import { indexMembers } from './extract/member-lookup.js';
import { attachReceivers, bindClassBodyNames, bindOwnMembers, countParameters, declareAssignedMembers } from './extract/members.js';
import { markDeclarations, resolveComputedRefs, resolveDestructured, resolveDocLinks, resolveMemberRefs, resolveObjectKeys, resolvePlainRefs } from './extract/references.js';
import { declareOutsideNames, indexScopes, placeDefinitions } from './extract/scopes.js';
import { findImportedNames, findMethodHolders, findRequireNames, storeSymbols } from './extract/symbols.js';
import { recordBases, recordImplementers, recordTypeFacts } from './extract/type-facts.js';

/** how deep `@macro.items` bodies inside macro bodies are parsed again */
const MACRO_DEPTH = 3;

export async function extractFile(row: LanguageRow, source: string): Promise<FileFacts> {
  const loaded = await loadLanguage(row);
  const { parser } = loaded;
  // (a match may span lines: its line breaks stay, so every line and column is the file's own)
  const parsed = row.blank ? source.replace(blankPattern(row.blank), (m) => m.replace(/[^\r\n]/g, ' ')) : source;
  // code without semicolons that tree-sitter misreads: its likely statement ends written in first,
  // and where the tree still has errors, parsed again with more of them written (recover.ts)
  const presumed = row.asi && row.presumeEndsBefore ? presumeStatementEnds(parsed, row.presumeEndsBefore) : undefined;
  let tree = parser.parse(presumed?.text ?? parsed);
  if (!tree) throw new Error('parser returned no tree');
  let recovery: Recovery | undefined;
  if (presumed) {
    readsSource(tree, parsed);
    recovery = { tree, text: presumed.text, ends: presumed.ends, reparses: 0 };
  }
  if (row.asi && tree.rootNode.hasError) {
    const better = recoverStatementEnds(parser, parsed, tree, presumed);
    if (better) {
      tree.delete();
      tree = better.tree;
      recovery = better;
    }
  }
  const trees = [tree];
  try {
    let matches = matchesOf(loaded, tree.rootNode, source);
    // `@macro.items`: a macro's token tree that holds items (Rust `cfg_x! { mod m; struct S; }`) is
    // parsed again as source, restricted to those ranges, so positions stay the file's; its items
    // join the file's top level, and the tokens themselves are not read as references
    const bodies: Node[] = [];
    for (let depth = 0, found = macroBodies(matches); found.length > 0 && depth < MACRO_DEPTH; depth++) {
      bodies.push(...found);
      const ranges = found.map((b) => ({
        startIndex: b.startIndex + 1, endIndex: b.endIndex - 1,
        startPosition: { row: b.startPosition.row, column: b.startPosition.column + 1 },
        endPosition: { row: b.endPosition.row, column: b.endPosition.column - 1 },
      }));
      const sub = parser.parse(parsed, null, { includedRanges: ranges });
      if (!sub) break;
      trees.push(sub);
      const more = matchesOf(loaded, sub.rootNode, source);
      matches = matches.concat(more);
      found = macroBodies(more);
    }
    const facts = extractTree(row, source, tree.rootNode, matches, trees.slice(1).map((t) => t.rootNode), bodies, recovery?.ends);
    if (recovery) facts.recovered = recovery.ends.size;
    return facts;
  } finally {
    for (const t of trees) t.delete();
  }
}

/**
 * The matches of a tree: the main query's, then those of each gated query (languages.ts `gated`)
 * whose names the file uses. (`source`: the text the tree's offsets point into; recovery's `;` and
 * blanked syntax take the place of other characters, never of a name's.)
 */
function matchesOf(loaded: Loaded, root: Node, source: string): Match[] {
  const matches: Match[] = loaded.query.matches(root);
  for (const gate of loaded.gated) if (usesName(matches, source, gate)) for (const m of gate.query().matches(root)) matches.push(m);
  return matches;
}

/** Whether a node captured as a reference (`@reference`, `@reference.member`) is one of the gate's names. */
function usesName(matches: Match[], source: string, gate: GatedQuery): boolean {
  if (!gate.written.test(source)) return false; // not even in a comment or a string
  for (const m of matches) {
    for (const c of m.captures) {
      if (c.name !== 'reference' && c.name !== 'reference.member') continue;
      const at = c.node.startIndex;
      for (const name of gate.names) if (source.startsWith(name, at) && !NAME_CHAR.test(source[at + name.length] ?? '')) return true;
    }
  }
  return false;
}
const NAME_CHAR = /[\p{L}\p{N}_$]/u;

const blankPatterns = new Map<string, RegExp>();
/** The compiled `blank` pattern of a language row (languages.ts), once per worker. */
function blankPattern(re: string): RegExp {
  let p = blankPatterns.get(re);
  if (!p) blankPatterns.set(re, (p = new RegExp(re, 'gu')));
  return p;
}

/**
 * The phases, in order: each reads the tables the earlier ones filled (extract/context.ts).
 * Each is a function of its own on purpose: V8 optimizes a function again whenever it meets
 * object shapes it has not seen (captures, facts) — a dozen times per worker: compiling one
 * function holding every phase took ≈ 200 ms each time, a phase compiles alone in a few ms.
 */
function extractTree(
  row: LanguageRow,
  source: string,
  root: Node,
  matches: Match[],
  macroRoots: Node[] = [],
  macroTokens: Node[] = [],
  insertedEnds?: Map<number, Point>,
): FileFacts {
  const ctx = new FileContext(row, source, root, macroRoots, macroTokens, insertedEnds);
  // captures
  readCaptures(ctx, matches);
  ignoreSubtrees(ctx);
  preferMembers(ctx);
  // scopes and bindings
  indexScopes(ctx);
  declareOutsideNames(ctx);
  placeDefinitions(ctx);
  // symbols
  findRequireNames(ctx);
  findImportedNames(ctx);
  findMethodHolders(ctx);
  storeSymbols(ctx);
  // imports and exports
  markDeclarations(ctx);
  readImports(ctx);
  readExports(ctx);
  exportDeclarations(ctx);
  exportTopLevel(ctx);
  // members declared apart from their type; members in scope
  attachReceivers(ctx);
  bindOwnMembers(ctx);
  bindClassBodyNames(ctx);
  declareAssignedMembers(ctx);
  countParameters(ctx);
  // types, then references
  indexMembers(ctx);
  recordBases(ctx);
  recordImplementers(ctx);
  recordTypeFacts(ctx);
  resolveMemberRefs(ctx);
  resolveComputedRefs(ctx);
  resolveObjectKeys(ctx);
  resolveDestructured(ctx);
  resolveDocLinks(ctx);
  resolvePlainRefs(ctx);
  const { refs, imports, exportsOut, symbols, importBases, packageName } = ctx;
  refs.sort((a, b) => a.line - b.line || a.column - b.column);

  return {
    language: row.id,
    ...(packageName !== undefined ? { package: packageName } : {}),
    isModule: imports.length > 0 || exportsOut.length > 0,
    symbols,
    imports,
    exports: exportsOut,
    refs,
    parseErrors: root.hasError ? 1 : 0,
    ...(importBases.length > 0 ? { importBases } : {}),
  };
}

function macroBodies(matches: { captures: QueryCapture[] }[]): Node[] {
  const out: Node[] = [];
  for (const m of matches) for (const c of m.captures) if (c.name === 'macro.items' && c.node.endIndex - c.node.startIndex > 2) out.push(c.node);
  return out;
}
