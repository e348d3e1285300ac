/** Files programs write by option (`--output=F`, `sort -o F`), archives they make and folders they unpack into. */
import path from 'node:path';
import { tarDirs, tarMode, tarOptions } from '../tar-reading.js';
import { gitSubcommand } from './git.js';
import { READERS } from './kinds.js';
import { HARMLESS_DEST, optionValues, lastOptionValue, named, operandsAfter } from './words.js';
import { type Command } from './context.js';
import { isLong } from '../getopt.js';

/** long options that name a file a command writes, whatever the command */
const OUTPUT_OPTIONS = ['output', 'output-file', 'outfile', 'out-file', 'output-directory'];

/**
 * Options of programs that name a file they write (`out`, `outLong`) or a command they run (`code`,
 * `codeLong`), read as getopt reads them (red team adv42: `tar --to-command=CMD`, `curl -D F`,
 * `wget -o F`, `sort --compress-program=CMD`, `rsync -e CMD`, `gpg -o F`, `ssh-keygen -f F`, `man -P CMD`).
 */
export const PROGRAM_OPTIONS: Record<string, { out?: string; outLong?: readonly string[]; code?: string; codeLong?: readonly string[] }> = {
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
  // (with a terminal it copies its input to the log: red team adv66's `script -qc "… | less -O ~/x"`)
  less: { out: 'oO', outLong: ['log-file', 'LOG-FILE'] },
};

/** tar and zip name the archive they make: `tar -cf F`, `tar czf F`, `tar --file=F` */
export function archiveMade(cmd: string, args: string[]): string[] {
  if (cmd !== 'tar' && cmd !== 'bsdtar') return [];
  // (making, adding to, joining or deleting from an archive writes it: red team adv44's `--delete`, `-A`)
  if (!tarMode(args, 'cruA', ['create', 'append', 'update', 'delete', 'catenate', 'concatenate'])) return [];
  // `-cf F`, `-cfF` (the rest of the bundle: `-cf/root/x.tar`), `--file=F`, `--fi F`, `tar czf F …`;
  // every one given: with -M each is a volume it writes (red team adv57 wrote the first of two)
  return tarOptions(args).options.filter((o) => o.name === 'f' || o.name === 'file').flatMap((o) => (o.value && o.value !== '-' ? [o.value] : []));
}

/** The files named by output options (`--output=F`, `--output F`, `sort -o F`, `sort -oF`). */
export function outputFiles(cmd: string, args: string[]): string[] {
  if (READERS.has(cmd)) return []; // `echo --output=x` prints it
  // (a program's own short output options are in PROGRAM_OPTIONS; git's format-patch writes to -o)
  const short = cmd === 'git' && (args.includes('format-patch') || args.includes('archive')) ? 'o' : '';
  return optionValues(args, short, OUTPUT_OPTIONS).filter((v) => v !== '' && !HARMLESS_DEST.has(v) && v !== '-');
}

/** The folder an extraction or a clone writes into ('.' when none is named), null when it cannot be told, undefined for other commands. */
export function unpackDir(cmd: string, args: string[], operands: string[]): string | string[] | null | undefined {
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

/** `file -C`: the compiled magic file it writes. */
export function readMagic(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `file -C` compiles its magic files into NAME.mgc in the folder it runs in (red team adv45)
  if (cmd === 'file' && args.some((a) => /^-[a-zA-Z]*C|^--compile$/.test(a))) {
    const magic = optionValues(args, 'm', ['magic-file']).flatMap((m) => m.split(':')).filter(Boolean);
    writes.push({ what: text, targets: named((magic.length > 0 ? magic : ['magic']).map((m) => `${path.posix.basename(m).replace(/\.mgc$/, '')}.mgc`)) });
  }
  return false;
}

/** `tar --remove-files`: deletes what it archives. */
export function readRemoveFiles(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // an output file named by an option (`git diff --output=F`, `sort -o F`, `curl -o F`): written
  // (tar deletes what it archived: red team adv53's `tar -c --remove-files -f x.tar /root/.bashrc`)
  if ((cmd === 'tar' || cmd === 'bsdtar') && args.some((a) => a.startsWith('--') && isLong(a.slice(2), ['remove-files']))) {
    writes.push({ what: text, targets: null, refuse: 'tar --remove-files deletes the files it archives: make the archive, then remove the files you mean by name' });
    return true;
  }
  return false;
}

/** Files named by output options, and archives made. */
export function readOutputOptions(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  const outputs = [...outputFiles(cmd, args), ...archiveMade(cmd, args)].filter((o) => !HARMLESS_DEST.has(o));
  if (outputs.length > 0) {
    // `git -C DIR … --output=F` writes DIR/F: a relative F is in a folder the guard does not follow
    const elsewhere = cmd === 'git' && args.some((a) => ['-C', '--work-tree'].includes(a));
    writes.push({ what: text, targets: named(outputs), ...(elsewhere ? { dir: null } : {}) });
  }
  return false;
}

/** The files a program's own options say it writes (PROGRAM_OPTIONS: `less -O F`, `sort -o F`). */
export const programOutputs = (cmd: string, args: readonly string[]): string[] => {
  const opts = PROGRAM_OPTIONS[cmd];
  return opts ? optionValues(args, opts.out, opts.outLong).filter((v) => !HARMLESS_DEST.has(v) && v !== '-') : [];
};

/** A program's own options that name a file it writes or a command it runs (PROGRAM_OPTIONS). */
export function readProgramOptions(c: Command): boolean {
  const { cmd, args, text, writes, nested } = c;
  const opts = PROGRAM_OPTIONS[cmd];
  if (opts) {
    const files = programOutputs(cmd, args);
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
  return false;
}

/** Option values that are commands (tar's checkpoint action, ssh's -o …Command). */
export function readCodeOptions(c: Command): boolean {
  const { cmd, args, nested } = c;
  // tar's `--checkpoint-action=exec=CMD`; ssh's `-o ProxyCommand=CMD` (LocalCommand, KnownHostsCommand …)
  if (cmd === 'tar' || cmd === 'bsdtar') nested.push(...optionValues(args, '', ['checkpoint-action']).filter((v) => v.startsWith('exec=')).map((v) => v.slice(5)));
  if (cmd === 'ssh' || cmd === 'scp' || cmd === 'sftp') for (const o of optionValues(args, 'o')) {
    const m = /^\s*(?:Proxy|Local|KnownHosts|Remote)Command\s*(?:=|\s)\s*(.*)$/is.exec(o);
    if (m) nested.push(m[1]!);
  }
  return false;
}

/** `split IN PREFIX`: the files named from PREFIX. */
export function readSplit(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `split IN PREFIX` writes files named from PREFIX
  if (cmd === 'split') {
    const ops = operandsAfter(args, 'lbnCat');
    if (ops.length >= 2) writes.push({ what: text, targets: named([ops[1]!]) });
  }
  return false;
}

/** Where an archive or a clone is unpacked. */
export function readUnpacked(c: Command): boolean {
  const { cmd, args, operands, text, writes } = c;
  // where an archive or a clone is unpacked (red team adv26: `tar -xf t.tar -C ~`, `unzip -d`, `git clone URL DIR`)
  const unpacked = unpackDir(cmd, args, operands);
  // a member list may hold `-C DIR` lines, which tar obeys (red team adv59)
  if (unpacked !== undefined && (cmd === 'tar' || cmd === 'bsdtar') && tarOptions(args).options.some((o) => o.name === 'T' || (o.name.length > 2 && isLong(o.name, ['files-from'])))) {
    writes.push({ what: text, targets: null, refuse: 'a member list (-T, --files-from) may hold `-C DIR` lines that send the members elsewhere: name the members on the command line' });
    return true;
  }
  // an archive unpacked with its absolute names writes wherever they say, not in -C (red team adv37)
  if (unpacked !== undefined && (cmd === 'tar' || cmd === 'bsdtar') && args.some((a, i) => (/^-[a-zA-Z]*P/.test(a) || (a.startsWith('--') && isLong(a.slice(2), ['absolute-names']))) || (i === 0 && /^[a-zA-Z]+$/.test(a) && a.includes('P')))) {
    writes.push({ what: text, targets: null, refuse: 'an archive unpacked with absolute names (-P) writes wherever its members say, past the folder it is given: unpack without -P' });
    return true;
  }
  // the same for `unzip -:` (entries keep their `../`) and GNU cpio's copy-in, which keeps absolute
  // names unless told --no-absolute-filenames (red team adv48)
  const escapes = cmd === 'unzip' && args.some((a) => /^-[a-zA-Z]*:/.test(a)) ? 'unzip -: keeps the ../ of entry names, so they unpack past the folder it is given: unpack without -:'
    : cmd === 'cpio' && unpacked !== undefined && args.some((a) => /^-[a-zA-Z]*i|^--extract$/.test(a)) && !args.includes('--no-absolute-filenames') ? 'cpio -i keeps absolute member names, so they unpack wherever the archive says: add --no-absolute-filenames, or unpack with tar -x -C DIR'
      : undefined;
  if (escapes) {
    writes.push({ what: text, targets: null, refuse: escapes });
    return true;
  }
  if (unpacked !== undefined) {
    const dirs = unpacked === null ? null : [unpacked].flat();
    writes.push({ what: text, targets: dirs === null ? null : named(dirs), ...(dirs === null ? {} : { linkDests: dirs }) });
    if (cmd !== 'git') return true;
  }
  return false;
}

/** `ar rc LIB.a …`: the archive it makes or changes. */
export function readAr(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `ar rc LIB.a …`: the archive it makes or changes (red team adv44)
  if (cmd === 'ar' && /^-?[a-zA-Z]*[rqdmsu]/.test(args[0] ?? '') && !/x/.test(args[0] ?? '') && args[1] !== undefined) {
    writes.push({ what: text, targets: named([args[1]]) });
    return true;
  }
  return false;
}

/** `uniq IN OUT`: writes OUT. */
export function readUniq(c: Command): boolean {
  const { cmd, args, text, writes } = c;
  // `uniq IN OUT` writes OUT (red team adv40)
  if (cmd === 'uniq') {
    const files = operandsAfter(args, 'fsw');
    if (files.length >= 2) writes.push({ what: text, targets: named([files[1]!]) });
    return true;
  }
  return false;
}
