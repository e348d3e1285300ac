/**
 * What a GNU sed script does besides editing text: the files it writes (`w F`, `W F`, the `w` flag
 * of `s`) and whether it runs shell code (`e`, the `e` flag of `s`). Read the way sed reads it —
 * addresses, commands, an `s` command's parts with their escapes — because patterns over the text
 * were walked around and refused honest scripts both ways (red team adv53: an address `/s/` taken
 * for an `s` command hid `/s/e CMD`; `\cxce CMD` hid an `e` behind a letter delimiter; a
 * backslash-newline in a replacement hid its flags; `/set -e /p` was refused as an `e` command).
 * A script sed itself would reject is `undefined`: the caller refuses what it cannot read.
 */

export interface SedEffects {
  /** an `e` command or an `s///e`: text run as a shell command */
  runs: boolean;
  /** the files `w`, `W` and `s///w` write */
  writes: string[];
  /** the files `r` and `R` read */
  reads: string[];
}

/** Commands that take no argument. */
const PLAIN = new Set([...'=dDgGhHxnNpPzF']);
/** Commands that take a label. */
const LABELLED = new Set([...'btT']);
/** Commands whose argument, a file, runs to the line's end. */
const FILE_ARG = new Set([...'rRwW']);

export function sedEffects(script: string): SedEffects | undefined {
  try {
    return new Reader(script).read();
  } catch (e) {
    if (e instanceof Unreadable) return undefined;
    throw e;
  }
}

class Unreadable extends Error {}

class Reader {
  private at = 0;
  private readonly out: SedEffects = { runs: false, writes: [], reads: [] };

  constructor(private readonly s: string) {}

  read(): SedEffects {
    for (;;) {
      this.skip(/[\s;]/);
      if (this.at >= this.s.length) return this.out;
      if (this.peek() === '#') {
        this.lineEnd();
        continue;
      }
      this.address();
      this.skip(/[ \t]/);
      while (this.peek() === '!') {
        this.at++;
        this.skip(/[ \t]/);
      }
      this.command();
    }
  }

  private peek(): string | undefined {
    return this.s[this.at];
  }

  private skip(re: RegExp): void {
    while (this.at < this.s.length && re.test(this.s[this.at]!)) this.at++;
  }

  /** The rest of the line (the newline is left). */
  private lineEnd(): string {
    const end = this.s.indexOf('\n', this.at);
    const text = this.s.slice(this.at, end < 0 ? undefined : end);
    this.at = end < 0 ? this.s.length : end;
    return text;
  }

  /**
   * A file name to the line's end, as GNU sed reads it: blanks before it are skipped, and everything
   * after — trailing blanks too — is the name (red team adv57: `w /tmp/L ` wrote through a link named
   * `L ` while the guard judged /tmp/L).
   */
  private fileName(): string {
    this.skip(/[ \t]/);
    return this.lineEnd();
  }

  /** An address and an optional second one: a number, `first~step`, `$`, `/re/`, `\cREc` with I/M flags; `+N`, `~N` after a comma. */
  private address(): void {
    if (!this.oneAddress(false)) return;
    this.skip(/[ \t]/);
    if (this.peek() !== ',') return;
    this.at++;
    this.skip(/[ \t]/);
    if (!this.oneAddress(true)) throw new Unreadable('an address is missing after ","');
  }

  private oneAddress(second: boolean): boolean {
    const c = this.peek();
    if (c === undefined) return false;
    // (`+N`, `~N` belong after a comma; sed reads them first too and refuses later: read, not refused)
    if (/\d/.test(c) || c === '+' || c === '~') {
      this.at++;
      this.skip(/\d/);
      if (!second && this.peek() === '~') {
        this.at++;
        this.skip(/\d/);
      }
      return true;
    }
    if (c === '$') {
      this.at++;
      return true;
    }
    if (c === '/' || c === '\\') {
      if (c === '\\') this.at++;
      const delim = this.delimiter();
      this.part(delim, true);
      this.skip(/[IM]/);
      return true;
    }
    return false;
  }

  /**
   * The delimiter of a regex address, `s` or `y`: one ASCII character. Outside ASCII, sed reads bytes
   * in the C locale and characters in a UTF-8 one, and the parts differ (red team adv54: `s\xc3…é…\xc3e`
   * under LC_ALL=C ended the regex inside `é`); inside ASCII no UTF-8 byte is mistaken for it.
   */
  private delimiter(): string {
    const d = this.s[this.at++];
    if (d === undefined || d === '\n' || d === '\\') throw new Unreadable('a delimiter is missing');
    if (d.charCodeAt(0) > 0x7f) throw new Unreadable('a delimiter outside ASCII');
    return d;
  }

  /** One part of an address or of `s`/`y`, up to its closing delimiter; a regex ends at no newline, a replacement only at an escaped one. */
  private part(delim: string, regex: boolean): void {
    for (;;) {
      const c = this.s[this.at++];
      if (c === undefined) throw new Unreadable('an unterminated regex or replacement');
      if (c === delim) return;
      if (c === '[' && regex) this.bracket();
      else if (c === '\\') {
        if (this.at >= this.s.length) throw new Unreadable('a trailing backslash');
        this.at++;
      } else if (c === '\n' && regex) throw new Unreadable('a newline inside a regex');
    }
  }

  /** A regex's bracket expression, after its `[`: the delimiter and a backslash are plain in it (`s/[/]/x/`); `]` first is plain; `[:…:]`, `[=…=]`, `[.….]` inside. */
  private bracket(): void {
    if (this.peek() === '^') this.at++;
    if (this.peek() === ']') this.at++;
    for (;;) {
      const c = this.s[this.at++];
      if (c === undefined || c === '\n') throw new Unreadable('an unterminated bracket expression');
      if (c === ']') return;
      const kind = this.peek();
      if (c === '[' && (kind === ':' || kind === '=' || kind === '.')) {
        const close = this.s.indexOf(`${kind}]`, this.at + 1);
        if (close < 0) throw new Unreadable('an unterminated class in a bracket expression');
        this.at = close + 2;
      }
    }
  }

  private command(): void {
    const c = this.s[this.at++];
    if (c === undefined) throw new Unreadable('an address without a command');
    if (c === '{' || c === '}') return;
    if (c === '#') {
      this.lineEnd();
      return;
    }
    if (c === ':') {
      if (this.label() === '') throw new Unreadable('":" without a label');
      return;
    }
    // (a label ends at a blank, `;` or `#`, and another command may follow it: `:. e CMD` runs CMD)
    if (LABELLED.has(c)) {
      this.label();
      return;
    }
    if (c === 'a' || c === 'i' || c === 'c') return this.text();
    // (`e CMD\` goes on to the next line, as a/i/c text does — red team adv55)
    if (c === 'e') {
      this.text();
      this.out.runs = true;
      return;
    }
    if (FILE_ARG.has(c)) {
      const arg = this.fileName();
      if (arg === '' && c !== 'r') throw new Unreadable(`"${c}" without a file`);
      else if (c === 'w' || c === 'W') this.written(arg);
      else this.out.reads.push(arg);
      return;
    }
    if (c === 'q' || c === 'Q' || c === 'l' || c === 'L') {
      this.skip(/[ \t]/);
      this.skip(/\d/);
      return this.end();
    }
    // (`v` takes a version up to a blank, and a command may follow: `v 4.2 e CMD` runs CMD — red team adv54)
    if (c === 'v') {
      this.label();
      return;
    }
    if (c === 's') return this.substitute();
    if (c === 'y') {
      const delim = this.delimiter();
      this.part(delim, false);
      this.part(delim, false);
      return this.end();
    }
    if (PLAIN.has(c)) return this.end();
    throw new Unreadable(`an unknown command "${c}"`);
  }

  /** A file `w` writes: /dev/stdout and /dev/stderr are sed's own output, not files it opens (adv54's friction). */
  private written(file: string): void {
    if (file !== '/dev/stdout' && file !== '/dev/stderr') this.out.writes.push(file);
  }

  /** `a text`, `a\` + lines: text, to a line that does not end in a backslash. */
  private text(): void {
    for (;;) {
      const line = this.lineEnd();
      const escaped = /(?:^|[^\\])(?:\\\\)*\\$/.test(line);
      if (!escaped || this.at >= this.s.length) return;
      this.at++; // the newline the backslash continues past
    }
  }

  private label(): string {
    this.skip(/[ \t]/);
    const from = this.at;
    // (GNU sed ends a label at a space, a tab, a newline, `;` or `#` only: a CR, FF or VT is part of it — red team adv56)
    this.skip(/[^ \t\n;#]/);
    return this.s.slice(from, this.at);
  }

  /** After a command: blanks, then `;`, a newline, `}`, `#` or the end. */
  private end(): void {
    this.skip(/[ \t]/);
    const c = this.peek();
    if (c === undefined || c === ';' || c === '\n' || c === '}' || c === '#') return;
    throw new Unreadable(`"${c}" after a command`);
  }

  /** `s/re/replacement/flags`: flags g, p, a number, i/I, m/M, e, and `w FILE` to the line's end (blanks between them: red team adv52). */
  private substitute(): void {
    const delim = this.delimiter();
    this.part(delim, true);
    this.part(delim, false);
    for (;;) {
      this.skip(/[ \t]/);
      const f = this.peek();
      if (f !== undefined && /[gpiImM\d]/.test(f)) this.at++;
      else if (f === 'e') {
        this.at++;
        this.out.runs = true;
      } else if (f === 'w') {
        this.at++;
        const file = this.fileName();
        if (file === '') throw new Unreadable('"s///w" without a file');
        this.written(file);
        return;
      } else return this.end();
    }
  }
}

/** How a sed command line is read: its scripts (-e, --expression, else the first operand), script files, the files it reads or edits. */
export interface SedCommand {
  scripts: string[];
  scriptFiles: string[];
  files: string[];
  inPlace: boolean;
  /** -iSUFFIX, --in-place=SUFFIX: the backup's suffix */
  suffix?: string;
}

/** sed's long options, as getopt_long takes them (any unambiguous prefix): which take a value. */
const LONG: Record<string, 'value' | 'optional' | 'flag'> = {
  expression: 'value', file: 'value', 'line-length': 'value', 'in-place': 'optional', quiet: 'flag', silent: 'flag', 'regexp-extended': 'flag',
  separate: 'flag', unbuffered: 'flag', 'null-data': 'flag', 'zero-terminated': 'flag', posix: 'flag', debug: 'flag', sandbox: 'flag',
  'follow-symlinks': 'flag', binary: 'flag', help: 'flag', version: 'flag',
};

/**
 * The ways GNU sed may read its arguments: options anywhere (getopt's default) and options only
 * before the first operand (POSIXLY_CORRECT, which the environment may set unseen: red team adv54's
 * `sed 'e CMD' f -e p`). Short options bundle, and `-e`, `-f`, `-l` take the rest of the word or the
 * next one (`-nl 5p SCRIPT`), `-i` only the rest (`-iep SCRIPT` has the suffix "ep").
 */
export function sedCommands(args: readonly string[]): SedCommand[] {
  return [readSedArgs(args, false), readSedArgs(args, true)];
}

function readSedArgs(args: readonly string[], posix: boolean): SedCommand {
  const out: SedCommand = { scripts: [], scriptFiles: [], files: [], inPlace: false };
  const operands: string[] = [];
  const take = (kind: string, value: string | undefined) => {
    if (value === undefined) return;
    if (kind === 'e' || kind === 'expression') out.scripts.push(value);
    else if (kind === 'f' || kind === 'file') out.scriptFiles.push(value);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const given = a.slice(2, eq < 0 ? undefined : eq);
      const names = Object.keys(LONG).filter((k) => k === given || (given !== '' && k.startsWith(given)));
      const name = names.includes(given) ? given : names.length === 1 ? names[0]! : undefined;
      if (name === undefined) continue; // (ambiguous or unknown: sed refuses to run)
      if (LONG[name] === 'value') take(name, eq < 0 ? args[++i] : a.slice(eq + 1));
      else if (LONG[name] === 'optional') {
        out.inPlace = true;
        if (eq >= 0) out.suffix = a.slice(eq + 1);
      }
    } else if (a.startsWith('-') && a !== '-') {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        const rest = a.slice(j + 1);
        if (c === 'i') {
          out.inPlace = true;
          if (rest) out.suffix = rest;
          break;
        }
        if (c === 'e' || c === 'f' || c === 'l') {
          take(c, rest || args[++i]);
          break;
        }
      }
    } else if (posix) {
      operands.push(...args.slice(i));
      break;
    } else operands.push(a);
  }
  if (out.scripts.length === 0 && out.scriptFiles.length === 0 && operands.length > 0) out.scripts.push(operands.shift()!);
  out.files = operands;
  return out;
}
