/**
 * Command lines read as GNU getopt_long reads them: long options by any prefix, bundles of letters,
 * values fused or in the next word — the reading the write guard judges a program's words by.
 */

/**
 * Does a long option as written name a known one? getopt_long takes any unambiguous prefix
 * (`--to-com` for `--to-command`, `--expr` for `--expression`: red team adv43), so a prefix of at
 * least two letters counts — wider than getopt, never narrower.
 */
// (one letter too: `sort --o=F`, `sed --e=S`, `patch --o=F` — red team adv54; an ambiguous one makes the program refuse to run)
export const longNames = (given: string, known: string): boolean => given === known || (given.length >= 1 && known.startsWith(given));
export const isLong = (given: string, known: readonly string[] = []): boolean => known.some((k) => longNames(given, k));

/** An option as given: its letter or its long name (in full where it is one that takes a value), and the value it took. */
export interface GivenOption { name: string; value?: string }

/**
 * A command line as GNU getopt_long reads it: options anywhere before `--`, a bundle of letters ending
 * at the first that takes a value (the rest of the word, else the next word). Red team adv57: `cp a
 * /var/tmp/x -S /tmp/q` wrote /var/tmp/x (the guard took the suffix for the destination), `cp -Sxt/tmp/y`
 * is the suffix `xt/tmp/y`, not the folder /tmp/y.
 */
export function getopt(args: readonly string[], short: string, long: readonly string[], flags: readonly string[] = []): { operands: string[]; options: GivenOption[]; inOrder: (string | GivenOption)[]; firstOperand: number } {
  const inOrder: (string | GivenOption)[] = [];
  let firstOperand = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      if (firstOperand < 0 && i + 1 < args.length) firstOperand = i + 1;
      inOrder.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq > 0 ? eq : undefined);
      const known = flags.includes(name) ? undefined : long.find((k) => k === name) ?? long.find((k) => isLong(name, [k]));
      if (known === undefined) inOrder.push({ name, ...(eq > 0 ? { value: a.slice(eq + 1) } : {}) });
      else inOrder.push({ name: known, value: eq > 0 ? a.slice(eq + 1) : args[++i] });
    } else if (a.startsWith('-') && a !== '-') {
      for (let j = 1; j < a.length; j++) {
        if (!short.includes(a[j]!)) {
          inOrder.push({ name: a[j]! });
          continue;
        }
        inOrder.push({ name: a[j]!, value: j < a.length - 1 ? a.slice(j + 1) : args[++i] });
        break;
      }
    } else {
      if (firstOperand < 0) firstOperand = i;
      inOrder.push(a);
    }
  }
  return {
    operands: inOrder.filter((w): w is string => typeof w === 'string'),
    options: inOrder.filter((w): w is GivenOption => typeof w !== 'string'),
    inOrder,
    firstOperand,
  };
}

/** The last value given to the options named (a letter, a long name). */
export const lastGiven = (options: readonly GivenOption[], ...names: string[]): string | undefined =>
  options.filter((o) => names.includes(o.name) && o.value !== undefined).at(-1)?.value;
