/**
 * Recovery for code that leaves statement ends to automatic semicolon insertion (JavaScript and
 * TypeScript written without semicolons, prettier `semi: false`).
 *
 * tree-sitter does not implement ASI where a line break is the only boundary and the next line
 * could continue the previous one: in a type body `(a: A): E` followed by the line
 * `<M>(m: M): E` reads as `E<M> …`, fails, and error recovery can then swallow the rest of the
 * file into one ERROR node (every declaration after it is lost). Where a tree has ERROR or MISSING
 * nodes, the damaged top-level regions are parsed again with their statement boundaries made
 * explicit: a `;` is written in place of one whitespace character (the indentation of the next
 * line, or a space after the last token), so every byte offset, line and column stays the file's
 * own. A boundary is a line break between a token that can end a statement and one that can start
 * the next, where the next line is not indented deeper (a continuation line is). The new tree is
 * kept only when it is less damaged than the old one. Files whose tree has no error pay nothing;
 * the others at most MAX_REPARSES more parses.
 */
import { Edit, type Language, type Node, type Parser, type Point, type Tree, type TreeCursor } from 'web-tree-sitter';

/** parses of one file beyond the first: recovery is linear in the file, whatever its errors */
export const MAX_REPARSES = 3;

export interface Recovery {
  tree: Tree;
  /** the text that was parsed: the source with `;` written at the inserted statement ends */
  text: string;
  /** index of each inserted `;` → where the statement it ends really ends (the token before it) */
  ends: Map<number, Point>;
  reparses: number;
}

/** How much of a tree is damaged: bytes inside ERROR nodes, plus one per ERROR and MISSING node. */
export function damage(root: Node): number {
  if (!root.hasError) return 0;
  let total = 0;
  const visit = (n: Node) => {
    if (n.isError) total += n.endIndex - n.startIndex + 1;
    else if (n.isMissing) total += 1;
    else if (n.hasError) for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  return total;
}

/** Tokens that continue the previous line when they start one (they never start a statement or a member). */
const CONTINUES_BEFORE = new Set([
  ';', ',', ')', ']', '}', '{', '.', '?.', '=>', ':', '?', '=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '>>>=',
  '&=', '|=', '^=', '&&=', '||=', '??=', '+', '-', '/', '%', '**', '<<', '>>', '>>>', '&', '|', '^', '&&', '||', '??',
  '==', '===', '!=', '!==', '<=', '>=', '>', 'instanceof', 'in', 'of', 'as', 'satisfies', 'extends', 'implements',
  'else', 'catch', 'finally', 'is', 'from',
]);
/** Keywords that end a statement when they end a line; other keywords expect more. */
const ENDING_KEYWORDS = new Set([
  'this', 'super', 'null', 'undefined', 'true', 'false', 'break', 'continue', 'debugger',
  'string', 'number', 'boolean', 'any', 'unknown', 'never', 'object', 'symbol', 'bigint', 'void',
]);
/** Anonymous tokens that can end a statement when they end a line (named ones all can: names, literals). */
const ENDS = new Set([')', ']', '}', '>', '++', '--', ...ENDING_KEYWORDS]);
/** Nodes read as one token: nothing inside them is a statement boundary. */
const ATOMIC = new Set([
  'comment', 'html_comment', 'string', 'template_string', 'regex', 'jsx_element', 'jsx_self_closing_element', 'jsx_fragment',
  'jsx_opening_element', 'jsx_closing_element', 'jsx_text',
]);

interface Token {
  type: string; named: boolean; start: number; end: number; startRow: number; endRow: number;
  /** inside a decorator (`@dec(…)` ⏎ `class C`: no boundary) */
  decorator: boolean;
  /** the region it is in: boundaries are between tokens of one region */
  region: number;
}

/**
 * Re-parses a damaged tree with statement ends made explicit. Returns the better tree (the caller
 * deletes the old one), or undefined when nothing could be improved.
 */
export function recoverStatementEnds(parser: Parser, source: string, tree: Tree, presumed?: Presumed): Recovery | undefined {
  let best: Recovery | undefined;
  let current = tree;
  let text = presumed?.text ?? source;
  let score = damage(tree.rootNode);
  const ends = new Map<number, Point>(presumed?.ends);
  let reparses = 0;
  const tried = new Set<string>();
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  /** the row and column of an index (a `;` replaces a character of the line: rows stay the file's) */
  const pointAt = (index: number): Point => {
    const row = rowAt(lineStarts, index);
    return { row, column: index - lineStarts[row]! };
  };
  const indentOf = (row: number): number => {
    let i = lineStarts[row] ?? 0;
    while (source[i] === ' ' || source[i] === '\t') i++;
    return i - (lineStarts[row] ?? 0);
  };
  // first all the damaged regions at once; where that does not help, each region on its own
  let queue: [number, number][][] = [damagedRegions(current.rootNode)];
  while (queue.length > 0 && reparses < MAX_REPARSES && score > 0) {
    const regions = queue.shift()!;
    const slots = boundaries(current.rootNode, text, regions, lineStarts, indentOf, pointAt);
    const fresh = slots.filter((s) => !ends.has(s.at)).sort((x, y) => x.at - y.at);
    if (fresh.length === 0) continue;
    const key = fresh.map((s) => s.at).join(',');
    if (tried.has(key)) continue;
    tried.add(key);
    let next = '';
    let from = 0;
    for (const s of fresh) {
      next += text.slice(from, s.at) + ';';
      from = s.at + 1;
    }
    next += text.slice(from);
    // parsed incrementally: the tree so far, told where a character became `;`, keeps every
    // subtree away from those places (a fraction of the cost of parsing the whole file again)
    const old = current.copy();
    for (const s of fresh) {
      const start = pointAt(s.at), end = { row: start.row, column: start.column + 1 };
      old.edit(new Edit({ startIndex: s.at, oldEndIndex: s.at + 1, newEndIndex: s.at + 1, startPosition: start, oldEndPosition: end, newEndPosition: end }));
    }
    const parsed = parser.parse(next, old);
    old.delete();
    reparses++;
    if (!parsed) break;
    const nextScore = damage(parsed.rootNode);
    if (nextScore < score) {
      if (current !== tree) current.delete();
      current = parsed;
      text = next;
      score = nextScore;
      for (const s of fresh) ends.set(s.at, s.end);
      best = { tree: current, text, ends, reparses };
      // what is left damaged is looked at again, as a whole
      queue = score > 0 ? [damagedRegions(current.rootNode)] : [];
    } else {
      parsed.delete();
      if (regions.length > 1 && queue.length === 0) queue = regions.map((r) => [r]);
    }
  }
  if (!best) return undefined;
  best.reparses = reparses;
  readsSource(best.tree, source);
  return best;
}

/** A node's text is the file's own, not the text with `;` written in (the tree keeps how to read it). */
export function readsSource(tree: Tree, source: string): void {
  const t = tree as unknown as { textCallback?: (index: number) => string };
  if (typeof t.textCallback === 'function') t.textCallback = (index: number) => source.slice(index);
}

/** A text with statement ends written in before the first parse, and where each really ends. */
export interface Presumed {
  text: string;
  ends: Map<number, Point>;
}

/** Keywords that, ending a line, expect more on the next one. */
const CONTINUING_WORD = /(?:^|[^\w$.])(?:extends|keyof|typeof|infer|in|of|as|is|satisfies|instanceof|new|return|throw|await|yield|case|else|do|readonly|const|let|var|function|class|interface|type|enum|export|import|from|unique|asserts|implements|delete)$/;
/** A line ending with `)` that opens a statement's body on the next line (`if (x)` ⏎ `(f)()`). */
const CONTROL_HEAD = /^(?:\}\s*)?(?:if|for|while|switch|catch|with)\b/;

/**
 * Statement ends presumed from the text alone, before any parse, so that the common case of code
 * without semicolons never meets tree-sitter's missing ASI: a code line starting with one of
 * `before` (`<(` for TypeScript: a generic or plain call signature of an overloaded type) gets a
 * `;` in front when the code line before it ends with a token that can end a statement and the new
 * line is not indented deeper. Comment lines are skipped (a doc comment sits between overloads).
 * The `;` takes the place of one whitespace character, as recovery's do, so offsets, lines and
 * columns stay the file's own. Returns undefined when there is no such line. A presumption that
 * leaves errors is corrected by recovery, which starts from it.
 */
export function presumeStatementEnds(source: string, before: string): Presumed | undefined {
  const ends = new Map<number, Point>();
  const slots: number[] = [];
  let inBlock = false;
  let prev: { start: number; code: string; indent: number; raw: number; row: number } | undefined;
  for (let start = 0, row = 0; start <= source.length; row++) {
    const nl = source.indexOf('\n', start);
    const end = nl < 0 ? source.length : nl;
    const line = source.slice(start, end);
    const code = line.trim();
    if (inBlock) {
      if (code.includes('*/')) inBlock = false;
    } else if (code.startsWith('/*')) {
      inBlock = !code.includes('*/', 2);
    } else if (code !== '' && !code.startsWith('//')) {
      const indent = line.length - line.trimStart().length;
      // (`}` ⏎ `(`: a block, or a function expression called on the next line: left to recovery)
      if (prev && before.includes(code[0]!) && !code.startsWith('</') && indent <= prev.indent && endsStatement(prev.code) && !(code[0] === '(' && prev.code.endsWith('}'))) {
        const at = indent > 0 ? start : prev.raw > prev.indent + prev.code.length ? prev.start + prev.indent + prev.code.length : -1;
        if (at >= 0 && (source[at] === ' ' || source[at] === '\t' || source[at] === '\r')) {
          slots.push(at);
          ends.set(at, { row: prev.row, column: prev.indent + prev.code.length });
        }
      }
      prev = { start, code, indent, raw: line.length, row };
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  if (slots.length === 0) return undefined;
  let text = '';
  let from = 0;
  for (const at of slots) {
    text += source.slice(from, at) + ';';
    from = at + 1;
  }
  return { text: text + source.slice(from), ends };
}

/** Whether a code line ends with a token that can end a statement (a trailing `//` comment: unknown, no). */
function endsStatement(code: string): boolean {
  const last = code[code.length - 1]!;
  if (!/[\w$)\]}>"'`]/.test(last) || code.endsWith('=>') || CONTINUING_WORD.test(code)) return false;
  if (last === ')' && CONTROL_HEAD.test(code)) return false;
  return !code.includes('//');
}

/**
 * The stretches of the file to look for statement boundaries in: each top-level node with an error
 * in it, with the top-level node before it (the boundary that was missed is often its last line);
 * the whole file when its root is an ERROR.
 */
function damagedRegions(root: Node): [number, number][] {
  // the whole file is one ERROR: its children are fragments, not statements
  if (root.isError) return [[root.startIndex, root.endIndex]];
  const out: [number, number][] = [];
  let prev: Node | null = null;
  for (const c of root.children) {
    if (!c) continue;
    if (c.hasError || c.isError || c.isMissing) {
      const start = prev ? prev.startIndex : 0;
      const last = out[out.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], c.endIndex);
      else out.push([start, c.endIndex]);
    }
    prev = c;
  }
  if (out.length === 0 && root.hasError) out.push([root.startIndex, root.endIndex]);
  return out;
}

/** The line breaks in `regions` that end a statement, and the whitespace character that can hold its `;`. */
function boundaries(
  root: Node, text: string, regions: [number, number][], lineStarts: number[], indentOf: (row: number) => number, pointAt: (index: number) => Point,
): { at: number; end: Point }[] {
  const out: { at: number; end: Point }[] = [];
  const tokens = tokensIn(root.walk(), root.tree.language, regions, lineStarts);
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!, b = tokens[i]!;
    if (b.startRow <= a.endRow || a.region !== b.region) continue;
    if (a.type === 'ERROR' || b.type === 'ERROR' || a.decorator) continue;
    if (!a.named && !ENDS.has(a.type)) continue;
    // (a template string after a line break is a tagged template's: no ASI there)
    if ((!b.named && CONTINUES_BEFORE.has(b.type)) || b.type === 'template_string') continue;
    // a line indented deeper than the one before continues it (`if (x)` ⏎ `  f()`, a chained call)
    if (indentOf(b.startRow) > indentOf(a.endRow)) continue;
    // a decorator on its own line belongs to what follows
    if (text[lineStarts[a.endRow]! + indentOf(a.endRow)] === '@') continue;
    const at = slotBetween(text, a.end, b.start, lineStarts[b.startRow]!);
    if (at !== undefined) out.push({ at, end: pointAt(a.end) });
  }
  return out;
}

/** A space or tab (or the CR of a CRLF) right after the token, else the first character of the
 * next line's indentation: where a `;` can go without moving anything. */
function slotBetween(text: string, aEnd: number, bStart: number, bLineStart: number): number | undefined {
  const c = text[aEnd];
  if (c === ' ' || c === '\t' || (c === '\r' && text[aEnd + 1] === '\n')) return aEnd;
  if (bLineStart < bStart && (text[bLineStart] === ' ' || text[bLineStart] === '\t')) return bLineStart;
  return undefined;
}

/** The row (0-based) of a text index: the last line that starts at or before it. */
function rowAt(lineStarts: number[], index: number): number {
  let lo = 0, hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** whether each node type of a language is named, asked once per type (ERROR: asked of the node) */
const namedTypes = new WeakMap<Language, boolean[]>();
function namedTypesOf(language: Language): boolean[] {
  let named = namedTypes.get(language);
  if (!named) namedTypes.set(language, (named = language.types.map((_, id) => language.nodeTypeIsNamed(id))));
  return named;
}

/**
 * The leaves of the tree in the regions (sorted, apart), in order, in one walk: ATOMIC nodes are one
 * token; comments and MISSING nodes (zero width: nothing was written there) are left out. Each read
 * of the cursor is a call into wasm: a node's type is read once (its name and whether it is named
 * come from the language's tables), rows from the text's line starts.
 */
function tokensIn(cursor: TreeCursor, language: Language, regions: [number, number][], lineStarts: number[]): Token[] {
  const types = language.types;
  const named = namedTypesOf(language);
  const out: Token[] = [];
  const decorators: boolean[] = []; // for each ancestor of the cursor's node: is it a decorator?
  let inDecorator = 0;
  let r = 0; // the first region that does not end before the cursor's node
  try {
    for (;;) {
      const typeId = cursor.nodeTypeId;
      const type = types[typeId] || 'ERROR';
      const start = cursor.startIndex, end = cursor.endIndex;
      while (r < regions.length && regions[r]![1] <= start) r++;
      if (r >= regions.length) return out;
      // (a MISSING node is zero-width: only those are asked, each question is a call into wasm)
      if (end > regions[r]![0] && (end > start || !cursor.nodeIsMissing)) {
        if (!ATOMIC.has(type) && cursor.gotoFirstChild()) {
          decorators.push(type === 'decorator');
          if (type === 'decorator') inDecorator++;
          continue;
        }
        if (type !== 'comment' && type !== 'html_comment') {
          out.push({
            type, named: named[typeId] ?? cursor.nodeIsNamed, start, end, startRow: rowAt(lineStarts, start), endRow: rowAt(lineStarts, end),
            decorator: inDecorator > 0, region: r,
          });
        }
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
        if (decorators.pop()) inDecorator--;
      }
    }
  } finally {
    cursor.delete();
  }
}
