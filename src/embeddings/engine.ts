/**
 * Hybrid relevance for one project: the vector leg (the neural model, when present), the keyword
 * leg (the lexical backend) and the history leg (the NL→symbol cache), combined as
 *
 *   final = (w_v·vector + w_k·keyword + w_h·history) / (sum of the weights of the legs present)
 *
 * with weights 0.5 / 0.3 / 0.2 by default (.code-intel/config.json `ranking.weights`). A leg is
 * absent for a pair when it has nothing to say — no model loaded or the chunk not embedded yet
 * (vector), no cached match for the term (history) — and the weights are re-normalised over the
 * legs present, so every leg and the total stay on the same tier scale (see calibration.ts).
 * semantic_search drops results below `ranking.min_confidence`.
 */
import { withCompoundHeads } from './compounds.js';
import { normalize, splitWords } from '../util/words.js';
import { namedIn, projectNames } from '../project/project-name.js';
import type { Project } from '../project/project.js';
import { getMeta, setMeta } from '../store/db.js';
import { UserError } from '../util/paths.js';
import { currentDeadline } from '../util/deadline.js';
import { log } from '../util/log.js';
import { NeuralProvider } from './backend.js';
import { NlCache } from './cache.js';
import { applyCalibration, type Calibration, calibrate, DEFAULT_CALIBRATIONS } from './calibration.js';
import { type ChunkRow, ensureChunkSchema } from './chunks.js';
import { coverageOf, KeywordIndex, keywordDoc, type KeywordDoc } from './keyword.js';
import type { Embedder } from './model.js';
import { namedScore } from './named.js';
import { type Concept, conceptsOf, identifierWords, type Lexicon, lexicon, minePairs } from './text.js';
import { calibrationKey, dot, modelOfKey, VectorStore } from './vectors.js';

/** The score of a symbol whose shared word names a family the target means another member of (below the accepted tier). */
export const SIBLING_CAP = 0.2;

export interface Legs {
  vector?: { cosine: number; score: number };
  keyword: number;
  history?: number;
  /** the target names the symbol (named.ts): a floor under the combined score */
  named?: number;
  /** the file or folder beside the symbol's whose name says the target's words it lacks (which-definition.ts): the target means that one */
  sibling?: string;
}

export interface SymbolProfileInput {
  name: string;
  container: string | null;
  file: string;
  signature: string;
  line?: number;
}

const MINED_SCHEMA = `CREATE TABLE IF NOT EXISTS mined_pairs (term TEXT NOT NULL, word TEXT NOT NULL, weight REAL NOT NULL, source TEXT NOT NULL, PRIMARY KEY(term, word));`;
/** generic curve for a model without a default or a project calibration */
const UNCALIBRATED: Calibration = { points: [[0.2, 0.1], [0.4, 0.3], [0.6, 0.6], [0.8, 0.85], [1, 1]], source: 'default' };
const MIN_CALIBRATION_PAIRS = 12;
/**
 * Weight of the model's cosine beside the BM25F score relative to the best, in semantic_search's
 * order (rank()). Chosen on the tune sets, two pulls: doc-comment requests on the 43 validation
 * packages of the training manifest want the model (MRR: BM25F 0.468, ×0.5 0.535, ×1 0.563, cosine
 * + 0.35 BM25F 0.591), commit subjects on pinia do not (EN MRR: BM25F 0.275, ×0.5 0.286, ×1 0.272,
 * cosine + 0.35 BM25F 0.263). 0.5 keeps real requests where they were and gains on described ones.
 */
const FUSION_COSINE = 0.5;
/** The score of a symbol's own legs below which earlier sessions' matches lift nothing (half the accepted tier). */
const HISTORY_FLOOR = 0.15;
/** What earlier sessions confirmed for a term: symbol → the file it was confirmed in ('' where none was recorded) → score. */
type History = ReadonlyMap<string, ReadonlyMap<string, number>>;

/**
 * What earlier sessions learned for a definition: under its qualified name, or under its bare name
 * where the project has no other definition of it — two sessions that confirmed one `default` lifted
 * a demo handler's `default` in a third (red team adv27) — and in its own file: koa's request.js and
 * response.js both hold `default.get`, and what was confirmed of one lifted the other (red team adv87).
 * An entry with no file counts only where the name has one definition.
 */
function learned(history: History, corpus: Corpus, name: string, qualifiedName: string, file: string): number | undefined {
  // the definitions a key names, in all and (as qualified names) in this file: a getter and its setter are one
  const owners = (key: string, inFile: boolean) => new Set((corpus.byName.get(key) ?? []).map((i) => corpus.chunks[i]!).filter((c) => !inFile || c.path === file).map((c) => `${c.path}\0${qualified(c)}`)).size;
  const byQualified = history.get(qualifiedName);
  const h = byQualified?.get(file) ?? (byQualified && owners(qualifiedName, false) <= 1 ? byQualified.get('') : undefined);
  if (h !== undefined || !history.has(name)) return h;
  // a bare name: in its file where the file holds one definition of it (koa's `get` of request.js, as
  // an honest agent names it — red team adv88), anywhere only where the project holds one
  const byName = history.get(name)!;
  if (byName.has(file) && owners(name, true) <= 1) return byName.get(file);
  return name !== 'default' && owners(name, false) <= 1 ? byName.get('') : undefined;
}

/** Building the keyword corpus, per chunk, in µs (measured on pnpm, 2 cores, with some margin). */
const CORPUS_US_PER_CHUNK = 75;

interface Corpus {
  key: string;
  chunks: ChunkRow[];
  docs: KeywordDoc[];
  index: KeywordIndex;
  lex: Lexicon;
  byName: Map<string, number[]>;
  /** lower-cased names of the project's symbols: a stop word among them is kept in a request */
  codeNames?: Set<string>;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const chunkKey = (file: string, name: string, nameLine: number) => `${file}\0${name}\0${nameLine}`;
export const qualified = (c: { name: string; container: string | null }) => (c.container ? `${c.container}.${c.name}` : c.name);

export class SemanticEngine {
  readonly provider: NeuralProvider;
  readonly cache: NlCache;
  private corpusCache: Corpus | undefined;
  private store: VectorStore | undefined;
  private memory: { key: string; vectors: Map<string, Float32Array> } | undefined;
  private calibration: Calibration | undefined;
  private embedding: Promise<void> | undefined;
  private ownNames: string[] | undefined;
  private ranked: { key: string; order: ChunkRow[]; position: Map<string, number>; total: number } | undefined;

  constructor(readonly project: Project) {
    this.provider = new NeuralProvider(project.root);
    this.cache = new NlCache(project.db, this.provider.config.halfLifeDays);
    ensureChunkSchema(project.db);
    project.db.exec(MINED_SCHEMA);
  }

  get config() {
    return this.provider.config;
  }

  /** The backend behind the answers right now: 'lexical', or 'neural(<model>)+lexical'. */
  backendName(): string {
    return this.store ? `neural(${modelOfKey(this.store.model)})+lexical` : 'lexical';
  }

  // ---- corpus: chunks, keyword index, lexicon with mined pairs --------------------------------------

  private corpusKey(): string {
    const db = this.project.db;
    return `${this.project.generation}:${getMeta(db, 'changed_at') ?? ''}:${getMeta(db, 'indexed_at') ? 1 : 0}`;
  }

  /**
   * What building the corpus would cost now, in ms (0 when it is built): a caller with less time
   * than that answers without the engine rather than run out of its budget. ~50-75 µs a chunk on
   * the 2-core machine (pnpm's 29k chunks: 1.5-2.2 s).
   */
  corpusCostMs(): number {
    if (this.corpusCache?.key === this.corpusKey()) return 0;
    const { n } = this.project.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number };
    return n * CORPUS_US_PER_CHUNK / 1000;
  }

  corpus(): Corpus {
    const db = this.project.db;
    const key = this.corpusKey();
    if (this.corpusCache?.key === key) return this.corpusCache;
    const chunks = db.prepare('SELECT * FROM chunks ORDER BY path, start_line').all() as ChunkRow[];
    const docs = chunks.map((c) => keywordDoc({ name: c.name, container: c.container, path: c.path, doc: c.doc, signature: c.signature, body: c.body }));
    const mined = minePairs(
      chunks.filter((c) => c.kind !== 'section').map((c) => ({ doc: c.doc, nameWords: identifierWords(qualified(c)) })),
      chunks.map((c) => c.doc),
    );
    db.transaction(() => {
      db.exec('DELETE FROM mined_pairs');
      const ins = db.prepare('INSERT OR IGNORE INTO mined_pairs(term, word, weight, source) VALUES (?, ?, ?, ?)');
      for (const m of mined) ins.run(m.term, m.word, m.weight, m.source);
    })();
    const byName = new Map<string, number[]>();
    chunks.forEach((c, i) => {
      for (const k of new Set([c.name, qualified(c)])) {
        const same = byName.get(k);
        if (same) same.push(i); // not a copy per chunk: thousands of `constructor`s were quadratic
        else byName.set(k, [i]);
      }
    });
    this.corpusCache = { key, chunks, docs, index: new KeywordIndex(docs), lex: lexicon(mined), byName };
    this.memory = undefined;
    return this.corpusCache;
  }

  concepts(text: string): Concept[] {
    const c = this.corpus();
    c.codeNames ??= new Set(c.chunks.map((x) => x.name.toLowerCase()));
    const names = c.codeNames;
    const all = conceptsOf(text, c.lex, (w) => names.has(w));
    // the project's own name (serde_json, ESLint) says where, not what: every symbol is in it, and
    // as a concept no name has it would only dilute the words that tell symbols apart
    this.ownNames ??= projectNames(this.project.root);
    const own = new Set(namedIn(text, this.ownNames).flatMap((n) => splitWords(n)));
    const rest = own.size ? all.filter((x) => x.source !== 'query' || !own.has(x.term)) : all;
    return rest.length ? rest : all;
  }

  // ---- vectors ---------------------------------------------------------------------------------------

  /** The model and its vector store, when the neural backend is available. */
  private async neural(): Promise<{ embedder: Embedder; store: VectorStore } | undefined> {
    const embedder = await this.provider.get();
    if (!embedder) return undefined;
    this.store ??= new VectorStore(this.project.db, embedder.storeKey ?? embedder.name, embedder.dim);
    return { embedder, store: this.store };
  }

  /**
   * The model within `ms`, or 'loading' when it is not loaded by then (it goes on loading): a first
   * search on a loaded machine spent its whole budget loading an ONNX model (CI, 2 cores).
   */
  private async neuralWithin(ms: number): Promise<{ embedder: Embedder; store: VectorStore } | undefined | 'loading'> {
    if (!Number.isFinite(ms)) return this.neural();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'loading'>((r) => (timer = setTimeout(() => r('loading'), ms)));
    try {
      return await Promise.race([this.neural(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Embeds chunks that have no vector yet (only changed text: vectors are cached by text hash),
   * for at most `budgetMs` (unbounded when undefined). Concurrent callers share the work.
   */
  async ensureEmbedded(budgetMs?: number): Promise<{ embedded: number; total: number } | undefined> {
    const n = await this.neural();
    if (!n) return undefined;
    const run = async () => {
      const t0 = performance.now();
      for (;;) {
        const todo = n.store.missing(64);
        if (todo.length === 0) break;
        const vecs = n.embedder.embedCode ? n.embedder.embedCode(todo) : await n.embedder.embed(todo.map((t) => t.text), 'passage');
        n.store.put(todo.map((t, i) => ({ hash: t.hash, vector: vecs[i]! })));
        this.memory = undefined;
        if (budgetMs !== undefined && performance.now() - t0 > budgetMs) return;
        // the built-in model embeds synchronously: let the server answer between batches (a
        // background pass over 7k chunks held `initialize` for a second)
        await new Promise((r) => setImmediate(r));
      }
      n.store.prune();
      await this.calibrationFor(n.embedder);
    };
    if (budgetMs === undefined) {
      this.embedding ??= run().finally(() => (this.embedding = undefined));
      await this.embedding;
    } else if (this.embedding) {
      await Promise.race([this.embedding, new Promise((r) => setTimeout(r, budgetMs))]);
    } else await run();
    return n.store.counts();
  }

  /**
   * Readies the engine in the background (the server calls this after indexing): embeds what has
   * no vector yet, then builds the keyword corpus and loads the vectors, so that the first search
   * does not pay for them inside its budget (29k chunks of a 5,800-file monorepo: 1.2 s of corpus
   * and 0.4 s of vectors; agent trial tr41's query ran out of its 2 s).
   */
  warm(): void {
    // the corpus first: every search needs it, and it needs no vector (embedding a fresh project's
    // chunks first kept `query` waiting on it for as long as the model took)
    const ready = async () => {
      await new Promise((r) => setImmediate(r));
      this.corpus();
      if (this.provider.available) await this.ensureEmbedded();
      const n = this.provider.available ? await this.neural() : undefined;
      if (n) this.vectors(n.store);
    };
    ready().catch((e) => log.error('background embedding failed', e));
  }

  private vectors(store: VectorStore): Map<string, Float32Array> {
    const key = `${this.corpus().key}:${store.counts().embedded}`;
    if (this.memory?.key === key) return this.memory.vectors;
    const rows = this.project.db.prepare('SELECT hash, vector FROM embeddings WHERE model = ?').all(store.model) as { hash: string; vector: Buffer }[];
    const vectors = new Map(rows.map((r) => [r.hash, new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength))]));
    this.memory = { key, vectors };
    return vectors;
  }

  /**
   * The curve that maps this model's cosines onto the tier scale: measured on the project's own
   * documented functions when it has enough of them (query = the doc's first sentence, passage =
   * the function without its doc; relevant = its own pair, random = every other pairing), else the
   * model's default. Stored in the index meta per model.
   */
  async calibrationFor(embedder: Embedder): Promise<Calibration> {
    if (this.calibration) return this.calibration;
    const db = this.project.db;
    const metaKey = calibrationKey(embedder.storeKey ?? embedder.name, embedder.dim);
    const stored = getMeta(db, metaKey);
    if (stored) return (this.calibration = JSON.parse(stored) as Calibration);
    const fallback = DEFAULT_CALIBRATIONS[embedder.name] ?? embedder.calibration ?? UNCALIBRATED;
    const sample = (db.prepare(`SELECT * FROM chunks WHERE doc <> '' AND kind <> 'section' ORDER BY hash LIMIT 60`).all() as ChunkRow[])
      .map((c) => ({ q: firstSentence(c.doc), p: c.text.replace(c.doc, ''), chunk: c }))
      .filter((x) => x.q.length >= 12);
    if (sample.length < MIN_CALIBRATION_PAIRS) return (this.calibration = fallback);
    const qs = await embedder.embed(sample.map((s) => s.q), 'query');
    // the code side reads the doc comment without the sentence that is the request (as in training)
    const ps = embedder.embedCode
      ? embedder.embedCode(sample.map((s) => ({ ...s.chunk, doc: s.chunk.doc.startsWith(s.q) ? s.chunk.doc.slice(s.q.length) : '' })))
      : await embedder.embed(sample.map((s) => s.p), 'passage');
    const relevant: number[] = [], random: number[] = [];
    qs.forEach((q, i) => ps.forEach((p, j) => (i === j ? relevant : random).push(dot(q, p))));
    this.calibration = calibrate(relevant, random, 'project');
    setMeta(db, metaKey, JSON.stringify(this.calibration));
    return this.calibration;
  }

  // ---- scoring ----------------------------------------------------------------------------------------

  /** Weighted mean of the legs present. */
  combine(legs: Legs): number {
    const w = this.config.weights;
    let num = w.keyword * legs.keyword, den = w.keyword;
    if (legs.vector) (num += w.vector * legs.vector.score), (den += w.vector);
    if (legs.history !== undefined) (num += w.history * legs.history), (den += w.history);
    return round(num / den);
  }

  /**
   * What an acceptance stood on besides earlier sessions: the legs combined without history, the
   * name floor included. An acceptance the cache alone carried must not teach the cache again.
   */
  withoutHistory(legs: Legs): number {
    return Math.max(this.combine({ ...legs, history: undefined }), legs.named ?? 0);
  }

  /**
   * Whether a match is worth learning: the symbol's own words (and model) answer the target at the
   * accepted tier without earlier sessions, or the target writes its name as code (named above the
   * FACT line). A plain word of the target that is its whole name ("length", "get", "header") is
   * accepted with risk HIGH, but taught as a match it lifted namesakes in later sessions (red team adv88).
   */
  learnable(legs: Legs): boolean {
    return this.combine({ ...legs, history: undefined }) >= 0.3 || (legs.named ?? 0) > 0.6;
  }

  static backendOf(legs: Legs): string {
    return [legs.vector ? 'neural' : null, 'lexical', legs.history !== undefined ? 'history' : null, legs.named ? 'named' : null].filter(Boolean).join('+');
  }

  private historyFor(target: string): History {
    const m = new Map<string, Map<string, number>>();
    for (const e of this.cache.match(target, this.corpus().lex)) {
      const byFile = m.get(e.symbol) ?? m.set(e.symbol, new Map()).get(e.symbol)!;
      byFile.set(e.file ?? '', Math.max(byFile.get(e.file ?? '') ?? 0, e.score));
    }
    return m;
  }

  /** Ranked chunks for a request: semantic_search and embedding_suggestions. */
  async rank(query: string, opts: { path?: string; kinds?: (k: string) => boolean; budgetMs?: number } = {}) {
    const corpus = this.corpus();
    const concepts = this.concepts(query);
    const keyword = corpus.index.search(concepts);
    const legsOf = new Map<number, Legs>();
    let vectorNote: Record<string, unknown> | undefined;
    const share = () => Math.min(opts.budgetMs ?? 1000, (currentDeadline()?.remaining() ?? Number.POSITIVE_INFINITY) / 2);
    const n = this.provider.available ? await this.neuralWithin(share()) : undefined;
    if (n === 'loading') vectorNote = { available: false, why: `the model ${this.provider.config.model} is still loading: this answer is from the keyword leg alone, and a later search uses the model` };
    else if (n) {
      // while the background pass embeds, wait at most half a call's budget, then answer with the
      // coverage so far: waiting 3 s ran a cold 5,800-file project's first search out of its 2 s
      const coverage = await this.ensureEmbedded(share());
      const cal = await this.calibrationFor(n.embedder);
      const [q] = await n.embedder.embed([query], 'query');
      const vectors = this.vectors(n.store);
      const byHash = new Map<string, number[]>();
      corpus.chunks.forEach((c, i) => {
        const same = byHash.get(c.hash);
        if (same) same.push(i);
        else byHash.set(c.hash, [i]);
      });
      for (const hit of n.store.knn(q!, 200)) for (const i of byHash.get(hit.hash) ?? []) legsOf.set(i, { keyword: 0 });
      for (const i of keyword.keys()) legsOf.set(i, { keyword: 0 });
      for (const [i, legs] of legsOf) {
        const v = vectors.get(corpus.chunks[i]!.hash);
        if (v) {
          const cos = dot(q!, v);
          legs.vector = { cosine: round(cos), score: applyCalibration(cal, cos) };
        }
      }
      vectorNote = { model: n.embedder.name, embedded: coverage?.embedded, total: coverage?.total, calibration: cal.source, knn: n.store.vec ? 'sqlite-vec' : 'javascript' };
    } else for (const i of keyword.keys()) legsOf.set(i, { keyword: 0 });
    const history = this.historyFor(query);
    for (const [sym, byFile] of history) {
      for (const i of corpus.byName.get(sym) ?? []) if (!legsOf.has(i) && (byFile.has(corpus.chunks[i]!.path) || byFile.has(''))) legsOf.set(i, { keyword: 0 });
    }
    const under = opts.path ? opts.path.replace(/\/+$/, '') : '';
    const out: { chunk: ChunkRow; score: number; legs: Legs; bm25: number; matched: string[] }[] = [];
    for (const [i, legs] of legsOf) {
      const c = corpus.chunks[i]!;
      if (under && c.path !== under && !c.path.startsWith(under + '/')) continue;
      if (opts.kinds && !opts.kinds(c.kind)) continue;
      const k = keyword.get(i);
      legs.keyword = k?.coverage ?? 0;
      const h = learned(history, corpus, c.name, qualified(c), c.path);
      if (h !== undefined) legs.history = h;
      out.push({ chunk: c, score: this.combine(legs), legs, bm25: k?.bm25 ?? 0, matched: k?.matched ?? [] });
    }
    // order: with a model, the BM25F score relative to the best plus half the model's cosine; lexical
    // only, BM25F (it ranks the changed code of real commits higher than coverage does). Both lifted
    // by confirmations from earlier sessions; `score` stays the tier-scale figure. See FUSION_COSINE.
    let maxBm25 = 1e-9;
    for (const x of out) maxBm25 = Math.max(maxBm25, x.bm25);
    const key = (x: (typeof out)[number]) => (vectorNote ? x.bm25 / maxBm25 + FUSION_COSINE * (x.legs.vector?.cosine ?? 0) : x.bm25) * (1 + (x.legs.history ?? 0));
    out.sort((a, b) => key(b) - key(a) || b.score - a.score || a.chunk.path.localeCompare(b.chunk.path) || a.chunk.start_line - b.chunk.start_line);
    return { concepts, items: out, vector: vectorNote, backend: this.backendName() };
  }

  /**
   * The project's declarations (chunks, no markdown) ordered by how well their code answers the
   * target: BM25F over name, container, path, doc comment, signature and the identifiers of the
   * body, best first. A rank is the same evidence in every project and language (the tiers'
   * calibration by rank, docs/relevance.md). Cached for the last target.
   */
  textRanking(target: string): { order: ChunkRow[]; position: Map<string, number>; total: number } {
    const corpus = this.corpus();
    const key = `${corpus.key}\0${target}`;
    if (this.ranked?.key === key) return this.ranked;
    const hits = [...corpus.index.search(this.concepts(target))].filter(([i, h]) => h.bm25 > 0 && corpus.chunks[i]!.kind !== 'section');
    hits.sort((a, b) => b[1].bm25 - a[1].bm25 || a[0] - b[0]);
    const order = hits.map(([i]) => corpus.chunks[i]!);
    const position = new Map<string, number>();
    order.forEach((c, i) => {
      const k = chunkKey(c.path, c.name, c.name_line);
      if (!position.has(k)) position.set(k, i + 1);
    });
    this.ranked = { key, order, position, total: corpus.chunks.filter((c) => c.kind !== 'section').length };
    return this.ranked;
  }

  /** The rank of a declaration (file, name, name line) for the target by its code text, or undefined when its text does not answer it at all. */
  textRankOf(target: string, file: string, name: string, nameLine: number): number | undefined {
    return this.textRanking(target).position.get(chunkKey(file, name, nameLine));
  }

  /**
   * Scores named symbols against a target (VALIDATION), with verified evidence text where given.
   * `namedIn`: more of the user's own words to look for a symbol written as code in — the target's
   * quote, when the agent passes its own rendering as the target (`Map` in the quote, Map in the value)
   */
  /**
   * Scores symbols against a target (confirm's words leg). `siblingOf(file, words)`: the file or
   * folder beside `file` named for the target's words a symbol lacks (the session's
   * which-definition.ts), whose family word then gives it no credit.
   */
  async scoreSymbols(target: string, symbols: (SymbolProfileInput & { evidence?: string; namesAnother?: boolean })[], opts: { namedIn?: readonly string[]; siblingOf?: (file: string, missing: string[], matched: string[]) => string | undefined } = {}): Promise<{ score: number; backend: string; legs: Legs; terms: { matched: string[]; missing: string[] } }[]> {
    const corpus = this.corpus();
    // (the head of a compound the project writes apart counts in part here, in the words leg only:
    // never in a ranking, where "filename" would rank every *Name first — red team adv14)
    const concepts = withCompoundHeads(this.concepts(target), corpus.index);
    const idf = corpus.index.idfFn(concepts);
    const history = this.historyFor(target);
    const n = this.provider.available && this.config.gateVector ? await this.neural() : undefined;
    let q: Float32Array | undefined, cal: Calibration | undefined, vectors: Map<string, Float32Array> | undefined;
    if (n) {
      await this.ensureEmbedded(1000);
      cal = await this.calibrationFor(n.embedder);
      [q] = await n.embedder.embed([target], 'query');
      vectors = this.vectors(n.store);
    }
    const out: { score: number; backend: string; legs: Legs; terms: { matched: string[]; missing: string[] } }[] = [];
    for (const s of symbols) {
      const chunk = (corpus.byName.get(qualified(s)) ?? []).map((i) => corpus.chunks[i]!).find((c) => c.path === s.file);
      const doc = keywordDoc({ name: s.name, container: s.container, path: s.file, signature: s.signature, doc: chunk?.doc, body: chunk?.body, evidence: s.evidence });
      const cov = coverageOf(concepts, doc, idf);
      const legs: Legs = { keyword: cov.coverage };
      const terms = { matched: cov.matched, missing: concepts.map((c) => c.term).filter((t) => !cov.matched.includes(t)) };
      if (n && q && cal) {
        let v = chunk ? vectors!.get(chunk.hash) : undefined;
        if (!v && n.embedder.embedCode) [v] = n.embedder.embedCode([{ name: s.name, container: s.container, path: s.file, signature: s.signature, body: '' }]);
        if (!v) [v] = await n.embedder.embed([`${s.container ? s.container + '.' : ''}${s.name}\n${s.file}\n${s.signature}`], 'passage');
        const cos = dot(q, v!);
        legs.vector = { cosine: round(cos), score: applyCalibration(cal, cos) };
      }
      const h = learned(history, corpus, s.name, qualified(s), s.file);
      if (h !== undefined) legs.history = h;
      // `namesAnother`: the target's name is this symbol's, but its other words say another definition of it
      const named = s.namesAnother ? 0 : Math.max(...[target, ...(opts.namedIn ?? [])].map((t) => namedScore(t, s.name, s.container)));
      if (named > 0) legs.named = named;
      // earlier sessions' confirmations are what agents said: they may lift a symbol the code itself
      // relates to the target, never carry one it does not (red team adv83: five sessions that
      // confirmed attachment for a target it shares no word with made it accepted at 0.30 on history alone)
      // (and only lift it: a weaker match averaged in would take a FACT down — red team adv87 — and
      // only where its own code says half of what acceptance asks: one word of the target in a cited
      // line, 0.07, was lifted to accepted by a weighty match — red team adv88)
      const own = this.withoutHistory(legs);
      let score = own >= HISTORY_FLOOR ? Math.max(this.combine(legs), own) : own;
      // a word shared with the target that names a family (adapter), where the target's other words
      // name the member beside this one (fetch.js beside xhr.js): no credit from the shared word
      if (opts.siblingOf && score >= SIBLING_CAP && named === 0 && terms.missing.length > 0) {
        const wordsOfTerms = (ts: string[]) => concepts.filter((c) => ts.includes(c.term)).flatMap((c) => c.words);
        const sibling = opts.siblingOf(s.file, wordsOfTerms(terms.missing), wordsOfTerms(terms.matched));
        if (sibling) {
          legs.sibling = sibling;
          score = SIBLING_CAP;
        }
      }
      out.push({ score, backend: SemanticEngine.backendOf(legs), legs, terms });
    }
    return out;
  }

  /** semantic_search: file, span, symbol, score and backend per result. */
  async search(args: { query: string; limit?: number; offset?: number; path?: string }) {
    if (!normalize(args.query)) throw new UserError('the query is empty', 'Describe the behaviour you are looking for, e.g. "retry failed requests".');
    const r = await this.rank(args.query, { path: args.path });
    const min = this.config.minConfidence;
    const kept = r.items.filter((x) => x.score >= min);
    if (r.concepts.length === 0 && !r.vector) {
      throw new UserError('the query has no searchable words', 'Describe the behaviour you are looking for, e.g. "retry failed requests", or name the concept in English or with glossary terms.');
    }
    const offset = args.offset ?? 0;
    const limit = Math.min(args.limit ?? 10, 50);
    const page = kept.slice(offset, offset + limit);
    return {
      query: args.query,
      expanded_terms: [...new Set(r.concepts.flatMap((c) => c.words))].slice(0, 30),
      backend: r.backend,
      ...(r.vector ? { vector: r.vector } : { vector: { available: false, why: this.provider.status().reason ?? 'no model' } }),
      items: page.map((x) => ({
        file: x.chunk.path,
        line: x.chunk.name_line,
        start_line: x.chunk.doc_line ?? x.chunk.start_line,
        end_line: x.chunk.end_line,
        symbol: x.chunk.kind === 'section' ? x.chunk.name : qualified(x.chunk),
        kind: x.chunk.kind,
        score: x.score,
        backend: SemanticEngine.backendOf(x.legs),
        legs: x.legs,
        matched: x.matched,
        snippet: x.chunk.signature,
        ...(x.chunk.doc ? { doc: x.chunk.doc.slice(0, 160) } : {}),
      })),
      total: kept.length,
      below_min_confidence: r.items.length - kept.length,
      min_confidence: min,
      offset,
      limit,
      next_offset: offset + page.length < kept.length ? offset + page.length : null,
      note: 'Results are HYPOTHESES until verified with the exploration tools.',
    };
  }
}

export function firstSentence(doc: string): string {
  const m = /^(.+?[.。!?！？])(\s|$)/.exec(doc.trim());
  return (m ? m[1]! : doc.trim()).slice(0, 300);
}

const engines = new WeakMap<Project, SemanticEngine>();
export function semanticEngine(project: Project): SemanticEngine {
  let e = engines.get(project);
  if (!e) engines.set(project, (e = new SemanticEngine(project)));
  return e;
}
