/** Package managers and runners: what reads, where they write. */
import { type Command } from './context.js';
import { INTERPRETERS, PKG_MANAGERS } from './kinds.js';
import { givenWords, optionValues } from './words.js';


/** Where a package runner's program is in its words (`npx [options] jest …`): its first operand past the runner's own options (and -p/--package/-w/--workspace values), or after `--`; -1 when none. */
export function programAt(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (/^(?:-[pw]|--package|--workspace)$/.test(a)) { i++; continue; }
    if (!a.startsWith('-')) return i;
  }
  return -1;
}

/** A package runner's words less the program it runs (and a `--` before it). */
export function withoutProgram(args: readonly string[]): string[] {
  const at = programAt(args);
  if (at < 0) return [...args];
  return [...args.slice(0, args[at - 1] === '--' ? at - 1 : at), ...args.slice(at + 1)];
}

/** Variables that name a file or folder a program writes (caches, configs, build output, prefixes, logs). */
export const WRITES_WHERE_NAMED = /^(?:npm_config_\w+|NPM_CONFIG_\w+|YARN_\w+|PNPM_HOME|BUN_INSTALL|GOCACHE|GOMODCACHE|GOPATH|GOBIN|GOTMPDIR|CARGO_\w*(?:DIR|HOME)|RUSTUP_HOME|PIP_\w+|PYTHONUSERBASE|PYTHONPYCACHEPREFIX|NODE_OPTIONS|NODE_V8_COVERAGE|GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|\w*(?:CACHE|_DIR|DIR|_HOME|CONFIG|PREFIX|_LOG|LOGFILE|OUTPUT|TARGET|_FILE|HIST|PROFILE)\w*)$/;

/** Package-manager subcommands that only read. */
export const PKG_READS = new Set(['ls', 'list', 'll', 'la', 'view', 'v', 'info', 'show', 'outdated', 'why', 'explain', 'help', 'search', 'bin', 'root', 'prefix', 'whoami',
  'ping', 'doctor', 'audit', 'fund', 'env', 'doc', 'vet', 'fmt', 'freeze', 'check', 'tree', 'metadata', 'licenses', 'query']);

/** A package manager: anything but a known read may write where it runs, and where it is told to. */
export function readPackageManager(c: Command): boolean {
  const { cmd, args, operands, text, writes } = c;
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
    return true;
  }
  return false;
}

/** An interpreter running code, a script or a module. */
export function readInterpreter(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  if (INTERPRETERS.has(cmd) && args.some((a) => a === '-c' || a === '-e' || a === '--eval')) {
    writes.push({ what: text, targets: null }); // inline code can write anything
  } else if (INTERPRETERS.has(cmd) && args.some((a) => !/^-(?:-version|V|v|-help|h)$/.test(a))) {
    // a script, `-m pytest`, `--test`, `--run build`: the folder's code, judged where it runs (red team adv47)
    writes.push({ what: text, targets: null });
    // `python3 -m pip install --user …`: pip's own rules too
    const mod = optionValues(args, 'm')[0];
    if (mod === 'pip' || mod === 'pip3') c.inspect(['pip', ...args.slice(args.indexOf(mod) + 1)]);
  }
  return false;
}
