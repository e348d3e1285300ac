/** The writes of one simple command, given its words: every command reader in order. */
import path from 'node:path';
import { type BashWrite, type Expanded, NO_WORDS, type Command, type CommandReader } from './context.js';
import { readFind } from './find.js';
import { readGit } from './git.js';
import { INTERPRETERS, CHDIR, READERS, EVALUATES_SUBSCRIPTS, FEEDERS, judged } from './kinds.js';
import { readAr, readCodeOptions, readMagic, readOutputOptions, readProgramOptions, readRemoveFiles, readSplit, readUniq, readUnpacked } from './outputs.js';
import { programAt, withoutProgram, readInterpreter, readPackageManager } from './packages.js';
import { withoutPatterns } from './test-runners.js';
import { readAwk, readPerl, readSed } from './programs.js';
import { readEval, readScriptLog, readShell, readSource, readSubscripts, readTrap } from './shells.js';
import { readUnseen } from './steered.js';
import { named, WORDS_NOT_FILES, givenWords } from './words.js';
import { peel } from './wrappers.js';
import { readLink, readTee, readWriter } from './writers.js';
import { readAlias, readClock, readEditor, readHash, readHistory, readMounter, readRgPre, readUnreadable } from './refused.js';

/** The writes of one simple command, given its words (name first, unquoted); `bash -c` and eval code goes to `nested`. */
export function inspectWords(commandWords: string[], writes: BashWrite[], nested: string[], expanded: Expanded = NO_WORDS): void {
  // what xargs runs gets more operands from stdin: the files it names are judged, and the rest is
  // unknown (red team adv38: `xargs cp payload ~/h` had blanked out its literal target)
  if (inspectCommand(commandWords, writes, nested, expanded)) writes.push({ what: `${commandWords.join(' ').slice(0, 160)} (operands from stdin)`, targets: null });
}

/** The command readers, in the order they look at a command: the first that returns true has read it whole. */
const COMMAND_READERS: readonly CommandReader[] = [
  readUnseen,
  readFed,
  readMounter,
  readClock,
  readAlias,
  readMagic,
  readRemoveFiles,
  readOutputOptions,
  readProgramOptions,
  readCodeOptions,
  readUnreadable,
  readSplit,
  readEditor,
  readSource,
  readScriptLog,
  readShell,
  readEval,
  readHash,
  readTrap,
  readSubscripts,
  readWriter,
  readTee,
  readSed,
  readPerl,
  readAwk,
  readFind,
  readUnpacked,
  readAr,
  readLink,
  readGit,
  readPackageManager,
  readInterpreter,
  readRgPre,
  readUniq,
  readHistory,
  readRunner,
];

/** inspectWords for one command; true when it runs under xargs */
function inspectCommand(commandWords: string[], writes: BashWrite[], nested: string[], expanded: Expanded = NO_WORDS): boolean {
  const { words, xargs, code, outputs: own } = peel(commandWords);
  nested.push(...code);
  if (own.length > 0) writes.push({ what: commandWords.join(' '), targets: named(own) });
  if (words.length === 0) return xargs;
  const args = words.slice(1);
  const command: Command = {
    commandWords, words, cmd: path.basename(words[0]!), args, operands: args.filter((a) => !a.startsWith('-')), text: words.join(' '), xargs, writes, nested, expanded,
    inspect: (more, moreExpanded = NO_WORDS) => void inspectCommand(more, writes, nested, moreExpanded),
  };
  COMMAND_READERS.some((read) => read(command));
  return xargs;
}

/** A writer xargs feeds: what it hands over is unseen. */
function readFed(c: Command): boolean {
  const { commandWords, cmd, xargs, writes } = c;
  // what xargs hands a writer from its input — a destination, `-e SCRIPT`, a file to remove — is unseen
  // (red team adv59: `echo /var/tmp/x | xargs cp f` wrote /var/tmp/x; `… | xargs sed -n -e p f` ran a
  // `w FILE` script xargs appended)
  if (xargs && judged(cmd) && !READERS.has(cmd)) {
    writes.push({ what: commandWords.join(' ').slice(0, 160), targets: null, refuse: `xargs gives ${cmd} words from its input, which the guard cannot see (a destination, an option, a script): name the files on the command line, or use find … -exec ${cmd} … {} +` });
    return true;
  }
  return false;
}

/** A command the guard does not know: a command it runs, and the paths it is given. */
function readRunner(c: Command): boolean {
  const { cmd, args, text, writes, expanded } = c;
  // a command the guard does not know that runs another one (`setarch x86_64 tee F`, `watch …`,
  // `strace -f tee F`, `fakeroot -- sh -c …`: red team adv40): from the first word that names a
  // command the guard judges, the rest is judged as that command
  if (!READERS.has(cmd) && !INTERPRETERS.has(cmd) && !EVALUATES_SUBSCRIPTS.has(cmd) && !CHDIR.has(cmd) && !judged(cmd)) {
    const at = args.findIndex((a) => judged(path.basename(a)));
    // (GNU parallel, like xargs, hands the command words from its input or its ::: lists)
    if (at >= 0 && FEEDERS.has(cmd) && !READERS.has(path.basename(args[at]!))) {
      writes.push({ what: text.slice(0, 160), targets: null, refuse: `${cmd} gives ${path.basename(args[at]!)} words the guard cannot see before it runs (from its input or its ::: lists): run ${path.basename(args[at]!)} on named files` });
      return true;
    }
    if (at >= 0) c.inspect(args.slice(at), expanded);
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
    const before = at >= 0 ? args.slice(0, at) : args;
    const runner = cmd === 'npx' || cmd === 'bunx';
    // (a test runner's filter options take patterns, not files: `jest --testPathIgnorePatterns /node_modules/` — tr169)
    const own = withoutPatterns(runner ? before[programAt(before)] ?? '' : cmd, runner ? withoutProgram(before) : before);
    const paths = WORDS_NOT_FILES.has(cmd) ? [] : givenWords(own, true);
    if (paths.length > 0) writes.push({ what: text, targets: paths, given: true });
  }
  return false;
}
