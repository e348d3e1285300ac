/** A word of a writer whose options steer it that may be an option when it runs, though the text shows none. */
import { TAR_VALUES } from '../tar-reading.js';
import { type Expanded, type Command } from './context.js';
import { FIND_VALUES } from './find.js';
import { WRITER_VALUES } from './writers.js';
import { STEERED } from './kinds.js';

/**
 * A word of a command whose options steer where it writes (STEERED, find) that may be an option when
 * it runs though the text does not show one: built by an expansion whose first character is unseen
 * (`$a`, `"$f"`, `$(…)`) or that starts with `-` (`-$x`, `--$x`: red team adv60), or a pattern whose
 * first character is a wildcard (`*​/var/tmp` matched a folder named `--target-directory=`: adv60).
 * Not after `--`; not the value of an option that takes one (`tar -tf "$f"`, `find . -name "$p"`).
 */
export function optionUnseen(cmd: string, args: readonly string[], expanded: Expanded): string | undefined {
  // (git's `--end-of-options` ends its options and still takes revisions: `git log --end-of-options "$rev"`)
  const end = cmd === 'dd' || cmd === 'find' ? -1 : cmd === 'git' && args.includes('--end-of-options') ? args.indexOf('--end-of-options') : args.indexOf('--');
  const values = valueWords(cmd, args);
  return args.find((a, i) => (end < 0 || i < end) && !values.has(i)
    && ((expanded.all.has(a) && !expanded.firstKnown.has(a) && (/^[$`-]/.test(a)) && !/^(?:\$HOME|\$\{HOME\})(?:\/|$)/.test(a))
      // (a pattern that may match a name starting with `-`: `*/x`, `-*/var/tmp` — red team adv61; `~+`, `~-` are $PWD, $OLDPWD, which a command sets)
      || (/^[*?[]|^-[^/]*[*?[]|^~[+-]/.test(a) && !(expanded.literal?.has(a) && !a.startsWith('-')))));
}

/**
 * The positions of words that are an option's value, walking the words as the program does (a word
 * taken as a value takes none itself: `cp -S -S $x` gives -S the suffix "-S" and leaves $x an
 * option — red team adv61): after a bundle whose one letter that takes a value ends it (`-tf "$f"`,
 * `-C "$d"`), an old-style tar bundle's values, and find's primaries that take a word.
 */
function valueWords(cmd: string, args: readonly string[]): Set<number> {
  const letters = cmd === 'tar' || cmd === 'bsdtar' ? TAR_VALUES : WRITER_VALUES[cmd]?.short ?? '';
  const out = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (cmd === 'find' ? FIND_VALUES.has(a) : /^-[a-zA-Z]+$/.test(a) && letters.includes(a.at(-1)!) && ![...a.slice(1, -1)].some((c) => letters.includes(c))) {
      out.add(++i);
    } else if (i === 0 && (cmd === 'tar' || cmd === 'bsdtar') && /^[a-zA-Z]+$/.test(a)) {
      const n = [...a].filter((c) => letters.includes(c)).length;
      for (let k = 1; k <= n; k++) out.add(k);
      i += n;
    }
  }
  return out;
}

/** A steered writer's word that may be an option the text does not show: refused. */
export function readUnseen(c: Command): boolean {
  const { words, cmd, args, writes, expanded } = c;
  // a word an expansion builds, of a first character the text does not show, may be an option when it
  // runs: `a=-t/var/tmp; cp $a f`, `tar -xf t.tar $x`, `set -- -e '1w F'; sed -n -e p "$@" f` (red team adv59)
  if (STEERED.has(cmd) || cmd === 'find') {
    const unseen = optionUnseen(cmd, args, expanded);
    if (unseen !== undefined) {
      writes.push({ what: words.join(' ').slice(0, 160), targets: null, refuse: cmd === 'dd'
        ? `'${unseen.slice(0, 60)}' is built by an expansion, and dd reads its operands as of=FILE, if=FILE: write them out`
        : cmd === 'find' ? `'${unseen.slice(0, 60)}' is built by an expansion or a pattern and may be a start folder or a primary when it runs (-delete, -fprint F, -exec …): write it out, or give it as the value of -name/-path`
          : `'${unseen.slice(0, 60)}' is built by an expansion or a pattern and may be an option when it runs (-t DIR, -C DIR, -e SCRIPT, --output=F): ${cmd === 'git' ? 'put --end-of-options before the revisions and paths that come from variables or patterns (git log --end-of-options "$rev")' : `put -- before the words that come from variables or patterns (${cmd} … -- "$f"), start a pattern with ./ (./*.md)`}, or write them out` });
      return true;
    }
  }
  return false;
}
