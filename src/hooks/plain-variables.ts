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
const PLAIN = new Set(['program', 'list', 'pipeline', 'command', 'command_name', 'word', 'string', 'string_content', 'raw_string', 'concatenation',
  'simple_expansion', 'expansion', 'variable_name', 'for_statement', 'do_group', 'variable_assignment', 'redirected_statement', 'file_redirect',
  'file_descriptor', 'number', 'comment']);

/** Where a variable's value is known not to start with `-`: uses from `start` to `end` (offsets in the line). */
export type KnownVariables = ReadonlyMap<string, { start: number; end: number }>;

const NONE: KnownVariables = new Map();

/** `$v` or `${v}`, nothing more: its variable's name. */
function plainUse(n: Node): string | undefined {
  if (n.type === 'simple_expansion' && n.namedChildCount === 1 && n.namedChild(0)?.type === 'variable_name') return n.namedChild(0)!.text;
  if (n.type === 'expansion' && n.childCount === 3 && n.child(1)?.type === 'variable_name') return n.child(1)!.text;
  return undefined;
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
    if (n.isNamed && !PLAIN.has(n.type)) return NONE;
    if (n.type === 'expansion' && plainUse(n) === undefined) return NONE;
    if (n.type === 'simple_expansion' && plainUse(n) === undefined) return NONE;
    if (n.type === 'command') {
      const name = n.childForFieldName('name');
      if (!name || name.descendantsOfType(['simple_expansion', 'expansion']).length > 0) return NONE;
      const cmd = path.posix.basename(unquote(name));
      if ((BUILTINS.has(cmd) && !SETS_NOTHING.has(cmd)) || KEYWORDS.has(cmd)) return NONE;
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
    // (bash's own variables are upper-case, and some it sets itself before every command: BASH_COMMAND
    // holds the command's text — red team adv64 — RANDOM, SECONDS, LINENO, PWD …; a name with a
    // lower-case letter is the line's own)
    if (!/[a-z]/.test(n.childForFieldName(n.type === 'for_statement' ? 'variable' : 'name')?.text ?? '')) continue;
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

/**
 * A word whose first character is known though an expansion builds it: in double quotes (unquoted,
 * its value is split — at blanks, or wherever IFS says), starting with `$v` or `${v}` where v is
 * known (knownVariables) there: `for f in lib/*.js; do sed -n 1p "$f"; done` (red team adv60's
 * friction). Its value is then no option.
 */
export function firstKnown(word: Node, known: KnownVariables): boolean {
  const quoted = word.type === 'string' ? word : word.type === 'concatenation' && word.child(0)?.type === 'string' ? word.child(0)! : null;
  const use = quoted && quoted.childCount >= 3 ? quoted.child(1) : null;
  const name = use ? plainUse(use) : undefined;
  const range = name === undefined ? undefined : known.get(name);
  return range !== undefined && word.startIndex >= range.start && word.endIndex <= range.end;
}
