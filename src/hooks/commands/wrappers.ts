/** Wrappers (sudo, env, timeout, xargs …) peeled off a command line, each read as its own getopt reads it. */
import path from 'node:path';
import { isLong } from '../getopt.js';
import { codeOfAssignments } from './assignments.js';

/**
 * Wrappers: commands that run a command given after their own options and operands. How each one
 * reads its options, as getopt does (red team adv40 hid the command behind `timeout --signal KILL`,
 * `sudo -Eu root`, `timeout 1.5`, `flock F -c CODE`): `values`, the short options that take a value
 * (the rest of their bundle, else the next word); `long`, the long ones that do (`--user root` or
 * `--user=root`); `code`/`codeLong`, options whose value is shell code; `output`/`outputLong`,
 * options that name a file the wrapper writes (`strace -o F`, GNU `time -o F`); `chdir`, options that
 * run the command in another folder; `operand`, the wrapper's own operand before the command (a
 * duration, a mask, a lock file) where the next word is one; `joins`: the rest is one line of shell
 * code (`watch CMD…` runs `sh -c 'CMD…'`).
 */
interface Wrapper {
  values?: string;
  long?: readonly string[];
  code?: string;
  codeLong?: readonly string[];
  output?: string;
  outputLong?: readonly string[];
  chdir?: string;
  chdirLong?: readonly string[];
  operand?: RegExp;
  joins?: boolean;
}

const SETARCH: Wrapper = {};

const WRAPPERS: Record<string, Wrapper> = {
  sudo: { values: 'ugCDhprtUTR', long: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'other-user', 'command-timeout', 'chroot'], chdir: 'DR', chdirLong: ['chdir', 'chroot'] },
  doas: { values: 'uC' },
  env: { values: 'uC', long: ['unset', 'chdir'], chdir: 'C', chdirLong: ['chdir'] },
  nice: { values: 'n', long: ['adjustment'] },
  nohup: {},
  time: { values: 'fo', long: ['format', 'output'], output: 'o', outputLong: ['output'] },
  command: {},
  builtin: {},
  exec: { values: 'a' },
  xargs: { values: 'InPdELsa', long: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'] },
  timeout: { values: 'sk', long: ['signal', 'kill-after'], operand: /^\d*\.?\d+[smhd]?$/ },
  stdbuf: { values: 'ioe', long: ['input', 'output', 'error'] },
  ionice: { values: 'cnpPu', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  taskset: { operand: /^(?:0x)?[\da-fA-F,:-]+$/ },
  chrt: { values: 'TPD', long: ['sched-runtime', 'sched-period', 'sched-deadline'], operand: /^\d+$/ },
  runuser: { values: 'ugGsw', long: ['user', 'group', 'supp-group', 'shell', 'whitelist-environment'], code: 'c', codeLong: ['command', 'session-command'] },
  setpriv: { long: ['reuid', 'regid', 'ruid', 'rgid', 'euid', 'egid', 'groups', 'inh-caps', 'ambient-caps', 'bounding-set', 'securebits', 'pdeathsig', 'selinux-label', 'apparmor-profile', 'landlock-access', 'landlock-rule', 'ptracer'] },
  flock: { values: 'wE', long: ['timeout', 'wait', 'conflict-exit-code'], code: 'c', codeLong: ['command'], operand: /^[^-]/ },
  unbuffer: {},
  catchsegv: {},
  strace: { values: 'abeEIoOpPsSuUX', long: ['output', 'attach', 'trace', 'signal', 'status', 'string-limit', 'user', 'env', 'trace-path', 'const-print-style', 'decode-fds', 'summary-sort-by'], output: 'o', outputLong: ['output'] },
  ltrace: { values: 'aAeEflLnopsSTuwxX', long: ['output', 'align', 'indent', 'library'], output: 'o', outputLong: ['output'] },
  fakeroot: { values: 'lfsib', long: ['lib', 'faked', 'save-file', 'load-file', 'fd-base'], output: 's', outputLong: ['save-file'] },
  prlimit: { values: 'p', long: ['pid', 'output'] },
  setarch: { ...SETARCH, operand: /^[\w.-]+$/ },
  linux32: SETARCH,
  linux64: SETARCH,
  i386: SETARCH,
  x86_64: SETARCH,
  uname26: SETARCH,
  watch: { values: 'nq', long: ['interval', 'equexit', 'shotsdir'], joins: true },
};

/** wrappers that run a command given after their options (and, for some, an operand of their own) */
export const PREFIXES = new Set(Object.keys(WRAPPERS));

/** What peeling a command line's wrappers found. */
interface Peeled {
  /** the words the innermost command runs */
  words: string[];
  /** xargs feeds it operands */
  xargs: boolean;
  /** shell code a wrapper runs (`env -S '…'`, `flock F -c '…'`, `watch …`): judged as a command line of its own */
  code: string[];
  /** files a wrapper itself writes (`strace -o F`) */
  outputs: string[];
  /** a wrapper runs it in another folder (`env -C DIR`, `sudo -D DIR`) */
  elsewhere: boolean;
}

/**
 * Peels a command line's wrappers (`sudo rm x`, `env A=1 rm x`, `xargs rm`, `taskset 3 tee f`),
 * reading each one's options as it does (WRAPPERS): the value of `-u root`, `-Eu root`, `--user root`
 * is no command.
 */
export function peel(commandWords: readonly string[]): Peeled {
  const out: Peeled = { words: [...commandWords], xargs: false, code: [], outputs: [], elsewhere: false };
  let words = out.words;
  while (words.length > 0 && PREFIXES.has(path.basename(words[0]!))) {
    const name = path.basename(words[0]!);
    const w = WRAPPERS[name]!;
    out.xargs ||= name === 'xargs';
    let exec = false;
    let user = false;
    words = words.slice(1);
    // the value of an option: what to do with it
    const take = (value: string | undefined, kind: 'code' | 'output' | 'chdir' | 'value') => {
      if (value === undefined) return;
      if (kind === 'code') out.code.push(value);
      else if (kind === 'output') out.outputs.push(value);
      else if (kind === 'chdir') out.elsewhere = true;
    };
    const kindOf = (letter: string) => (w.code?.includes(letter) ? 'code' : w.output?.includes(letter) ? 'output' : w.chdir?.includes(letter) ? 'chdir' : 'value');
    const longKind = (n: string) => (isLong(n, w.codeLong) ? 'code' : isLong(n, w.outputLong) ? 'output' : isLong(n, w.chdirLong) ? 'chdir' : isLong(n, w.long) ? 'value' : undefined);
    while (words.length > 0) {
      const a = words[0]!;
      if (a === '--') {
        words = words.slice(1);
        // (`env -- NAME=value cmd`: assignments may follow)
        while (name === 'env' && words.length > 0 && /^\w+=/.test(words[0]!)) {
          out.code.push(...codeOfAssignments([words[0]!]));
          words = words.slice(1);
        }
        break;
      }
      // `env NAME=value cmd`, `sudo NAME=value cmd` (a value some program runs as a command is judged: RUNS_VALUE)
      if ((name === 'env' || name === 'sudo' || name === 'doas') && /^\w+=/.test(a)) {
        out.code.push(...codeOfAssignments([a]));
        words = words.slice(1);
        continue;
      }
      if (!a.startsWith('-') || a === '-') break;
      // `env -S 'sh -c …'` / `--split-string=…`: the rest is one command line
      // (by any prefix getopt_long takes: `--s=…`, `--sp …` — red team adv60)
      const long = name === 'env' ? /^--([a-z-]+)(?:=(.*))?$/s.exec(a) : null;
      const short = name === 'env' && !long ? /^-[a-zA-Z0-9]*S(.*)$/s.exec(a) : null;
      if ((long && isLong(long[1]!, ['split-string'])) || short) {
        const inline = long ? long[2] : short![1] || undefined;
        // (env's own escapes split too: `\_` is a blank — red team adv61 hid `cp\_F\_/var/tmp/x` as one word)
        out.code.push([inline ?? words[1] ?? '', ...words.slice(inline !== undefined ? 1 : 2)].join(' ').replace(/\\_/g, ' '));
        out.words = [];
        return out;
      }
      if (a.startsWith('--')) {
        const eq = a.indexOf('=');
        const n = a.slice(2, eq > 0 ? eq : undefined);
        if (name === 'watch' && n === 'exec') exec = true;
        if (n === 'user') user = true;
        const kind = longKind(n);
        if (eq > 0) take(a.slice(eq + 1), kind ?? 'value');
        else if (kind !== undefined) {
          take(words[1], kind);
          words = words.slice(1);
        }
        words = words.slice(1);
        continue;
      }
      // a bundle of short options: the first that takes a value takes the rest of the bundle, else the next word
      let used = 1;
      for (let i = 1; i < a.length; i++) {
        const letter = a[i]!;
        if (name === 'watch' && letter === 'x') exec = true;
        if (letter === 'u') user = true;
        if (!(w.values ?? '').includes(letter) && !(w.code ?? '').includes(letter)) continue;
        const rest = a.slice(i + 1);
        if (rest) take(rest, kindOf(letter));
        else {
          take(words[1], kindOf(letter));
          used = 2;
        }
        break;
      }
      words = words.slice(used);
    }
    // `runuser USER -c CODE` (no -u) runs a shell as su does
    if (name === 'runuser' && !user) {
      out.words = ['su', ...words];
      return out;
    }
    // the wrapper's own operand (`timeout 5`, `taskset 0-3`, `flock FILE`, `setarch x86_64`)
    if (w.operand && words.length > 0 && w.operand.test(words[0]!)) {
      // (flock creates its lock file where it is missing: red team adv45's `flock /etc/nologin true`)
      if (name === 'flock') out.outputs.push(words[0]!);
      words = words.slice(1);
    }
    // `flock FILE -c CODE`: its options may follow the file
    if (name === 'flock' && /^(-c|--command)$/.test(words[0] ?? '')) {
      out.code.push(words[1] ?? '');
      words = [];
    }
    // `watch CMD…` runs `sh -c 'CMD…'` (not with -x)
    if (w.joins && !exec && words.length > 0) {
      out.code.push(words.join(' '));
      words = [];
    }
  }
  out.words = words;
  return out;
}
