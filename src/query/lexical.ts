/**
 * The name index of `query`: BM25 over identifier words (camelCase, snake_case, kebab-case split),
 * container names, paths and signature lines, over every declaration. `query` fuses it with the
 * semantic engine's ranking (hybrid-query.ts).
 */
import { rankFiles } from './file-rank.js';
import { checkDeadline } from '../util/deadline.js';
import { UserError } from '../util/paths.js';
import { splitWords } from '../util/words.js';
import { paginate } from './page.js';
import type { Project } from '../project/project.js';

const STOPWORDS = new Set(
  'a an the of to in on for and or is are be by with from at as it this that these those how where what which who when why do does did can could should would will please me my we our you your i find show get set use using used into about'.split(' '),
);

interface Doc {
  id: number;
  name: string;
  kind: string;
  container: string | null;
  file: string;
  line: number;
  column: number;
  signature: string;
  exported: boolean;
  fields: { name: string[]; context: string[] };
}

interface IndexCache {
  generation: number;
  docs: Doc[];
  df: Map<string, number>;
  avgLen: number;
}

const caches = new WeakMap<Project, IndexCache>();

/** Builds the symbol index `query` ranks by ahead of the first call (the server, after indexing: pnpm's 46k symbols take ~0.7 s). */
export function warmQueryIndex(p: Project): void {
  buildCache(p);
}

function buildCache(p: Project): IndexCache {
  const cached = caches.get(p);
  if (cached && cached.generation === p.generation) return cached;
  const rows = p.db
    .prepare(`SELECT s.id, s.name, s.kind, s.container_name, f.path, s.name_line, s.name_col, s.signature, s.exported
      FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.local = 0`)
    .all() as { id: number; name: string; kind: string; container_name: string | null; path: string; name_line: number; name_col: number; signature: string; exported: number }[];
  const df = new Map<string, number>();
  let totalLen = 0;
  const docs = rows.map((r) => {
    const name = splitWords(r.name);
    const context = [...splitWords(r.container_name ?? ''), ...splitWords(r.path.replace(/\.[^.]+$/, '')), ...splitWords(r.signature)];
    for (const w of new Set([...name, ...context])) df.set(w, (df.get(w) ?? 0) + 1);
    totalLen += name.length + context.length;
    return {
      id: r.id, name: r.name, kind: r.kind, container: r.container_name, file: r.path, line: r.name_line, column: r.name_col,
      signature: r.signature, exported: r.exported === 1, fields: { name, context },
    };
  });
  const cache = { generation: p.generation, docs, df, avgLen: docs.length ? totalLen / docs.length : 1 };
  caches.set(p, cache);
  return cache;
}

export interface QueryResult {
  terms: string[];
  symbols: { name: string; kind: string; container: string | null; file: string; line: number; column: number; score: number; matched: string[]; snippet: string }[];
  files: { file: string; score: number; top_symbols: string[] }[];
  total: number;
  offset: number;
  limit: number;
  next_offset: number | null;
  backend: 'lexical';
}

export function runQuery(p: Project, args: { text: string; kind?: string; offset?: number; limit?: number }): QueryResult {
  const terms = [...new Set(splitWords(args.text).filter((w) => !STOPWORDS.has(w)))];
  if (terms.length === 0) {
    throw new UserError('the query has no searchable words', 'Describe the feature or name symbols, e.g. "session lock" or "parseConfig".', 'no_searchable_words');
  }
  const { docs, df, avgLen } = buildCache(p);
  const N = docs.length || 1;
  const k1 = 1.2, b = 0.75;
  const exact = args.text.trim();
  const scored: { doc: Doc; score: number; matched: string[] }[] = [];
  let n = 0;
  for (const doc of docs) {
    if ((++n & 1023) === 0) checkDeadline();
    if (args.kind && doc.kind !== args.kind) continue;
    let score = 0;
    const matched: string[] = [];
    const len = doc.fields.name.length + doc.fields.context.length;
    for (const t of terms) {
      // name words count triple; a prefix of a name word counts half (e.g. "auth" → "authenticate")
      let tf = 0;
      for (const w of doc.fields.name) tf += w === t ? 3 : t.length >= 3 && w.startsWith(t) ? 1.5 : 0;
      for (const w of doc.fields.context) tf += w === t ? 1 : 0;
      if (tf === 0) continue;
      const idf = Math.log(1 + (N - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avgLen)));
      matched.push(t);
    }
    if (score === 0) continue;
    if (doc.name === exact || doc.name.toLowerCase() === exact.toLowerCase()) score *= 2;
    score *= 0.5 + 0.5 * (matched.length / terms.length); // cover more of the query
    if (doc.exported) score *= 1.1;
    scored.push({ doc, score, matched });
  }
  scored.sort((a, c) => c.score - a.score || a.doc.file.localeCompare(c.doc.file) || a.doc.line - c.doc.line);
  const page = paginate(scored, args.offset, args.limit ?? 20);
  const max = scored[0]?.score ?? 1;
  return {
    terms,
    symbols: page.items.map((s) => ({
      name: s.doc.name, kind: s.doc.kind, container: s.doc.container, file: s.doc.file, line: s.doc.line, column: s.doc.column,
      score: round(s.score / max), matched: s.matched, snippet: s.doc.signature,
    })),
    files: rankFiles(scored.map((s) => ({ file: s.doc.file, label: s.doc.container ? `${s.doc.container}.${s.doc.name}` : s.doc.name, score: s.score })), max),
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    next_offset: page.next_offset,
    backend: 'lexical',
  };
}

function round(x: number): number {
  return Math.round(Math.min(1, x) * 1000) / 1000;
}
