/**
 * Text primitives that the index, the query tools and the semantic engine all use, one place for
 * each: word boundaries inside identifiers, splitting into words, normalisation.
 *
 * Word boundaries inside identifiers, in linear time. The regular expressions this replaces,
 * `s.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')`, give the
 * same result, but the second one backtracks over every start position of an uppercase run that
 * is not followed by a lowercase letter: a 128 KB word of capitals took seconds, 1 MB minutes.
 */

const isUpper = (c: number) => c >= 65 && c <= 90; // A-Z
const isLower = (c: number) => c >= 97 && c <= 122; // a-z
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * `parseHTTPRequest` → `parse HTTP Request`, `userId2Name` → `user Id2 Name`: a space before an
 * uppercase letter that follows a lowercase letter or a digit, and before the last capital of a
 * run of capitals that a lowercase letter follows (ASCII letters only, as before).
 */
export function camelSpaces(s: string): string {
  let out = '';
  let from = 0;
  const n = s.length;
  // pass 1 and pass 2 at once: the second pass saw the first one's output, where a space ends a run
  // of capitals; a capital preceded by [a-z\d] starts a new run after the inserted space
  let runStart = -1; // start of the current run of capitals in s (after pass 1's spaces)
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (isUpper(c)) {
      const prev = i > 0 ? s.charCodeAt(i - 1) : -1;
      if (i > 0 && (isLower(prev) || isDigit(prev))) {
        // pass 1: "aB" → "a B"
        out += s.slice(from, i) + ' ';
        from = i;
        runStart = i;
      } else if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0 && isLower(c) && i - runStart >= 2) {
      // pass 2: a run of 2+ capitals, then a lowercase letter: "HTTPRe" → "HTTP Re"
      out += s.slice(from, i - 1) + ' ';
      from = i - 1;
    }
    runStart = -1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * Normalisation for matching: NFKC (full-width ＡＢＣ１２３ and half-width ｶﾅ fold to their usual
 * forms), Latin case folded, every run of whitespace → one space, trimmed.
 */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

const NAN = /NaN(?![a-z])/g;

/** Splits identifiers and prose into lowercase words: `parseHTTPRequest_v2` → parse, http, request, v2. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!chunk) continue;
    // CJK runs have no spaces: keep the run and its character bigrams
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(chunk)) {
      out.push(chunk);
      for (let i = 0; i + 1 < chunk.length; i++) out.push(chunk.slice(i, i + 2));
      continue;
    }
    // NaN is one word (isNaN → is, nan; Rust's is_nan says the same), not Na + N
    const parts = camelSpaces(chunk.includes('NaN') ? chunk.replace(NAN, ' nan ') : chunk).split(' ');
    for (const p of parts) if (p) out.push(p.toLowerCase());
  }
  return out;
}

/**
 * A line longer than this is a bundle's or a minifier's (hundreds of declarations on one line):
 * what is read per declaration is read from its own column, never the whole line once per
 * declaration (that cost a minified 890 KB bundle, one 336,000-character line, 1.1 GB and 4 s).
 */
export const LONG_LINE = 5000;

/**
 * A number too short to name anything (0, 1, 42): not a word of a request or of code. 404, 500 and
 * 8080 are words, written the same in both (agent trial tr86: "404 のレスポンス" lost its 404, so every
 * `*Response` type matched the target as well as the error handler that answers 404).
 */
export const shortNumber = (w: string): boolean => w.length < 3 && /^\d+$/.test(w);
