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
  ['check', /^(?:checks?|checking|reads?|reading|tests?|testing|inspects?|inspecting|compares?|comparing|examines?|examining|consults?|consulting|looks\s+at|looking\s+at)$/i],
];
/** verbs that say a thing is not done: "omits the header", "skips setting it", "leaves out" (red team adv86) */
const OMITS = /^(?:omits?|omitting|skips?|skipping|leaves\s+out|leaving\s+out)$/i;
const EN_VERB = String.raw`(omits?|omitting|skips?|skipping|leaves\s+out|leaving\s+out|looks\s+at|looking\s+at|sets?|setting|adds?|adding|appends?|appending|writes?|writing|populates?|populating|assigns?|assigning|puts?|putting|removes?|removing|deletes?|deleting|strips?|stripping|drops?|dropping|clears?|clearing|unsets?|unsetting|checks?|checking|reads?|reading|tests?|testing|inspects?|inspecting|compares?|comparing|examines?|examining|consults?|consulting)`;
const verbOf = (w: string): Verb | undefined => (OMITS.test(w) ? 'set' : EN_VERBS.find(([, re]) => re.test(w.replace(/\s+/g, ' ')))?.[0]);
/** after "skips" or "omits", the verb it skips: "skips setting Content-Length", "omits removing it" */
const SKIPPED = String.raw`(?:\s+(setting|adding|writing|removing|deleting|stripping|checking|reading))?`;

const SUBJECT = String.raw`(?:[Tt]he\s+)?\`?(?!(?:[Bb]efore|[Aa]fter|[Ww]hen|[Ii]f|[Tt]hen|[Ii]t|[Tt]his|[Tt]hat|[Ww]hile|[Oo]nce|[Uu]nless|[Ee]xcept|[Aa]nd|[Aa]lso)\b)([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?\`?`;
const ADVERBS = String.raw`(?:(?:does\s+not|doesn['’]t|do\s+not|don['’]t|will\s+not|won['’]t|would\s+not|never|no\s+longer|only|always|also|first|then|still|already|itself|actually|just|later|finally|(?:will|would|can|may)(?!\s+not))\s+)*`;
const EN_CLAIM = new RegExp(String.raw`^(.*?)(?<![\w$.])${SUBJECT}(?:\s+(?:function|method|helper|handler|middleware|call|code))?\s+(${ADVERBS})${EN_VERB}${SKIPPED}\s+(?:the\s+|a\s+|an\s+|its\s+|any\s+)?${THING}(?:\s+(?:header|field|property|value|flag|key|option)s?)?(.*)$`);
/** "Content-Length is not removed by res.send when …": the passive, its subject after "by" */
const EN_PASSIVE = new RegExp(String.raw`^(.*?)(?:[Tt]he\s+)?${THING}(?:\s+(?:header|field|property|value|flag|key|option))?\s+(?:is|are|gets?|will\s+be)\s+((?:not|never|no\s+longer)\s+)?(?:(?:only|always|also|first)\s+)?(set|added|written|appended|removed|deleted|stripped|dropped|cleared|checked|read|compared|inspected|omitted|skipped)\s+by\s+${SUBJECT}(.*)$`);
const PASSIVE_VERB: Record<string, Verb> = { set: 'set', added: 'set', written: 'set', appended: 'set', removed: 'remove', deleted: 'remove', stripped: 'remove', dropped: 'remove', cleared: 'remove', checked: 'check', read: 'check', compared: 'check', inspected: 'check', omitted: 'set', skipped: 'set' };
/** "Before setting the ETag, res.send sets Content-Length": an order said first */
const EN_ORDER_FRONT = new RegExp(String.raw`^\s*(before|after)\s+${EN_VERB}\s+(?:the\s+|a\s+|an\s+|its\s+)?${THING}(?:\s+(?:header|field|property|value))?\s*,`);
/** "sets X first and then sets Y", "sets X and then Y" */
const EN_THEN = new RegExp(String.raw`^\s*(?:first\s+)?,?\s*(?:and\s+)?then\s+(?:it\s+)?(?:${EN_VERB}\s+)?(?:the\s+|a\s+|an\s+|its\s+)?${THING}`);
const EN_ORDER = new RegExp(String.raw`^\s*,?\s*(before|after)\s+(?:it\s+)?${EN_VERB}\s+(?:the\s+|a\s+|an\s+|its\s+)?${THING}`);
/** the words of the claim forms above, matched in any case */
const CLAIM_WORDS = new Set(`${ADVERBS} ${EN_VERB} ${SKIPPED} the a an its any it header field property value flag key option function method helper handler middleware call code before after when whenever if while once unless except case not is are by first and then`
  .toLowerCase().match(/[a-z]+/g)!.filter((w) => !/^(?:s|w|t|x)$/.test(w)));
const EN_COND_AFTER = /^\s*,?\s*(only\s+)?(if\s+and\s+only\s+if|unless|except\s+(?:when|if)|even\s+(?:when|if)|when|whenever|if|in\s+case|while|once)\s+(.+)$/i;
const EN_COND_BEFORE = /(?:^|\s)(only\s+)?(if\s+and\s+only\s+if|unless|except\s+(?:when|if)|even\s+(?:when|if)|when|whenever|if|in\s+case|while|once)\s+(.+?),\s*$/i;

/** The effect claim of one English sentence (case-sensitive: a THING's capitals tell a name from a word). */
function englishClaim(sentence: string): EffectClaim | undefined {
  // the claim's own words in lower case ("DOES NOT", "Sets"), names as written
  const text = sentence.replace(/[A-Za-z]+/g, (w) => (CLAIM_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : w));
  let pre: string, subject: string, post: string, verb: Verb, thing: string, denied: boolean, only: boolean;
  const m = EN_CLAIM.exec(text);
  const p = m ? null : EN_PASSIVE.exec(text);
  if (m) {
    const [adverbs, verbWord, skipped] = [m[3]!, m[4]!, m[5]];
    [pre, subject, thing, post] = [m[1]!, m[2]!, thingOf(m, 6), m[6 + THING_GROUPS]!];
    verb = skipped ? verbOf(skipped)! : verbOf(verbWord)!;
    denied = /\b(?:not|never|no\s+longer)\b|n['’]t\b/i.test(adverbs) !== OMITS.test(verbWord);
    only = /\bonly\b/i.test(adverbs);
  } else if (p) {
    [pre, thing, subject, post] = [p[1]!, thingOf(p, 2), p[2 + THING_GROUPS + 2]!, p[2 + THING_GROUPS + 3]!];
    const word = p[2 + THING_GROUPS + 1]!;
    verb = PASSIVE_VERB[word]!;
    denied = !!p[2 + THING_GROUPS] !== /^(?:omitted|skipped)$/.test(word);
    only = false;
  } else return undefined;
  let cond: string | undefined;
  const after = EN_COND_AFTER.exec(post.replace(/^\s*only\b/i, () => ((only = true), ' ')));
  const before = EN_COND_BEFORE.exec(pre);
  const c = after ?? before;
  if (c) {
    cond = c[3]!;
    only ||= !!c[1];
    const word = c[2]!.toLowerCase().replace(/\s+/g, ' ');
    if (word === 'if and only if') only = true;
    // "removes X unless C", "strips X except when C": it does not in case C
    else if (word === 'unless' || word.startsWith('except')) denied = !denied;
  }
  let order: EffectClaim['order'];
  const o = EN_ORDER.exec(post);
  const f = EN_ORDER_FRONT.exec(pre);
  const t = EN_THEN.exec(post);
  if (o) order = { when: o[1]!.toLowerCase() as 'before' | 'after', verb: verbOf(o[2]!)!, thing: thingOf(o, 3) };
  else if (f) order = { when: f[1]!.toLowerCase() as 'before' | 'after', verb: verbOf(f[2]!)!, thing: thingOf(f, 3) };
  else if (t) order = { when: 'before', verb: t[1] ? verbOf(t[1])! : verb, thing: thingOf(t, 2) };
  return { subject, verb, thing, denied, only, cond, order };
}

const ZH_VERB: [Verb, string][] = [['set', '设置|设定|添加|加上|写入|加入|附加|填充|填入'], ['remove', '删除|移除|去掉|去除|清除|删掉|移走'], ['check', '检查|判断|读取|比较|检测|查看']];
const JA_VERB: [Verb, string][] = [['set', '設定|追加|付与|付け|付加|書き込|セット'], ['remove', '削除|除去|取り除|消し|消す|外す|外し'], ['check', 'チェック|確認|判定|調べ|読み取|読ん|読む|参照|比較']];
const CJK_SUBJECT = /^\s*`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`?\s*(?:は|が)?/u;
const CJK_THING_TAIL = String.raw`\s*(?:头部|标头|头|响应头|请求头|ヘッダー|ヘッダ|フィールド|プロパティ|字段|属性)?`;
const KANA_WORDS = /ヘッダー|ヘッダ|フィールド|プロパティ|チェック|セット/gu;

/**
 * The order a Japanese or Chinese sentence states between two things done: 先设置 X，再设置 Y; 在设置 Y
 * 之前先设置 X; Y を設定する前に X を設定する; X を設定してから Y を設定する (red team adv86). Returned
 * for the last verb's thing (the claim's), as its order against the other.
 */
function cjkOrder(rest: string, ja: boolean): EffectClaim['order'] {
  const pairs: { verb: Verb; thing: string; at: number; end: number }[] = [];
  for (const [verb, words] of ja ? JA_VERB : ZH_VERB) {
    for (const m of rest.matchAll(new RegExp(words, 'gu'))) {
      const at = m.index!, end = at + m[0].length;
      const t = ja ? new RegExp(String.raw`${THING}${CJK_THING_TAIL}\s*(?:を|は|が)?\s*$`, 'u').exec(rest.slice(0, at)) : new RegExp(String.raw`^\s*了?\s*${THING}`, 'u').exec(rest.slice(end));
      if (t) pairs.push({ verb, thing: thingOf(t, 1), at, end });
    }
  }
  if (pairs.length < 2) return undefined;
  pairs.sort((a, b) => a.at - b.at);
  const [x, y] = [pairs[pairs.length - 2]!, pairs[pairs.length - 1]!];
  const between = rest.slice(x.end, y.at);
  const head = rest.slice(0, x.at);
  // y is the claim's (the last verb); x the other
  if (ja) {
    if (/^[^。]*?(?:する|した)?\s*前に/u.test(between)) return { when: 'before', verb: x.verb, thing: x.thing }; // X する前に Y: Y before X
    if (/^[^。]*?(?:てから|た後に|たあとで|た後で|後に|あとに)/u.test(between)) return { when: 'after', verb: x.verb, thing: x.thing };
    return undefined;
  }
  if (/之前|以前/u.test(between)) return { when: 'before', verb: x.verb, thing: x.thing }; // 在 X 之前先 Y
  if (/之后|以后/u.test(between)) return { when: 'after', verb: x.verb, thing: x.thing };
  if (/先\s*$/u.test(head) && /再|然后|接着|随后/u.test(between)) return { when: 'after', verb: x.verb, thing: x.thing }; // 先 X 再 Y
  return undefined;
}

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
  const fronted = /(?:把|将)\s*[^，。,]*$/u.exec(before);
  const tm = ja ? thingBefore : thingAfter ?? (fronted ? thingBefore : null);
  if (!tm) return undefined;
  const thing = thingOf(tm, 1);
  // (the negation before a fronted object: 不会将 X 删除; an adverb or a modal between: 不会再, 没能, 并未)
  const negatedPart = fronted ? before.slice(0, fronted.index) : before;
  const denied = ja ? /^[^。、,]{0,8}?(?:ない|ません|ず(?!っ)|なかっ)/u.test(after) : /(?:不会|不|没有|没|未|并未|没能|从不|从来不|绝不|不再|并不|也不)(?:会|能|再|将|把|去|曾)*\s*$/u.test(negatedPart);
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
    // (即使 C: "even if C" — a denial said of the case C too: 不会再删除 X，即使状态码是 304)
    const even = /(?:即使|就算|哪怕)([^，。,]+)/u.exec(rest);
    if (o) {
      cond = o[1]!;
      only = true;
    } else if (c) cond = c[1]!;
    else if (even) cond = even[1]!;
  }
  return { subject, verb: v.verb, thing, denied, only, cond, order: cjkOrder(rest, ja) };
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
// (a timer cleared, a listener taken off: clearTimeout(timeoutId), removeEventListener('abort', handler) — red team adv93's true claims refused)
const REMOVES = /\.(?:removeHeader|remove|delete|del|unset|removeAttribute|pop|discard|clear|removeEventListener|removeListener|off)\s*\(|\bdelete\s+|\bdel\s+|(?<![\w$.])(?:clearTimeout|clearInterval|clearImmediate|removeEventListener|cancelAnimationFrame)\s*\(/;
const CONDITION_LINE = /\b(?:if|while|elif|switch|case|when|unless)\b|\?[^:]*:|&&|\|\|/;
const READS = /\.(?:get|getHeader|has|hasHeader|includes)\s*\(/;

/** Does this line of code do `verb` to `thing`? */
function doesOnLine(line: string, verb: Verb, thing: string): boolean {
  // a helper named for doing it to the thing: strip_ansi(text), removeEtag(), set_cookie( (red team adv89)
  if (verb !== 'check' && /^[A-Za-z][\w-]*$/.test(thing) && namedHelper(verb, thing).test(line)) return true;
  const named = namedIn(thing);
  if (!named.test(line)) return false;
  const plainName = /^[A-Za-z_$][\w$.]*$/.test(thing) && !/-/.test(thing);
  const assigned = plainName && new RegExp(String.raw`(?<![\w$])${escape(thing)}\s*=(?!=)|\.${escape(thing.split('.').pop()!)}\s*=(?!=)`).test(line);
  switch (verb) {
    // (an item set by its key: env["LESS"] = "-R" — red team adv89)
    case 'set': return SETS.test(line) || assigned || new RegExp(String.raw`\[\s*['"\`]${escape(thing)}['"\`]\s*\]\s*=(?!=)`, 'i').test(line);
    case 'remove': return REMOVES.test(line);
    case 'check': return CONDITION_LINE.test(line) || READS.test(line) || !assigned;
  }
}

/** A call of a function whose name says the verb and the thing: strip_ansi(, removeEtag(, set_cookie(. */
function namedHelper(verb: 'set' | 'remove', thing: string): RegExp {
  const t = escape(thing.replace(/-/g, '_'));
  const v = verb === 'set' ? '(?:set|add|put|write)' : '(?:strip|remove|delete|drop|clear|unset|discard)';
  return new RegExp(String.raw`(?<![\w$])${v}_?${t}s?\s*\(`, 'i');
}

const indentOf = (l: string) => /^\s*/.exec(l)![0].replace(/\t/g, '    ').length;
const GUARD = /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while|for|switch|case|elif|except|catch|when|unless|default)\b|^\s*(?:\}\s*)?else\b/;

/** a branch after the first of its chain: else, else if, elif */
const ELSE = /^\s*(?:\}\s*)?(?:else\b|elif\b)/;

/** The conditions on the way to line `at` of a declaration: the blocks that hold it, a guard on its own line, early exits before it. */
export function guardsOf(lines: readonly string[], at: number): string[] {
  const held = blocksOf(lines, at);
  return [...held, ...exitsBefore(lines, at).filter((g) => !held.includes(`!(${g})`))];
}

/**
 * The conditions of the blocks that hold line `at` (and a guard on its own line), innermost first;
 * an earlier branch of the else chain it sits in as `!(…)`: its condition does not hold there.
 */
export function blocksOf(lines: readonly string[], at: number): string[] {
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
    // (their conditions do not hold there: `!(…)` — red team adv89's "checks TERM only when PAGER is set"
    // of a line in the else of `if pager_cmd_parts:`)
    if (inElse && ind === indent && GUARD.test(l)) {
      out.push(`!(${l.trim()})`);
      if (!ELSE.test(l)) inElse = false;
      continue;
    }
    if (ind < indent) {
      indent = ind;
      if (GUARD.test(l)) out.push(l.trim());
      inElse = ELSE.test(l);
    }
  }
  return out;
}

/**
 * The early exits before line `at`: `if (x) return`, or an if whose block returns (the line runs where
 * they do not hold). `level`: only those at the line's own depth or above it (one inside a block the
 * line is not in leaves it reachable).
 */
function exitsBefore(lines: readonly string[], at: number, level = false): string[] {
  const out: string[] = [];
  const indent = indentOf(lines[at] ?? '');
  for (let i = 0; i < at; i++) {
    const l = lines[i]!;
    if (level && indentOf(l) > indent) continue;
    if (/^\s*(?:\}\s*)?(?:else\s+)?if\b/.test(l) && (/\b(?:return|throw|raise|continue|break)\b/.test(l) || /^\s*(?:return|throw|raise)\b/.test(lines[i + 1] ?? ''))) out.push(l.trim());
  }
  return out;
}

/** A site of line `i` of a span. */
const siteAt = (s: CodeSpan, i: number): Site => ({ path: s.path, line: s.start + i, guards: guardsOf(s.lines, i), blocks: blocksOf(s.lines, i), exits: exitsBefore(s.lines, i, true) });

/** Whether line `at` stands in a finally block (the block that holds it opens with `finally`): it runs whether or not an exception is raised. */
export function inFinally(lines: readonly string[], at: number): boolean {
  const indent = indentOf(lines[at]!);
  for (let i = at - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (l.trim() && indentOf(l) < indent) return /^\s*(?:\}\s*)?finally\b/.test(l);
  }
  return false;
}

export interface Site {
  path: string;
  line: number;
  guards: string[];
  /** the conditions of the blocks that hold it (no early exits): what holds wherever it runs */
  blocks: string[];
  /** the early exits before it at its depth or above: what does not hold wherever it runs */
  exits: string[];
}

/** Where the code does `verb` to `thing`. */
export function sitesOf(spans: readonly CodeSpan[], verb: Verb, thing: string): Site[] {
  const out: Site[] = [];
  for (const s of spans) {
    for (let i = 0; i < s.lines.length && out.length < MAX_SITES; i++) {
      if (doesOnLine(s.lines[i]!, verb, thing)) out.push(siteAt(s, i));
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

/** a guard the line runs under only when it does not hold (the earlier branches of its chain) */
const negatedGuard = (g: string) => g.startsWith('!(');
/** `color is None` against `color is True`: one name tested for two values, with no other way in */
const LITERAL = String.raw`(?:None|True|False|null|undefined|true|false|\d+|'[^']*'|"[^"]*")`;
function conflicts(guard: string, cond: string): boolean {
  if (negatedGuard(guard) || /\|\||\bor\b|!==?|\bnot\b|\bis\s+not\b/.test(guard)) return false;
  const said = new RegExp(String.raw`([A-Za-z_$][\w$.]*)\s+(?:is|==|===|equals)\s+(${LITERAL})(?![\w$])`, 'g');
  for (const m of cond.matchAll(said)) {
    const tested = new RegExp(String.raw`(?<![\w$.])${escape(m[1]!)}\s*(?:\bis\b|===?)\s*(${LITERAL})(?![\w$])`).exec(guard);
    if (tested && tested[1]!.replace(/^['"]|['"]$/g, '').toLowerCase() !== m[2]!.replace(/^['"]|['"]$/g, '').toLowerCase()) return true;
  }
  return false;
}

const mentions = (guard: string, term: string) => (/^\d+$/.test(term) ? new RegExp(`(?<!\\d)${term}(?!\\d)`) : new RegExp(escape(term), 'i')).test(guard);
/** `304 === x`, `x == 'a'`: the guard holds in the case that names the term (not `!==`, not after a `!`) */
const equalsTerm = (guard: string, term: string) => {
  const t = /^\d+$/.test(term) ? term : String.raw`['"\`]?${escape(term)}['"\`]?`;
  return new RegExp(String.raw`(?<![!=<>])(?:===?|==|\bis\b)\s*${t}(?![\w$])|(?<![\w$.])${t}\s*(?:===?|==)(?!=)`, 'i').test(guard) && !/!\s*\(/.test(guard);
};

/** A case said of a thing's presence: set, given, non-empty, containing … */
const SAYS_PRESENT = /\b(?:contains?|containing|includes?|including|has|have|exists?)\b|\b(?:is|are)\s+(?:(?:already|still)\s+)?(?:set|given|provided|present|passed|specified|defined|non-?empty|not\s+empty|truthy)\b/i;
/** … or of its absence: empty, unset, missing, None … (read first: "is not set" is no presence) */
const SAYS_ABSENT = /\b(?:is|are)\s+(?:(?:still|already)\s+)?(?:empty|unset|missing|absent|blank|None|null|undefined|falsy|not\s+(?:set|given|provided|present|passed|specified|defined))\b|\b(?:does|do)\s*(?:not|n['’]t)\s+(?:contain|have|include|exist)\b|\bha(?:s|ve)\s+no\b|\black(?:s|ing)?\b|\bwithout\b|\bno\s+(?:[\w-]+\s+){1,3}(?:is|are)\s+(?:set|given|provided|passed|specified|present)\b/i;

function casePolarity(cond: string): 'present' | 'absent' | undefined {
  return SAYS_ABSENT.test(cond) ? 'absent' : SAYS_PRESENT.test(cond) ? 'present' : undefined;
}

const NAME = String.raw`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)`;
const ABSENT_TESTS = [
  new RegExp(String.raw`^(?:not\s+|!\s*)${NAME}$`),
  new RegExp(String.raw`^${NAME}\s+is\s+None$`),
  new RegExp(String.raw`^${NAME}\s*={2,3}\s*(?:null|undefined|None|''|""|0)$`),
  new RegExp(String.raw`^len\(\s*${NAME}\s*\)\s*={2}\s*0$`),
  new RegExp(String.raw`^${NAME}\.length\s*={2,3}\s*0$`),
];
const PRESENT_TESTS = [
  new RegExp(String.raw`^${NAME}$`),
  new RegExp(String.raw`^${NAME}\s+is\s+not\s+None$`),
  new RegExp(String.raw`^${NAME}\s*!={1,2}\s*(?:null|undefined|None)$`),
  new RegExp(String.raw`^len\(\s*${NAME}\s*\)\s*(?:>\s*0|>=\s*1)$`),
  new RegExp(String.raw`^${NAME}\.length\s*(?:>\s*0|>=\s*1)$`),
];

/** A guard's condition: its `if`/`while` and the block's `:` or `{` taken off, outer parentheses too; `negated` for an else's `!(…)`. */
function conditionOf(guard: string): { text: string; negated: boolean } {
  let g = guard.trim();
  const negated = /^!\((.*)\)$/s.exec(g);
  if (negated) g = negated[1]!.trim();
  g = g.replace(/^(?:\}\s*)?(?:else\s+)?(?:if|elif|while)\b\s*/, '').replace(/\s*(?::|\{)\s*$/, '').replace(/\s*\b(?:return|throw|raise|continue|break)\b.*$/, '').trim();
  for (let before = ''; before !== g; ) [before, g] = [g, g.replace(/^\((.*)\)$/s, '$1').trim()];
  return { text: g, negated: !!negated };
}

/** What one plain test says of a name: `x`, `x is not None`, `x.length > 0` (there); `!x`, `not x`, `x is None`, `len(x) == 0` (not). */
function testPolarity(g: string): { name: string; present: boolean } | undefined {
  const absent = ABSENT_TESTS.map((re) => re.exec(g)).find(Boolean);
  const present = absent ? undefined : PRESENT_TESTS.map((re) => re.exec(g)).find(Boolean);
  const m = absent ?? present;
  if (!m || /^(?:True|False|true|false|None|null|undefined)$/.test(m[1]!)) return undefined;
  return { name: m[1]!, present: !absent };
}

/**
 * What a guard says of names, where its plain tests hold wherever the line runs: each test of an
 * `&&` / `and` (all hold), one plain test, or each of an `||` / `or` turned round in an else's
 * `!(…)` (none held). Anything else says nothing here.
 */
export function guardPolarities(guard: string): { name: string; present: boolean }[] {
  const { text, negated } = conditionOf(guard);
  if (/[?]/.test(text)) return [];
  const and = /&&|\band\b/.test(text), or = /\|\||\bor\b/.test(text);
  if (and && or) return [];
  if ((and && negated) || (or && !negated)) return [];
  const parts = and || or ? text.split(/&&|\|\||\band\b|\bor\b/).map((x) => x.trim()) : [text];
  return parts.map(testPolarity).filter((p): p is { name: string; present: boolean } => p !== undefined).map((p) => ({ name: p.name, present: p.present !== negated }));
}

const stemOf = (w: string) => w.toLowerCase().replace(/(?:es|s)$/, '');
/** The words of a name (less_flags → less, flag; pagerCmd → pager, cmd), stemmed. */
const nameWords = (name: string) => name.split(/[._$]+|(?<=[a-z\d])(?=[A-Z])/).filter((w) => w.length > 2).map(stemOf);

/**
 * The guard of a site that says the case does not hold: the case says a thing is there (the R flag
 * is in the command line; PAGER is set) and the block the line runs in tests that a name of it is
 * not (`if not less_flags:`, the else of `if pager_cmd_parts:`), or the other way round (red team
 * adv89: "_pipepager sets LESS when the command line already contains the R flag", its LESS set
 * under `if not less_flags:`); or an early exit before the line fires in that case (red team adv93:
 * "#calculateRetryDelay checks retry.methods when the error is a ForceRetryError", after
 * `if (errorObject instanceof ForceRetryError) { return … }`).
 */
function againstCase(site: Site, cond: string): string | undefined {
  const words = caseWords(cond);
  const polarity = casePolarity(cond);
  if (polarity) {
    for (const g of site.blocks) {
      if (guardPolarities(g).some((p) => p.present !== (polarity === 'present') && nameWords(p.name).some((w) => words.has(w)))) return g;
    }
  }
  return site.exits.find((g) => exitFires(g, cond, site));
}

/** The guard of a site's blocks that says the case holds there: the same presence of a name the case says (`if (abortController)` for "when abortController is given"). */
export function caseHoldsAt(blocks: readonly string[], cond: string): string | undefined {
  const site: Site = { path: '', line: 0, guards: [...blocks], blocks: [...blocks], exits: [] };
  if (againstCase(site, cond)) return undefined;
  const polarity = casePolarity(cond);
  const words = caseWords(cond);
  const byPresence = polarity && blocks.find((g) => guardPolarities(g).some((p) => p.present === (polarity === 'present') && nameWords(p.name).some((w) => words.has(w))));
  // (or a test that reads the case's own code words the same way round: `if (errorObject instanceof ForceRetryError)`
  // for "when the error is a ForceRetryError" — red team adv93)
  return byPresence || blocks.find((g) => readsCase(g, cond));
}

/** The terms of a case that are code names (dotted, hyphenated, camelCase): what ties a test to it beyond a shared word. */
const codeNamesOf = (cond: string) => conditionTerms(cond).filter((t) => /[-.]|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(t));

/** A guard whose test reads the case's code words (a dotted or camelCase name), said the same way round, with no `&&` that may keep it from holding. */
function readsCase(guard: string, cond: string): boolean {
  const { text, negated } = conditionOf(guard);
  if (negated || /&&|\band\b/.test(text)) return false;
  const strong = codeNamesOf(cond);
  if (strong.length === 0 || !strong.some((t) => mentions(text, t))) return false;
  const negatedTest = ((text.match(/!(?!=)|\bnot\b/g) ?? []).length + (text.match(/!==?|\bis\s+not\b/g) ?? []).length) % 2 === 1;
  return negatedTest === negativeCase(cond);
}

/** The words of a case that name code: its code names and plain words, split and stemmed. */
const caseWords = (cond: string) => new Set(conditionTerms(cond).flatMap((t) => nameWords(t)));

/** Whether a case is said negatively ("is not in", "never", "no …", "is false", "is empty"): against a test that reads it plainly. */
const negativeCase = (cond: string) => /\b(?:not|never|no|without|false|falsy|disabled|off|empty|missing|unset|absent|none|null|undefined)\b|n['’]t\b/i.test(cond);

/**
 * An early exit that fires in the case: its test reads the case's own code words (a dotted name, a
 * camelCase name, a number), said the same way round (`!x.includes(…)` for "is not in x"), and no
 * `&&` that might keep it from firing; the site's own blocks do not read the case (then it is the
 * case's branch, not the rest).
 */
function exitFires(exit: string, cond: string, site: Site): boolean {
  const strong = codeNamesOf(cond);
  if (site.blocks.some((g) => strong.some((t) => mentions(g, t)))) return false;
  return readsCase(exit, cond);
}

/** A case and what it holds "even if": "when TERM is dumb even if PAGER is set" is two cases that both hold. */
const casesOf = (cond: string): string[] => cond.split(/\s*,?\s*\beven\s+(?:if|when|though)\b\s*/i).filter((x) => x.trim());

const place = (s: Site) => `${s.path}:${s.line}`;
/** A guard as a reader says it: an earlier branch's `!(if x:)` is "the else of 'if x:'". */
const shown = (g: string) => (g.startsWith('!(') ? `the else of '${g.slice(2, -1).slice(0, 80)}'` : `'${g.slice(0, 80)}'`);

/** The guard of a site that does not hold in the case or in what it holds "even if". */
const againstAll = (site: Site, cond: string) => casesOf(cond).map((k) => againstCase(site, k)).find(Boolean);

/** Where a line runs, said against the case: under a block's test, or after an early exit has left it. */
const onlyThere = (site: Site, g: string) => `${site.exits.includes(g) ? `after ${shown(g)} has left it` : `under ${shown(g)}`} (${place(site)}), which does not hold in that case`;

/** The terms that tie a guard to a case: its numbers and code names where it has some, else all its words. */
function tieTerms(cond: string): string[] {
  const said = conditionTerms(cond);
  const strong = said.filter((t) => /^\d+$|[-.]|[a-z][A-Z]|^[A-Z]{2}/.test(t));
  return strong.length > 0 ? strong : said;
}
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
  // (a number, a header or a code name in the case is what ties a guard to it; "status" in 204 === statusCode does not: red team adv86)
  const terms = c.cond ? tieTerms(c.cond) : [];
  const theirs = sitesOf(helpers, c.verb, c.thing);
  if (!c.denied && !c.only) {
    if (mine.length === 0 && theirs.length === 0) {
      if (!writes(own) && !writes(helpers)) return `${said}, and ${c.thing} is written nowhere in ${c.subject}'s code nor in the code it calls`;
      // named, but only where it is done something else to (read where the claim says removed), here or one call down
      const doneTo = (['set', 'remove', 'check'] as Verb[]).filter((v) => v !== c.verb && (sitesOf(own, v, c.thing).length > 0 || sitesOf(helpers, v, c.thing).length > 0));
      if (doneTo.length > 0) return `${said}, and its code (and the code it calls) ${doneTo.map((v) => VERB_SAID[v]).join(' and ')} ${c.thing} but never ${VERB_SAID[c.verb]} it`;
      return undefined;
    }
    // "removes X when C": where every line that does it runs only in named cases (a guard that tests for a
    // value: `304 === status`, `case 'x':`) and no guard reads C, the case is another one (red team adv86:
    // "removes Content-Length when Transfer-Encoding is set", the removal under 204/304). A broad guard
    // (`chunk !== undefined`) may hold in C: left alone.
    const all = mine.length > 0 ? mine : theirs;
    // (a line that runs only where the case says a thing is not there, or only where it is, when the case says the other)
    if (c.cond && all.every((x) => againstAll(x, c.cond!)))
      return `${said} when ${c.cond.trim()}, and its code does it only ${onlyThere(all[0]!, againstAll(all[0]!, c.cond)!)}`;
    // (a guard that tests the case's name for another value: "sets LESS when color is True" of a line under `color is None` — red team adv89)
    const other = all.find((x) => x.guards.some((g) => conflicts(g, c.cond ?? '')));
    if (c.cond && all.every((x) => x.guards.some((g) => conflicts(g, c.cond!))))
      return `${said} when ${c.cond.trim()}, and its code does it only under '${other!.guards.find((g) => conflicts(g, c.cond!))!.slice(0, 80)}' (${place(other!)}), another value`;
    const named = (g: string) => /(?<![!=<>])={2,3}\s*(?:['"`\d]|[A-Z_]{2,}\b)|['"`\d][^=!]*?(?<![!=<>])={2,3}(?!=)|^\s*case\b/.test(g);
    if (c.cond && terms.length > 0 && all.every((x) => x.guards.some(named) && !terms.some((t) => x.guards.some((g) => mentions(g, t)))))
      return `${said} when ${c.cond.trim()}, and its code does it only under ${[...new Set(all.flatMap((x) => x.guards))].slice(0, 3).map((g) => `'${g.slice(0, 60)}'`).join(', ')} (${place(all[0]!)}), none of which reads ${terms.slice(0, 4).join(', ')}`;
    return undefined;
  }
  // (what it does through the code it calls counts where its own code does not: "res.json never sets Content-Length")
  const sites = mine.length > 0 ? mine : theirs;
  if (sites.length === 0) return undefined;
  if (c.cond && terms.length === 0) return undefined; // a case the code cannot be asked about
  // a site no condition on the way ties to the case: it runs in the case too
  // (a line guarded by a test for other numbers — 204 === status — does not run for the case's number: "unless the status is 200")
  const numbers = terms.filter((t) => /^\d+$/.test(t));
  const otherNumbers = (x: Site) => numbers.length > 0 && x.guards.some((g) => /(?<![!=<>])={2,3}\s*\d|\d+\s*={2,3}(?!=)/.test(g));
  const untied = sites.filter((x) => !terms.some((t) => x.guards.some((g) => mentions(g, t))));
  // (for "only when the status is 204": a guard `204 === s || 304 === s` also runs for 304, a number the case does not name)
  const widerCase = (x: Site) => numbers.length > 0 && x.guards.some((g) => /\|\|/.test(g) && [...g.matchAll(/(?<![\w.])(\d{2,})(?![\w.])/g)].some((m) => !numbers.includes(m[1]!)) && !/!\s*\(|!==?/.test(g));
  const regardless = untied.find((x) => !otherNumbers(x));
  // a site guarded by the very case ("304 === this.statusCode" for "when the status is 304")
  const inCase = c.cond ? sites.find((x) => terms.some((t) => x.guards.some((g) => equalsTerm(g, t)))) : undefined;
  const how = mine.length > 0 ? '' : ' (in the code it calls)';
  if (c.denied && !c.only) {
    if (!c.cond && regardless) return `${said.replace(VERB_SAID[c.verb], `does not ${c.verb === 'check' ? 'check' : c.verb}`)}, and its code does at ${place(regardless)}${how}`;
    if (inCase) return `${c.subject} does not ${c.verb} ${c.thing} when ${c.cond!.trim()}, and its code does at ${place(inCase)}${how}, in that very case (${inCase.guards.find((g) => terms.some((t) => equalsTerm(g, t)))!.slice(0, 80)})`;
    if (regardless) return `${c.subject} does not ${c.verb} ${c.thing} when ${c.cond!.trim()}, and its code does at ${place(regardless)}${how} with no condition on the way that reads ${terms.slice(0, 4).join(', ')}: it does it in that case too`;
    return undefined;
  }
  // "only when C": every site must be tied to the case
  // (a line under another case — 204 === status, for "only when the status is 205" — is one too)
  const wider = sites.find(widerCase);
  if (c.only && c.cond && untied.length === 0 && wider && !c.denied)
    return `${said} only when ${c.cond.trim()}, and its code does it at ${place(wider)}${how} under '${wider.guards.find((g) => /\|\|/.test(g))!.slice(0, 80)}', which holds in other cases too`;
  if (c.only && c.cond && untied.length > 0 && !c.denied)
    return `${said} only when ${c.cond.trim()}, and its code does at ${place(untied[0]!)}${how} with no condition on the way that reads ${terms.slice(0, 4).join(', ')}${untied[0]!.guards.length > 0 ? ` (under '${untied[0]!.guards[0]!.slice(0, 60)}')` : ''}`;
  const otherBranch = sites.find((x) => !terms.some((t) => x.guards.some((g) => !negatedGuard(g) && mentions(g, t))));
  if (c.only && c.cond && otherBranch && !c.denied)
    return `${said} only when ${c.cond.trim()}, and its code does at ${place(otherBranch)}${how} in the branch where '${otherBranch.guards.find(negatedGuard)!.slice(2, 62)}' does not hold`;
  return undefined;
}

/**
 * "A returns X when C" (X a name: a value, a function whose call it returns): where every line of
 * A's code that returns X in that case — the ones whose conditions read C, else all — runs only in a
 * block whose plain test says the opposite of C (or of what C holds "even if"): red team adv89's
 * "_pager_contextmanager returns _nullpager when TERM is dumb even if PAGER is set", whose TERM test
 * stands in the else of `if pager_cmd_parts:`.
 */
export function wrongReturnCase(subject: string, value: string, cond: string, own: readonly CodeSpan[]): string | undefined {
  const v = escape(value);
  const returned = new RegExp(String.raw`\breturn\b[^;\n]*?(?<![\w$])${v}(?![\w$])`);
  // (`return x ?? y`, `return x || y`: x is returned only where it is there — red team adv93's "returns
  // customDelay … even if customDelay is not set")
  const fallback = new RegExp(String.raw`(?<![\w$])${v}\s*(?:\?\?|\|\|)`);
  const sites: Site[] = [];
  for (const s of own) {
    for (let i = 0; i < s.lines.length && sites.length < MAX_SITES; i++) {
      if (!returned.test(s.lines[i]!)) continue;
      const site = siteAt(s, i);
      if (fallback.test(s.lines[i]!)) site.blocks.push(value);
      sites.push(site);
    }
  }
  if (sites.length === 0) return undefined;
  const terms = tieTerms(casesOf(cond)[0] ?? cond);
  // (the lines that run because of C: a block that holds them reads it — not an early exit on C before them)
  const tied = sites.filter((x) => terms.some((t) => x.blocks.some((g) => mentions(g, t))));
  const pool = tied.length > 0 ? tied : sites;
  if (!pool.every((x) => againstAll(x, cond))) return undefined;
  return `${subject} returns ${value} when ${cond.trim()}, and its code returns it there only ${onlyThere(pool[0]!, againstAll(pool[0]!, cond)!)}`;
}

/**
 * "A closes / terminates … X when C": where every line of A's code that does the deed (`does`) runs
 * only where C does not hold (red team adv93: "timeout terminates the fetch when abortController is
 * not given", its abort() under `if (abortController)`). Undefined where A's own code does not do it
 * (the code it calls is judged without a case).
 */
export function wrongDeedCase(subject: string, deed: string, does: RegExp, cond: string, own: readonly CodeSpan[]): string | undefined {
  const sites: Site[] = [];
  for (const s of own) for (let i = 0; i < s.lines.length && sites.length < MAX_SITES; i++) if (does.test(s.lines[i]!)) sites.push(siteAt(s, i));
  if (sites.length === 0 || !sites.every((x) => againstAll(x, cond))) return undefined;
  return `${subject} ${deed} when ${cond.trim()}, and its code does it only ${onlyThere(sites[0]!, againstAll(sites[0]!, cond)!)}`;
}
