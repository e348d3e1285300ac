/**
 * Which lines of a file a Read showed, and whether they were its code. A Read explores a file
 * only when it showed some: one past the file's end (`offset: 100000`) shows nothing; one that
 * shows only lines outside every declaration the index holds for the file (its imports, a licence
 * header) or a line or two of one (`limit: 1`) shows no more of it than a search match does, which
 * explores nothing either (session/evidence.ts). Enough is the whole file, MIN_LINES lines of which
 * MIN_INSIDE lie in its declarations, or one whole declaration of MIN_WHOLE lines or more. Top-level
 * code outside declarations is code too — a test file's `test("…", () => {…})` blocks, a script's
 * statements (agent trial tr49) — told from an import block, an export list or a licence header by
 * MIN_STATEMENTS uses of names there, or by MIN_LINES lines of code there: a line with a letter, `_`
 * or `$` on it once comments and strings are cut (a row of numbers is data), that imports or exports
 * nothing (the middle of a test file whose cases are strings and object literals in one long call,
 * agent trial tr62). A file the index holds no code of (a README, a config) shows MIN_LINES lines
 * with a word on them, or all it has; an empty file is seen by any Read. A limit of 0 shows nothing.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';

/** Claude Code's Read shows 2000 lines unless told otherwise */
export const DEFAULT_LIMIT = 2000;
/** fewer lines than this show no more than a search match does (unless they are the whole file, or a whole declaration) */
const MIN_LINES = 10;
/** lines inside the file's declarations a Read of MIN_LINES must show for them to be its code */
const MIN_INSIDE = 5;
/** lines with uses of names in top-level code a Read must show (a line or two of it is a search match's worth) */
const MIN_STATEMENTS = 3;
/** a whole declaration read on its own shows its code from this many lines (a short function, not a one-line constant) */
export const MIN_WHOLE = 3;
/** past this the file's lines are not counted (the Read's own range is taken as shown) */
const MAX_COUNTED_BYTES = 64 << 20;
/** past this a Read's lines are not read for code (the index's declarations and uses decide) */
const MAX_SCANNED_BYTES = 8 << 20;
/** Claude Code's Read cuts a line after this many characters. */
const MAX_LINE_CHARS = 2000;
/** A number (0x2265B1F5, 262_033, 1e-9, 10n): data, however many letters its notation has. */
const NUMBER = /(?<![\p{L}\p{N}_$])(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.[\d_]+)?(?:[eE][+-]?\d+)?)n?(?![\p{L}\p{N}_$])/gu;

/** A line (comments and strings blanked) that is code: a letter, `_` or `$` outside its numbers, in what a Read shows of it. */
const isCodeLine = (line: string): boolean => /[\p{L}_$]/u.test(line.slice(0, MAX_LINE_CHARS).replace(NUMBER, ' '));

export interface ReadShown {
  /** first and last line shown (1-based); last < first when nothing was shown */
  first: number;
  last: number;
  /** the file's lines, as it is now */
  total: number;
  /** whether the lines shown hold code of the file (see above) */
  code: boolean;
  /** the client's copy of what it showed is not the file's text there (the path led elsewhere when it read, or the file changed since) */
  elsewhere?: true;
}

/** What the client's answer says the Read showed: how many lines, and their text (Claude Code's `tool_response.file`). */
export interface ReadResponse {
  numLines?: number;
  content?: string;
}

/**
 * `offset`/`limit` as the client passed them: Claude Code counts the offset from line 1, Gemini
 * CLI and OpenCode from 0 (`zeroBased`). `rel` is the project-relative file, `abs` its real path.
 */
export function readShown(db: Database.Database, rel: string, abs: string, offset: unknown, limit: unknown, zeroBased: boolean, response: ReadResponse = {}): ReadShown {
  const shownCount = response.numLines;
  const off = typeof offset === 'number' && Number.isFinite(offset) && offset > 0 ? Math.floor(offset) : 0;
  const first = zeroBased ? off + 1 : Math.max(off, 1);
  // a limit of 0 (or less) shows no line (red team adv13: it was taken as the default, 2,000 lines),
  // and the count of lines the client says it showed can only narrow the range, never widen it
  let count = typeof limit !== 'number' ? DEFAULT_LIMIT : Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  if (shownCount !== undefined && Number.isFinite(shownCount)) count = Math.min(count, Math.max(0, Math.floor(shownCount)));
  const text = fileText(abs);
  const total = text === undefined ? Number.MAX_SAFE_INTEGER : lineCount(text);
  // an empty file is shown whole by any Read of it
  if (total === 0) return { first, last: first, total, code: true };
  const last = Math.min(first + count - 1, total);
  if (last < first) return { first, last, total, code: false };
  // the text the client showed must be the file's: a path that led elsewhere when it was read (a
  // symlink switched between the Read and its hook: red team adv15) explored nothing of this file
  if (typeof response.content === 'string' && text !== undefined && text.length <= MAX_SCANNED_BYTES && !sameText(text, first, response.content)) {
    return { first, last, total, code: false, elsewhere: true };
  }
  // a few lines (a search match's worth) are not the file's code, unless they are all of it
  const enough = last - first + 1 >= Math.min(total, MIN_LINES);
  let code = enough;
  try {
    // (a line longer than a Read shows is cut: such a file is never shown whole — red team adv14)
    const all = first <= 1 && last >= total && !(text && hasLongLine(text));
    const declared = db.prepare('SELECT 1 FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.local = 0 LIMIT 1').get(rel) !== undefined;
    // top-level code outside every declaration (a test file's tests): uses of names there, a few
    // the window's code lines (undefined: a file too large to read for them); a whole file needs none
    const shown = all ? undefined : codeLines(db, rel, text, first, last);
    // (not on an import's line: `const { x } = require("y")` is a call, and an import — red team adv15)
    // (lines with uses, not uses: one line of eight names among comments is one statement — red team adv16)
    const statements = () => (db.prepare("SELECT count(*) AS n FROM (SELECT DISTINCT r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line BETWEEN ? AND ? AND r.enclosing_id IS NULL AND r.role NOT IN ('import', 'export', 'doc') AND r.line NOT IN (SELECT i.line FROM imports i WHERE i.file_id = f.id) LIMIT ?)")
      .get(rel, first, last, MIN_STATEMENTS) as { n: number }).n >= MIN_STATEMENTS || (shown?.length ?? 0) >= MIN_LINES;
    if (declared) {
      // code lines inside the file's declarations: a window that only grazes one (its closing
      // braces, or its signature line under a comment block: red team adv8), or that holds only
      // braces and a doc comment inside a declaration as long as the file (a module's `default`:
      // red team adv10), shows none of its code
      const spans = db.prepare('SELECT s.line AS a, s.end_line AS b FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.local = 0 AND s.container_id IS NULL AND s.line <= ? AND s.end_line >= ?')
        .all(rel, last, first) as { a: number; b: number }[];
      const inside = shown
        ? shown.filter((l) => spans.some((x) => x.a <= l && l <= x.b)).length
        : spans.reduce((n, x) => n + Math.min(x.b, last) - Math.max(x.a, first) + 1, 0);
      // a whole declaration of a few lines at least (a short function read on its own; a one-line constant is a search match's worth)
      // (with code in it: a list of strings declared whole shows none — red team adv15)
      const wholes = db.prepare('SELECT s.line AS a, s.end_line AS b FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.local = 0 AND s.line >= ? AND s.end_line <= ? AND s.end_line - s.line + 1 >= ?').all(rel, first, last, MIN_WHOLE) as { a: number; b: number }[];
      const whole = wholes.some((x) => !shown || shown.filter((l) => x.a <= l && l <= x.b).length >= MIN_WHOLE - 1);
      code = all || (enough && inside >= Math.min(MIN_INSIDE, total)) || whole || (enough && statements());
    } else if (db.prepare('SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? LIMIT 1').get(rel) !== undefined) {
      // code that declares nothing (a test file of test blocks only): its statements, not its imports
      code = all || (enough && statements());
    } else if (!all && text !== undefined && text.length <= MAX_SCANNED_BYTES) {
      // a file the index holds no code of (a README, a config): its lines with a word on them, not
      // blank lines (red team adv13: ten blank lines of NOTES.md explored it)
      const words = (ls: string[]) => ls.filter((l) => /[\p{L}\p{N}]/u.test(l)).length;
      const lines = text.toString('utf8').split('\n');
      code = words(lines.slice(first - 1, last)) >= Math.min(MIN_LINES, words(lines));
    }
  } catch {
    // an index without its tables (still being built): the range decides alone
  }
  return { first, last, total, code };
}

/** The file's bytes; empty when it cannot be read, undefined when it is too large to count. */
function fileText(abs: string): Buffer | undefined {
  try {
    if (fs.statSync(abs).size > MAX_COUNTED_BYTES) return undefined;
    return fs.readFileSync(abs);
  } catch {
    return Buffer.alloc(0);
  }
}

/** A `cat -n` line number as Claude Code writes it: `     12\t` (older, `12→`). */
const LINE_NUMBER = /^\s*(\d+)(?:\t|→)/;

/** Whether a line a client showed is line `n` of the file (`lines`): the same, or the start of it where the client cut it. */
function shownAs(lines: string[], n: number, shown: string): boolean {
  const f = (lines[n - 1] ?? '').replace(/\r$/, '').replace(n === 1 ? /^\uFEFF/ : /^$/, '');
  const g = shown.replace(/\r$/, '');
  const cut = g.replace(/(?:…|\.\.\.)?(?: \[line truncated\])?$/, '');
  return f === g || ((cut.length >= MAX_LINE_CHARS || g !== cut) && f.startsWith(cut));
}

/**
 * Whether the text a client showed from line `first` on is the file's there (nine lines in ten the
 * same: a file written to in between may differ a little). A `cat -n` numbering is taken off.
 */
function sameText(buf: Buffer, first: number, content: string): boolean {
  let got = content.split(/\r?\n/);
  if (got.length > 1 && got[got.length - 1] === '') got.pop();
  if (got.length === 0 || (got.length === 1 && got[0] === '')) return true;
  if (got.every((l) => LINE_NUMBER.test(l))) got = got.map((l) => l.replace(LINE_NUMBER, ''));
  const lines = buf.toString('utf8').split('\n');
  return got.filter((g, k) => shownAs(lines, first + k, g)).length >= Math.ceil(0.9 * got.length);
}

/**
 * Whether a Read's result as the client's transcript holds it (`cat -n` style) shows the file's own
 * lines, all within first..last: a call whose path led elsewhere when it ran, or that failed, is no
 * Read of this file however its hook payload is replayed later (red team adv17). Nine lines in ten
 * must be the file's; a result with no numbered line shows nothing of a file that has lines there.
 */
export function resultShowsFile(abs: string, first: number, last: number, result: string): boolean {
  const buf = fileText(abs);
  if (buf === undefined || buf.length > MAX_SCANNED_BYTES) return true; // too large to compare: the range decides
  const numbered = result.split('\n').flatMap((l) => {
    const m = LINE_NUMBER.exec(l);
    return m ? [[Number(m[1]), l.slice(m[0].length)] as const] : [];
  });
  if (numbered.length === 0) return lineCount(buf) < first; // nothing shown where the file has nothing
  if (numbered.some(([n]) => n < first || n > last)) return false;
  const lines = buf.toString('utf8').split('\n');
  return numbered.filter(([n, g]) => shownAs(lines, n, g)).length >= Math.ceil(0.9 * numbered.length);
}

/** Whether a line of the file is longer than a Read shows (bytes: a character is one or more). */
function hasLongLine(buf: Buffer): boolean {
  if (buf.length <= MAX_LINE_CHARS) return false;
  let start = 0;
  for (let at = buf.indexOf(10); ; at = buf.indexOf(10, start)) {
    const end = at < 0 ? buf.length : at;
    // more bytes than characters shown: count the characters only then
    if (end - start > MAX_LINE_CHARS && buf.subarray(start, end).toString('utf8').length > MAX_LINE_CHARS) return true;
    if (at < 0) return false;
    start = at + 1;
  }
}

/** Lines of a file as a reader numbers them (a last line without a newline counts). */
function lineCount(buf: Buffer): number {
  if (buf.length === 0) return 0;
  let n = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  return buf[buf.length - 1] === 10 ? n : n + 1;
}

/** files whose comments start with `#` (and have no `//` or `/* *\/` comments) */
const HASH_COMMENTS = /\.(?:py|pyi|pyw|sh|bash|zsh|rb|pl|r|ya?ml|toml|cfg|ini|conf)$/i;
/** files whose "…" strings may run over lines (Rust, Ruby, PHP, shells, Perl) */
const MULTILINE_STRINGS = /\.(?:rs|rb|php|sh|bash|zsh|pl)$/i;
/** files with regex literals (`/`+/g`): JavaScript and TypeScript */
const REGEX_LITERALS = /\.(?:[cm]?[jt]sx?|vue|svelte)$/i;

/** How a file's comments, strings and literals are written, by its name. */
interface Syntax {
  hash: boolean;
  multilineStrings: boolean;
  regex: boolean;
}
const syntaxOf = (rel: string): Syntax => ({ hash: HASH_COMMENTS.test(rel), multilineStrings: MULTILINE_STRINGS.test(rel), regex: REGEX_LITERALS.test(rel) });

/** After these a `/` starts a regex literal, not a division. */
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^']);
const KEYWORDS_BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof']);

/**
 * The text with comments, docstrings, string and regex literals blanked in place (line numbers
 * hold), in one pass from left to right, so that a `//` inside a string, or a quote inside a
 * comment or a regex, cannot make the rest of the file read wrong (red team adv12: `"1 + 1; // note",`
 * counted as code; adv14: a backtick in `/`+/g`, a `"""` in a `# …` comment, a Rust string over
 * several lines). A template literal's `${…}` is blanked with it.
 */
function withoutCommentsAndStrings(text: string, syntax: Syntax): string {
  const out: string[] = [];
  let from = 0; // start of the code not yet copied
  const skip = (start: number, end: number) => {
    out.push(text.slice(from, start), text.slice(start, end).replace(/[^\n]/g, ' '));
    from = end;
  };
  const n = text.length;
  // where a comment or string that starts at i ends: the line's end, or past its closing mark (unclosed: the text's end)
  const eol = (i: number) => {
    const at = text.indexOf('\n', i);
    return at < 0 ? n : at;
  };
  const close = (mark: string, from: number) => {
    const at = text.indexOf(mark, from);
    return at < 0 ? n : at + mark.length;
  };
  let i = 0;
  let prev = '\n'; // the last character of code before i (a newline at a line's start)
  let prevAt = -1;
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    let end: number | undefined;
    if (!syntax.hash && c === '/' && next === '/') end = eol(i);
    else if (!syntax.hash && c === '/' && next === '*') end = close('*/', i + 2);
    // a # comment: at a line's start or after a space or a statement's end (not `$#`, `${#x}`, `a#b`)
    else if (syntax.hash && c === '#' && /[\s;)\]}]/.test(text[i - 1] ?? '\n')) end = eol(i);
    else if ((c === '"' || c === "'") && text[i + 1] === c && text[i + 2] === c) end = close(c.repeat(3), i + 3);
    else if (c === '"' && syntax.multilineStrings) end = quotedEnd(text, i, true);
    else if (c === '"' || c === "'") end = quotedEnd(text, i);
    else if (c === '`') end = templateEnd(text, i, eol, close);
    else if (c === '/' && syntax.regex && regexMayStart(text, prev, prevAt)) end = regexEnd(text, i);
    if (end === undefined) {
      if (c === '\n') prev = '\n';
      else if (c !== ' ' && c !== '\t' && c !== '\r') {
        prev = c;
        prevAt = i;
      }
      i++;
      continue;
    }
    skip(i, end);
    i = end;
    prev = ')'; // a literal is a value: a `/` after it divides
    prevAt = end - 1;
  }
  out.push(text.slice(from));
  return out.join('');
}

/** Whether a `/` after the code character `prev` (at `prevAt`) starts a regex literal. */
function regexMayStart(text: string, prev: string, prevAt: number): boolean {
  if (prev === '\n' || BEFORE_REGEX.has(prev)) return true;
  if (!/[\p{L}_$]/u.test(prev)) return false;
  let k = prevAt;
  while (k > 0 && /[\p{L}\p{N}_$]/u.test(text[k - 1]!)) k--;
  return KEYWORDS_BEFORE_REGEX.has(text.slice(k, prevAt + 1));
}

/** Where a regex literal that opens at `i` ends: past its closing `/` and flags (a `/` in a [class] or escaped is no end), or at the line's end. */
function regexEnd(text: string, i: number): number {
  const n = text.length;
  let j = i + 1;
  let inClass = false;
  while (j < n && text[j] !== '\n') {
    const c = text[j]!;
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      j++;
      while (j < n && /[a-z]/i.test(text[j]!)) j++;
      return j;
    }
    j++;
  }
  return j;
}

/**
 * Where a string in quotes that opens at `i` ends: past its closing quote (a backslash escapes), or
 * at the line's end — unless the language's strings run over lines (`multiline`).
 */
function quotedEnd(text: string, i: number, multiline = false): number {
  const q = text[i]!, n = text.length;
  let j = i + 1;
  while (j < n && text[j] !== q && (multiline || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
  return j < n && text[j] === '\n' ? j : Math.min(j + 1, n);
}

const TEMPLATE = -1;
/**
 * Where a template literal that opens at `i` ends: past its closing backtick. Its `${…}` are code,
 * whose strings, comments and templates may hold a backtick or a brace (red team adv13:
 * `` `${x === "`" ? 1 : 2}` `` closed at the quoted backtick, and the prose after it read as code).
 * A stack, not recursion: nesting is the writer's to choose.
 */
function templateEnd(text: string, i: number, eol: (i: number) => number, close: (mark: string, from: number) => number): number {
  const n = text.length;
  // TEMPLATE: inside a template's text; a number: inside a ${…}, with that many { open in it
  const stack: number[] = [TEMPLATE];
  let j = i + 1;
  while (j < n && stack.length > 0) {
    const top = stack.length - 1, c = text[j]!;
    if (stack[top] === TEMPLATE) {
      if (c === '\\') j++;
      else if (c === '`') stack.pop();
      else if (c === '$' && text[j + 1] === '{') {
        stack.push(0);
        j++;
      }
      j++;
      continue;
    }
    if (c === '"' || c === "'") j = quotedEnd(text, j);
    else if (c === '/' && text[j + 1] === '/') j = eol(j);
    else if (c === '/' && text[j + 1] === '*') j = close('*/', j + 2);
    else {
      if (c === '`') stack.push(TEMPLATE);
      else if (c === '{') stack[top]!++;
      else if (c === '}') {
        if (stack[top] === 0) stack.pop();
        else stack[top]!--;
      }
      j++;
    }
  }
  return Math.min(j, n);
}

/**
 * The lines first..last that are code: a letter, `_` or `$` left once comments, docstrings and string
 * literals are cut (a row of numbers, a closing brace, a licence header, a list of strings — a table of keywords, a test's
 * expected messages: red team adv10 — are not), and no import or export of the file's on it (an
 * import block or an export list is names, not code). Undefined for a file too large to read.
 */
function codeLines(db: Database.Database, rel: string, buf: Buffer | undefined, first: number, last: number): number[] | undefined {
  if (buf === undefined || buf.length > MAX_SCANNED_BYTES) return undefined;
  // read to the window's last line only: what follows cannot change what the window shows
  let stop = -1;
  for (let k = 0; k < last && (k === 0 || stop >= 0); k++) stop = buf.indexOf(10, stop + 1);
  const upTo = stop < 0 ? buf : buf.subarray(0, stop);
  const lines = withoutCommentsAndStrings(upTo.toString('utf8'), syntaxOf(rel)).split('\n');
  // (a Go import block's paths are imports with no reference on their lines)
  const listed = new Set((db.prepare("SELECT r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line BETWEEN ? AND ? AND r.role IN ('import', 'export') UNION SELECT i.line FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ? AND i.line BETWEEN ? AND ?")
    .all(rel, first, last, rel, first, last) as { line: number }[]).map((r) => r.line));
  const code: number[] = [];
  for (let i = first; i <= Math.min(last, lines.length); i++) if (isCodeLine(lines[i - 1]!) && !listed.has(i)) code.push(i);
  return code;
}
