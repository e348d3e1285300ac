/**
 * The NL→symbol cache (`cached_matches`): when a /code session ends with outcome success, the
 * symbols it confirmed relevant — with the code evidence the server verified — are remembered
 * against the natural-language terms of the request (the target feature, its quote, and the
 * nl_term → symbol pairs of the understanding). Entries decay (half-life, configurable): a match
 * confirmed again is refreshed and strengthened; one not confirmed for long fades out and is dropped.
 * They are returned first by validate_symbol_relevance and feed the history leg of the hybrid score.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { recordMac } from '../guard/seal.js';
import type { DB } from '../store/db.js';
import { normalize } from '../util/words.js';
import { type Concept, conceptsOf, type Lexicon } from './text.js';

export const CACHE_SCHEMA = `
CREATE TABLE IF NOT EXISTS nl_cache (
  id INTEGER PRIMARY KEY,
  term TEXT NOT NULL,              -- as the user wrote it
  term_norm TEXT NOT NULL,         -- NFKC, lowercase, spaces folded
  symbol TEXT NOT NULL,            -- Container.name as the session confirmed it
  file TEXT,
  evidence TEXT,                   -- where the server verified the code evidence (file:line)
  session_id TEXT NOT NULL,
  confirmations INTEGER NOT NULL DEFAULT 1,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  source TEXT,                     -- the requests that confirmed it (JSON, keys): another session of one confirms nothing new
  mac TEXT,                        -- recordMac over the row: a row written by anything else is ignored
  UNIQUE(term_norm, symbol)
);
`;

interface Row {
  id: number; term: string; term_norm: string; symbol: string; file: string | null; evidence: string | null; session_id: string;
  confirmations: number; first_at: number; last_at: number; source: string | null; mac: string | null;
}

/** The text a row's mac covers. */
const macText = (r: Omit<Row, 'id' | 'mac'>) => JSON.stringify([r.term, r.term_norm, r.symbol, r.file, r.evidence, r.session_id, r.confirmations, r.first_at, r.last_at, r.source]);

const DAY = 86_400_000;
/** the requests a row remembers having confirmed it (more add confirmations up to full weight long before) */
const MAX_SOURCES = 16;

/** A request as a key: its words, whatever the punctuation ("…length", "…length?" are one request — red team adv88). */
function sourceKey(request: string): string {
  return crypto.createHash('sha256').update(normalize(request).replace(/[\p{P}\p{S}\s]+/gu, ' ').trim()).digest('hex').slice(0, 16);
}

function sourcesOf(raw: string | null): string[] {
  try {
    const v = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
/** the share of a cached term's concepts a target must state to match it */
const TERM_COVER = 0.75;
/** below this weight an entry is forgotten */
const FORGET = 0.05;

export interface CacheEntry {
  term: string;
  symbol: string;
  file: string | null;
  evidence: string | null;
  session_id: string;
  confirmations: number;
  last_confirmed: string;
  /** decayed strength, 0..1 */
  weight: number;
  /** how closely the entry's term matches the asked target, 0..1 */
  term_similarity: number;
  /** weight × term_similarity: what the history leg uses */
  score: number;
}

export interface Learned {
  term: string;
  symbol: string;
  file?: string | null;
  evidence?: string | null;
}

export class NlCache {
  /** the project root the rows' macs are bound to (the database lives at <root>/.code-intel/index.db) */
  private readonly root: string;

  constructor(readonly db: DB, readonly halfLifeDays = 30, readonly now: () => number = Date.now) {
    db.exec(CACHE_SCHEMA);
    const columns = new Set((db.prepare('PRAGMA table_info(nl_cache)').all() as { name: string }[]).map((c) => c.name));
    for (const c of ['source', 'mac']) if (!columns.has(c)) db.exec(`ALTER TABLE nl_cache ADD COLUMN ${c} TEXT`);
    this.root = path.dirname(path.dirname(path.resolve(db.name)));
  }

  private macOf(r: Omit<Row, 'id' | 'mac'>): string {
    return recordMac(this.root, macText(r));
  }

  /** Strength of an entry: 0.7 for one confirmation, +0.1 per further one (max 1), halved every half-life. */
  weightOf(confirmations: number, lastAt: number): number {
    const base = Math.min(1, 0.7 + 0.1 * (confirmations - 1));
    return base * Math.pow(0.5, Math.max(0, this.now() - lastAt) / (this.halfLifeDays * DAY));
  }

  /**
   * Records what a session confirmed. `source`: the request it answered — a match confirmed again
   * counts once more only from another request (red team adv87 ran four sessions of one request in
   * one turn to reach full weight), or from any other session where no request is known.
   */
  learn(sessionId: string, pairs: Learned[], source?: string): number {
    const get = this.db.prepare('SELECT * FROM nl_cache WHERE term_norm = ? AND symbol = ?');
    const put = this.db.prepare(
      `INSERT INTO nl_cache(term, term_norm, symbol, file, evidence, session_id, confirmations, first_at, last_at, source, mac)
       VALUES (@term, @term_norm, @symbol, @file, @evidence, @session_id, @confirmations, @first_at, @last_at, @source, @mac)
       ON CONFLICT(term_norm, symbol) DO UPDATE SET term = excluded.term, file = excluded.file, evidence = excluded.evidence, session_id = excluded.session_id,
         confirmations = excluded.confirmations, first_at = excluded.first_at, last_at = excluded.last_at, source = excluded.source, mac = excluded.mac`,
    );
    // (the rows written: a mapped term equal to the value writes its row twice — red team adv90 read 3 for 2)
    const rows = new Set<string>();
    const now = this.now();
    this.db.transaction(() => {
      for (const p of pairs) {
        const term_norm = normalize(p.term);
        if (!term_norm || !p.symbol) continue;
        const was = get.get(term_norm, p.symbol) as Row | undefined;
        // (a row of another definition of the name, in another file, hands on none of its confirmations)
        const valid = was !== undefined && this.holds(was) && (!was.file || !p.file || was.file === p.file);
        const sources = valid ? sourcesOf(was.source) : [];
        const key = source === undefined ? undefined : sourceKey(source);
        const again = valid && (was.session_id === sessionId || (key !== undefined && sources.includes(key)));
        const row = {
          term: p.term, term_norm, symbol: p.symbol, file: p.file ?? (valid ? was.file : null), evidence: p.evidence ?? null, session_id: sessionId,
          confirmations: valid ? was.confirmations + (again ? 0 : 1) : 1, first_at: valid ? was.first_at : now, last_at: now,
          source: JSON.stringify(key === undefined || sources.includes(key) ? sources : [...sources, key].slice(-MAX_SOURCES)),
        };
        put.run({ ...row, mac: this.macOf(row) });
        rows.add(`${term_norm}\0${p.symbol}`);
      }
    })();
    return rows.size;
  }

  /** A row as the cache wrote it (one from an older version, with no mac, is not trusted either). */
  private holds(r: Row): boolean {
    return typeof r.mac === 'string' && r.mac === this.macOf(r);
  }

  /** Forgets entries that decayed away. */
  prune(): number {
    const rows = this.db.prepare('SELECT * FROM nl_cache').all() as Row[];
    const del = this.db.prepare('DELETE FROM nl_cache WHERE id = ?');
    let n = 0;
    for (const r of rows) if (this.weightOf(r.confirmations, r.last_at) < FORGET || !this.holds(r)) (del.run(r.id), n++);
    return n;
  }

  /**
   * Entries whose term matches the target: the same words (1), or sharing concepts (Jaccard of
   * the concepts' words, 0.5 or more) with each stating nearly all of the other's (TERM_COVER).
   * A symbol was judged against the whole term: a target that states only a part of it is not
   * what the symbol answered (a padded target "cart total and reset the admin password" taught
   * Cart.total, which then matched "reset the admin password" at 0.6). Strongest first.
   */
  match(target: string, lex?: Lexicon, exists?: (symbol: string, file: string | null) => boolean): CacheEntry[] {
    this.prune();
    const rows = this.db.prepare('SELECT * FROM nl_cache').all() as Row[];
    if (rows.length === 0) return [];
    const t = normalize(target);
    const tc = conceptSet(conceptsOf(target, lex));
    const out: CacheEntry[] = [];
    for (const r of rows) {
      let sim = r.term_norm === t ? 1 : 0;
      if (!sim) {
        const rc = conceptSet(conceptsOf(r.term, lex));
        const inter = [...tc].filter((x) => rc.has(x)).length;
        const union = new Set([...tc, ...rc]).size;
        const j = union ? inter / union : 0;
        // (both ways: a symbol confirmed for "header" answered "header", not "Referrer header" — red team adv87)
        sim = j >= 0.5 && rc.size > 0 && inter / rc.size >= TERM_COVER && inter / tc.size >= TERM_COVER ? j : 0;
      }
      if (sim === 0) continue;
      if (exists && !exists(r.symbol, r.file)) continue;
      const weight = this.weightOf(r.confirmations, r.last_at);
      out.push({
        term: r.term, symbol: r.symbol, file: r.file, evidence: r.evidence, session_id: r.session_id, confirmations: r.confirmations,
        last_confirmed: new Date(r.last_at).toISOString(), weight: round(weight), term_similarity: round(sim), score: round(weight * sim),
      });
    }
    // one entry per symbol: the best
    const best = new Map<string, CacheEntry>();
    for (const e of out) if (!best.has(e.symbol) || best.get(e.symbol)!.score < e.score) best.set(e.symbol, e);
    return [...best.values()].sort((a, b) => b.score - a.score || a.symbol.localeCompare(b.symbol));
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) n FROM nl_cache').get() as { n: number }).n;
  }
}

/** A concept set for comparing terms: the first (canonical) word of each concept. */
function conceptSet(cs: Concept[]): Set<string> {
  return new Set(cs.map((c) => c.words[0]!));
}

const round = (x: number) => Math.round(x * 1000) / 1000;
