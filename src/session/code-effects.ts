/**
 * What a declaration's code does to a named thing (sets or removes a header or a field, checks a
 * value) and under which conditions: the substance behind VERIFICATION claims such as "res.send does
 * not remove Content-Length when the status is 304". Red team adv85 had twelve such claims confirmed
 * as FACT (a denial true only of another case, the wrong header, the wrong order, the desired
 * behaviour stated as the current one). A claim is read into subject, verb, thing, negation,
 * condition and order; the code into sites (a line where the verb's code form meets the thing) with
 * the conditions that guard each. Only what the code plainly says is judged: a thing the code does
 * not name, or a verb it does through code this module cannot read, is left to the other checks.
 */
export type Verb = 'set' | 'remove' | 'check';

export interface EffectClaim {
  subject: string;
  verb: Verb;
  thing: string;
  denied: boolean;
  /** "only when C", 只有在 C 时才, C の場合のみ */
  only: boolean;
  /** the condition's text, as written */
  cond?: string;
  order?: { when: 'before' | 'after'; verb: Verb; thing: string };
}

/** A declaration's lines (comments blanked), from `start` (1-based) in `path`. */
export interface CodeSpan {
  path: string;
  start: number;
  lines: string[];
}

// ---- reading a claim ------------------------------------------------------------------------------

/** header names (Content-Length), dotted names (req.fresh), camel or capital names (ETag, statusCode), quoted values */
const BQ = '`';
const THING = String.raw`(?:${BQ}([^${BQ}\s]{1,60})${BQ}|'([^'\s]{1,60})'|"([^"\s]{1,60})"|([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)|([A-Z][a-z\d]*[A-Z][\w$]*|[A-Z]{2,}[a-z\d]*|[a-z]+[A-Z][\w$]*))`;
const thingOf = (m: RegExpExecArray | RegExpMatchArray, from: number): string => (m[from] ?? m[from + 1] ?? m[from + 2] ?? m[from + 3] ?? m[from + 4] ?? m[from + 5])!;
const THING_GROUPS = 6;

const EN_VERBS: [Verb, RegExp][] = [
  ['set', /^(?:sets?|setting|adds?|adding|appends?|appending|writes?|writing|populates?|populating|assigns?|assigning|puts?|putting)$/i],
  ['remove', /^(?:removes?|removing|deletes?|deleting|strips?|stripping|drops?|dropping|clears?|clearing|unsets?|unsetting)$/i],
  ['check', /^(?:checks?|checking|reads?|reading|tests?|testing|inspects?|inspecting|compares?|comparing|examines?|examining|consults?|consulting)$/i],
];
const EN_VERB = String.raw`(sets?|setting|adds?|adding|appends?|appending|writes?|writing|populates?|populating|assigns?|assigning|puts?|putting|removes?|removing|deletes?|deleting|strips?|stripping|drops?|dropping|clears?|clearing|unsets?|unsetting|checks?|checking|reads?|reading|tests?|testing|inspects?|inspecting|compares?|comparing|examines?|examining|consults?|consulting)`;
const verbOf = (w: string): Verb | undefined => EN_VERBS.find(([, re]) => re.test(w))?.[0];

const SUBJECT = String.raw`(?:[Tt]he\s+)?\`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?\`?`;
const ADVERBS = String.raw`(?:(?:does\s+not|doesn['’]t|do\s+not|don['’]t|will\s+not|won['’]t|would\s+not|never|no\s+longer|only|always|also|first|then|still|already|itself|actually|just|later|finally|(?:will|would|can|may)(?!\s+not))\s+)*`;
const EN_CLAIM = new RegExp(String.raw`^(.*?)(?<![\w$.])${SUBJECT}(?:\s+(?:function|method|helper|handler|middleware|call|code))?\s+(${ADVERBS})${EN_VERB}\s+(?:the\s+|a\s+|an\s+|its\s+|any\s+)?${THING}(?:\s+(?:header|field|property|value|flag|key|option)s?)?(.*)$`);
const EN_ORDER = new RegExp(String.raw`^\s*,?\s*(before|after)\s+(?:it\s+)?${EN_VERB}\s+(?:the\s+|a\s+|an\s+|its\s+)?${THING}`);
/** the words of the claim forms above, matched in any case */
const CLAIM_WORDS = new Set(`${ADVERBS} ${EN_VERB} the a an its any it header field property value flag key option function method helper handler middleware call code before after when whenever if while once unless case not`
  .toLowerCase().match(/[a-z]+/g)!.filter((w) => !/^(?:s|w|t|x)$/.test(w)));
const EN_COND_AFTER = /^\s*,?\s*(only\s+)?(?:when|whenever|if|in\s+case|while|once)\s+(.+)$/i;
const EN_COND_BEFORE = /(?:^|\s)(only\s+)?(?:when|whenever|if|in\s+case|while|once)\s+(.+?),\s*$/i;

/** The effect claim of one English sentence (case-sensitive: a THING's capitals tell a name from a word). */
function englishClaim(sentence: string): EffectClaim | undefined {
  // the claim's own words in lower case ("DOES NOT", "Sets"), names as written
  const m = EN_CLAIM.exec(sentence.replace(/[A-Za-z]+/g, (w) => (CLAIM_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : w)));
  if (!m) return undefined;
  const [pre, subject, adverbs, verbWord] = [m[1]!, m[2]!, m[3]!, m[4]!];
  const thing = thingOf(m, 5);
  const post = m[5 + THING_GROUPS]!;
  const verb = verbOf(verbWord)!;
  // "unless": the case is the other side; a claim said with it is left alone
  if (/\bunless\b/i.test(post) || /\bunless\b/i.test(pre)) return undefined;
  const denied = /\b(?:not|never|no\s+longer)\b|n['’]t\b/i.test(adverbs);
  let only = /\bonly\b/i.test(adverbs);
  let cond: string | undefined;
  const after = EN_COND_AFTER.exec(post.replace(/^\s*only\b/i, (w) => ((only = true), ' ')));
  const before = EN_COND_BEFORE.exec(pre);
  if (after) {
    cond = after[2]!;
    only ||= !!after[1];
  } else if (before) {
    cond = before[2]!;
    only ||= !!before[1];
  }
  const o = EN_ORDER.exec(post);
  const order = o ? { when: o[1]!.toLowerCase() as 'before' | 'after', verb: verbOf(o[2]!)!, thing: thingOf(o, 3) } : undefined;
  return { subject, verb, thing, denied, only, cond, order };
}

const ZH_VERB: [Verb, string][] = [['set', '设置|设定|添加|加上|写入|加入|附加|填充|填入'], ['remove', '删除|移除|去掉|去除|清除|删掉|移走'], ['check', '检查|判断|读取|比较|检测|查看']];
const JA_VERB: [Verb, string][] = [['set', '設定|追加|付与|付け|付加|書き込|セット'], ['remove', '削除|除去|取り除|消し|消す|外す|外し'], ['check', 'チェック|確認|判定|調べ|読み取|読ん|読む|参照|比較']];
const CJK_SUBJECT = /^\s*`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`?\s*(?:は|が)?/u;
const CJK_THING_TAIL = String.raw`\s*(?:头部|标头|头|响应头|请求头|ヘッダー|ヘッダ|フィールド|プロパティ|字段|属性)?`;
const KANA_WORDS = /ヘッダー|ヘッダ|フィールド|プロパティ|チェック|セット/gu;

/** The effect claim of a Japanese or Chinese sentence: its subject opens it, as 「res.send は … を削除しない」, "res.send 在 … 时不会删除 …". */
function cjkClaim(sentence: string): EffectClaim | undefined {
  if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sentence)) return undefined;
  const s = CJK_SUBJECT.exec(sentence);
  if (!s) return undefined;
  const subject = s[1]!;
  const rest = sentence.slice(s[0].length);
  const ja = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(rest.replace(KANA_WORDS, ''));
  // the main verb comes last (a verb inside the condition comes before it: 在设置了 X 的情况下不添加 Y)
  let v: { verb: Verb; at: number; word: string } | undefined;
  for (const [verb, words] of ja ? JA_VERB : ZH_VERB) {
    for (const m of rest.matchAll(new RegExp(words, 'gu'))) if (!v || m.index! > v.at) v = { verb, at: m.index!, word: m[0] };
  }
  if (!v) return undefined;
  const before = rest.slice(0, v.at);
  const after = rest.slice(v.at + v.word.length);
  // the thing: before the verb in Japanese (X を設定), after it in Chinese (删除 X 头), or before it after 把 (把 X 删除)
  const thingAfter = new RegExp(String.raw`^\s*了?\s*${THING}`, 'u').exec(after);
  const thingBefore = new RegExp(String.raw`${THING}${CJK_THING_TAIL}\s*(?:を|は|が|も)?\s*$`, 'u').exec(before);
  const tm = ja ? thingBefore : thingAfter ?? (/把/u.test(before) ? thingBefore : null);
  if (!tm) return undefined;
  const thing = thingOf(tm, 1);
  const denied = ja ? /^[^。、,]{0,8}?(?:ない|ません|ず(?!っ)|なかっ)/u.test(after) : /(?:不会|不|没有|没|从不|从来不|绝不|不再|并不|也不)\s*(?:会)?\s*$/u.test(before);
  let cond: string | undefined;
  let only = false;
  if (ja) {
    const c = /(?:^|[、,\s])([^、。,]*?)(?:の場合|場合|とき|時|なら|際)(のみ|だけ|に限り)?(?:に|には|は|でも)?\s*[、,]?/u.exec(before);
    if (c) {
      cond = c[1]!.replace(/^\s*(?:は|が)\s*/u, '');
      only = !!c[2];
    }
  } else {
    const o = /(?:只有|仅|只)\s*(?:在|当)?([^，。,]+?)(?:的情况下|的时候|时)?\s*才/u.exec(before);
    const c = /(?:在|当|如果|若)([^，。,]+?)(?:的情况下|的时候|之时|时)/u.exec(before);
    if (o) {
      cond = o[1]!;
      only = true;
    } else if (c) cond = c[1]!;
  }
  return { subject, verb: v.verb, thing, denied, only, cond };
}

/** The effect claims a sentence makes (English, Japanese or Chinese). */
export function effectClaims(sentence: string): EffectClaim[] {
  const c = cjkClaim(sentence) ?? englishClaim(sentence);
  return c ? [c] : [];
}

// ---- reading the code -----------------------------------------------------------------------------

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** a header or a quoted value is named in a string; a code name as itself */
function namedIn(thing: string): RegExp {
  return /-/.test(thing) || !/^[A-Za-z_$][\w$.]*$/.test(thing)
    ? new RegExp(String.raw`['"\`]${escape(thing)}['"\`]`, 'i')
    : new RegExp(String.raw`(?<![\w$])${escape(thing)}(?![\w$])|['"\`]${escape(thing)}['"\`]`, 'i');
}

const SETS = /\.(?:set|setHeader|header|append|appendHeader|add|put|writeHead|setAttribute|setdefault|update)\s*\(|\bheaders?\s*\[[^\]]*\]\s*=(?!=)/;
const REMOVES = /\.(?:removeHeader|remove|delete|del|unset|removeAttribute|pop|discard|clear)\s*\(|\bdelete\s+|\bdel\s+/;
const CONDITION_LINE = /\b(?:if|while|elif|switch|case|when|unless)\b|\?[^:]*:|&&|\|\|/;
const READS = /\.(?:get|getHeader|has|hasHeader|includes)\s*\(/;

/** Does this line of code do `verb` to `thing`? */
function doesOnLine(line: string, verb: Verb, thing: string): boolean {
  const named = namedIn(thing);
  if (!named.test(line)) return false;
  const plainName = /^[A-Za-z_$][\w$.]*$/.test(thing) && !/-/.test(thing);
  const assigned = plainName && new RegExp(String.raw`(?<![\w$])${escape(thing)}\s*=(?!=)|\.${escape(thing.split('.').pop()!)}\s*=(?!=)`).test(line);
  switch (verb) {
    case 'set': return SETS.test(line) || assigned;
    case 'remove': return REMOVES.test(line);
    case 'check': return CONDITION_LINE.test(line) || READS.test(line) || !assigned;
  }
}

const indentOf = (l: string) => /^\s*/.exec(l)![0].replace(/\t/g, '    ').length;
const GUARD = /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while|for|switch|case|elif|except|catch|when|unless|default)\b|^\s*(?:\}\s*)?else\b/;

/** The conditions on the way to line `at` of a declaration: the blocks that hold it, a guard on its own line, early exits before it. */
export function guardsOf(lines: readonly string[], at: number): string[] {
  const out: string[] = [];
  const own = lines[at]!;
  const same = /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\s*\((.*)$/.exec(own);
  if (same) out.push(same[1]!);
  let indent = indentOf(own);
  let inElse = false;
  for (let i = at - 1; i >= 0 && indent > 0; i--) {
    const l = lines[i]!;
    if (!l.trim()) continue;
    const ind = indentOf(l);
    // the if of an else (and the earlier branches of its chain) at the level just left
    if (inElse && ind === indent && GUARD.test(l)) {
      out.push(l.trim());
      if (!/^\s*(?:\}\s*)?else\b/.test(l)) inElse = false;
      continue;
    }
    if (ind < indent) {
      indent = ind;
      if (GUARD.test(l)) out.push(l.trim());
      inElse = /^\s*(?:\}\s*)?else\b/.test(l);
    }
  }
  // an early exit before it: `if (x) return`, or an if whose block returns
  for (let i = 0; i < at; i++) {
    const l = lines[i]!;
    if (/^\s*(?:\}\s*)?(?:else\s+)?if\b/.test(l) && (/\b(?:return|throw|raise|continue|break)\b/.test(l) || /^\s*(?:return|throw|raise)\b/.test(lines[i + 1] ?? ''))) out.push(l.trim());
  }
  return out;
}

export interface Site {
  path: string;
  line: number;
  guards: string[];
}

/** Where the code does `verb` to `thing`. */
export function sitesOf(spans: readonly CodeSpan[], verb: Verb, thing: string): Site[] {
  const out: Site[] = [];
  for (const s of spans) {
    for (let i = 0; i < s.lines.length && out.length < MAX_SITES; i++) {
      if (doesOnLine(s.lines[i]!, verb, thing)) out.push({ path: s.path, line: s.start + i, guards: guardsOf(s.lines, i) });
    }
  }
  return out;
}
/** sites looked at per claim (each walks its declaration back to its start) */
const MAX_SITES = 64;

const COND_STOP = new Set('the a an is are was were be been being has have had there its it this that when if only then not no any all set sets get gets value values case cases already yet true false does do with without for from into of on in to by and or but request response called given passed'.split(' '));

/** The words of a condition that code could write: numbers, quoted values, header and code names, plain Latin words. */
export function conditionTerms(cond: string): string[] {
  const out = new Set<string>();
  for (const m of cond.matchAll(/(?<![\w.])(\d{2,})(?![\w])/g)) out.add(m[1]!);
  for (const m of cond.matchAll(new RegExp(THING, 'gu'))) out.add(thingOf(m, 1));
  // (a plain word that is part of a name already taken adds nothing: Transfer of Transfer-Encoding)
  for (const w of cond.match(/[A-Za-z_$][\w$]{2,}/g) ?? []) if (!COND_STOP.has(w.toLowerCase()) && ![...out].some((t) => t !== w && t.toLowerCase().split(/[^a-z0-9_$]+/).includes(w.toLowerCase()))) out.add(w);
  return [...out];
}

const mentions = (guard: string, term: string) => (/^\d+$/.test(term) ? new RegExp(`(?<!\\d)${term}(?!\\d)`) : new RegExp(escape(term), 'i')).test(guard);
/** `304 === x`, `x == 'a'`: the guard holds in the case that names the term (not `!==`, not after a `!`) */
const equalsTerm = (guard: string, term: string) => {
  const t = /^\d+$/.test(term) ? term : String.raw`['"\`]?${escape(term)}['"\`]?`;
  return new RegExp(String.raw`(?<![!=<>])(?:===?|==|\bis\b)\s*${t}(?![\w$])|(?<![\w$.])${t}\s*(?:===?|==)(?!=)`, 'i').test(guard) && !/!\s*\(/.test(guard);
};

const place = (s: Site) => `${s.path}:${s.line}`;
const VERB_SAID: Record<Verb, string> = { set: 'sets', remove: 'removes', check: 'checks' };

/**
 * What is wrong with a claim, judged against the subject's own code (`own`) and the code it calls
 * one step down (`helpers`); undefined where the code bears it out or says nothing plain about it.
 */
export function wrongEffect(c: EffectClaim, own: readonly CodeSpan[], helpers: readonly CodeSpan[]): string | undefined {
  const said = `${c.subject} ${VERB_SAID[c.verb]} ${c.thing}`;
  const named = namedIn(c.thing);
  const writes = (spans: readonly CodeSpan[]) => spans.some((s) => s.lines.some((l) => named.test(l)));
  const mine = sitesOf(own, c.verb, c.thing);
  if (c.order && !c.denied) {
    const other = sitesOf(own, c.order.verb, c.order.thing);
    if (mine.length > 0 && other.length > 0) {
      const [a, b] = [Math.min(...mine.map((s) => s.line)), Math.min(...other.map((s) => s.line))];
      if (a !== b && (c.order.when === 'before') !== a < b)
        return `${said} ${c.order.when} it ${VERB_SAID[c.order.verb]} ${c.order.thing}, and its code does it the other way round: ${a < b ? `${c.thing} at line ${a}, ${c.order.thing} at line ${b}` : `${c.order.thing} at line ${b}, ${c.thing} at line ${a}`}`;
    }
  }
  if (!c.denied && !c.only) {
    if (mine.length > 0 || sitesOf(helpers, c.verb, c.thing).length > 0) return undefined;
    if (!writes(own) && !writes(helpers)) return `${said}, and ${c.thing} is written nowhere in ${c.subject}'s code nor in the code it calls`;
    // named, but only where it is done something else to (read where the claim says removed)
    if (writes(own)) {
      const doneTo = (['set', 'remove', 'check'] as Verb[]).filter((v) => v !== c.verb && sitesOf(own, v, c.thing).length > 0);
      if (doneTo.length > 0) return `${said}, and its code ${doneTo.map((v) => VERB_SAID[v]).join(' and ')} ${c.thing} but never ${c.verb === 'check' ? 'checks' : VERB_SAID[c.verb]} it`;
    }
    return undefined;
  }
  if (mine.length === 0) return undefined;
  const terms = c.cond ? conditionTerms(c.cond) : [];
  if (c.cond && terms.length === 0) return undefined; // a case the code cannot be asked about
  // a site no condition on the way ties to the case: it runs in the case too
  const regardless = mine.find((s) => !terms.some((t) => s.guards.some((g) => mentions(g, t))));
  // a site guarded by the very case ("304 === this.statusCode" for "when the status is 304")
  const inCase = c.cond ? mine.find((s) => terms.some((t) => s.guards.some((g) => equalsTerm(g, t)))) : undefined;
  if (c.denied && !c.only) {
    if (!c.cond && regardless) return `${said.replace(VERB_SAID[c.verb], `does not ${c.verb === 'check' ? 'check' : c.verb}`)}, and its code does at ${place(regardless)}`;
    if (inCase) return `${c.subject} does not ${c.verb} ${c.thing} when ${c.cond!.trim()}, and its code does at ${place(inCase)}, in that very case (${inCase.guards.find((g) => terms.some((t) => equalsTerm(g, t)))!.slice(0, 80)})`;
    if (regardless) return `${c.subject} does not ${c.verb} ${c.thing} when ${c.cond!.trim()}, and its code does at ${place(regardless)} with no condition on the way that reads ${terms.slice(0, 4).join(', ')}: it does it in that case too`;
    return undefined;
  }
  // "only when C": every site must be tied to the case
  if (c.only && c.cond && regardless && !c.denied)
    return `${said} only when ${c.cond.trim()}, and its code does at ${place(regardless)} with no condition on the way that reads ${terms.slice(0, 4).join(', ')}`;
  return undefined;
}
