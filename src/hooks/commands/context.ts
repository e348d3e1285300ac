/** What a command reader works with: the writes it records, and the words an expansion built. */

export interface BashWrite {
  /** the command (or redirection) that writes */
  what: string;
  /** files it writes, when they can be told; null when it may write anywhere */
  targets: string[] | null;
  /**
   * the folder a relative target is written in, when `cd`/`pushd` moved the command there first (as
   * written, from where it starts); null when that folder cannot be told before it runs (`cd "$X"`,
   * `cd -`, `popd`, `env -C`); absent: where the command starts
   */
  dir?: string | null;
  /** rm/unlink: a target named without a trailing slash is removed itself — a symlink, not what it points to */
  unlinks?: true;
  /**
   * cp -P/-a/-d/-R, mv: sources that, where they are symlinks, make the copy one too — a later write
   * through the copy lands where the link points, so a source that is a link is judged as written there
   */
  copiesLinks?: true;
  /**
   * where the command may make links (ln's destination, a copy of links, an unpacked archive): a later
   * write of the same command under one of them may go through a link that does not exist yet when
   * the guard looks
   */
  linkDests?: string[];
  /**
   * targets written as patterns (`/tmp/w/hl_[a]`, `src/*.tmp`): judged by the folder before the
   * first pattern character and by the files they match when the guard looks
   */
  globs?: string[];
  /**
   * where the write runs among the parts of the command that run one after another (its statements,
   * the sides of `&&`/`||`), when that is known: a write in an earlier part cannot go through a link
   * a later part makes
   */
  step?: number;
  /** the simple command it belongs to (a redirection: the command it is written on), in a command of several parts */
  cmd?: number;
  /** a command a /code turn never runs, and why (a mount, an alias, an archive of absolute paths) */
  refuse?: string;
  /** with no targets: the folder (from where the command runs) it may write in, where not there (`patch -d DIR`) */
  runsIn?: string;
  /**
   * the targets are paths given to a program the guard does not know (`shuf -o F`, `iconv -o F`,
   * `make --eval=…F…`): it may write them or not — judged only where they lie outside the project
   */
  given?: true;
}

/** The words of a command an expansion helps build, and those of them whose first character is known all the same (a loop's variable over words written out). */
/** all: words an expansion builds; firstKnown: those whose first character is known; literal: words written whole in quotes (no pattern) */
export interface Expanded { all: ReadonlySet<string>; firstKnown: ReadonlySet<string>; literal?: ReadonlySet<string> }

export const NO_WORDS: Expanded = { all: new Set(), firstKnown: new Set() };

/**
 * A program text (a sed script, an awk program) taken from a word an expansion built, whole or after
 * its option (`-e$s`): the guard reads the text as written, not the value the shell puts there
 * (red team adv57: `sed -n "/$s/p"` with s holding `p;e CMD` ran CMD).
 */
export function built(texts: readonly string[], expanded: Expanded): boolean {
  for (const w of expanded.all) if (texts.some((t) => w === t || (t !== '' && w.startsWith('-') && w.endsWith(t)))) return true;
  return false;
}

/** One simple command as the command readers see it, its wrappers (sudo, env, xargs …) peeled off. */
export interface Command {
  /** the words as written, wrappers included */
  commandWords: readonly string[];
  /** the words it runs, its name first */
  words: string[];
  /** its name's basename */
  cmd: string;
  args: string[];
  /** its words that do not start with `-` */
  operands: string[];
  /** its words joined, for messages */
  text: string;
  /** xargs feeds it more operands */
  xargs: boolean;
  writes: BashWrite[];
  /** shell code it runs (`bash -c`, eval, an option's command): judged as a command line of its own */
  nested: string[];
  expanded: Expanded;
  /** reads another command it runs (busybox's applet, what -exec or a wrapper runs) */
  inspect(words: string[], expanded?: Expanded): void;
}

/** Reads one kind of command: true when it has read this one whole and no later reader looks at it. */
export type CommandReader = (command: Command) => boolean;
