/** A command's words: the values of its options, its operands, the paths it is given. */
import os from 'node:os';
import path from 'node:path';
import { isLong, longNames } from '../getopt.js';

export const HARMLESS_DEST = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** a target written with an expansion or a pattern cannot be named before the shell runs */
export const UNKNOWABLE = /[*?`$]|^~/;

/**
 * The targets as the shell will name them: a leading `~`, `$HOME` or `${HOME}` is the user's home
 * (red team adv25: `echo … >> ~/.claude/projects/…/s.jsonl` appended to the client's transcript
 * unjudged); null when any other expansion or pattern leaves one unknown.
 */
export function named(targets: readonly string[]): string[] | null {
  const out: string[] = [];
  for (const t of targets) {
    const home = /^(?:~|"?\$HOME"?(?![\w])|"?\$\{HOME\}"?)(?=\/|$)/.exec(t);
    const x = home ? os.homedir() + t.slice(home[0].length) : t;
    // (a pattern, and a `$` or backtick — a literal one when quoted: `'/root/$/../x'`, red team adv49 —
    // is kept: withGlobs moves it to the write's globs, judged by the folder before it and what it names now)
    if (/^~/.test(x)) return null;
    out.push(x);
  }
  return out;
}

/** The values of a command's options: `-xyL VALUE`, `-LVALUE`, `--long VALUE`, `--long=VALUE` (short letters in `letters`, long names in `long`). */
export function optionValues(args: readonly string[], letters = '', long: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (!isLong(a.slice(2, eq > 0 ? eq : undefined), long)) continue;
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v !== undefined) out.push(v);
    } else if (/^-[a-zA-Z0-9]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        if (!letters.includes(a[j]!)) continue;
        const v = j < a.length - 1 ? a.slice(j + 1) : args[++i];
        if (v !== undefined) out.push(v);
        break;
      }
    }
  }
  return out;
}

/** Builtins and programs whose words name no file they could write (`shopt -s cdable_vars`, `sleep 1`, `kill %1`). */
export const WORDS_NOT_FILES = new Set(['shopt', 'set', 'unset', 'export', 'declare', 'typeset', 'local', 'readonly', 'shift', 'return', 'exit', 'break', 'continue',
  'wait', 'umask', 'ulimit', 'times', 'let', 'read', 'kill', 'sleep', 'jobs', 'bg', 'fg', 'disown', 'help', 'seq', 'yes', 'expr', 'getopts']);

/**
 * The paths a program is given: absolute and home paths anywhere in its words (pathsIn), relative
 * words that go up (`../x`, `-o../x`, `--out=../x`) and, with `all`, every relative word (a program
 * the guard does not know may write any of them; judged from the folder it runs in).
 */
export function givenWords(args: readonly string[], all = false): string[] {
  const out = new Set(args.flatMap(pathsIn));
  for (const a of args) {
    let word = a.startsWith('--') ? (a.includes('=') ? a.slice(a.indexOf('=') + 1) : '') : /^-[a-zA-Z]./.test(a) ? a.slice(2) : a.startsWith('-') ? '' : a;
    // `file:/P`, `txt:/P`, `OPEN:P`: the path after a scheme is given too (`sqlite3 file:/root/x`: red team
    // adv46); a network URL (`scheme://host/…`) is not a path, a file:// one is
    const scheme = /^[a-z][\w+.-]*:(.*)$/i.exec(word);
    if (scheme) {
      const rest = scheme[1]!;
      const file = /^file:\/\/[^/]*(\/[^?#]*)/i.exec(word);
      word = file ? file[1]! : rest.startsWith('//') ? '' : rest.replace(/[?#].*$/, '');
      if (word.startsWith('/') || word.startsWith('~')) out.add(word);
    }
    // (an absolute word is pathsIn's: /dev/null stays harmless — red team adv45's friction)
    if (!word || UNKNOWABLE.test(word) || /^[a-z][\w+.-]*:/i.test(word) || word.startsWith('/') || pathsIn(word).length > 0) continue;
    // (a value fused to its option too: `shuf -oF`, `--out=F` — red team adv45)
    if (word.split('/').includes('..') || all) out.add(word);
  }
  return [...out];
}

/** The absolute or home paths written in a word: the word itself, an option's attached value, or inside it (not a URL's). */
function pathsIn(word: string): string[] {
  const attached = /^-[a-zA-Z](\/.*)$/.exec(word);
  if (attached) return [attached[1]!];
  // (a `/` after a glob character goes on from the folders the glob matches: `tests/**/*.js` is relative — agent trial tr110;
  // a bare `~` is the home folder: `npm --prefix ~ init` — red team adv48)
  return [...word.matchAll(/(?<![\w:/.~*?\]-])(?:~(?:\/?[^\s'"`;|&<>(){}$]+)?|\/(?:\/?[^\s'"`;|&<>(){}$]+))/g)].map((m) => m[0]).filter((p) => p !== '/' && !HARMLESS_DEST.has(p));
}

/** The operands of a command, less the values of its short options in `values` given as the next word (`uniq -f 1 a b`). */
/**
 * The options before a command's first operand (`npx [options] <command> [args]`: what follows the
 * command is the command's own — `npx prettier -c F` is prettier's --check). `letters`/`long`: the
 * options that take a value.
 */
export function leadingOptions(args: readonly string[], letters: string, long: readonly string[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' || !a.startsWith('-') || a === '-') return args.slice(0, i);
    // (a short option taking a value takes the rest of its bundle, else the next word, as getopt reads it)
    const short = a.startsWith('--') ? -1 : [...a.slice(1)].findIndex((c) => letters.includes(c));
    if (a.startsWith('--') ? !a.includes('=') && isLong(a.slice(2), long) : short === a.length - 2) i++;
  }
  return [...args];
}

/**
 * A command's operands as getopt reads its options: the short letters in `values` take the rest of
 * their bundle or the next word (`-nl 5`, `-p1`), the long names in `longValues` their `=VALUE` or
 * the next word (any unambiguous prefix); after `--` every word is an operand.
 */
export function operandsAfter(args: readonly string[], values: string, longValues: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      if (!a.includes('=') && isLong(a.slice(2), longValues)) i++;
    } else if (a.startsWith('-') && a !== '-') {
      // (the first letter that takes a value ends the bundle: with nothing after it, the value is the next word)
      const at = [...a.slice(1)].findIndex((c) => values.includes(c));
      if (at === a.length - 2) i++;
    } else out.push(a);
  }
  return out;
}

/**
 * The value of the last `-L VALUE`, `-LVALUE`, `-xyL VALUE` (a bundle: the rest of it, else the next
 * word), `--long VALUE` or `--long=VALUE` (unzip's `-d DIR`: its options do not follow getopt's rules).
 * null where the value is missing.
 */
export function lastOptionValue(args: readonly string[], letter: string, long: string): string | null | undefined {
  let found: string | null | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    // (a long option by any unambiguous prefix, as getopt_long takes it: `--dir=D` for --directory — red team adv44)
    const eq = a.indexOf('=');
    if (a.startsWith('--') && a.length > 2 && longNames(a.slice(2, eq > 0 ? eq : undefined), long.slice(2))) found = eq > 0 ? a.slice(eq + 1) : args[i + 1] ?? null;
    else if (/^-[a-zA-Z0-9]/.test(a) && !a.startsWith('--') && a.includes(letter)) {
      const rest = a.slice(a.indexOf(letter) + 1);
      found = rest || (args[i + 1] ?? null);
    }
  }
  return found;
}

/** The backups an in-place edit keeps: FILE + suffix, or the suffix with `*` standing for the file's name (in FILE's folder unless the suffix names one). */
export function backupsOf(edited: readonly string[], suffix: string): string[] {
  return edited.map((f) => (suffix.includes('*') ? (suffix.includes('/') ? '' : `${path.posix.dirname(f)}/`) + suffix.replaceAll('*', path.posix.basename(f)) : f + suffix));
}
