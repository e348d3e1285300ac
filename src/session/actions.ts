/**
 * The action a text states, as pairs of opposites (add/remove, show/hide, enable/disable …), so
 * that a QueryFrame value cannot say the opposite of its quote: grounding counts supported words,
 * and "remove consumption tax" has two of its three words in 消費税を加える. English words are
 * compared as stems; Japanese and Chinese through the JA/ZH→EN glossary, plus the verbs it leaves
 * out (加える, 外す …).
 */
import { cjkWords, englishSynonyms, GENERIC_EN } from '../embeddings/text.js';
import { stem } from './stem.js';

interface Side {
  /** English words (any inflection: compared as stems) */
  en: string[];
  /** Japanese / Chinese forms, matched inside the text */
  cjk: RegExp;
}
/** complementary: one side is the other's negation ("not shown" is hidden, "not enabled" disabled); "not add" is no removal */
type Pair = { name: [string, string]; sides: [Side, Side]; complementary?: true; /** a comparison (larger/smaller), not an action: asks for no change, names no doing */ compares?: true };

const side = (en: string, cjk: RegExp): Side => ({ en: en.split(' '), cjk });

/** Opposite actions. A word may stand in more than one pair (delete: remove, and destroy). */
const PAIRS: Pair[] = [
  { name: ['add', 'remove'], sides: [
    side('add append insert attach include put', /追加|加え|足す|足し|付け加|入れ|添加|加上|插入|放进|放入/u),
    side('remove delete drop erase exclude strip detach subtract omit wipe purge eliminate discard unset', /削除|除く|除き|除外|外す|外し|取り除|消す|消し|删除|移除|去掉|排除/u)] },
  { name: ['show', 'hide'], sides: [
    side('show shown display reveal unhide visible', /(?<!非)表示|显示/u),
    side('hide hidden conceal invisible', /非表示|隠す|隠し|隠れ|隐藏/u)], complementary: true },
  { name: ['enable', 'disable'], sides: [side('enable enabled activate', /有効|启用/u), side('disable disabled deactivate', /無効|禁用/u)], complementary: true },
  { name: ['increase', 'decrease'], sides: [
    side('increase increment raise grow', /増やす|増やし|増加|增加/u),
    side('decrease decrement reduce lower shrink', /減らす|減らし|減少|减少/u)] },
  { name: ['allow', 'deny'], sides: [side('allow permit', /許可|受け入れ|受け付け|受理|允许|许可/u), side('deny forbid disallow prohibit reject', /禁止|拒否|拒绝/u)], complementary: true },
  { name: ['open', 'close'], sides: [side('open', /開く|開け|打开/u), side('close', /閉じ|关闭/u)], complementary: true },
  { name: ['start', 'stop'], sides: [side('start begin launch', /開始|启动|开始/u), side('stop halt', /停止|止め|停下/u)] },
  { name: ['lock', 'unlock'], sides: [side('lock', /(?<!アン)ロック(?!解除)|锁定|加锁/u), side('unlock', /アンロック|ロック解除|解锁/u)], complementary: true },
  { name: ['create', 'destroy'], sides: [side('create generate', /作成|生成|创建/u), side('destroy dispose discard delete', /破棄|销毁/u)] },
  // a promise or a request settled one way or the other (red team adv31: "resolve" for "reject")
  // (not "accept": the glossary's near-synonyms of get include it, and GET would read as an action)
  { name: ['resolve', 'reject'], sides: [side('resolve fulfil fulfill', /解決|履行|兑现|接受/u), side('reject', /拒否|拒绝|リジェクト/u)], complementary: true },
  // a size, a length, an amount compared (red team: "smaller than the size" for "larger than the size",
  // its word taken from another clause of the request; not over/under, nor 以上/以下, which say other things too)
  { name: ['larger', 'smaller'], sides: [
    side('larger bigger greater higher longer more most exceed', /大き|長い|長く|多い|多く|大于|多于|长于|更长|更多/u),
    side('smaller less fewer lower shorter least', /小さ|短い|短く|少ない|少なく|小于|少于|短于|更短|更少/u)], compares: true },
  { name: ['maximum', 'minimum'], sides: [side('maximum max', /最大|上限/u), side('minimum min', /最小|下限/u)], compares: true },
  // the same or another (origin, page, value): red team adv83 turned 同じオリジンの場合のみ into 別のオリジン, 同じように into 違うように
  { name: ['same', 'different'], sides: [
    side('same identical', /同じ|同一|相同|一样|同样|一致|同源/u),
    side('different another unlike distinct cross foreign differ external opposite reverse', /別の|異なる|違う|違い|他の|外部|よそ|他所|逆に|反対に|不同|别的|其他|外部|相反|跨源|异源|跨域/u)], compares: true },
  // a way back or on (戻る turned into 進む: red team adv83)
  { name: ['back', 'forward'], sides: [side('backward', /戻る|戻り|戻っ|戻す|后退|回退/u), side('forward onward away leave', /進む|進み|進め|前進|離れ|去る|前进|离开/u)] },
  // only these, or all but these (のみ turned into 以外: red team adv83)
  { name: ['only', 'except'], sides: [side('only solely', /のみ|だけ|仅|只有|只限|限于/u), side('except excluding', /以外|除外|除了|除非/u)], compares: true },
  // an option set or unset, in Japanese and Chinese only (English "set" is every change's near-synonym)
  { name: ['set', 'unset'], sides: [side('', /設定|设置|设定/u), side('', /解除|取消/u)], complementary: true },
];

let stems: [Set<string>, Set<string>][] | undefined;
const STEMS = () => (stems ??= PAIRS.map((p) => p.sides.map((s) => new Set(s.en.map(stem))) as [Set<string>, Set<string>]));

/** Words that say what is, not what is done: "has" (includes) and "missing" (unset) take no side (red team adv76: "when the Host header is missing" for "has no Host header"). */
const STATE_WORDS = /^(?:has|have|had|having|contains?|exists?|missing|absent|present|lacks?|lacking)$/i;

/**
 * Which side of each pair a text states: [pair index, side 0|1] for every side present.
 * `synonyms: false`: by the pairs' own words only, not the glossary's near-synonyms.
 */
export function actionSides(text: string, translate: (text: string) => string[], synonyms = true): Set<string> {
  const t = text.normalize('NFKC');
  const latin = t.split(/[^\p{L}\p{N}]+/u).filter((w) => /^[a-z]+$/i.test(w));
  const words = new Set([...latin, ...translate(t)].map((w) => stem(w.toLowerCase())));
  const out = new Set<string>();
  PAIRS.forEach((p, i) => p.sides.forEach((s, j) => {
    if (s.cjk.test(t) || [...words].some((w) => STEMS()[i]![j]!.has(w))) out.add(`${i}:${j}`);
  }));
  // an English verb the pairs leave out is known by the glossary's near-synonyms (clear: remove,
  // delete, erase; cancel: remove, stop) — unless they fall on both sides of a pair
  if (synonyms) for (const w of latin) {
    const own = stem(w.toLowerCase());
    if (STEMS().some((sides) => sides.some((x) => x.has(own))) || STATE_WORDS.test(w)) continue;
    const syn = [...englishSynonyms(w)].map(stem);
    PAIRS.forEach((_, i) => {
      const hit = [0, 1].filter((j) => syn.some((x) => STEMS()[i]![j]!.has(x)));
      if (hit.length === 1) out.add(`${i}:${hit[0]}`);
    });
  }
  return out;
}

/**
 * The first action of `value` whose opposite its quote states (and the quote not the action
 * itself), as [the value's word, the quote's]; undefined when the value keeps the quote's actions.
 * `flipped`: exactly one of the two is negated. The opposite then says the same only where one
 * side is the other's negation ("not shown" for 非表示, "hidden" for 表示されない); not doing a
 * thing is no doing of its opposite ("remove consumption tax" for 消費税を加えない claims a removal).
 */
export function opposedAction(value: string, quote: string, translate: (text: string) => string[] = () => [], flipped = false): [string, string] | undefined {
  const v = actionSides(value, translate);
  const q = actionSides(quote, translate);
  for (const key of v) {
    const [i, j] = key.split(':').map(Number) as [number, number];
    if (q.has(key) || !q.has(`${i}:${1 - j}`)) continue;
    if (!flipped) return [PAIRS[i]!.name[j]!, PAIRS[i]!.name[1 - j]!];
    if (!PAIRS[i]!.complementary) return [PAIRS[i]!.name[j]!, `"not ${PAIRS[i]!.name[1 - j]!}" (not doing a thing is not doing its opposite)`];
  }
  return undefined;
}

/**
 * The value's words that name the opposite side of a complementary action its quote negates:
 * "hidden" states 表示されない ("not shown"), "disabled" states "not enabled". `negatedWords`: the
 * words the quote's negations turn around.
 */
export function complementOfNegated(valueWords: readonly string[], negatedWords: readonly string[], translate: (text: string) => string[]): string[] {
  const negatedSides = new Set(negatedWords.flatMap((w) => [...actionSides(w, translate)]));
  return valueWords.filter((w) => [...actionSides(w, translate)].some((key) => {
    const [i, j] = key.split(':').map(Number) as [number, number];
    return !!PAIRS[i]!.complementary && negatedSides.has(`${i}:${1 - j}`) && !negatedSides.has(key);
  }));
}

/** Does a value word name the same action as a word of its quote ("shown" for 表示, "display" for show)? */
export function sameAction(word: string, quote: string, translate: (text: string) => string[]): boolean {
  const q = actionSides(quote, translate);
  return [...actionSides(word, translate)].some((key) => q.has(key));
}

/** Verbs that say what is done to a thing, not which thing: with PAIRS and the generic words (feature, process). */
const DOING = 'fix correct repair change modify update refresh implement support handle improve optimize enhance make';
const DOING_CJK = /処理|機能|実装|対応|修正|変更|更新|改善|作る|作り|直す|直し|实现|修改|处理|功能/u;
let doing: Set<string> | undefined;
const doingStems = () => (doing ??= new Set([...PAIRS.filter((p) => !p.compares).flatMap((p) => p.sides.flatMap((s) => s.en)), ...DOING.split(' '), ...GENERIC_EN].map(stem)));
const LATIN_STOP = /^(?:the|and|for|with|from|into|that|this|when|then|also|please|should|would|could)$/i;

/**
 * The words of a text that name a thing (カート, 合計, timeout, ObservableSet) rather than what is
 * done to it (追加, add, fix, 処理) or a stop word. A Japanese or Chinese word is judged by its
 * first English sense in the glossary, or by the verbs above when the glossary has none.
 */
export function thingsOf(text: string, translate: (text: string) => string[] = () => []): string[] {
  const t = text.normalize('NFKC');
  const out: string[] = [];
  for (const w of t.split(/[^\p{L}\p{N}_$]+/u)) {
    if (!w || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(w)) continue;
    if (w.length >= 3 && !LATIN_STOP.test(w) && !doingStems().has(stem(w.toLowerCase()))) out.push(w);
  }
  for (const run of t.match(/[\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]*/gu) ?? []) {
    for (const w of cjkWords(run, true)) {
      if (!/[\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}]/u.test(w)) continue; // particles and endings
      const sense = translate(w).find((x) => /^[a-z]/i.test(x));
      const acts = sense ? doingStems().has(stem(sense.toLowerCase())) : DOING_CJK.test(w) || PAIRS.some((p) => p.sides.some((s) => s.cjk.test(w)));
      if (!acts) out.push(w);
    }
  }
  return out;
}

/** The verbs of DOING_CJK that ask for a change (処理 and 機能 are things). */
const DOING_CJK_CHANGE = /実装|対応|修正|変更|更新|改善|作る|作り|实现|修改/u;
let generic: Set<string> | undefined;
const genericStems = () => (generic ??= new Set([...GENERIC_EN].map(stem)));

/** A request that asks to be told something: investigate, explain, why/how, 調べて, 教えて, 为什么, a question mark. */
const INQUIRY = /(?:^|[^\p{L}])(?:why|how|what|which|explain|investigate|find out|look up|tell me|describe|walk me through)(?![\p{L}])|\?\s*$|調べ|教えて|説明して|知りたい|なぜ|どうして|どのように|どういう|仕組み|とは|[？]\s*$|为什么|怎么|如何|解释|调查|是什么|吗\s*[？?]?\s*$/iu;
/** Words that ask for a change (beyond PAIRS and DOING) or report a problem: a request with one is a change request. */
const CHANGE = /(?:^|[^\p{L}])(?:should|must|need|needs|make|let|rename|refactor|replace|move|convert|rewrite|write|use|return|throw|avoid|prevent|round|format|validate|check|error|fail|fails|failing|crash|crashes|wrong|broken|bug|null|undefined|nan|incorrect|invalid|missing|slow|leak|leaks|hang|hangs|freeze|freezes|twice|duplicate|duplicated)(?![\p{L}])|ように|べき|にする|にして|に変え|置き換|書き換|直し|直す|作成|エラー|失敗|落ちる|壊れ|バグ|不具合|おかしい|間違|遅い|重い|重複|二重|止まる|修改|修复|改成|改为|应该|需要|错误|失败|太慢|重复/iu;

/**
 * A text without the changes it forbids: "do not change anything", "without modifying the code",
 * "never touch X", コードは変更しないで, 修正せずに, 不要修改代码, 别改. What is left says what it asks.
 */
function withoutForbidden(text: string): string {
  return text
    .replace(/(?:^|[^\p{L}])(?:do\s+not|don['’]t|never|without|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|no\s+need\s+to)\s+(?:(?:just|yet|any|to|be|the|a|an|make|making)\s+)*[\p{L}]+/giu, ' ')
    .replace(/[\p{Script=Han}\p{Script=Katakana}ー]+(?:を|は)?\s*(?:し|せ|さ)?(?:ないで|ないよう|ずに|ぬよう|てはいけない|ちゃだめ|ないこと)/gu, ' ')
    .replace(/(?:不要|别|勿|不用|不必|无需|無需)\s*\p{Script=Han}{1,2}/gu, ' ');
}

/**
 * Does a request only ask to be told something (an investigation, an explanation, a question), with
 * no word that asks for a change or reports a problem? Then the session that answers it never edits:
 * an agent that starts IMPLEMENT or MODIFY for it claims a change the user did not ask for.
 * Conservative: a request without an explicit question or inquiry word is never judged to ask only.
 */
export function asksOnly(request: string, translate: (text: string) => string[] = () => []): boolean {
  // a recorded prompt may be long: its start says what it asks. A change it forbids asks for none
  // ("Explain how the total is computed. Do not change anything." let IMPLEMENT through)
  const t = withoutForbidden(request.normalize('NFKC').slice(0, 8192));
  if (!INQUIRY.test(t) || CHANGE.test(t) || DOING_CJK_CHANGE.test(t)) return false;
  if ([...actionSides(t, translate)].some((key) => !PAIRS[Number(key.split(':')[0])]!.compares)) return false; // an action of PAIRS (add, show, 削除 …; "longer" asks for nothing)
  const words = new Set([...t.split(/[^\p{L}\p{N}]+/u).filter((w) => /^[a-z]+$/i.test(w)), ...translate(t)].map((w) => stem(w.toLowerCase())));
  return ![...words].some((w) => doingStems().has(w) && !genericStems().has(w));
}
