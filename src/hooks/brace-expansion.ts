/**
 * Bash's brace expansion, as the shell does it before anything else: `{rm,-rf,/root/x}` is three
 * words and `/tmp/{..,.}/../root/x` two paths (red team adv48 wrote through both while the guard
 * judged the literal text). Characters that were quoted or escaped take no part in it; the caller
 * passes them in protected form (`protect`).
 */

/** At most this many words from one word: a larger expansion is refused rather than judged in part. */
export const MAX_BRACE_WORDS = 256;

const PROTECTED: Record<string, string> = { '{': '\uE001', '}': '\uE002', ',': '\uE003', '.': '\uE004', $: '\uE005' };
const UNPROTECTED = Object.fromEntries(Object.entries(PROTECTED).map(([k, v]) => [v, k]));

/** Quoted or escaped text: its braces, commas, dots and `$` are letters, not expansion syntax (`"$"{a,b}` expands: red team adv49). */
export const protect = (text: string): string => text.replace(/[{},.$]/g, (c) => PROTECTED[c]!);

const unprotect = (text: string): string => text.replace(/[\uE001-\uE005]/g, (c) => UNPROTECTED[c]!);

/**
 * The words a (protected) word expands to, unprotected, or null when there are more than
 * MAX_BRACE_WORDS. A brace pair that expands nothing (`{}`, `{x}`, `${x}`) stays as written.
 */
export function expandBraces(text: string): string[] | null {
  const out: string[] = [];
  const go = (t: string): boolean => {
    const at = firstExpansion(t);
    if (!at) {
      out.push(unprotect(t));
      return out.length <= MAX_BRACE_WORDS;
    }
    const [open, close, parts] = at;
    for (const p of parts) if (!go(t.slice(0, open) + p + t.slice(close + 1))) return false;
    return true;
  };
  return go(text) ? out : null;
}

/** The first `{…}` that expands: its bounds and alternatives (a list at its top level, or a sequence). */
function firstExpansion(t: string): [number, number, string[]] | undefined {
  for (let open = t.indexOf('{'); open >= 0; open = t.indexOf('{', open + 1)) {
    // `${…}` is a parameter expansion, not a brace expansion
    if (open > 0 && t[open - 1] === '$') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < t.length; i++) {
      const c = t[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        const body = t.slice(open + 1, i);
        if (commas.length > 0) {
          const cuts = [open, ...commas, i];
          return [open, i, cuts.slice(1).map((end, k) => t.slice(cuts[k]! + 1, end))];
        }
        const seq = sequence(body);
        if (seq) return [open, i, seq];
        break;
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

/** `{1..3}`, `{a..e}`, `{10..1..3}`, `{01..10}` (zero-padded), as bash writes them; capped. */
function sequence(body: string): string[] | undefined {
  const num = /^([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?$/.exec(body);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d+))?$/.exec(body);
  const m = num ?? chr;
  if (!m) return undefined;
  const from = num ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = num ? Number(m[2]) : m[2]!.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  const width = num && /^[+-]?0\d/.test(m[1]!) || num && /^[+-]?0\d/.test(m[2]!) ? Math.max(m[1]!.replace(/^[+-]/, '').length, m[2]!.replace(/^[+-]/, '').length) : 0;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
    out.push(num ? (v < 0 ? '-' : '') + String(Math.abs(v)).padStart(width, '0') : String.fromCharCode(v));
    if (out.length > MAX_BRACE_WORDS) break;
  }
  return out;
}
