/** The writers (cp, mv, ln, install, chmod, patch …): their options that take a value and the files they write. */
import path from 'node:path';
import { type GivenOption, getopt, isLong, lastGiven } from '../getopt.js';
import { optionValues, operandsAfter, named } from './words.js';
import { ALWAYS_WRITES } from './kinds.js';
import { type BashWrite, type Command } from './context.js';

/** patch's options that take a value (short letters, long names): their values are no files it patches. */
const PATCH_VALUES = 'iordpFBYzDVg';

const PATCH_LONG_VALUES = ['input', 'output', 'reject-file', 'directory', 'strip', 'fuzz', 'prefix', 'basename-prefix', 'suffix', 'ifdef', 'version-control', 'get', 'quoting-style', 'read-only', 'reject-format'];

/** The folder `patch` works in: `-d DIR`, `--directory=DIR` (`--dir=DIR`, getopt's abbreviations), else where it runs. */
export function patchDir(args: readonly string[]): string {
  return optionValues(args, 'd', ['directory']).at(-1) ?? '.';
}

/** The file `patch` is told to patch (its first operand), from the folder it works in; the patch it reads (`-i`, a second operand) is no target (red team adv53 had `-i /tmp/p.diff` judged instead of the folder). */
export function patchTargets(args: readonly string[]): string[] {
  const dir = patchDir(args);
  return operandsAfter(args, PATCH_VALUES, PATCH_LONG_VALUES).slice(0, 1).map((f) => (dir === '.' || f.startsWith('/') ? f : `${dir.replace(/\/+$/, '')}/${f}`));
}

/**
 * The options of the writers (ALWAYS_WRITES) that take a value: short letters, long names (one taking
 * it only after `=` is not listed), and the long flags whose names begin another's (`install --strip`,
 * `rsync --compress`: an exact name is that option, not an abbreviation).
 */
export const WRITER_VALUES: Record<string, { short: string; long: readonly string[]; flags?: readonly string[] }> = {
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
  rsync: { short: 'BefMT@', flags: ['compress', 'backup', 'partial', 'checksum'], long: ['max-alloc', 'block-size', 'rsh', 'rsync-path', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest', 'partial-dir', 'backup-dir', 'suffix', 'chmod', 'chown', 'usermap', 'groupmap', 'max-delete', 'max-size', 'min-size', 'timeout', 'contimeout', 'port', 'sockopts', 'out-format', 'log-file', 'log-file-format', 'password-file', 'bwlimit', 'write-batch', 'only-write-batch', 'read-batch', 'protocol', 'iconv', 'checksum-choice', 'compress-choice', 'compress-level', 'skip-compress', 'modify-window', 'remote-option', 'outbuf', 'info', 'debug', 'stop-after', 'stop-at', 'address', 'early-input', 'stderr', 'copy-as', 'zc', 'zl', 'cc', 'time-limit', 'checksum-seed'] },
  scp: { short: 'cDFiJloPSX', long: [] },
};

/**
 * The files chmod, chown and chgrp change: every operand after the mode or owner — all of them with
 * `--reference=F` (F is only read), and for chmod where the mode was given as an option (`chmod -x F`,
 * `chmod -w,u+x F`): GNU chmod reads such a word as its mode (red team adv57 had F dropped).
 */
export function ownedOrModed(cmd: string, options: readonly GivenOption[], operands: readonly string[]): string[] {
  if (options.some((o) => o.name === 'reference')) return [...operands];
  if (cmd === 'chmod' && options.some((o) => /^[rwxXstugoa,+=0-7-]$/.test(o.name))) return [...operands];
  return operands.slice(1);
}

/**
 * ln's targets: the links it makes and what each names (a write through a link lands there). `ln
 * [-s] SRC… DEST`, `ln -t DIR SRC…`, `ln SRC` (a link in the folder it runs in). A symbolic link's
 * relative target is read from the link's folder — as written, so a `..` goes up from where a link on
 * the way led (red team adv35) — or, with `-r`, from the folder the command runs in (adv36: `ln -sr
 * ../../../../root D/L` names /root from there); where it cannot be told whether DEST is a folder,
 * both readings are judged.
 */
export function lnParts(args: readonly string[]): { targets: string[]; dest: string } {
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

/** The writers (ALWAYS_WRITES): what each writes, read as getopt reads its words. */
export function readWriter(c: Command): boolean {
  const { words, cmd, args, text, writes, expanded } = c;
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
      c.inspect([words[0]!, ...args.slice(0, firstOperand), '--', ...rest], expanded);
    }
    // a backup is the written file's name + the suffix, beside it unless the suffix leads elsewhere
    if (lastGiven(options, 'S', 'suffix')?.includes('/')) writes.push({ what: text, targets: null, refuse: 'a backup suffix with a "/" puts the backup in another folder than the file: give a plain suffix (-S .bak)' });
    if (cmd === 'ln') {
      const ln = lnParts(args);
      writes.push({ what: text, targets: ln.targets.length ? named(ln.targets) : null, linkDests: [ln.dest] });
      return true;
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
    return true;
  }
  return false;
}

/** `tee F…` */
export function readTee(c: Command): boolean {
  const { cmd, operands, text, writes } = c;
  if (cmd === 'tee') {
    writes.push({ what: text, targets: operands.length ? named(operands) : null });
    return true;
  }
  return false;
}

/** `link A B`: a hard link. */
export function readLink(c: Command): boolean {
  const { cmd, operands, text, writes } = c;
  if (cmd === 'link' && operands.length === 2) {
    writes.push({ what: text, targets: named(operands) }); // a hard link: a write through it lands in both
    return true;
  }
  return false;
}
