/** Commands a /code turn does not run as written: a mount, an alias, an editor, settings that steer a program where the guard cannot follow. */
import { type Command } from './context.js';
import { EDITORS, MOUNTERS } from './kinds.js';
import { gitWords } from './git.js';
import { isLong } from '../getopt.js';
import { leadingOptions, optionValues } from './words.js';

/** A mount: a /code turn mounts nothing. */
export function readMounter(c: Command): boolean {
  const { cmd, text, writes } = c;
  if (MOUNTERS.has(cmd)) {
    writes.push({ what: text, targets: null, refuse: 'a /code turn mounts nothing: a mount (a bind mount of another file onto a project file) sends later writes of that file elsewhere' });
    return true;
  }
  return false;
}

/**
 * Setting the system clock: the guard orders a turn's prompt and a session's end by the time they
 * were recorded, and a file's change time is what tells it a file changed (red team adv78: `date -s
 * "1 hour ago"` before abort_session turned the guard off; a file rewritten with the clock set back
 * to its change time looked untouched). Why, or undefined.
 */
export function setsClock(cmd: string, args: readonly string[]): string | undefined {
  const operands = args.filter((a) => !a.startsWith('-'));
  if (cmd === 'date') {
    // (date -s STRING, --set=STRING; or an operand MMDDhhmm[[CC]YY][.ss]: anything but +FORMAT)
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') { rest.push(...args.slice(i + 1)); break; }
      // (-d, -f, -r take the next word unless joined: date -d yesterday)
      if (/^-[a-zA-Z]*[dfr]$/.test(a) && !a.startsWith('--')) i++;
      else if (/^--(?:date|file|reference)$/.test(a)) i++;
      else if (!a.startsWith('-') || a === '-') rest.push(a);
    }
    // (a bundle's s is -s, unless an option that takes the rest as its value comes first: -Iseconds)
    const shortSet = (a: string) => /^-[^-]/.test(a) && /^[^dfrI]*s/.test(a.slice(1));
    const set = args.some(shortSet) || args.some((a) => a.startsWith('--') && isLong(a.slice(2).split('=')[0]!, ['set']))
      || rest.some((o) => !o.startsWith('+'));
    return set ? 'date -s (or a date operand) sets the system clock' : undefined;
  }
  if (cmd === 'hwclock' && args.some((a) => /^-[a-zA-Z]*s/.test(a) || /^--(?:set|hctosys|systohc|adjust|systz|date)/.test(a))) return 'hwclock sets the clocks';
  if (cmd === 'timedatectl' && /^set-/.test(operands[0] ?? '')) return `timedatectl ${operands[0]} sets the system clock`;
  if (['adjtimex', 'rdate', 'ntpdate', 'sntp', 'htpdate', 'busybox-date', 'stime', 'settimeofday'].includes(cmd)) return `${cmd} sets the system clock`;
  if (cmd === 'chronyc' && operands.some((o) => /^(?:settime|makestep|manual)$/.test(o))) return 'chronyc settime sets the system clock';
  return undefined;
}

/** A clock setter: a /code turn does not move the system clock. */
export function readClock(c: Command): boolean {
  const why = setsClock(c.cmd, c.args);
  if (!why) return false;
  c.writes.push({ what: c.text, targets: null, refuse: `a /code turn does not set the clock: ${why}, and the write guard tells changes and their order by it` });
  return true;
}

/** An alias definition: what it runs is never read. */
export function readAlias(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // an alias runs what the guard never reads (`alias go='cd /elsewhere'`, with expand_aliases: red team adv37)
  if (cmd === 'alias' && args.some((a) => a.includes('='))) {
    writes.push({ what: text, targets: null, refuse: 'a /code turn defines no shell alias: the guard cannot follow what an alias runs. Write the command itself' });
    return true;
  }
  return false;
}

/**
 * less told to run a command: a lesskey file, whose #env section sets LESSOPEN (red team adv68's
 * `less --lesskey-src=F`), or `+CMD`, a less command at start, `+!CMD` a shell command given a
 * terminal (adv70 under `script -qc`). Why, or undefined.
 */
export const lessSettings = (cmd: string, args: readonly string[]): string | undefined =>
  cmd !== 'less' ? undefined
    : optionValues(args, 'k', ['lesskey-file', 'lesskey-src', 'lesskey-content']).length > 0 ? 'less -k/--lesskey-src reads settings (LESSOPEN, a command it runs) from a file'
      : args.some((a) => a.startsWith('+')) ? 'less +CMD runs a command when it starts' : undefined;

/** Settings and commands that steer a program where the guard cannot follow. */
export function readUnreadable(c: Command): boolean {
  const { cmd, args, operands, text, writes } = c;
  // settings files and commands that set where a program writes or what it runs, unread here (red team adv43)
  const unreadable = (cmd === 'wget' && optionValues(args, 'e', ['execute']).length > 0 && 'wget -e runs wgetrc commands (output_document=, logfile= …)')
    || (cmd === 'curl' && optionValues(args, 'K', ['config']).length > 0 && 'curl -K reads options (output=, dump-header= …) from a file or stdin')
    || lessSettings(cmd, args)
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
    // a global option the guard does not know may hide the subcommand behind its value (red team adv75)
    || (cmd === 'git' && (gitWords(args)[0] ?? '').startsWith('-') && `git's option ${gitWords(args)[0]!.slice(0, 40)} before the subcommand is not one the guard knows (it may take the next word as its value), and what runs`)
    // git's ext:: transport runs the command written after it (red team adv48: `git ls-remote 'ext::sh -c …'`)
    || (cmd === 'git' && args.some((a) => a.includes('ext::')) && "git's ext:: transport runs the command written in the URL, which");
  if (unreadable) {
    writes.push({ what: text, targets: null, refuse: `${unreadable} the guard cannot follow: write the steps as plain commands` });
    return true;
  }
  return false;
}

/** An editor or a scheduler run from the shell. */
export function readEditor(c: Command): boolean {
  const { cmd, text, writes } = c;
  // an editor or a scheduler run from the shell: it writes what it is told later, unread by the guard
  if (EDITORS.has(cmd) || cmd === 'crontab' || cmd === 'at') {
    writes.push({ what: text, targets: null, refuse: cmd === 'crontab' || cmd === 'at' ? 'a /code turn schedules nothing: a job runs later, where the guard cannot judge it' : 'a /code turn edits files with the edit tools, not with an editor run from the shell (its commands, -c or +cmd, write where they say)' });
    return true;
  }
  return false;
}

/** `hash -p`: a name made to run another program. */
export function readHash(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `hash -p /usr/bin/tee cat`: a name then runs another program (red team adv38)
  if (cmd === 'hash' && args.some((a) => /^-[a-zA-Z]*p/.test(a))) {
    writes.push({ what: text, targets: null, refuse: 'hash -p makes a command name run another program, which the guard would judge as the name: run the program by its own name' });
    return true;
  }
  return false;
}

/** `rg --pre`: runs a program on every file. */
export function readRgPre(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `rg --pre CMD`: CMD runs on every file searched (its path as the argument)
  if (cmd === 'rg' && args.some((a) => a === '--pre' || a.startsWith('--pre='))) {
    writes.push({ what: text, targets: null, refuse: 'rg --pre runs a program on every file it searches, with the file as its argument: search without --pre' });
    return true;
  }
  return false;
}

/** `history -w`, `-a`: the shell's history written into a file. */
export function readHistory(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `history -w F`, `history -a`: the shell's history written into a file (adv40 wrote a line of code into one)
  if (cmd === 'history' && args.some((a) => /^-[a-zA-Z]*[wa]/.test(a))) {
    writes.push({ what: text, targets: null, refuse: "history -w and -a write the shell's history into a file (the one named, else ~/.bash_history): a /code turn has no use for it" });
    return true;
  }
  return false;
}
