/**
 * The keyword leg (and the whole lexical backend): a request's concepts matched against the
 * fields of a symbol or chunk — name, container, path, doc comment, signature, body identifiers.
 *
 * Two numbers per candidate:
 *   coverage  the tier-scale relevance: the share of the request's concepts the candidate expresses,
 *             each concept weighted by its IDF in the project and credited by the best field it
 *             matched in (name/container 1, path 0.6, doc comment 0.5, verified evidence 0.45,
 *             signature 0.4, body 0.15). 1 = the name says all of it; a name that says half of a
 *             two-concept request and nothing else stays below 0.6.
 *   bm25      a BM25F-style retrieval score (field-weighted, saturated term frequency, IDF), used to
 *             order candidates with equal coverage and as the plain keyword baseline.
 */
import { splitWords } from '../util/words.js';
import { alternativesOf, type Concept, identifierWords, STOP_EN, wordMatch } from './text.js';

export const FIELDS = ['name', 'container', 'path', 'doc', 'sig', 'body', 'evidence'] as const;
export type FieldName = (typeof FIELDS)[number];
export const CREDIT: Record<FieldName, number> = { name: 1, container: 1, path: 0.6, doc: 0.5, evidence: 0.45, sig: 0.4, body: 0.15 };
const BM25_WEIGHT: Record<FieldName, number> = { name: 3, container: 1.5, path: 1, doc: 1.5, evidence: 1, sig: 1, body: 0.6 };
const K1 = 1.2;

export type KeywordDoc = Partial<Record<FieldName, string[]>>;

export function keywordDoc(x: { name: string; container?: string | null; path: string; doc?: string; signature?: string; body?: string; evidence?: string }): KeywordDoc {
  const clean = (ws: string[]) => ws.filter((w) => !STOP_EN.has(w));
  return {
    name: splitWords(x.name),
    container: splitWords(x.container ?? ''),
    path: splitWords(x.path.replace(/\.[^./]+$/, '')),
    doc: clean(identifierWords(x.doc ?? '')),
    sig: splitWords(x.signature ?? ''),
    body: x.body ? x.body.split(' ') : [],
    evidence: x.evidence ? clean(identifierWords(x.evidence)) : [],
  };
}

/** Credit and BM25 contribution of one concept in one document. */
function conceptInDoc(c: Concept, doc: KeywordDoc): { credit: number; tf: number } {
  let credit = 0, tf = 0;
  for (const f of FIELDS) {
    const ws = doc[f];
    if (!ws || ws.length === 0) continue;
    let best = 0;
    for (const [alt, deg] of alternativesOf(c)) for (const w of ws) {
      const m = deg * wordMatch(alt, w);
      if (m > best) best = m;
      if (best === 1) break;
    }
    if (best > 0) {
      credit = Math.max(credit, best * CREDIT[f]);
      tf += best * BM25_WEIGHT[f];
    }
  }
  return { credit, tf };
}

/** Coverage (tier scale) of one document, with per-concept IDF weights (uniform when not given). */
export function coverageOf(concepts: Concept[], doc: KeywordDoc, idf?: (c: Concept) => number): { coverage: number; bm25: number; matched: string[] } {
  if (concepts.length === 0) return { coverage: 0, bm25: 0, matched: [] };
  let num = 0, den = 0, bm25 = 0;
  const matched: string[] = [];
  for (const c of concepts) {
    const w = idf ? idf(c) : 1;
    const { credit, tf } = conceptInDoc(c, doc);
    num += w * credit;
    den += w;
    bm25 += w * ((tf * (K1 + 1)) / (tf + K1));
    if (credit > 0) matched.push(c.term);
  }
  return { coverage: round(num / den), bm25, matched };
}

const round = (x: number) => Math.round(Math.min(1, x) * 1000) / 1000;

const MASK: Record<FieldName, number> = { name: 1, container: 2, path: 4, doc: 8, sig: 16, body: 32, evidence: 64 };

/** An inverted index over many documents, for search and for project-wide IDF. */
export class KeywordIndex {
  private postings = new Map<string, Map<number, number>>();
  private byPrefix = new Map<string, string[]>();
  readonly size: number;

  constructor(docs: KeywordDoc[]) {
    this.size = docs.length;
    docs.forEach((d, i) => {
      for (const f of FIELDS) for (const w of d[f] ?? []) {
        let p = this.postings.get(w);
        if (!p) {
          this.postings.set(w, (p = new Map()));
          const k = w.slice(0, 3);
          const same = this.byPrefix.get(k);
          if (same) same.push(w); // not a copy per new word: a prefix shared by thousands of words was quadratic
          else this.byPrefix.set(k, [w]);
        }
        p.set(i, (p.get(i) ?? 0) | MASK[f]);
      }
    });
  }

  knows(word: string): boolean {
    return this.postings.has(word);
  }

  /** How many documents have the word. */
  documentsWith(word: string): number {
    return this.postings.get(word)?.size ?? 0;
  }

  /** Vocabulary words an alternative matches, with the degree of the match. */
  private variants(alt: string): [string, number][] {
    const out: [string, number][] = [];
    if (this.postings.has(alt)) out.push([alt, 1]);
    if (alt.length < 3) return out;
    for (const w of this.byPrefix.get(alt.slice(0, 3)) ?? []) {
      if (w === alt) continue;
      const m = wordMatch(alt, w);
      if (m > 0) out.push([w, m]);
    }
    return out;
  }

  /** Per document: the best credit and the BM25 term frequency of a concept. */
  private match(c: Concept): Map<number, { credit: number; tf: number }> {
    const res = new Map<number, { credit: number; tf: number; best: Record<number, number> }>();
    for (const [alt, weight] of alternativesOf(c)) {
      for (const [w, m] of this.variants(alt)) {
        const deg = weight * m;
        for (const [doc, mask] of this.postings.get(w)!) {
          let r = res.get(doc);
          if (!r) res.set(doc, (r = { credit: 0, tf: 0, best: {} }));
          for (const f of FIELDS) {
            if (!(mask & MASK[f])) continue;
            r.credit = Math.max(r.credit, deg * CREDIT[f]);
            r.best[MASK[f]] = Math.max(r.best[MASK[f]] ?? 0, deg * BM25_WEIGHT[f]);
          }
        }
      }
    }
    for (const r of res.values()) r.tf = Object.values(r.best).reduce((a, b) => a + b, 0);
    return res;
  }

  private idfOfDf(df: number): number {
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /**
   * IDF of each concept in this corpus. A concept found nowhere says nothing about specificity:
   * it gets the mean IDF of the others (it still counts, unmatched, in every candidate's coverage).
   */
  idfs(concepts: Concept[], matches?: Map<number, unknown>[]): number[] {
    const ms = matches ?? concepts.map((c) => this.match(c));
    const raw = ms.map((m) => (m.size === 0 ? undefined : this.idfOfDf(m.size)));
    const known = raw.filter((x): x is number => x !== undefined);
    const mean = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
    return raw.map((x) => x ?? mean);
  }

  /** IDF function for scoring single documents against this corpus. */
  idfFn(concepts: Concept[]): (c: Concept) => number {
    const vals = this.idfs(concepts);
    const byTerm = new Map(concepts.map((c, i) => [c.term, vals[i]!]));
    return (c) => byTerm.get(c.term) ?? 1;
  }

  /** Every document matching at least one concept, with coverage and BM25. */
  search(concepts: Concept[]): Map<number, { coverage: number; bm25: number; matched: string[] }> {
    const ms = concepts.map((c) => this.match(c));
    const idf = this.idfs(concepts, ms);
    const den = idf.reduce((a, b) => a + b, 0) || 1;
    const out = new Map<number, { coverage: number; bm25: number; matched: string[] }>();
    ms.forEach((m, i) => {
      for (const [doc, r] of m) {
        let o = out.get(doc);
        if (!o) out.set(doc, (o = { coverage: 0, bm25: 0, matched: [] }));
        o.coverage += (idf[i]! * r.credit) / den;
        o.bm25 += idf[i]! * ((r.tf * (K1 + 1)) / (r.tf + K1));
        o.matched.push(concepts[i]!.term);
      }
    });
    for (const o of out.values()) o.coverage = round(o.coverage);
    return out;
  }
}
