/**
 * English compounds a request writes as one word where the code writes its parts apart: "autofix"
 * in a request, `fix(fixer)` and `canFix` in the rule (prose writes "autofix", "timestamp", "dataset";
 * identifiers split at the case change). English compounds are right-headed (an autofix is a fix),
 * so the head, when the project uses it more than the compound, becomes a weak alternative of the
 * concept: it says part of what the word says, never all of it.
 */
import type { KeywordIndex } from './keyword.js';
import { type Concept, FUNCTION_WORDS_EN, GENERIC_EN } from './text.js';

const MIN_PART = 3;
const MIN_WORD = 2 * MIN_PART;

/** The concepts with the head of every compound request word the project writes apart. */
export function withCompoundHeads(concepts: Concept[], index: KeywordIndex): Concept[] {
  return concepts.map((c) => {
    const head = c.source === 'query' ? compoundHead(c.term, index) : undefined;
    return head && !c.words.includes(head) ? { ...c, weak: [...(c.weak ?? []), head] } : c;
  });
}

/**
 * The longest head `h` of `word` = modifier + h, both words of the project,
 * where the project uses `h` in more documents than `word`; undefined when there is none. A
 * request verb may be the head (autofix, hotfix), a function word may not (checkout → out).
 */
export function compoundHead(word: string, index: KeywordIndex): string | undefined {
  if (word.length < MIN_WORD || !/^[a-z]+$/.test(word)) return undefined;
  const own = index.documentsWith(word);
  for (let i = MIN_PART; i <= word.length - MIN_PART; i++) {
    const modifier = word.slice(0, i), head = word.slice(i);
    if (!usable(modifier, index) || !usable(head, index)) continue;
    if (index.documentsWith(head) > own) return head;
  }
  return undefined;
}

const usable = (w: string, index: KeywordIndex) => !FUNCTION_WORDS_EN.has(w) && !GENERIC_EN.has(w) && index.knows(w);
