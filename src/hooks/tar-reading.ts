/**
 * tar's command line as GNU tar (and bsdtar) read it: its mode, the archives it writes, the folders it
 * unpacks in.
 */
import { getopt, isLong } from './getopt.js';

/** tar's short options that take a value, in the order an old-style bundle (`tar xCf DIR a.tar`) takes them from the words after it */
export const TAR_VALUES = 'fCbTXKNgVLFH';
/** GNU tar's (and bsdtar's) long options that take a value after a blank too */
const TAR_LONG_VALUES = ['file', 'directory', 'cd', 'exclude', 'exclude-from', 'files-from', 'blocking-factor', 'record-size', 'index-file', 'listed-incremental',
  'to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command', 'volno-file', 'strip-components', 'suffix', 'owner',
  'group', 'mode', 'mtime', 'newer', 'after-date', 'newer-mtime', 'label', 'tape-length', 'format', 'starting-file', 'transform', 'xform', 'checkpoint-action',
  'exclude-tag', 'exclude-tag-all', 'exclude-tag-under', 'group-map', 'owner-map', 'hole-detection', 'quoting-style', 'sort', 'warning', 'level', 'pax-option',
  'options', 'include', 'newer-than'];

/** tar is told one of these modes: a letter (bundled, old-style too) or a long name by any prefix (`--ext`, `--cre`: red team adv59). */
export function tarMode(args: readonly string[], letters: string, long: readonly string[]): boolean {
  return tarOptions(args).options.some((o) => (o.name.length === 1 ? letters.includes(o.name) : isLong(o.name, long)));
}

/** A tar command line read as tar reads it: an old-style first word (`xzCf DIR a.tar`) takes its values in order from the words after it. */
export function tarOptions(args: readonly string[]): ReturnType<typeof getopt> {
  const first = args[0] ?? '';
  let words = [...args];
  if (/^[a-zA-Z]+$/.test(first)) {
    let next = 1;
    const opened = [...first].flatMap((c) => (TAR_VALUES.includes(c) && next < args.length ? [`-${c}`, args[next++]!] : [`-${c}`]));
    words = [...opened, ...args.slice(next)];
  }
  return getopt(words, TAR_VALUES, TAR_LONG_VALUES);
}

/**
 * The folders a tar extraction writes in: each -C (--directory, bsdtar's --cd) applies to what follows
 * it, so every one is judged — red team adv57 had members after an earlier `-C /var/tmp` land there
 * while the guard judged the last -C only — and the folder it runs in where no -C comes first.
 */
export function tarDirs(args: readonly string[]): string[] {
  const dirs: string[] = [];
  let memberHere = false;
  const { inOrder, options } = tarOptions(args);
  for (const w of inOrder) {
    if (typeof w === 'string') memberHere ||= dirs.length === 0;
    else if (['C', 'directory', 'cd'].includes(w.name) && w.value !== undefined) dirs.push(w.value);
  }
  const all = dirs.length === 0 || memberHere ? ['.', ...dirs] : dirs;
  // `--one-top-level=DIR`: the members go into DIR, from the folder tar is in (red team adv59: an absolute one)
  const top = options.filter((o) => o.name.length > 2 && isLong(o.name, ['one-top-level']) && o.value).map((o) => o.value!);
  return [...all, ...top.flatMap((t) => (t.startsWith('/') ? [t] : all.map((d) => (d === '.' ? t : `${d.replace(/\/+$/, '')}/${t}`))))];
}
