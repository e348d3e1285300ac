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
/** Commands whose argument runs to the line's end: a file, a command, a text. */
const TO_LINE_END = new Set([...'rRwWe']);

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
      const delim = this.s[this.at++];
      if (delim === undefined || delim === '\n' || delim === '\\') throw new Unreadable('a regex address has no delimiter');
      this.part(delim, true);
      this.skip(/[IM]/);
      return true;
    }
    return false;
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
    if (TO_LINE_END.has(c)) {
      const arg = this.lineEnd().trim();
      if (c === 'e') this.out.runs = true;
      else if (arg === '' && c !== 'r') throw new Unreadable(`"${c}" without a file`);
      else (c === 'w' || c === 'W' ? this.out.writes : this.out.reads).push(arg);
      return;
    }
    if (c === 'q' || c === 'Q' || c === 'l' || c === 'L') {
      this.skip(/[ \t]/);
      this.skip(/\d/);
      return this.end();
    }
    if (c === 'v') {
      this.skip(/[^;\n}]/);
      return this.end();
    }
    if (c === 's') return this.substitute();
    if (c === 'y') {
      const delim = this.s[this.at++];
      if (delim === undefined || delim === '\n' || delim === '\\') throw new Unreadable('"y" without a delimiter');
      this.part(delim, false);
      this.part(delim, false);
      return this.end();
    }
    if (PLAIN.has(c)) return this.end();
    throw new Unreadable(`an unknown command "${c}"`);
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
    this.skip(/[^\s;#]/);
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
    const delim = this.s[this.at++];
    if (delim === undefined || delim === '\n' || delim === '\\') throw new Unreadable('"s" without a delimiter');
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
        const file = this.lineEnd().trim();
        if (file === '') throw new Unreadable('"s///w" without a file');
        this.out.writes.push(file);
        return;
      } else return this.end();
    }
  }
}
