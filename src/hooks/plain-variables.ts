/**
 * Variables whose value cannot start with `-` in a command line made only of plain parts: the grammar
 * decides, by what the line is made of, not by how a setter is spelt (red team adv62 set a loop's
 * variable with `f[0]=`, `select`, `eval f\=…`, `${!f}` and brace expansion, all past a list of setters).
 */
import type { Node } from 'web-tree-sitter';
import path from 'node:path';
import { unquote } from './commands/shell-text.js';

/** bash's builtins: a command of one of these names may set a shell variable (`read`, `printf -v`, `eval`, `declare -n`, `wait -p` …); a program cannot. */
const BUILTINS = new Set(['.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete', 'compopt', 'continue',
  'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg', 'getopts', 'hash', 'help', 'history', 'jobs', 'kill',
  'let', 'local', 'logout', 'mapfile', 'popd', 'printf', 'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source',
  'suspend', 'test', 'times', 'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait']);
/**
 * bash's reserved words that the grammar may read as a command's name: `time f=-o/x` and `coproc f=…`
 * are assignments in bash, an argument to the grammar (red team adv63)
 */
const KEYWORDS = new Set(['time', 'coproc', 'function', 'select', 'case', 'esac', 'if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', 'for', 'in', '!', '{', '}', '[[', ']]']);
/** builtins that set no variable of the line's (their words' expansions are held to the plain forms all the same) */
const SETS_NOTHING = new Set(['echo', 'true', 'false', 'pwd', 'cd', ':']);

/**
 * The named nodes a plain line is made of: simple commands, lists, pipelines, redirections, words,
 * `$v` and `${v}`, assignments and for loops. Anything else (a function, a subshell, a command
 * substitution, arithmetic, `[[ ]]`, `${v:=x}`, a here-string, case, select …) may set a variable
 * the guard does not follow.
 */
// (if/elif/else run commands and set nothing; an assignment in a branch runs only sometimes: unconditional() — red team adv66's friction)
const PLAIN = new Set(['program', 'list', 'pipeline', 'command', 'command_name', 'word', 'string', 'string_content', 'raw_string', 'concatenation',
  'simple_expansion', 'expansion', 'variable_name', 'for_statement', 'do_group', 'variable_assignment', 'redirected_statement', 'file_redirect',
  'file_descriptor', 'number', 'comment', 'if_statement', 'elif_clause', 'else_clause', 'regex']);

/**
 * `${v%pat}`, `${v##pat}`, `${v/a/b}`, `${v:-x}`, `${v^^}` …: they change no variable (`${v:=x}`
 * assigns, `${v:1:2}` and a subscript evaluate arithmetic that may, `${v@P}` runs what the value holds).
 */
const TRIMS = new Set(['%', '%%', '#', '##', '/', '//', '/#', '/%', '^', '^^', ',', ',,', ':-', '-', ':+', '+']);
/** Of TRIMS, those that keep the value's first character, or leave nothing: a suffix taken off. */
const SUFFIX_TRIMS = new Set(['%', '%%']);
/**
 * bash's own variables (the manual's list): bash sets some itself before every command (BASH_COMMAND
 * holds the command's text — red team adv64 —, LINENO, RANDOM, SECONDS, `_` the last word), others
 * change what it does; a variable of any other name holds what the line assigns it (`FILE=…`: adv66's friction).
 */
const BASH_VARIABLES = new Set(['_', 'BASH', 'BASHOPTS', 'BASHPID', 'CDPATH', 'CHILD_MAX', 'COLUMNS', 'COMPREPLY', 'COPROC', 'DIRSTACK', 'EMACS', 'ENV',
  'EPOCHREALTIME', 'EPOCHSECONDS', 'EUID', 'EXECIGNORE', 'FCEDIT', 'FIGNORE', 'FUNCNAME', 'FUNCNEST', 'GLOBIGNORE', 'GLOBSORT', 'GROUPS', 'histchars',
  'HOME', 'HOSTFILE', 'HOSTNAME', 'HOSTTYPE', 'IFS', 'IGNOREEOF', 'INPUTRC', 'INSIDE_EMACS', 'LANG', 'LINENO', 'LINES', 'MACHTYPE', 'MAIL', 'MAILCHECK',
  'MAILPATH', 'MAPFILE', 'OLDPWD', 'OPTARG', 'OPTERR', 'OPTIND', 'OSTYPE', 'PATH', 'PIPESTATUS', 'POSIXLY_CORRECT', 'PPID', 'PROMPT_COMMAND',
  'PROMPT_DIRTRIM', 'PS0', 'PS1', 'PS2', 'PS3', 'PS4', 'PWD', 'RANDOM', 'REPLY', 'SECONDS', 'SHELL', 'SHELLOPTS', 'SHLVL', 'SRANDOM', 'TIMEFORMAT',
  'TMOUT', 'TMPDIR', 'UID']);
const bashOwn = (name: string): boolean => BASH_VARIABLES.has(name) || /^(?:BASH_|COMP_|READLINE_|HIST|LC_)/.test(name) || !/[A-Za-z]/.test(name);

/** Where a variable's value is known not to start with `-`: uses from `start` to `end` (offsets in the line). */
export type KnownVariables = ReadonlyMap<string, { start: number; end: number }>;

const NONE: KnownVariables = new Map();

/** `$v` or `${v}`, nothing more: its variable's name. */
function plainUse(n: Node): string | undefined {
  if (n.type === 'simple_expansion' && n.namedChildCount === 1 && n.namedChild(0)?.type === 'variable_name') return n.namedChild(0)!.text;
  if (n.type === 'expansion' && n.childCount === 3 && n.child(1)?.type === 'variable_name') return n.child(1)!.text;
  return undefined;
}

/** `${v%pat}` and the other TRIMS of one variable (the operator as written), or undefined. */
function trimmed(n: Node): { name: string; op: string } | undefined {
  if (n.type !== 'expansion' || n.child(1)?.type !== 'variable_name') return undefined;
  const op = n.child(2);
  if (!op || op.isNamed || !TRIMS.has(op.type)) return undefined;
  // (one operator: `${v/a/b}` has a second `/`; a pattern with `$` or a backquote may run code the grammar leaves as text: `${v%$(cmd)}`)
  const ops = n.children.filter((c) => c !== null && !c.isNamed && c.type !== '${' && c.type !== '}');
  if (ops.some((c, i) => i > 0 && !(op.type.startsWith('/') && c.type === '/'))) return undefined;
  if (n.children.some((c) => c?.type === 'regex' && /[$`\\]/.test(c.text))) return undefined;
  return { name: n.child(1)!.text, op: op.type };
}

/** test's operators of one operand and of two, that evaluate no subscript (`-v` and `-R` do: `-v 'a[f=-o/x]'` sets f). */
const TEST_UNARY = new Set(['-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x', '-G', '-L', '-N', '-O', '-S', '-n', '-z']);
const TEST_BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

/**
 * `[ -f "$f" ]`, `test "$a" = "$b"`, with `!` before: a test of one operator written out, whose
 * operands are single words (no unquoted expansion to split into more), sets no variable — bash's test
 * reads -eq's operands as numbers, not arithmetic (red team adv66's friction: any `[` made a loop unknown).
 */
function plainTest(cmd: string, n: Node): boolean {
  if (cmd !== 'test' && cmd !== '[') return false;
  const args = n.childrenForFieldName('argument').filter((a): a is Node => a !== null);
  if (cmd === '[' && args.pop()?.text !== ']') return false;
  return plainTestWords(args);
}

/** The same for `[ … ]` as the grammar reads it (a test_command of expressions): its words in order, or undefined for anything else. */
function bracketWords(n: Node): Node[] | undefined {
  if (n.child(0)?.type !== '[' || n.lastChild?.type !== ']') return undefined;
  const out: Node[] = [];
  const add = (x: Node): boolean => {
    if (x.type === 'unary_expression' || x.type === 'binary_expression') return x.children.every((c) => c !== null && add(c));
    if (OPERAND.has(x.type) || x.type === 'test_operator' || !x.isNamed) {
      out.push(x);
      return true;
    }
    return false;
  };
  return n.children.slice(1, -1).every((c) => c !== null && add(c)) ? out : undefined;
}
const OPERAND = new Set(['word', 'string', 'raw_string', 'concatenation', 'simple_expansion', 'expansion', 'number']);

function plainTestWords(words: Node[]): boolean {
  const args = words[0]?.text === '!' ? words.slice(1) : words;
  const single = (a: Node) => !SPLIT.has(a.type) && !(a.type === 'concatenation' && a.children.some((c) => c !== null && SPLIT.has(c.type)));
  if (!args.every(single)) return false;
  return (args.length === 2 && TEST_UNARY.has(args[0]!.text)) || (args.length === 3 && TEST_BINARY.has(args[1]!.text)) || args.length <= 1;
}

/** A value whose first character is none that makes an option or a pattern's start (and there is one). */
const safeStart = (text: string): boolean => /^[^-*?[~]/.test(text);

/** An assignment that runs whenever what follows it runs: a statement of its own, or the first of an `&&`/`||` list that is. */
function unconditional(n: Node): boolean {
  const p = n.parent;
  if (!p) return false;
  if (p.type === 'program') return true;
  return p.type === 'list' && p.namedChild(0)?.id === n.id && unconditional(p);
}

/**
 * The variables of a plain line (PLAIN) that hold a value that does not start with `-`, and where:
 * a for loop's variable (written `for`, not `select`) inside its body, over words written out (or
 * starting with such a variable in double quotes) none starting with `-` or a wildcard and none
 * with a brace; a variable assigned a word written out, from its assignment on, where the
 * assignment always runs. Each is set once in the line. No builtin that may set a variable runs.
 */
export function knownVariables(root: Node): KnownVariables {
  const sets = new Map<string, number>();
  const setting: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    // (`[ -f "$f" ]`: the grammar reads a test of expressions; its words are held to plainTest's rule)
    const bracket = n.type === 'test_command' ? bracketWords(n) : undefined;
    if (bracket) {
      if (!plainTestWords(bracket)) return NONE;
      for (const w of bracket) if (OPERAND.has(w.type)) stack.push(w);
      continue;
    }
    if (n.isNamed && !PLAIN.has(n.type)) return NONE;
    if (n.type === 'expansion' && plainUse(n) === undefined && trimmed(n) === undefined) return NONE;
    if (n.type === 'simple_expansion' && plainUse(n) === undefined) return NONE;
    if (n.type === 'command') {
      const name = n.childForFieldName('name');
      // (a name bash expands — braces, a pattern, quotes or a backslash — may be any builtin:
      // `""{printf,-v,f,%s,-t/x}` is printf -v f — red team adv68)
      if (!name || !/^(?:[\w./+-]+|\[)$/.test(name.text)) return NONE;
      const cmd = path.posix.basename(unquote(name));
      if ((BUILTINS.has(cmd) && !SETS_NOTHING.has(cmd) && !plainTest(cmd, n)) || KEYWORDS.has(cmd)) return NONE;
    }
    if (n.type === 'for_statement' && n.child(0)?.type !== 'for') return NONE;
    if (n.type === 'variable_assignment' || n.type === 'for_statement') {
      const name = n.childForFieldName(n.type === 'for_statement' ? 'variable' : 'name')?.text ?? '';
      sets.set(name, (sets.get(name) ?? 0) + 1);
      setting.push(n);
    }
    for (const c of n.children) if (c) stack.push(c);
  }
  const known = new Map<string, { start: number; end: number }>();
  // (a word written out, or one that starts with a known variable in double quotes: `"$d"/*.js`)
  const firstSafe = (v: Node): boolean => (v.type === 'simple_expansion' || v.type === 'expansion' || v.descendantsOfType(['simple_expansion', 'expansion']).length > 0
    ? firstKnown(v, known) : safeStart(unquote(v)));
  for (const n of setting.sort((a, b) => a.startIndex - b.startIndex)) {
    // (bash's own variables: BASH_VARIABLES)
    if (bashOwn(n.childForFieldName(n.type === 'for_statement' ? 'variable' : 'name')?.text ?? '')) continue;
    if (n.type === 'for_statement') {
      const name = n.childForFieldName('variable')?.text ?? '';
      const values = n.childrenForFieldName('value').filter((v): v is Node => v !== null);
      const body = n.childForFieldName('body');
      if (sets.get(name) === 1 && body && values.length > 0 && values.every((v) => !v.text.includes('{') && firstSafe(v))) {
        known.set(name, { start: body.startIndex, end: body.endIndex });
      }
    } else {
      const name = n.childForFieldName('name');
      const value = n.childForFieldName('value');
      const plus = n.children.some((c) => c?.type === '+=');
      if (name?.type === 'variable_name' && sets.get(name.text) === 1 && !plus && value && unconditional(n)
        && value.descendantsOfType(['simple_expansion', 'expansion']).length === 0 && safeStart(unquote(value))) {
        known.set(name.text, { start: n.endIndex, end: root.endIndex });
      }
    }
  }
  return known;
}

/** Unquoted parts of a word that bash splits into words (at blanks, or wherever IFS says). */
const SPLIT = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion']);

/**
 * A word whose first character is known though an expansion builds it: in double quotes (unquoted,
 * its value is split — at blanks, or wherever IFS says), starting with `$v` or `${v}` where v is
 * known (knownVariables) there: `for f in lib/*.js; do sed -n 1p "$f"; done` (red team adv60's
 * friction). Its value is then no option.
 */
export function firstKnown(word: Node, known: KnownVariables): boolean {
  // (an unquoted expansion after it is split into more words, which may start with `-`: `"$f"$e` with
  // e=' -t/x' is two words — red team adv66)
  if (word.type === 'concatenation' && word.children.slice(1).some((c) => c !== null && SPLIT.has(c.type))) return false;
  const quoted = word.type === 'string' ? word : word.type === 'concatenation' && word.child(0)?.type === 'string' ? word.child(0)! : null;
  const use = quoted && quoted.childCount >= 3 ? quoted.child(1) : null;
  // (a suffix taken off keeps the first character, or leaves nothing: `"${f%.js}.d.ts"`)
  const trim = use ? trimmed(use) : undefined;
  const name = use ? plainUse(use) ?? (trim && SUFFIX_TRIMS.has(trim.op) ? trim.name : undefined) : undefined;
  const range = name === undefined ? undefined : known.get(name);
  return range !== undefined && word.startIndex >= range.start && word.endIndex <= range.end;
}
