/**
 * `query` on the same engine as `semantic_search` (issue #10): the semantic engine's ranking of code
 * chunks (BM25F over name, doc comment, signature and body identifiers; the model and the JA/ZH
 * glossary when present) fused with the name index (every declaration, constants and fields too) by
 * reciprocal rank. A Japanese or Chinese request with no English word still finds code through the
 * engine; a name typed exactly still comes first through the name index.
 */
import { rankFiles } from './file-rank.js';
import { semanticEngine } from '../embeddings/engine.js';
import { currentDeadline } from '../util/deadline.js';
import { UserError } from '../util/paths.js';
import { paginate } from './page.js';
import type { Project } from '../project/project.js';
import { type QueryResult, runQuery } from './lexical.js';

/** Reciprocal-rank constant: how flat the fusion is (60 is the usual choice; the lists are long). */
const RRF_K = 60;
/**
 * The name index's weight against the engine's: on real commits (bench:relevance, tune split) the
 * engine alone ranks the changed code best (MRR 0.286), an equal say costs 0.012 and a quarter 0.006;
 * the quarter keeps constants and fields, which only the name index has, within reach.
 */
const NAMES_WEIGHT = 0.25;
/** A declaration whose name (or Container.name) is the query itself comes first, whatever the ranks. */
const EXACT = 1;
/** How deep each list is read. */
const DEPTH = 500;

type Row = QueryResult['symbols'][number];

export async function queryHybrid(p: Project, args: { text: string; kind?: string; offset?: number; limit?: number }): Promise<Omit<QueryResult, 'backend'> & { backend: string }> {
  let lexical: QueryResult | undefined;
  try {
    lexical = runQuery(p, { text: args.text, kind: args.kind, limit: DEPTH });
  } catch (e) {
    // no English word: the engine (glossary, segmenter, model) may still understand it
    if (!(e instanceof UserError) || e.code !== 'no_searchable_words') throw e;
  }
  const deadline = currentDeadline();
  const remaining = deadline && Number.isFinite(deadline.ms) ? deadline.remaining() : Infinity;
  const budgetMs = Math.max(100, Math.min(1500, remaining / 2));
  const engine = semanticEngine(p);
  // a cold engine on a large project (a fresh server, pnpm's 29k chunks: ~2 s to build, synchronously)
  // would run the call out of its budget: answer from the names, and build it for the next call
  const cost = engine.corpusCostMs();
  const cold = cost > 0 && cost > remaining - 300;
  if (cold) setImmediate(() => engine.warm());
  const ranked = cold ? undefined : await engine.rank(args.text, { kinds: (k) => k !== 'section' && (!args.kind || k === args.kind), budgetMs });
  const fused = new Map<string, { row: Row; score: number }>();
  const key = (file: string, name: string, line: number) => `${file}\0${name}\0${line}`;
  const add = (row: Row, rank: number, weight = 1) => {
    const k = key(row.file, row.name, row.line);
    const f = fused.get(k) ?? { row, score: 0 };
    f.score += weight / (RRF_K + rank);
    fused.set(k, f);
  };
  const exact = args.text.trim().toLowerCase();
  (lexical?.symbols ?? []).forEach((r, i) => {
    add(r, i + 1, NAMES_WEIGHT);
    const full = r.container ? `${r.container}.${r.name}` : r.name;
    if (r.name.toLowerCase() === exact || full.toLowerCase() === exact) fused.get(key(r.file, r.name, r.line))!.score += EXACT;
  });
  (ranked?.items ?? []).slice(0, DEPTH).forEach((x, i) => {
    const c = x.chunk;
    add({ name: c.name, kind: c.kind, container: c.container, file: c.path, line: c.name_line, column: 0, score: 0, matched: x.matched, snippet: c.signature }, i + 1);
  });
  if (fused.size === 0 && !lexical && cold) {
    throw new UserError('the search engine is still being built for this project, and the query has no English word the name index could match', 'Call again in a few seconds, or name symbols, e.g. "session lock" or "parseConfig".', 'index_not_ready');
  }
  if (fused.size === 0 && !lexical) {
    throw new UserError('the query matched nothing: no searchable words, and nothing the engine understood', 'Describe the feature in other words, or name symbols, e.g. "session lock" or "parseConfig".', 'no_searchable_words');
  }
  const order = [...fused.values()].sort((a, b) => b.score - a.score || a.row.file.localeCompare(b.row.file) || a.row.line - b.row.line);
  const max = order[0]?.score ?? 1;
  const page = paginate(order, args.offset, args.limit ?? 20);
  // a row only the engine found has no column yet: the name's, from the index
  const col = p.db.prepare('SELECT s.name_col AS c FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name = ? AND s.name_line = ?');
  for (const { row } of page.items) if (row.column === 0) row.column = (col.get(row.file, row.name, row.line) as { c: number } | undefined)?.c ?? 1;
  return {
    terms: lexical?.terms ?? [...new Set((ranked?.concepts ?? []).flatMap((c) => c.words))].slice(0, 30),
    symbols: page.items.map(({ row, score }) => ({ ...row, score: Math.round((score / max) * 1000) / 1000 })),
    files: rankFiles(order.map(({ row, score }) => ({ file: row.file, label: row.container ? `${row.container}.${row.name}` : row.name, score })), max),
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    next_offset: page.next_offset,
    backend: ranked ? `names+${ranked.backend}` : 'names',
    ...(cold ? { engine: 'warming: the code-text ranking (doc comments, bodies, the model) is being built for this project and was left out of this answer; the next query includes it' } : {}),
  };
}
