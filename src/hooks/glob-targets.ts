/**
 * Targets written as pathname patterns (`/tmp/w/hl_[a]`, `/root/.bashr?`, `src/*.tmp`): the shell
 * names the files when it runs, so the write guard judges the folder a pattern can match in and the
 * files it matches when the guard looks (red team adv48 wrote through a refused hard link and into
 * /root by patterns the guard took as "a target it cannot name").
 */
import fs from 'node:fs';
import path from 'node:path';

const PATTERN = /[*?]|\[[^\]]*\]/;
/**
 * A target not fully known before the shell runs: a pathname pattern (`*`, `?`, `[…]`; a `[`
 * without its `]` is itself) or an expansion (`$`, a backtick; written in quotes they are letters,
 * but the guard cannot tell which from the word it is given). Where it stops being known.
 */
export const UNKNOWN = /[*?`$]|\[[^\]]*\]/;

/** The folder a pattern can match in, from `from`: its path up to the last `/` before the first pattern or expansion character. */
export function patternFolder(from: string, pattern: string): string {
  const at = pattern.search(UNKNOWN);
  const head = at < 0 ? pattern : pattern.slice(0, pattern.lastIndexOf('/', at) + 1);
  return path.resolve(from, head || '.');
}

/** One name of a pattern as a regular expression: `*`, `?`, `[…]`, `[!…]` (a `[` without its `]` is itself). Dot files match too. */
function nameRegex(name: string): RegExp {
  let re = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      // any bracket expression is taken as any one character: a superset of what bash matches
      // (`[[:alpha:]]`, `[!a]`, ranges in any locale — red team adv49), so nothing it matches goes unjudged
      let j = i + 1;
      if (name[j] === '!' || name[j] === '^') j++;
      if (name[j] === ']') j++; // a `]` first is a member
      while (j < name.length && name[j] !== ']') {
        // `[:alpha:]`, `[=a=]`, `[.a.]` inside: their `]` does not close the expression
        const inner = name[j] === '[' && /[:=.]/.test(name[j + 1] ?? '') ? name.indexOf(`${name[j + 1]}]`, j + 2) : -2;
        j = inner === -2 ? j + 1 : inner < 0 ? name.length : inner + 2;
      }
      if (j >= name.length) re += '\\[';
      else {
        re += '.';
        i = j;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/**
 * The paths a pattern matches now, from `from` (absolute), or null past `cap`. A `**` name matches
 * folders at any depth (as with bash's globstar), so the answer holds with it on or off.
 */
export function patternMatches(from: string, pattern: string, cap = 500): string[] | null {
  // (not normalised: a `..` after a pattern goes up from what the pattern matched — red team adv50's `.[.]/..`)
  const names = (path.isAbsolute(pattern) ? pattern : `${from}/${pattern}`).split('/').filter((n) => n !== '');
  let found = ['/'];
  for (const name of names) {
    const next: string[] = [];
    for (const dir of found) {
      if (!PATTERN.test(name)) {
        next.push(`${dir === '/' ? '' : dir}/${name}`);
        continue;
      }
      const re = nameRegex(name);
      const walk = (d: string, deep: boolean): boolean => {
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(d, { withFileTypes: true });
        } catch {
          return true;
        }
        // `.` and `..` match too where a pattern can name them (`.[.]`, `.*` with globskipdots off, or
        // bash 5.1 and older — red team adv50); kept as written, as the kernel reads `..` after a link
        if (!deep) for (const dot of ['.', '..']) if (re.test(dot)) next.push(`${d}/${dot}`);
        for (const e of entries) {
          const p = `${d === '/' ? '' : d}/${e.name}`;
          if (name === '**' || re.test(e.name)) next.push(p);
          if (deep && e.isDirectory() && !walk(p, true)) return false;
          if (next.length > cap) return false;
        }
        return true;
      };
      if (name === '**') next.push(dir);
      if (!walk(dir, name === '**')) return null;
    }
    found = [...new Set(next)];
    if (found.length > cap) return null;
  }
  // (a file the write would make counts where its folder is there)
  const there = (p: string) => {
    try {
      fs.lstatSync(p);
      return true;
    } catch {
      return false;
    }
  };
  const existing = [...new Set(found)].filter((p) => there(p) || there(p.slice(0, p.lastIndexOf('/')) || '/'));
  // and the path as written, `..` kept (it goes up from where a link leads), there or not: a pattern
  // that matches nothing is kept by bash as a literal name (`x[y]` may be a link of that name — red
  // team adv49), and an expansion may be a literal `$`
  return [...existing, path.isAbsolute(pattern) ? pattern : `${from}/${pattern}`];
}
