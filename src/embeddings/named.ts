/**
 * The request names the symbol: its name (or Container.name) is an identifier written in the target.
 * Written as code — camelCase, PascalCase with more than one word, snake_case, `$`, digits, marked
 * with backticks or a call, or the qualified Container.name — it is the thing itself (FACT, 0.7); a
 * plain word that is the symbol's whole name (`Pinia` from "pinia"), or the holder a dotted name
 * goes through (`req` of `req.acceptsCharsets()`), is accepted with risk HIGH (0.45). Word overlap
 * inside longer names is the keyword coverage's business, not this.
 */
import { STOP_EN } from './text.js';

/** Words after a name that say it is code: "the levenshtein helper", "the merge function", "parse 関数". */
const CODE_NOUN = /^\s*(?:(?:helper|function|method|class|module|utility|util|hook|decorator|constructor|macro)s?(?![\p{L}\p{N}])|(?:関数|メソッド|クラス|ヘルパー|モジュール|函数|方法|类|模块))/u;

export function namedScore(target: string, name: string, container: string | null, stop: ReadonlySet<string> = STOP_EN): number {
  const lower = name.toLowerCase();
  let best = 0;
  for (const m of target.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const w = m[0];
    if (container && w === `${container}.${name}`) return 0.7;
    // marked as code by the writer: `name`, name(…)
    // (or by the kind of code it is: "the existing levenshtein helper" — agent trial tr139 had it rejected as a word)
    const marked = target[m.index! - 1] === '`' || target[m.index! + w.length] === '(' || target[m.index! + w.length] === '`' || CODE_NOUN.test(target.slice(m.index! + w.length));
    const parts = w.split('.');
    for (const [i, part] of parts.entries()) {
      if (part.toLowerCase() !== lower) continue;
      // a part before the last names what holds the thing (`req` of req.acceptsCharsets()), not the
      // thing: affected, risk HIGH (red team adv91 had the object `req` a FACT, and every method it holds linked in)
      if (i < parts.length - 1) {
        if (part.length >= 3 && !stop.has(lower)) best = Math.max(best, 0.45);
        continue;
      }
      const code = marked || /[a-z][A-Z]|[A-Z][a-z]+[A-Z]|_|\$|\d/.test(part);
      if (code && part === name) return 0.7;
      if (part.length >= 3 && !stop.has(lower)) best = Math.max(best, 0.45);
    }
  }
  return best;
}
