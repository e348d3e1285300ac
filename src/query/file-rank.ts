/**
 * Files ranked by the symbols a query found in them. A file is as relevant as its best symbols, with
 * less credit for each further one (weights 1, ½, ¼ …): summing them put axios's type declaration
 * files, dozens of small option interfaces each matching a word, above the adapter that implements
 * the feature (agent trial tr119). Scores are in 0..1 (the best symbol of all is 1 before decay).
 */
export interface RankedFile { file: string; score: number; top_symbols: string[] }

export function rankFiles(rows: readonly { file: string; label: string; score: number }[], max: number, limit = 10): RankedFile[] {
  const byFile = new Map<string, { score: number; n: number; top: string[] }>();
  // (rows come best first: each file's k-th row weighs 2^-k)
  for (const r of [...rows].sort((a, b) => b.score - a.score)) {
    const f = byFile.get(r.file) ?? { score: 0, n: 0, top: [] };
    f.score += r.score / 2 ** f.n++;
    if (f.top.length < 5) f.top.push(r.label);
    byFile.set(r.file, f);
  }
  return [...byFile.entries()].sort((a, b) => b[1].score - a[1].score || a[0].localeCompare(b[0])).slice(0, limit)
    .map(([file, f]) => ({ file, score: Math.round((f.score / (2 * (max || 1))) * 1000) / 1000, top_symbols: f.top }));
}
