/** Shells run as commands: how each is told what to run, and the options that change how it expands words. */
import { SHELLS, EVALUATES_SUBSCRIPTS } from './kinds.js';
import { type Command } from './context.js';
import { ansiC, substitutions, unreadCode } from './shell-text.js';
import { type GivenOption, getopt, isLong, lastGiven } from '../getopt.js';
import { HARMLESS_DEST, named } from './words.js';

/** The shopt options that change what a pattern matches beyond what the guard's matcher takes (globstar, dotglob and failglob only widen or stop it). */
export const EXPANSION_SHOPTS = 'nullglob|nocaseglob|extglob|nocasematch';

/** The same given to a shell as its own options: `bash -O extglob`, `+B`, `-f`, `-o noglob`. */
export const SHELL_EXPANSION_OPTION = new RegExp(String.raw`^-O(?:${EXPANSION_SHOPTS})$|^\+[a-zA-Z]*B|^-[a-zA-Z]*f|^[-+]o(?:noglob|braceexpand)$`);

/** util-linux script's options that take a value; of them, those that name a log it writes */
const SCRIPT_VALUES = { short: 'cEBIOTmo', long: ['command', 'echo', 'log-io', 'log-in', 'log-out', 'log-timing', 'logging-format', 'output-limit'] };
const SCRIPT_LOGS = new Set(['B', 'I', 'O', 'T', 'log-io', 'log-in', 'log-out', 'log-timing']);

/**
 * script's command line as its getopt reads it: `-t`/`--timing` take a file only joined to them
 * (`-tF`, `--timing=F`: an optional value), so in `-qtc` the c is the timing file, not -c (red team
 * adv64 piped commands into the shell of `script -q -tc FILE`). Its options, its operands (the
 * typescript) and the timing files.
 */
function scriptLine(args: readonly string[]): { options: GivenOption[]; operands: string[]; timing: string[] } {
  const timing: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const long = /^--([\w-]+)(?:=(.*))?$/s.exec(a);
    if (long && long[1]!.length > 1 && isLong(long[1]!, ['timing'])) {
      if (long[2] !== undefined) timing.push(long[2]);
      continue;
    }
    // a bundle up to its t: the letters before it are flags unless one takes a value (the rest is then that value)
    const bundle = /^-([a-zA-Z]*?)t(.*)$/s.exec(a);
    if (bundle && !a.startsWith('--') && ![...bundle[1]!].some((l) => SCRIPT_VALUES.short.includes(l))) {
      if (bundle[2]) timing.push(bundle[2]);
      if (bundle[1]) rest.push(`-${bundle[1]}`);
      continue;
    }
    rest.push(a);
    // (a value in the next word is no bundle of its own: `-O -tx` logs to "-tx")
    if ((/^-[a-zA-Z]+$/.test(a) && SCRIPT_VALUES.short.includes(a.at(-1)!)) || (a.startsWith('--') && !a.includes('=') && isLong(a.slice(2), SCRIPT_VALUES.long))) if (i + 1 < args.length) rest.push(args[++i]!);
  }
  const { options, operands } = getopt(rest, SCRIPT_VALUES.short, SCRIPT_VALUES.long);
  return { options, operands, timing };
}

/**
 * How a shell (bash, sh, su, sg, script) is told what to run: the code of `-c` — the first operand
 * after its options, which bash lets come after `-c` (`bash -c -e 'code'`, `bash -c -- 'code'`: red team
 * adv39) — its operands, and whether it reads its commands from stdin (no code and no script, or `-s`).
 */
export function shellArgs(cmd: string, args: readonly string[]): { code?: string; operands: string[]; stdin: boolean } {
  // script's options as its getopt reads them: in `-qOc` the c is -O's value, no command (red team adv63
  // had its shell read a here-doc); its operand is the typescript it writes, no script to run
  if (cmd === 'script') {
    const code = lastGiven(scriptLine(args).options, 'c', 'command');
    return { ...(code !== undefined ? { code } : {}), operands: [], stdin: code === undefined };
  }
  const operands: string[] = [];
  let c = false;
  let s = false;
  let codeFromNext = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (codeFromNext) {
      // su -c CMD, script -c CMD, sg GROUP -c CMD: the command is the option's own value
      return { code: a, operands, stdin: false };
    }
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '--command') {
      codeFromNext = true;
      continue;
    }
    if (/^[-+][oO]$/.test(a) || a === '--rcfile' || a === '--init-file' || (cmd === 'su' && /^-[sg]$|^--(shell|group)$/.test(a)) || (cmd === 'script' && /^-[tTIOBE]$/.test(a))) {
      i++; // an option with a value
      continue;
    }
    if (/^--/.test(a)) continue;
    if (/^[-+][a-zA-Z]+$/.test(a)) {
      if (a.startsWith('-') && a.includes('c')) {
        if (cmd === 'su' || cmd === 'sg' || cmd === 'script') codeFromNext = true;
        else c = true;
      }
      if (a.startsWith('-') && a.includes('s') && SHELLS.has(cmd)) s = true;
      continue;
    }
    operands.push(a);
  }
  if (codeFromNext) return { operands, stdin: false };
  if (c) return { code: operands[0] ?? '', operands: operands.slice(1), stdin: false };
  // `bash --version`, `sh --help`: prints and reads nothing (red team adv40's friction)
  if (operands.length === 0 && args.some((a) => a === '--version' || a === '--help')) return { operands, stdin: false };
  // su and sg without -c, script without -c, a shell without a script: a shell on stdin
  return { operands, stdin: s || !SHELLS.has(cmd) || operands.length === 0 };
}

/** `source F`, `. F`: runs a script. */
export function readSource(c: Command): boolean {
  const { cmd, operands, text, writes } = c;
  if (cmd === 'source' || cmd === '.') {
    if (operands.some(unreadCode)) writes.push({ what: text, targets: null, refuse: 'it runs code from a pipe or a process substitution, which the guard cannot read: run the commands themselves' });
    else if (operands.length > 0) writes.push({ what: text, targets: null }); // runs a script: may write anything
    return true;
  }
  return false;
}


/**
 * `script [-c CMD] [FILE]`: the typescript it writes (FILE, else ./typescript) and its logs (`-O F`,
 * `-I F`, `-B F`, `-T F`, `-tF`, `--timing=F`), judged as written (red team adv62: `script -q -c … ~/x`
 * wrote ~/x). What it runs is readShell's.
 */
export function readScriptLog(c: Command): boolean {
  if (c.cmd !== 'script') return false;
  const { operands, options, timing } = scriptLine(c.args);
  const files = [operands[0] ?? 'typescript', ...options.filter((o) => SCRIPT_LOGS.has(o.name) && o.value !== undefined).map((o) => o.value!), ...timing];
  const written = files.filter((f) => !HARMLESS_DEST.has(f));
  if (written.length > 0) c.writes.push({ what: c.text, targets: named(written) });
  return false;
}

/** A shell run as a command (bash, sh, su, script, busybox): its code, its script or its stdin. */
export function readShell(c: Command): boolean {
  const { cmd, args, text, writes, nested, expanded } = c;
  if (SHELLS.has(cmd) || cmd === 'su' || cmd === 'sg' || cmd === 'script' || cmd === 'busybox') {
    if (cmd === 'busybox') {
      // `busybox tee f`: the applet is the command
      c.inspect(args, expanded);
      return true;
    }
    const stdin = 'a shell that reads its commands from stdin (a here-doc, a pipe) runs what the guard cannot read: run the commands themselves, or bash -c \'…\'';
    const sh = shellArgs(cmd, args);
    // the shell's own options that change how it expands words (`bash -O extglob`, `+B`, `-f`: red
    // team adv50), and a shell that is not bash (`sh` may be dash: no brace expansion) given braces
    const opts: string[] = [];
    for (let i = 0; i < args.length && /^[-+]./.test(args[i]!) && args[i] !== '--'; i++) opts.push(/^[-+][oO]$/.test(args[i]!) ? `${args[i]}${args[++i] ?? ''}` : args[i]!);
    // (a shell's own: su's, sg's and script's options are theirs — `script -f` flushes: red team adv63's friction)
    const expansion = SHELLS.has(cmd) ? opts.find((o) => SHELL_EXPANSION_OPTION.test(o)) : undefined;
    if (expansion) writes.push({ what: text, targets: null, refuse: `${cmd} ${expansion} changes how the shell expands words, which the write guard reads as bash does by default: run it without` });
    else if (sh.code !== undefined && cmd !== 'bash' && /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/.test(sh.code)) writes.push({ what: text, targets: null, refuse: `${cmd} may not expand braces as bash does (sh is dash on many systems): write the words out, or run bash -c` });
    else if (sh.code !== undefined) nested.push(sh.code);
    else if (sh.operands.some(unreadCode)) writes.push({ what: text, targets: null, refuse: 'it runs code from a pipe or a process substitution, which the guard cannot read: run the commands themselves' });
    // no command and no script: it reads its commands from stdin (red team adv38: a here-doc; adv39: `bash -o posix <<…`, `… | su`, `script` alone)
    else if (sh.stdin) writes.push({ what: text, targets: null, refuse: stdin });
    else writes.push({ what: text, targets: null }); // runs a script: may write anything
    return true;
  }
  return false;
}

/** `eval`: its words are code. */
export function readEval(c: Command): boolean {
  const { cmd, args, text, writes, nested } = c;
  if (cmd === 'eval') {
    // an expansion evaluated is code the guard cannot read (`eval "$1"`: red team adv38)
    if (args.some((a) => a.includes('$') || a.includes('`'))) writes.push({ what: text, targets: null, refuse: 'eval of an expansion runs code the guard cannot read: run the commands themselves' });
    else nested.push(args.join(' '));
    return true;
  }
  return false;
}

/** `trap`: its action is code that runs later. */
export function readTrap(c: Command): boolean {
  const { cmd, operands, text, writes, nested } = c;
  // a trap's action runs later, unread: written out as code (and a DEBUG or RETURN trap, run before every command, may move the shell: red team adv38)
  if (cmd === 'trap') {
    const action = operands[0];
    if (action !== undefined && operands.slice(1).some((sig) => /^(?:DEBUG|RETURN|ERR)$/i.test(sig))) writes.push({ what: text, targets: null, refuse: 'a DEBUG, RETURN or ERR trap runs before or after every command, unread by the guard: run the commands themselves' });
    else if (action !== undefined && action !== '-' && action !== '') nested.push(action);
    return true;
  }
  return false;
}

/** Builtins that evaluate subscripts and arithmetic strings: their command substitutions. */
export function readSubscripts(c: Command): boolean {
  const { cmd, args, nested } = c;
  // an array subscript or an arithmetic string is evaluated, command substitutions in it run (`test -v 'x[$(cmd)]'`, `let`, `printf -v`, `declare`: red team adv38)
  // (printf decodes `\x24(` into `$(` itself: adv41's `printf -v x 'y[\x24(cmd)]'`)
  if (EVALUATES_SUBSCRIPTS.has(cmd)) for (const a of args) nested.push(...substitutions(cmd === 'printf' ? ansiC(a) : a));
  return false;
}
