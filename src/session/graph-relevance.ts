/**
 * Relevance through the code graph: the pieces of a feature rank together. A symbol the words of
 * the request do not reach can still be part of the feature because it calls, is called by,
 * contains or is contained by a symbol that the request does reach (a seed). The graph is the
 * index's own: references (the enclosing declaration → what it references) and containment.
 *
 * The tier such a link earns is bounded: one step from a FACT or an accepted seed is "accepted, risk
 * HIGH" — never FACT. The reason names the path, so the agent and the person see why. (Two steps
 * were measured on the real-commit benchmark and let in too much: in a real project nearly
 * everything is two steps from a class or a hub.)
 */
import type { DB } from '../store/db.js';

export interface GraphLink {
  /** the seed reached */
  seed: number;
  /** steps from the symbol to the seed */
  hops: number;
  /** the ids on the way, the symbol first */
  path: number[];
}

/** Symbols one step away: what its body references, who references it, its container and members. */
function neighbours(db: DB, id: number): number[] {
  const out = new Set<number>();
  const q = (sql: string) => (db.prepare(sql).all(id) as { n: number | null }[]).forEach((r) => r.n !== null && r.n !== id && out.add(r.n));
  q('SELECT DISTINCT symbol_id AS n FROM refs WHERE enclosing_id = ? AND symbol_id IS NOT NULL LIMIT 400');
  q('SELECT DISTINCT enclosing_id AS n FROM refs WHERE symbol_id = ? AND enclosing_id IS NOT NULL LIMIT 400');
  q('SELECT container_id AS n FROM symbols WHERE id = ?');
  q('SELECT id AS n FROM symbols WHERE container_id = ? LIMIT 400');
  return [...out];
}

/** The nearest seed within `maxHops` steps of `from` (breadth first, bounded), or undefined. */
export function linkToSeeds(db: DB, from: number, seeds: ReadonlySet<number>, maxHops = 2): GraphLink | undefined {
  if (seeds.has(from)) return { seed: from, hops: 0, path: [from] };
  let frontier = [[from]];
  const seen = new Set([from]);
  for (let hop = 1; hop <= maxHops; hop++) {
    const next: number[][] = [];
    for (const path of frontier) {
      for (const n of neighbours(db, path[path.length - 1]!)) {
        if (seen.has(n)) continue;
        seen.add(n);
        if (seeds.has(n)) return { seed: n, hops: hop, path: [...path, n] };
        if (next.length < 2000) next.push([...path, n]);
      }
    }
    frontier = next;
  }
  return undefined;
}

/**
 * The score a graph link is worth, given the seed's own score: one step from an accepted seed or
 * up to two from a FACT seed lands in the accepted tier (0.3–0.6), never above it.
 */
export function linkedScore(seedScore: number, hops: number): number {
  if (hops === 0) return seedScore;
  if (seedScore > 0.6) return hops === 1 ? 0.45 : 0.35;
  if (seedScore >= 0.3 && hops === 1) return 0.32;
  return 0;
}

/** How a symbol is described in a reason: Container.name. */
export function symbolLabel(db: DB, id: number): string {
  const r = db.prepare('SELECT name, container_name FROM symbols WHERE id = ?').get(id) as { name: string; container_name: string | null } | undefined;
  return r ? (r.container_name ? `${r.container_name}.${r.name}` : r.name) : `#${id}`;
}
