/** Shell text as bash decodes it: quote removal, ANSI-C quoting, command substitutions written in a word. */
import type { Node } from 'web-tree-sitter';


/** The text of `$'…'` as bash decodes it: `\n`, `\xHH`, `\NNN` (octal), `\uHHHH`, `\cX`, `\'` … */
export function ansiC(body: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  return body.replace(/\\(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([0-7]{1,3})|c(.)|(.))/gs, (m, x, u, U, o, c, other) => {
    if (x) return String.fromCharCode(parseInt(x, 16));
    if (u || U) return String.fromCodePoint(Math.min(parseInt(u ?? U, 16), 0x10ffff));
    if (o) return String.fromCharCode(parseInt(o, 8) & 0xff);
    if (c) return String.fromCharCode(c.toUpperCase().charCodeAt(0) ^ 0x40);
    return simple[other] ?? m;
  });
}

/** A script operand that is a pipe: `<(…)`, /dev/fd/N, /dev/stdin, /proc/… */
export const unreadCode = (o: string): boolean => o.startsWith('<(') || o.startsWith('/dev/fd/') || o.startsWith('/proc/') || o === '/dev/stdin' || o === '-';

/**
 * The command substitutions written in a word (`$(…)`, `` `…` ``), found by counting parentheses: a
 * `)` inside one (a case pattern: red team adv39) does not end it early.
 */
export function substitutions(word: string): string[] {
  const out: string[] = [];
  for (let i = word.indexOf('$('); i >= 0; i = word.indexOf('$(', i + 2)) {
    let depth = 0;
    let j = i + 1;
    for (; j < word.length; j++) {
      if (word[j] === '(') depth++;
      else if (word[j] === ')' && --depth === 0) break;
    }
    out.push(word.slice(i + 2, j));
  }
  for (const m of word.matchAll(/`([^`]*)`/g)) out.push(m[1]!);
  // an unbalanced one cannot be read: its text is code all the same
  return out.length > 0 || !/\$\(|`/.test(word) ? out : [word];
}

/** A word as bash hands it over after quote removal (no brace expansion: expandedWords). */
export function unquote(n: Node): string {
  if (n.type === 'raw_string') return n.text.slice(1, -1);
  // `$'tee'`, `$'\x74ee'`: ANSI-C quoting, decoded as bash does; `$"tee"`: a translated string (red team adv41)
  if (n.type === 'ansi_c_string') return ansiC(n.text.slice(2, -1));
  if (n.type === 'translated_string') return n.namedChildren.map((c) => (c?.type === 'string' ? unquote(c) : c?.text ?? '')).join('') || n.text.slice(2, -1);
  // (inside double quotes a backslash escapes only $ ` " \\ and a newline: `"/a/,\\$p"` is sed's `/a/,$p` — agent trial tr126)
  // (every piece between the quotes: a lone `$` is an unnamed one, and it is a `$` — red team adv58's `"/tmp/z/"$"/f"` was read as /tmp/z//f)
  if (n.type === 'string') return n.children.slice(1, -1).map((c) => (c?.type === 'string_content' ? c.text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch)) : c?.text ?? '')).join('');
  // bash's quote removal: `\tee`, `t''ee`, `"l"n` are tee and ln (red team adv37 hid writes behind them)
  if (n.type === 'concatenation') return n.children.map((c) => (c ? unquote(c) : '')).join('');
  if (n.type === 'command_name' && n.namedChildCount === 1) return unquote(n.namedChild(0)!);
  if (n.type === 'word') return n.text.replace(/\\(.)/gs, '$1');
  return n.text;
}
