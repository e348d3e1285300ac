/**
 * A textbook BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework", 2009), written
 * apart from code-intel's src/ as the baseline for the relevance benchmark:
 *
 *   score(D, Q) = Σ_{t ∈ Q} idf(t) · tf(t, D)·(k1 + 1) / (tf(t, D) + k1·(1 − b + b·|D| / avgdl))
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *
 * with k1 = 1.2, b = 0.75, one field (the document's full text) and the query's distinct terms.
 * Words: identifiers split at camelCase / snake_case / digits boundaries and lower-cased, English
 * stop words removed; CJK runs (which have no spaces) become character bigrams.
 */

export const STOP = new Set(
  ('a an the of to in on for and or is are be by with from at as it its this that these those when if then not no do does did should would can could ' +
    'will was were has have had been being into onto than so such also may might must how where what which who why via per ' +
    // request verbs that say nothing about the code
    'add adds added fix fixes fixed make makes support supports allow allows avoid ensure properly correctly correct now instead ' +
    // keywords every declaration's text is full of
    'const let var return function export import new true false null undefined void type string number boolean any unknown').split(' '),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Words of a text or identifier: `parseHTTPRequest_v2` → parse, http, request, v2. */
export function words(text: string, keepStop = false): string[] {
  const out: string[] = [];
  for (const chunk of text.normalize('NFKC').split(/[^\p{L}\p{N}]+/u)) {
    if (!chunk) continue;
    if (CJK.test(chunk)) {
      // split CJK from Latin inside the run (`Pinia的store`), bigrams for the CJK parts
      for (const part of chunk.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u)) {
        if (!part) continue;
        if (CJK.test(part)) {
          const cs = [...part];
          if (cs.length === 1) out.push(part);
          for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i]! + cs[i + 1]!);
        } else out.push(...words(part, keepStop));
      }
      continue;
    }
    const parts = chunk
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .split(/\s+/);
    for (const p of parts) {
      if (!p) continue;
      const w = p.toLowerCase();
      if (!keepStop && (STOP.has(w) || w.length < 2)) continue;
      out.push(w);
    }
  }
  return out;
}

export interface Bm25Hit<T> {
  item: T;
  score: number;
}

export class Bm25<T> {
  static readonly k1 = 1.2;
  static readonly b = 0.75;
  private readonly tfs: Map<string, number>[];
  private readonly lens: number[];
  private readonly df = new Map<string, number>();
  private readonly postings = new Map<string, number[]>();
  readonly avgdl: number;

  constructor(private readonly items: readonly T[], text: (item: T) => string) {
    this.tfs = [];
    this.lens = [];
    let total = 0;
    items.forEach((it, i) => {
      const ws = words(text(it));
      const tf = new Map<string, number>();
      for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) {
        this.df.set(w, (this.df.get(w) ?? 0) + 1);
        let p = this.postings.get(w);
        if (!p) this.postings.set(w, (p = []));
        p.push(i);
      }
      this.tfs.push(tf);
      this.lens.push(ws.length);
      total += ws.length;
    });
    this.avgdl = items.length ? total / items.length : 1;
  }

  get size(): number {
    return this.items.length;
  }

  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.items.length - n + 0.5) / (n + 0.5));
  }

  /** Every item with a positive score, best first (ties: original order). */
  search(query: string): Bm25Hit<T>[] {
    const terms = [...new Set(words(query))];
    const scores = new Map<number, number>();
    const { k1, b } = Bm25;
    for (const t of terms) {
      const idf = this.idf(t);
      for (const i of this.postings.get(t) ?? []) {
        const tf = this.tfs[i]!.get(t)!;
        const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.lens[i]!) / this.avgdl));
        scores.set(i, (scores.get(i) ?? 0) + s);
      }
    }
    return [...scores.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([i, score]) => ({ item: this.items[i]!, score }));
  }
}
