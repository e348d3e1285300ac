/**
 * Tier calibration: the three tiers (> 0.6 FACT, 0.3–0.6 accepted at risk HIGH, < 0.3 rejected)
 * must mean the same whichever backend scored. Raw cosine similarities of a sentence embedder do
 * not: multilingual-e5 puts almost every pair between 0.7 and 0.9. So raw scores are mapped onto
 * the tier scale with a monotone piecewise-linear curve through points read off two score
 * distributions measured with the same model:
 *
 *   random pairs (a query and an unrelated chunk)   median → 0.10,  95th percentile → 0.30
 *   relevant pairs (a query and its own target)     median → 0.60,  90th percentile → 0.85
 *
 * so "≥ 0.3" means "more similar than 95 % of unrelated pairs", and "> 0.6" means "as similar as
 * a typical true match". A project calibrates itself when it has enough documented functions
 * (query = first sentence of the doc comment, target = the function without it); until then the
 * model's default curve is used. The lexical backend's coverage is on the tier scale by
 * construction (it counts the request's concepts the symbol's own name expresses); the benchmark
 * measures both backends on the same random/relevant pairs (docs/relevance.md).
 */

export interface Calibration {
  /** raw → calibrated points, raw strictly increasing */
  points: [number, number][];
  source: 'project' | 'default' | 'identity';
  /** what the points were read from */
  measured?: { relevant: number; random: number; relevant_median: number; random_p95: number };
}

export const IDENTITY: Calibration = { points: [[0, 0], [1, 1]], source: 'identity' };

/**
 * Provisional curve for multilingual-e5-small (cosine of query:/passage: pairs), used until a
 * project has enough documented functions to measure its own. Values from the model's published
 * behaviour (unrelated pairs around 0.72–0.78, matching pairs around 0.82–0.88).
 */
export const DEFAULT_CALIBRATIONS: Record<string, Calibration> = {
  'multilingual-e5-small': { points: [[0.7, 0.1], [0.78, 0.3], [0.84, 0.6], [0.88, 0.85], [1, 1]], source: 'default' },
};

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** Builds the curve from measured relevant and random raw scores. */
export function calibrate(relevant: number[], random: number[], source: Calibration['source'] = 'project'): Calibration {
  const raw: [number, number][] = [
    [quantile(random, 0.5), 0.1],
    [quantile(random, 0.95), 0.3],
    [quantile(relevant, 0.5), 0.6],
    [quantile(relevant, 0.9), 0.85],
  ];
  // keep it monotone even when the model separates the two poorly: each point at least a bit right of the previous
  const points: [number, number][] = [];
  for (const [x, y] of raw) {
    const prev = points[points.length - 1];
    points.push([prev ? Math.max(x, prev[0] + 1e-3) : x, y]);
  }
  const last = points[points.length - 1]!;
  if (last[0] < 1) points.push([Math.max(1, last[0] + 1e-3), 1]);
  return {
    points, source,
    measured: { relevant: relevant.length, random: random.length, relevant_median: round(quantile(relevant, 0.5)), random_p95: round(quantile(random, 0.95)) },
  };
}

/** Maps a raw score onto the tier scale (clamped to 0..1). */
export function applyCalibration(c: Calibration, raw: number): number {
  const p = c.points;
  if (raw <= p[0]![0]) return round(Math.max(0, p[0]![1] * (raw <= 0 ? 0 : raw / Math.max(p[0]![0], 1e-9))));
  for (let i = 1; i < p.length; i++) {
    const [x0, y0] = p[i - 1]!, [x1, y1] = p[i]!;
    if (raw <= x1) return round(y0 + ((raw - x0) / (x1 - x0)) * (y1 - y0));
  }
  return round(Math.min(1, p[p.length - 1]![1]));
}

const round = (x: number) => Math.round(x * 1000) / 1000;
