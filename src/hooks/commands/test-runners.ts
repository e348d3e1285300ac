/**
 * Test runners' filter options: their values are patterns over test files or test names, never a
 * file the runner writes (`jest --testPathIgnorePatterns /node_modules/` — agent trial tr169 was told
 * it was given a path outside the project). Only these options, of only these programs: every other
 * word of a runner is still a path it may be given.
 */
import path from 'node:path';

interface Filters {
  /** long names, compared with dashes dropped and case folded (jest takes `--testPathPattern` and `--test-path-pattern`) */
  long: readonly string[];
  /** short letters that take a pattern */
  letters: string;
}

const FILTERS: ReadonlyMap<string, Filters> = new Map([
  ['jest', { long: ['testpathpattern', 'testpathpatterns', 'testpathignorepatterns', 'testnamepattern', 'testregex', 'testmatch', 'coveragepathignorepatterns', 'modulepathignorepatterns', 'watchpathignorepatterns', 'collectcoveragefrom'], letters: 't' }],
  ['vitest', { long: ['testnamepattern', 'exclude'], letters: 't' }],
  ['mocha', { long: ['grep', 'fgrep', 'ignore', 'exclude'], letters: 'gf' }],
  ['pytest', { long: [], letters: 'km' }],
]);

const folded = (name: string): string => name.replace(/-/g, '').toLowerCase();

/** `args` of `program` less its filter options and their values (the next word, or after `=`, or fused to a short letter). */
export function withoutPatterns(program: string, args: readonly string[]): string[] {
  const filters = FILTERS.get(path.basename(program));
  if (!filters) return [...args];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (filters.long.includes(folded(a.slice(2, eq > 0 ? eq : undefined)))) {
        if (eq < 0) i++;
        continue;
      }
    } else if (/^-[a-zA-Z]$/.test(a) && filters.letters.includes(a[1]!)) {
      i++;
      continue;
    } else if (/^-[a-zA-Z]./.test(a) && filters.letters.includes(a[1]!)) continue;
    out.push(a);
  }
  return out;
}
