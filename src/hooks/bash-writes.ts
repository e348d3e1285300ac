/**
 * Which parts of a shell command write to the file system, found by parsing it with the
 * tree-sitter bash grammar (a real parser: quotes, pipelines, lists, subshells, `bash -c`, `eval`
 * and command substitutions are all seen), never by a regex over the text.
 */
/**
 * Which parts of a shell command write to the file system, found by parsing it with the
 * tree-sitter bash grammar (a real parser: quotes, pipelines, lists, subshells, `bash -c`, `eval`
 * and command substitutions are all seen), never by a regex over the text.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expandBraces, MAX_BRACE_WORDS, protect } from './brace-expansion.js';
import { UNKNOWN } from './glob-targets.js';
import { RUNS_VALUE_NAMES, codeOfAssignments } from './commands/assignments.js';
import type { BashWrite } from './commands/context.js';
import { gitConfigured, gitSubcommand, gitSubReads } from './commands/git.js';
import { outputFiles, programOutputs } from './commands/outputs.js';
import { lessSettings, setsClock } from './commands/refused.js';
import { inspectWords } from './commands/inspect.js';
import { CHDIR, detaches, READERS } from './commands/kinds.js';
import { WRITES_WHERE_NAMED } from './commands/packages.js';
import { substitutions, unquote } from './commands/shell-text.js';
import { firstKnown, type KnownVariables, knownVariables } from './plain-variables.js';
import { EXPANSION_SHOPTS } from './commands/shells.js';
import { HARMLESS_DEST, UNKNOWABLE, named, givenWords } from './commands/words.js';
import { peel } from './commands/wrappers.js';

export type { BashWrite } from './commands/context.js';

export interface BashAnalysis {
  writes: BashWrite[];
  /** the command could not be parsed cleanly: treat it as unknown */
  parseError: boolean;
  /** parts that keep running after the command returns (`&`, nohup, setsid …) */
  background: string[];
  /** every command in it is a known reader (ls, cat, grep, git status …) and nothing is redirected into a file */
  readOnly: boolean;
  /**
   * every folder the command may be in when it writes, where `cd`/`pushd`/`popd`/`env -C` move it
   * ('' where it starts, null one that cannot be told); absent when it never moves
   */
  reached?: (string | null)[];
}

let parser: Promise<Parser> | undefined;

function bashParser(): Promise<Parser> {
  parser ??= (async () => {
    // imported here, not at the top: a command decided without the grammar never loads it
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const require = createRequire(import.meta.url);
    const wasm = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', 'tree-sitter-bash.wasm');
    const p = new Parser();
    p.setLanguage(await Language.load(wasm));
    return p;
  })();
  return parser;
}

/** nodes whose commands run in a shell of their own: a `cd` in them moves nothing after them */
const SUBSHELLS = new Set(['subshell', 'command_substitution', 'process_substitution']);

const EXPANSIONS = ['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion'];

/** A word bash builds with an expansion — `$s`, `"${s}"`, `$(cmd)`, `/$s/p` — rather than one written out (single quotes keep a `$`). */
function expands(n: Node): boolean {
  return EXPANSIONS.includes(n.type) || n.descendantsOfType(EXPANSIONS).length > 0;
}

/** What a word whose brace expansion cannot be judged stands for (the command is refused). */
const BRACE_OVERFLOW = '\u0000brace';

/**
 * A word as bash hands it to the command: brace expansion, then quote removal. Quoted and escaped
 * characters take no part in the expansion; a word the grammar splits in pieces it cannot join back
 * is not judged by guess (BRACE_OVERFLOW).
 */
function expandedWords(n: Node): string[] {
  if (!n.text.includes('{') || !n.text.includes('}') || !['word', 'concatenation', 'command_name', 'brace_expression'].includes(n.type)) return [unquote(n)];
  let whole = '';
  const piece = (c: Node): string => {
    if (c.type === 'concatenation' || c.type === 'command_name') {
      const parts = c.children.filter((k): k is Node => k !== null);
      const raw = parts.map((k) => k.text).join('');
      if (raw !== c.text) whole = BRACE_OVERFLOW;
      return parts.map(piece).join('');
    }
    if (c.type === 'word') return c.text.replace(/\\(.)/gs, (_, ch: string) => protect(ch));
    if (QUOTED.has(c.type)) return protect(unquote(c));
    // `$x`, `$(…)`, `{1..3}`: as written (an expansion stays unknowable, a sequence expands)
    return c.text;
  };
  const text = piece(n);
  if (whole === BRACE_OVERFLOW) return [BRACE_OVERFLOW];
  return expandBraces(text) ?? [BRACE_OVERFLOW];
}

/**
 * A pipeline of known readers written with plain words only (no quotes, expansions, globs,
 * redirections, lists or subshells) means exactly what its words say, so it needs no parser:
 * `ls -la | head`, `git status`, `grep -rn total src`. The common reads of an agent stay cheap.
 * Blanks are spaces and tabs only: a newline ends a command (`ls⏎rm x` is two); a word that starts
 * with `=` (`==`, `=~`: test operators to the grammar) and one naming a shell keep the grammar's verdict.
 */
function plainReadOnly(command: string): boolean {
  if (!/^[\w \t./:=@%+,|-]+$/.test(command) || /\|\||\|[ \t]*$|^[ \t]*\||(^|[ \t|])=/.test(command) || !nestedNone(command)) return false;
  return command.split('|').every((stage) => {
    const words = stage.trim().split(/[ \t]+/).filter(Boolean);
    const cmd = words[0];
    if (!cmd || cmd.includes('/') || cmd.includes('=')) return false;
    return readsOnly(cmd, words.slice(1));
  });
}

/**
 * a word of characters that mean nothing special to bash, not starting with `=` (`==`, `=~` are test
 * operators to the grammar); `@` and `%` are left out (the grammar misreads `a@b` first in a command)
 */
const PLAIN_WORD = /[\w./:+,-][\w./:=+,-]*/y;

const BLANKS = /[ \t]*/y;

/** a command name the grammar reads as one (it reads `a+:`, `- a=b`, `x=1` otherwise) */
const COMMAND_NAME = /^[\w./][\w./-]*$/;

/** words that are syntax, or that the grammar reads as something other than a command name, first in a command */
const NOT_A_COMMAND = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in',
  'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset']);

/** One simple command of a plain pipeline: its words, its text as written (without redirections), its output redirections. */
interface PlainStage { words: string[]; text: string; redirects: { op: string; target: string }[] }

function match(re: RegExp, s: string, at: number): string {
  re.lastIndex = at;
  return re.exec(s)?.[0] ?? '';
}

/** The plain simple command that starts at `at`, and where it ends; undefined when it is not one. */
function plainStage(command: string, at: number): { stage: PlainStage; end: number } | undefined {
  const stage: PlainStage = { words: [], text: '', redirects: [] };
  let from = -1;
  for (;;) {
    const blank = match(BLANKS, command, at);
    at += blank.length;
    const word = match(PLAIN_WORD, command, at);
    if (word && stage.redirects.length === 0) {
      if (from < 0) from = at;
      stage.words.push(word);
      at += word.length;
      stage.text = command.slice(from, at);
      continue;
    }
    // a redirection needs a blank before it (`2>f` names a descriptor) and a command to belong to
    const op = command.startsWith('>>', at) ? '>>' : command.startsWith('>', at) ? '>' : '';
    if (!op || !blank || stage.words.length === 0) break;
    at += op.length;
    at += match(BLANKS, command, at).length;
    const target = match(PLAIN_WORD, command, at);
    if (!target) return undefined;
    stage.redirects.push({ op, target });
    at += target.length;
  }
  const name = stage.words[0];
  return name && COMMAND_NAME.test(name) && !NOT_A_COMMAND.has(name) ? { stage, end: at } : undefined;
}

/**
 * Reads `command` as a pipeline of simple commands made of plain words, each optionally followed by
 * `> file` / `>> file` redirections; undefined for anything else (quotes, expansions, lists, `&`,
 * descriptors, heredocs, a newline …), which the grammar must read.
 */
function plainPipeline(command: string): PlainStage[] | undefined {
  const stages: PlainStage[] = [];
  for (let at = 0; ; at++) {
    const read = plainStage(command, at);
    if (!read) return undefined;
    stages.push(read.stage);
    at = read.end;
    if (at === command.length) return stages;
    if (command[at] !== '|' || command[at + 1] === '|') return undefined;
  }
}

/**
 * The analysis of a plain pipeline (plainPipeline), by the same rules the grammar's walk applies to
 * the same words; undefined when the command is not one, or runs nested code (`bash -c`, eval).
 * Exported for the tests that hold it equal to parsedAnalysis.
 */
export function plainAnalysis(command: string): BashAnalysis | undefined {
  const stages = plainPipeline(command);
  if (!stages) return undefined;
  const writes: BashWrite[] = [];
  const background: string[] = [];
  const nested: string[] = [];
  let readOnly = true;
  // a folder change is followed by the grammar's walk
  if (stages.some((s) => CHDIR.has(path.basename(peel(s.words).words[0] ?? '')) || peel(s.words).elsewhere)) return undefined;
  for (const s of stages) {
    inspectWords(s.words, writes, nested);
    const cmd = path.basename(s.words[0]!);
    if (!readsOnly(cmd, s.words.slice(1))) readOnly = false;
    if (detaches(cmd, s.words.slice(1))) background.push(s.text.slice(0, 200));
    for (const r of s.redirects) redirectWrite(r.op, r.target, writes);
  }
  if (nested.length > 0) return undefined;
  return withGlobs({ writes, parseError: false, background, readOnly: readOnly && writes.length === 0 && nestedNone(command) });
}

export async function analyzeBash(command: string): Promise<BashAnalysis> {
  if (plainReadOnly(command)) return { writes: [], parseError: false, background: [], readOnly: true };
  // the common plain commands (`echo x > f`, `mkdir -p out`) are read without loading the grammar
  const a = plainAnalysis(command) ?? (await parsedAnalysis(command));
  const unread = setsUnreadCode(command);
  if (unread) a.writes.push({ what: command.slice(0, 160), targets: null, refuse: unread === 'TAPE' ? 'TAPE names the archive tar writes without -f, unread by the guard: name it with tar -f FILE' : `setting ${unread} makes bash (or the program it is set for) run code the write guard never reads: run the commands themselves` });
  // the guard expands words as bash does by default: options that change that make its reading wrong
  // (red team adv49: `set +B` keeps `{q..q}` literal, nullglob drops a pattern and shifts cp's operands,
  // nocaseglob and extglob match what the guard's matcher does not)
  const expansion = EXPANSION_OPTIONS.exec(unquoted(command));
  if (expansion) a.writes.push({ what: command.slice(0, 160), targets: null, refuse: `${expansion[0].trim()} changes how bash expands words, which the write guard reads as bash does by default: run the command without it` });
  const joined = joinedWord(command);
  if (joined) a.writes.push({ what: joined, targets: null, refuse: 'a backslash at the end of a line inside a word joins the next line to it, which the write guard reads as two words: write the word on one line (a line continuation goes after a blank)' });
  return a;
}

/** Characters that end a word (besides blanks). */
const WORD_END = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>']);

/**
 * A backslash-newline inside a word, outside quotes (inside double quotes the guard reads it as bash does): bash removes the pair and reads one word
 * (`d\⏎/../x` is `d/../x`), where the grammar reads two (red team adv59 hid a write's real path,
 * and a command's name, `se\⏎d`); the text around it, or undefined. A line continuation after a
 * blank, or before one, reads the same both ways.
 */
export function joinedWord(command: string): string | undefined {
  if (!command.includes('\\\n')) return undefined;
  let quote: '' | "'" | '"' | '$' = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      continue;
    }
    if (quote === '$') {
      if (c === '\\') i++;
      else if (c === "'") quote = '';
      continue;
    }
    if (c === '\\') {
      if (quote === '' && command[i + 1] === '\n' && i > 0 && !WORD_END.has(command[i - 1]!) && i + 2 < command.length && !WORD_END.has(command[i + 2]!)) return command.slice(Math.max(0, i - 40), i + 40);
      i++;
    } else if (c === '"') quote = quote === '"' ? '' : '"';
    else if (quote === '' && c === "'") quote = "'";
    else if (quote === '' && c === '$' && command[i + 1] === "'") {
      quote = '$';
      i++;
    }
  }
  return undefined;
}

/**
 * A target written as a pattern is judged by the folder it can match in and what it matches there
 * (red team adv48: `>> /root/.bashr?`, `>> /tmp/w/hl_[a]` were judged only by where the command ran).
 */
function withGlobs(a: BashAnalysis): BashAnalysis {
  for (const w of a.writes) {
    const globs = w.targets?.filter((t) => UNKNOWN.test(t)) ?? [];
    if (globs.length === 0) continue;
    const rest = w.targets!.filter((t) => !UNKNOWN.test(t));
    w.globs = globs;
    w.targets = rest.length > 0 ? rest : null;
  }
  return a;
}

/** `set +B`, `set -f`, `set -o noglob`, `shopt -s` one of EXPANSION_SHOPTS. */
const EXPANSION_OPTIONS = new RegExp(String.raw`(?:^|[\s;&|(])(?:set\s+(?:[^;&|\n]*\s)?(?:\+[a-zA-Z]*B|-[a-zA-Z]*f\b|[-+]o\s+(?:braceexpand|noglob))|shopt\s+[^;&|\n]*\b(?:${EXPANSION_SHOPTS})\b)`);

/** A command's text with its quotes and backslashes taken out: `set -o phys""ical` reads as `set -o physical`. */
const unquoted = (command: string): string => command.replace(/["'\\]/g, '');

/**
 * A variable or builtin that makes bash run code no parser sees (red team adv38: `BASH_ENV=cd.sh bash
 * -c …`, `BASH_CMDS[cat]=/usr/bin/tee`; adv39 set BASH_ENV by `read` and `export`): named at all, or
 * ENV/PS4 assigned, or `enable -f`. Which one, or undefined.
 */
function setsUnreadCode(command: string): string | undefined {
  const bare = unquoted(command);
  // (TAPE names the archive tar writes without -f: red team adv45)
  // (LESS holds options, `+!CMD` among them; LESSKEYIN and the others name a lesskey file whose #env sets LESSOPEN: red team adv70)
  const m = /\b(BASH_ENV|PROMPT_COMMAND|BASH_CMDS|BASH_ALIASES|BASH_LOADABLES_PATH|SHELLOPTS|BASHOPTS|BASH_XTRACEFD)\b|\b(BASH_FUNC_)|(?:^|[\s;&|(])(TAPE|LESS|LESSKEY(?:IN)?(?:_SYSTEM)?|LESSKEY_CONTENT)\+?=|\bexport\b[^;&|\n]*\b(LESS|LESSKEY(?:IN)?(?:_SYSTEM)?|LESSKEY_CONTENT)\b/.exec(bare)
    ?? /(?:^|[\s;&|(`])(ENV|PS4)(?:\[[^\]]*\])?\+?=|\b(?:export|read|declare|typeset|local|readonly|mapfile)\b[^;&|\n]*\b(ENV|PS4)\b|\bprintf\s+-v\s*(ENV|PS4)\b|(?:^|[\s;&|(])enable\s+(?:-[a-zA-Z]*\s+)*-[a-zA-Z]*f/.exec(bare);
  if (m) return m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? 'enable -f';
  // a variable a program runs as a command, set where its value is not written beside it: `read`, `for`,
  // `printf -v`, `mapfile`, `getopts`, or `+=` (red team adv42)
  const runs = new RegExp(`\\b(?:read|readarray|mapfile|getopts|for|select)\\b[^;&|\\n]*\\b(${RUNS_VALUE_NAMES})\\b|\\bprintf\\s+(?:-[a-zA-Z]+\\s+)*-v\\s*(${RUNS_VALUE_NAMES})\\b|(?:^|[\\s;&|(])(${RUNS_VALUE_NAMES})\\+=`).exec(bare);
  return runs ? runs[1] ?? runs[2] ?? runs[3] : undefined;
}

/** The parts of a program that run one after another, in order: its statements, and the sides of a list (`a && b`, `a || b`, `a; b`). */
function inOrder(n: Node): Node[][] {
  if (n.type === 'program' || n.type === 'list') return n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment').flatMap(inOrder);
  // `a && b > f`: the grammar hangs the redirection on the list, bash on its last command
  const body = n.type === 'redirected_statement' ? n.childForFieldName('body') : null;
  if (body?.type === 'list') {
    const parts = inOrder(body);
    parts[parts.length - 1]!.push(...n.namedChildren.filter((c): c is Node => c !== null && c.id !== body.id));
    return parts;
  }
  // `a && b | c`: the grammar reads (a && b) | c, bash runs a && (b | c) — the list's parts in order,
  // the pipeline's other stages beside its last one (agent trial tr121: `rm -rf X && mkdir X && git
  // archive HEAD | tar -x -C X && pytest 2>&1 | tail -3; …` was judged as one part)
  const first = n.type === 'pipeline' ? n.namedChildren[0] : null;
  if (first && endsInList(first)) {
    const parts = inOrder(first);
    parts[parts.length - 1]!.push(...n.namedChildren.filter((c): c is Node => c !== null && c.id !== first.id));
    return parts;
  }
  return [[n]];
}

/** The simple command a redirection is written on: the last one of a list or pipeline it hangs on. */
function redirectedCommand(redirect: Node): Node | null {
  let n = redirect.parent?.type === 'redirected_statement' ? redirect.parent.childForFieldName('body') : null;
  while (n && (n.type === 'list' || n.type === 'pipeline')) n = n.lastNamedChild;
  return n?.type === 'command' ? n : null;
}

/** The analysis by the bash grammar: every command, however written. */
export async function parsedAnalysis(command: string): Promise<BashAnalysis> {
  const p = await bashParser();
  const writes: BashWrite[] = [];
  const background: string[] = [];
  let parseError = false;
  let readOnly = true;
  // the folder the shell is in at this point of the walk ('' where it starts, null unknown): the
  // best guess for a write found here; every folder it reaches is kept too, because the grammar
  // places some redirections and pipelines differently from bash (`cd x && a > f | b`)
  let dir: string | null = '';
  const reached = new Set<string | null>();
  const cdAnywhere = /CDPATH|cdable_vars/.test(command) || !!process.env.CDPATH;
  const move = (to: string | null) => {
    dir = to;
    reached.add(to);
  };
  // `cd -P`, `set -P`, `set -o physical`, `shopt -so physical`: a `..` in cd's folder goes up from
  // where a link led, which the text cannot tell (red team adv35: `cd -P /tmp/w/R/..` with R → /root
  // is /root); so does a plain `cd` whose folder, read as text, is not there (bash then falls back to
  // the physical path: adv36 `cd L/../root`), and a `cd ..` after a physical cd (adv36)
  // (read with quotes and backslashes taken out, and any `set` whose options an expansion builds taken
  // as physical: `set -$x`, `set -o phys""ical` — red team adv37)
  const bare = unquoted(command);
  let physical = /(?:^|[\s;&|(])set\s+(?:[^;&|\n]*\s)?(?:-[a-zA-Z]*P|-[a-zA-Z]*\$|\$)|\bphysical\b/.test(bare);
  // `shopt -s lastpipe`: the last stage of a pipeline runs in the shell itself, its cd too
  const lastpipe = /\blastpipe\b/.test(bare);
  const chdir = (cmd: string, args: string[]) => {
    const operands = args.filter((a) => !/^-[LPe@]*$/.test(a) || a === '-');
    const to = operands[0];
    const flagP = args.some((a) => /^-[LPe@]*P[e@]*$/.test(a));
    if (lastpipe) {
      move(null);
      return;
    }
    const names = to?.split('/') ?? [];
    // `..` after a name (`a/..`): where it leads depends on what `a` is; leading `..` are the folder's own parents
    const upAfterName = names.some((n, i) => n === '..' && names.slice(0, i).some((m) => m !== '..' && m !== '.' && m !== ''));
    const unknowable = (physical || flagP) ? names.includes('..') : upAfterName;
    if (flagP) physical = true;
    // (`pushd +1`/`-1` rotate the stack back to an earlier folder: red team adv46)
    if (cmd === 'popd' || to === undefined || operands.length > 1 || to === '-' || (cmd === 'pushd' && /^[+-]\d+$/.test(to)) || UNKNOWABLE.test(to) || unknowable) move(null);
    else if (path.posix.isAbsolute(to)) move(path.posix.normalize(to));
    // with CDPATH or cdable_vars a relative cd may go anywhere (red team adv26: `CDPATH=/ cd root`)
    else if (cdAnywhere) move(null);
    else move(dir === null ? null : path.posix.join(dir || '.', to));
  };
  /** the writes found since `from` are written in the current folder */
  const placed = (from: number) => {
    if (dir !== '') for (let i = from; i < writes.length; i++) if (writes[i]!.dir !== null) writes[i]!.dir = dir;
  };
  const visit = async (source: string, depth: number, at: string | null, fed = false) => {
    dir = at;
    if (depth > 3) {
      writes.push({ what: 'deeply nested shell', targets: null });
      return;
    }
    const tree = p.parse(source);
    if (!tree) {
      parseError = true;
      return;
    }
    try {
      if (tree.rootNode.hasError) parseError = true;
      // (the variables whose values the line itself shows cannot start with `-`)
      const known: KnownVariables = knownVariables(tree.rootNode);
      const nested: { code: string; dir: string | null; fed?: boolean }[] = [];
      // (code run where this line feeds its input: a pipe into it, a redirection, a here-doc)
      // (any input the line gives: `exec <F` however exec is spelt — `\exec`, `command exec` — or a
      // function's call `f <F` feeds what runs after it or inside it: red team adv68)
      const lineFeeds = tree.rootNode.descendantsOfType(['file_redirect', 'heredoc_redirect', 'herestring_redirect']).some((r) => r !== null && givesInput(r));
      const fedAt = (x: Node) => fed || lineFeeds || stdinFed(x);
      const walk = (n: Node) => {
        const from = writes.length;
        if (n.type === 'file_redirect') {
          inspectRedirect(n, writes);
          placed(from);
          const body = redirectedCommand(n);
          if (body && depth === 0) for (let k = from; k < writes.length; k++) writes[k]!.cmd ??= body.startIndex;
        } else if (n.type === 'command') {
          const name = n.childForFieldName('name');
          // words written after a redirection are the command's too: the grammar hangs them on the
          // redirection (`tee > /dev/null F` writes F — red team adv47)
          // (a redirection after a pipeline or a list hangs on the whole: its words are the last command's)
          let holder: Node = n;
          while (holder.parent && (holder.parent.type === 'pipeline' || holder.parent.type === 'list') && holder.parent.lastNamedChild?.id === holder.id) holder = holder.parent;
          const after = holder.parent?.type === 'redirected_statement' && holder.parent.childForFieldName('body')?.id === holder.id
            ? holder.parent.childrenForFieldName('redirect').filter((r) => r?.type === 'file_redirect').flatMap((r) => r!.childrenForFieldName('destination').slice(1)).filter((d) => d !== null)
            : [];
          // (brace expansion first, as bash does: `{rm,-rf,/root/x}` is rm given -rf and /root/x — red team adv48)
          const nameWords = name ? expandedWords(name) : [];
          const args = [...nameWords.slice(1), ...[...n.childrenForFieldName('argument'), ...after].flatMap((a) => expandedWords(a!))];
          const nameText = nameWords[0] ?? '';
          if ([...nameWords, ...args].includes(BRACE_OVERFLOW)) writes.push({ what: n.text.slice(0, 120), targets: null, refuse: `a brace expansion of more than ${MAX_BRACE_WORDS} words, or one the guard cannot read: write the words out` });
          const cmd = name ? path.basename(nameText) : '';
          // `GIT_PAGER='cmd' git log`: the value is a command git runs
          nested.push(...codeOfAssignments(assignmentsOf(n)).map((code) => ({ code, dir, fed: fedAt(n) })));
          // `npm_config_userconfig=F npm …`, `GOCACHE=D go build`, `CARGO_TARGET_DIR=D cargo build`: a
          // variable naming where the program writes is judged as a path given to it (red team adv46)
          const placesOut = assignmentsOf(n).flatMap((a) => (WRITES_WHERE_NAMED.test(a.slice(0, a.indexOf('='))) ? givenWords(a.slice(a.indexOf('=') + 1).split(/\s+/)) : []));
          if (placesOut.length > 0) writes.push({ what: n.text.slice(0, 160), targets: placesOut, given: true });
          const peeled = peel([nameText, ...args]);
          // `env -C DIR …`, `sudo -D DIR …`: that one command runs elsewhere
          if (peeled.elsewhere) move(null);
          const code: string[] = [];
          // (the words an expansion helps build: a program text among them is not what the guard reads)
          const built = [...n.childrenForFieldName('argument'), ...after].filter((a): a is Node => a !== null && expands(a));
          // (a quoted word is no pattern: `git ls-files '*.js'` gives git the text *.js, which no file name replaces — red team adv78)
          const argNodes = [...n.childrenForFieldName('argument'), ...after].filter((a): a is Node => a !== null);
          const quoted = (a: Node) => a.type === 'raw_string' || (a.type === 'string' && !expands(a));
          const unquoted = new Set(argNodes.filter((a) => !quoted(a)).flatMap((a) => expandedWords(a)));
          const expanded = {
            all: new Set(built.flatMap((a) => expandedWords(a))), firstKnown: new Set(built.filter((a) => firstKnown(a, known)).flatMap((a) => expandedWords(a))),
            literal: new Set(argNodes.filter(quoted).flatMap((a) => expandedWords(a)).filter((w) => !unquoted.has(w))),
          };
          if (name) inspectWords([nameText, ...args], writes, code, expanded);
          nested.push(...code.map((c) => ({ code: c, dir, fed: fedAt(n) })));
          placed(from);
          // (`command cd`, `builtin cd`: the cd they run — red team adv37)
          const run = peeled.words;
          const runCmd = run.length > 0 ? path.basename(run[0]!) : '';
          if (CHDIR.has(runCmd)) chdir(runCmd, run.slice(1));
          // script gives its command a terminal whose input is script's own: fed by the line, an
          // interactive program there (less's `!cmd`, `s FILE`) runs what it is sent (red team adv66)
          if (runCmd === 'script' && fedAt(n) && !writes.slice(from).some((w) => w.refuse)) writes.push({ what: n.text.slice(0, 160), targets: null, refuse: 'script gives its command a terminal that reads the input this line sends it (a pipe, a redirection, a here-doc), where an interactive program runs what it is sent: run script without input (`script -qc CMD /dev/null`, nothing piped in)' });
          // a name built by an expansion may be cd (`$c /elsewhere`)
          if (name && UNKNOWABLE.test(nameText)) move(null);
          // `GIT_PAGER=… git log`, `LESSOPEN=… less`: an environment can make a reader run a program
          if (!readsOnly(cmd, args) || n.children.some((c) => c?.type === 'variable_assignment')) readOnly = false;
          if (detaches(cmd, args)) background.push(n.text.slice(0, 200));
          if (depth === 0) for (let k = from; k < writes.length; k++) writes[k]!.cmd ??= n.startIndex;
        } else if (n.type === 'heredoc_redirect' || n.type === 'process_substitution' || n.type === 'command_substitution') readOnly = false;
        // `[[ 'a[$(cmd)]' -eq 0 ]]`: a subscript in an arithmetic test runs its substitutions (red team adv39);
        // so does a variable that holds one as text, wherever bash evaluates it (`x='y[$(cmd)]'; echo $((x))`,
        // `${x@P}`, a here-string read into it: adv40) — its substitutions are judged where it is set
        else if (n.type === 'test_command' || n.type === 'arithmetic_expansion' || n.type === 'compound_statement' && n.text.startsWith('((') || n.type === 'variable_assignment' || n.type === 'herestring_redirect') {
          const subs = substitutions(n.text);
          nested.push(...subs.map((code) => ({ code, dir, fed: fedAt(n) })));
          if (subs.length > 0 || n.type === 'herestring_redirect') readOnly = false;
        }
        // `export GIT_PAGER='cmd'`, `declare -x EDITOR=cmd`, `GIT_EXTERNAL_DIFF='cmd'; export …`: a value a program will run (RUNS_VALUE)
        if (n.type === 'declaration_command' || (n.type === 'variable_assignments' || (n.type === 'variable_assignment' && n.parent?.type !== 'command' && n.parent?.type !== 'declaration_command'))) {
          nested.push(...codeOfAssignments(assignmentsOf(n)).map((code) => ({ code, dir, fed: fedAt(n) })));
        }
        // command substitutions written as text — quoted, escaped or `$'…'`-encoded — in any word: bash
        // runs them wherever the text is evaluated later (`set -- 'y[$(cmd)]'; echo $(($1))`, a for
        // list, a function's argument, getopts: red team adv41), so they are judged as if they ran
        if (QUOTED.has(n.type) || (n.type === 'word' && n.text.includes('\\'))) {
          const text = unquote(n);
          if (text.includes('$(') || text.includes('`')) {
            const subs = substitutions(text);
            nested.push(...subs.map((code) => ({ code, dir, fed: fedAt(n) })));
            if (subs.length > 0) readOnly = false;
          }
        }
        // a subshell's `cd` ends with it; so does each stage's of a pipeline
        const own = SUBSHELLS.has(n.type) ? dir : undefined;
        for (const c of n.children) {
          if (!c) continue;
          if (c.type === '&') background.push(n.text.slice(0, 200));
          const stage = n.type === 'pipeline' ? dir : undefined;
          if (c.isNamed) walk(c);
          // the grammar reads `cd x && a 2>&1 | b` as (cd x && a 2>&1) | b, where bash runs
          // cd x && (a 2>&1 | b): after such a stage the next one runs where the list ended
          if (stage !== undefined && !endsInList(c)) dir = stage;
        }
        if (own !== undefined) dir = own;
      };
      if (depth === 0) {
        // the parts that run one after another, in order (not a function's body: it runs when called)
        const parts = inOrder(tree.rootNode);
        // (what the walk of the program and its lists would see: a part sent to the background)
        const lists = [tree.rootNode, ...tree.rootNode.descendantsOfType('list').filter((l): l is Node => l !== null && parts.some((x) => x[0]!.parent?.id === l.id))];
        for (const l of lists) if (l.children.some((c) => c?.type === '&')) background.push(l.text.slice(0, 200));
        for (const [i, part] of parts.entries()) {
          const from = writes.length;
          part.forEach(walk);
          // (a process substitution runs beside the rest and may outlive its part: red team adv51 wrote from
          // `true <(sleep 1; echo >> D2/L/x)` after a later `cp -a D D2` made the link)
          const later = (x: Node) => x.type === 'function_definition' || x.type === 'process_substitution' || x.descendantsOfType(['function_definition', 'process_substitution']).length > 0;
          if (parts.length > 1 && !part.some(later)) for (let k = from; k < writes.length; k++) writes[k]!.step = i;
        }
      } else walk(tree.rootNode);
      for (const inner of nested) await visit(inner.code, depth + 1, inner.dir, inner.fed);
    } finally {
      tree.delete();
    }
  };
  await visit(command, 0, '');
  // (which command a write belongs to matters only among parts that run in order)
  if (!writes.some((w) => w.step !== undefined)) for (const w of writes) delete w.cmd;
  const moved = reached.size > 0 ? { reached: ['', ...reached] } : {};
  return withGlobs({ writes, parseError, background, readOnly: readOnly && !parseError && writes.length === 0 && nestedNone(command), ...moved });
}

/** Does a command get its input from its line: a later stage of a pipeline, or under an input redirection, a here-doc or a here-string? */
function stdinFed(n: Node): boolean {
  // (the grammar hangs a here-string on the command itself)
  if (n.children.some((r) => r !== null && givesInput(r))) return true;
  for (let a: Node = n; a.parent; a = a.parent) {
    const p = a.parent;
    // a function's body gets whatever its call is given
    if (p.type === 'function_definition') return true;
    if (p.type === 'pipeline' && p.namedChild(0)?.id !== a.id) return true;
    if (p.type === 'redirected_statement' && p.children.some((r) => r !== null && givesInput(r))) return true;
  }
  return false;
}

/** A redirection of standard input (`<`, `<&`, `<>`, `0<`, a here-doc, a here-string). */
function givesInput(r: Node): boolean {
  if (r.type === 'heredoc_redirect' || r.type === 'herestring_redirect') return true;
  if (r.type !== 'file_redirect') return false;
  const fd = r.children.find((c) => c?.type === 'file_descriptor')?.text;
  const op = r.children.find((c) => c !== null && !c.isNamed)?.text ?? '';
  // (from /dev/null it gives nothing)
  return op.startsWith('<') && (fd === undefined || fd === '0') && r.childForFieldName('destination')?.text !== '/dev/null';
}

/** A pipeline stage that the grammar made of a whole list (`a && b 2>&1` before a `|`). */
function endsInList(n: Node): boolean {
  return n.type === 'list' || (n.type === 'redirected_statement' && n.childForFieldName('body')?.type === 'list');
}

/** A command (its name's basename and its arguments) that only reads: a known reader, or a git read. */
function readsOnly(cmd: string, args: string[]): boolean {
  // rg --pre runs a program on every file it searches
  // (and less with a terminal copies its input to `-O F`: red team adv66)
  return (READERS.has(cmd) && !(cmd === 'rg' && args.some((a) => a.startsWith('--pre'))) && programOutputs(cmd, args).length === 0 && lessSettings(cmd, args) === undefined && setsClock(cmd, args) === undefined) || (cmd === 'git' && isGitRead(args));
}

/** `git status`, `git log` …: a git command that only reads (config, remote, branch and tag can write) */
function isGitRead(args: string[]): boolean {
  const sub = gitSubcommand(args);
  return !!sub && !gitConfigured(args) && gitSubReads(args) && !['config', 'remote', 'fetch', 'branch', 'tag', 'reflog'].includes(sub) && outputFiles('git', args).length === 0;
}

function nestedNone(command: string): boolean {
  return !/\b(bash|sh|zsh|dash|ksh|eval|source)\b|(^|[;&|]\s*)\.\s/.test(command);
}

function inspectRedirect(n: Node, writes: BashWrite[]): void {
  const dest = n.childForFieldName('destination');
  const op = n.children.filter((c) => c && !c.isNamed).map((c) => c!.text).join('');
  // (brace-expanded as bash does a redirection's word: `>> /tmp/w/{L..L}/x` is one word — red team adv49)
  if (dest) for (const target of expandedWords(dest)) redirectWrite(op, target === BRACE_OVERFLOW ? '/' : target, writes);
}

/** The write of a redirection `op target` (none for input, descriptor duplication, /dev/null …). */
function redirectWrite(op: string, target: string, writes: BashWrite[]): void {
  if (!op.includes('>')) return; // input redirection
  if (op.includes('&') && /^\d+$|^-$/.test(target)) return; // 2>&1: duplicating a descriptor
  if (HARMLESS_DEST.has(target)) return;
  writes.push({ what: `redirection ${op} ${target}`, targets: named([target]) });
}

/** The `NAME=value` assignments a command or a declaration (`export …`) holds, as bash reads them. */
function assignmentsOf(n: Node): string[] {
  return (n.type === 'variable_assignment' ? [n] : n.namedChildren.filter((c) => c?.type === 'variable_assignment')).map((c) => {
    const value = c!.childForFieldName('value');
    return `${unquote(c!.childForFieldName('name') ?? c!)}=${value ? unquote(value) : ''}`;
  });
}

/** Words whose text is literal until bash evaluates it again. */
const QUOTED = new Set(['raw_string', 'ansi_c_string', 'translated_string', 'string']);
