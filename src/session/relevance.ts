/**
 * Relevance of a code symbol to the user's target feature, behind an interface so the embeddings
 * layer can replace the lexical scorer. The three tiers mean the same for every backend:
 *   > 0.6  FACT       the symbol's own name (or container) names most of the feature's concepts,
 *                     and its name says nothing else (factCap: for the target "ref", `ComputedRef`
 *                     carries the word but is another thing; `ref` is the thing)
 *   0.3–0.6 accepted, risk raised to HIGH: partial — only some concepts, only in its path or
 *          signature, or linked to the feature through verified code evidence
 *   < 0.3  rejected   no connection the scorer can see
 */
import { coverageOf, keywordDoc } from '../embeddings/keyword.js';
import { conceptsOf, STOP_EN, wordMatch } from '../embeddings/text.js';
import { splitWords } from '../util/words.js';

export interface SymbolProfile {
  name: string;
  container: string | null;
  file: string;
  signature: string;
}

export interface RelevanceScorer {
  readonly backend: string;
  /** `evidence`: code text the server verified (from the agent's code_evidence), if any */
  score(target: string, symbol: SymbolProfile, evidence?: string): number;
}

export const TIER = { fact: 0.6, accept: 0.3 } as const;
export type Tier = 'FACT' | 'ACCEPTED_HIGH_RISK' | 'REJECTED';
export function tierOf(score: number): Tier {
  return score > TIER.fact ? 'FACT' : score >= TIER.accept ? 'ACCEPTED_HIGH_RISK' : 'REJECTED';
}

/**
 * The highest score a symbol may get for a target: a FACT is a symbol whose name says the
 * feature and nothing more; a name with words of its own (`ComputedRef`, `hasScopeRef` for "ref";
 * `makeObservable` for "ObservableSet") is at most accepted with risk HIGH. On the real-commit
 * bench with the targets agents set, FACT precision was 29 % (eval EN) with the words alone.
 */
export function factCap(target: string, name: string, declared?: (name: string) => boolean): number {
  if (extendsNamedCode(target, name) || sharesNamedCode(target, name, declared)) return TIER.accept - 0.01;
  return ownWords(target, name).length > 0 ? TIER.fact : 1;
}

/**
 * The functions a text writes as code: a dotted name's last part (res.send → send), a callee (send()
 * → send). (A bare `radix` in backticks may name a rule or a file: the words judge it.)
 */
function codeWritten(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|(?<![\w$.])[A-Za-z_$][\w$]*(?=\()/g)) out.push(m[0].split('.').pop()!);
  return out.filter((n) => n.length >= 3);
}

/**
 * A name that carries the code the target writes and more: `sendFile` for a target of `res.send()`.
 * Another identifier, however many of its words the target says (red team adv85: sendFile was
 * accepted for res.send() on the word `send`, then learned): it counts only through the code that
 * links it (validation's link pass), never by its name.
 */
export function extendsNamedCode(target: string, name: string): boolean {
  const named = codeWritten(target);
  if (named.length === 0 || named.some((n) => n.toLowerCase() === name.toLowerCase())) return false;
  const words = splitWords(name).map((w) => w.toLowerCase());
  return named.some((n) => {
    const parts = splitWords(n).map((w) => w.toLowerCase());
    return parts.length > 0 && parts.every((p) => words.includes(p)) && words.length > parts.length;
  });
}

/**
 * A target that is nothing but code (`req.acceptsCharsets()`) names those declarations: another
 * name that shares only some of its words (`acceptsLanguages`, `setCharset`, `acceptParams`) is a
 * neighbour of that code by its spelling, not part of it — it counts only through the code that
 * links it (red team adv91: three such names made the minimum of a MODIFY with none of them relevant).
 * The parts of the dotted name themselves (`req`, the holder) are the named-code leg's business.
 * Only code the project declares (`declared`, by its last part): "mapHelpers" for pinia's
 * mapHelpers.ts names a family of functions, not one (mapState is one of them).
 */
export function sharesNamedCode(target: string, name: string, declared: (name: string) => boolean = () => true): boolean {
  const names = namedCodeOnly(target, declared);
  if (!names) return false;
  const parts = names.flatMap((n) => n.split('.'));
  if (parts.some((p) => p.toLowerCase() === name.toLowerCase())) return false;
  const said = [...new Set(parts.flatMap((p) => splitWords(p).map((w) => w.toLowerCase())))];
  const words = splitWords(name).filter((w) => !STOP_EN.has(w.toLowerCase()));
  const has = (c: string) => words.some((w) => wordMatch(c, w) >= 0.7);
  // (a name that says a whole code name is a variant of it — hashCodeOf of `hashCode` — or carries
  // it and more, extendsNamedCode's business)
  if (names.some((n) => n.split('.').some((p) => splitWords(p).every((w) => STOP_EN.has(w.toLowerCase()) || has(w.toLowerCase()))))) return false;
  return said.some(has);
}

/**
 * The code names a target is made of, where it is nothing but code the project declares
 * (`req.acceptsCharsets()`, `combineURLs()`: every content word is a word of them, each declared by
 * its last part); undefined otherwise. Such a target names declarations: what else answers it is
 * linked to them by the code, not ranked by its words (red team adv92: `deduplicate`, whose body
 * holds a local `combined`, ranked #3 for `combineURLs()`).
 */
export function namedCodeOnly(target: string, declared: (name: string) => boolean = () => true): string[] | undefined {
  const names = codeNamesWritten(target);
  if (names.length === 0 || !names.every((n) => declared(n.split('.').pop()!))) return undefined;
  // every content word of the target is a word of the code it writes
  const rest = target.replace(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g, (w) => (names.includes(w) ? ' ' : w));
  if (splitWords(rest).some((w) => w.length > 2 && !STOP_EN.has(w.toLowerCase()))) return undefined;
  return names;
}

/** The names a text writes as code: dotted, camelCase, snake_case, called, or in backticks. */
export function codeNamesWritten(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?=\(|`|\.|$|\s|\)|,|;|:)/g)].map((m) => m[0])
    .filter((n) => n.includes('.') || /[a-z][A-Z]|_|\$|\d/.test(n) || text.includes(`${n}(`) || text.includes(`\`${n}\``)))];
}

/** The words of a name the target does not say: what keeps it below FACT (factCap). */
export function ownWords(target: string, name: string): string[] {
  // (the target's own words too: a generic word such as `code` in `hashCode` is no concept, but the target says it)
  const said = [...conceptsOf(target).flatMap((c) => c.words), ...splitWords(target)];
  // (in a name, make, has and add say something: only the small joining words say nothing, `isNaN`'s is)
  // (a leading `get` names the accessor of what the rest says: get_help_option_names for "help option
  // names" is that feature, not more — agent trial tr163 had it held below FACT)
  const words = splitWords(name);
  const accessor = words.length > 1 && words[0]!.toLowerCase() === 'get' ? 1 : 0;
  return words.slice(accessor).filter((w) => !(w.length <= 2 && STOP_EN.has(w)) && !said.some((a) => wordMatch(a, w) >= 0.7));
}

/** Whether the target says a word of a name (a content word, not a joining one): `ctxStorage` for 'AsyncLocalStorage used by app.currentContext'. */
export function targetSaysWordOf(target: string, name: string): boolean {
  const said = conceptsOf(target).flatMap((c) => c.words);
  return splitWords(name).some((w) => w.length > 2 && !STOP_EN.has(w.toLowerCase()) && said.some((a) => wordMatch(a, w) >= 0.7));
}

/** A target feature as concepts; each concept is a set of English words any of which expresses it. */
export function concepts(target: string): string[][] {
  return conceptsOf(target).map((c) => c.words);
}

/**
 * The lexical backend on its own (no project corpus: every concept weighs the same). The session
 * uses the hybrid engine (src/embeddings/engine.ts), whose keyword leg is this same coverage with
 * project IDF weights, doc comments and body words.
 */
export class LexicalRelevanceScorer implements RelevanceScorer {
  readonly backend = 'lexical';

  score(target: string, s: SymbolProfile, evidence?: string): number {
    return coverageOf(conceptsOf(target), keywordDoc({ name: s.name, container: s.container, path: s.file, signature: s.signature, evidence })).coverage;
  }
}
