/**
 * semantic_search: hybrid search over semantic chunks (functions, methods, classes, markdown
 * sections) — the neural model when present, the lexical backend always, and the NL→symbol cache.
 * See src/embeddings/engine.ts.
 */
import { semanticEngine } from '../embeddings/engine.js';
import type { Project } from '../project/project.js';

export function semanticSearch(p: Project, args: { query: string; limit?: number; offset?: number; path?: string }) {
  return semanticEngine(p).search(args);
}
