/**
 * Chunk vectors in SQLite: one row per (model, text hash) — the cache that makes re-indexing embed
 * only what changed — mirrored into a sqlite-vec `vec0` table (cosine distance) for nearest-neighbour
 * search. Where the extension cannot load, the same vectors are compared in JavaScript.
 */
import { createRequire } from 'node:module';
import type { DB } from '../store/db.js';

const require = createRequire(import.meta.url);

export const VECTOR_SCHEMA = `
CREATE TABLE IF NOT EXISTS embeddings (
  id INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  hash TEXT NOT NULL,           -- chunks.hash
  vector BLOB NOT NULL,         -- float32, L2-normalised
  at INTEGER NOT NULL,
  UNIQUE(model, hash)
);
`;

const loadedDbs = new WeakSet<DB>();
/** Loads sqlite-vec into a connection (once). Throws when the platform has no binary. */
export function loadVecExtension(db: DB): void {
  if (loadedDbs.has(db)) return;
  const sqliteVec = require('sqlite-vec') as { load(db: unknown): void };
  sqliteVec.load(db);
  loadedDbs.add(db);
}

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const fromBlob = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

export interface MissingChunk {
  hash: string;
  text: string;
  name: string;
  container: string | null;
  path: string;
  signature: string;
  body: string;
  doc: string;
}

export class VectorStore {
  readonly table: string;
  readonly vec: boolean;
  private memory: Map<string, Float32Array> | undefined;

  constructor(readonly db: DB, readonly model: string, readonly dim: number) {
    db.exec(VECTOR_SCHEMA);
    this.table = vecTable(model, dim);
    dropOtherWeights(db, model, dim);
    let ok = true;
    try {
      loadVecExtension(db);
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${this.table} USING vec0(embedding float[${dim}] distance_metric=cosine)`);
      // rows embedded while the extension was unavailable
      const n = (db.prepare(`SELECT COUNT(*) n FROM ${this.table}`).get() as { n: number }).n;
      const m = (db.prepare('SELECT COUNT(*) n FROM embeddings WHERE model = ?').get(model) as { n: number }).n;
      if (n !== m) {
        db.exec(`DELETE FROM ${this.table}`);
        const ins = db.prepare(`INSERT INTO ${this.table}(rowid, embedding) VALUES (?, ?)`);
        db.transaction(() => {
          for (const r of db.prepare('SELECT id, vector FROM embeddings WHERE model = ?').iterate(model) as Iterable<{ id: number; vector: Buffer }>) ins.run(BigInt(r.id), r.vector);
        })();
      }
    } catch {
      ok = false;
    }
    this.vec = ok;
  }

  /** Chunks (one per text hash) that have no vector for this model yet. */
  missing(limit = 1_000_000): MissingChunk[] {
    // a bare column beside MIN() comes from the row holding the minimum (SQLite)
    return this.db.prepare(
      `SELECT c.hash, MIN(c.id) id, c.text, c.name, c.container, c.path, c.signature, c.body, c.doc FROM chunks c
       LEFT JOIN embeddings e ON e.hash = c.hash AND e.model = ?
       WHERE e.id IS NULL GROUP BY c.hash ORDER BY MIN(c.id) LIMIT ?`,
    ).all(this.model, limit) as MissingChunk[];
  }

  put(items: { hash: string; vector: Float32Array }[]): void {
    const ins = this.db.prepare('INSERT OR IGNORE INTO embeddings(model, hash, vector, at) VALUES (?, ?, ?, ?)');
    const insVec = this.vec ? this.db.prepare(`INSERT INTO ${this.table}(rowid, embedding) VALUES (?, ?)`) : undefined;
    const now = Date.now();
    this.db.transaction(() => {
      for (const it of items) {
        const r = ins.run(this.model, it.hash, toBlob(it.vector), now);
        if (r.changes > 0) insVec?.run(BigInt(r.lastInsertRowid), toBlob(it.vector));
      }
    })();
    this.memory = undefined;
  }

  counts(): { embedded: number; total: number } {
    const total = (this.db.prepare('SELECT COUNT(DISTINCT hash) n FROM chunks').get() as { n: number }).n;
    const embedded = (this.db.prepare('SELECT COUNT(DISTINCT c.hash) n FROM chunks c JOIN embeddings e ON e.hash = c.hash AND e.model = ?').get(this.model) as { n: number }).n;
    return { embedded, total };
  }

  vectorOf(hash: string): Float32Array | undefined {
    const r = this.db.prepare('SELECT vector FROM embeddings WHERE model = ? AND hash = ?').get(this.model, hash) as { vector: Buffer } | undefined;
    return r ? fromBlob(r.vector) : undefined;
  }

  /** The k nearest chunk hashes by cosine similarity. */
  knn(q: Float32Array, k: number): { hash: string; cos: number }[] {
    if (this.vec) {
      const rows = this.db.prepare(
        `SELECT e.hash, v.distance FROM (SELECT rowid, distance FROM ${this.table} WHERE embedding MATCH ? AND k = ?) v
         JOIN embeddings e ON e.id = v.rowid`,
      ).all(toBlob(q), k) as { hash: string; distance: number }[];
      return rows.map((r) => ({ hash: r.hash, cos: 1 - r.distance })).sort((a, b) => b.cos - a.cos);
    }
    this.memory ??= new Map((this.db.prepare('SELECT hash, vector FROM embeddings WHERE model = ?').all(this.model) as { hash: string; vector: Buffer }[]).map((r) => [r.hash, fromBlob(r.vector)]));
    const out: { hash: string; cos: number }[] = [];
    for (const [hash, v] of this.memory) out.push({ hash, cos: dot(q, v) });
    return out.sort((a, b) => b.cos - a.cos).slice(0, k);
  }

  /** Drops vectors of texts no chunk has any more (kept while they are few: a reverted edit costs nothing). */
  prune(): number {
    const stale = this.db.prepare(
      `SELECT id FROM embeddings e WHERE model = ? AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.hash = e.hash)`,
    ).all(this.model) as { id: number }[];
    const total = (this.db.prepare('SELECT COUNT(*) n FROM embeddings WHERE model = ?').get(this.model) as { n: number }).n;
    if (stale.length < 200 && stale.length < total / 4) return 0;
    const del = this.db.prepare('DELETE FROM embeddings WHERE id = ?');
    const delVec = this.vec ? this.db.prepare(`DELETE FROM ${this.table} WHERE rowid = ?`) : undefined;
    this.db.transaction(() => {
      for (const s of stale) {
        del.run(s.id);
        delVec?.run(BigInt(s.id));
      }
    })();
    this.memory = undefined;
    return stale.length;
  }
}

const vecTable = (model: string, dim: number) => `vec_${model.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}_${dim}`;

/** The model a store key names: `code-intel-search@e3d440c23170` is code-intel-search's (Embedder.storeKey). */
export function modelOfKey(key: string): string {
  const at = key.indexOf('@');
  return at > 0 ? key.slice(0, at) : key;
}

/** Where a project keeps a model's measured cosine → tier curve (index meta). */
export const calibrationKey = (key: string, dim: number): string => `calibration:${key}:${dim}`;

/**
 * A model stored as name@checksum replaces the vectors its name held under other weights (an
 * upgrade of the built-in model): they would sit beside its own as if comparable, and take space.
 */
function dropOtherWeights(db: DB, key: string, dim: number): void {
  const name = modelOfKey(key);
  if (name === key) return;
  const others = (db.prepare(`SELECT DISTINCT model FROM embeddings WHERE (model = ? OR substr(model, 1, ?) = ?) AND model <> ?`)
    .all(name, name.length + 1, `${name}@`, key) as { model: string }[]).map((r) => r.model);
  if (others.length === 0) return;
  const delRows = db.prepare('DELETE FROM embeddings WHERE model = ?');
  const delCurve = db.prepare('DELETE FROM meta WHERE key = ?');
  db.transaction(() => {
    for (const m of others) {
      delRows.run(m);
      delCurve.run(calibrationKey(m, dim));
      try {
        db.exec(`DROP TABLE IF EXISTS ${vecTable(m, dim)}`);
      } catch {
        // a vec0 table needs the extension to be dropped; without it, it stays (empty of use)
      }
    }
  })();
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
