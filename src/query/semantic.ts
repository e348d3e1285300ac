/**
 * semantic_search, lexical backend: the query's concepts (JA/ZH terms through the glossary,
 * English words as they are) ranked with BM25 over symbols. The embeddings backend replaces this.
 */
import { concepts } from '../session/relevance.js';
import { UserError } from '../util/paths.js';
import { runQuery } from './lexical.js';
import type { Project } from './project.js';

export interface SemanticHit {
  file: string;
  line: number;
  end_line: number;
  symbol: string;
  kind: string;
  score: number;
  backend: 'lexical';
  snippet: string;
}

export function semanticSearch(p: Project, args: { query: string; limit?: number; offset?: number; path?: string }) {
  const words = concepts(args.query).flat();
  if (words.length === 0) throw new UserError('the query has no searchable words', 'Describe the behaviour you are looking for, e.g. "retry failed requests".');
  const all = runQuery(p, { text: [...new Set(words)].join(' '), limit: 500 });
  const under = args.path ? args.path.replace(/\/+$/, '') : '';
  const hits = all.symbols.filter((s) => !under || s.file === under || s.file.startsWith(under + '/'));
  const offset = args.offset ?? 0;
  const limit = Math.min(args.limit ?? 10, 50);
  const endLine = p.db.prepare('SELECT end_line FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name_line = ? AND s.name = ?');
  const items: SemanticHit[] = hits.slice(offset, offset + limit).map((s) => ({
    file: s.file,
    line: s.line,
    end_line: (endLine.get(s.file, s.line, s.name) as { end_line: number } | undefined)?.end_line ?? s.line,
    symbol: s.container ? `${s.container}.${s.name}` : s.name,
    kind: s.kind,
    score: s.score,
    backend: 'lexical' as const,
    snippet: s.snippet,
  }));
  return {
    query: args.query,
    expanded_terms: [...new Set(words)].slice(0, 30),
    items,
    total: hits.length,
    offset,
    limit,
    next_offset: offset + items.length < hits.length ? offset + items.length : null,
    note: 'Results are HYPOTHESES until verified with the exploration tools.',
  };
}
