import { type Page, paginate } from './page.js';
import type { Project } from '../project/project.js';
import { requireFile, SYMBOL_COLUMNS, type SymbolRow } from './symbols.js';

export interface OutlineNode {
  name: string;
  kind: string;
  line: number;
  column: number;
  end_line: number;
  exported: boolean;
  signature: string;
  /** the type a method belongs to when that type is declared in another file (Go receivers) */
  container?: string;
  children: OutlineNode[];
}

export interface OutlineResult extends Page<OutlineNode> {
  file: string;
  language: string | null;
  /** symbols in the file, all depths */
  symbol_count: number;
}

/** A file's symbols, nested by container. Pagination is over top-level entries. */
export function getSymbols(p: Project, args: { file: string; offset?: number; limit?: number; depth?: number }): OutlineResult {
  const fileId = requireFile(p, args.file);
  const rows = p.db
    .prepare(`SELECT ${SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ? ORDER BY s.line, s.col`)
    .all(fileId) as SymbolRow[];
  const language = (p.db.prepare('SELECT language FROM files WHERE id = ?').get(fileId) as { language: string | null }).language;
  const maxDepth = args.depth ?? 3;
  const nodes = new Map<number, OutlineNode & { depth: number }>();
  const top: OutlineNode[] = [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const order = new Map<OutlineNode, number>();
  // containers first: a Go method may come before its type in the file
  const depthOf = (r: SymbolRow, seen = 0): number => {
    const parent = r.container_id != null ? byId.get(r.container_id) : undefined;
    return parent && seen < 16 ? depthOf(parent, seen + 1) + 1 : 0;
  };
  const ordered = rows.map((r, i) => ({ r, i, depth: depthOf(r) })).sort((a, b) => a.depth - b.depth || a.i - b.i);
  for (const { r, i, depth } of ordered) {
    const parent = depth > 0 ? nodes.get(r.container_id!) : undefined;
    const node = {
      name: r.name, kind: r.kind, line: r.name_line, column: r.name_col, end_line: r.end_line,
      exported: r.exported === 1, signature: r.signature,
      ...(r.container_name != null && depth === 0 ? { container: r.container_name } : {}),
      children: [], depth,
    };
    nodes.set(r.id, node);
    order.set(node, i);
    if (depth >= maxDepth) continue;
    if (parent) parent.children.push(node);
    else top.push(node);
  }
  const inFileOrder = (a: OutlineNode, b: OutlineNode) => order.get(a)! - order.get(b)!;
  const strip = (n: OutlineNode & { depth?: number }): OutlineNode => ({
    name: n.name, kind: n.kind, line: n.line, column: n.column, end_line: n.end_line, exported: n.exported,
    signature: n.signature, ...(n.container !== undefined ? { container: n.container } : {}), children: n.children.sort(inFileOrder).map(strip),
  });
  top.sort(inFileOrder);
  const page = paginate(top.map(strip), args.offset, args.limit ?? 100);
  return { ...page, file: args.file, language, symbol_count: rows.length };
}
