/**
 * Text for the lexical backend: words from identifiers and prose in English, Japanese and Chinese,
 * and a request turned into concepts (each a set of English identifier words any of which
 * expresses it) through the JA/ZH→EN glossary (data/glossary.json) and the pairs mined from the
 * project itself.
 *
 * Japanese is segmented with TinySegmenter (npm `tiny-segmenter`): it loads in ~4 ms and weighs
 * 20 KB, where kuromoji needs ~650 ms and 40 MB of dictionary to load (measured on these machines);
 * for splitting a request into content words the difference in accuracy does not matter, because
 * known terms are found by longest match in the glossary first.
 */
import fs from 'node:fs';
import path from 'node:path';
import TinySegmenter from 'tiny-segmenter';
import { normalize, shortNumber, splitWords } from '../util/words.js';
import { PACKAGE_ROOT } from '../util/paths.js';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;
/** Words that carry no content of their own: articles, prepositions, auxiliaries, question words. */
export const FUNCTION_WORDS_EN = new Set(
  ('a an the of to in on for and or is are be by with from at as it its this that these those when if then not no do does should would can could ' +
    'please which will was were has have had been being into onto than so such also may might must ' +
    'how where what who why via per another').split(' '),
  // not stop words: every, some, all, any, first, last, using, … are names of functions; IDF weighs them
);
/** The verbs a request asks with ("add …", "fix …"): no concept of the code, though a compound's head may be one (autofix) */
export const REQUEST_VERBS_EN = new Set(['add', 'fix', 'make']);
export const STOP_EN = new Set([...FUNCTION_WORDS_EN, ...REQUEST_VERBS_EN]);
export const GENERIC_EN = new Set(['feature', 'function', 'functionality', 'system', 'logic', 'code', 'process', 'processing', 'handling', 'part', 'thing', 'stuff', 'implementation']);

let segmenter: TinySegmenter | undefined;
/** Japanese (and kanji) text into words. */
export function segmentJa(text: string): string[] {
  segmenter ??= new TinySegmenter();
  return segmenter.segment(text).map((w) => w.trim()).filter(Boolean);
}

/** Content words of a CJK run: segmented, without particles and endings (hiragana-only words), 2+ characters. */
export function cjkWords(run: string, singleKanji = false): string[] {
  return segmentJa(run).filter((w) => CJK.test(w) && !HIRAGANA_ONLY.test(w) && ([...w].length >= 2 || (singleKanji && /\p{Script=Han}/u.test(w))));
}

/** Identifier words keeping camelCase boundaries (normalize() lowercases, so split the raw text). */
export function identifierWords(text: string, singleKanji = false): string[] {
  const out: string[] = [];
  for (const chunk of text.normalize('NFKC').split(/[^\p{L}\p{N}ー]+/u)) {
    if (!chunk) continue;
    if (CJK.test(chunk)) {
      for (const part of chunk.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+)/u)) {
        if (!part) continue;
        for (const w of CJK.test(part) ? cjkWords(part, singleKanji) : splitWords(part)) out.push(w);
      }
    } else for (const w of splitWords(chunk)) out.push(w); // not push(...words): 100,000 arguments overflow the stack
  }
  return out;
}

/** Character trigrams of a word (with boundary marks), for fuzzy matching of word forms. */
export function trigrams(word: string): string[] {
  const w = `^${word}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= w.length; i++) out.push(w.slice(i, i + 3));
  return out;
}

/** Dice coefficient of two words' trigrams. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a), tb = new Set(trigrams(b));
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return (2 * common) / (ta.length + tb.size);
}

/**
 * How well two words match, 0..1: equal 1; one a prefix (4+ characters) of the other 0.9
 * (auth ~ authentication); close word forms by character trigrams (subscriber ~ subscription) up to 0.7.
 */
export function wordMatch(a: string, b: string): number {
  if (a === b) return 1;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && long.startsWith(short)) return 0.9;
  if (short.length >= 5 && short.slice(0, 3) === long.slice(0, 3)) {
    const s = trigramSimilarity(a, b);
    if (s >= 0.5) return 0.7 * s;
  }
  return 0;
}

// ---- glossary and mined pairs ----------------------------------------------------------------------

interface GlossaryFile {
  generic: string[];
  /** Chinese question words, pronouns and connectives: cut out of a request, no concept */
  stop?: string[];
  terms: Record<string, string[]>;
}

export interface Lexicon {
  /** normalised JA/ZH term → English words */
  terms: Map<string, { words: string[]; source: 'glossary' | 'mined' }>;
  /** keys longest first, for longest-match */
  keys: string[];
  generic: string[];
  /** words that say nothing a symbol could (为什么, 哪里, 它们), longest first */
  stop: string[];
}

let glossary: GlossaryFile | undefined;
export function loadGlossary(): GlossaryFile {
  glossary ??= JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'data', 'glossary.json'), 'utf8')) as GlossaryFile;
  return glossary;
}

let baseLexicon: Lexicon | undefined;
/** The glossary alone, or with a project's mined pairs (which never override a glossary entry). */
export function lexicon(mined: { term: string; word: string }[] = []): Lexicon {
  if (mined.length === 0 && baseLexicon) return baseLexicon;
  const g = loadGlossary();
  const terms = new Map<string, { words: string[]; source: 'glossary' | 'mined' }>();
  for (const [k, v] of Object.entries(g.terms)) terms.set(normalize(k), { words: v.map((w) => w.toLowerCase()), source: 'glossary' });
  for (const m of mined) {
    const k = normalize(m.term);
    const e = terms.get(k);
    if (!e) terms.set(k, { words: [m.word], source: 'mined' });
    else if (e.source === 'mined' && !e.words.includes(m.word)) e.words.push(m.word);
  }
  const longestFirst = (xs: string[]) => xs.sort((a, b) => b.length - a.length);
  const lex = { terms, keys: longestFirst([...terms.keys()]), generic: g.generic.map(normalize), stop: longestFirst((g.stop ?? []).map(normalize)) };
  if (mined.length === 0) baseLexicon = lex;
  return lex;
}

let synonyms: Map<string, Set<string>> | undefined;
/**
 * English words the glossary gives as alternatives of one term (削除: delete, remove, erase …):
 * near-synonyms, for forgiving a paraphrase, never for matching code.
 */
export function englishSynonyms(word: string): ReadonlySet<string> {
  if (!synonyms) {
    synonyms = new Map();
    for (const { words, source } of lexicon().terms.values()) {
      if (source !== 'glossary') continue;
      const en = words.filter((w) => /^[a-z]{3,}$/.test(w));
      for (const w of en) {
        let set = synonyms.get(w);
        if (!set) synonyms.set(w, (set = new Set()));
        for (const x of en) if (x !== w) set.add(x);
      }
    }
  }
  return synonyms.get(word.toLowerCase()) ?? new Set();
}

export interface Concept {
  /** English (or, for unmapped CJK words, the word itself) alternatives, any of which expresses the concept */
  words: string[];
  /** the request's own word(s) */
  term: string;
  source: 'glossary' | 'mined' | 'query';
  /** words that say part of it (the head of a compound the project writes apart: autofix → fix), matched at WEAK_DEGREE */
  weak?: string[];
}

/**
 * The degree a weak alternative of a concept matches with: below the accepted tier even in a name,
 * so a concept expressed only in part never accepts a symbol by itself (red team adv14: "filename"
 * accepted every *Name at 0.5); beside a concept matched whole it adds.
 */
export const WEAK_DEGREE = 0.25;

/** Every alternative of a concept with the degree a match of it is worth. */
export function alternativesOf(c: Concept): [string, number][] {
  return [...c.words.map((w): [string, number] => [w, 1]), ...(c.weak ?? []).map((w): [string, number] => [w, WEAK_DEGREE])];
}

/**
 * A request as concepts, the same for the same request in any language. Glossary and mined terms
 * are found by longest match (状態遷移 before 状態); a katakana term only as a word of its own or as
 * a part of a katakana compound (タブ is not in スタブ; アクションヘルパー is アクション + ヘルパー).
 * A term whose English word is a stop or generic word (追加 → add, 関数 → function) is dropped, as
 * that word is in an English request, and so are generic words (機能, 処理, feature, …). Every other content word stays a concept even when nothing translates it: a word
 * an English request keeps whether or not the code has it, so a Japanese or Chinese one must not
 * vanish and let the words that are left weigh more than they would in English. A conjugated verb
 * finds its dictionary form (渡さ → 渡す); Chinese, which has no spaces and which the Japanese
 * segmenter cuts badly, is split on its function characters into words of two or three.
 */
export function conceptsOf(text: string, lex: Lexicon = lexicon(), namesCode?: (word: string) => boolean): Concept[] {
  return conceptsWith(text, lex, namesCode, true);
}

/**
 * The English words the glossary gives for a text's Japanese and Chinese terms, stop words
 * included: what the text says, for checking a paraphrase against it (QueryFrame grounding: "add a
 * user" is what ユーザーを追加 says, though `add` is no concept to search code for).
 */
export function translationsOf(text: string, lex: Lexicon = lexicon()): string[] {
  return conceptsWith(text, lex, undefined, false).filter((c) => c.source !== 'query').flatMap((c) => c.words);
}

function conceptsWith(text: string, lex: Lexicon, namesCode: ((word: string) => boolean) | undefined, dropStop: boolean): Concept[] {
  const out: Concept[] = [];
  const seen = new Set<string>();
  const expressed = new Set<string>(); // every English word of a concept so far
  const stopWord = (w: string) => (STOP_EN.has(w) || GENERIC_EN.has(w)) && !namesCode?.(w);
  const add = (term: string, words: string[], source: Concept['source']) => {
    if (seen.has(term)) return;
    seen.add(term);
    if (dropStop && source !== 'query' && stopWord(words[0]!)) return;
    // a word the request also wrote in translation (飛ばす … skipHydrate) is one concept, as in English
    if (source === 'query' && expressed.has(term)) return;
    // an English alternative that is a stop word (可能 → can) would match any code
    const alternatives = dropStop ? words.filter((w, i) => i === 0 || !STOP_EN.has(w)) : words;
    const concept: Concept = { words: source === 'query' ? words : [...new Set([...alternatives, term])], term, source };
    for (const w of concept.words) expressed.add(w);
    out.push(concept);
  };
  const addTerm = (k: string) => {
    const e = lex.terms.get(k)!;
    add(k, e.words, e.source);
  };
  // identifiers are split before anything is lower-cased (server.onError → server, on, error); the
  // glossary's keys are matched on a lower-cased copy, and cut from both at the same places
  const cleaned = text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  const chinese = CJK.test(cleaned) && !KANA.test(cleaned);
  const cutter = new Cutter(cleaned);
  for (const k of lex.keys) {
    // one-character terms (行, 値, 数) only as words of their own (below), never inside 実行 or 変数
    if (!CJK.test(k) || [...k].length < 2) continue;
    if (cutter.cut(k)) addTerm(k);
  }
  for (const run of cutter.rest.match(KATAKANA_RUN) ?? []) {
    if (run.length > MAX_COMPOUND) continue; // no word: left to the segmenter (and the split is quadratic)
    const parts = katakanaParts(run, lex);
    if (parts.length && cutter.cut(run)) for (const p of parts) p.known ? addTerm(p.part) : add(p.part, [p.part], 'query');
  }
  for (const gen of lex.generic) if (CJK.test(gen)) cutter.cut(gen);
  // after the terms (为什么 is no 什么 once 为 … is cut; 时候 stays inside a term that has it)
  for (const w of lex.stop) cutter.cut(w);
  for (const word of chinese ? chineseWords(cutter.rest) : identifierWords(cutter.rest, true)) {
    // the segmenter leaves a particle on some words (に渡さ, の型, 値に)
    const w = word.replace(LEADING_PARTICLE, '');
    if (seen.has(w)) continue;
    if (CJK.test(w)) {
      const bare = w.replace(TRAILING_PARTICLE, '');
      const k = lex.terms.has(w) ? w : bare !== w && lex.terms.has(bare) ? bare : dictionaryForm(w, lex);
      if (k) addTerm(k);
      else if ([...w].length >= 2) add(w, [w], 'query');
      else seen.add(w);
    } else {
      if (w.length < 2 || shortNumber(w)) continue;
      // a stop word that names code in this project (when, set, next, has) is a word of the request
      if (stopWord(w)) continue;
      add(w, [w], 'query');
    }
  }
  return out;
}

/** A Japanese or Chinese word nothing translated: it can match only text in that language. */
export const untranslated = (c: Concept): boolean => c.source === 'query' && CJK.test(c.term);

const LEADING_PARTICLE = /^\p{Script=Hiragana}+(?=\p{Script=Han})/u;
/** a case particle after a noun (値に, 型を, キーが): the noun is the word */
const TRAILING_PARTICLE = /(?<=[\p{Script=Han}\p{Script=Katakana}ー])(?:から|まで|より|には|では|とは|への|に|を|が|は|の|で|と|も|へ|や)$/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const KATAKANA = /[\p{Script=Katakana}ー]/u;
const KATAKANA_RUN = /[\p{Script=Katakana}ー]{2,}/gu;
/** The longest katakana compound split into words, and the longest part of one (ホットアップデート is 9). */
const MAX_COMPOUND = 48;
const MAX_PART = 16;

/** The request's text with found terms blanked out, on an original and a lower-cased copy. */
class Cutter {
  rest: string;
  private lower: string;
  constructor(text: string) {
    this.lower = text.toLowerCase();
    // a lower-cased copy of another length cannot be cut at the same places: work on it alone
    this.rest = this.lower.length === text.length ? text : this.lower;
  }

  /** Blanks every occurrence of `k` that is a word of its own at its katakana ends; says whether one was. */
  cut(k: string): boolean {
    const starts: number[] = [];
    for (let i = this.lower.indexOf(k); i >= 0; i = this.lower.indexOf(k, i + k.length)) {
      const before = this.lower[i - 1] ?? '', after = this.lower[i + k.length] ?? '';
      if (KATAKANA.test(k[0]!) && KATAKANA.test(before)) continue;
      if (KATAKANA.test(k[k.length - 1]!) && KATAKANA.test(after)) continue;
      starts.push(i);
    }
    if (!starts.length) return false;
    // every occurrence blanked in one pass (splicing one at a time was quadratic: 64 KB took 7 s)
    const blank = ' '.repeat(k.length);
    const r: string[] = [], l: string[] = [];
    let from = 0;
    for (const i of starts) {
      r.push(this.rest.slice(from, i), blank);
      l.push(this.lower.slice(from, i), blank);
      from = i + k.length;
    }
    r.push(this.rest.slice(from));
    l.push(this.lower.slice(from));
    this.rest = r.join('');
    this.lower = l.join('');
    return true;
  }
}

/**
 * A katakana compound as the words that make it up: glossary terms (2+ characters) and words the
 * glossary does not know (3+ characters, so that スタブ is not ス + タブ), fewest characters left unknown
 * first, then fewest parts; none when no term is among them.
 */
function katakanaParts(run: string, lex: Lexicon): { part: string; known: boolean }[] {
  /** unknown: characters in parts the glossary does not know */
  type Path = { parts: { part: string; known: boolean }[]; unknown: number };
  const better = (a: Path, b: Path | undefined) => !b || a.unknown < b.unknown || (a.unknown === b.unknown && a.parts.length < b.parts.length);
  const best: (Path | undefined)[] = [{ parts: [], unknown: 0 }];
  const chars = [...run];
  for (let i = 0; i < chars.length; i++) {
    const head = best[i];
    if (!head) continue;
    for (let j = i + 2; j <= Math.min(chars.length, i + MAX_PART); j++) {
      const part = chars.slice(i, j).join('');
      const known = lex.terms.has(part);
      if (!known && j - i < 3) continue;
      const next = { parts: [...head.parts, { part, known }], unknown: head.unknown + (known ? 0 : j - i) };
      if (better(next, best[j])) best[j] = next;
    }
  }
  const whole = best[chars.length];
  return whole && whole.parts.some((p) => p.known) ? whole.parts : [];
}

/** A verb or adjective as written (渡さ, 使わ, 変わって) to the glossary's dictionary form (渡す, 使う, 変わる). */
function dictionaryForm(w: string, lex: Lexicon): string | undefined {
  const stem = /^\p{Script=Han}+/u.exec(w)?.[0];
  if (!stem || stem === w) return undefined;
  let best: string | undefined;
  for (const k of keysByFirst(lex).get(stem[0]!) ?? []) {
    if (k.length > stem.length && k.length <= stem.length + 3 && k.startsWith(stem) && HIRAGANA_ONLY.test(k.slice(stem.length)) && (!best || k.length < best.length)) best = k;
  }
  return best;
}

const byFirst = new WeakMap<Lexicon, Map<string, string[]>>();
/** A lexicon's keys by their first character. */
function keysByFirst(lex: Lexicon): Map<string, string[]> {
  let m = byFirst.get(lex);
  if (!m) {
    m = new Map();
    for (const k of lex.keys) (m.get(k[0]!) ?? m.set(k[0]!, []).get(k[0]!)!).push(k);
    byFirst.set(lex, m);
  }
  return m;
}

/**
 * The content words of a Chinese run (text with no kana), as cjkWords segments it, except where the
 * segmenter cut through a glossary term: there the term is one word (同样返回 had become 同, 样返,
 * 回: red team adv84). A term inside a longer segment (选项 of 新选项) is left as segmented, and stop
 * words (那样, 一个) and lone function characters (与, 和, 到) are no words.
 */
export function chineseContentWords(run: string, lex: Lexicon = lexicon()): string[] {
  const chars = [...run];
  const cuts = new Set<number>([0, chars.length]);
  let at = 0;
  for (const seg of segmentJa(run)) {
    const i = chars.indexOf(seg[0]!, at);
    if (i < 0) break;
    cuts.add(i);
    cuts.add(i + [...seg].length);
    // a negation the segmenter joined to its verb (不发送) or to a conjunction (但不) is a word of its own
    const sc = [...seg];
    const neg = sc.findIndex((c) => ZH_NEGATION.test(c));
    const rest = sc.length - neg - 1;
    if (neg >= 0 && ((rest >= 2 && !/[要会能用必得许再是]/u.test(sc[neg + 1]!)) || (rest === 0 && neg > 0))) {
      cuts.add(i + neg);
      cuts.add(i + neg + 1);
    }
    at = i + [...seg].length;
  }
  // a term (or a stop word) the segmenter cut into: one word, longest first, never overlapping
  const taken = new Array<boolean>(chars.length).fill(false);
  const text = chars.join('');
  for (const k of [...lex.keys, ...lex.stop]) {
    const kc = [...k];
    if (kc.length < 2 || !CJK.test(k)) continue;
    for (let i = text.indexOf(k); i >= 0; i = text.indexOf(k, i + 1)) {
      const from = [...text.slice(0, i)].length;
      const to = from + kc.length;
      if (taken.slice(from, to).some(Boolean)) continue;
      if (![...cuts].some((c) => c > from && c < to)) continue;
      for (let c = from + 1; c < to; c++) cuts.delete(c);
      cuts.add(from);
      cuts.add(to);
      taken.fill(true, from, to);
    }
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const stop = new Set(lex.stop);
  const out: string[] = [];
  for (let n = 0; n + 1 < sorted.length; n++) {
    const w = chars.slice(sorted[n], sorted[n + 1]).join('').trim();
    if (!w || stop.has(w) || !CJK.test(w) || HIRAGANA_ONLY.test(w)) continue;
    if ([...w].length === 1 && (!/\p{Script=Han}/u.test(w) || ((ZH_FUNCTION.test(w) || /[但却]/u.test(w)) && !ZH_NEGATION.test(w)))) continue;
    out.push(w);
  }
  return out;
}

/** Chinese function characters (的, 时, 在, 被 …): they separate words and are none. */
const ZH_FUNCTION = /[的地得了着过在中时被把对和与及或是将从到为以等个只都也就还又再更很最不没无其该此这那之而并且所让使给向于当则]/u;
const ZH_NEGATION = /^(?:不|没|无|非|别)$/u;

/** Leftover Chinese text as words: runs between function characters, in twos (a third joins the last). */
function chineseWords(rest: string): string[] {
  const out: string[] = [];
  for (const part of rest.split(/(\p{Script=Han}+)/u)) {
    if (!/\p{Script=Han}/u.test(part)) {
      for (const w of identifierWords(part)) out.push(w);
      continue;
    }
    for (const run of part.split(ZH_FUNCTION)) {
      const cs = [...run];
      if (cs.length === 1) out.push(run); // a word only where the glossary has it (键, 锁)
      for (let i = 0; cs.length >= 2 && i < cs.length; ) {
        const n = cs.length - i === 3 ? 3 : 2;
        out.push(cs.slice(i, i + n).join(''));
        i += n;
      }
    }
  }
  return out;
}

// ---- mining bilingual pairs from the project ---------------------------------------------------------

/** "日本語 (English)" and "English (日本語)" in prose. */
const PAREN_JA_EN = /([\p{Script=Han}\p{Script=Katakana}ー]{2,12})\s*[（(]\s*([A-Za-z][A-Za-z0-9 _.-]{1,40}?)\s*[)）]/gu;
const PAREN_EN_JA = /([A-Za-z][A-Za-z0-9_]{2,40})\s*[（(]\s*([\p{Script=Han}\p{Script=Katakana}ー]{2,12})\s*[)）]/gu;

export interface MinedPair {
  term: string;
  word: string;
  weight: number;
  source: 'comment' | 'parenthesis';
}

/**
 * Bilingual pairs from the project: (1) Japanese/Chinese comments right above symbols — a CJK
 * word that keeps appearing in the comments of symbols named with an English word is paired with
 * it; (2) "日本語 (English)" / "English (日本語)" patterns in comments and docs.
 */
export function minePairs(items: { doc: string; nameWords: string[] }[], prose: string[]): MinedPair[] {
  const lex = lexicon();
  const pairCount = new Map<string, number>();
  const termCount = new Map<string, number>();
  for (const it of items) {
    if (!CJK.test(it.doc)) continue;
    const terms = new Set(cjkWords(it.doc).filter((t) => !lex.generic.includes(t)));
    const names = new Set(it.nameWords.filter((w) => w.length >= 3 && !STOP_EN.has(w) && !GENERIC_EN.has(w)));
    for (const t of terms) {
      termCount.set(t, (termCount.get(t) ?? 0) + 1);
      for (const n of names) pairCount.set(`${t}\u0000${n}`, (pairCount.get(`${t}\u0000${n}`) ?? 0) + 1);
    }
  }
  const out: MinedPair[] = [];
  for (const [k, c] of pairCount) {
    const [term, word] = k.split('\u0000') as [string, string];
    const ratio = c / termCount.get(term)!;
    // seen together at least twice, or the only time the term was seen
    if (c >= 2 && ratio >= 0.5) out.push({ term, word, weight: Math.round(ratio * 100) / 100, source: 'comment' });
    else if (termCount.get(term) === 1) out.push({ term, word, weight: 0.5, source: 'comment' });
  }
  const seen = new Set(out.map((p) => `${p.term}\u0000${p.word}`));
  for (const text of prose) {
    for (const m of text.matchAll(PAREN_JA_EN)) addParen(m[1]!, m[2]!);
    for (const m of text.matchAll(PAREN_EN_JA)) addParen(m[2]!, m[1]!);
  }
  function addParen(ja: string, en: string) {
    for (const w of splitWords(en)) {
      if (w.length < 2 || STOP_EN.has(w)) continue;
      const key = `${ja}\u0000${w}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ term: ja, word: w, weight: 1, source: 'parenthesis' });
    }
  }
  return out;
}
