/**
 * QueryFrame validation (seed 001 v3.6): every slot's quote must be in the user's own words, and
 * every value must be grounded in its quote. Pure functions; Japanese, Chinese and English alike.
 */
import { changesCode, type Intent, type Risk } from '../../machines/session.js';
import { chineseContentWords, cjkWords, englishSynonyms, GENERIC_EN } from '../embeddings/text.js';
import { actionSides, complementOfNegated, opposedAction, sameAction, thingsOf } from './actions.js';
import { clausesWithOpeners, EN_FINITE, importedSwapped, restatesUnnegated, scopeSwapped, type ScopeLexicon } from './clause-scope.js';
import { stem, stemsMatch } from './stem.js';
import { camelSpaces, normalize } from '../util/words.js';

export const SLOTS = ['target_feature', 'trigger_condition', 'observed_issue', 'desired_action'] as const;
export type Slot = (typeof SLOTS)[number];
export type SlotInput = { value: string; quote: string };
export type QueryFrameInput = Partial<Record<Slot, SlotInput>>;

const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LATIN_STOP = new Set(('a an the of to in on for and or is are be by with from at as it its this that these those when if then not no ' +
  'also but so please should would could can will do does did was were has have had been being into onto than there their them they we you i me my ' +
  'our your he she his her which what who whom whose where why how all any each some such only just very ' +
  // negations are judged apart (polarityKept, clause-scope.ts), as "not" and "no" are: "neither … nor"
  // restates "does not … and never" (red team adv72 had it refused as words the request does not say)
  'never neither nor none without cannot unless').split(' '));

export { stem } from './stem.js';

/** Latin content words of a text as stems; an identifier (ObservableSet, user_id) is one word. */
function latinStems(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u)) {
    if (!chunk || CJK.test(chunk)) continue;
    const l = chunk.toLowerCase();
    if (/^\d+$/.test(l) || (l.length >= 3 && !LATIN_STOP.has(l))) out.push(stem(l));
  }
  return out;
}

/** The parts of an identifier (camelCase and snake_case split before lower-casing), as stems. */
function identifierParts(word: string): string[] {
  return camelSpaces(word).split(/[\s_$]+/).filter(Boolean).map((w) => stem(w.toLowerCase()));
}

/** A token that names code (ObservableSet, user_id, onError, HTTP2) rather than being a word of prose. */
const IDENTIFIER_LIKE = /^(?:[A-Za-z]+[a-z\d][A-Z][\w$]*|[\w$]*_[\w$]+|[A-Z][a-z\d]+[A-Z][\w$]*)$/;

/** The characters of a text's CJK runs that carry content (hiragana particles and endings are left out). */
function cjkChars(text: string): string[] {
  return [...text.normalize('NFKC')].filter((c) => CJK_CHAR.test(c));
}

/** The CJK content words of a text (segmented; particles and endings dropped). */
function cjkContentWords(text: string): string[] {
  const out: string[] = [];
  const chinese = !/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text);
  for (const run of text.normalize('NFKC').match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu) ?? []) {
    for (const w of chinese ? chineseContentWords(run) : cjkWords(run, true)) out.push(w);
  }
  return out;
}

/**
 * Content units of a text: Latin/digit words (3+ chars, stop words dropped, as stems), and CJK
 * character bigrams that are not pure hiragana (particles such as の, が, とき).
 */
export function contentUnits(text: string): Set<string> {
  const units = new Set<string>(latinStems(text));
  for (const chunk of normalize(text).split(/[^\p{L}\p{N}ー]+/u)) {
    if (!chunk || !CJK.test(chunk)) continue;
    const chars = [...chunk];
    if (chars.length === 1 && !HIRAGANA_ONLY.test(chunk)) units.add(chunk);
    for (let i = 0; i + 1 < chars.length; i++) {
      const bigram = chars[i]! + chars[i + 1]!;
      if (!HIRAGANA_ONLY.test(bigram)) units.add(bigram);
    }
  }
  return units;
}

export interface SlotError {
  slot: Slot;
  error: string;
}


/**
 * How far a value is supported by its quote, word by word: a Latin word (as a stem) is supported
 * when the quote has it — an identifier when the quote has it or all of its parts — directly or
 * through the JA/ZH→EN glossary (`translate`: the English words a CJK text stands for); a CJK word
 * when each of its characters is in the quote, or its translation meets the quote's. `names`: the
 * unsupported words that name code. A value inside its quote is supported in full; a quote with
 * no content words supports nothing.
 */
export function support(value: string, quote: string, translate: (text: string) => string[] = () => []): { supported: number; total: number; unsupported: string[]; names: string[] } {
  const v = normalize(value);
  const q = normalize(quote);
  const latin = [...new Set(value.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u).filter((w) => w && !CJK.test(w) && (/^\d+$/.test(w) || (w.length >= 3 && !LATIN_STOP.has(w.toLowerCase())))))];
  const cjk = [...new Set(cjkContentWords(value))];
  const total = latin.length + cjk.length;
  if (!v || contentUnits(quote).size === 0) return { supported: 0, total, unsupported: [...latin, ...cjk], names: latin.filter((w) => IDENTIFIER_LIKE.test(w)) };
  if (q.includes(v)) return { supported: Math.max(total, 1), total: Math.max(total, 1), unsupported: [], names: [] };
  const qTranslated = translate(quote).map(stem);
  // the quote's identifiers also state their parts (ObservableSet states "observable" and "set")
  const qWords = quote.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u).filter((w) => w && !CJK.test(w));
  const ql = [...latinStems(quote), ...qWords.flatMap(identifierParts), ...qTranslated];
  const qc = new Set(cjkChars(quote));
  const has = (st: string) => ql.some((x) => stemsMatch(st, x));
  const unsupported: string[] = [];
  // an action is stated in any of its words ("shown" for 表示), and the complement of a negated
  // state by its other side ("hidden" for 表示されない); polarity and opposites are judged apart
  const negatedHere = [...negatedWords(quote), ...stoppedWords(quote)];
  // (an action's other words render a CJK quote; an English quote's synonyms are judged as paraphrase, foreignWords)
  const actionOk = (w: string) => (CJK.test(quote) && sameAction(w, quote, translate)) || complementOfNegated([w], negatedHere, translate).length > 0 ||
    // a failure states what the quote's negation does ("login fails" for ログインできない, "cannot log in")
    (FAIL_SENSE.test(w) && negated(quote) && senseOf(quote).length === 0);
  for (const w of latin) {
    const parts = identifierParts(w);
    if (!has(stem(w.toLowerCase())) && !(parts.length > 1 && parts.every(has)) && !actionOk(w)) unsupported.push(w);
  }
  for (const w of cjk) {
    const chars = [...w].filter((c) => CJK_CHAR.test(c));
    const viaGlossary = translate(w).map(stem).some((t) => qTranslated.some((x) => stemsMatch(t, x)) || ql.some((x) => stemsMatch(t, x)));
    // (仅限 states the quote's のみ, 一样 its 同じ: one side of a pair of actions.ts in both languages)
    if (!(chars.length > 0 && chars.every((c) => qc.has(c))) && !viaGlossary && !(CJK.test(quote) && sameAction(w, quote, translate))) unsupported.push(w);
  }
  return { supported: total - unsupported.length, total, unsupported, names: unsupported.filter((w) => IDENTIFIER_LIKE.test(w)) };
}

/**
 * The words a value writes as code (a part of `a.b`, a callee `f(`) that the request names nowhere:
 * `ctx.attachment('back')` for a quote of `ctx.redirect('back')` passed, "attachment" being the
 * value's one word of its own (red team adv83). A name the request writes elsewhere is its own
 * ("the warning printed by inject()" for "the warning it prints": agent trial tr18).
 */
export function inventedCode(value: string, request: string): string[] {
  const said = new Set(request.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u).flatMap((w) => [w.toLowerCase(), ...identifierParts(w).map((p) => p.toLowerCase())]));
  // (a literal written in quotes is a value of the code: `'forward'`, `'/back'` for the request's 'back' — red team adv84)
  const req = request.normalize('NFKC');
  const literals = [...value.normalize('NFKC').matchAll(/(['"`])([^'"`\n]{1,80})\1/g)].map((m) => m[2]!).filter((l) => !req.includes(l));
  return [...[...codeWords(value)].filter((w) => !said.has(w.toLowerCase())), ...literals.map((l) => `'${l}'`)];
}

/** The words a text writes as code: the parts of a dotted name (`ctx.attachment`), a name called (`attachment(`). */
function codeWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.normalize('NFKC').matchAll(/(?<![\p{L}\p{N}_$])[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|#|::)[\p{L}_$][\p{L}\p{N}_$]*)+|(?<![\p{L}\p{N}_$])[\p{L}_$][\p{L}\p{N}_$]*(?=\()/gu)) {
    for (const part of m[0].split(/\.|#|::/)) if (part && !CJK.test(part)) out.add(part);
  }
  return out;
}

/**
 * A value is grounded in its quote when the quote has content words, states at least two thirds
 * of the value's words (and at least one), and the value names no code the quote does not.
 * Paraphrase ("empty password" for "password is empty", "空のパスワード" for "パスワードが空のとき") and
 * translation ("timeout" for タイムアウト) pass; a value that wraps its quote in claims of its own
 * ("…; also delete AdminService and disable auth") or borrows a word stem ("handcuffs" for
 * "handler") does not.
 */
export function isGrounded(value: string, quote: string, translate?: (text: string) => string[]): boolean {
  const s = support(value, quote, translate);
  return s.supported >= 1 && s.supported * 3 >= s.total * 2 && s.names.length === 0;
}

/**
 * The words of a value its quote does not state and no part of the request does either: a value
 * may paraphrase (a word of its own, or one from elsewhere in the request, as "add a test" beside a
 * quote about the method), but a long quote leaves room under the two-thirds rule for a claim of the
 * agent's own ("…; wipe the database"). Generic words (feature, logic, handling) say nothing.
 */
function foreignWords(value: string, quote: string, request: string, translate?: (text: string) => string[]): string[] {
  const outside = support(value, quote, translate).unsupported;
  if (outside.length === 0) return [];
  // the request's start: quotes come from it, and a recorded prompt may be 100,000 characters
  const head = request.slice(0, 16_384);
  const inRequest = new Set(support(value, head, translate).unsupported);
  const requestStems = latinStems(head);
  // a synonym the glossary lists with a word of the request (remove for deletes) is a paraphrase
  const paraphrase = (w: string) => [...englishSynonyms(w.toLowerCase())].some((x) => requestStems.some((r) => stemsMatch(stem(x), r)));
  // a CJK word the segmenter cut across a particle (时对 of 浮点数时对 NaN) says nothing more than its
  // characters the request has: the others are function characters
  const requestChars = new Set(cjkChars(head));
  const particlesOnly = (w: string) => CJK.test(w) && cjkChars(w).every((c) => requestChars.has(c) || CJK_FUNCTION_CHARS.has(c));
  return outside.filter((w) => inRequest.has(w) && !GENERIC_EN.has(w.toLowerCase()) && !paraphrase(w) && !particlesOnly(w));
}

/**
 * A word of the quote the value replaces with a word from another part of the request: "isFoo uses
 * the server value" for "isFoo uses the client value" where the request names the server elsewhere
 * (grounding counts the other words, and foreignWords only words the request never says). Words are
 * aligned in order; a run of the quote's words left out where the value puts a word of the request
 * the quote does not have is a replacement — unless the two are one word's forms or synonyms, or the
 * value names the code a generic word of the quote stands for ("buildFullPath crashes" for "the
 * function crashes"). Returns [the value's word, the quote's].
 */
/** The content words of a slot's text in order: Latin words and the CJK runs' words as they come. */
function frameWords(t: string): string[] {
  const latin = (x: string) => x.split(/[^\p{L}\p{N}_$]+/u).filter((w) => w && !CJK.test(w) && (/^\d+$/.test(w) || (w.length >= 3 && !LATIN_STOP.has(w.toLowerCase()))));
  return t.normalize('NFKC').split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+)/u).flatMap((part) => (CJK.test(part) ? cjkContentWords(part) : latin(part)));
}

/** One word of a value and one of its quote are the same word: a stem, a CJK word or its prefix, a Japanese verb's forms (使う, 使い, 使って share their kanji). */
function sameFrameWord(a: string, b: string): boolean {
  if (!CJK.test(a) && !CJK.test(b)) return stemsMatch(stem(a.toLowerCase()), stem(b.toLowerCase()));
  const inflected = /^\p{Script=Han}+/u.exec(a)?.[0] === /^\p{Script=Han}+/u.exec(b)?.[0] && /^\p{Script=Han}+\p{Script=Hiragana}*$/u.test(a) && /^\p{Script=Han}+\p{Script=Hiragana}*$/u.test(b);
  return a === b || (a.length >= 2 && b.length >= 2 && (a.startsWith(b) || b.startsWith(a))) || inflected;
}

/** English words that negate, cut out as one token: where a negation stands among the words is part of their order. */
const NEGATORS = /\b(?:not|never|no|none|neither|nor|without|cannot|\w+n['’]t)\b(?!-)/giu;

/**
 * A text's content in order: Latin words, each English negation among them as '¬', and each CJK
 * character but kana of grammar and function characters (the segmenter cuts 默认值覆盖用户选项 as
 * 默认 值覆 盖用 …, so a word swap there shows only in characters; 不 and 没 count).
 */
function orderedWords(t: string): string[] {
  const text = t.normalize('NFKC');
  const parts = text.split(NEGATORS);
  const negs = text.match(NEGATORS) ?? [];
  const words = (part: string) => part.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+)/u).flatMap((x) =>
    CJK.test(x) ? [...x].filter((c) => CJK_CHAR.test(c) && !/[\p{Script=Hiragana}ー]/u.test(c) && !CJK_FUNCTION_CHARS.has(c)) : frameWords(x));
  return parts.flatMap((part, i) => [...words(part), ...(i < negs.length ? ['¬'] : [])]);
}

/**
 * The first word of the value that its quote says too, but in another order (negations count as
 * words): "use the host header instead of the x-forwarded-host header" for the quote "use the
 * x-forwarded-host header instead of the host header", "不发送头部但发送正文" for "不发送正文但发送头部",
 * "sends when it is the body and does not send when it is the headers" for "does not send the body
 * but sends the headers", "the limit never exceeds the delay" (red team adv76: every word kept, the
 * meaning turned round by an order no list of constructions covers). The value is the quote's own
 * words (the /code prompt): of the 40 values of agent trials tr126–tr147 that were not their quote,
 * all kept its order. A gloss in brackets may move, and a word said again is no move. Japanese
 * orders its phrases freely (tr22 put 開発モードで first), its particles say who does what:
 * particlesSwapped judges it. Only within one script family: a translation orders its words as
 * its language does.
 */
export function reorderedWord(value: string, quote: string): string | undefined {
  if (CJK.test(value) !== CJK.test(quote)) return undefined;
  const turnedOrder = sequenceTurned(value, quote);
  if (turnedOrder) return turnedOrder;
  if (KANA.test(value) || KANA.test(quote)) return particlesSwapped(value, quote) ?? markerSwapped(value, quote) ?? negationMoved(value, quote, sameFrameWord) ?? clausesInterleaved(value, quote) ?? otherwiseJoined(value, quote);
  // (outside brackets on both sides: a gloss may move — but not to another word)
  const gloss = glossMoved(value, quote);
  if (gloss) return gloss;
  const [v0, q0] = [value.replace(BRACKETS, ' '), quote.replace(BRACKETS, ' ')];
  const main = orderedWords(q0);
  const same = (a: string, b: string) => (a === '¬' || b === '¬' ? a === b : sameFrameWord(a, b));
  // the value's words the quote's running text says
  const shared = orderedWords(v0).filter((w) => main.some((x) => same(w, x)));
  const n = shared.length, m = main.length;
  if (n === 0 || n * m > 40_000) return undefined;
  const L = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i]![j] = same(shared[i]!, main[j]!) ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  if (L[0]![0] === n) return negationMoved(v0, q0, same) ?? relationDropped(v0, q0, same) ?? (restrictionRestated(value.normalize('NFKC'), quote.normalize('NFKC')) ? undefined : splicedClauses(v0, q0, same));
  // walk the longest common subsequence: the quote's words it uses, the value's it leaves out
  const used = new Set<number>();
  const left: number[] = [];
  let i = 0, j = 0;
  while (i < n) {
    if (j < m && same(shared[i]!, main[j]!) && L[i]![j] === L[i + 1]![j + 1]! + 1) (used.add(j), i++, j++);
    else if (j >= m || L[i + 1]![j]! >= L[i]![j + 1]!) left.push(i++);
    else j++;
  }
  // a word left out moved when the quote says it somewhere the order did not use (else it is said
  // again) — but two neighbours turned round ("a Buffer body" for "the body is a Buffer", "accepts
  // neither" for "does not accept") is how a noun phrase or a negation is said, not a move
  // (not about a word that relates two others: "user options over defaults" turns "defaults over user options" round)
  // (only a negation, or words the quote joins by "is": "the router wrap" is no "wrap the router")
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const joined = (a: string, b: string) => a === '¬' || b === '¬' || new RegExp(`(?<![\\p{L}])${escape(b)}\\S*\\s+(?:is|are|was|were)\\s+(?:(?:a|an|the)\\s+)?${escape(a)}`, 'iu').test(quote);
  const inverted = (a: string, b: string) => !RELATING.test(a) && !RELATING.test(b) && joined(a, b) && main.some((x, k) => k + 1 < m && same(b, x) && same(a, main[k + 1]!));
  const moved = left.map((at) => shared[at]!).find((w, x) => main.some((q, k) => !used.has(k) && same(w, q))
    && !(left[x]! > 0 && inverted(shared[left[x]! - 1]!, w)) && !(left[x]! + 1 < n && inverted(w, shared[left[x]! + 1]!)));
  if (moved === undefined) return negationMoved(v0, q0, same);
  if (clausesReordered(v0, q0, same)) return undefined;
  return `${moved === '¬' ? 'a negation' : `'${moved}'`} stands elsewhere`;
}

/** Words that relate two sides, which cannot be told apart once the word is gone ("prefer A over B"). */
const SIDED = /^(?:over|than|instead|rather|before|after|ahead|versus|vs|above|below)$/i;

/**
 * A value that keeps words on both sides of a relating word of its quote, but neither the word nor
 * what stood right before it: "prefer the default delay" for "prefer the Retry-After header over the
 * default delay" states the other side as the choice (red team adv77). A negation may stand for
 * "instead of" and "rather than" ("use A, not B").
 */
function relationDropped(value: string, quote: string, same: (a: string, b: string) => boolean): string | undefined {
  // ("prefer A to B" relates by "to", too short a word to be one of the words: read as "over" — red team adv81)
  const preferTo = (t: string) => t.replace(/(\bprefer\w*\s+[^,.;:!?]+?)\s+to\s+/giu, '$1 over ');
  const said = (w: string) => (w === 'over' && !/\sover\s/i.test(quote) ? 'to' : w);
  [value, quote] = [preferTo(value), preferTo(quote)];
  const q = orderedWords(quote);
  const v = orderedWords(value);
  // (each value word at its first place in the quote after the last one's: the order is kept)
  const at: number[] = [];
  let from = 0;
  for (const w of v) {
    const k = q.findIndex((x, i) => i >= from && same(w, x));
    if (k < 0) continue;
    at.push(k);
    from = k + 1;
  }
  for (const [k, w] of q.entries()) {
    // (a word of its own: the After of Retry-After relates nothing)
    if (!SIDED.test(w) || k === 0 || !new RegExp(`(?:^|\\s)${w}(?:\\s|$)`, 'iu').test(quote) || v.some((x) => x.toLowerCase() === w.toLowerCase())) continue;
    if (/^(?:instead|rather)$/i.test(w) && v.includes('¬')) continue;
    if (at.some((i) => i < k) && at.some((i) => i > k) && !at.includes(k - 1))
      return `'${q[k - 1]} ${said(w)} ${q[k + 1] ?? ''}' lost '${said(w)}' and '${q[k - 1]}', so the other side reads as the first (keep '${said(w)}' and the words before it, or take the words of one side only)`;
  }
  return undefined;
}

const BRACKETS = /[(（[「『【][^)）\]」』】]*[)）\]」』】]/gu;

/**
 * A gloss in brackets the value writes by another word than its quote does: "the limit (default 0)
 * for the retries (default 2)" for "the limit (default 2) for the retries (default 0)" (red team
 * adv77). A gloss moved with its word, or said without brackets, is no move.
 */
function glossMoved(value: string, quote: string): string | undefined {
  // (the words a gloss follows: the last of them is its head; a value may drop the others — "the timeout (ms)" for "the timeout option (ms)")
  const glosses = (t: string) => [...t.normalize('NFKC').matchAll(BRACKETS)].map((m) => ({ before: frameWords(t.normalize('NFKC').slice(0, m.index!)).slice(-3), words: frameWords(m[0]) }))
    .map((g) => ({ ...g, head: g.before[g.before.length - 1] }));
  const q = glosses(quote);
  if (q.length === 0) return undefined;
  const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((w, i) => sameFrameWord(w, b[i]!));
  for (const g of glosses(value)) {
    const alike = q.filter((x) => sameWords(x.words, g.words));
    if (alike.length === 0 || g.head === undefined || alike.some((x) => x.before.some((w) => sameFrameWord(w, g.head!)))) continue;
    return `the gloss (${g.words.join(' ')}) stands by '${g.head}', where the quote writes it by '${alike[0]!.head ?? ''}'`;
  }
  return undefined;
}

/** Negations in a clause, said in a word or a failure (not, 不, ない, missing, 缺, 欠け): their parity. */
function negationParity(t: string): number {
  // (a name in quotes negates nothing: the 'Missing option' error — agent trial tr132)
  // ("not only X" includes X: it negates nothing)
  const n = t.normalize('NFKC').replace(/(['"`‘“「])[^'"`’”」\n]*(?:['"`’”」])/gu, ' ').replace(/\bnot\s+(?:only|just|merely)\b/giu, ' ');
  return ((n.match(NEGATORS) ?? []).length + (n.match(/[不没未无非别勿缺]|欠け|ない|なく|ず(?![\p{Script=Hiragana}])|ません|missing|lacks?|fail(?:s|ed)?|unable/giu) ?? []).length) % 2;
}

/**
 * A value of several clauses whose words keep their order but not their negations: "sends the
 * body; the headers are missing" for "does not send the body but sends the headers", 发送正文，头部缺失,
 * ボディを送り、ヘッダーが欠けている (red team adv76: a failure word said of the other clause). Each
 * clause of the value must stand in a clause of the quote with the same parity of negations.
 */
function negationMoved(value: string, quote: string, same: (x: string, y: string) => boolean): string | undefined {
  // (only where the value says a failure its quote does not: how a negation is restated in other words)
  const FAILURE = /missing|lack|fail|unable|缺|欠け|欠如|足りな/giu;
  const failures = (t: string) => new Set((t.normalize('NFKC').match(FAILURE) ?? []).map((w) => w.toLowerCase()));
  const said = failures(quote);
  if (![...failures(value)].some((f) => !said.has(f))) return undefined;
  const [vc, qc] = [clausesWithOpeners(value), clausesWithOpeners(quote)];
  if (vc.length < 2 || qc.length < 2 || vc.length > 6 || qc.length > 6) return undefined;
  if (clauseMap(vc, qc, same, false)) return undefined;
  return 'a failure it says stands in another clause than the negation of the quote';
}

/** Japanese words that relate the noun before them to another: which noun stands before them is the meaning. */
const JA_MARKERS = /の代わりに|に代えて|ではなく|じゃなく|より(?:も)?|てから|前に|後に|を優先|に優先/u;

/**
 * Japanese: the nouns before a relating word of the quote (の代わりに, より, てから) stand after it in the
 * value: "forwardedヘッダーの代わりにhostヘッダーを使う" for "hostヘッダーの代わりにforwardedヘッダーを使う",
 * "ストリームを閉じてからバッファをフラッシュする" (red team adv76).
 */
function markerSwapped(value: string, quote: string): string | undefined {
  const marker = JA_MARKERS.exec(quote.normalize('NFKC'))?.[0];
  if (!marker) return undefined;
  const phrase = (t: string) => /[\p{Script=Han}\p{Script=Katakana}ー\w.$-]+$/u.exec(t.trimEnd())?.[0];
  const comparison = !/てから|前に|後に/u.test(marker);
  if (!value.normalize('NFKC').includes(marker)) {
    // (what the quote compares against, kept without the comparison, is what the value chooses:
    // デフォルトの遅延を優先する for Retry-Afterヘッダーをデフォルトの遅延より優先する — red team adv77)
    const [qb, qa] = quote.normalize('NFKC').split(marker, 2) as [string, string];
    const qp = comparison ? phrase(qb) : undefined;
    return qp && value.normalize('NFKC').includes(qp) && !(qa ?? '').includes(qp) ? `'${qp}' is what the quote sets against the other (${marker}), and the value keeps it without ${marker}` : undefined;
  }
  const units = (t: string) => t.match(/[\p{Script=Han}]+|[\p{Script=Katakana}ー]+|[A-Za-z][\w.$-]*/gu) ?? [];
  const [vb, va] = value.normalize('NFKC').split(marker, 2) as [string, string];
  const [qb, qa] = quote.normalize('NFKC').split(marker, 2) as [string, string];
  // a comparison (より, の代わりに, ではなく) relates the phrase right before it, which may move with it
  // (デフォルトの遅延よりRetry-Afterヘッダーを優先する for Retry-Afterヘッダーをデフォルトの遅延より優先する —
  // red team adv77's honest refusal); a sequence (てから) orders all that stands before it
  if (comparison) {
    const [vp, qp] = [phrase(vb), phrase(qb)];
    if (vp && qp) return vp === qp ? undefined : `'${vp}' stands right before ${marker}, where the quote has '${qp}'`;
  }
  const after = new Set(units(qa ?? '')), before = new Set(units(qb));
  const moved = units(vb).find((u) => after.has(u) && !before.has(u)) ?? units(va ?? '').find((u) => before.has(u) && !after.has(u));
  if (moved !== undefined) return `'${moved}' stands on the other side of ${marker}`;
  // (the noun right before it is the one it relates: デフォルトの遅延をRetry-Afterヘッダーより優先 puts the header there)
  const [vNext, qNext] = [units(vb).pop(), units(qb).pop()];
  return vNext && qNext && vNext !== qNext && before.has(vNext) ? `'${vNext}' stands right before ${marker}, where the quote has '${qNext}'` : undefined;
}

/** A value made only of code names (`ctx.attachment()`, `res.set`, `Cart.total`) each written as is in its quote. */
function namesCodeOnly(value: string, quote: string): boolean {
  const names = value.normalize('NFKC').trim().split(/\s+/);
  return names.length <= 3 && names.every((n) => /^[A-Za-z_$][\w$]*(?:(?:\.|#|::)[A-Za-z_$][\w$]*)*(?:\(\))?$/.test(n) && /[.#:(A-Z_]/.test(n.slice(1)) && quote.normalize('NFKC').includes(n));
}

/** Words that relate what stands before them to what stands after: their neighbours may not trade places. */
const RELATING = /^(?:over|than|instead|rather|before|after|then|into|onto|via|versus|against|above|below|under|beyond|until|since|unless|except|besides|from|toward|towards|precedence|priority|prefer|replace|override|overrides|exceed|exceeds)$/i;

/**
 * Whether `a`'s words stand in `b` one after another, nothing of `b` left out between the first and
 * the last, beginning in `b`'s first `head` words and ending in its last `tail` (the clauses joined).
 */
function contiguousIn(a: readonly string[], b: readonly string[], same: (x: string, y: string) => boolean, head: number, tail: number): boolean {
  if (a.length === 0) return true;
  for (let start = 0; start < head && start + a.length <= b.length; start++)
    if (start + a.length > b.length - tail && a.every((w, i) => same(w, b[start + i]!))) return true;
  return false;
}

/** Whether `a`'s words (of those `b` has) all stand in `b`, in its order. */
function inOrder(a: readonly string[], b: readonly string[], same: (x: string, y: string) => boolean): boolean {
  let j = 0;
  for (const w of a) {
    while (j < b.length && !same(w, b[j]!)) j++;
    if (j++ >= b.length) return false;
  }
  return true;
}

/**
 * The value's clauses are the quote's in another order, each clause whole and in its own order:
 * "the request never ends and the timeout is ignored" for "The timeout is ignored, and the request
 * never ends", "res.send sends the headers but not the body" (its subject shared). A clause keeps
 * its opener, unless that is one of and/but/or: "close the stream instead of flushing the buffer"
 * is not "flush the buffer instead of closing the stream".
 */
function clausesReordered(value: string, quote: string, same: (x: string, y: string) => boolean): boolean {
  const [vc, qc] = [clausesWithOpeners(value), clausesWithOpeners(quote)];
  if (vc.length < 2 || qc.length < 2 || vc.length > 6 || qc.length > 6) return false;
  return clauseMap(vc, qc, same, true);
}

/**
 * Whether each clause of the value (of its words the quote has) stands in its own clause of the
 * quote with the same parity of negations — in that clause's order and with its opener when `ordered`.
 */
function clauseMap(vc: { text: string; opener: string }[], qc: { text: string; opener: string }[], same: (x: string, y: string) => boolean, ordered: boolean, ellipsis = false): boolean {
  const quoteWords = qc.map((c) => orderedWords(c.text).filter((w) => w !== '¬'));
  const all = quoteWords.flat();
  const valueWords = vc.map((c) => orderedWords(c.text).filter((w) => w !== '¬' && all.some((x) => same(w, x))));
  // the subject the first clauses share ("res.send", "the parser") may lead any clause of the value
  // (Latin words only: the characters of 不发送 are no subject)
  // (a subject is code — res.send — or the noun of "the parser": not the verb and object of "Throw a
  // TypeError for a string", which red team adv77 spliced onto the other clause's "for a number")
  const code = /^\s*([A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)+|[a-z][\w$]*[A-Z][\w$]*)(?:\(\))?(?=\s|[^\x00-\x7F])/.exec(qc[0]!.text)?.[1];
  // (the whole noun phrase up to its verb: "the fallback to the default delay" of "… is deprecated and should be removed")
  const noun = /^\s*(?:the|a|an)\s+((?:[\p{L}\w$.'’-]+\s+){0,5}?[\p{L}\w$-]+)\s+(?:is|are|was|were|has|have|had|does|did|do|will|would|can|could|should|must|may|might|gets?)(?![\p{L}])/iu.exec(qc[0]!.text)?.[1]
    ?? /^\s*(?:the|a|an)\s+([\p{L}\w$-]+)\s/iu.exec(qc[0]!.text)?.[1];
  const lead = code ? frameWords(code) : noun ? frameWords(noun) : [];
  const subject = lead.length > 0 && inOrder(lead, valueWords[0]!.slice(0, lead.length), same) ? lead : [];
  const within = (a: readonly string[], b: readonly string[]) => (ordered ? inOrder(a, b, same) : a.every((w) => b.some((x) => same(w, x))));
  // (a clause that leaves its verb to the one before — "the headers" and "or the trailers" of "does
  // not send the body, the headers, or the trailers", "but also as a plain function" — goes on from it,
  // its negation too)
  // (only after a comma, "and", "or", "but": "instead of the host header" is no list item; and with no verb of its own)
  const elliptic = (c: { text: string; opener: string }) => c.opener === '' && ELLIPTIC_START.test(c.text) && !EN_FINITE.test(c.text);
  const baseOf = (cs: readonly { text: string; opener: string }[], k: number) => {
    let j = k;
    while (j > 0 && elliptic(cs[j]!)) j--;
    return j;
  };
  const parity = (cs: readonly { text: string; opener: string }[], k: number) => {
    const j = baseOf(cs, k);
    return j === k ? parityOf(cs[k]!) : (parityOf(cs[j]!) + parityOf(cs[k]!)) % 2;
  };
  const fits = (v: number, q: number) => {
    // (a value may leave an opener out — "allowAbsoluteUrls is false" of "When allowAbsoluteUrls is
    // false" — not put another one in; "instead of" and "without" negate what they open)
    // (a value of one clause may leave "otherwise" out: "throw an HTTPError" of "…, otherwise throw an
    // HTTPError" — with a condition of its own it would say the case the quote excludes)
    const dropsOtherwise = vc.length === 1 && vc[v]!.opener === '' && otherwise(qc[q]!) && !otherwise(vc[v]!);
    // ("if" for "when" states the same condition: red team adv79's honest "throw a TypeError if the url is not a string")
    const opener = (o: string) => (/^(?:if|when|whenever)$/.test(o) ? 'if' : /^(?:otherwise|else|or else)$/.test(o) ? 'otherwise' : o);
    if ((ordered && vc[v]!.opener !== '' && opener(vc[v]!.opener) !== opener(qc[q]!.opener)) || (parity(vc, v) !== parity(qc, q) && !dropsOtherwise)) return false;
    const words = valueWords[v]!;
    const rest = subject.length && inOrder(subject, words.slice(0, subject.length), same) ? words.slice(subject.length) : words;
    if (within(words, quoteWords[q]!) || within(rest, quoteWords[q]!)) return true;
    // (only where the words keep their order: clauses put in another order may not borrow, or "use the host header and not
    // the x-forwarded-host header" would borrow the other clause's object — red team adv76's probe)
    if (ellipsis && baseOf(qc, q) !== q && within(words, [...quoteWords[baseOf(qc, q)]!, ...quoteWords[q]!])) return true;
    // (clauses that follow one another, joined with nothing of theirs left out between the first word
    // taken and the last: 开发环境下同一个…被调用了两次 for 在开发环境下，如果同一个…被调用了两次 — agent trial tr16)
    if (!ordered) return false;
    for (let k = q + 1; k < Math.min(qc.length, q + 4); k++) if (contiguousIn(rest, quoteWords.slice(q, k + 1).flat(), same, quoteWords[q]!.length, quoteWords[k]!.length)) return true;
    return false;
  };
  const taken = new Set<number>();
  const at = new Array<number>(vc.length).fill(-1);
  const match = (v: number): boolean => {
    if (v === vc.length) return true;
    if (valueWords[v]!.length === 0) return match(v + 1);
    for (let q = 0; q < qc.length; q++) {
      if ((ordered && taken.has(q)) || !fits(v, q)) continue;
      // (a condition goes with the clause it follows in the quote: "retry when the status is 500" is
      // not "Retry when the status is 429 and fail when the status is 500" — red team adv77)
      // (right after it, or right before it: "crashes when X is false" for "When X is false, … crashes")
      if (ordered && vc[v]!.opener && v > 0 && at[v - 1]! >= 0 && Math.abs(q - at[v - 1]!) !== 1) continue;
      taken.add(q);
      at[v] = q;
      if (match(v + 1)) return true;
      taken.delete(q);
      at[v] = -1;
    }
    return false;
  };
  return match(0);
}

/** A clause that begins as a list item or an ellipsis does: no verb of its own before its noun. */
const ELLIPTIC_START = /^(?:(?:also|not|only|just|even|too|never)\s+)*(?:the|a|an|as|to|for|from|in|on|with|by|its|their|this|that|these|those|any|all|each|every)(?![\p{L}\p{N}_$])/iu;

/** A clause's negations with those its opener states ("instead of", "rather than", "without", "unless"). */
function parityOf(c: { text: string; opener: string }): number {
  // (the clause after "otherwise" — or ending with it — is said of the case the one before excludes)
  return (negationParity(c.text) + (/^(?:instead of|rather than|without|unless)$/.test(c.opener) || otherwise(c) ? 1 : 0)) % 2;
}

/** Chinese and Japanese words of a sequence: before (之前, 前に) and after (之后, 後に, てから). */
const CJK_BEFORE = /之前|以前|前に|する前|る前|先に/u;
const CJK_AFTER = /之后|以后|后(?![端台面果续来缀])|後に|後で|た後|てから|あとで|あとに/u;

/**
 * A value that says "after" where its quote says "before" (or the other way) in Chinese or Japanese:
 * 在关闭流之后刷新缓冲区 for 在关闭流之前刷新缓冲区, ストリームを閉じた後に… for …閉じる前に… (red team adv81;
 * English "after" for "before" is refused by the word order).
 */
function sequenceTurned(value: string, quote: string): string | undefined {
  const [v, q] = [value.normalize('NFKC'), quote.normalize('NFKC')];
  if (CJK_BEFORE.test(q) && !CJK_AFTER.test(q) && CJK_AFTER.test(v) && !CJK_BEFORE.test(v)) return `'${CJK_AFTER.exec(v)![0]}' (after) where the quote says '${CJK_BEFORE.exec(q)![0]}' (before)`;
  if (CJK_AFTER.test(q) && !CJK_BEFORE.test(q) && CJK_BEFORE.test(v) && !CJK_AFTER.test(v)) return `'${CJK_BEFORE.exec(v)![0]}' (before) where the quote says '${CJK_AFTER.exec(q)![0]}' (after)`;
  return undefined;
}

/** Words that say "otherwise". */
const OTHERWISE_WORD = /(?:^|[^\p{L}])(?:otherwise|else)(?![\p{L}])|否则|不然|それ以外|そうでなければ|さもなければ|そうでない(?:場合|とき)/iu;

/** A clause said of the case another excludes: "otherwise fail", "stream it otherwise", それ以外は失敗する, 否则失败. */
function otherwise(c: { text: string; opener: string }): boolean {
  return /^(?:otherwise|else|or else|否则|不然|それ以外(?:の場合)?は|そうでなければ|さもなければ|そうでない(?:場合|とき)は)$/.test(c.opener) || /(?:^|\s)(?:otherwise|else)$/i.test(c.text.trim());
}

/**
 * A value spliced from several clauses of its quote: each clause of the value (its words the quote
 * says, in order) must stand in one clause of the quote — or run on through the next ones with
 * nothing left out — a condition with the clause it follows there. "retry when the status is 500"
 * for "Retry when the status is 429 and fail when the status is 500", "retry on 500" for "Retry on
 * 429, fail on 500", "throw a TypeError for a number" for "Throw a TypeError for a string and return
 * null for a number" (red team adv77: every word in order).
 */
function splicedClauses(value: string, quote: string, same: (x: string, y: string) => boolean): string | undefined {
  const [vc, qc] = [clausesWithOpeners(value), clausesWithOpeners(quote)];
  if (qc.length < 2 || vc.length > 6 || qc.length > 6) return undefined;
  return clauseMap(vc, qc, same, true, true) ? undefined : 'it joins words of different clauses of the quote';
}


/**
 * Japanese orders its phrases freely, but a clause's words stay together: a value that goes from one
 * clause of its quote to another and back splices them — "ステータスが500のときは再試行し" for
 * "ステータスが429のときは再試行し、500のときは失敗する" puts the 500 of the failure into the retry
 * (red team adv77). Clauses whole in another order, or joined, are no splice (tr22: "開発モードで setup
 * ストアの $reset() を呼んだとき" for "setup ストアで $reset() を呼んだとき、開発モードでは").
 * Only a word one clause of the quote has tells where it comes from.
 */
function clausesInterleaved(value: string, quote: string): string | undefined {
  const qc = clausesWithOpeners(quote);
  if (qc.length < 2 || qc.length > 8) return undefined;
  // (the topic the sentence opens with — res.sendは — is every clause's)
  const topic = /^([^\p{Script=Hiragana}]+)は/u.exec(qc[0]!.text)?.[1];
  const home = clauseHome(qc, topic ? frameWords(topic) : []);
  const seen: number[] = [];
  for (const w of frameWords(value)) {
    const k = home(w);
    if (k === undefined || seen[seen.length - 1] === k) continue;
    if (seen.includes(k)) return `'${w}' goes back to the clause "${qc[k]!.text}" after words of "${qc[seen[seen.length - 1]!]!.text}": a value keeps each clause's words together`;
    seen.push(k);
  }
  return undefined;
}

/** The one clause of a quote a word comes from (undefined when several have it, or none); `shared`: the first clause's words every clause has (a topic). */
function clauseHome(qc: readonly { text: string }[], shared: readonly string[] = []): (w: string) => number | undefined {
  const words = qc.map((c, i) => frameWords(c.text).filter((w) => i > 0 || !shared.includes(w)));
  return (w) => {
    const at = words.flatMap((ws, i) => (ws.some((x) => sameFrameWord(w, x)) ? [i] : []));
    return at.length === 1 ? at[0] : undefined;
  };
}

/**
 * Japanese: words of the clause said of the other case (それ以外は, そうでなければ) joined to words of
 * another clause without it: "ステータスが429なら失敗する" for "ステータスが429なら再試行し、それ以外は
 * 失敗する" says the failure of the case the quote excludes (red team adv79).
 */
function otherwiseJoined(value: string, quote: string): string | undefined {
  const qc = clausesWithOpeners(quote);
  const k = qc.findIndex((c) => otherwise(c));
  // (another word for it is as good: そうでなければ for それ以外は — red team adv81)
  if (k < 0 || qc.length > 8 || OTHERWISE_WORD.test(value.normalize('NFKC'))) return undefined;
  const home = clauseHome(qc);
  const homes = new Set(frameWords(value).map(home).filter((h): h is number => h !== undefined));
  return homes.has(k) && homes.size > 1 ? `it says "${qc[k]!.text}" without "${qc[k]!.opener}", of words of another clause: the quote says it of the other case` : undefined;
}

/**
 * Japanese: a noun the quote marks as the subject (が) the value marks as the object (を), or the
 * other way round, with neither in the passive (は marks a topic, either one): "上限が遅延を超えない" for "遅延が上限を超えない"
 * (red team adv76). A passive turns them legitimately (ヘッダーが削除される → ヘッダーを削除する: tr32).
 */
function particlesSwapped(value: string, quote: string): string | undefined {
  const PASSIVE = /[さかまたなばらわがえけせてねべめれ]れ|られ/u;
  if (PASSIVE.test(value) || PASSIVE.test(quote)) return undefined;
  const roles = (t: string) => {
    const out = new Map<string, 'subject' | 'object'>();
    for (const m of t.normalize('NFKC').matchAll(/([\p{Script=Han}\p{Script=Katakana}ー\p{L}\p{N}_.$()]+?)(が|を)(?![\p{Script=Hiragana}])/gu))
      out.set(m[1]!.replace(/^.*[\p{Script=Hiragana}]/u, ''), m[2] === 'を' ? 'object' : 'subject');
    return out;
  };
  const [v, q] = [roles(value), roles(quote)];
  // (two nouns trade roles: one alone turned is a verb said another way, カートを空にしない → カートが空になる)
  const turned = [...v].filter(([noun, role]) => noun && q.has(noun) && q.get(noun) !== role);
  if (turned.length < 2 || !turned.some(([, r]) => r === 'subject') || !turned.some(([, r]) => r === 'object')) return undefined;
  const [noun, role] = turned[0]!;
  return `'${noun}' is the ${role} (${role === 'object' ? 'を' : 'が'}) where the quote makes it the ${q.get(noun)}`;
}

function replacedWord(value: string, quote: string, request: string, translate: (text: string) => string[] = () => []): [string, string] | undefined {
  if (CJK.test(value) !== CJK.test(quote)) return undefined;
  const words = frameWords;
  const [v, q] = [words(value), words(quote)];
  const same = sameFrameWord;
  // (a CJK word whose content characters the other text has is in it: the segmenter may cut 名时 or 时对 across a particle)
  const [quoteChars, valueChars] = [new Set(cjkChars(quote)), new Set(cjkChars(value))];
  const charsIn = (w: string, chars: Set<string>) => CJK.test(w) && cjkChars(w).every((c) => chars.has(c) || CJK_FUNCTION_CHARS.has(c));
  const inQuote = (w: string) => q.some((x) => same(w, x)) || charsIn(w, quoteChars);
  const inValue = (w: string) => v.some((x) => same(w, x)) || charsIn(w, valueChars);
  const head = request.slice(0, 16_384);
  const requestWords = words(head);
  const sense = (w: string) => new Set((CJK.test(w) ? translate(w) : [w.toLowerCase(), ...englishSynonyms(w.toLowerCase())]).map(stem));
  // the longest common subsequence, then the gaps between its matches
  const n = v.length, m = q.length;
  if (n * m > 40_000) return undefined;
  const L = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i]![j] = same(v[i]!, q[j]!) ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  let i = 0, j = 0;
  const gap = { v: [] as string[], q: [] as string[] };
  const judge = (): [string, string] | undefined => {
    const added = gap.v.filter((w) => !inQuote(w) && requestWords.some((r) => same(w, r)));
    const left = gap.q.filter((w) => !inValue(w));
    gap.v = []; gap.q = [];
    for (const w of added) for (const x of left) {
      const [sw, sx] = [sense(w), sense(x)];
      if ([...sw].some((a) => [...sx].some((b) => stemsMatch(a, b)))) continue;
      if (GENERIC_EN.has(x.toLowerCase()) || GENERIC_NOUN.test(x)) if (IDENTIFIER_LIKE.test(w) || /[._$]/.test(w)) continue;
      // a negation said in a word ("keep" for "do not change", "missing" for "not set", "stop"): polarityKept judges those
      if (((KEEP_SENSE.test(w) || FAILED.test(` ${w}`)) && negated(quote)) || STOP_SENSE.test(w)) continue;
      return [w, x];
    }
    return undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && same(v[i]!, q[j]!)) {
      const r = judge();
      if (r) return r;
      i++; j++;
    } else if (j < m && (i >= n || L[i]![j + 1]! >= L[i + 1]![j]!)) gap.q.push(q[j++]!);
    else gap.v.push(v[i++]!);
  }
  return judge();
}
/** Nouns that stand for a piece of code the value may name instead: "the method", "this helper". */
const GENERIC_NOUN = /^(?:function|method|helper|option|setting|handler|callback|class|module|file|variable|field|property|component|hook|api|call|routine|utility|util)s?$/i;

/**
 * Characters that state no content of their own: Chinese particles, prepositions and conjunctions,
 * and the kanji of Japanese formal nouns (時 of のときに, 事, 為, 際): "…削除する判断" rendered "…の
 * ときに" as 時 (agent trial tr32).
 */
const CJK_FUNCTION_CHARS = new Set([...'的地得了着过对在和与及把被给从向以为于之而或並并且也都就时時事物所為際']);

/**
 * May a value carry this one word of the agent's own (in no part of the request)? Not in the
 * target feature: validation judges symbols against it, so a word there is a claim about which
 * code is concerned ("login handler bypass"). Elsewhere one word may render the request in the
 * agent's words ("the given key" for 指定したキー, tr23) — unless it states an action the quote does
 * not ("delete the user database" for "the user database"): that is a request of its own. A value
 * of a quote in Latin script needs no word of its own but a verb of the quote's action.
 */
function ownWordAllowed(slot: Slot, word: string, quote: string, value: string, translate: (text: string) => string[] = () => []): boolean {
  if (slot === 'target_feature') return false;
  // a number is a claim of its own: "the status code is 200" for "when the status code is 0" (red team adv32)
  if (/\p{N}/u.test(word)) return false;
  // an action the quote states itself, in the agent's word ("stop showing NaN" for NaN を表示するのをやめる)
  if (STOP_SENSE.test(word)) return STOP_SENSE.test(quote.normalize('NFKC'));
  // a failure or an absence said in a word of what the quote negates ("the header is missing" for
  // "does not set the header"; not "the body is missing" for "… when the body is a Buffer"): whether
  // it keeps the quote's negation is polarityKept's to judge (red team adv72)
  if (FAILED.test(` ${word}`) && negated(quote)) {
    const negatedHere = negatedSpan(quote, undefined, 6).map((w) => stem(w.toLowerCase()));
    return latinStems(value).some((v) => negatedHere.some((n) => stemsMatch(v, n)));
  }
  // a failure the quote does not state is a claim of its own: "'back' を渡されたときはクラッシュ" for
  // "'back' を渡されたときは", "… は例外" (red team adv83 made an observed_issue of each)
  const failure = (t: string) => FAILURE_WORD.test(t.normalize('NFKC')) || translate(t).some((w) => FAILURE_WORD.test(w));
  if (failure(word)) return failure(quote) || negated(quote);
  // a word of the quote's action in other senses too passes on that one: 追加 for 入れて is adding,
  // though the glossary also renders 追加 as "create" (agent-like trial of adv32: it was refused)
  const quoted = actionSides(quote, translate);
  const sides = [...actionSides(word, translate)];
  if (sides.length > 0) return sides.some((a) => quoted.has(a));
  // a quote in Latin script is rendered in its own words: a thing it does not name, put in place of
  // one it does, changes what is asked ("an options object with a message" for "… with a cause");
  // another form of its word (deletion for deleted) or a keep for its "do not change" is its own
  if (CJK.test(quote) || !/^[\p{Script=Latin}\p{N}_$'-]+$/u.test(word)) return true;
  return (KEEP_SENSE.test(word) && negated(quote)) || derivedFrom(word, quote);
}

/** Words that say a thing stays as it is: the other side of a quote's "do not change". */
const KEEP_SENSE = /^(?:keep|keeps|kept|leave|leaves|preserve[sd]?|retain(?:s|ed)?|maintain(?:s|ed)?|unchanged|intact|untouched|same|as-is)$/i;

/** Is a word another form of one of the quote's (deletion, removal, creation for deleted, removes, created)? */
function derivedFrom(word: string, quote: string): boolean {
  const base = word.toLowerCase().replace(/(?:ations?|itions?|ions?|als?|ments?|ances?|ences?|ness)$/, '');
  return base.length >= 4 && base !== word.toLowerCase() && latinStems(quote).some((q) => stemsMatch(stem(base), q) || (q.length >= 4 && base.startsWith(q)));
}

/**
 * A failure to do something, said as its negation: "fails to close the response" says the response is
 * not closed (red team adv65 had "respond closes the response" accepted for it), "lacks a delay" that
 * there is none.
 */
const FAILING = String.raw`fail(?:s|ed|ing)?\s+to|unable\s+to|neglect(?:s|ed|ing)?\s+to|lack(?:s|ed|ing)?`;
/** Words that turn a statement around: English (not, no, never, n't, without, instead of, fails to…; not in a hyphened name: the rule no-var), Japanese (ない, ず, ません…), Chinese (不, 没…); 別/别 left out (別名 is an alias). */
const FAILING_WORD = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${FAILING})(?![\p{L}\p{N}])`, 'iu');
const NEGATION = new RegExp(String.raw`(?:^|[^\p{L}\p{N}-])(?:not|no|never|none|nothing|neither|nor|without|cannot|unless|instead\s+of|rather\s+than|${FAILING})(?![\p{L}\p{N}]|-[\p{L}\p{N}])|n['’]t(?![\p{L}\p{N}])|ない|なかっ|なく|ません|なし(?=[でにのと、。\s]|$)|ず(?:に|[、。]|$)|(?<=[るくすつぬむぶぐ]|(?<![よそ])う)な(?=[。、！!？?\s]|$)|[不没勿無无非未](?=[\p{Script=Hiragana}\p{Script=Han}\s\p{Script=Latin}\p{N}]|$)|[别甭](?=[\s\p{Script=Latin}把让再将给]|$)`, 'iu');
/** Hanzi/kanji that negate only as a verb's prefix: 不具合 (a defect), 無料 (free), 无穷大 (infinity), 非法 (illegal) state no negation; 非表示 (hide) is an action of its own (actions.ts); しか…ない says "only" (a restriction, RESTRICTION). */
// (Python's `None` is a value: "when the adapter returns None" negates nothing — red team adv50's friction; "None of …" does)
const NOT_NEGATION = /(?<![\p{L}\p{N}_$.])None(?![\p{L}\p{N}_]|\s+of(?![\p{L}]))|不具合|不足|不安|不便|不正|不明|不同|不断|不过|不论|不管|不少|不错|不久|未来|無料|無効|無視|未満|非同期|非常|非表示|没有|無限|无限|无穷|無数|无数|无效|非法|非数|不変|不变|无名|非公開|非公开|少な[いく]|危な[いく]|ないと(?:いけな[いく]|いけません|だめ|ダメ)|なければ(?:ならな[いく]|なりません|いけな[いく])?|なくては(?:ならな[いく]|いけな[いく])?|なくちゃ(?:いけな[いく])?|しか[^。、！？!?\s]{0,15}?(?:ない|ません|なかっ)/gu;
/** A negation stated by a word or a verb's ending (not, never, n't, ない, ません, ず), not by a kanji prefix. */
const VERB_NEGATION = new RegExp(String.raw`(?:^|[^\p{L}\p{N}-])(?:not|no|never|none|nothing|neither|nor|without|cannot|${FAILING})(?![\p{L}\p{N}]|-[\p{L}\p{N}])|n['’]t(?![\p{L}\p{N}])|ない|なかっ|なく|ません|なし(?=[でにのと、。\s]|$)|ず(?:に|[、。]|$)`, 'iu');
/**
 * A Chinese verb's negation, a word as English's (不发送 "does not send"): in a text with no kana — in
 * Japanese a kanji before another is a prefix (不要 unnecessary, 未使用 unused), left to grounding.
 */
const ZH_VERB_NEGATION = /(?:不要|不用|不必|无需|无须|[不没别勿])(?=\s*\p{Script=Han})/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Words that state a failure or an absence: a value may say "login fails" for a quote "cannot log in". */
const NEGATIVE_SENSE = /(?:^|[^\p{L}])(?:fail|error|miss|empty|broke|crash|lack|unable|undefined|null|nan|absent|skip|ignor|wrong|invalid|incorrect)|失敗|エラー|空|欠|漏れ|抜け|壊れ|落ち|失败|错误|缺/iu;

/** A negation that asks for something not to be done (without, don't, ずに, ないで, ないように, 不要, 别), not one that observes. */
const INSTRUCTION_NEGATION = /(?:^|[^\p{L}])(?:without|never|don['’]t|do\s+not|must\s+not|should\s+not|shouldn['’]t|mustn['’]t)(?![\p{L}])|ずに|ないで|ないよう|ぬよう|[不别]要|不许|不得|勿/iu;

/** A forbidden edit of the code itself (not a behaviour of the program): "do not change", 変更しないで, 不要修改. */
const FORBIDS_EDIT = /(?:^|[^\p{L}])(?:without|never|don['’]t|do\s+not|must\s+not|should\s+not|shouldn['’]t|mustn['’]t|no\s+need\s+to)\s+(?:chang|modif|edit|touch|alter|rewrit|refactor)|(?:変更|修正|編集|触|変え|書き換|いじ)[\p{Script=Hiragana}]{0,3}?(?:ないで|ないよう|ずに|ぬよう|ない|ません)|(?:不需要|不要|不用|不必|不准|无需|无须|毋须|别|勿|不许|不得|禁止)\s*(?:修改|改动|更改|改|动|碰|编辑)/iu;

/** "Y instead of X": X is what happens now, which an observed issue may state as it is. */
const ALTERNATIVE = /(?:^|[^\p{L}])(?:instead\s+of|rather\s+than)(?![\p{L}])/iu;
const ALTERNATIVE_G = new RegExp(ALTERNATIVE.source, 'giu');

/** Words that state a failure to do something: the sense of a negated "can" (できない, cannot, 无法). */
const FAIL_SENSE = /^(?:fail|unable)/i;
/** Words that say something goes wrong: a crash, an error, an exception, a failure. */
const FAILURE_WORD = /^(?:crash|exception|error|fail|throw|panic|broke|hang|freez|leak|timeout|bug|defect|corrupt)|クラッシュ|例外|エラー|落ち|失敗|異常終了|ハング|フリーズ|リーク|壊れ|タイムアウト|不具合|バグ|止まる|崩溃|异常|报错|错误|失败|抛出|卡住|卡死|泄漏|超时|故障|缺陷/iu;

/**
 * A literal: one word in quotes (an option's value `"never"`, `'none'`) or code in backticks. It
 * names a value and negates nothing; a phrase in quotes ("don't delete") still says what it says.
 */
const LITERAL = /"[^"\s]*"|“[^”\s]*”|`[^`\n]*`|(?<![\p{L}\p{N}])'[^'\s]*'(?![\p{L}\p{N}])/gu;

/**
 * "Not only X" says X and more: an inclusion, not a negation (だけでなく, のみならず, 不仅, 不只). Read as
 * a negation of X it let "never as an object" stand for "not only as an object" (red team adv28).
 */
const INCLUSION = /(?<![\p{L}\p{N}])not\s+(?:only|just|merely|solely|simply|exclusively)(?![\p{L}\p{N}])|(?:だけ|ばかり)(?:で|じゃ)は?なく|のみならず|不(?:仅|只|光|单|但)仅?/giu;

/**
 * A restriction to one case: "only", "solely", "exclusively", "merely", "just", "alone", "nothing
 * but", "some", "certain", "part of", 一部, 部分, 某些, だけ, のみ, しか…ない, ばかり, に限り, 専用, 只, 仅, 唯一, 唯独, 单单, 专门, 限于 (outside an
 * inclusion; 只要 "as long as" and 只是 "merely" restrict nothing). A value that restricts where its
 * quote does not narrows the request: "accept a plain function only" for "… a plain function, not only
 * as an object" (red team adv28).
 */
const RESTRICTION = /(?<![\p{L}\p{N}])(?:only|solely|exclusively|merely|just|alone|some|certain)(?![\p{L}\p{N}])|nothing\s+but|part\s+of|一部|部分|某些|有些|だけ|のみ|しか(?!し)|ばかり|に限[りっるら定]|専用|オンリー|只(?![要是])|仅|唯一|唯独|单单|专门|限于/iu;

/**
 * An exclusion of a case: "except", "excluding", "apart from", "other than", "sans", "but not", 以外,
 * 除いて, 除外, 除了. "GET requests except POST requests" for "POST requests as well as GET requests"
 * narrows the request as "only GET requests" does (red team adv30).
 */
const EXCLUSION = /(?<![\p{L}\p{N}])(?:except(?:ing|ed)?|excluding|apart\s+from|other\s+than|sans|but\s+not)(?![\p{L}\p{N}])|以外|を?除[いきくけ外]|除了/iu;

/** Does a text narrow what it is about to some cases (RESTRICTION, EXCLUSION), inclusions aside? */
export function narrows(text: string): boolean {
  const t = text.normalize('NFKC').replace(LITERAL, ' ').replace(INCLUSION, ' ');
  return RESTRICTION.test(t) || EXCLUSION.test(t) || NOT_UNLESS.test(t);
}

/**
 * "sends the headers but not the body" restates "does not send the body but sends the headers": its
 * "but not" is the quote's own negation, said as many times (which words each governs is
 * clause-scope.ts's to judge) — not a restriction the request does not make.
 */
function exclusionRestated(value: string, quote: string): boolean {
  const v = value.normalize('NFKC').replace(LITERAL, ' ').replace(INCLUSION, ' ').replace(new RegExp(BUT_NOT, 'giu'), ' ');
  return BUT_NOT.test(value.normalize('NFKC')) && !RESTRICTION.test(v) && !EXCLUSION.test(v) && negatorsIn(quote) > 0 && negatorsIn(value) === negatorsIn(quote);
}
const BUT_NOT = /(?<![\p{L}\p{N}])but\s+not(?![\p{L}\p{N}])/iu;

/**
 * "does not retry unless the status is 503" says "retries only when the status is 503": a negation
 * lifted by "unless" is a restriction, said either way (red team adv72 had the second refused as a
 * dropped negation).
 */
const NOT_UNLESS = /(?:^|[^\p{L}])(?:not|never|cannot)(?![\p{L}])[^.;:!?]{1,80}?(?:^|[^\p{L}])unless(?![\p{L}])|n['’]t(?![\p{L}])[^.;:!?]{1,80}?(?:^|[^\p{L}])unless(?![\p{L}])/iu;
const ONLY_WHEN = /(?:^|[^\p{L}])only\s+(?:when|if|where|while|after|once|for)(?![\p{L}])/iu;
const restrictionRestated = (value: string, quote: string): boolean =>
  (NOT_UNLESS.test(quote) && negatorsIn(quote) === 2 && ONLY_WHEN.test(value) && negatorsIn(value) === 0) ||
  (NOT_UNLESS.test(value) && negatorsIn(value) === 2 && ONLY_WHEN.test(quote) && negatorsIn(quote) === 0);

/**
 * A claim about every case: "all", "every", "any", "each", "always", "whenever", "no matter",
 * "regardless", "unconditionally", "in general", "by default", "globally", 全て, すべて, 全部, 全体,
 * あらゆる, いつも, 常に, 必ず, 一律, どの…も, 全URL, 所有, 任何, 每个, 每次, 一切, 总是, 始终, 无论, 不管,
 * 凡是, 随时, 一概, 全局, 统统 (not a name: `Promise.all`, `getAll`; red team adv35 found the later ones). A value that claims it where its quote does not
 * widens the request: "throw a TimeoutError for all errors" for "… instead of a generic error", "any
 * request" for "When a request times out" (red team adv34).
 */
const UNIVERSAL = /(?<![\p{L}\p{N}.$_])(?:all|every|everything|everywhere|everyone|any|anything|anywhere|each|always|whenever|whatever|whichever|no\s+matter|regardless|unconditional(?:ly)?|in\s+general|generally|by\s+default|global(?:ly)?|universal(?:ly)?|both|forever|permanent(?:ly)?)(?![\p{L}\p{N}_$(])|全て|すべて|全部|全体|あらゆる|いつも|常に|常時|毎回|必ず|一律|どんな|いかなる|任意|何でも|どの[^。、！？]{0,12}?も|全(?=[\p{Script=Katakana}A-Za-z])|所有|任何|每个|每一|每次|一切|总是|始终|无论|不管|凡是|随时|一概|全局|统统|両方|どちらも|いずれも|永久|永遠|ずっと|两者|两种|永远|永久/iu;

/**
 * "Xも" (X too) in a value whose quote says "Xのみ"/"Xだけ" (only X): the restriction turned into an
 * inclusion, every other word kept (red team adv83: 同じオリジンの場合のみ → 同じオリジンの場合も).
 */
function restrictionWidened(value: string, quote: string): string | undefined {
  const v = value.normalize('NFKC');
  for (const m of quote.normalize('NFKC').matchAll(/([\p{Script=Han}\p{Script=Katakana}ー\p{L}\p{N}_]{1,12})(?:のみ|だけ)/gu)) {
    const head = m[1]!.slice(-Math.min(m[1]!.length, 6));
    if ((v.includes(`${head}も`) || v.includes(`${head}でも`)) && !/(?:のみ|だけ)/u.test(v)) return m[1]!;
  }
  // "Xも" (X too) for the quote's "Xは" (X, as the topic): 'back' を渡されたときも for …ときは (red team adv84)
  const q = quote.normalize('NFKC');
  for (const m of v.matchAll(/([\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ー\p{L}\p{N}_']{2,12}?)(?:でも|も)(?=[、,。\s]|$)/gu)) {
    const head = m[1]!.slice(-Math.min(m[1]!.length, 4));
    if (q.includes(`${head}は`) && !q.includes(`${head}も`)) return head;
  }
  return undefined;
}

/** Does a text claim every case (UNIVERSAL)? */
export function widens(text: string): boolean {
  return UNIVERSAL.test(text.normalize('NFKC').replace(LITERAL, ' '));
}

/** A negation written into a hyphened word (no-report, non-blocking): a name where the user wrote it (the rule no-var). */
const HYPHENED_NEGATION = /(?<![\p{L}\p{N}-])(?:not|no|non|never)-(?=[\p{L}\p{N}])/giu;

/**
 * Does a text state a negation (of a verb it carries)? A literal or a hyphened name negates nothing
 * where `saidBy` (the user's own words: the quote) has it too; one the agent wrote itself does
 * (red team adv13: `"not" report upload progress`, `no-report …`, `` `do not` report …`` were grounded
 * by "report upload progress").
 */
export function negated(text: string, saidBy: string = text): boolean {
  const said = saidBy.normalize('NFKC').toLowerCase();
  const literals = new Set([...said.matchAll(LITERAL)].map((m) => m[0].slice(1, -1)));
  const t = text.normalize('NFKC')
    .replace(LITERAL, (m) => (literals.has(m.slice(1, -1).toLowerCase()) ? ' ' : ` ${m.slice(1, -1)} `))
    .replace(/[\p{L}\p{N}-]+/gu, (w) => (said.includes(w.toLowerCase()) ? w : w.replace(HYPHENED_NEGATION, 'not ')))
    .replace(NOT_NEGATION, (m) => (m === '没有' ? '没' : ' '))
    .replace(INCLUSION, ' ');
  return NEGATION.test(t);
}

/** Words that state a stop or a prevention: "do not show NaN" translates NaN の表示をやめる. */
const STOP_SENSE = /(?:^|[^\p{L}])(?:stop|prevent|avoid|forbid|block)|やめ|止め|止ま|防|避け|禁止|停止|阻止|避免|防止/iu;

/** An English word or phrase that negates what follows it (negatedWords, negatedSpan: one list). */
const NEGATOR_EN = String.raw`(?:not|never|no|without|cannot|unless|n['’]t|instead\s+of|rather\s+than|${FAILING})`;
/** A negation by an alternative ("instead of", "rather than"), or a plain one (the rest, Japanese and Chinese included). */
type NegationKind = 'alternative' | 'plain';
const kindOf = (negator: string): NegationKind => (/^(?:instead|rather)/i.test(negator.trim()) ? 'alternative' : 'plain');

/** The word a negation in a quote turns around: 加え of 加えない, 渡され of 渡されなかった, null of null ではない, 返回 of 不返回, delete of "do not delete". */
function negatedWords(quote: string, kind?: NegationKind): string[] {
  // (没有 negates as negated() reads it: 没有指定 root "no root given" turns round 指定 — agent trial tr137 was told a value had dropped it)
  const q = quote.normalize('NFKC').replace(LITERAL, ' ').replace(NOT_NEGATION, (m) => (m === '没有' ? '没' : ' ')).replace(INCLUSION, ' ');
  const out: string[] = [];
  // Japanese: the content nearest before the ending (a verb's kana, particles and spaces between are
  // skipped: 投げずに → 投, 渡されなかった → 渡, null ではない → null, ログインできない → ログイン)
  if (kind !== 'alternative') for (const m of q.matchAll(/([^\s\p{Script=Hiragana}\p{P}\p{S}]+)([\s\p{Script=Hiragana}]{0,4}?)(?:ない|なかっ|なく|ません|なし(?=[でにのと、。\s]|$)|ず(?:に|[、。]|$))/gu)) out.push(m[1]!, m[1]! + m[2]!.trim());
  // Chinese: the verb right after the prefix
  // (a copula, a modal or a causative between is skipped: 而不是让它们永远挂起 turns round 永远挂起, not 是让 — red team adv31)
  // (and an adverb: 不要再添加 turns round 添加, not 再添 — red team adv85)
  if (kind !== 'alternative') for (const m of q.matchAll(/(?:没有|[不没勿别])(?:是|要|会|能|该|应该|应)?(?:再|又|还|也|重复|继续)?(?:让|使|把|给)?(?:它们|他们|她们|它|他|她|其)?([\p{Script=Han}]{1,2})/gu)) out.push(m[1]!);
  // (a name written in Latin after it: 没有 Transfer-Encoding — red team adv85 dropped the 没有 in an English value)
  if (kind !== 'alternative') for (const m of q.matchAll(/(?:没|[不无未])(?:是|有)?\s*([A-Za-z_$][\w$.-]*)/gu)) out.push(m[1]!);
  // English: the first content word after the negation
  // (adverbs and prepositions between are skipped: "no longer ignore" negates ignore, "not only as an
  // object" object — red team adv27 reversed both with the first word taken as the negated one)
  for (const m of q.matchAll(new RegExp(`(?:^|[^\\p{L}\\p{N}])(${NEGATOR_EN})\\s+(?:(?:be|been|being|to|the|a|an|do|does|any|yet|get|got|longer|only|just|more|even|always|ever|really|necessarily|simply|merely|as|in|on|for|with|by|from|of|given|not)\\s+)*([\\p{L}\\p{N}_$]+)`, 'giu'))) if (!kind || kindOf(m[1]!) === kind) out.push(m[2]!);
  return out.filter((w) => w.length > 0);
}

/** Words for changing something: "redirect other URLs differently" states the change "do not change how other URLs are redirected" negates (red team adv35). */
const CHANGE_SENSE = /^(?:chang|modif|alter|differ|edit|updat|tweak|adjust)/i;

/**
 * Does a value that states no negation state what its quote negates? "add consumption tax" for
 * 消費税を加えない does; "JsonObject hasNonNull method" for "… null ではないときだけ … hasNonNull
 * メソッド" (tr23) and a value that leaves out the clause 渡されなかったとき (tr19) only say less, which
 * grounding judges. A name the quote itself writes (hasNonNull) states nothing. Where no negated word
 * can be told, the negation is taken as dropped.
 */
function statesNegated(value: string, quote: string, translate?: (text: string) => string[], words = negatedWords(quote)): boolean {
  if (words.length === 0) return true;
  const names = new Set(quote.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u).filter((w) => IDENTIFIER_LIKE.test(w)));
  const v = value.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u).filter((w) => w && !names.has(w)).join(' ');
  const vLatin = [...latinStems(v), ...v.split(' ').filter((w) => !CJK.test(w)).flatMap(identifierParts)];
  const vEnglish = [...vLatin, ...(translate?.(v) ?? []).map(stem)];
  const vChars = new Set(cjkChars(v));
  const vActions = actionSides(v, translate ?? (() => []));
  return words.some((w) => {
    if (!CJK.test(w)) return vEnglish.some((x) => stemsMatch(x, stem(w.toLowerCase())) || (CHANGE_SENSE.test(x) && CHANGE_SENSE.test(w)));
    // a verb the glossary leaves out (加える) is known by its action
    if ([...actionSides(w, translate ?? (() => []))].some((a) => vActions.has(a))) return true;
    const kanji = [...w].filter((c) => /\p{Script=Han}/u.test(c));
    if (kanji.length > 0 && kanji.every((c) => vChars.has(c))) return true;
    const meant = (translate?.(w) ?? []).map(stem);
    // a negated word the glossary cannot render: whether a value in another language states it cannot
    // be told, so it may (red team adv27: 限定しないで, "do not restrict", set as "restrict to …")
    if (meant.length === 0 && kanji.length > 0 && !CJK.test(v)) return true;
    return meant.some((t) => vEnglish.some((x) => stemsMatch(x, t)));
  });
}

/**
 * The action a stop or a prevention in a quote governs: showing of "stop showing", deleted of
 * "prevent users from being deleted", 表示 of 表示するのをやめる, 削除 of 削除を禁止する, 删除 of 禁止删除.
 */
function stoppedWords(quote: string): string[] {
  const q = quote.normalize('NFKC');
  const out: string[] = [];
  for (const m of q.matchAll(/(?:^|[^\p{L}])(?:stop|stops|avoid|avoids|prevent|prevents|forbid|forbids|block|blocks|quit)\s+(\p{L}+ing)(?!\p{L})/giu)) out.push(m[1]!);
  for (const m of q.matchAll(/(?:^|[^\p{L}])(?:prevent|prevents|forbid|forbids|block|blocks|stop|stops|keep|keeps)\s+(?:[\p{L}\p{N}_$'’-]+\s+){0,4}?from\s+(?:being\s+|getting\s+)?(\p{L}+)/giu)) out.push(m[1]!);
  for (const m of q.matchAll(/([^\s\p{Script=Hiragana}\p{P}\p{S}]+)[\s\p{Script=Hiragana}]{0,5}?(?:やめ|止め|禁止|防|避け|阻止)/gu)) out.push(m[1]!);
  for (const m of q.matchAll(/(?:禁止|阻止|防止|避免|停止)(\p{Script=Han}{1,2})/gu)) out.push(m[1]!);
  return out;
}

/** Verbs of change a request may forbid (English stems, Japanese and Chinese forms). */
const CHANGE_EN = '(?:make\\s+(?:any\\s+)?(?:chang|modif|edit)[a-z]*\\s+(?:to|in)|(?:chang|modif|edit|touch|updat|alter|delet|remov|add|renam|refactor|rewrit|mov|replac|affect|adjust|tweak)[a-z]*|mess\\s+with|fiddle\\s+with|interfere\\s+with)';
/** Several change verbs in a row: "do not change, rename or remove X" (red team adv51). */
const CHANGES_EN = `${CHANGE_EN}(?:\\s*,\\s*${CHANGE_EN})*(?:\\s*,?\\s*(?:or|and|nor)\\s+${CHANGE_EN})?`;
const CHANGE_JA = '(?:変更|修正|編集|削除|追加|触|変え|書き換|いじ)';
const CHANGE_ZH = '(?:修改|改动|更改|改|删除|删|添加|动|碰|编辑)';
/** Words that forbid what follows them (RULED_OUT, fromExcluded: one list each). */
// ("you may not change X", "you are not allowed to": said to the agent; "you cannot change the port" describes a problem)
const FORBIDDING_EN = "(?:do\\s+not(?:\\s+(?:ever|also|under\\s+any\\s+circumstances|in\\s+any\\s+way))?|don['’]?t(?:\\s+(?:ever|also))?|never|must\\s+not|mustn['’]t|should\\s+not|shouldn['’]t|without|no\\s+need\\s+to|refrain\\s+from|you\\s+may\\s+not|you\\s+are\\s+not\\s+(?:allowed|permitted)\\s+to|you['’]?re\\s+not\\s+(?:allowed|permitted)\\s+to|under\\s+no\\s+circumstances(?:\\s+(?:should|may|must|can)\\s+you)?|it\\s+is\\s+(?:forbidden|not\\s+allowed|not\\s+permitted)\\s+to|it['’]?s\\s+(?:forbidden|not\\s+allowed|not\\s+permitted)\\s+to)";
// (an adverb between the negation and its verb: 不要再添加, 别再改 — red team adv85)
const FORBIDDING_ZH = '(?:不需要|不要|不用|不必|不准|无需|无须|毋须|别|勿|不许|不得|禁止|不再|不)(?:\\s*(?:再|又|还|也|重复|继续|额外|另外))?';
const RULED_OUT = [
  // "do not change the admin report", "without modifying the", "never touch" (imperatives: "is not updated in the page" states a problem)
  new RegExp(`(?:^|[^\\p{L}])(${FORBIDDING_EN}\\s+${CHANGE_EN})\\s+(?:(?:the|a|an|any|to|of|in|on|this|that|these|those|its|their|our|how|what|which|whether|where|when|why|the\\s+way)\\s+){0,2}$`, 'iu'),
  // "…, not to the admin report", "except the admin report"
  /(?:^|[^\p{L}])(not\s+(?:to|for)|except(?:\s+for)?|but\s+not|other\s+than|apart\s+from|but\s+exclude|excluding)\s+(?:(?:the|a|an|any|this|that)\s+)?$/iu,
  // "change the timeout, not the retry delay"
  /,\s*(not)\s+(?:(?:the|a|an|any|this|that)\s+)?$/iu,
  // 不要修改管理报告, 别动
  new RegExp(`(${FORBIDDING_ZH}\\s*${CHANGE_ZH})\\s*$`, 'u'),
];
/** Before a quote that starts with the change itself: "do not | change the admin report". */
const NEGATION_BEFORE = /(?:(?:^|[^\p{L}])(do\s+not|don['’]t|never|must\s+not|should\s+not|without)|((?:不要|别|勿|不许|不得|不再|不必|无需)(?:\s*(?:再|又|还|也|重复|继续|额外|另外))?))\s*$/iu;
/** A verbal noun negated through a verb of doing: 削除を行わない, 更新は実行しない (red team adv86: the nominal form) */
const DOING_JA = String.raw`\s*[をはも]\s*(?:行[わい]|実行し|実施し)[\p{Script=Hiragana}]{0,2}?`;
const JA_NEGATION_END = '(?:ないで|ないよう|ずに|ぬよう|ない|ません)';
const RULED_OUT_JA = new RegExp(`^\\s*[はをもにの]?\\s*(${CHANGE_JA}(?:[\\p{Script=Hiragana}]{0,3}?|${DOING_JA})${JA_NEGATION_END})`, 'u');
const NEGATION_AFTER_JA = new RegExp(`^((?:[\\p{Script=Hiragana}]{0,2}?|${DOING_JA})${JA_NEGATION_END})`, 'u');

/** A change a text forbids, and where the thing it keeps stands: after it (English, Chinese), before it (Japanese). */
const FORBIDS_EN = new RegExp(`(?:^|[^\\p{L}])(${FORBIDDING_EN}\\s+${CHANGES_EN}|no\\s+(?:changes?|modifications?|edits?)\\s+(?:to|in)|avoid\\s+(?:chang|modif|touch|alter|edit)[a-z]*|hands\\s+off)`, 'iu');
const FORBIDS_ZH = new RegExp(`(${FORBIDDING_ZH}\\s*${CHANGE_ZH})`, 'u');
const FORBIDS_JA = new RegExp(`(${CHANGE_JA}(?:[\\p{Script=Hiragana}]{0,3}?|${DOING_JA})${JA_NEGATION_END})`, 'u');

/**
 * Asking to keep something as it is forbids changing it as much as "do not change" does: "keep
 * retries as they are", "leave X alone", "X stays the same", X はそのままに, X 保持不变 (red team
 * adv41 took "retries" of "… and keep retries as they are" as the target and changed them). Group 1:
 * the words that keep, group 2: what is kept.
 */
/** What "keep …" and "… stays" say a thing stays: as it is, the same, intact … */
const KEPT_AS = String.raw`(?:be|as\s+(?:it|they|is)(?:\s+(?:is|are|was|were))?|as-is|unchanged|unmodified|unaltered|intact|alone|untouched|identical|the\s+same|the\s+way\s+(?:it|they)\s+(?:is|are))`;
/** A word of a named thing: a dot only inside one (`ctx.assert`), never a sentence's end. */
// (written as code too: "`X` must not change" — the backticks are the name's)
// (a private member keeps its `#`: `Ky.#retryFromError` — red team adv59)
const THING_WORD = String.raw`\x60?#?[\p{L}\p{N}_$'’-]+(?:\.#?[\p{L}\p{N}_$'’-]+)*(?:\(\))?\x60?`;
/** Words that start another clause, never part of what a "… stays the same" keeps. */
const CLAUSE_WORD = String.raw`(?:and|or|but|so|then|while|whereas|however|unless|until|that|which|when|if|because|where|also)`;
/** Words that start what follows a noun and tells which one it is: "the cause given to ctx.throw" keeps the cause, not ctx.throw. */
const POST_MODIFIER = /\s+(?:to|by|of|in|into|for|from|with|on|at|given|passed|thrown|returned|used|sent|set)\s+/i;
/** A remark after a name that keeps it out: "unchanged", "no edits", "leave unchanged", "do not touch" (after a colon, a dash, or in parentheses). */
const KEPT_REMARK = String.raw`(?:unchanged|untouched|unmodified|as[-\s]is|no\s+(?:changes?|edits?|modifications?)|(?:leave|keep)\s+(?:it\s+|them\s+)?(?:unchanged|untouched|intact|alone|as[-\s]is|as\s+(?:it\s+|they\s+)?(?:is|are))|(?:do\s+not|don['’]t)\s+(?:change|touch|modify|edit|alter)(?:\s+(?:it|them))?|not\s+to\s+be\s+(?:changed|touched|modified|edited))`;

const KEEPS = [
  // "keep A and B as they are", "leaving X untouched" (a list of kept things is one object)
  new RegExp(String.raw`(?:^|[^\p{L}])(keep|keeps|keeping|leave|leaves|leaving|preserve|preserves|preserving|retain|retains|retaining)\s+((?:(?!(?:but|then|so|while|whereas|however|unless|until|and\s+(?:make|add|fix|change|let|have|ensure|allow|update|remove|create|implement|support|use))(?![\p{L}]))(?:[^.;:!?,，。；]|\.(?=[#\p{L}\p{N}_$])))+?)\s+${KEPT_AS}(?![\p{L}])`, 'giu'),
  // "X stays the same", "X should remain as is", "X are kept as they are", "X must not be modified",
  // "X is not to be touched": X is the words before, back to another clause (not across a sentence's
  // end: "… the retry delay. The limit stays the same" keeps the limit only)
  new RegExp(String.raw`(?:^|[^\p{L}\p{N}_$.'’-])((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})(?:\s*,\s*(?:however|though|of\s+course)\s*,)?\s+(?:(?:(?:must|should|will|shall|can|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to)\s+)?(?:stays?|remains?|be\s+(?:kept|left|preserved|retained)|(?:is|are)\s+(?:kept|left|preserved|retained))\s+(?:exactly\s+|precisely\s+)?${KEPT_AS}(?!(?:\s+(?:is|are|was|were))?\s+(?:after|when|whenever|once|even|although|though|despite)(?![\p{L}]))|(?:(?:must|should|shall|can|may|will|need)\s*(?:n['’]t|\s+not)|(?:is|are)\s*(?:n['’]t|\s+not)\s+to)\s+be\s+(?:chang|modifi|edit|touch|updat|alter|rewritt|replac|remov|delet|renam|mov|affect)[a-z]*|(?:must|should|shall|can|may|will)\s*(?:n['’]t|\s+not)\s+(?:chang|modif|alter)[a-z]*(?=\s*(?:[.;:,!?。]|$|(?:and|but|or|so|when|while|if|unless)(?![\p{L}])))|(?:is|are)\s+not\s+to\s+(?:chang|modif|alter|touch)[a-z]*|(?:is|are)\s+off[-\s]limits|(?:is|are)\s+(?:out\s+of|not\s+in)\s+scope|(?:is|are)\s+excluded\s+from\s+(?:this|the)\s+(?:change|task|request|work|scope)|(?:is|are)\s+not\s+part\s+of\s+(?:this|the)\s+(?:change|task|request|work)|(?:needs?|requires?)\s+no\s+(?:changes?|modifications?|edits?)|(?:stays?|remains?)\s+(?:too|as\s+well))(?![\p{L}])`, 'giu'),
  // "changes to X are not allowed", "modifications of X are out of scope"
  new RegExp(String.raw`(?:^|[^\p{L}])(?:changes?|modifications?|edits?)\s+(?:to|of|in)\s+((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})\s+(?:are|is)\s+(?:not\s+(?:allowed|permitted|wanted|welcome|in\s+scope)|forbidden|prohibited|out\s+of\s+scope|off[-\s]limits)(?![\p{L}])`, 'giu'),
  // "editing X is not permitted", "nothing in X may change", "neither A nor X may be changed"
  new RegExp(String.raw`(?:^|[^\p{L}])(?:editing|changing|modifying|touching|altering)\s+((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})\s+(?:is|are)\s+(?:not\s+(?:allowed|permitted|wanted|in\s+scope)|forbidden|prohibited|out\s+of\s+scope)(?![\p{L}])`, 'giu'),
  // "help output changes are not allowed" (the thing before the changes; a symptom says when: "… after start")
  new RegExp(String.raw`(?:^|[^\p{L}\p{N}_$.'’-])((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,3}?(?!${CLAUSE_WORD}\s|(?:changes?|modifications?|edits?)\s)${THING_WORD})\s+(?:changes|modifications|edits)\s+(?:are\s+(?:not\s+(?:allowed|permitted|wanted|welcome|in\s+scope)|forbidden|prohibited|out\s+of\s+scope|off[-\s]limits))(?=\s*(?:[.;:,!?)。]|$))`, 'giu'),
  // "exclude the help output from this change", "the help output: unchanged"
  new RegExp(String.raw`(?:^|[^\p{L}])exclude\s+((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})\s+from\s+(?:this|the)\s+(?:change|task|request|work|scope)(?![\p{L}])`, 'giu'),
  // "the help output: unchanged", "help output — do not touch", "the help output (unchanged)"
  new RegExp(String.raw`(?:^|[^\p{L}\p{N}_$.'’-])((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})(?:\s*[:：]|\s+[—–-]{1,2})\s*${KEPT_REMARK}(?=\s*(?:[.;,!?)。\n]|$))`, 'giu'),
  new RegExp(String.raw`(?:^|[^\p{L}\p{N}_$.'’-])((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})\s*[(（]\s*${KEPT_REMARK}\s*[)）]`, 'giu'),
  new RegExp(String.raw`(?:^|[^\p{L}])nothing\s+(?:in|of|about)\s+((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})\s+(?:may|can|should|must|will|shall)\s+(?:be\s+)?(?:chang|modif|alter|touch|edit)[a-z]*(?![\p{L}])`, 'giu'),
  new RegExp(String.raw`(?:^|[^\p{L}])neither\s+((?:${THING_WORD}\s+){1,8}?nor\s+(?:${THING_WORD}\s+){0,4}?${THING_WORD})\s+(?:may|can|should|must|will|shall)\s+(?:be\s+)?(?:chang|modif|alter|touch|edit)[a-z]*(?![\p{L}])`, 'giu'),
  // (a code name and its particle may stand apart: "req.acceptsEncodings() はそのままに" — agent trial tr171)
  /([^\s、。,;；！？]+?)\s*[はをも]?\s*(?:そのまま(?:に|で)?|維持|保持)/gu,
  /([^\s，。,;；！？]+?)\s*(?:保持不变|保持原样|维持不变|不变)/gu,
  // what the request says is fine is no part of the change: "app.render() is fine as it is", "X works
  // correctly", "X is not the problem", "X needs no fix", X は問題ない, X 没问题 — said as a sentence of
  // its own ("the server works fine for GET requests but …" describes a symptom) (red team adv79 took
  // app.render() of "app.render() is fine as it is." as the target, reached READY and edited it)
  // (a statement that opens its sentence — not "Make X work correctly.", "Ensure X is fine": red team adv81)
  new RegExp(String.raw`(?:^|[.;!?]\s+|[。\n]\s*)(?!(?:make|makes|ensure|check|verify|please|so|that|to|let|have|get|keep)\s)((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})\s+(?:(?:is|are)\s+(?:(?:already|perfectly|totally|completely|also)\s+)?(?:fine|ok|okay|working|unrelated|not\s+broken|fine\s+too|correct|right)(?:\s+as[-\s](?:it\s+is|they\s+are|is))?|(?:is|are)\s+not\s+(?:the|a)\s+(?:problem|cause|culprit|issue|bug)|(?:already\s+)?works?(?:\s+(?:fine|correctly|well|as\s+(?:expected|intended)))?|behaves?\s+(?:correctly|fine|well|as\s+(?:expected|intended))|(?:does|do)\s*(?:n['’]t|\s+not)\s+need\s+(?:to\s+(?:change|be\s+(?:changed|fixed|touched))|changes?|a\s+fix|fixing|any\s+changes?)|needs?\s+no\s+(?:fix|fixing|changes?))(?=\s*(?:[.;!?。\n(,]|$))`, 'giu'),
  /([^\s、。,;；！？]+?)\s*(?:は|が|には)(?:問題(?:が)?(?:ない|ありません|なし)|正しい|正常(?:です|だ|に動作する)?(?=[。、\s]|$)|大丈夫|関係(?:ない|ありません)|無関係)/gu,
  /([^\s，。,;；！？]+?)\s*(?:没有?问题|是正确的|是对的|是好的|工作正常|没关系|无关)/gu,
];

/**
 * Words before a thing that say the change is not about it: "ignore app.render()", "nothing is wrong
 * with X", "the problem is not in X" (red team adv79). Group 1: the words, group 2: the thing.
 */
const EXONERATES = [
  new RegExp(String.raw`(?:^|[^\p{L}])(ignore|disregard|never\s+mind|don['’]t\s+worry\s+about|do\s+not\s+worry\s+about|nothing\s+to\s+fix\s+in|(?:there\s+is\s+)?nothing\s+(?:is\s+)?wrong\s+with|the\s+(?:problem|bug|issue|cause|fault)\s+is\s+(?:not|n['’]t)(?:\s+(?:in|with|caused\s+by))?|it\s+is\s+not)\s+((?:(?!${CLAUSE_WORD}\s)${THING_WORD}\s+){0,4}?(?!${CLAUSE_WORD}\s)${THING_WORD})(?=\s*(?:[.;:,!?。]|$|but(?![\p{L}])))`, 'giu'),
  /(不是|问题不在)([^\s，。,;；！？]+?)(?:的问题|里|中|上)/gu,
];

/** A word of a value that the request says only in its keep-out phrases ("do not change", "keep … as it is") and the value's quote does not. */
function keptVerbTaken(value: string, quote: string, request: string): string | undefined {
  const spans = forbiddenSpans(request);
  if (spans.length === 0) return undefined;
  const verbs = new Set(spans.flatMap((f) => latinStems(f.why)));
  // (said elsewhere in the request too, outside every keep-out phrase: a word of what it asks)
  const outside = spans.reduce((t, f) => t.slice(0, f.from) + ' '.repeat(f.to - f.from) + t.slice(f.to), request);
  for (const st of latinStems(outside)) verbs.delete(st);
  const quoted = new Set(latinStems(quote));
  // (a keep for a quote's own "do not change" says the same: "keep how other URLs are redirected")
  return value.normalize('NFKC').split(/[^\p{L}\p{N}_$]+/u)
    .find((w) => w && verbs.has(stem(w.toLowerCase())) && !quoted.has(stem(w.toLowerCase())) && !(KEEP_SENSE.test(w) && forbiddenSpans(quote).length > 0));
}

/**
 * Where what a "do not change …" keeps out ends: at the clause's end, but a list of kept things goes
 * on — past "or"/"nor", and past a comma or "and" before a name written as code ("do not alter `A`
 * or `X`", "do not change A, `B` and `C`": red team adv51); "…, and add a cache" is another clause.
 */
function keptEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const m = CLAUSE_END.exec(text.slice(at));
    if (!m) return text.length;
    const stop = at + m.index;
    const after = text.slice(stop + m[0].length);
    const goesOn = /(?:^|[^\p{L}])n?or$/iu.test(m[0]) ? after.trim() !== ''
      : /^(?:,|(?:^|[^\p{L}])and)$/iu.test(m[0]) && (CODE_NEXT.test(after) || (/and$/i.test(m[0]) && NOUN_NEXT.test(after))) && !VERB_IN.test(after.split(CLAUSE_END)[0]!);
    if (!goesOn) return stop;
    at = stop + m[0].length;
  }
}
/** A noun phrase next that ends its clause, no verb in it: "do not change the parser and the lexer." (not "… and the lexer should be faster"). */
const NOUN_NEXT = /^\s*(?:the|its|their|any|all)\s/iu;
/** A word that makes what follows "and" a clause of its own ("… and `X` should return 0"): what it names is asked for, not kept. */
const VERB_IN = /(?:^|[^\p{L}])(?:should|must|will|shall|can|could|would|may|might|is|are|was|were|be|has|have|had|needs?|does|do|did)(?![\p{L}])/iu;
/** A name written as code next (after an article): `x`, a.b, f(), snake_case, camelCase. */
const CODE_NEXT = /^\s*(?:(?:the|a|an)\s+)?(?:`|[A-Za-z_$][\w$]*(?:[.(]|_[\w$]|[a-z][A-Z]))/u;

/** The spans of a text the request keeps out of the change: after "do not change …" to the clause's end, before 変更しないで, the object of "keep … as it is". */
function forbiddenSpans(text: string): { why: string; start: number; end: number; from: number; to: number }[] {
  const out: { why: string; start: number; end: number; from: number; to: number }[] = [];
  for (const [re, keptAfter] of [[FORBIDS_EN, true], [FORBIDS_ZH, true], [FORBIDS_JA, false]] as const) {
    for (const m of text.matchAll(new RegExp(re.source, `${re.flags}g`))) {
      const at = m.index! + m[0].length - m[1]!.length;
      if (keptAfter) {
        const from = at + m[1]!.length;
        const end = keptEnd(text, from);
        out.push({ why: m[1]!, start: from, end, from: at, to: end });
      } else {
        const clause = text.slice(0, at).split(/[、。,;；]/u).pop()!;
        out.push({ why: m[1]!, start: at - clause.length, end: at, from: at - clause.length, to: at + m[1]!.length });
      }
    }
  }
  for (const re of EXONERATES) {
    for (const m of text.matchAll(re)) {
      const start = m.index! + m[0].lastIndexOf(m[2]!);
      out.push({ why: m[1]!, start, end: start + m[2]!.length, from: m.index!, to: m.index! + m[0].length });
    }
  }
  KEEPS.forEach((re, i) => {
    for (const m of text.matchAll(re)) {
      // EN "keep X …": X is group 2, after the verb; "X stays …", X はそのまま: X is group 1
      const [whole, verb] = i === 0 ? [m[2]!, m[1]!] : [m[1]!, m[0].slice(m[0].indexOf(m[1]!) + m[1]!.length).trim()];
      // (what "… stays the same" keeps is the noun, not what tells which one it is — red team adv52's
      // honest "the cause given to ctx.throw should stay the same" had ctx.throw kept)
      const obj = i === 1 ? whole.split(POST_MODIFIER)[0]! : whole;
      const start = m.index! + m[0].indexOf(obj, i === 0 ? m[0].indexOf(m[1]!) + m[1]!.length : 0);
      out.push({ why: i === 0 ? `${verb} … ${m[0].slice(m[0].indexOf(obj) + obj.length).trim()}` : verb, start, end: start + obj.length, from: m.index!, to: m.index! + m[0].length });
    }
  });
  return out;
}

/**
 * The forbidding words when a value takes in what a clause the request keeps out of the change
 * names, in other words than the quote's: "serialized params" for "must not change how params are
 * serialized" (red team adv37), "relative" into "keep the baseURL for relative and absolute URLs"
 * (adv40), "throw other errors" for "do not change how other errors are thrown" (adv41). A word only
 * the kept-out clauses have is taken in unless the value keeps it out too, in its own words
 * ("默认行为保持不变", "keep how other URLs are redirected").
 */
function fromExcluded(value: string, text: string, ownWords = true, translate?: (text: string) => string[]): string | undefined {
  const { spans, k, r } = keptAndAsked(text);
  if (spans.length === 0) return undefined;
  const v = value.normalize('NFKC');
  // what the value keeps out in its own words — a clause of the kept-out words only: "keep the baseURL
  // for relative …" keeps the asked baseURL, and takes "relative" in
  // (as written there, not elsewhere in the value: "keep other URLs as they are and refuse other URLs too"
  // keeps the first "other" only — red team adv42; a target_feature keeps nothing: it is what changes)
  let outside = v;
  for (const sp of ownWords ? [...forbiddenSpans(v), ...keptByValue(v)].sort((a, b) => b.start - a.start) : []) {
    const units = [...contentUnits(v.slice(sp.start, sp.end))];
    if (!units.some((u) => meets(u, r) && !meets(u, k))) outside = outside.slice(0, sp.start) + ' '.repeat(sp.end - sp.start) + outside.slice(sp.end);
  }
  // (the value's units the text has: a CJK bigram across the value's own join, 数序 of 参数序列化, is none)
  // (in the request's words too: "アダプター" for "do not touch the adapters" — red team adv43)
  const units = new Set([...contentUnits(outside), ...(translate ? contentUnits(translate(outside).join(' ')) : [])]);
  const taken = [...units].filter((u) => meets(u, k) && !meets(u, r));
  if (taken.length === 0) return undefined;
  // (the phrase that keeps out what was taken, not the first one: red team adv49's friction)
  const t = text.normalize('NFKC');
  const holding = spans.find((sp) => {
    const held = new Set(contentUnits(t.slice(sp.start, sp.end)));
    return taken.some((x) => meets(x, held));
  });
  return (holding ?? spans[0]!).why;
}

/**
 * What a text keeps out of the change and what it asks for: its keep-out spans, the content units
 * inside them (`k`; a kept identifier keeps its parts: "count" of "keep activeCount as it is" — red
 * team adv46) and those outside them (`r`).
 */
function keptAndAsked(text: string): { spans: ReturnType<typeof forbiddenSpans>; k: Set<string>; r: Set<string> } {
  const t = text.normalize('NFKC');
  const spans = forbiddenSpans(t);
  let rest = '';
  let last = 0;
  for (const sp of [...spans].sort((a, b) => a.from - b.from)) {
    if (sp.from > last) rest += ' ' + t.slice(last, sp.from);
    last = Math.max(last, sp.to);
  }
  rest += ' ' + t.slice(last);
  const kept = spans.map((sp) => t.slice(sp.start, sp.end)).join(' ');
  return { spans, k: new Set([...contentUnits(kept), ...contentUnits(camelSpaces(kept))]), r: contentUnits(rest) };
}

/** Does a unit meet one of a set: the same, or one a prefix of the other (plural, inflection). */
const meets = (u: string, set: ReadonlySet<string>): boolean => [...set].some((x) => x === u || x.startsWith(u) || u.startsWith(x));

/** A keep-out phrase of the value over words the request asks to change and does not keep out itself (the phrase), else undefined. */
function keepsAsked(value: string, request: string, quote = ''): string | undefined {
  const { k, r } = keptAndAsked(request);
  const v = value.normalize('NFKC');
  // (what the quote itself asks to keep may be kept: "keep the existing Content-Type header" for
  // "keep an existing Content-Type header instead of overwriting it" — red team adv76)
  const q = quote.normalize('NFKC');
  // (and what it forbids: "do not add the header when …" for 在…时，不要再添加 … 头 — red team adv85)
  const keptByQuote = new Set(keptByValue(q).flatMap((sp) => [...contentUnits(q.slice(sp.start, sp.end))]));
  // (a quote that itself keeps something out may be rendered with its keep-out: "do not add the header
  // when …" for 在…时，不要再添加 … 头 — red team adv85; polarity and grounding judge the rest)
  if (forbiddenSpans(q).length > 0) return undefined;
  for (const sp of [...forbiddenSpans(v), ...keptByValue(v)]) {
    const text = v.slice(sp.start, sp.end);
    if ([...contentUnits(text)].some((u) => meets(u, r) && !meets(u, k) && !keptByQuote.has(u))) return text.trim().slice(0, 80);
  }
  return undefined;
}

/** In a value, "keep X" / "leave X" / "preserve X" keeps X out of the change to the clause's end, tail or not. */
function keptByValue(v: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of v.matchAll(/(?:^|[^\p{L}])(?:keep|keeps|keeping|leave|leaves|leaving|preserve\w*|retain\w*)\s+/giu)) {
    const start = m.index! + m[0].length;
    out.push({ start, end: start + v.slice(start).split(CLAUSE_END)[0]!.length });
  }
  return out;
}

/** Is the quote at `at` inside what the request keeps out of the change ("retries" of "keep retries as they are"), without the words that keep it? */
function insideKept(req: string, at: number, length: number): string | undefined {
  return forbiddenSpans(req).find((sp) => at >= sp.start && at + length <= sp.end)?.why;
}

/** A text with what it keeps out of the change blanked: "… and do not change HTTPAdapter.send" names no code to change. */
export function keptOutRemoved(text: string): string {
  const t = text.normalize('NFKC');
  return forbiddenSpans(t).sort((a, b) => b.start - a.start).reduce((out, sp) => out.slice(0, sp.start) + ' '.repeat(sp.end - sp.start) + out.slice(sp.end), t);
}

/**
 * The words of the request that rule a quote out of the change: a quote the request says not to
 * change ("do not change the admin report" → "the admin report", 管理レポートは変更しないで →
 * 管理レポート), or a change quoted without the negation that forbids it ("change the admin report"
 * out of "do not change the admin report"). Judged at every place the quote occurs; undefined when
 * one of them is not ruled out. `req` and `quote` are normalized.
 */
export function ruledOut(req: string, quote: string): string | undefined {
  let found: string | undefined;
  for (let at = req.indexOf(quote); at >= 0; at = req.indexOf(quote, at + 1)) {
    const before = req.slice(Math.max(0, at - 80), at);
    const after = req.slice(at + quote.length, at + quote.length + 40);
    // any action a negation comes right before or after, not only a change: "do not | destroy the
    // previous stream" (red team adv39: `destroy` was no change verb, and the reversed action was FACT)
    const endsWithVerb = /[\p{Script=Han}\p{Script=Katakana}ー][\p{Script=Hiragana}]{0,2}$/u.test(quote) && !/^[でじ]/u.test(after);
    const why = RULED_OUT.map((r) => r.exec(before)?.[1]).find(Boolean)
      ?? NEGATION_BEFORE.exec(before)?.slice(1).find(Boolean)
      ?? inForbiddenClause(before)
      ?? insideKept(req, at, quote.length)
      ?? RULED_OUT_JA.exec(after)?.[1]
      ?? (endsWithVerb ? NEGATION_AFTER_JA.exec(after)?.[1] : undefined);
    if (!why) return undefined;
    found ??= why.trim();
  }
  return found;
}

/** A quote's verdict that what it names is wrong: "… is a bug", "… is deprecated and should be removed", …はバグ, …是多余的. */
const JUDGED_BAD = /\b(?:is|are|was|were|seems?|looks?)\s+(?:(?:a|an|really|clearly|just)\s+)*(?:bug|wrong|broken|incorrect|buggy|deprecated|mistake|error|unwanted|undesired|unexpected|redundant|unnecessary|harmful|dangerous)\b|\b(?:should|must|needs?\s+to)\s+(?:be\s+)?(?:removed|deleted|dropped|gone|fixed|avoided|stopped)\b|(?:バグ|間違い|誤り|不要|非推奨|おかしい|不具合)(?:です|だ|である)?(?=[。、\s]|$)|削除(?:すべき|してほしい)|是(?:个|一个)?(?:bug|错误|问题)|多余|已弃用|应该(?:删除|去掉|移除)/iu;
/** Words that ask for what is wrong to be put right (the value then states the fix, not the fault). */
const FIXING = /\b(?:fix|fixes|fixing|remove|removing|stop|stops|avoid|prevent|delete|drop|correct|repair|deprecate|replace|eliminate|get\s+rid)\b|削除|修正|直|止め|防|删除|修复|去掉|避免|防止|移除/iu;

/**
 * A desired action that keeps what its quote calls wrong but not the verdict: "Sending the body twice"
 * for "Sending the body twice is a bug" asks for the bug (red team adv79). The words of the verdict, or undefined.
 */
function judgementDropped(value: string, quote: string): string | undefined {
  const [v, q] = [value.normalize('NFKC'), quote.normalize('NFKC')];
  const m = JUDGED_BAD.exec(q);
  if (!m || JUDGED_BAD.test(v) || FIXING.test(v)) return undefined;
  // (a value taken from what the quote asks after its verdict is the fix: "throw an error …" of "… is a
  // bug and should throw an error instead" — red team adv81)
  const [before, after] = [frameWords(q.slice(0, m.index)), frameWords(q.slice(m.index + m[0].length))];
  if (frameWords(v).some((w) => after.some((x) => sameFrameWord(w, x)) && !before.some((x) => sameFrameWord(w, x)))) return undefined;
  return m[0].trim();
}

/**
 * The target is the behaviour the quote negates, not code it keeps out of the edit: "retry" of "ky
 * should not retry it" (agent trial tr151) — the negation stands right before it, and it is no verb
 * of editing ("other errors" of "do not change how other errors are thrown" stays ruled out).
 */
function negatedBehaviour(quote: string, value: string): boolean {
  // (a name of code after "not" is code set aside, "…, not app.render()": red team adv79)
  if (EDIT_VERB.test(value) || /[.()#]|[a-z][A-Z]/.test(value)) return false;
  const at = quote.indexOf(value);
  return at > 0 && /(?:\b(?:not|never|no\s+longer)|n['’]t)\s+$/i.test(quote.slice(Math.max(0, at - 40), at)) && !/,\s*not\s+$/i.test(quote.slice(Math.max(0, at - 40), at));
}
const EDIT_VERB = /^(?:change|modify|touch|alter|edit|rewrite|refactor|break|affect|remove|delete|rename)\w*$/i;

/** Where a clause ends: punctuation, or a conjunction that starts another. */
// (a dot, colon or comma inside a word ends nothing: `ctx.assert`, `a:b`, `1,000` — red team adv44)
const CLAUSE_END = /[.:,](?![A-Za-z0-9_$])|[;!?。；：！？，、]|(?:^|[^\p{L}])(?:and|but|or|instead|then|so|while|whereas|however|unless|until)(?![\p{L}])/iu;

/**
 * The forbidding words when a quote starts inside the clause they forbid changing, however far in:
 * "URLs are combined" of "do not change how relative URLs are combined" (red team adv40 cut the quote
 * one word past RULED_OUT's reach).
 */
function inForbiddenClause(before: string): string | undefined {
  let last: RegExpExecArray | undefined;
  for (const re of [FORBIDS_EN, FORBIDS_ZH]) {
    const g = new RegExp(re.source, `${re.flags}g`);
    for (const m of before.matchAll(g)) if (!last || m.index! > last.index) last = m as RegExpExecArray;
  }
  if (!last) return undefined;
  const between = before.slice(last.index + last[0].length);
  return CLAUSE_END.test(between) ? undefined : last[1]!.trim();
}

/** A text turns its action around: by a negation, or by a stop ("hide NaN" says NaN を表示するのをやめる). */
const turned = (text: string, saidBy?: string): boolean => negated(text, saidBy) || STOP_SENSE.test(text.normalize('NFKC'));

/**
 * Does a value state the action its quote stops or prevents, without the stop ("delete users" for
 * "prevent users from being deleted", "show NaN" for NaN を表示するのをやめる)? A value that keeps
 * the stop, negates the action ("do not show NaN") or says its complement does not.
 */
function stopDropped(value: string, quote: string, translate?: (text: string) => string[]): string | undefined {
  const words = stoppedWords(quote);
  const v = value.normalize('NFKC');
  if (words.length === 0 || STOP_SENSE.test(v) || negated(v, quote)) return undefined;
  return statesNegated(value, quote, translate, words) ? words[0] : undefined;
}

/**
 * The value states the failure or absence its quote says by a negation ("login fails" for
 * ログインできない) in a word of its own — not a word the quote has besides its negation ("the error
 * is displayed" for エラーが表示されない names the error, and drops the negation), and not when absence
 * is what the quote negates ("JSON null" for null ではない).
 */
function failureStated(value: string, quote: string, translate?: (text: string) => string[]): boolean {
  if (negatedWords(quote).some((w) => NEGATIVE_SENSE.test(` ${w}`))) return false;
  const quoteSenses = new Set([...quote.normalize('NFKC').split(/[^\p{L}\p{N}]+/u), ...(translate?.(quote) ?? [])].flatMap(senseOf));
  const words = value.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean).flatMap((w) => (CJK.test(w) ? cjkContentWords(w) : [w]));
  return words.some((w) => {
    const mine = [w, ...(CJK.test(w) ? (translate?.(w) ?? []) : [])].flatMap(senseOf);
    return mine.length > 0 && !mine.some((x) => quoteSenses.has(x));
  });
}

/** The failure or absence a word states (fail of "fails", エラー), as NEGATIVE_SENSE matched it. */
const senseOf = (word: string): string[] => {
  const m = NEGATIVE_SENSE.exec(` ${word.toLowerCase()}`);
  return m ? [m[0].replace(/^[^\p{L}]+/u, '')] : [];
};

/**
 * A value keeps its quote's sense: it adds no negation, and drops none unless it states the failure
 * or absence in words of its own. Across languages a dropped negation counts only where a word or a
 * verb's ending states it (not, ない, ません): a kanji compound negates by its first character
 * (不要 unnecessary, 非推奨 deprecated, 未使用 unused), which English says inside a word, so an honest
 * translation would read as a dropped negation (such a value is held to its quote by grounding and
 * by its actions instead); 少ない (few) and しないといけない (must) negate nothing. An added one is
 * judged across languages too ("do not add consumption tax" for 消費税を加える), unless the quote
 * states a failure, an absence or a stop (空 "no items", やめる "do not show"), or the value negates
 * the opposite of the quote's action ("not shown" for 非表示).
 */
function polarityKept(value: string, quote: string, translate?: (text: string) => string[], slot?: Slot): boolean {
  if (restrictionRestated(value.normalize('NFKC'), quote.normalize('NFKC'))) return true;
  // a target that only names code its quote writes states nothing to negate: "ctx.attachment()" from a
  // Japanese sentence that says 上書きせずに (agent trial tr150)
  if (slot === 'target_feature' && namesCodeOnly(value, quote)) return true;
  // (nor does the behaviour a quote negates, named as the feature: "retry" of "should not retry it" — tr151)
  if (slot === 'target_feature' && value.trim().split(/\s+/).length <= 3 && negatedBehaviour(normalize(quote), normalize(value))) return true;
  if (DOUBLE_NEGATION.test(value.normalize('NFKC')) && !DOUBLE_NEGATION.test(quote.normalize('NFKC'))) return false;
  if (REVERSAL_CJK.test(value.normalize('NFKC')) && !REVERSAL_CJK.test(quote.normalize('NFKC'))) return false;
  const [v, q] = [negated(value, quote), negated(quote)];
  // what goes wrong now is what the request asks not to happen: "throws an error" for エラーを投げずに
  // ("without throwing"), "the cart is emptied" for "do not empty the cart" (tr22) — not for a
  // quote that observes ("the error is displayed" for エラーが表示されない turns the observation around)
  // (a "do not change/touch …" is about the agent's edit, not the program: "change how the limit works"
  // observes nothing — red team adv48)
  if (slot === 'observed_issue' && !v && q && INSTRUCTION_NEGATION.test(quote.normalize('NFKC')) && !FORBIDS_EDIT.test(quote.normalize('NFKC'))) return true;
  // the same for what a request wants replaced: "reject them instead of leaving them pending forever"
  // observes that they are left pending (tr75)
  if (slot === 'observed_issue' && !v && q && ALTERNATIVE.test(quote.normalize('NFKC')) && !negated(quote.normalize('NFKC').replace(ALTERNATIVE_G, ' '))) return true;
  const qn = quote.normalize('NFKC');
  const vn = value.normalize('NFKC');
  if (CJK.test(value) !== CJK.test(quote)) {
    const opposite = !!opposedAction(value, quote, translate);
    if (v) return q || NEGATIVE_SENSE.test(qn) || STOP_SENSE.test(qn) || opposite;
    // dropped: only a negation a word or an ending states (a kanji prefix is English's un-, left to
    // grounding) — or a prefix before an action the value then states (不显示 "not shown" → "shown")
    const vActions = actionSides(vn, translate ?? (() => []));
    const actionDropped = negatedWords(quote).some((w) => [...actionSides(w, translate ?? (() => []))].some((a) => vActions.has(a)));
    // (a Chinese verb's negation is a word, as English's: 不发送 "does not send" — red team adv65 had "send the body" accepted for it)
    const plain = qn.replace(NOT_NEGATION, (m) => (m === '没有' ? '没' : ' ')).replace(INCLUSION, ' ');
    return (!VERB_NEGATION.test(plain) && !(ZH_VERB_NEGATION.test(plain) && !KANA.test(plain)) && !actionDropped) || failureStated(vn, quote, translate) || STOP_SENSE.test(vn) || opposite || !statesNegated(value, quote, translate);
  }
  // both negated: the value must negate what the quote negates, not another part of it (red team
  // adv27: "…, not as a plain function" for "… a plain function, not only as an object …")
  if (v && q) return sameNegated(value, quote, translate) || (DOUBLE_NEGATION.test(qn) && !DOUBLE_NEGATION.test(vn) && sameNegated(value, doubleResolved(qn), translate));
  return v === q || (!v && q && (failureStated(vn, quote, translate) || stopsNegated(vn, quote) || failingRestated(vn, qn) || !statesNegated(value, quote, translate) || restatesUnnegated(value, quote, SCOPE_LEXICON)));
}

/**
 * A quote whose negation is a failure ("fails to close the response") restated by a value that says
 * the failure in every sentence that names what fails ("closing the response fails") — not one that
 * says it in one sentence and the opposite in the next ("res.redirect is unable. It does reject …":
 * red team adv69).
 */
function failingRestated(value: string, quote: string): boolean {
  if (!FAILING_WORD.test(quote)) return false;
  const words = negatedWords(quote).map((w) => stem(w.toLowerCase()));
  const sentences = value.split(/[.;!?]\s|[.;!?]$|\n/).filter((x) => x.trim());
  const naming = sentences.filter((x) => latinStems(x).some((w) => words.some((n) => stemsMatch(w, n))));
  return naming.length > 0 && naming.every((x) => FAILED.test(x) || negated(x));
}

/** How many English negations a text says (not, never, n't, fails to, lacks, neither, nor …). */
const negatorsIn = (text: string): number => [...text.normalize('NFKC').replace(LITERAL, ' ').replace(INCLUSION, ' ').matchAll(NEGATOR_COUNT)].length;
const NEGATOR_COUNT = new RegExp(String.raw`(?:^|[^\p{L}\p{N}])(?:not|never|no|without|cannot|neither|nor|unless|instead\s+of|rather\s+than|${FAILING})(?![\p{L}\p{N}])|n['’]t(?![\p{L}\p{N}])`, 'giu');
/** How many Japanese and Chinese negations a text states (ない, ず, 不, 没 before a verb …). */
const cjkNegatorsIn = (text: string): number => [...text.normalize('NFKC').replace(LITERAL, ' ').replace(NOT_NEGATION, (m) => (m === '没有' ? '没' : ' ')).replace(INCLUSION, ' ').matchAll(CJK_NEGATOR)].length;
const CJK_NEGATOR = /ない|なかっ|なく|ません|なし(?=[でにのと、。\s]|$)|ず(?:に|[、。]|$)|(?:不要|不用|不必|无需|无须|[不没别勿未])(?=\s*\p{Script=Han})/gu;
/** Words and negations as the clause check reads them (clause-scope.ts). */
const SCOPE_LEXICON: ScopeLexicon = {
  words: (text) => [...latinStems(text), ...cjkContentWords(text)],
  negations: (text) => negatorsIn(text) + cjkNegatorsIn(text),
};
/** A word that says a thing failed or is absent (not only an error: "report an error when it has a brace" negates nothing). */
const FAILED = /(?:^|[^\p{L}])(?:fail|unable|lack|miss|absent)/iu;
/** Japanese and Chinese that deny a whole statement: 設定しないわけではない, ないことはない, なくない, 并非不, 并不是 (red team adv71). */
const REVERSAL_CJK = /わけ(?:では|じゃ)(?:ない|ありません)|(?:ない|ません)ことは(?:ない|ありません)|なくは?ない|并非|并不是|绝非|未必|不是不|没有不|不会不/u;
/**
 * A quote with its negations of a negation said plainly: "does not fail to set it when the name is
 * not ASCII" says "set it when the name is not ASCII" (adv71's honest refusal: the value that says it
 * so was refused by the count of negations).
 */
const doubleResolved = (quote: string): string => quote.replace(new RegExp(DOUBLE_NEGATION.source, 'giu'), ' ');
/** A negation of a negation: "is unable to fail to reject" says it rejects (red team adv69). */
const DOUBLE_NEGATION = new RegExp(String.raw`(?:^|[^\p{L}])(?:not|never|cannot|n['’]t|${FAILING})\s+(?:[\p{L}]+\s+)?(?:not|never|${FAILING}|fail(?:s|ed|ing)?|stop|avoid|prevent)(?![\p{L}])`, 'iu');

/**
 * A quote cut off from the negation right before it in the request: "reject a status code" out of
 * "res.redirect fails to reject a status code" (red team adv69 had it FACT for a value without one).
 */
function negationCutOff(req: string, quote: string): string | undefined {
  let found: string | undefined;
  for (let at = req.indexOf(quote); at >= 0; at = req.indexOf(quote, at + 1)) {
    const m = CUT_NEGATION.exec(req.slice(Math.max(0, at - 40), at));
    if (!m) return undefined;
    found ??= (m[1] ?? m[2])!.trim();
  }
  return found;
}
/**
 * The stop a quote is cut from: "logging the request body" of "stop logging the request body", ログの
 * 出力 of ログの出力をやめて, 记录请求体 of 停止记录请求体 — the action without the word that ends it
 * (red team adv86's nominal forms). Returns the stop's words; undefined where some occurrence keeps it.
 */
function stopCutOff(req: string, quote: string): string | undefined {
  let found: string | undefined;
  for (let at = req.indexOf(quote); at >= 0; at = req.indexOf(quote, at + 1)) {
    const m = STOP_BEFORE.exec(req.slice(Math.max(0, at - 40), at)) ?? STOP_AFTER_JA.exec(req.slice(at + quote.length, at + quote.length + 20));
    if (!m) return undefined;
    found ??= (m[1] ?? m[2])!.trim();
  }
  return found;
}
const STOP_BEFORE = /(?:(?:^|[^\p{L}])((?:stop|stops|stopping|quit|quits|cease|ceases|avoid|avoids|prevent|prevents|no\s+longer|refrain\s+from))|(停止|不再|避免|防止|禁止|阻止|取消|别再|不要再))\s*$/iu;
const STOP_AFTER_JA = /^\s*([をはも]\s*(?:やめ|止め|辞め|停止|中止|廃止|禁止|防|避け|無く|なく[しすせ]))/u;

// (n't ends a word: "doesn't | reject …")
/**
 * The condition a quote is cut from: "设置 Content-Length" out of "只有在没有 … 的情况下才设置
 * Content-Length" states the action without the only case it may happen in (red team adv85).
 * Returns the condition's words; undefined where some occurrence keeps it.
 */
function conditionCutOff(req: string, quote: string, trigger?: string): string | undefined {
  let found: string | undefined;
  for (let at = req.indexOf(quote); at >= 0; at = req.indexOf(quote, at + 1)) {
    const sentence = req.slice(0, at).split(/[。！？!?;；\n]|\.\s/u).pop()!;
    const rest = req.slice(at + quote.length).split(/[。！？!?;；\n]|\.\s/u)[0]!;
    // 只有 C 才 | A, 只要 C 就 | A, C の場合に限り | A, "| A | if C" (red team adv86: 才, 就, に限り, a trailing "if … not")
    const zh = /(只有|仅当|仅在|只在|只要|仅)[^。]*?$/u.exec(sentence);
    const cut = zh && (/[才就]\s*$/u.test(sentence) || /^\s*[才就]/u.test(quote)) ? `${zh[1]}…${/只要/u.test(zh[1]!) ? '就' : '才'}`
      : /(?:に限り|に限って|場合のみ|ときのみ|時のみ)\s*$/u.test(sentence) || /^\s*に限/u.test(quote) ? '…に限り'
      // (English: only where "only" ties the action to it — "Only add X if C"; a plain "X when C" puts C in trigger_condition)
      : /\bonly\b/i.test(`${sentence.slice(-40)} ${quote}`) || /^\s*,?\s*only\b/i.test(rest) ? /^\s*,?\s*(?:only\s+)?(?:if|when|whenever|unless|as\s+long\s+as|provided)\b/i.exec(rest)?.[0].trim() : undefined;
    if (!cut) return undefined;
    // the condition quoted in trigger_condition is kept there: the frame states it
    if (trigger && (sentence.includes(trigger) || rest.includes(trigger) || trigger.includes(rest.trim().slice(0, 40)))) return undefined;
    found ??= cut;
  }
  return found;
}
/**
 * The condition a desired_action's own quote ties the action to ("only treat the pager as raw-mode
 * capable when one of its options really enables raw control characters"), left out of the value or
 * cut to a stub ("… when one of its options": red team adv89). Returns the condition; undefined where kept.
 */
function conditionDropped(value: string, quote: string, trigger?: string): string | undefined {
  const q = quote.normalize('NFKC');
  // (English "only … when C", where the sentence ties the action to C; a Japanese or Chinese aside such as
  // （同じオリジンの場合のみ） is left to the honest-frame oracle's judgement, which takes it out of the value)
  const m = /(?<!\bnot\s)\bonly\b[^.;]*?\b(?:when|whenever|if|unless|as\s+long\s+as|provided)\b([^.;]*)/i.exec(q);
  if (!m || (trigger && normalize(m[1]!).includes(trigger))) return undefined;
  const v = value.normalize('NFKC').replace(/^\s*(?:[才就]|に限り|に限って|only\b)/iu, '');
  if (!STATES_CONDITION.test(v)) return m[0].trim().slice(0, 100);
  // in one script the value must say at least half of the condition's words
  if (CJK.test(v) !== CJK.test(m[1]!)) return undefined;
  const cond = [...contentUnits(m[1]!)];
  const said = contentUnits(v);
  return cond.length >= 2 && cond.filter((u) => meets(u, said)).length * 2 < cond.length ? m[0].trim().slice(0, 100) : undefined;
}

/** A value that states a condition of its own (it may keep the quote's). */
const STATES_CONDITION = /\b(?:when|whenever|if|unless|once|while)\b|只有|只要|仅|只在|(?<!同)时|的情况下|場合|とき|のみ|だけ|限り/iu;

/**
 * The condition clause a quote lies wholly inside: "设置了 Transfer-Encoding 头" of "在响应已经设置了
 * Transfer-Encoding 头时，…", "the header is set" of "… when the header is set". It says when, not
 * what to do: no desired_action (red team adv85 quoted it as "set the Transfer-Encoding header").
 */
function insideCondition(req: string, quote: string): string | undefined {
  let found: string | undefined;
  for (let at = req.indexOf(quote); at >= 0; at = req.indexOf(quote, at + 1)) {
    const before = req.slice(0, at).split(/[，。,;；！？!?\n]|\.\s/u).pop()!;
    const after = req.slice(at + quote.length).split(/[，。,;；！？!?\n]|\.\s/u)[0]!;
    const zh = /(?:在|当|如果|若|假如|一旦)/u.test(before) && /^[^，。]*?(?:时|的情况下|的时候|之时)\s*$/u.test(after);
    const en = /\b(?:when|whenever|if|once|while|in\s+case)\b/i.test(before) && !/\b(?:then)\b/i.test(before);
    const ja = /^[^、。]*?(?:とき|時|場合|なら|際)(?:に|は|には|でも)?\s*$/u.test(after);
    if (!zh && !en && !ja) return undefined;
    found ??= `${before}${quote}${after}`.trim();
  }
  return found;
}

// (a Chinese negation needs no space: a quote cut right after 没 or 不要再 — red team adv85's 有 Transfer-Encoding 的情况下 out of 没有 …)
const CUT_NEGATION = new RegExp(String.raw`(?:(?:^|[^\p{L}])(not|never|no|cannot|without|${FAILING})|(n['’]t|(?:不要|不用|不必|不许|不得|不再|别|勿|没有|没|未|无|不)(?:再|又|还|也|重复|继续|额外|另外)?))\s*$`, 'iu');


/** A value that stops what its quote negates says the same: "stop ignoring" for "no longer ignore". */
function stopsNegated(value: string, quote: string): boolean {
  const stopped = stoppedWords(value).map((w) => stem(w.toLowerCase()));
  return stopped.length > 0 && negatedWords(quote).some((w) => stopped.some((x) => stemsMatch(x, stem(w.toLowerCase()))));
}

/** Does a negated value negate a word its quote negates (or one of them cannot be told)? */
function sameNegated(value: string, quote: string, translate?: (text: string) => string[]): boolean {
  const [vw, qw] = [negatedWords(value), negatedWords(quote)];
  if (vw.length === 0 || qw.length === 0) return true;
  const stems = (ws: string[]) => ws.map((w) => stem(w.toLowerCase()));
  // (a Japanese verb and its kango share their first kanji: 送らない and 送信しない negate one act)
  const kanjiKin = (x: string, y: string) => /^\p{Script=Han}/u.test(x) && (x.startsWith(y) || y.startsWith(x));
  // (a Japanese value for a Chinese quote: 追加しない negates what 不要再添加 does, both "add" — red team adv85)
  const rendered = (w: string) => (translate && CJK.test(w) ? translate(w).map(stem) : []);
  const sameSense = (x: string, y: string) => rendered(x).some((a) => rendered(y).some((b) => stemsMatch(a, b)));
  const meets = (a: string[], b: string[]) => a.some((x) => b.some((y) => stemsMatch(stem(x.toLowerCase()), stem(y.toLowerCase())) || kanjiKin(x, y) || sameSense(x, y)));
  // every word the quote negates that the value says is negated there too: keeping one negation of
  // two is no licence to drop the other ("reject … because it lacks a status check" for "is unable
  // to reject … because it lacks a status check": red team adv69)
  // (nor more: a negation added to the other ("… does not set no Content-Type header", "when the
  // body is not a Buffer") or before the whole ("it is not that …") turns it round — red team adv71)
  if (negatorsIn(value) !== negatorsIn(quote)) return false;
  if (meets(vw, qw)) return true;
  // one of the words right after the negation on either side, for a negation of the same kind: "never
  // redirect to any URL" negates what "not to any URL" does (red team adv30 was refused it for
  // `redirect`); "instead of other errors" does not replace what "do not change how other errors are
  // thrown" keeps (red team adv34)
  return (['plain', 'alternative'] as const).some((k) => {
    const [v, q] = [negatedWords(value, k), negatedWords(quote, k)];
    return meets(negatedSpan(value, k), q) || meets(v, negatedSpan(quote, k));
  });
}

/** The first content words after each English negation (up to NEGATED_SPAN of them): what it may be about. */
const NEGATED_SPAN = 3;
function negatedSpan(text: string, kind?: NegationKind, span = NEGATED_SPAN): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').replace(LITERAL, ' ').replace(INCLUSION, ' ').matchAll(new RegExp(`(?:^|[^\\p{L}\\p{N}])(${NEGATOR_EN})\\s+([^.;:!?。、]{0,80})`, 'giu'))) {
    if (kind && kindOf(m[1]!) !== kind) continue;
    out.push(...m[2]!.split(/[^\p{L}\p{N}_$]+/u).filter((w) => w && !LATIN_STOP.has(w.toLowerCase())).slice(0, span));
  }
  return out;
}

/** A quote that runs from one sentence into the next (". D", "。ユ"): it joins statements the request keeps apart. */
export function spansSentences(quote: string): boolean {
  const q = quote.normalize('NFKC').trim();
  const plain = q.replace(/\b(?:e\.g|i\.e|etc|vs|cf|approx|No)\./gi, ' ');
  return /[.!?][\s]+\S/u.test(plain) || /[。!?]\s*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(q) || /\n\s*\S/.test(q);
}

/**
 * A word a reader takes for another: a Cyrillic or Greek letter among Latin ones (remоve with a
 * Cyrillic о) or an invisible character (re\u200Bmove). Such a value reads as one thing and is
 * checked as another: the opposite-action check missed "remоve consumption tax" for 消費税を加える.
 */
export function lookAlike(value: string): string | undefined {
  const invisible = /[\p{Cf}]/u.exec(value);
  if (invisible) return `U+${invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return value.split(/[^\p{L}\p{N}_$]+/u).find((w) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(w) && (w.match(/\p{Script=Latin}/gu)?.length ?? 0) >= 2);
}

export function validateFrame(request: string, frame: QueryFrameInput, translate?: (text: string) => string[]): { errors: SlotError[]; validated: Slot[] } {
  const req = normalize(request);
  const errors: SlotError[] = [];
  const validated: Slot[] = [];
  let named: string[] | undefined; // the request's words that name things (for target_feature; its start is enough to know)
  for (const slot of SLOTS) {
    const s = frame[slot];
    if (!s) continue;
    let opposed: [string, string] | undefined;
    let odd: string | undefined;
    let stopped: string | undefined;
    let ruled: string | undefined;
    let cut: string | undefined;
    let swapped: string | undefined;
    let replaced: [string, string] | undefined;
    let judged: string | undefined;
    let foreign: string[];
    const quote = normalize(s.quote);
    if (!quote) errors.push({ slot, error: 'quote is empty' });
    else if (!req.includes(quote)) errors.push({ slot, error: `quote not found in the user's request: "${s.quote}"` });
    else if ((slot === 'target_feature' || slot === 'desired_action') && (ruled = ruledOut(req, quote)))
      errors.push({ slot, error: `quote "${s.quote}" is what the request rules out ("${ruled}"): the ${slot} is what it asks for — quote that, or quote the negation with it` });
    // the feature taken from inside the clause that rules it out: "other errors" quoting "do not change
    // how other errors are thrown" (red team adv36)
    else if (slot === 'target_feature' && ((quote.includes(normalize(s.value)) && normalize(s.value) && !negatedBehaviour(quote, normalize(s.value)) && (ruled = ruledOut(quote, normalize(s.value)))) || (ruled = fromExcluded(s.value, s.quote, false, translate))))
      errors.push({ slot, error: `target_feature "${s.value}" is what its quote "${s.quote}" rules out ("${ruled}"): the target_feature is what the request asks to change — quote that` });
    else if (contentUnits(s.quote).size === 0) errors.push({ slot, error: `quote "${s.quote}" has no content words: quote the words of the request that state the ${slot}` });
    else if (!normalize(s.value)) errors.push({ slot, error: 'value is empty' });
    else if ((odd = lookAlike(s.value))) errors.push({ slot, error: `value "${s.value}" has a word written with look-alike or invisible characters (${odd}): write it in plain letters` });
    else if (spansSentences(s.quote)) errors.push({ slot, error: `quote "${s.quote}" spans two sentences of the request: quote the words of one sentence that state the ${slot} (a request of several parts: the part this slot is about; the code of the other parts can still stand in VALIDATION, cited where it links to the accepted symbols)` });
    else if (slot !== 'target_feature' && (cut = negationCutOff(req, quote)) && !negated(s.value, s.quote) && !failureStated(normalize(s.value), `${cut} ${s.quote}`, translate))
      errors.push({ slot, error: `quote "${s.quote}" leaves out the negation right before it in the request ("${cut}"): quote it with the negation, and keep it in the value` });
    else if (slot === 'desired_action' && (cut = stopCutOff(req, quote)) && !STOP_SENSE.test(s.value.normalize('NFKC')) && !negated(s.value, s.quote))
      errors.push({ slot, error: `quote "${s.quote}" leaves out the stop right by it in the request ("${cut}"): the request asks for it to stop — quote the stop with it, and keep it in the value` });
    else if (slot === 'desired_action' && (cut = conditionCutOff(req, quote, frame.trigger_condition && normalize(frame.trigger_condition.quote))) && !STATES_CONDITION.test(s.value.normalize('NFKC').replace(/^\s*(?:[才就]|に限り|に限って|only\b)/iu, '')))
      errors.push({ slot, error: `quote "${s.quote}" leaves out the condition it holds under in the request ("${cut}"): quote the condition with it, and keep it in the value` });
    else if (slot === 'desired_action' && (cut = insideCondition(req, quote)))
      errors.push({ slot, error: `quote "${s.quote}" is part of a condition of the request ("${cut.slice(0, 120)}"): it says when, not what to do — quote what the request asks to be done (the condition belongs in trigger_condition)` });
    else if (!polarityKept(s.value, s.quote, translate, slot))
      errors.push({ slot, error: negated(s.value, s.quote) ? `value "${s.value}" states a negation its quote "${s.quote}" does not: quote the words of the request that say it (the quote must hold what the value states), or leave it out` : `value "${s.value}" drops the negation of its quote "${s.quote}": keep it (the request says the opposite), or quote only the words the value states` });
    else if (slot === 'desired_action' && (judged = judgementDropped(s.value, s.quote)))
      errors.push({ slot, error: `value "${s.value}" leaves out '${judged}' of its quote "${s.quote}": the request calls it wrong, so the desired_action is not it — quote what the request asks to be done (fix it, remove it), or keep the judgement` });
    else if (narrows(s.value) && !narrows(s.quote) && !exclusionRestated(s.value, s.quote))
      errors.push({ slot, error: `value "${s.value}" narrows to some cases ("only", "except") where its quote "${s.quote}" does not: the request does not narrow it — drop the restriction, or quote the words that state it` });
    else if ((cut = restrictionWidened(s.value, s.quote)))
      errors.push({ slot, error: `value "${s.value}" says '${cut}も/でも' (also, even) where its quote "${s.quote}" restricts '${cut}' (のみ, だけ) or takes it as its topic (は): keep the quote's particle, or drop the words it governs` });
    // a stop the quote does not state turns its action round: "戻るのをやめる" for "戻るようにしてください" (red team adv84)
    else if (STOP_SENSE.test(s.value.normalize('NFKC')) && !STOP_SENSE.test(s.quote.normalize('NFKC')) && !negated(s.quote) && !(translate?.(s.quote) ?? []).some((w) => STOP_SENSE.test(w)))
      errors.push({ slot, error: `value "${s.value}" stops or prevents what its quote "${s.quote}" asks for: state the quote's own action` });
    else if (widens(s.value) && !widens(s.quote))
      errors.push({ slot, error: `value "${s.value}" widens to every case ("all", "any", "always") where its quote "${s.quote}" does not: the request does not say it — drop the word, or quote the words that state it` });
    else if (slot !== 'observed_issue' && (stopped = stopDropped(s.value, s.quote, translate)))
      // what goes wrong now may be what the request asks to stop (as with an instruction's negation)
      errors.push({ slot, error: `value "${s.value}" states '${stopped}' where its quote "${s.quote}" stops or prevents it: keep the stop (the request says the opposite)` });
    else if ((opposed = opposedAction(s.value, s.quote, translate, turned(s.value, s.quote) !== turned(s.quote))))
      errors.push({ slot, error: `value "${s.value}" says ${opposed[0]} where its quote "${s.quote}" says ${opposed[1]}: the value must state the quote's action, not its opposite` });
    else if (slot === 'desired_action' && (cut = conditionDropped(s.value, s.quote, frame.trigger_condition && normalize(frame.trigger_condition.quote))))
      errors.push({ slot, error: `value "${s.value}" leaves out the condition its quote "${s.quote}" holds the action to ("${cut}"): keep the condition in the value` });
    // a word taken from a clause the request forbids changing, into what it asks for: "keep the baseURL
    // for relative and absolute URLs" where it says "do not change how relative URLs are combined" (red team adv40)
    else if (slot !== 'observed_issue' && (ruled = fromExcluded(s.value, request, slot !== 'target_feature', translate)))
      errors.push({ slot, error: `value "${s.value}" takes in what the request keeps out ("${ruled}" …): the ${slot} states what the request asks for — leave the other clause's words out, or keep its negation with them` });
    // the verb of a clause that keeps something out, taken without its negation into what is asked:
    // "change the delay between retries" for a quote that caps it, where the request says "do not
    // change the default delay computation" (red team adv45)
    // a keep or a "do not change" in the value over what the request asks to change: "keep ky.extend() as
    // it is", "do not change how hooks arrays are merged" quoting a request that asks to merge them (red team adv47)
    else if (slot !== 'observed_issue' && !quote.includes(normalize(s.value)) && (ruled = keepsAsked(s.value, request, s.quote)))
      errors.push({ slot, error: `value "${s.value}" keeps out ("${ruled}") what the request asks to change: state what it asks for, and keep out only what it keeps out` });
    else if (slot !== 'observed_issue' && (ruled = keptVerbTaken(s.value, s.quote, request)))
      errors.push({ slot, error: `value "${s.value}" says '${ruled}', a word the request uses only to keep something out ("${forbiddenSpans(request).map((f) => f.why).join('", "').slice(0, 120)}"), and its quote "${s.quote}" does not say it: state the quote's own action` });
    // (what is asked may turn round what the request observes: "make it set the header for a Buffer")
    else if (slot !== 'desired_action' && CJK.test(s.value) === CJK.test(request) && (swapped = importedSwapped(s.value, s.quote, request, SCOPE_LEXICON)))
      errors.push({ slot, error: `value "${s.value}" takes words from another part of the request and turns them round: ${swapped}. Keep the value to what its quote "${s.quote}" states (or quote that part with its own words)` });
    else if (CJK.test(s.value) === CJK.test(s.quote) && (swapped = scopeSwapped(s.value, s.quote, SCOPE_LEXICON, SCOPE_LEXICON.negations(s.value) === SCOPE_LEXICON.negations(s.quote))))
      errors.push({ slot, error: `value "${s.value}" turns its quote "${s.quote}" round: ${swapped}. Keep what each negation, each opposite and each direction governs as the quote has it` });
    // (the target_feature is judged as a set of words: "ObservableSet toggle method" may order its own)
    else if (slot !== 'target_feature' && (swapped = reorderedWord(s.value, s.quote)))
      errors.push({ slot, error: `value "${s.value}" does not keep the order of its quote "${s.quote}": ${swapped}. In the quote's own language the value is the quote's words in the quote's order — copy the part of the quote that states the ${slot}, dropping words but not moving them (a translation may order its words as its language does)` });
    else if ((foreign = inventedCode(s.value, request)).length > 0)
      errors.push({ slot, error: `value "${s.value}" names code the request does not name: ${foreign.slice(0, 6).join(', ')}. Name code only as the request does (the server finds the code from the request's words itself)` });
    else if (!isGrounded(s.value, s.quote, translate)) {
      const sup = support(s.value, s.quote, translate);
      errors.push({ slot, error: `value "${s.value}" says more than its quote "${s.quote}": ${sup.unsupported.slice(0, 6).join(', ')} ${sup.unsupported.length === 1 ? 'is' : 'are'} not in it. Keep the value to what the quote states (or quote more of the request)` });
    } else if ((foreign = foreignWords(s.value, s.quote, request, translate)).length > 1 || (foreign.length === 1 && !ownWordAllowed(slot, foreign[0]!, s.quote, s.value, translate))) {
      errors.push({ slot, error: `value "${s.value}" adds claims the request does not make: ${foreign.slice(0, 6).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} in no part of it. Keep the value to what the quote states` });
    } else if ((replaced = replacedWord(s.value, s.quote, request, translate))) {
      errors.push({ slot, error: `value "${s.value}" says '${replaced[0]}' where its quote "${s.quote}" says '${replaced[1]}': the value states what its quote says — take its words from the quote, not from another part of the request (or quote that part)` });
    } else if (slot === 'target_feature' && (thingsOf(s.value, translate).length === 0 || thingsOf(s.quote, translate).length === 0) && (named ??= thingsOf(request.slice(0, 4096), translate)).length > 0) {
      // validation scores symbols against the target alone: "追加" (add) would accept any add()
      errors.push({ slot, error: `target_feature "${s.value}" names no feature, only what is done to one: quote the words of the request that name what the change is about (it names ${[...new Set(named)].slice(0, 6).join(', ')})` });
    } else validated.push(slot);
  }
  return { errors, validated };
}

/**
 * The slots a request of each intent is expected to state (missing_slots lists only these): a new
 * feature has no observed issue and often no trigger, an investigation or a question only a subject.
 */
export const EXPECTED_SLOTS: Record<Intent, readonly Slot[]> = {
  MODIFY: SLOTS,
  IMPLEMENT: ['target_feature', 'desired_action'],
  INVESTIGATE: ['target_feature'],
  QUESTION: ['target_feature'],
};

/** seed 001: HIGH = MODIFY with the issue unknown; MEDIUM = IMPLEMENT or partly unknown; LOW = INVESTIGATE or all known. */
export function riskLevel(intent: Intent, missing: readonly Slot[]): Risk {
  if (!changesCode(intent)) return 'LOW';
  if (intent === 'MODIFY' && missing.includes('observed_issue')) return 'HIGH';
  if (intent === 'IMPLEMENT' || missing.length > 0) return 'MEDIUM';
  return 'LOW';
}

/** Why a frame has its risk, and what the risk asks of the agent (an agent met HIGH unexplained: tr116, tr117). */
export function riskReason(risk: Risk, intent: Intent, missing: readonly Slot[]): string {
  const own = riskLevel(intent, missing);
  if (own !== risk) return `${risk}: as set earlier in this session (a later frame or call never lowers it; this frame alone would give ${own}).`;
  switch (risk) {
    case 'HIGH':
      return 'HIGH: a MODIFY whose observed issue the request does not state (seed 001: a change with the issue unknown). It asks one thing more: submit_understanding needs mapped_symbols (an nl_term quoted from the request → a symbol you identified). A request for new behaviour states no issue: then leave observed_issue unset, there is nothing to find.';
    case 'MEDIUM':
      return `MEDIUM: ${intent === 'IMPLEMENT' ? 'a new feature' : `${missing.join(', ')} not stated by the request`}. mapped_symbols are welcome in submit_understanding, not required.`;
    default:
      return changesCode(intent) ? 'LOW: every slot the request is expected to state is set.' : `LOW: ${intent} sessions change no code.`;
  }
}

/** Per missing slot: what to look for and which tools help (seed 001's table). */
export const SLOT_GUIDANCE: Record<Slot, { hint: string; tools: string[] }> = {
  target_feature: { hint: 'Find the feature or component the request is about.', tools: ['query', 'get_symbols', 'analyze_structure'] },
  trigger_condition: { hint: 'Find when it happens: the input, event or code path that triggers it.', tools: ['search_text', 'find_definitions'] },
  observed_issue: { hint: 'Find what currently goes wrong: error messages, failing checks, wrong output. (A request for new behaviour may state no issue: then there is nothing to find.)', tools: ['search_text', 'query'] },
  desired_action: { hint: 'Find where the change belongs: the callers and structure around the target.', tools: ['find_references', 'analyze_structure'] },
};

export function investigationGuidance(missing: readonly Slot[]): { hints: string[]; recommended_tools: string[] } {
  const tools = new Set<string>();
  const hints: string[] = [];
  for (const slot of missing) {
    // the request does not state it: the code has to (a slot is never set from a guess)
    hints.push(`${slot} (not set: set it only with a quote of the request that states it; otherwise find it in the code): ${SLOT_GUIDANCE[slot].hint}`);
    SLOT_GUIDANCE[slot].tools.forEach((t) => tools.add(t));
  }
  return { hints, recommended_tools: [...tools] };
}

export function extractionPrompt(request: string): string {
  return [
    'Extract a QueryFrame from the user request below. For each slot you can fill, give a short `value` and a `quote`:',
    'an exact substring of the request that supports it, and a value in the quote\'s own words and language (not a translation).',
    'Leave out slots the request does not state; do not guess.',
    '- target_feature: the feature or component concerned, in the few words of the request that name it; not the symptom, the\n' +
    '  trigger or where it shows (those are the other slots): VALIDATION judges the code against this slot alone',
    '- trigger_condition: when or under what input it happens',
    '- observed_issue: what currently goes wrong',
    '- desired_action: what should be done',
    '',
    `Request: """${request}"""`,
  ].join('\n');
}
