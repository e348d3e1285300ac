/** find: the folders it starts from and where it hands what it finds. */
import path from 'node:path';
import { getopt } from '../getopt.js';
import { tarOptions } from '../tar-reading.js';
import { ALWAYS_WRITES, AWKS } from './kinds.js';
import { WRITER_VALUES } from './writers.js';
import { type Command } from './context.js';
import { UNKNOWABLE, named } from './words.js';
import { awkSources } from './programs.js';
import { sedCommands } from '../sed-script.js';

/** The folders find starts from: after its own options (-H, -L, -P, -D LIST, -O LEVEL), up to its expression. */
export function findStarts(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]+|D|O\d*)$/.test(args[i]!)) i += args[i] === '-D' ? 2 : 1;
  // (`find -- DIR`: GNU find takes `--` after its own options — red team adv61)
  if (args[i] === '--') i++;
  const rest = args.slice(i);
  const end = rest.findIndex((a) => /^[-(!]/.test(a));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Where `{}` (a path find hands over) is what a writer writes: its destination or an option's value (`cp -t {}`, `cp x {}`, `tar -C {}`). */
export function foundAsDestination(run: readonly string[]): string | undefined {
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
export const FIND_VALUES = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype',
  '-newer', '-anewer', '-cnewer', '-samefile', '-user', '-group', '-uid', '-gid', '-perm', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin',
  '-maxdepth', '-mindepth', '-links', '-inum', '-used', '-regextype', '-fstype', '-context']);

/** find: the files it prints into, and what it deletes or hands to a command. */
export function readFind(c: Command): boolean {
  const { cmd, args, text, writes, expanded } = c;
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
        return true;
      }
      // (a found path as where a writer writes — `-exec cp -t {} SRC \;`, `-exec cp SRC {} \;` — may be a link out: red team adv60)
      const into = foundAsDestination(run);
      if (into) {
        writes.push({ what: text, targets: null, refuse: `${into}: a path find hands over may be a link that leads out of the folders it searches. Copy from what it finds, not into it` });
        return true;
      }
      const inner = run.filter((a) => a !== '{}');
      if (inner.length > 0) c.inspect(inner, expanded);
    }
    // what it deletes or hands to a writer lies under the folders it starts from (red team adv44:
    // `find /root -name .bashrc -exec rm {} +`, `find /root/.ssh -delete`)
    // (past its own options: `find -L /var/tmp …` — red team adv60 had the start dropped and '.' judged)
    const starts = findStarts(args);
    const writesFound = args.includes('-delete') || writes.slice(before + 1).length > 0;
    if (writesFound && starts.some((a) => UNKNOWABLE.test(a))) {
      writes.push({ what: text, targets: null, refuse: 'find deletes or hands to a writer what it finds under a folder an expansion or a pattern names: name the folders it starts from' });
      return true;
    }
    if (writesFound) writes.push({ what: `${text} (what it finds)`, targets: starts.length > 0 ? starts : ['.'], given: true });
    return true;
  }
  return false;
}
