/** Precision/recall bookkeeping: micro (pooled counts) and macro (mean of per-item ratios). */

export class SetScore {
  tp = 0;
  returned = 0;
  expected = 0;
  private pSum = 0;
  private pN = 0;
  private rSum = 0;
  private rN = 0;
  items = 0;

  /** One item (a symbol): what we returned vs what is true. */
  add(returned: ReadonlySet<string>, expected: ReadonlySet<string>): { tp: number; p: number; r: number } {
    let tp = 0;
    for (const k of returned) if (expected.has(k)) tp++;
    this.items++;
    this.tp += tp;
    this.returned += returned.size;
    this.expected += expected.size;
    const p = returned.size ? tp / returned.size : NaN;
    const r = expected.size ? tp / expected.size : NaN;
    if (returned.size) (this.pSum += p), this.pN++;
    if (expected.size) (this.rSum += r), this.rN++;
    return { tp, p, r };
  }

  get precision(): number {
    return this.returned ? this.tp / this.returned : NaN;
  }
  get recall(): number {
    return this.expected ? this.tp / this.expected : NaN;
  }
  get f1(): number {
    const p = this.precision, r = this.recall;
    return p + r > 0 ? (2 * p * r) / (p + r) : NaN;
  }
  get macroPrecision(): number {
    return this.pN ? this.pSum / this.pN : NaN;
  }
  get macroRecall(): number {
    return this.rN ? this.rSum / this.rN : NaN;
  }

  merge(o: SetScore): void {
    this.tp += o.tp;
    this.returned += o.returned;
    this.expected += o.expected;
    this.pSum += o.pSum;
    this.pN += o.pN;
    this.rSum += o.rSum;
    this.rN += o.rN;
    this.items += o.items;
  }

  toJSON(): Record<string, number> {
    return {
      items: this.items, tp: this.tp, returned: this.returned, expected: this.expected,
      precision: this.precision, recall: this.recall, f1: this.f1, macro_precision: this.macroPrecision, macro_recall: this.macroRecall,
    };
  }
}

/** Go-to-definition from usage sites: precision over returned candidates, recall over sites. */
export class SiteScore {
  sites = 0;
  hit = 0;
  returned = 0;
  correct = 0;
  answered = 0;
  /** exactly one candidate returned and it is a true definition */
  exact = 0;

  add(returned: string[], expected: ReadonlySet<string>): boolean {
    this.sites++;
    const uniq = [...new Set(returned)];
    const correct = uniq.filter((k) => expected.has(k)).length;
    this.returned += uniq.length;
    this.correct += correct;
    if (uniq.length) this.answered++;
    if (correct > 0) this.hit++;
    if (uniq.length === 1 && correct === 1) this.exact++;
    return correct > 0;
  }

  get precision(): number {
    return this.returned ? this.correct / this.returned : NaN;
  }
  get recall(): number {
    return this.sites ? this.hit / this.sites : NaN;
  }

  toJSON(): Record<string, number> {
    return {
      sites: this.sites, answered: this.answered, hit: this.hit, exact: this.exact, returned: this.returned, correct: this.correct,
      precision: this.precision, recall: this.recall, avg_candidates: this.answered ? this.returned / this.answered : NaN,
    };
  }
}
