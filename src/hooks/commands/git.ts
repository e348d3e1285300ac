/** git command lines: the subcommand past the global options, what it reads, writes and runs. */
import { isLong } from '../getopt.js';
import { optionValues, givenWords, named } from './words.js';
import { type Command } from './context.js';

// (`git archive` writes the archive to stdout, or to its -o/--output: agent trial tr121 was refused `git archive HEAD | tar -x -C /tmp/x` in EXPLORATION)
const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog', 'cat-file', 'config', 'remote', 'fetch', 'help', 'version', 'reflog', 'branch', 'tag', 'ls-remote', 'archive', 'check-ignore', 'check-attr', 'merge-base', 'rev-list', 'name-rev', 'for-each-ref', 'show-ref', 'count-objects', 'var', 'whatchanged']);


/**
 * The shell code a git command line carries in its options: the value of each `-c name=value`
 * (`!cmd` of an alias, or a program such as core.pager, core.fsmonitor, diff.external — any value,
 * judged as a command: a plain one runs nothing), `--upload-pack`/`--receive-pack`/`--exec` (`-u`
 * of clone and ls-remote), grep's `-O`/`--open-files-in-pager`, difftool's `-x`/`--extcmd`,
 * rebase's `-x`/`--exec`, filter-branch's filters, and the command of `bisect run` and `submodule foreach`.
 */
export function gitCode(args: readonly string[]): string[] {
  const out: string[] = [];
  const words = gitWords([...args]);
  const sub = words[0];
  // (a -c before the subcommand, or clone's: `git grep -c WORD` counts, its WORD is a pattern — red team adv78)
  const at = gitSubcommandAt([...args]);
  const setting = (i: number) => i < at || sub === 'clone';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' && args[i + 1] !== undefined && setting(i)) {
      if (!harmlessSetting(args[i + 1]!)) out.push(args[i + 1]!.slice(args[i + 1]!.indexOf('=') + 1).replace(/^!/, ''));
    }
    // (fused, `-ccore.fsmonitor=…`, and clone's `--config NAME=VALUE` — red team adv49)
    else if (/^-c[^-]/.test(a) && !a.startsWith('-c=') && setting(i)) out.push(a.slice(a.indexOf('=') + 1).replace(/^!/, ''));
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
export function gitFiles(args: readonly string[]): string[] {
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

/**
 * `git -c name=value …` (or --config-env) can make any git command run a program (core.pager,
 * diff.external …), and so can `git clone -c`/`--config`. A `-c` of another subcommand is its own
 * option (`git grep -c`, `git log -c`, `git ls-files -c`: red team adv75 had them refused).
 */
export const gitConfigured = (args: string[]) => {
  const at = gitSubcommandAt(args);
  const configures = (a: string, i: number, all: readonly string[]) => (a.startsWith('-c') && !harmlessSetting(a === '-c' ? all[i + 1] ?? '' : a.slice(2)))
    || a.startsWith('--config-env') || (a.startsWith('--con') && isLong(a.slice(2).split('=')[0]!, ['config']));
  return args.slice(0, at).some(configures) || (args[at] === 'clone' && args.slice(at + 1).some(configures));
};

/**
 * Settings that only change how git prints (colour, quoting of names, columns): none runs a program
 * or names a file (red team adv78: `git -c color.ui=never log -1` and `git -c core.quotepath=false
 * status` were refused). Values are plain words.
 */
// (a pager or log.showSignature may only be turned off: `pager.log=CMD` runs CMD, showSignature runs gpg —
// red team adv80's H2 had `core.abbrev=12`, `diff.noprefix=true`, `pager.log=false` refused)
const harmlessSetting = (nv: string) => /^(?:color\.[\w.-]+|core\.(?:quotepath|abbrev)|column\.ui|i18n\.logoutputencoding|advice\.[\w]+|format\.pretty|diff\.(?:noprefix|mnemonicprefix|renames|relative|context|interhunkcontext|algorithm|indentheuristic|suppressblankempty|statgraphwidth|colormoved|colormovedws|wserrorhighlight)|blame\.(?:coloring|date|blankboundary|showroot|showemail|markignoredlines|markunblamablelines)|grep\.(?:linenumber|patterntype|extendedregexp|column|fullname|threads)|log\.(?:date|decorate|abbrevcommit|follow|mailmap|showroot|excludedecoration)|status\.(?:short|branch|relativepaths))(?:=[\w.:/%*-]*)?$/i.test(nv)
  || /^(?:pager\.[\w-]+|log\.showsignature)=(?:false|no|off|0)$/i.test(nv) || /^core\.pager=(?:cat)?$/i.test(nv);

/** git's subcommand, past the global options (`-C DIR`, `--git-dir DIR`, `-c name=value` …). */
export function gitSubcommand(args: string[]): string | undefined {
  return gitWords(args)[0];
}

/** git's subcommand and the words after it, its global options (-C DIR …) left out */
export function gitWords(args: string[]): string[] {
  return args.slice(gitSubcommandAt(args));
}

/** git's global options that take the next word as their value (git 2.39–2.47: `--shallow-file`, `--super-prefix`, `--attr-source` too). */
const GIT_GLOBAL_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--shallow-file', '--attr-source']);
/** git's global options that take no value (or only as `--opt=value`). */
const GIT_GLOBAL_FLAGS = /^(?:-[pPvh]|--(?:paginate|no-pager|no-replace-objects|no-lazy-fetch|no-optional-locks|no-advice|bare|literal-pathspecs|glob-pathspecs|noglob-pathspecs|icase-pathspecs|exec-path|html-path|man-path|info-path|version|help)|--(?:git-dir|work-tree|namespace|config-env|super-prefix|shallow-file|attr-source|exec-path|list-cmds)=.*)$/;

/**
 * Where git's subcommand stands, past its global options. A global option the guard does not know
 * stops the walk there, so that the command is judged as one whose subcommand is unknown: it may
 * take the next word as its value, and `git --shallow-file log read-tree -u …` ran read-tree while
 * the guard read `log` (red team adv75).
 */
function gitSubcommandAt(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (GIT_GLOBAL_VALUED.has(a)) i++;
    else if (!a.startsWith('-') || !GIT_GLOBAL_FLAGS.test(a)) return i;
  }
  return args.length;
}

/** subcommands that change the repository but only read with these actions: `git stash list`, `git worktree list` */
const GIT_READ_ACTIONS: Record<string, ReadonlySet<string>> = {
  stash: new Set(['list', 'show']),
  worktree: new Set(['list']),
  notes: new Set(['list', 'show']),
  submodule: new Set(['status']),
};

/** a git subcommand that only reads: one of GIT_READ_ONLY, or a read action of another */
export function gitSubReads(args: string[]): boolean {
  const [sub, action] = gitWords(args);
  // `git apply --check` / `--stat`: reads the patch, applies nothing (red team adv41's friction)
  if (sub === 'apply' && args.some((a) => /^--(check|stat|numstat|summary)$/.test(a)) && !args.includes('--apply')) return true;
  // (`git config NAME VALUE` writes the folder's .git/config: red team adv47)
  if (sub === 'config') return args.some((a) => /^--(?:get|get-all|get-regexp|list|get-urlmatch|show-origin|show-scope)$|^-l$/.test(a)) || /^(?:get|list)$/.test(action ?? '') || gitWords(args).filter((w) => !w.startsWith('-')).length <= 2;
  return !!sub && (GIT_READ_ONLY.has(sub) || (action !== undefined && GIT_READ_ACTIONS[sub]?.has(action) === true));
}

/** git subcommands that write the work tree, and so may make a file a symlink. */
export const GIT_WORKTREE = new Set(['apply', 'am', 'checkout', 'restore', 'switch', 'merge', 'pull', 'reset', 'stash', 'cherry-pick', 'rebase', 'revert', 'clone', 'worktree', 'read-tree', 'checkout-index']);

/** The work tree a git command writes: `-C DIR`, `--work-tree=DIR`, `worktree add PATH`, else where it runs (red team adv38: `git -C ~/repo checkout` was taken for the project). */
export function gitWorkTree(args: readonly string[], operands: readonly string[], sub: string): string {
  const wt = args.findIndex((a) => a === '--work-tree' || a.startsWith('--work-tree='));
  if (wt >= 0) return args[wt]!.includes('=') ? args[wt]!.slice(12) : args[wt + 1] ?? '.';
  if (sub === 'worktree' && operands.includes('add')) return operands[operands.indexOf('add') + 1] ?? '.';
  const c = args.lastIndexOf('-C');
  return c >= 0 && args[c + 1] !== undefined ? args[c + 1]! : '.';
}

/** git: the code its options carry, the files it writes, and whether it changes the work tree. */
export function readGit(c: Command): boolean {
  const { cmd, args, operands, text, writes, nested } = c;
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
    return true;
  }
  return false;
}
