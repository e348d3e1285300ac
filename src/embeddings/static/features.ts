/**
 * What the code-search model sees: a request or a declaration as weighted token ids.
 *
 * Words come from the same splitters the rest of the engine uses (identifiers split at camelCase
 * and snake_case, Japanese and Chinese requests turned into English words through the glossary by
 * conceptsOf), so the model and the keyword leg read text alike. A word in the vocabulary is one
 * token; a word outside it (a project's own names) is its character trigrams hashed into buckets,
 * shared by both sides, so a rare name written in the request still meets itself in the code.
 *
 * A declaration is read by field — name, container, path, signature, body words, doc comment — because the
 * same word means more in a name than in a body; the model learns one weight per field and one
 * per token and side (how much `get` says in a request is not how much it says in code).
 */
import { KEYWORDS } from '../chunks.js';
import { conceptsOf, identifierWords, type Lexicon, lexicon, untranslated } from '../text.js';

export const FIELDS = ['query', 'name', 'container', 'path', 'signature', 'body', 'doc'] as const;
export type Field = (typeof FIELDS)[number];
const FIELD_ID: Record<Field, number> = { query: 0, name: 1, container: 2, path: 3, signature: 4, body: 5, doc: 6 };

/** Token ids with their base weight and field, one entry per distinct (token, field). */
export interface Features {
  ids: Int32Array;
  base: Float32Array;
  fields: Uint8Array;
}

export interface CodeInput {
  name: string;
  container: string | null;
  path: string;
  signature: string;
  /** the chunker's body words, space-separated */
  body: string;
  /** the doc comment above the declaration, when the code has one */
  doc?: string;
}

/**
 * A vocabulary of whole words, then `buckets` hashed trigram slots. With `subwords` > 0 a known word
 * also brings its trigrams, together weighing `subwords` of the word's own token, so that forms of
 * one word (emit, emits, emitted, emitter) share part of their vector.
 */
export class Vocab {
  readonly index: Map<string, number>;
  constructor(readonly words: string[], readonly buckets: number, readonly subwords = 0) {
    this.index = new Map(words.map((w, i) => [w, i]));
  }
  get size(): number {
    return this.words.length + this.buckets;
  }
}

/** FNV-1a, 32 bits: stable across platforms and versions (the model file depends on it). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const PATH_NOISE = new Set(['src', 'lib', 'dist', 'esm', 'cjs', 'es', 'index', 'ts', 'js', 'mjs', 'cjs', 'tsx', 'jsx', 'build', 'packages', 'internal', 'code']);

class Builder {
  private readonly acc = new Map<number, number>(); // (id << 3 | field) → weight
  constructor(private readonly vocab: Vocab) {}

  word(w: string, field: Field, weight = 1): void {
    const id = this.vocab.index.get(w);
    const f = FIELD_ID[field];
    if (id !== undefined) {
      this.add(id, f, weight);
      if (this.vocab.subwords > 0 && w.length >= 4) this.trigrams(w, f, weight * this.vocab.subwords);
      return;
    }
    if (w.length >= 2) this.trigrams(w, f, weight);
  }

  private trigrams(w: string, f: number, weight: number): void {
    const padded = `<${w}>`;
    const n = padded.length - 2;
    for (let i = 0; i < n; i++) this.add(this.vocab.words.length + (fnv1a(padded.slice(i, i + 3)) % this.vocab.buckets), f, weight / n);
  }

  private add(id: number, field: number, weight: number): void {
    const key = id * 8 + field;
    this.acc.set(key, (this.acc.get(key) ?? 0) + weight);
  }

  build(): Features {
    const n = this.acc.size;
    const out: Features = { ids: new Int32Array(n), base: new Float32Array(n), fields: new Uint8Array(n) };
    let i = 0;
    for (const [key, w] of this.acc) {
      out.ids[i] = Math.floor(key / 8);
      out.fields[i] = key % 8;
      out.base[i] = w;
      i++;
    }
    return out;
  }
}

/** The words of a request: its concepts, each spread evenly over its English alternatives. */
export function requestWords(text: string, lex: Lexicon = lexicon(), namesCode?: (w: string) => boolean): { word: string; weight: number }[] {
  const out: { word: string; weight: number }[] = [];
  for (const c of conceptsOf(text, lex, namesCode)) {
    // the model learned no Japanese or Chinese: an untranslated word would be hashed noise
    if (untranslated(c)) continue;
    const words = [...new Set(c.words.flatMap((w) => identifierWords(w)))];
    for (const w of words) out.push({ word: w, weight: 1 / words.length });
  }
  return out;
}

export function queryFeatures(vocab: Vocab, text: string, lex?: Lexicon, namesCode?: (w: string) => boolean): Features {
  const b = new Builder(vocab);
  for (const { word, weight } of requestWords(text, lex, namesCode)) b.word(word, 'query', weight);
  return b.build();
}

export function codeFeatures(vocab: Vocab, c: CodeInput): Features {
  const b = new Builder(vocab);
  const distinct = (ws: string[]) => [...new Set(ws)];
  for (const w of distinct(identifierWords(c.name))) b.word(w, 'name');
  if (c.container) for (const w of distinct(identifierWords(c.container))) b.word(w, 'container');
  const p = c.path.replace(/\.[a-z]+$/i, '').split('/').slice(-3).join(' ');
  for (const w of distinct(identifierWords(p))) if (!PATH_NOISE.has(w)) b.word(w, 'path');
  for (const w of distinct(identifierWords(c.signature.slice(0, 300)))) if (!KEYWORDS.has(w) && !/^\d+$/.test(w)) b.word(w, 'signature');
  for (const w of c.body.split(' ')) if (w) b.word(w, 'body');
  if (c.doc) for (const { word, weight } of requestWords(c.doc.slice(0, 600))) b.word(word, 'doc', weight);
  return b.build();
}
