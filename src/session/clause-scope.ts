/**
 * What each negation, each of a pair of opposite actions, and each direction governs, clause by
 * clause. A QueryFrame value can keep every word of its quote and its count of negations and still
 * say the opposite: by moving the negation to another clause ("sends the body but does not send the
 * headers" for "does not send the body but sends the headers"), by swapping the objects of opposite
 * actions ("accepts numbers and rejects strings"), or by turning a direction round ("from https to
 * http"). Words are compared, not parsed: a word the quote says in one kind of clause only must stand
 * in that kind of clause in the value (red team adv72).
 */
import { actionSides } from './actions.js';
import { stem, stemsMatch } from './stem.js';

/** How the caller reads words and negations (queryframe.ts owns both lexicons). */
export interface ScopeLexicon {
  /** content words of a text: Latin as stems, CJK as segmented words */
  words(text: string): string[];
  /** how many negations a text states (English, Japanese and Chinese) */
  negations(text: string): number;
}

interface Segment {
  text: string;
  words: string[];
  /** the parity of the negations that govern it */
  negated: boolean;
  /** which side of each pair of opposites it states ("i:j", as actionSides gives them) */
  poles: Set<string>;
  /** a condition or a cause (when …, if …, …とき, 如果 …): an honest value may fold it into its main clause */
  subordinate: boolean;
  /** words it says by ellipsis: "not to any URL" after "redirect to a path" says redirect too */
  borrowed: string[];
  /** the clause it goes on from or into (a list item, a second verb), whose words it says too */
  from?: Segment;
}

const CJK_TEXT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Where a clause ends, whatever follows: sentence and clause punctuation (a comma between digits is a number's). */
const HARD_BREAK = /[;:!?；：！？，。]|,(?!\d)|\.(?=\s|$)/u;
/** English words that open a clause of their own. */
// ("otherwise", "else": the case the clause before excludes — red team adv79)
const EN_OPENER = String.raw`but|and|or\s+else|otherwise|else|or|nor|while|whereas|however|although|though|yet|so|instead\s+of|rather\s+than|without|unless|when|whenever|if|once|because|since|until|where`;
const EN_OPENS = new RegExp(String.raw`\s+(?=(?:${EN_OPENER})(?![\p{L}\p{N}_$]))`, 'iu');
const EN_OPENS_HERE = new RegExp(String.raw`^(?:${EN_OPENER})(?![\p{L}\p{N}_$])`, 'iu');
const EN_SUBORDINATE = /^(?:when|whenever|if|once|because|since|until|where)(?![\p{L}])/iu;
/** "and"/"or" that may go on with the clause before it (a list, a second verb under one "does not"). */
const EN_SOFT = /^(?:and|or|nor)(?![\p{L}])/iu;
/** A clause of its own after and/or: a verb with its own subject or tense (is, returns the …, sets it). */
export const EN_FINITE = /(?:^|\s)(?:is|are|was|were|has|have|had|does|did|do|will|would|can|could|should|must|may|might)(?![\p{L}])|(?:^|\s)[a-z]+(?:s|ed)\s+(?:the|a|an|its|their|this|that|these|those|it|them|no|any|all|some)(?![\p{L}])/iu;
// (而 inside 反而, 从而, 因而, 进而, 然而 and 当 inside 相当, 应当, 适当 open nothing)
const ZH_OPENS = /(?=但是|但|而且|(?<![反从因进然])而|却|可是|然而|不过|并且|同时|如果|假如|要是|因为|虽然|(?<![相应适正])当)/u;
const ZH_SUBORDINATE = /^(?:如果|假如|要是|若|当|因为)|(?:时|时候|的话)$/u;
// (a verb's negative joined to the next clause ends its clause too: 送信せずにヘッダーを送信する)
// (が after a predicate is "but": 送信しないが, 送るが, 送ったが; after a noun it marks the subject — red team adv76)
const JA_CLOSES = /(?<=けれども|けれど|けど|のに|ながら|ずに|ないで|なくて|ず(?=[^\p{Script=Hiragana}])|(?:ない|する|した|です|ます|だ|[るた])が(?=[\p{Script=Han}\p{Script=Katakana}a-zA-Z、\s]))/u;
// (a verb's plain form before と is a condition: 呼ぶと "when … calls", しないと; a noun before と is a list item)
const JA_SUBORDINATE = /(?:とき|時|場合|ので|から|ため|なら|たら|れば|[うくぐすつぬぶむる]と|ないと|際)[はにもで]?$/u;
/** A Japanese piece with no predicate of its own (a list item, a topic): the clause after it governs it. */
const JA_ARGUMENT = /(?:[はがをにへとやもの]|[^\p{Script=Hiragana}])$/u;

/** A clause that leaves its verb to the one before: "not to any URL", "but not the body", "never for HEAD". */
const ELLIPTIC = /^(?:(?:but|and|or)\s+)?(?:not|never|no|rather\s+than|instead\s+of)\s+(?:to|from|in|into|on|for|with|by|at|as|the|a|an|any|all|its|their|this|that)(?![\p{L}])/iu;
/** Words that negate or oppose: they make a clause's kind, they are not what it governs. */
const NEGATOR_STEMS = /^(?:never|without|cannot|unless|instead|rather|fail|unabl|neglect|lack|none|nothing|neither|nor|n't)/i;

/** Pairs of opposites beyond actions.ts's: only where the quote states both sides do they tell clauses apart. */
const MORE_POLES: [string, string][] = [
  ['accept', 'reject'], ['valid', 'invalid'], ['min minimum', 'max maximum'], ['first', 'last'], ['true', 'false'],
  ['encode', 'decode'], ['read', 'write'], ['sync', 'async'], ['upper', 'lower'], ['send', 'receive'], ['succeed success', 'fail failure'],
];
const MORE_POLE_STEMS = MORE_POLES.map((p) => p.map((side) => new Set(side.split(' ').map(stem))));

function polesOf(text: string): Set<string> {
  const out = actionSides(text, () => [], false);
  const stems = text.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean).map((w) => stem(w.toLowerCase()));
  MORE_POLE_STEMS.forEach((sides, i) => sides.forEach((side, j) => { if (stems.some((w) => side.has(w))) out.add(`m${i}:${j}`); }));
  return out;
}

/** The clauses of a text, each with what governs it. */
function segments(text: string, lex: ScopeLexicon): Segment[] {
  const t = text.normalize('NFKC');
  const japanese = JAPANESE.test(t);
  const pieces: { text: string; soft: boolean }[] = [];
  // (split keeps each break, so a piece after a comma is known: a list goes on after one)
  const hards = t.split(new RegExp(`(${HARD_BREAK.source}${japanese ? '|、' : ''})`, 'u'));
  for (let h = 0; h < hards.length; h += 2) {
    const afterComma = h > 0 && /^[,，]$/u.test(hards[h - 1]!);
    const parts = hards[h]!.split(EN_OPENS).flatMap((p) => p.split(ZH_OPENS)).flatMap((p) => (japanese ? p.split(JA_CLOSES) : [p]));
    parts.forEach((p, i) => {
      const text = p.trim();
      // (a Japanese or Chinese piece goes on from the next clause, if at all: below)
      if (text) pieces.push({ text, soft: !CJK_TEXT.test(text) && (i > 0 ? EN_SOFT.test(text) : afterComma && !EN_OPENS_HERE.test(text)) });
    });
  }
  const segs: Segment[] = pieces.map((p) => ({
    text: p.text,
    words: lex.words(p.text).filter((w) => !NEGATOR_STEMS.test(w) && polesOf(w).size === 0),
    negated: lex.negations(p.text) % 2 === 1,
    poles: polesOf(p.text),
    subordinate: EN_SUBORDINATE.test(p.text) || ZH_SUBORDINATE.test(p.text) || (japanese && JA_SUBORDINATE.test(p.text)),
    borrowed: [],
  }));
  segs.forEach((s, i) => { if (i > 0 && ELLIPTIC.test(s.text)) s.borrowed = segs[i - 1]!.words; });
  // "and validate the header" after "does not parse" is under its negation; "and sends the headers" is not
  segs.forEach((s, i) => {
    const prev = segs[i - 1];
    if (prev && pieces[i]!.soft && lex.negations(s.text) === 0 && !EN_FINITE.test(s.text.replace(EN_SOFT, ''))) inherit(s, prev);
  });
  // Japanese states the predicate last: "ボディ、ヘッダーを送信しない" negates the body too
  if (japanese) for (let i = segs.length - 2; i >= 0; i--) {
    const s = segs[i]!;
    if (!s.subordinate && lex.negations(s.text) === 0 && JA_ARGUMENT.test(s.text)) inherit(s, segs[i + 1]!);
  }
  return segs;
}

function inherit(s: Segment, from: Segment): void {
  s.from = from;
  s.negated = from.negated;
  if (s.poles.size === 0) s.poles = new Set(from.poles);
}

const same = (a: string, b: string) => a === b || stemsMatch(a, b);
/** Words as written, for a direction: http and https are one stem, and two ends of one. */
const PROTOCOL = /^(?:https?|wss?|ftps?|smtps?|imaps?|pop3s?)$/;
const sameWritten = (a: string, b: string) => a === b || (!(PROTOCOL.test(a) && PROTOCOL.test(b)) && stemsMatch(stem(a), stem(b)));

/**
 * A word the value puts in another kind of clause than its quote does, as a sentence for the
 * refusal; undefined when every word stands where the quote has it. `countNegations`: compare
 * negations too (the value says as many as its quote; otherwise other checks judge them).
 */
export function scopeSwapped(value: string, quote: string, lex: ScopeLexicon, countNegations: boolean): string | undefined {
  return clauseSwapped(value, quote, lex, countNegations) ?? directionSwapped(value, quote, lex);
}

function clauseSwapped(value: string, quote: string, lex: ScopeLexicon, countNegations: boolean): string | undefined {
  const q = segments(quote, lex);
  if (q.length < 2) return undefined;
  // only opposites the quote states in two clauses, one side in each, tell its clauses apart ("add a
  // method that drops the tasks" states both in one: it tells nothing)
  const other = (key: string) => key.replace(/\d$/, (j) => String(1 - Number(j)));
  const sides = (s: Segment) => [...s.poles].filter((key) => !s.poles.has(other(key)));
  const said = new Set(q.flatMap(sides));
  const kind = (s: Segment) => `${countNegations && s.negated ? 'negated' : ''}|${sides(s).filter((key) => said.has(other(key))).sort().join(',')}`;
  const homesOf = homes(q, lex);
  for (const v of segments(value, lex)) {
    const placed = v.words.map((w) => ({ w, homes: homesOf(w) })).filter((h) => h.homes.length > 0);
    for (const { w, homes } of placed) {
      if (new Set(homes.map(kind)).size > 1) continue;
      const home = homes[0]!;
      if (kind(home) === kind(v) || home.subordinate || v.subordinate) continue;
      return `'${spelt(w, v.text, lex)}' stands in "${v.text}" (${describe(v, kind(v))}) where its quote has it in "${home.text}" (${describe(home, kind(home))})`;
    }
    // a value that drops a negation may restate the clauses without one, not fuse a negated clause's
    // words with another's: "the cache is reset" for "the cache is not cleared but the timer is reset"
    if (countNegations) continue;
    const only = (negated: boolean) => placed.find((h) => h.homes.every((s) => s.negated === negated && !s.subordinate));
    const [inNegated, inPlain] = [only(true), only(false)];
    if (inNegated && inPlain)
      return `'${spelt(inNegated.w, v.text, lex)}' and '${spelt(inPlain.w, v.text, lex)}' stand together in "${v.text}" where its quote has the first in a clause it negates ("${inNegated.homes[0]!.text}") and the second in one it does not ("${inPlain.homes[0]!.text}")`;
  }
  return undefined;
}

/**
 * A word the value takes from another part of the request into a statement that turns that part
 * round: "the parser accepts strings and numbers" where the request says "It rejects numbers", "sets
 * the header for strings and for a Buffer" where it says "It does not set it for a Buffer" (grounding
 * lets a value take words from elsewhere in the request). Only where the value's clause states the
 * opposite action, or the other polarity of the same statement (a word of it besides the one taken):
 * "add a test for numbers" takes the word and states nothing against it.
 */
export function importedSwapped(value: string, quote: string, request: string, lex: ScopeLexicon): string | undefined {
  const r = segments(request.slice(0, 16_384), lex);
  if (r.length < 2) return undefined;
  const quoted = lex.words(quote);
  const other = (key: string) => key.replace(/\d$/, (j) => String(1 - Number(j)));
  const sides = (s: Segment) => [...s.poles].filter((key) => !s.poles.has(other(key)));
  const homesOf = homes(r, lex);
  for (const v of segments(value, lex)) {
    const said = [...v.words, ...(v.from?.words ?? [])];
    for (const w of v.words) {
      // (the quote's own: clauseSwapped judges them — a CJK word too whose characters the quote has: 名 of 名时)
      if (quoted.some((x) => same(w, x)) || (CJK_TEXT.test(w) && [...w].every((c) => quote.includes(c)))) continue;
      const hs = homesOf(w);
      if (hs.length !== 1 || hs[0]!.subordinate || v.subordinate) continue;
      const home = hs[0]!;
      const opposite = sides(v).find((key) => sides(home).includes(other(key)));
      const restated = v.negated !== home.negated && said.some((x) => x !== w && home.words.some((y) => same(x, y)));
      if (opposite || restated)
        return `'${spelt(w, v.text, lex)}' comes from "${home.text}" in the request, and "${v.text}" ${opposite ? 'states the opposite action' : home.negated ? 'drops its negation' : 'adds a negation to it'}`;
    }
  }
  return undefined;
}

/**
 * The clauses of a quote that say a word. The first clause's subject stands in every later clause
 * that has none of its own ("res.send" in "but sends the headers"), not in one that has ("the cache"
 * is not in "but the timer is reset").
 */
function homes(q: Segment[], lex: ScopeLexicon): (w: string) => Segment[] {
  const subject = leading(q[0]!.text, lex);
  const sharing = q.filter((s, i) => i === 0 || !ownSubject(s.text));
  return (w) => {
    const own = q.filter((s) => [...s.words, ...s.borrowed].some((x) => same(w, x)));
    return subject.some((x) => same(w, x)) ? [...new Set([...own, ...sharing])] : own;
  };
}

/** The words a clause opens with before its negation, its opposite or its verb: its subject or topic (res.sendは, 当 …). */
const EN_VERB_START = /(?:^|\s)(?:is|are|was|were|has|have|had|does|did|do|will|would|can|could|should|must|may|might|not|never|cannot|no)(?![\p{L}])|n['’]t(?![\p{L}])/iu;
function leading(text: string, lex: ScopeLexicon): string[] {
  const topic = /^(.+?)[はが]/u.exec(text);
  if (JAPANESE.test(text)) return topic ? lex.words(topic[1]!) : [];
  const words = text.split(/\s+/u);
  const end = words.findIndex((w, i) => i > 0 && (EN_VERB_START.test(` ${w}`) || polesOf(w).size > 0 || /[不没别勿未]/u.test(w)));
  const head = end < 0 ? words.slice(0, 1) : words.slice(0, end);
  // a Chinese subject runs up to its negation or verb inside one word: res.send不发送正文
  return lex.words(head.join(' ').split(/[不没别勿未]|发送|发|是/u)[0]!);
}

/** A stem as the text spells it (headers for head). */
const spelt = (w: string, text: string, lex: ScopeLexicon) => CJK_TEXT.test(w) ? w : text.split(/[^\p{L}\p{N}_$]+/u).find((t) => lex.words(t)[0] === w) ?? w;

/**
 * A value without a negation that restates only the clauses of its quote that have none: "res.send
 * sends the headers" for "res.send does not send the body but sends the headers". Every word of it
 * the quote says stands there in a clause without a negation, and one at least.
 */
export function restatesUnnegated(value: string, quote: string, lex: ScopeLexicon): boolean {
  if (lex.negations(value) > 0) return false;
  const q = segments(quote, lex);
  if (!q.some((s) => s.negated) || !q.some((s) => !s.negated)) return false;
  const homesOf = homes(q, lex);
  const placed = lex.words(value).filter((w) => !NEGATOR_STEMS.test(w)).map(homesOf).filter((h) => h.length > 0);
  return placed.some((h) => h.every((s) => !s.negated)) && placed.every((h) => h.some((s) => !s.negated));
}

/** A clause that names its own subject: "but the timer is reset", "ヘッダーは送信される" — not "but sends the headers". */
function ownSubject(text: string): boolean {
  if (CJK_TEXT.test(text)) return /[はが]/u.test(text);
  const rest = text.replace(EN_OPENS_HERE, '').trim();
  return /^(?:the|a|an|this|that|these|those|it|its|they|their|we|you|he|she)(?![\p{L}])/iu.test(rest) || /^[\p{L}\p{N}_$.]+\s+(?:is|are|was|were|has|have|had|does|did|do|will|would|can|could|should|must|may|might)(?![\p{L}])/iu.test(rest);
}

function describe(s: Segment, kind: string): string {
  const [neg, poles] = kind.split('|');
  const parts = [neg ? 'negated' : 'not negated'];
  if (poles) parts.push(`with ${s.text.split(/\s+/u).find((w) => polesOf(w).size > 0) ?? 'its action'}`);
  return parts.join(', ');
}

/** A direction or an order: [the words it starts from, the words it goes to]. */
type Direction = [string[], string[]];
const EN_DIRECTIONS: [RegExp, boolean][] = [
  [/(?:^|[^\p{L}])from\s+(.{1,40}?)\s+(?:to|into)\s+([^,;:.!?]{1,40})/giu, false],
  [/(?:^|[^\p{L}])(?:to|into)\s+(.{1,40}?)\s+from\s+([^,;:.!?]{1,40})/giu, true],
  [/([^,;:.!?]{1,40}?)\s+before\s+([^,;:.!?]{1,40})/giu, false],
  [/([^,;:.!?]{1,40}?)\s+after\s+([^,;:.!?]{1,40})/giu, true],
  // "convert the string to a number", "larger than the limit": the words on either side, in order
  [/([^,;:.!?]{1,40}?)\s+(?:to|into)\s+([^,;:.!?]{1,40})/giu, false],
  [/([^,;:.!?]{1,40}?)\s+than\s+([^,;:.!?]{1,40})/giu, false],
];
const CJK_DIRECTIONS: [RegExp, boolean][] = [
  [/([^\s、。，]{1,20}?)から([^\s、。，]{1,20}?)(?:へ|に|まで)/gu, false],
  [/从([^\s、。，]{1,20}?)(?:到|改为|改成|变为|变成|转为|转成|换成|切换到)([^\s、。，]{1,20})/gu, false],
];

function directions(text: string, lex: ScopeLexicon): Direction[] {
  const t = text.normalize('NFKC');
  const out: Direction[] = [];
  for (const [re, reversed] of [...EN_DIRECTIONS, ...CJK_DIRECTIONS]) {
    for (const m of t.matchAll(re)) {
      // as written, not as stems: http and https are one stem
      const written = (t: string) => t.toLowerCase().split(/[^\p{L}\p{N}_$]+/u).filter((w) => lex.words(w).length > 0);
      const [a, b] = [written(m[1]!).slice(-3), written(m[2]!).slice(0, 3)];
      if (a.length && b.length) out.push(reversed ? [b, a] : [a, b]);
    }
  }
  return out;
}

/** A value that turns a direction of its quote round: each side holds words of the quote's other side only. */
function directionSwapped(value: string, quote: string, lex: ScopeLexicon): string | undefined {
  const qs = directions(quote, lex);
  if (qs.length === 0) return undefined;
  for (const [from, to] of directions(value, lex)) {
    for (const [qFrom, qTo] of qs) {
      const only = (w: string, here: string[], there: string[]) => here.some((x) => sameWritten(w, x)) && !there.some((x) => sameWritten(w, x));
      const back = from.find((w) => only(w, qTo, qFrom));
      const forth = to.find((w) => only(w, qFrom, qTo));
      if (back && forth) return `it goes from '${back}' to '${forth}' where its quote goes from '${forth}' to '${back}'`;
    }
  }
  return undefined;
}

/** Openers that may stand before either of two clauses without changing what each says: "A but B" is "B, but A". */
const SYMMETRIC_OPENER = /^(?:and|but|or|nor|yet|however|although|though|while|whereas|但是|但|而且|而|却|可是|然而|不过|并且|同时)$/iu;

/**
 * A text cut at its clause punctuation and openers, each clause (without its opener) with its
 * opener: '' for none or one that may change places with another (and, but …), else the opener
 * ("instead of", "when", 如果).
 */
export function clausesWithOpeners(text: string): { text: string; opener: string }[] {
  const out: { text: string; opener: string }[] = [];
  const japanese = JAPANESE.test(text);
  for (const hard of text.normalize('NFKC').split(japanese ? new RegExp(`${HARD_BREAK.source}|、`, 'u') : HARD_BREAK)) {
    for (const piece of hard.split(EN_OPENS).flatMap((p) => p.split(ZH_OPENS)).flatMap((p) => (japanese ? p.split(JA_CLOSES) : [p]))) {
      const t = piece.trim();
      if (!t) continue;
      const raw = EN_OPENS_HERE.exec(t)?.[0] ?? /^(?:但是|但|而且|而|却|可是|然而|不过|并且|同时|如果|假如|要是|因为|虽然|当|否则|不然)/u.exec(t)?.[0]
        ?? /^(?:それ以外(?:の場合)?は|そうでなければ|さもなければ|そうでない(?:場合|とき)は)/u.exec(t)?.[0] ?? /^(?:then|before|after|than|over)(?![\p{L}])/iu.exec(t)?.[0] ?? '';
      const first = raw.replace(/\s+/g, ' ').toLowerCase();
      // ("stream it otherwise": a closing "otherwise" belongs to its clause)
      if (!t.slice(raw.length).trim() && /^(?:otherwise|else)$/.test(first) && out.length > 0) {
        out[out.length - 1]!.text += ` ${first}`;
        continue;
      }
      out.push({ text: t.slice(raw.length).trim(), opener: SYMMETRIC_OPENER.test(first) ? '' : first });
    }
  }
  return out;
}
