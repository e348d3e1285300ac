/** Families of commands, by what they may do to the file system. */
import { isLong } from '../getopt.js';
import { PREFIXES } from './wrappers.js';

export const ALWAYS_WRITES = new Set(['rm', 'rmdir', 'mv', 'cp', 'mkdir', 'touch', 'chmod', 'chown', 'chgrp', 'ln', 'truncate', 'install', 'rsync', 'unlink', 'shred', 'patch', 'dd', 'scp']);

export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'rbash', 'mksh', 'ash', 'yash', 'posh', 'lksh', 'pdksh', 'oksh', 'fish', 'csh', 'tcsh']);

export const INTERPRETERS = new Set(['python', 'python3', 'node', 'ruby', 'perl', 'php', 'deno', 'bun']);

export const PKG_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'cargo', 'go', 'gem', 'composer', 'apt', 'apt-get', 'brew', 'poetry', 'uv']);

/** builtins that move the shell to another folder */
export const CHDIR = new Set(['cd', 'pushd', 'popd']);

const DETACHERS = new Set(['coproc', 'nohup', 'setsid', 'disown', 'at', 'batch', 'screen', 'tmux', 'systemd-run', 'daemonize', 'start-stop-daemon', 'sem']);

/** A command that leaves a process running after it returns: a detacher, GNU parallel's `--bg` / `--semaphore` (red team adv53: `sem '…'`). */
export const detaches = (cmd: string, args: readonly string[]): boolean =>
  DETACHERS.has(cmd) || (cmd === 'parallel' && args.some((a) => a.startsWith('--') && isLong(a.slice(2).split('=')[0]!, ['bg', 'semaphore', 'fg'])));

export const READERS = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'pwd', 'echo', 'printf', 'true', 'false', 'test', '[',
  'stat', 'file', 'du', 'df', 'which', 'type', 'whoami', 'date', 'uname', 'basename', 'dirname', 'realpath', 'readlink', 'diff', 'cmp',
  'less', 'more', 'cut', 'tr', 'column', 'nl', 'jq', 'sha256sum', 'md5sum', 'printenv', 'id', 'hostname', 'nproc', 'free',
  // (programs with no option that writes a file: red team adv44 met them refused on paths outside the project)
  'sha1sum', 'sha224sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'od', 'base32', 'base64', 'basenc', 'strings', 'tac', 'comm',
  'rev', 'fold', 'paste', 'join', 'fmt', 'hexdump']);

/** Builtins that evaluate a subscript or an arithmetic string given as a word, command substitutions included. */
export const EVALUATES_SUBSCRIPTS = new Set(['test', '[', 'let', 'declare', 'typeset', 'local', 'export', 'readonly', 'printf', 'read', 'unset', ':', 'shift', 'return', 'exit', 'mapfile', 'readarray', 'wait', 'kill']);

/** Editors run from the shell: their `-c`, `+cmd` or script write files by name (red team adv42: `vim -c 'w! F'`). */
export const EDITORS = new Set(['vi', 'vim', 'nvim', 'view', 'ex', 'ed', 'red', 'emacs', 'nano', 'pico', 'joe', 'mcedit']);

/** Commands a /code turn never runs: a mount makes a project file another file (red team adv37: `mount --bind ~/x src/a.js`, then an Edit). */
/** Writers whose options say where they write or what they run: a word of theirs an expansion builds may be one */
export const STEERED = new Set(['cp', 'mv', 'install', 'ln', 'tar', 'bsdtar', 'sed', 'rsync', 'patch', 'dd', 'unzip', 'cpio', 'scp', 'perl',
  'sort', 'git', 'curl', 'wget', 'gpg', 'csplit', 'split', 'zip', 'ssh-keygen', 'shuf', 'iconv', 'zstd', 'gzip', 'xz', 'bzip2', 'msgfmt', 'gcc', 'cc', 'clang',
  'g++', 'pandoc']);

/** Programs that run a command with words from their input, as xargs does */
export const FEEDERS = new Set(['parallel', 'rush', 'pexec', 'xe', 'dsh']);

export const MOUNTERS = new Set(['mount', 'umount', 'losetup', 'unshare', 'nsenter', 'chroot', 'fusermount', 'bindfs']);

/** Command names inspectCommand judges (writers, shells, wrappers, unpackers, …): a word naming one, given to a command the guard does not know, may be run by it. */
const JUDGED = new Set([...ALWAYS_WRITES, ...SHELLS, ...PREFIXES, ...MOUNTERS, ...PKG_MANAGERS, 'tee', 'sed', 'perl', 'awk', 'gawk', 'find', 'tar', 'bsdtar', 'unzip', 'cpio',
  'dpkg-deb', '7z', '7za', '7zr', 'ar', 'unsquashfs', 'link', 'git', 'su', 'sg', 'script', 'busybox', 'eval', 'source', 'trap', 'hash', 'alias', 'uniq', 'history', 'sort', 'curl', 'wget']);

export const judged = (name: string): boolean => JUDGED.has(name);

/** awk and its kin. */
export const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
