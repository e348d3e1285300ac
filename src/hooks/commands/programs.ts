/** Programs with a text of their own that may write or run (awk, perl -i). */
import { optionValues, operandsAfter, backupsOf, named } from './words.js';
import { AWKS } from './kinds.js';
import { type Command, built } from './context.js';
import { sedCommands, sedEffects } from '../sed-script.js';

/** What an awk program does beyond printing to stdout: runs a command, writes a file, pipes. */
export const AWK_EFFECTS = /\bsystem\b|\bprintf?\b[^;}\n]*?>|(?<!\|)\|(?!\|)\s*&?\s*["\w$]|\bgetline\b|\bclose\s*\(/;

/**
 * An awk program with its strings and regex literals emptied and its parenthesized expressions
 * taken out: `print $1 "|" $2` pipes nothing, `/total|price/` is a pattern, `print ($1 > 3)` writes
 * nothing (red team adv43's friction). A call's parentheses stay: `print("x") > "F"` writes, `system(c)`
 * runs (red team adv44).
 */
export function awkShape(program: string): string {
  // (regex literals first: a `"` inside one (`/"/`) hid a print from the strings' reading — red team adv45)
  let p = program.replace(/(^|[({,;~!&|?:]\s*|^\s*)\/(?:[^/\\\n]|\\.)*\//gm, '$1//').replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  for (let before = ''; before !== p; ) [before, p] = [p, p.replace(/(?<![\w$])\([^()]*\)/g, (m) => (/^\(\s*""\s*\)$/.test(m) ? m : '0'))];
  return p;
}

/** The files `perl -i` edits: its operands, less the script unless -e/-E gives it (`-es/a/b/` fused too: red team adv45). */
export function perlFiles(args: readonly string[]): string[] | null {
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
export function awkSources(args: readonly string[]): string[] | undefined {
  if (args.some((a) => a === '-f' || a.startsWith('--file'))) return undefined;
  // gawk's `--source=TEXT`, `-e TEXT` (red team adv44) join the program
  const sources = optionValues(args, 'e', ['source']);
  if (sources.length > 0) return sources;
  const program = operandsAfter(args, 'FvW')[0];
  return program === undefined ? undefined : [program];
}

/** sed: the files its script writes, what it edits in place, and scripts it cannot read. */
export function readSed(c: Command): boolean {
  const { cmd, args, text, writes, expanded } = c;
  if (cmd === 'sed') {
    // a sed script writes files by name (`w F`, `W F`, `s/a/b/w F`) and runs commands (`e`, `s/a/b/e`: red team adv42),
    // in each way sed may read its arguments (sedCommands)
    const readings = sedCommands(args);
    if (readings.some((r) => built(r.scripts, expanded))) {
      writes.push({ what: text, targets: null, refuse: 'a sed script built from a variable or a command substitution is not what the guard reads (its value may hold `w FILE` or `e CMD`): write the script out' });
      return true;
    }
    if (readings.some((r) => r.scriptFiles.length > 0)) {
      writes.push({ what: text, targets: null, refuse: 'a sed script read from a file (-f) is not read by the guard: give the script with -e' });
      return true;
    }
    // (sed joins its -e scripts with newlines: one script)
    const effects = readings.map((r) => sedEffects(r.scripts.join('\n')));
    // (any reading sed may take that the guard cannot read is refused: red team adv55 hid `e CMD\` + a line in
    // the -e script behind a readable POSIX reading)
    if (effects.some((e) => e === undefined)) {
      writes.push({ what: text, targets: null, refuse: 'the guard could not read this sed script as GNU sed reads it (sed would refuse it too): write it plainly' });
      return true;
    }
    if (effects.some((e) => e?.runs)) {
      writes.push({ what: text, targets: null, refuse: "sed's e command runs its text as a shell command, unread by the guard: run the command itself" });
      return true;
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
    return true;
  }
  return false;
}

/** `perl -i`: the files it edits and their backups. */
export function readPerl(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  if (cmd === 'perl' && args.some((a) => /^-[a-zA-Z]*i/.test(a))) {
    const edited = perlFiles(args);
    writes.push({ what: text, targets: edited });
    const suffix = args.map((a) => /^-[a-zA-Z]*?i(.+)$/.exec(a)?.[1]).find((x) => x !== undefined);
    if (suffix !== undefined && edited) writes.push({ what: `${text} (its backup)`, targets: named(backupsOf(edited, suffix)) });
    return true;
  }
  return false;
}

/** awk: `-i inplace`, and programs that run commands or write files. */
export function readAwk(c: Command): boolean {
  const { cmd, args, text, writes, expanded } = c;
  if (AWKS.has(cmd)) {
    if (args.includes('inplace')) writes.push({ what: text, targets: null });
    // an awk program that runs commands or writes files by name: `system()`, `print > "F"`, `| "cmd"` (red team adv42)
    const sources = awkSources(args);
    const program = sources?.join('\n');
    if (sources && built(sources, expanded)) {
      writes.push({ what: text, targets: null, refuse: 'an awk program built from a variable or a command substitution is not what the guard reads (its value may call system() or print to a file): write the program out' });
      return true;
    }
    if (program !== undefined && AWK_EFFECTS.test(awkShape(program))) {
      writes.push({ what: text, targets: null, refuse: 'an awk program that runs commands or writes files (system(), print > file, a pipe) does what the guard cannot follow: write those steps as shell commands' });
    }
    return true;
  }
  return false;
}
