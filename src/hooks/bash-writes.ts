/**
 * Which parts of a shell command write to the file system, found by parsing it with the
 * tree-sitter bash grammar (a real parser: quotes, pipelines, lists, subshells, `bash -c`, `eval`
 * and command substitutions are all seen), never by a regex over the text.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expandBraces, MAX_BRACE_WORDS, protect } from './brace-expansion.js';
import { UNKNOWN } from './glob-targets.js';
import { type GivenOption, getopt, isLong, lastGiven, longNames } from './getopt.js';
import { sedCommands, sedEffects } from './sed-script.js';
import { TAR_VALUES, tarDirs, tarMode, tarOptions } from './tar-reading.js';

export interface BashWrite {
  /** the command (or redirection) that writes */
  what: string;
  /** files it writes, when they can be told; null when it may write anywhere */
  targets: string[] | null;
  /**
   * the folder a relative target is written in, when `cd`/`pushd` moved the command there first (as
   * written, from where it starts); null when that folder cannot be told before it runs (`cd "$X"`,
   * `cd -`, `popd`, `env -C`); absent: where the command starts
   */
  dir?: string | null;
  /** rm/unlink: a target named without a trailing slash is removed itself — a symlink, not what it points to */
  unlinks?: true;
  /**
   * cp -P/-a/-d/-R, mv: sources that, where they are symlinks, make the copy one too — a later write
   * through the copy lands where the link points, so a source that is a link is judged as written there
   */
  copiesLinks?: true;
  /**
   * where the command may make links (ln's destination, a copy of links, an unpacked archive): a later
   * write of the same command under one of them may go through a link that does not exist yet when
   * the guard looks
   */
  linkDests?: string[];
  /**
   * targets written as patterns (`/tmp/w/hl_[a]`, `src/*.tmp`): judged by the folder before the
   * first pattern character and by the files they match when the guard looks
   */
  globs?: string[];
  /**
   * where the write runs among the parts of the command that run one after another (its statements,
   * the sides of `&&`/`||`), when that is known: a write in an earlier part cannot go through a link
   * a later part makes
   */
  step?: number;
  /** the simple command it belongs to (a redirection: the command it is written on), in a command of several parts */
  cmd?: number;
  /** a command a /code turn never runs, and why (a mount, an alias, an archive of absolute paths) */
  refuse?: string;
  /** with no targets: the folder (from where the command runs) it may write in, where not there (`patch -d DIR`) */
  runsIn?: string;
  /**
   * the targets are paths given to a program the guard does not know (`shuf -o F`, `iconv -o F`,
   * `make --eval=…F…`): it may write them or not — judged only where they lie outside the project
   */
  given?: true;
}

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

const ALWAYS_WRITES = new Set(['rm', 'rmdir', 'mv', 'cp', 'mkdir', 'touch', 'chmod', 'chown', 'chgrp', 'ln', 'truncate', 'install', 'rsync', 'unlink', 'shred', 'patch', 'dd', 'scp']);
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
const PREFIXES = new Set(Object.keys(WRAPPERS));
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'rbash', 'mksh', 'ash', 'yash', 'posh', 'lksh', 'pdksh', 'oksh', 'fish', 'csh', 'tcsh']);
const INTERPRETERS = new Set(['python', 'python3', 'node', 'ruby', 'perl', 'php', 'deno', 'bun']);
// (`git archive` writes the archive to stdout, or to its -o/--output: agent trial tr121 was refused `git archive HEAD | tar -x -C /tmp/x` in EXPLORATION)
const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog', 'cat-file', 'config', 'remote', 'fetch', 'help', 'version', 'reflog', 'branch', 'tag', 'ls-remote', 'archive']);
const PKG_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'cargo', 'go', 'gem', 'composer', 'apt', 'apt-get', 'brew', 'poetry', 'uv']);
const PKG_WRITES = new Set(['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'un', 'ci', 'update', 'up', 'upgrade', 'link', 'unlink', 'get', 'prune', 'dedupe', 'publish', 'init', 'sync']);
const HARMLESS_DEST = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
/** nodes whose commands run in a shell of their own: a `cd` in them moves nothing after them */
const SUBSHELLS = new Set(['subshell', 'command_substitution', 'process_substitution']);
/** builtins that move the shell to another folder */
const CHDIR = new Set(['cd', 'pushd', 'popd']);
const DETACHERS = new Set(['coproc', 'nohup', 'setsid', 'disown', 'at', 'batch', 'screen', 'tmux', 'systemd-run', 'daemonize', 'start-stop-daemon', 'sem']);
/** A command that leaves a process running after it returns: a detacher, GNU parallel's `--bg` / `--semaphore` (red team adv53: `sem '…'`). */
const detaches = (cmd: string, args: readonly string[]): boolean =>
  DETACHERS.has(cmd) || (cmd === 'parallel' && args.some((a) => a.startsWith('--') && isLong(a.slice(2).split('=')[0]!, ['bg', 'semaphore', 'fg'])));
const READERS = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'pwd', 'echo', 'printf', 'true', 'false', 'test', '[',
  'stat', 'file', 'du', 'df', 'which', 'type', 'whoami', 'date', 'uname', 'basename', 'dirname', 'realpath', 'readlink', 'diff', 'cmp',
  'less', 'more', 'cut', 'tr', 'column', 'nl', 'jq', 'sha256sum', 'md5sum', 'printenv', 'id', 'hostname', 'nproc', 'free',
  // (programs with no option that writes a file: red team adv44 met them refused on paths outside the project)
  'sha1sum', 'sha224sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'od', 'base32', 'base64', 'basenc', 'strings', 'tac', 'comm',
  'rev', 'fold', 'paste', 'join', 'fmt', 'hexdump']);
/** a target written with an expansion or a pattern cannot be named before the shell runs */
const UNKNOWABLE = /[*?`$]|^~/;

/**
 * The targets as the shell will name them: a leading `~`, `$HOME` or `${HOME}` is the user's home
 * (red team adv25: `echo … >> ~/.claude/projects/…/s.jsonl` appended to the client's transcript
 * unjudged); null when any other expansion or pattern leaves one unknown.
 */
function named(targets: readonly string[]): string[] | null {
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

function unquote(n: Node): string {
  if (n.type === 'raw_string') return n.text.slice(1, -1);
  // `$'tee'`, `$'\x74ee'`: ANSI-C quoting, decoded as bash does; `$"tee"`: a translated string (red team adv41)
  if (n.type === 'ansi_c_string') return ansiC(n.text.slice(2, -1));
  if (n.type === 'translated_string') return n.namedChildren.map((c) => (c?.type === 'string' ? unquote(c) : c?.text ?? '')).join('') || n.text.slice(2, -1);
  // (inside double quotes a backslash escapes only $ ` " \\ and a newline: `"/a/,\\$p"` is sed's `/a/,$p` — agent trial tr126)
  // (every piece between the quotes: a lone `$` is an unnamed one, and it is a `$` — red team adv58's `"/tmp/z/"$"/f"` was read as /tmp/z//f)
  if (n.type === 'string') return n.children.slice(1, -1).map((c) => (c?.type === 'string_content' ? c.text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch)) : c?.text ?? '')).join('');
  // bash's quote removal: `\tee`, `t''ee`, `"l"n` are tee and ln (red team adv37 hid writes behind them)
  if (n.type === 'concatenation') return n.children.map((c) => (c ? unquote(c) : '')).join('');
  if (n.type === 'command_name' && n.namedChildCount === 1) return unquote(n.namedChild(0)!);
  if (n.type === 'word') return n.text.replace(/\\(.)/gs, '$1');
  return n.text;
}

/** The words of a command an expansion helps build, and those of them whose first character is known all the same (a loop's variable over words written out). */
interface Expanded { all: ReadonlySet<string>; firstKnown: ReadonlySet<string> }
const NO_WORDS: Expanded = { all: new Set(), firstKnown: new Set() };
const EXPANSIONS = ['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion'];

/** A word bash builds with an expansion — `$s`, `"${s}"`, `$(cmd)`, `/$s/p` — rather than one written out (single quotes keep a `$`). */
function expands(n: Node): boolean {
  return EXPANSIONS.includes(n.type) || n.descendantsOfType(EXPANSIONS).length > 0;
}

/**
 * A word whose first character is known though an expansion builds it: it starts with `$f` or `${f}`
 * where f is the variable of a for loop around it over words written out, none starting with `-` or a
 * wildcard, nothing else in the command sets f, and the word is in double quotes (unquoted, the value
 * is split): `for f in lib/*.js; do sed -n 1p "$f"; done` (red team adv60's friction). Its value is
 * then no option.
 */
function firstKnown(word: Node, command: string): boolean {
  // (the piece the word starts with: inside its quotes, or the first of a concatenation)
  const leading = (n: Node | null): Node | null => (!n ? null : n.type === 'simple_expansion' || n.type === 'expansion' ? n
    : n.type === 'string' ? leading(n.children[1] ?? null) : n.type === 'concatenation' ? leading(n.children[0] ?? null) : null);
  const first = leading(word);
  // (in double quotes only: unquoted, its value is split into words — at blanks, or wherever IFS says)
  const quoted = word.type === 'string' || (word.type === 'concatenation' && word.children[0]?.type === 'string');
  if (!quoted || !first || first.namedChildCount !== 1 || first.namedChild(0)?.type !== 'variable_name') return false;
  const name = first.namedChild(0)!.text;
  for (let p = word.parent; p; p = p.parent) {
    if (p.type !== 'for_statement' || p.childForFieldName('variable')?.text !== name) continue;
    const values = p.childrenForFieldName('value').filter((v): v is Node => v !== null);
    const sets = new RegExp(String.raw`(?:^|[^\w$])${name}\+?=|\b(?:read|declare|typeset|local|export|readonly|let|unset|mapfile|readarray|getopts|printf)\b[^;&|\n]*\b${name}\b`);
    return values.length > 0 && values.every((v) => !expands(v) && /^[^-*?[~]/.test(unquote(v))) && !sets.test(command)
      && (command.match(new RegExp(String.raw`\bfor\s+${name}\b`, 'g')) ?? []).length === 1;
  }
  return false;
}

/**
 * A program text (a sed script, an awk program) taken from a word an expansion built, whole or after
 * its option (`-e$s`): the guard reads the text as written, not the value the shell puts there
 * (red team adv57: `sed -n "/$s/p"` with s holding `p;e CMD` ran CMD).
 */
function built(texts: readonly string[], expanded: Expanded): boolean {
  for (const w of expanded.all) if (texts.some((t) => w === t || (t !== '' && w.startsWith('-') && w.endsWith(t)))) return true;
  return false;
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

/** The text of `$'…'` as bash decodes it: `\n`, `\xHH`, `\NNN` (octal), `\uHHHH`, `\cX`, `\'` … */
export function ansiC(body: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  return body.replace(/\\(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([0-7]{1,3})|c(.)|(.))/gs, (m, x, u, U, o, c, other) => {
    if (x) return String.fromCharCode(parseInt(x, 16));
    if (u || U) return String.fromCodePoint(Math.min(parseInt(u ?? U, 16), 0x10ffff));
    if (o) return String.fromCharCode(parseInt(o, 8) & 0xff);
    if (c) return String.fromCharCode(c.toUpperCase().charCodeAt(0) ^ 0x40);
    return simple[other] ?? m;
  });
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
  if (unread) a.writes.push({ what: command.slice(0, 160), targets: null, refuse: unread === 'TAPE' ? 'TAPE names the archive tar writes without -f, unread by the guard: name it with tar -f FILE' : `setting ${unread} makes bash run code the write guard never reads: run the commands themselves` });
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

/** The shopt options that change what a pattern matches beyond what the guard's matcher takes (globstar, dotglob and failglob only widen or stop it). */
const EXPANSION_SHOPTS = 'nullglob|nocaseglob|extglob|nocasematch';
/** `set +B`, `set -f`, `set -o noglob`, `shopt -s` one of EXPANSION_SHOPTS. */
const EXPANSION_OPTIONS = new RegExp(String.raw`(?:^|[\s;&|(])(?:set\s+(?:[^;&|\n]*\s)?(?:\+[a-zA-Z]*B|-[a-zA-Z]*f\b|[-+]o\s+(?:braceexpand|noglob))|shopt\s+[^;&|\n]*\b(?:${EXPANSION_SHOPTS})\b)`);
/** The same given to a shell as its own options: `bash -O extglob`, `+B`, `-f`, `-o noglob`. */
const SHELL_EXPANSION_OPTION = new RegExp(String.raw`^-O(?:${EXPANSION_SHOPTS})$|^\+[a-zA-Z]*B|^-[a-zA-Z]*f|^[-+]o(?:noglob|braceexpand)$`);

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
  const m = /\b(BASH_ENV|PROMPT_COMMAND|BASH_CMDS|BASH_ALIASES|BASH_LOADABLES_PATH|SHELLOPTS|BASHOPTS|BASH_XTRACEFD)\b|\b(BASH_FUNC_)|(?:^|[\s;&|(])(TAPE)\+?=/.exec(bare)
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
  const visit = async (source: string, depth: number, at: string | null) => {
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
      const nested: { code: string; dir: string | null }[] = [];
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
          nested.push(...codeOfAssignments(assignmentsOf(n)).map((code) => ({ code, dir })));
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
          const expanded = { all: new Set(built.flatMap((a) => expandedWords(a))), firstKnown: new Set(built.filter((a) => firstKnown(a, command)).flatMap((a) => expandedWords(a))) };
          if (name) inspectWords([nameText, ...args], writes, code, expanded);
          nested.push(...code.map((c) => ({ code: c, dir })));
          placed(from);
          // (`command cd`, `builtin cd`: the cd they run — red team adv37)
          const run = peeled.words;
          const runCmd = run.length > 0 ? path.basename(run[0]!) : '';
          if (CHDIR.has(runCmd)) chdir(runCmd, run.slice(1));
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
          nested.push(...subs.map((code) => ({ code, dir })));
          if (subs.length > 0 || n.type === 'herestring_redirect') readOnly = false;
        }
        // `export GIT_PAGER='cmd'`, `declare -x EDITOR=cmd`, `GIT_EXTERNAL_DIFF='cmd'; export …`: a value a program will run (RUNS_VALUE)
        if (n.type === 'declaration_command' || (n.type === 'variable_assignments' || (n.type === 'variable_assignment' && n.parent?.type !== 'command' && n.parent?.type !== 'declaration_command'))) {
          nested.push(...codeOfAssignments(assignmentsOf(n)).map((code) => ({ code, dir })));
        }
        // command substitutions written as text — quoted, escaped or `$'…'`-encoded — in any word: bash
        // runs them wherever the text is evaluated later (`set -- 'y[$(cmd)]'; echo $(($1))`, a for
        // list, a function's argument, getopts: red team adv41), so they are judged as if they ran
        if (QUOTED.has(n.type) || (n.type === 'word' && n.text.includes('\\'))) {
          const text = unquote(n);
          if (text.includes('$(') || text.includes('`')) {
            const subs = substitutions(text);
            nested.push(...subs.map((code) => ({ code, dir })));
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
      for (const inner of nested) await visit(inner.code, depth + 1, inner.dir);
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

/** A pipeline stage that the grammar made of a whole list (`a && b 2>&1` before a `|`). */
function endsInList(n: Node): boolean {
  return n.type === 'list' || (n.type === 'redirected_statement' && n.childForFieldName('body')?.type === 'list');
}

/** A command (its name's basename and its arguments) that only reads: a known reader, or a git read. */
function readsOnly(cmd: string, args: string[]): boolean {
  // rg --pre runs a program on every file it searches
  return (READERS.has(cmd) && !(cmd === 'rg' && args.some((a) => a.startsWith('--pre')))) || (cmd === 'git' && isGitRead(args));
}

/** `git status`, `git log` …: a git command that only reads (config, remote, branch and tag can write) */
function isGitRead(args: string[]): boolean {
  const sub = gitSubcommand(args);
  return !!sub && !gitConfigured(args) && gitSubReads(args) && !['config', 'remote', 'fetch', 'branch', 'tag', 'reflog'].includes(sub) && outputFiles('git', args).length === 0;
}

/**
 * The shell code a git command line carries in its options: the value of each `-c name=value`
 * (`!cmd` of an alias, or a program such as core.pager, core.fsmonitor, diff.external — any value,
 * judged as a command: a plain one runs nothing), `--upload-pack`/`--receive-pack`/`--exec` (`-u`
 * of clone and ls-remote), grep's `-O`/`--open-files-in-pager`, difftool's `-x`/`--extcmd`,
 * rebase's `-x`/`--exec`, filter-branch's filters, and the command of `bisect run` and `submodule foreach`.
 */
function gitCode(args: readonly string[]): string[] {
  const out: string[] = [];
  const words = gitWords([...args]);
  const sub = words[0];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' && args[i + 1] !== undefined) out.push(args[i + 1]!.slice(args[i + 1]!.indexOf('=') + 1).replace(/^!/, ''));
    // (fused, `-ccore.fsmonitor=…`, and clone's `--config NAME=VALUE` — red team adv49)
    else if (/^-c[^-]/.test(a) && !a.startsWith('-c=')) out.push(a.slice(a.indexOf('=') + 1).replace(/^!/, ''));
    else if (sub === 'clone' && a.startsWith('--') && !a.startsWith('--config-env') && isLong(a.slice(2).split('=')[0]!, ['config'])) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1] ?? '';
      out.push(v.slice(v.indexOf('=') + 1).replace(/^!/, ''));
    }
    if (sub === 'grep' && /^-O./.test(a)) out.push(a.slice(2));
    if ((sub === 'difftool' || sub === 'rebase') && a === '-x' && args[i + 1] !== undefined) out.push(args[i + 1]!);
    if ((sub === 'clone' || sub === 'ls-remote') && a === '-u' && args[i + 1] !== undefined) out.push(args[i + 1]!);
  }
  // (abbreviated as git takes them: `--open-files` for `--open-files-in-pager` — red team adv43)
  out.push(...optionValues(args, '', ['upload-pack', 'receive-pack', 'exec', 'open-files-in-pager', 'extcmd', 'index-filter', 'tree-filter', 'env-filter', 'msg-filter', 'commit-filter', 'parent-filter', 'tag-name-filter']));
  // `git config NAME VALUE` (`set NAME VALUE`, `--add`, `--replace-all`): the value may be one git
  // runs later in the same command (core.fsmonitor, alias.x='!…': red team adv48), as a -c value
  if (sub === 'config' && !gitSubReads([...args])) {
    const plain = words.slice(1).filter((w, i, all) => !w.startsWith('-') && !/^(?:-f|--file|--blob|-t|--type|--default|--comment|--value)$/.test(all[i - 1] ?? ''));
    const rest = /^(?:set|unset|rename-section|remove-section|edit)$/.test(plain[0] ?? '') ? plain.slice(1) : plain;
    // (every word after the name: VALUE, and a value pattern after it — red team adv49 put the code first)
    for (const v of rest.slice(1)) out.push(v.replace(/^!/, ''));
  }
  const action = words.slice(1).findIndex((w) => !w.startsWith('-')) + 1;
  if ((sub === 'bisect' && words[action] === 'run') || (sub === 'submodule' && words[action] === 'foreach')) out.push(words.slice(action + 1).filter((w, i) => i > 0 || !w.startsWith('-')).join(' '));
  // programs some subcommands run: `send-email --sendmail-cmd`, `instaweb --httpd`, `web--browse -b` (red team adv42)
  if (sub === 'send-email') out.push(...optionValues(words, '', ['sendmail-cmd', 'smtp-server']));
  if (sub === 'instaweb') out.push(...optionValues(words, 'd', ['httpd', 'browser']));
  if (sub === 'web--browse' || sub === 'help') out.push(...optionValues(words, 'b', ['browser']));
  return out.filter((c) => c.trim() !== '');
}

/** Files a git command writes by name outside the work tree's own: `config --file F`, `bundle create F`, `archive -o F` (red team adv42). */
function gitFiles(args: readonly string[]): string[] {
  const words = gitWords([...args]);
  const [sub, action] = words;
  if (sub === 'config') {
    const file = optionValues(words, 'f', ['file']);
    // (a read: `--get`, `--list`, `-l`, or a name alone)
    const reads = words.some((w) => /^--(get|get-all|get-regexp|list|get-urlmatch|show-origin|show-scope)$|^-l$/.test(w)) || words.slice(1).filter((w) => !w.startsWith('-')).length - file.length <= 1;
    return reads ? [] : file;
  }
  if (sub === 'bundle' && action === 'create' && words[2] !== undefined) return [words[2]];
  if (sub === 'archive') return optionValues(words, 'o', ['output']);
  return [];
}

/** `git -c name=value …` (or --config-env) can make any git command run a program (core.pager, diff.external …) */
const gitConfigured = (args: string[]) => args.some((a) => a.startsWith('-c') || a.startsWith('--config-env') || (a.startsWith('--con') && isLong(a.slice(2).split('=')[0]!, ['config'])));

/** git's subcommand, past the global options (`-C DIR`, `--git-dir DIR`, `-c name=value` …). */
function gitSubcommand(args: string[]): string | undefined {
  return gitWords(args)[0];
}

/** git's subcommand and the words after it, its global options (-C DIR …) left out */
function gitWords(args: string[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'].includes(a)) i++;
    else if (!a.startsWith('-')) return args.slice(i);
  }
  return [];
}

/** subcommands that change the repository but only read with these actions: `git stash list`, `git worktree list` */
const GIT_READ_ACTIONS: Record<string, ReadonlySet<string>> = {
  stash: new Set(['list', 'show']),
  worktree: new Set(['list']),
  notes: new Set(['list', 'show']),
  submodule: new Set(['status']),
};

/** a git subcommand that only reads: one of GIT_READ_ONLY, or a read action of another */
function gitSubReads(args: string[]): boolean {
  const [sub, action] = gitWords(args);
  // `git apply --check` / `--stat`: reads the patch, applies nothing (red team adv41's friction)
  if (sub === 'apply' && args.some((a) => /^--(check|stat|numstat|summary)$/.test(a)) && !args.includes('--apply')) return true;
  // (`git config NAME VALUE` writes the folder's .git/config: red team adv47)
  if (sub === 'config') return args.some((a) => /^--(?:get|get-all|get-regexp|list|get-urlmatch|show-origin|show-scope)$|^-l$/.test(a)) || /^(?:get|list)$/.test(action ?? '') || gitWords(args).filter((w) => !w.startsWith('-')).length <= 2;
  return !!sub && (GIT_READ_ONLY.has(sub) || (action !== undefined && GIT_READ_ACTIONS[sub]?.has(action) === true));
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

/** long options that name a file a command writes, whatever the command */
const OUTPUT_OPTIONS = ['output', 'output-file', 'outfile', 'out-file', 'output-directory'];

/**
 * Options of programs that name a file they write (`out`, `outLong`) or a command they run (`code`,
 * `codeLong`), read as getopt reads them (red team adv42: `tar --to-command=CMD`, `curl -D F`,
 * `wget -o F`, `sort --compress-program=CMD`, `rsync -e CMD`, `gpg -o F`, `ssh-keygen -f F`, `man -P CMD`).
 */
const PROGRAM_OPTIONS: Record<string, { out?: string; outLong?: readonly string[]; code?: string; codeLong?: readonly string[] }> = {
  tar: { out: 'g', outLong: ['index-file', 'listed-incremental', 'volno-file'], code: 'IF', codeLong: ['to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command'] },
  bsdtar: { codeLong: ['use-compress-program'] },
  sort: { out: 'o', codeLong: ['compress-program'] },
  curl: { out: 'oDc', outLong: ['dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'output-dir', 'etag-save', 'hsts', 'alt-svc', 'libcurl'] },
  wget: { out: 'OoaP', outLong: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'save-cookies', 'warc-file', 'rejected-log'] },
  ssh: { out: 'E' },
  rsync: { code: 'e', codeLong: ['rsh'], outLong: ['log-file', 'write-batch', 'only-write-batch', 'backup-dir', 'temp-dir', 'partial-dir'] },
  cpio: { out: 'OF', outLong: ['file'] },
  // (its output, reject file and backup prefix, fused or not: red team adv45's `patch -o/root/.bashrc`, `-B/root/`)
  patch: { out: 'orBY', outLong: ['output', 'reject-file', 'prefix', 'basename-prefix'] },
  gpg: { out: 'o', outLong: ['output'] },
  'ssh-keygen': { out: 'f' },
  man: { code: 'P', codeLong: ['pager'] },
  zip: { codeLong: ['unzip-command'] },
  csplit: { out: 'f', outLong: ['prefix'] },
};

/** The values of a command's options: `-xyL VALUE`, `-LVALUE`, `--long VALUE`, `--long=VALUE` (short letters in `letters`, long names in `long`). */
function optionValues(args: readonly string[], letters = '', long: readonly string[] = []): string[] {
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
/** tar and zip name the archive they make: `tar -cf F`, `tar czf F`, `tar --file=F` */
function archiveMade(cmd: string, args: string[]): string[] {
  if (cmd !== 'tar' && cmd !== 'bsdtar') return [];
  // (making, adding to, joining or deleting from an archive writes it: red team adv44's `--delete`, `-A`)
  if (!tarMode(args, 'cruA', ['create', 'append', 'update', 'delete', 'catenate', 'concatenate'])) return [];
  // `-cf F`, `-cfF` (the rest of the bundle: `-cf/root/x.tar`), `--file=F`, `--fi F`, `tar czf F …`;
  // every one given: with -M each is a volume it writes (red team adv57 wrote the first of two)
  return tarOptions(args).options.filter((o) => o.name === 'f' || o.name === 'file').flatMap((o) => (o.value && o.value !== '-' ? [o.value] : []));
}

/** The files named by output options (`--output=F`, `--output F`, `sort -o F`, `sort -oF`). */
function outputFiles(cmd: string, args: string[]): string[] {
  if (READERS.has(cmd)) return []; // `echo --output=x` prints it
  // (a program's own short output options are in PROGRAM_OPTIONS; git's format-patch writes to -o)
  const short = cmd === 'git' && (args.includes('format-patch') || args.includes('archive')) ? 'o' : '';
  return optionValues(args, short, OUTPUT_OPTIONS).filter((v) => v !== '' && !HARMLESS_DEST.has(v) && v !== '-');
}

/** The writes of one simple command, given its words (name first, unquoted); `bash -c` and eval code goes to `nested`. */
function inspectWords(commandWords: string[], writes: BashWrite[], nested: string[], expanded: Expanded = NO_WORDS): void {
  // what xargs runs gets more operands from stdin: the files it names are judged, and the rest is
  // unknown (red team adv38: `xargs cp payload ~/h` had blanked out its literal target)
  if (inspectCommand(commandWords, writes, nested, expanded)) writes.push({ what: `${commandWords.join(' ').slice(0, 160)} (operands from stdin)`, targets: null });
}


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
function peel(commandWords: readonly string[]): Peeled {
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

/** git subcommands that write the work tree, and so may make a file a symlink. */
const GIT_WORKTREE = new Set(['apply', 'am', 'checkout', 'restore', 'switch', 'merge', 'pull', 'reset', 'stash', 'cherry-pick', 'rebase', 'revert', 'clone', 'worktree', 'read-tree', 'checkout-index']);

/** The work tree a git command writes: `-C DIR`, `--work-tree=DIR`, `worktree add PATH`, else where it runs (red team adv38: `git -C ~/repo checkout` was taken for the project). */
function gitWorkTree(args: readonly string[], operands: readonly string[], sub: string): string {
  const wt = args.findIndex((a) => a === '--work-tree' || a.startsWith('--work-tree='));
  if (wt >= 0) return args[wt]!.includes('=') ? args[wt]!.slice(12) : args[wt + 1] ?? '.';
  if (sub === 'worktree' && operands.includes('add')) return operands[operands.indexOf('add') + 1] ?? '.';
  const c = args.lastIndexOf('-C');
  return c >= 0 && args[c + 1] !== undefined ? args[c + 1]! : '.';
}

/** patch's options that take a value (short letters, long names): their values are no files it patches. */
const PATCH_VALUES = 'iordpFBYzDVg';
const PATCH_LONG_VALUES = ['input', 'output', 'reject-file', 'directory', 'strip', 'fuzz', 'prefix', 'basename-prefix', 'suffix', 'ifdef', 'version-control', 'get', 'quoting-style', 'read-only', 'reject-format'];

/** The folder `patch` works in: `-d DIR`, `--directory=DIR` (`--dir=DIR`, getopt's abbreviations), else where it runs. */
function patchDir(args: readonly string[]): string {
  return optionValues(args, 'd', ['directory']).at(-1) ?? '.';
}

/** The file `patch` is told to patch (its first operand), from the folder it works in; the patch it reads (`-i`, a second operand) is no target (red team adv53 had `-i /tmp/p.diff` judged instead of the folder). */
function patchTargets(args: readonly string[]): string[] {
  const dir = patchDir(args);
  return operandsAfter(args, PATCH_VALUES, PATCH_LONG_VALUES).slice(0, 1).map((f) => (dir === '.' || f.startsWith('/') ? f : `${dir.replace(/\/+$/, '')}/${f}`));
}

/**
 * The options of the writers (ALWAYS_WRITES) that take a value: short letters, long names (one taking
 * it only after `=` is not listed), and the long flags whose names begin another's (`install --strip`,
 * `rsync --compress`: an exact name is that option, not an abbreviation).
 */
const WRITER_VALUES: Record<string, { short: string; long: readonly string[]; flags?: readonly string[] }> = {
  cp: { short: 'St', long: ['suffix', 'target-directory', 'sparse', 'no-preserve'] },
  mv: { short: 'St', long: ['suffix', 'target-directory'] },
  ln: { short: 'St', long: ['suffix', 'target-directory'] },
  install: { short: 'gmoSt', long: ['group', 'mode', 'owner', 'suffix', 'target-directory', 'strip-program'], flags: ['strip'] },
  mkdir: { short: 'm', long: ['mode'] },
  touch: { short: 'drt', long: ['date', 'reference', 'time'] },
  truncate: { short: 'sr', long: ['size', 'reference'] },
  shred: { short: 'ns', long: ['iterations', 'size', 'random-source'] },
  chmod: { short: '', long: ['reference'] },
  chown: { short: '', long: ['reference', 'from'] },
  chgrp: { short: '', long: ['reference', 'from'] },
  rsync: { short: 'BefMT@', flags: ['compress', 'backup', 'partial', 'checksum'], long: ['max-alloc', 'block-size', 'rsh', 'rsync-path', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest', 'partial-dir', 'backup-dir', 'suffix', 'chmod', 'chown', 'usermap', 'groupmap', 'max-delete', 'max-size', 'min-size', 'timeout', 'contimeout', 'port', 'sockopts', 'out-format', 'log-file', 'log-file-format', 'password-file', 'bwlimit', 'write-batch', 'only-write-batch', 'read-batch', 'protocol', 'iconv', 'checksum-choice', 'compress-choice', 'compress-level', 'skip-compress', 'modify-window', 'remote-option', 'outbuf', 'info', 'debug', 'stop-after', 'stop-at', 'address', 'early-input'] },
  scp: { short: 'cDFiJloPSX', long: [] },
};

/**
 * The files chmod, chown and chgrp change: every operand after the mode or owner — all of them with
 * `--reference=F` (F is only read), and for chmod where the mode was given as an option (`chmod -x F`,
 * `chmod -w,u+x F`): GNU chmod reads such a word as its mode (red team adv57 had F dropped).
 */
function ownedOrModed(cmd: string, options: readonly GivenOption[], operands: readonly string[]): string[] {
  if (options.some((o) => o.name === 'reference')) return [...operands];
  if (cmd === 'chmod' && options.some((o) => /^[rwxXstugoa,+=0-7-]$/.test(o.name))) return [...operands];
  return operands.slice(1);
}

/**
 * How a shell (bash, sh, su, sg, script) is told what to run: the code of `-c` — the first operand
 * after its options, which bash lets come after `-c` (`bash -c -e 'code'`, `bash -c -- 'code'`: red team
 * adv39) — its operands, and whether it reads its commands from stdin (no code and no script, or `-s`).
 */
function shellArgs(cmd: string, args: readonly string[]): { code?: string; operands: string[]; stdin: boolean } {
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

/** A script operand that is a pipe: `<(…)`, /dev/fd/N, /dev/stdin, /proc/… */
const unreadCode = (o: string): boolean => o.startsWith('<(') || o.startsWith('/dev/fd/') || o.startsWith('/proc/') || o === '/dev/stdin' || o === '-';

/**
 * Variables whose value a program runs as a shell command (git's pager, editor, external diff, ssh
 * command, its settings from the environment; less's preprocessor): set for a command, by `env` or
 * by `export`, the value is judged as code (red team adv41: `GIT_EXTERNAL_DIFF='cmd' git diff`,
 * `GIT_CONFIG_VALUE_0='cmd' git status` with core.fsmonitor).
 */
const RUNS_VALUE_NAMES = 'GIT_EXTERNAL_DIFF|GIT_PAGER|PAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|GIT_ASKPASS|SSH_ASKPASS|GIT_PROXY_COMMAND|GIT_CONFIG_VALUE_\\d+|GIT_CONFIG_PARAMETERS|LESSOPEN|LESSCLOSE|MANPAGER|SYSTEMD_PAGER|BROWSER|RSYNC_RSH|TAR_OPTIONS|GIT_TRACE\\w*';
const RUNS_VALUE = new RegExp(`^(?:${RUNS_VALUE_NAMES})$`);

/** The `NAME=value` assignments a command or a declaration (`export …`) holds, as bash reads them. */
function assignmentsOf(n: Node): string[] {
  return (n.type === 'variable_assignment' ? [n] : n.namedChildren.filter((c) => c?.type === 'variable_assignment')).map((c) => {
    const value = c!.childForFieldName('value');
    return `${unquote(c!.childForFieldName('name') ?? c!)}=${value ? unquote(value) : ''}`;
  });
}

/**
 * The shell code in `NAME=value` words that set a variable a program runs (RUNS_VALUE): the value,
 * or for TAR_OPTIONS a tar command with those options; a GIT_TRACE* path is written (`: > F` stands for it).
 */
function codeOfAssignments(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const m = /^([A-Za-z_]\w*)\+?=(.*)$/s.exec(w);
    if (!m || !RUNS_VALUE.test(m[1]!) || !m[2]!.trim()) continue;
    const [name, value] = [m[1]!, m[2]!];
    if (name === 'TAR_OPTIONS') out.push(`tar ${value}`);
    else if (name.startsWith('GIT_TRACE')) {
      if (value.includes('/')) out.push(`: >> '${value.replace(/'/g, "'\\''")}'`);
    } else out.push(value.replace(/^!/, ''));
  }
  return out;
}

/** Words whose text is literal until bash evaluates it again. */
const QUOTED = new Set(['raw_string', 'ansi_c_string', 'translated_string', 'string']);

/** Builtins that evaluate a subscript or an arithmetic string given as a word, command substitutions included. */
const EVALUATES_SUBSCRIPTS = new Set(['test', '[', 'let', 'declare', 'typeset', 'local', 'export', 'readonly', 'printf', 'read', 'unset', ':', 'shift', 'return', 'exit', 'mapfile', 'readarray', 'wait', 'kill']);

/**
 * The command substitutions written in a word (`$(…)`, `` `…` ``), found by counting parentheses: a
 * `)` inside one (a case pattern: red team adv39) does not end it early.
 */
export function substitutions(word: string): string[] {
  const out: string[] = [];
  for (let i = word.indexOf('$('); i >= 0; i = word.indexOf('$(', i + 2)) {
    let depth = 0;
    let j = i + 1;
    for (; j < word.length; j++) {
      if (word[j] === '(') depth++;
      else if (word[j] === ')' && --depth === 0) break;
    }
    out.push(word.slice(i + 2, j));
  }
  for (const m of word.matchAll(/`([^`]*)`/g)) out.push(m[1]!);
  // an unbalanced one cannot be read: its text is code all the same
  return out.length > 0 || !/\$\(|`/.test(word) ? out : [word];
}

/** Editors run from the shell: their `-c`, `+cmd` or script write files by name (red team adv42: `vim -c 'w! F'`). */
const EDITORS = new Set(['vi', 'vim', 'nvim', 'view', 'ex', 'ed', 'red', 'emacs', 'nano', 'pico', 'joe', 'mcedit']);

/** Commands a /code turn never runs: a mount makes a project file another file (red team adv37: `mount --bind ~/x src/a.js`, then an Edit). */
/** Writers whose options say where they write or what they run: a word of theirs an expansion builds may be one */
const STEERED = new Set(['cp', 'mv', 'install', 'ln', 'tar', 'bsdtar', 'sed', 'rsync', 'patch', 'dd', 'unzip', 'cpio', 'scp', 'perl',
  'sort', 'git', 'curl', 'wget', 'gpg', 'csplit', 'split', 'zip', 'ssh-keygen', 'shuf', 'iconv', 'zstd', 'gzip', 'xz', 'bzip2', 'msgfmt', 'gcc', 'cc', 'clang',
  'g++', 'pandoc']);

/** The folders find starts from: after its own options (-H, -L, -P, -D LIST, -O LEVEL), up to its expression. */
function findStarts(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]+|D|O\d*)$/.test(args[i]!)) i += args[i] === '-D' ? 2 : 1;
  // (`find -- DIR`: GNU find takes `--` after its own options — red team adv61)
  if (args[i] === '--') i++;
  const rest = args.slice(i);
  const end = rest.findIndex((a) => /^[-(!]/.test(a));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Where `{}` (a path find hands over) is what a writer writes: its destination or an option's value (`cp -t {}`, `cp x {}`, `tar -C {}`). */
function foundAsDestination(run: readonly string[]): string | undefined {
  const cmd = path.basename(run[0] ?? '');
  const args = run.slice(1);
  if (!args.some((a) => a.includes('{}'))) return undefined;
  if (cmd === 'tar' || cmd === 'bsdtar') return tarOptions(args).options.some((o) => o.value?.includes('{}')) ? `${cmd} is given {} as an option's value` : undefined;
  if (!ALWAYS_WRITES.has(cmd) && cmd !== 'sed') return undefined;
  const { operands, options } = getopt(args, WRITER_VALUES[cmd]?.short ?? (cmd === 'sed' ? 'efl' : ''), WRITER_VALUES[cmd]?.long ?? []);
  if (options.some((o) => o.value?.includes('{}'))) return `${cmd} is given {} as an option's value`;
  if (operands.some((o) => o !== '{}' && o.includes('{}'))) return `${cmd} is given a path built on {}`;
  if (['cp', 'mv', 'install', 'ln', 'rsync', 'scp'].includes(cmd) && operands.length > 1 && operands.at(-1) === '{}') return `${cmd} writes into {}`;
  return undefined;
}

/** find's primaries that take the next word as a value that cannot act (a pattern, a type, a number) */
const FIND_VALUES = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype',
  '-newer', '-anewer', '-cnewer', '-samefile', '-user', '-group', '-uid', '-gid', '-perm', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin',
  '-maxdepth', '-mindepth', '-links', '-inum', '-used', '-regextype', '-fstype', '-context']);

/**
 * A word of a command whose options steer where it writes (STEERED, find) that may be an option when
 * it runs though the text does not show one: built by an expansion whose first character is unseen
 * (`$a`, `"$f"`, `$(…)`) or that starts with `-` (`-$x`, `--$x`: red team adv60), or a pattern whose
 * first character is a wildcard (`*​/var/tmp` matched a folder named `--target-directory=`: adv60).
 * Not after `--`; not the value of an option that takes one (`tar -tf "$f"`, `find . -name "$p"`).
 */
function optionUnseen(cmd: string, args: readonly string[], expanded: Expanded): string | undefined {
  // (git's `--end-of-options` ends its options and still takes revisions: `git log --end-of-options "$rev"`)
  const end = cmd === 'dd' || cmd === 'find' ? -1 : cmd === 'git' && args.includes('--end-of-options') ? args.indexOf('--end-of-options') : args.indexOf('--');
  const values = valueWords(cmd, args);
  return args.find((a, i) => (end < 0 || i < end) && !values.has(i)
    && ((expanded.all.has(a) && !expanded.firstKnown.has(a) && (/^[$`-]/.test(a)) && !/^(?:\$HOME|\$\{HOME\})(?:\/|$)/.test(a))
      // (a pattern that may match a name starting with `-`: `*/x`, `-*/var/tmp` — red team adv61; `~+`, `~-` are $PWD, $OLDPWD, which a command sets)
      || /^[*?[]|^-[^/]*[*?[]|^~[+-]/.test(a)));
}

/**
 * The positions of words that are an option's value, walking the words as the program does (a word
 * taken as a value takes none itself: `cp -S -S $x` gives -S the suffix "-S" and leaves $x an
 * option — red team adv61): after a bundle whose one letter that takes a value ends it (`-tf "$f"`,
 * `-C "$d"`), an old-style tar bundle's values, and find's primaries that take a word.
 */
function valueWords(cmd: string, args: readonly string[]): Set<number> {
  const letters = cmd === 'tar' || cmd === 'bsdtar' ? TAR_VALUES : WRITER_VALUES[cmd]?.short ?? '';
  const out = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (cmd === 'find' ? FIND_VALUES.has(a) : /^-[a-zA-Z]+$/.test(a) && letters.includes(a.at(-1)!) && ![...a.slice(1, -1)].some((c) => letters.includes(c))) {
      out.add(++i);
    } else if (i === 0 && (cmd === 'tar' || cmd === 'bsdtar') && /^[a-zA-Z]+$/.test(a)) {
      const n = [...a].filter((c) => letters.includes(c)).length;
      for (let k = 1; k <= n; k++) out.add(k);
      i += n;
    }
  }
  return out;
}

/** Programs that run a command with words from their input, as xargs does */
const FEEDERS = new Set(['parallel', 'rush', 'pexec', 'xe', 'dsh']);
const MOUNTERS = new Set(['mount', 'umount', 'losetup', 'unshare', 'nsenter', 'chroot', 'fusermount', 'bindfs']);

/** inspectWords for one command; true when it runs under xargs */
function inspectCommand(commandWords: string[], writes: BashWrite[], nested: string[], expanded: Expanded = NO_WORDS): boolean {
  const { words, xargs, code, outputs: own } = peel(commandWords);
  nested.push(...code);
  if (own.length > 0) writes.push({ what: commandWords.join(' '), targets: named(own) });
  if (words.length === 0) return xargs;
  const cmd = path.basename(words[0]!);
  const args = words.slice(1);
  // a word an expansion builds, of a first character the text does not show, may be an option when it
  // runs: `a=-t/var/tmp; cp $a f`, `tar -xf t.tar $x`, `set -- -e '1w F'; sed -n -e p "$@" f` (red team adv59)
  if (STEERED.has(cmd) || cmd === 'find') {
    const unseen = optionUnseen(cmd, args, expanded);
    if (unseen !== undefined) {
      writes.push({ what: words.join(' ').slice(0, 160), targets: null, refuse: cmd === 'dd'
        ? `'${unseen.slice(0, 60)}' is built by an expansion, and dd reads its operands as of=FILE, if=FILE: write them out`
        : cmd === 'find' ? `'${unseen.slice(0, 60)}' is built by an expansion or a pattern and may be a start folder or a primary when it runs (-delete, -fprint F, -exec …): write it out, or give it as the value of -name/-path`
          : `'${unseen.slice(0, 60)}' is built by an expansion or a pattern and may be an option when it runs (-t DIR, -C DIR, -e SCRIPT, --output=F): ${cmd === 'git' ? 'put --end-of-options before the revisions and paths that come from variables or patterns (git log --end-of-options "$rev")' : `put -- before the words that come from variables or patterns (${cmd} … -- "$f"), start a pattern with ./ (./*.md)`}, or write them out` });
      return xargs;
    }
  }
  // what xargs hands a writer from its input — a destination, `-e SCRIPT`, a file to remove — is unseen
  // (red team adv59: `echo /var/tmp/x | xargs cp f` wrote /var/tmp/x; `… | xargs sed -n -e p f` ran a
  // `w FILE` script xargs appended)
  if (xargs && judged(cmd) && !READERS.has(cmd)) {
    writes.push({ what: commandWords.join(' ').slice(0, 160), targets: null, refuse: `xargs gives ${cmd} words from its input, which the guard cannot see (a destination, an option, a script): name the files on the command line, or use find … -exec ${cmd} … {} +` });
    return xargs;
  }
  const operands = args.filter((a) => !a.startsWith('-'));
  const text = words.join(' ');
  if (MOUNTERS.has(cmd)) {
    writes.push({ what: text, targets: null, refuse: 'a /code turn mounts nothing: a mount (a bind mount of another file onto a project file) sends later writes of that file elsewhere' });
    return xargs;
  }
  // an alias runs what the guard never reads (`alias go='cd /elsewhere'`, with expand_aliases: red team adv37)
  if (cmd === 'alias' && args.some((a) => a.includes('='))) {
    writes.push({ what: text, targets: null, refuse: 'a /code turn defines no shell alias: the guard cannot follow what an alias runs. Write the command itself' });
    return xargs;
  }
  // `file -C` compiles its magic files into NAME.mgc in the folder it runs in (red team adv45)
  if (cmd === 'file' && args.some((a) => /^-[a-zA-Z]*C|^--compile$/.test(a))) {
    const magic = optionValues(args, 'm', ['magic-file']).flatMap((m) => m.split(':')).filter(Boolean);
    writes.push({ what: text, targets: named((magic.length > 0 ? magic : ['magic']).map((m) => `${path.posix.basename(m).replace(/\.mgc$/, '')}.mgc`)) });
  }
  // an output file named by an option (`git diff --output=F`, `sort -o F`, `curl -o F`): written
  // (tar deletes what it archived: red team adv53's `tar -c --remove-files -f x.tar /root/.bashrc`)
  if ((cmd === 'tar' || cmd === 'bsdtar') && args.some((a) => a.startsWith('--') && isLong(a.slice(2), ['remove-files']))) {
    writes.push({ what: text, targets: null, refuse: 'tar --remove-files deletes the files it archives: make the archive, then remove the files you mean by name' });
    return xargs;
  }
  const outputs = [...outputFiles(cmd, args), ...archiveMade(cmd, args)].filter((o) => !HARMLESS_DEST.has(o));
  if (outputs.length > 0) {
    // `git -C DIR … --output=F` writes DIR/F: a relative F is in a folder the guard does not follow
    const elsewhere = cmd === 'git' && args.some((a) => ['-C', '--work-tree'].includes(a));
    writes.push({ what: text, targets: named(outputs), ...(elsewhere ? { dir: null } : {}) });
  }
  const opts = PROGRAM_OPTIONS[cmd];
  if (opts) {
    const files = optionValues(args, opts.out, opts.outLong).filter((v) => !HARMLESS_DEST.has(v) && v !== '-');
    // curl puts a relative -o under --output-dir (red team adv44: `--output-dir D -o ../F`)
    if (cmd === 'curl') for (const d of optionValues(args, '', ['output-dir'])) files.push(...optionValues(args, 'o', ['output']).filter((v) => !v.startsWith('/')).map((v) => `${d}/${v}`));
    // an upload to a file:// URL writes that file (red team adv44: `curl -T SRC file:///root/.bashrc`)
    if (cmd === 'curl' && optionValues(args, 'T', ['upload-file']).length > 0) {
      for (const a of args) {
        // (`file:/P`, `file://host/P`; a `?query` or `#fragment` is no part of the path — red team adv45)
        const m = /^file:(?:\/\/[^/]*)?(\/[^?#]*)/i.exec(a.replace(/^--url=/, ''));
        if (m && /[[{]/.test(m[1]!)) writes.push({ what: text, targets: null, refuse: 'an upload to file:// URLs named by a pattern writes files the guard cannot name: give each URL in full' });
        else if (m) files.push(decodeURIComponent(m[1]!.replace(/%(?![0-9a-f]{2})/gi, '%25')));
      }
    }
    // `curl -O URL` writes the URL's last name in the folder it runs in (red team adv45: `cd /root && curl -O file:///…/.bashrc`)
    if (cmd === 'curl' && args.some((a) => /^-[a-zA-Z]*O|^--remote-name/.test(a))) {
      for (const a of args) {
        const u = /^[a-z][\w+.-]*:\/*[^/]*(\/[^?#]*)/i.exec(a.replace(/^--url=/, ''));
        const name = u ? path.posix.basename(u[1]!) : '';
        if (name) files.push(name);
      }
    }
    if (files.length > 0) writes.push({ what: text, targets: named(files) });
    nested.push(...optionValues(args, opts.code, opts.codeLong));
  }
  // tar's `--checkpoint-action=exec=CMD`; ssh's `-o ProxyCommand=CMD` (LocalCommand, KnownHostsCommand …)
  if (cmd === 'tar' || cmd === 'bsdtar') nested.push(...optionValues(args, '', ['checkpoint-action']).filter((v) => v.startsWith('exec=')).map((v) => v.slice(5)));
  if (cmd === 'ssh' || cmd === 'scp' || cmd === 'sftp') for (const o of optionValues(args, 'o')) {
    const m = /^\s*(?:Proxy|Local|KnownHosts|Remote)Command\s*(?:=|\s)\s*(.*)$/is.exec(o);
    if (m) nested.push(m[1]!);
  }
  // settings files and commands that set where a program writes or what it runs, unread here (red team adv43)
  const unreadable = (cmd === 'wget' && optionValues(args, 'e', ['execute']).length > 0 && 'wget -e runs wgetrc commands (output_document=, logfile= …)')
    || (cmd === 'curl' && optionValues(args, 'K', ['config']).length > 0 && 'curl -K reads options (output=, dump-header= …) from a file or stdin')
    || (cmd === 'wget' && optionValues(args, '', ['config']).length > 0 && 'wget --config reads wgetrc commands (output_document=, logfile= …) from a file')
    || (cmd === 'zip' && args.some((a) => a === '-TT' || a.startsWith('--unzip-command')) && 'zip -TT runs a command')
    // (npx's options come before the command: `npx prettier -c F` is prettier's; a bundle holding c
    // is read as npm's option parser may split it, `-pc CODE` as `-p -c CODE`)
    || (cmd === 'npx' && leadingOptions(args, 'pwc', ['package', 'workspace', 'call']).some((a) => /^-[a-zA-Z]*c/.test(a) || (a.startsWith('--') && isLong(a.slice(2).split('=')[0]!, ['call'])))
      && 'npx -c runs shell code')
    || ((cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn') && ['exec', 'x', 'dlx'].includes(operands[0] ?? '') && optionValues(args, 'c', ['call']).length > 0 && `${cmd} ${operands[0]} -c runs shell code`)
    // callbacks bash runs: `mapfile -C CODE`, `compgen -C CMD`/`-F FUNC`, `complete -C` (red team adv45)
    || (['mapfile', 'readarray', 'compgen', 'complete'].includes(cmd) && optionValues(args, 'CF').length > 0 && `${cmd} -C runs a command for its lines`)
    || ((cmd === 'awk' || cmd === 'gawk' || cmd === 'mawk' || cmd === 'nawk' || cmd === 'sed') && optionValues(args, 'f', ['file']).some((f) => ['-', '/dev/stdin'].includes(f) || /^\/(?:dev\/fd|proc\/[^/]+\/fd)\/0$/.test(f)) && `${cmd} -f reading its program from stdin`)
    || (cmd === 'mawk' && optionValues(args, 'W').some((v) => /^e/.test(v)) && 'mawk -W exec runs a program file')
    // the user's own settings, outside the project (`npm config set node-options=…` is read by every later npm: red team adv46)
    || (['npm', 'pnpm', 'yarn', 'pip', 'pip3', 'bun'].includes(cmd) && ['config', 'c'].includes(operands[0] ?? '') && /^(?:set|delete|rm|unset|edit)$/.test(operands[1] ?? '') && `${cmd} config ${operands[1]} writes the user's settings outside the project, which`)
    || (['npm', 'pnpm', 'yarn'].includes(cmd) && ['set', 'adduser', 'add-user', 'login', 'logout', 'setup'].includes(operands[0] ?? '') && `${cmd} ${operands[0]} writes the user's settings outside the project, which`)
    || ((cmd === 'pip' || cmd === 'pip3') && args.includes('--user') && "pip --user installs into the user's folder outside the project, which")
    || (cmd === 'corepack' && /^(?:enable|disable|prepare|install)$/.test(operands[0] ?? '') && "corepack changes the user's package-manager shims outside the project, which")
    // (abbreviated as git takes them: `--glo` — red team adv48)
    || (cmd === 'git' && gitWords(args)[0] === 'config' && args.some((a) => a.startsWith('--') && isLong(a.slice(2).split('=')[0]!, ['global', 'system'])) && !args.some((a) => /^--(?:get|get-all|get-regexp|list|get-urlmatch)$|^-l$/.test(a)) && !/^(?:get|list)$/.test(gitWords(args)[1] ?? '')
      && "git config --global/--system writes the user's git settings (an alias or core.fsmonitor runs in every later git), which")
    || (cmd === 'go' && operands[0] === 'env' && args.some((a) => /^-[wu]$/.test(a)) && "go env -w writes the user's Go settings outside the project, which")
    || (cmd === 'curl' && optionValues(args, 'T', ['upload-file']).length > 0 && optionValues(args, '', ['proto-default']).length > 0 && 'curl -T with --proto-default uploads where a URL without a scheme says')
    || (cmd === 'make' && (optionValues(args, 'E', ['eval']).length > 0) && 'make --eval runs make code ($(shell …) included)')
    || (cmd === 'split' && optionValues(args, '', ['filter']).length > 0 && 'split --filter runs shell code')
    // (red team adv48: a patch naming ../../root/x is applied there)
    || (cmd === 'git' && gitWords(args)[0] === 'apply' && args.some((a) => a.startsWith('--') && isLong(a.slice(2), ['unsafe-paths'])) && 'git apply --unsafe-paths writes where the patch says, past the project, which')
    // git's ext:: transport runs the command written after it (red team adv48: `git ls-remote 'ext::sh -c …'`)
    || (cmd === 'git' && args.some((a) => a.includes('ext::')) && "git's ext:: transport runs the command written in the URL, which");
  if (unreadable) {
    writes.push({ what: text, targets: null, refuse: `${unreadable} the guard cannot follow: write the steps as plain commands` });
    return xargs;
  }
  // `split IN PREFIX` writes files named from PREFIX
  if (cmd === 'split') {
    const ops = operandsAfter(args, 'lbnCat');
    if (ops.length >= 2) writes.push({ what: text, targets: named([ops[1]!]) });
  }
  // an editor or a scheduler run from the shell: it writes what it is told later, unread by the guard
  if (EDITORS.has(cmd) || cmd === 'crontab' || cmd === 'at') {
    writes.push({ what: text, targets: null, refuse: cmd === 'crontab' || cmd === 'at' ? 'a /code turn schedules nothing: a job runs later, where the guard cannot judge it' : 'a /code turn edits files with the edit tools, not with an editor run from the shell (its commands, -c or +cmd, write where they say)' });
    return xargs;
  }
  if (cmd === 'source' || cmd === '.') {
    if (operands.some(unreadCode)) writes.push({ what: text, targets: null, refuse: 'it runs code from a pipe or a process substitution, which the guard cannot read: run the commands themselves' });
    else if (operands.length > 0) writes.push({ what: text, targets: null }); // runs a script: may write anything
    return xargs;
  }
  if (SHELLS.has(cmd) || cmd === 'su' || cmd === 'sg' || cmd === 'script' || cmd === 'busybox') {
    if (cmd === 'busybox') {
      // `busybox tee f`: the applet is the command
      inspectCommand(args, writes, nested, expanded);
      return xargs;
    }
    const stdin = 'a shell that reads its commands from stdin (a here-doc, a pipe) runs what the guard cannot read: run the commands themselves, or bash -c \'…\'';
    const sh = shellArgs(cmd, args);
    // the shell's own options that change how it expands words (`bash -O extglob`, `+B`, `-f`: red
    // team adv50), and a shell that is not bash (`sh` may be dash: no brace expansion) given braces
    const opts: string[] = [];
    for (let i = 0; i < args.length && /^[-+]./.test(args[i]!) && args[i] !== '--'; i++) opts.push(/^[-+][oO]$/.test(args[i]!) ? `${args[i]}${args[++i] ?? ''}` : args[i]!);
    const expansion = opts.find((o) => SHELL_EXPANSION_OPTION.test(o));
    if (expansion) writes.push({ what: text, targets: null, refuse: `${cmd} ${expansion} changes how the shell expands words, which the write guard reads as bash does by default: run it without` });
    else if (sh.code !== undefined && cmd !== 'bash' && /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/.test(sh.code)) writes.push({ what: text, targets: null, refuse: `${cmd} may not expand braces as bash does (sh is dash on many systems): write the words out, or run bash -c` });
    else if (sh.code !== undefined) nested.push(sh.code);
    else if (sh.operands.some(unreadCode)) writes.push({ what: text, targets: null, refuse: 'it runs code from a pipe or a process substitution, which the guard cannot read: run the commands themselves' });
    // no command and no script: it reads its commands from stdin (red team adv38: a here-doc; adv39: `bash -o posix <<…`, `… | su`, `script` alone)
    else if (sh.stdin) writes.push({ what: text, targets: null, refuse: stdin });
    else writes.push({ what: text, targets: null }); // runs a script: may write anything
    return xargs;
  }
  if (cmd === 'eval') {
    // an expansion evaluated is code the guard cannot read (`eval "$1"`: red team adv38)
    if (args.some((a) => a.includes('$') || a.includes('`'))) writes.push({ what: text, targets: null, refuse: 'eval of an expansion runs code the guard cannot read: run the commands themselves' });
    else nested.push(args.join(' '));
    return xargs;
  }
  // `hash -p /usr/bin/tee cat`: a name then runs another program (red team adv38)
  if (cmd === 'hash' && args.some((a) => /^-[a-zA-Z]*p/.test(a))) {
    writes.push({ what: text, targets: null, refuse: 'hash -p makes a command name run another program, which the guard would judge as the name: run the program by its own name' });
    return xargs;
  }
  // a trap's action runs later, unread: written out as code (and a DEBUG or RETURN trap, run before every command, may move the shell: red team adv38)
  if (cmd === 'trap') {
    const action = operands[0];
    if (action !== undefined && operands.slice(1).some((sig) => /^(?:DEBUG|RETURN|ERR)$/i.test(sig))) writes.push({ what: text, targets: null, refuse: 'a DEBUG, RETURN or ERR trap runs before or after every command, unread by the guard: run the commands themselves' });
    else if (action !== undefined && action !== '-' && action !== '') nested.push(action);
    return xargs;
  }
  // an array subscript or an arithmetic string is evaluated, command substitutions in it run (`test -v 'x[$(cmd)]'`, `let`, `printf -v`, `declare`: red team adv38)
  // (printf decodes `\x24(` into `$(` itself: adv41's `printf -v x 'y[\x24(cmd)]'`)
  if (EVALUATES_SUBSCRIPTS.has(cmd)) for (const a of args) nested.push(...substitutions(cmd === 'printf' ? ansiC(a) : a));
  if (ALWAYS_WRITES.has(cmd)) {
    // cp/mv/ln/install/rsync write their last operand; rm, mkdir, touch, chmod... write every operand
    // ln: a write through the link lands on what it names, so that counts as written too (a
    // symbolic link's relative target is read from the link's folder)
    // (`cp -s`/`cp -l` make links too: red team adv26 wrote through one in the same command)
    // (read as getopt reads them: a value is no operand, wherever the option stands)
    const { operands, options, firstOperand } = getopt(args, WRITER_VALUES[cmd]?.short ?? '', WRITER_VALUES[cmd]?.long ?? [], WRITER_VALUES[cmd]?.flags);
    // with POSIXLY_CORRECT set (in the command, or exported before it) options stop at the first
    // operand: the words after it are paths then, and that reading is judged too (red team adv59:
    // `POSIXLY_CORRECT=1 cp f -t /tmp/ok /var/tmp/` wrote /var/tmp/f)
    const rest = firstOperand < 0 ? [] : args.slice(firstOperand);
    const ended = args.slice(0, Math.max(0, firstOperand)).includes('--');
    if (!ended && rest.some((a, i) => a.startsWith('-') && a !== '-' && !rest.slice(0, i).includes('--'))) {
      inspectCommand([words[0]!, ...args.slice(0, firstOperand), '--', ...rest], writes, nested, expanded);
    }
    // a backup is the written file's name + the suffix, beside it unless the suffix leads elsewhere
    if (lastGiven(options, 'S', 'suffix')?.includes('/')) writes.push({ what: text, targets: null, refuse: 'a backup suffix with a "/" puts the backup in another folder than the file: give a plain suffix (-S .bak)' });
    if (cmd === 'ln') {
      const ln = lnParts(args);
      writes.push({ what: text, targets: ln.targets.length ? named(ln.targets) : null, linkDests: [ln.dest] });
      return xargs;
    }
    // (long options abbreviated as getopt_long takes them: `--sym`, `--arch`, `--rec` — red team adv52)
    const cpLong = (a: string, names: readonly string[]) => a.startsWith('--') && a.length > 3 && isLong(a.slice(2).split('=')[0]!, names);
    const links = cmd === 'cp' && args.some((a) => /^-[a-zA-Z]*[sl]/.test(a) || cpLong(a, ['symbolic-link', 'link']));
    const linked = links && operands.length > 1
      // (joined as written: a `..` in it goes up from where a link on the way led — red team adv35)
      ? operands.slice(0, -1).map((o) => (args.some((a) => /^-[a-zA-Z]*s/.test(a) || cpLong(a, ['symbolic-link'])) && !o.startsWith('/') ? `${path.posix.dirname(operands.at(-1)!)}/${o}` : o))
      : [];
    // `cp -t DIR SRC…`, `mv -t DIR …`: DIR is written, every operand is a source (red team adv38)
    const tDir = ['cp', 'mv', 'install'].includes(cmd) ? lastGiven(options, 't', 'target-directory') : undefined;
    // (`install -d A B` makes every operand a folder — red team adv53 had only the last judged)
    const makesDirs = cmd === 'install' && args.some((a) => /^-[a-zA-Z]*d/.test(a) || (a.startsWith('--') && isLong(a.slice(2), ['directory'])));
    const targets = tDir !== undefined ? [tDir, ...linked]
      : cmd === 'patch' ? patchTargets(args)
      : makesDirs ? operands
      : ['cp', 'mv', 'install', 'rsync', 'scp'].includes(cmd) ? [...operands.slice(-1), ...linked]
      : cmd === 'chmod' || cmd === 'chown' || cmd === 'chgrp' ? ownedOrModed(cmd, options, operands)
      : cmd === 'dd' ? args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3))
      : operands;
    const main: BashWrite = { what: text, targets: targets.length ? named(targets) : null, ...(cmd === 'rm' || cmd === 'unlink' ? { unlinks: true as const } : {}) };
    writes.push(main);
    // `patch` makes a symlink from a git diff's `new file mode 120000` (red team adv37): in its folder
    if (cmd === 'patch') {
      main.linkDests = [patchDir(args)];
      // (what a patch names is written in the folder it works in: judged there when it names no file)
      main.runsIn = patchDir(args);
    }
    // rsync deletes what it sent (red team adv53: `rsync --remove-source-files /root/.bashrc …`)
    if (cmd === 'rsync' && args.some((a) => a.startsWith('--') && isLong(a.slice(2), ['remove-source-files', 'remove-sent-files'])) && operands.length > 1)
      writes.push({ what: `${text} (removes its sources)`, targets: named(operands.slice(0, -1)), unlinks: true });
    const sources = tDir !== undefined ? operands.filter((o) => o !== tDir) : operands.slice(0, -1);
    if (cmd === 'mv' && sources.length > 0) writes.push({ what: `${text} (removes its source)`, targets: named(sources) });
    // a link copied as a link (cp -P, -a, -d, -R, mv): the copy points where the source does (red
    // team adv35: `cp -P R L && echo x >> L/.bashrc`, R → /root, wrote through the copy)
    const copiesLinks = cmd === 'mv' || cmd === 'rsync' || (cmd === 'cp' && args.some((a) => /^-[a-zA-Z]*[PdaRr]|^--pre[a-z]*=.*links/.test(a) || cpLong(a, ['no-dereference', 'archive', 'recursive'])));
    if (copiesLinks && sources.length > 0) writes.push({ what: `${text} (copies a link as a link)`, targets: named(sources), copiesLinks: true });
    if ((copiesLinks || links) && sources.length > 0) main.linkDests = [tDir ?? operands.at(-1)!];
    return xargs;
  }
  if (cmd === 'tee') {
    writes.push({ what: text, targets: operands.length ? named(operands) : null });
    return xargs;
  }
  if (cmd === 'sed') {
    // a sed script writes files by name (`w F`, `W F`, `s/a/b/w F`) and runs commands (`e`, `s/a/b/e`: red team adv42),
    // in each way sed may read its arguments (sedCommands)
    const readings = sedCommands(args);
    if (readings.some((r) => built(r.scripts, expanded))) {
      writes.push({ what: text, targets: null, refuse: 'a sed script built from a variable or a command substitution is not what the guard reads (its value may hold `w FILE` or `e CMD`): write the script out' });
      return xargs;
    }
    if (readings.some((r) => r.scriptFiles.length > 0)) {
      writes.push({ what: text, targets: null, refuse: 'a sed script read from a file (-f) is not read by the guard: give the script with -e' });
      return xargs;
    }
    // (sed joins its -e scripts with newlines: one script)
    const effects = readings.map((r) => sedEffects(r.scripts.join('\n')));
    // (any reading sed may take that the guard cannot read is refused: red team adv55 hid `e CMD\` + a line in
    // the -e script behind a readable POSIX reading)
    if (effects.some((e) => e === undefined)) {
      writes.push({ what: text, targets: null, refuse: 'the guard could not read this sed script as GNU sed reads it (sed would refuse it too): write it plainly' });
      return xargs;
    }
    if (effects.some((e) => e?.runs)) {
      writes.push({ what: text, targets: null, refuse: "sed's e command runs its text as a shell command, unread by the guard: run the command itself" });
      return xargs;
    }
    const files = [...new Set(effects.flatMap((e) => e?.writes ?? []))];
    if (files.length > 0) writes.push({ what: text, targets: named(files) });
    const inPlace = readings.filter((r) => r.inPlace);
    if (inPlace.length > 0) {
      const edited = [...new Set(inPlace.flatMap((r) => r.files))];
      writes.push({ what: text, targets: edited.length ? named(edited) : null });
      // the backup it keeps is written too: `-i.bak` beside the file, `-i'DIR/*'` wherever the suffix
      // says, `*` standing for the file's name (red team adv44: `sed -i'/root/.bash*' -e … rc`)
      for (const suffix of new Set(inPlace.map((r) => r.suffix).filter((x): x is string => x !== undefined))) {
        if (edited.length > 0) writes.push({ what: `${text} (its backup)`, targets: named(backupsOf(edited, suffix)) });
      }
    }
    return xargs;
  }
  if (cmd === 'perl' && args.some((a) => /^-[a-zA-Z]*i/.test(a))) {
    const edited = perlFiles(args);
    writes.push({ what: text, targets: edited });
    const suffix = args.map((a) => /^-[a-zA-Z]*?i(.+)$/.exec(a)?.[1]).find((x) => x !== undefined);
    if (suffix !== undefined && edited) writes.push({ what: `${text} (its backup)`, targets: named(backupsOf(edited, suffix)) });
    return xargs;
  }
  if (AWKS.has(cmd)) {
    if (args.includes('inplace')) writes.push({ what: text, targets: null });
    // an awk program that runs commands or writes files by name: `system()`, `print > "F"`, `| "cmd"` (red team adv42)
    const sources = awkSources(args);
    const program = sources?.join('\n');
    if (sources && built(sources, expanded)) {
      writes.push({ what: text, targets: null, refuse: 'an awk program built from a variable or a command substitution is not what the guard reads (its value may call system() or print to a file): write the program out' });
      return xargs;
    }
    if (program !== undefined && AWK_EFFECTS.test(awkShape(program))) {
      writes.push({ what: text, targets: null, refuse: 'an awk program that runs commands or writes files (system(), print > file, a pipe) does what the guard cannot follow: write those steps as shell commands' });
    }
    return xargs;
  }
  // `-fprint F`, `-fprint0 F`, `-fprintf F FMT`, `-fls F` write F (red team adv42)
  const printed = cmd === 'find' ? args.flatMap((a, i) => (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a) && args[i + 1] !== undefined ? [args[i + 1]!] : [])) : [];
  if (printed.length > 0) writes.push({ what: text, targets: named(printed) });
  if (cmd === 'find' && args.some((a) => a === '-delete' || a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir')) {
    const before = writes.length;
    writes.push({ what: text, targets: null });
    // what -exec runs is a command of its own: its named targets and links are judged (red team adv38: `-exec cp x ~/y \;`, `-exec ln -s … \;`)
    for (let i = 0; i < args.length; i++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!)) continue;
      const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+' || a === '\\;'));
      const run = args.slice(i + 1, end < 0 ? undefined : end);
      // (a found path as a sed script or an awk program is text the guard cannot read: `-exec sed -n {} \;`)
      const runs = path.basename(run[0] ?? '');
      const program = runs === 'sed' ? sedCommands(run.slice(1)).flatMap((r) => r.scripts) : AWKS.has(runs) ? awkSources(run.slice(1)) ?? [] : [];
      if (program.some((x) => x.includes('{}'))) {
        writes.push({ what: text, targets: null, refuse: `a path find hands over is ${runs}'s program here, text the guard cannot read: write the program out` });
        return xargs;
      }
      // (a found path as where a writer writes — `-exec cp -t {} SRC \;`, `-exec cp SRC {} \;` — may be a link out: red team adv60)
      const into = foundAsDestination(run);
      if (into) {
        writes.push({ what: text, targets: null, refuse: `${into}: a path find hands over may be a link that leads out of the folders it searches. Copy from what it finds, not into it` });
        return xargs;
      }
      const inner = run.filter((a) => a !== '{}');
      if (inner.length > 0) inspectCommand(inner, writes, nested, expanded);
    }
    // what it deletes or hands to a writer lies under the folders it starts from (red team adv44:
    // `find /root -name .bashrc -exec rm {} +`, `find /root/.ssh -delete`)
    // (past its own options: `find -L /var/tmp …` — red team adv60 had the start dropped and '.' judged)
    const starts = findStarts(args);
    const writesFound = args.includes('-delete') || writes.slice(before + 1).length > 0;
    if (writesFound && starts.some((a) => UNKNOWABLE.test(a))) {
      writes.push({ what: text, targets: null, refuse: 'find deletes or hands to a writer what it finds under a folder an expansion or a pattern names: name the folders it starts from' });
      return xargs;
    }
    if (writesFound) writes.push({ what: `${text} (what it finds)`, targets: starts.length > 0 ? starts : ['.'], given: true });
    return xargs;
  }
  // where an archive or a clone is unpacked (red team adv26: `tar -xf t.tar -C ~`, `unzip -d`, `git clone URL DIR`)
  const unpacked = unpackDir(cmd, args, operands);
  // a member list may hold `-C DIR` lines, which tar obeys (red team adv59)
  if (unpacked !== undefined && (cmd === 'tar' || cmd === 'bsdtar') && tarOptions(args).options.some((o) => o.name === 'T' || (o.name.length > 2 && isLong(o.name, ['files-from'])))) {
    writes.push({ what: text, targets: null, refuse: 'a member list (-T, --files-from) may hold `-C DIR` lines that send the members elsewhere: name the members on the command line' });
    return xargs;
  }
  // an archive unpacked with its absolute names writes wherever they say, not in -C (red team adv37)
  if (unpacked !== undefined && (cmd === 'tar' || cmd === 'bsdtar') && args.some((a, i) => (/^-[a-zA-Z]*P/.test(a) || (a.startsWith('--') && isLong(a.slice(2), ['absolute-names']))) || (i === 0 && /^[a-zA-Z]+$/.test(a) && a.includes('P')))) {
    writes.push({ what: text, targets: null, refuse: 'an archive unpacked with absolute names (-P) writes wherever its members say, past the folder it is given: unpack without -P' });
    return xargs;
  }
  // the same for `unzip -:` (entries keep their `../`) and GNU cpio's copy-in, which keeps absolute
  // names unless told --no-absolute-filenames (red team adv48)
  const escapes = cmd === 'unzip' && args.some((a) => /^-[a-zA-Z]*:/.test(a)) ? 'unzip -: keeps the ../ of entry names, so they unpack past the folder it is given: unpack without -:'
    : cmd === 'cpio' && unpacked !== undefined && args.some((a) => /^-[a-zA-Z]*i|^--extract$/.test(a)) && !args.includes('--no-absolute-filenames') ? 'cpio -i keeps absolute member names, so they unpack wherever the archive says: add --no-absolute-filenames, or unpack with tar -x -C DIR'
      : undefined;
  if (escapes) {
    writes.push({ what: text, targets: null, refuse: escapes });
    return xargs;
  }
  if (unpacked !== undefined) {
    const dirs = unpacked === null ? null : [unpacked].flat();
    writes.push({ what: text, targets: dirs === null ? null : named(dirs), ...(dirs === null ? {} : { linkDests: dirs }) });
    if (cmd !== 'git') return xargs;
  }
  // `ar rc LIB.a …`: the archive it makes or changes (red team adv44)
  if (cmd === 'ar' && /^-?[a-zA-Z]*[rqdmsu]/.test(args[0] ?? '') && !/x/.test(args[0] ?? '') && args[1] !== undefined) {
    writes.push({ what: text, targets: named([args[1]]) });
    return xargs;
  }
  if (cmd === 'link' && operands.length === 2) {
    writes.push({ what: text, targets: named(operands) }); // a hard link: a write through it lands in both
    return xargs;
  }
  if (cmd === 'git') {
    // shell code git runs from its options: `-c alias.x='!cmd'`, `-c core.fsmonitor=cmd`,
    // `--upload-pack=cmd`, `grep -Ocmd` (red team adv41)
    nested.push(...gitCode(args));
    const named_ = gitFiles(args);
    if (named_.length > 0) writes.push({ what: text, targets: named(named_) });
    if (args.some((a) => a.startsWith('--config-env'))) writes.push({ what: text, targets: null, refuse: "git --config-env takes a setting's value from a variable the guard cannot read (it may be a command git runs): write the value with -c" });
    const sub = gitSubcommand(args);
    // (a patch or a checkout can make a file a symlink: mode 120000 — red team adv37)
    if (gitConfigured(args) || (sub && !gitSubReads(args))) {
      writes.push({ what: text, targets: null, ...(sub && GIT_WORKTREE.has(sub) && !args.some((a) => /^--(check|stat|numstat|summary)$/.test(a)) ? { linkDests: [gitWorkTree(args, operands, sub)] } : {}) });
      // a repository or work tree it changes elsewhere (`git init /root/x`, `git -C /root/r checkout -- .`,
      // `worktree add`, `--separate-git-dir`: red team adv44) is judged as a program's given paths
      // (a commit message is text, not a path)
      const paths = givenWords(args.filter((a, i) => !/^(?:-m|--message)$/.test(args[i - 1] ?? '') && !/^(?:-m.|--message=)/.test(a)));
      if (paths.length > 0) writes.push({ what: text, targets: paths, given: true });
    }
    return xargs;
  }
  if (PKG_MANAGERS.has(cmd)) {
    const sub = operands[0];
    // (a script of the folder's own — `npm test`, `go generate`, `cargo build` — may write anything too:
    // where the folder is outside the project, nothing would see it — red team adv46: `cd /root && npm test`)
    // (every subcommand but a known read: npm's aliases are many — `it`, `cit`, `rb`, `rum`, a bare `yarn` installs: red team adv47)
    const flagsOnly = args.length > 0 && args.every((a) => /^-(?:-version|v|V|-help|h)$/.test(a));
    if (!flagsOnly && !(sub && PKG_READS.has(sub) && !(sub === 'audit' && args.includes('fix')) && !(sub === 'env' && args.some((a) => /^-[wu]$/.test(a)))))
      writes.push({ what: text, targets: null });
    // where it is told to put things (`--prefix DIR`, `--target DIR`, `go build -o F`,
    // `npm pack --pack-destination DIR`: red team adv44) is judged as a program's given paths
    const paths = givenWords(args);
    if (paths.length > 0) writes.push({ what: text, targets: paths, given: true });
    return xargs;
  }
  if (INTERPRETERS.has(cmd) && args.some((a) => a === '-c' || a === '-e' || a === '--eval')) {
    writes.push({ what: text, targets: null }); // inline code can write anything
  } else if (INTERPRETERS.has(cmd) && args.some((a) => !/^-(?:-version|V|v|-help|h)$/.test(a))) {
    // a script, `-m pytest`, `--test`, `--run build`: the folder's code, judged where it runs (red team adv47)
    writes.push({ what: text, targets: null });
    // `python3 -m pip install --user …`: pip's own rules too
    const mod = optionValues(args, 'm')[0];
    if (mod === 'pip' || mod === 'pip3') inspectCommand(['pip', ...args.slice(args.indexOf(mod) + 1)], writes, nested);
  }
  // `rg --pre CMD`: CMD runs on every file searched (its path as the argument)
  if (cmd === 'rg' && args.some((a) => a === '--pre' || a.startsWith('--pre='))) {
    writes.push({ what: text, targets: null, refuse: 'rg --pre runs a program on every file it searches, with the file as its argument: search without --pre' });
    return xargs;
  }
  // `uniq IN OUT` writes OUT (red team adv40)
  if (cmd === 'uniq') {
    const files = operandsAfter(args, 'fsw');
    if (files.length >= 2) writes.push({ what: text, targets: named([files[1]!]) });
    return xargs;
  }
  // `history -w F`, `history -a`: the shell's history written into a file (adv40 wrote a line of code into one)
  if (cmd === 'history' && args.some((a) => /^-[a-zA-Z]*[wa]/.test(a))) {
    writes.push({ what: text, targets: null, refuse: "history -w and -a write the shell's history into a file (the one named, else ~/.bash_history): a /code turn has no use for it" });
    return xargs;
  }
  // a command the guard does not know that runs another one (`setarch x86_64 tee F`, `watch …`,
  // `strace -f tee F`, `fakeroot -- sh -c …`: red team adv40): from the first word that names a
  // command the guard judges, the rest is judged as that command
  if (!READERS.has(cmd) && !INTERPRETERS.has(cmd) && !EVALUATES_SUBSCRIPTS.has(cmd) && !CHDIR.has(cmd) && !judged(cmd)) {
    const at = args.findIndex((a) => judged(path.basename(a)));
    // (GNU parallel, like xargs, hands the command words from its input or its ::: lists)
    if (at >= 0 && FEEDERS.has(cmd) && !READERS.has(path.basename(args[at]!))) {
      writes.push({ what: text.slice(0, 160), targets: null, refuse: `${cmd} gives ${path.basename(args[at]!)} words the guard cannot see before it runs (from its input or its ::: lists): run ${path.basename(args[at]!)} on named files` });
      return xargs;
    }
    if (at >= 0) inspectCommand(args.slice(at), writes, nested, expanded);
    // the paths it is given, wherever they are written in its words (`-o F`, `-oF`, `--out=F`,
    // `x:=${shell … > F}`): a program the guard does not know may write any of them (red team adv43:
    // shuf -o, iconv -o, openssl -out, xxd IN OUT, make --eval)
    // (a relative word is judged from the folder the command runs in: `cd /root && shuf -o .bashrc`,
    // `shuf -o ../../root/.bashrc` — red team adv44)
    // (a program the guard does not know — make's Makefile, `./configure`, jest, tsc, mvn — may write
    // anything where it runs: judged by the folder, as an install is — red team adv46, adv47)
    if (!WORDS_NOT_FILES.has(cmd)) writes.push({ what: text, targets: null });
    // (npx's first operand is the program it runs, not a file it is given: `npx mocha x` is given x —
    // agent trial tr126 was told it "writes 'mocha'")
    const own = cmd === 'npx' || cmd === 'bunx' ? withoutProgram(at >= 0 ? args.slice(0, at) : args) : at >= 0 ? args.slice(0, at) : args;
    const paths = WORDS_NOT_FILES.has(cmd) ? [] : givenWords(own, true);
    if (paths.length > 0) writes.push({ what: text, targets: paths, given: true });
  }
  return xargs;
}

/** A package runner's words less the program it runs: its first operand past the runner's own options (and -p/--package/-w/--workspace values). */
function withoutProgram(args: readonly string[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return [...args.slice(0, i), ...args.slice(i + 2)];
    if (/^(?:-[pw]|--package|--workspace)$/.test(a)) { i++; continue; }
    if (!a.startsWith('-')) return [...args.slice(0, i), ...args.slice(i + 1)];
  }
  return [...args];
}

/** Variables that name a file or folder a program writes (caches, configs, build output, prefixes, logs). */
const WRITES_WHERE_NAMED = /^(?:npm_config_\w+|NPM_CONFIG_\w+|YARN_\w+|PNPM_HOME|BUN_INSTALL|GOCACHE|GOMODCACHE|GOPATH|GOBIN|GOTMPDIR|CARGO_\w*(?:DIR|HOME)|RUSTUP_HOME|PIP_\w+|PYTHONUSERBASE|PYTHONPYCACHEPREFIX|NODE_OPTIONS|NODE_V8_COVERAGE|GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|\w*(?:CACHE|_DIR|DIR|_HOME|CONFIG|PREFIX|_LOG|LOGFILE|OUTPUT|TARGET|_FILE|HIST|PROFILE)\w*)$/;

/** Package-manager subcommands that only read. */
const PKG_READS = new Set(['ls', 'list', 'll', 'la', 'view', 'v', 'info', 'show', 'outdated', 'why', 'explain', 'help', 'search', 'bin', 'root', 'prefix', 'whoami',
  'ping', 'doctor', 'audit', 'fund', 'env', 'doc', 'vet', 'fmt', 'freeze', 'check', 'tree', 'metadata', 'licenses', 'query']);

/** Package-manager subcommands that run the folder's own code (its scripts, tests, generators, build). */
const RUNS_FOLDER_CODE = new Set(['test', 't', 'tst', 'run', 'run-script', 'start', 'restart', 'stop', 'build', 'exec', 'x', 'dlx', 'generate', 'bench', 'rebuild']);

/** Builtins and programs whose words name no file they could write (`shopt -s cdable_vars`, `sleep 1`, `kill %1`). */
const WORDS_NOT_FILES = new Set(['shopt', 'set', 'unset', 'export', 'declare', 'typeset', 'local', 'readonly', 'shift', 'return', 'exit', 'break', 'continue',
  'wait', 'umask', 'ulimit', 'times', 'let', 'read', 'kill', 'sleep', 'jobs', 'bg', 'fg', 'disown', 'help', 'seq', 'yes', 'expr', 'getopts']);

/**
 * The paths a program is given: absolute and home paths anywhere in its words (pathsIn), relative
 * words that go up (`../x`, `-o../x`, `--out=../x`) and, with `all`, every relative word (a program
 * the guard does not know may write any of them; judged from the folder it runs in).
 */
function givenWords(args: readonly string[], all = false): string[] {
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
function leadingOptions(args: readonly string[], letters: string, long: readonly string[]): string[] {
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
function operandsAfter(args: readonly string[], values: string, longValues: readonly string[] = []): string[] {
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

/** Command names inspectCommand judges (writers, shells, wrappers, unpackers, …): a word naming one, given to a command the guard does not know, may be run by it. */
const JUDGED = new Set([...ALWAYS_WRITES, ...SHELLS, ...PREFIXES, ...MOUNTERS, ...PKG_MANAGERS, 'tee', 'sed', 'perl', 'awk', 'gawk', 'find', 'tar', 'bsdtar', 'unzip', 'cpio',
  'dpkg-deb', '7z', '7za', '7zr', 'ar', 'unsquashfs', 'link', 'git', 'su', 'sg', 'script', 'busybox', 'eval', 'source', 'trap', 'hash', 'alias', 'uniq', 'history', 'sort', 'curl', 'wget']);
const judged = (name: string): boolean => JUDGED.has(name);

/**
 * ln's targets: the links it makes and what each names (a write through a link lands there). `ln
 * [-s] SRC… DEST`, `ln -t DIR SRC…`, `ln SRC` (a link in the folder it runs in). A symbolic link's
 * relative target is read from the link's folder — as written, so a `..` goes up from where a link on
 * the way led (red team adv35) — or, with `-r`, from the folder the command runs in (adv36: `ln -sr
 * ../../../../root D/L` names /root from there); where it cannot be told whether DEST is a folder,
 * both readings are judged.
 */
function lnParts(args: readonly string[]): { targets: string[]; dest: string } {
  const { operands: ops, options } = getopt(args, WRITER_VALUES.ln!.short, WRITER_VALUES.ln!.long);
  const dir = lastGiven(options, 't', 'target-directory');
  // (`--sym`, `--rel`: any prefix getopt_long takes — ln has no other long option in s or r but --suffix)
  const symbolic = options.some((o) => o.name === 's' || (o.name.length > 1 && isLong(o.name, ['symbolic'])));
  const relative = options.some((o) => o.name === 'r' || (o.name.length > 1 && isLong(o.name, ['relative'])));
  const intoDir = dir !== undefined || ops.length !== 2;
  const dest = dir ?? (ops.length === 1 ? '.' : ops.at(-1) ?? '.');
  const sources = dir !== undefined || ops.length === 1 ? ops : ops.slice(0, -1);
  const made = intoDir ? sources.map((o) => `${dest}/${path.posix.basename(o)}`) : [dest];
  const named = sources.flatMap((o) => {
    if (!symbolic || o.startsWith('/') || relative) return [o];
    return intoDir ? [`${dest}/${o}`] : [`${dest}/${o}`, `${path.posix.dirname(dest)}/${o}`];
  });
  return { targets: [...made, ...named], dest };
}

/** The folder an extraction or a clone writes into ('.' when none is named), null when it cannot be told, undefined for other commands. */
function unpackDir(cmd: string, args: string[], operands: string[]): string | string[] | null | undefined {
  if (cmd === 'tar' || cmd === 'bsdtar') {
    if (!tarMode(args, 'x', ['extract', 'get'])) return undefined; // (an archive it makes is named by -f: outputFiles)
    return tarDirs(args);
  }
  // (`unzip -l`, `-t`, `-p`, `-v`, `-Z` list, test or print: nothing is written — red team adv45's friction)
  if (cmd === 'unzip') return args.some((a) => /^-[a-zA-Z]*[ltpvZz]/.test(a)) ? undefined : lastOptionValue(args, 'd', '--directory') ?? '.';
  if (cmd === 'cpio' && args.some((a) => /^-[a-zA-Z]*p/.test(a))) return operands.at(-1) ?? null;
  // other unpackers (red team adv38: `dpkg-deb -x p.deb DIR`): where they write
  if (cmd === 'cpio' && args.some((a) => /^-[a-zA-Z]*i|^--extract$/.test(a))) return args.find((a) => a.startsWith('--directory='))?.slice(12) ?? '.';
  if (cmd === 'dpkg-deb' && args.some((a) => /^-[xXR]$|^--(extract|vextract|raw-extract)$/.test(a))) return operands.at(-1) ?? null;
  if ((cmd === '7z' || cmd === '7za' || cmd === '7zr') && /^[xe]$/.test(operands[0] ?? '')) return args.find((a) => a.startsWith('-o'))?.slice(2) ?? '.';
  if (cmd === 'ar' && /x/.test(args[0] ?? '')) return '.';
  if (cmd === 'unsquashfs') return args[args.indexOf('-d') + 1] ?? 'squashfs-root';
  if (cmd === 'git' && gitSubcommand(args) === 'clone') {
    const rest = operands.slice(operands.indexOf('clone') + 1);
    return rest.length >= 2 ? rest.at(-1)! : null;
  }
  return undefined;
}

/**
 * The value of the last `-L VALUE`, `-LVALUE`, `-xyL VALUE` (a bundle: the rest of it, else the next
 * word), `--long VALUE` or `--long=VALUE` (unzip's `-d DIR`: its options do not follow getopt's rules).
 * null where the value is missing.
 */
function lastOptionValue(args: readonly string[], letter: string, long: string): string | null | undefined {
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

/** awk and its kin. */
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
/** What an awk program does beyond printing to stdout: runs a command, writes a file, pipes. */
const AWK_EFFECTS = /\bsystem\b|\bprintf?\b[^;}\n]*?>|(?<!\|)\|(?!\|)\s*&?\s*["\w$]|\bgetline\b|\bclose\s*\(/;

/**
 * An awk program with its strings and regex literals emptied and its parenthesized expressions
 * taken out: `print $1 "|" $2` pipes nothing, `/total|price/` is a pattern, `print ($1 > 3)` writes
 * nothing (red team adv43's friction). A call's parentheses stay: `print("x") > "F"` writes, `system(c)`
 * runs (red team adv44).
 */
function awkShape(program: string): string {
  // (regex literals first: a `"` inside one (`/"/`) hid a print from the strings' reading — red team adv45)
  let p = program.replace(/(^|[({,;~!&|?:]\s*|^\s*)\/(?:[^/\\\n]|\\.)*\//gm, '$1//').replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  for (let before = ''; before !== p; ) [before, p] = [p, p.replace(/(?<![\w$])\([^()]*\)/g, (m) => (/^\(\s*""\s*\)$/.test(m) ? m : '0'))];
  return p;
}
/** The backups an in-place edit keeps: FILE + suffix, or the suffix with `*` standing for the file's name (in FILE's folder unless the suffix names one). */
function backupsOf(edited: readonly string[], suffix: string): string[] {
  return edited.map((f) => (suffix.includes('*') ? (suffix.includes('/') ? '' : `${path.posix.dirname(f)}/`) + suffix.replaceAll('*', path.posix.basename(f)) : f + suffix));
}

/** The files `perl -i` edits: its operands, less the script unless -e/-E gives it (`-es/a/b/` fused too: red team adv45). */
function perlFiles(args: readonly string[]): string[] | null {
  const ops: string[] = [];
  let scripted = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      ops.push(...args.slice(i + 1));
      break;
    }
    if (/^-[a-zA-Z]*[eE]$/.test(a)) {
      scripted = true;
      i++;
    } else if (/^-[a-zA-Z]*[eE]./.test(a)) scripted = true;
    else if (!a.startsWith('-')) ops.push(a);
  }
  const files = scripted ? ops : ops.slice(1);
  return files.length > 0 ? files : null;
}

/** The texts an awk program is made of: its -e/--source values, else its first operand past -F/-v values; undefined when `-f FILE` runs a file. */
function awkSources(args: readonly string[]): string[] | undefined {
  if (args.some((a) => a === '-f' || a.startsWith('--file'))) return undefined;
  // gawk's `--source=TEXT`, `-e TEXT` (red team adv44) join the program
  const sources = optionValues(args, 'e', ['source']);
  if (sources.length > 0) return sources;
  const program = operandsAfter(args, 'FvW')[0];
  return program === undefined ? undefined : [program];
}

