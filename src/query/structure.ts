import fs from 'node:fs';
import path from 'node:path';
import { quote, trimSlashes, UserError } from '../util/paths.js';
import { paginate } from './page.js';
import type { Project } from '../project/project.js';
import { requireFile } from './symbols.js';

const CAP = 100;

export interface FileStructure {
  type: 'file';
  file: string;
  language: string | null;
  imports: { source: string; names: string[]; resolved_file: string | null; status: string }[];
  exports: { name: string; kind: string; line: number | null; from: string | null }[];
  declarations: { name: string; kind: string; line: number; exported: boolean }[];
  calls: { caller: string | null; callee: string; line: number; target: string | null; confidence: string }[];
  truncated: string[];
}

export interface DirectoryStructure {
  type: 'directory';
  directory: string;
  modules: { file: string; language: string | null; symbols: number; exports: number; imported_by: number }[];
  edges: { from: string; to: string; names: number }[];
  external_dependencies: { module: string; importers: number }[];
  total_modules: number;
  total_edges: number;
  next_offset: number | null;
  truncated: string[];
}

/** A file: imports, exports, declarations, calls. A directory: its modules and the import edges between them. */
export function analyzeStructure(p: Project, args: { path: string; offset?: number; limit?: number }): FileStructure | DirectoryStructure {
  const rel = trimSlashes(args.path);
  const abs = path.join(p.root, rel);
  if (rel !== '' && rel !== '.' && fs.existsSync(abs) && fs.statSync(abs).isDirectory()) return directory(p, rel === '.' ? '' : rel, args);
  if (rel === '' || rel === '.') return directory(p, '', args);
  return file(p, rel);
}

function file(p: Project, rel: string): FileStructure {
  const fileId = requireFile(p, rel);
  const language = (p.db.prepare('SELECT language FROM files WHERE id = ?').get(fileId) as { language: string | null }).language;
  const truncated: string[] = [];
  const cap = <T>(label: string, xs: T[]): T[] => {
    if (xs.length > CAP) truncated.push(`${label}: ${xs.length} (showing ${CAP})`);
    return xs.slice(0, CAP);
  };
  const importRows = p.db
    .prepare(`SELECT i.source, i.imported, i.local_name, i.status, f.path AS resolved FROM imports i LEFT JOIN files f ON f.id = i.resolved_file_id WHERE i.file_id = ? AND i.kind <> 'scope' AND i.base_import_id IS NULL ORDER BY i.line`)
    .all(fileId) as { source: string; imported: string; local_name: string | null; status: string; resolved: string | null }[];
  const bySource = new Map<string, FileStructure['imports'][number]>();
  for (const r of importRows) {
    let e = bySource.get(r.source);
    if (!e) bySource.set(r.source, (e = { source: r.source, names: [], resolved_file: r.resolved, status: r.status === 'symbol' || r.status === 'module' ? 'resolved' : r.status }));
    e.names.push(r.imported === r.local_name || r.local_name === null ? r.imported : `${r.imported} as ${r.local_name}`);
  }
  const exportRows = p.db
    .prepare(`SELECT e.name, e.kind, s.name_line AS line, COALESCE(e.source, i.source) AS source FROM exports e
      LEFT JOIN symbols s ON s.id = e.symbol_id LEFT JOIN imports i ON i.id = e.import_id WHERE e.file_id = ? ORDER BY e.id`)
    .all(fileId) as { name: string; kind: string; line: number | null; source: string | null }[];
  const decls = p.db
    .prepare(`SELECT name, kind, name_line AS line, exported FROM symbols WHERE file_id = ? AND container_id IS NULL AND local = 0 ORDER BY line`)
    .all(fileId) as { name: string; kind: string; line: number; exported: number }[];
  const calls = p.db
    .prepare(`SELECT e.name AS caller, e.container_name AS caller_container, r.name AS callee, r.line, r.confidence,
        t.name_line AS tline, tf.path AS tpath
      FROM refs r LEFT JOIN symbols e ON e.id = r.enclosing_id LEFT JOIN symbols t ON t.id = r.symbol_id LEFT JOIN files tf ON tf.id = t.file_id
      WHERE r.file_id = ? AND r.role IN ('call','new') AND r.confidence IS NOT NULL ORDER BY r.line, r.col`)
    .all(fileId) as { caller: string | null; caller_container: string | null; callee: string; line: number; confidence: string; tline: number | null; tpath: string | null }[];
  return {
    type: 'file',
    file: rel,
    language,
    imports: cap('imports', [...bySource.values()]),
    exports: cap('exports', exportRows.map((e) => ({ name: e.name, kind: e.kind === 'symbol' ? 'declaration' : e.kind === 'star' ? 'export *' : 're-export', line: e.line, from: e.kind === 'symbol' ? null : e.source }))),
    declarations: cap('declarations', decls.map((d) => ({ name: d.name, kind: d.kind, line: d.line, exported: d.exported === 1 }))),
    calls: cap('calls', calls.map((c) => ({
      caller: c.caller ? (c.caller_container ? `${c.caller_container}.${c.caller}` : c.caller) : null,
      callee: c.callee, line: c.line, target: c.tpath ? `${c.tpath}:${c.tline}` : null, confidence: c.confidence,
    }))),
    truncated,
  };
}

function directory(p: Project, dir: string, args: { offset?: number; limit?: number }): DirectoryStructure {
  const prefix = dir ? dir + '/' : '';
  const files = p.db
    .prepare(`SELECT f.id, f.path, f.language,
        (SELECT COUNT(*) FROM symbols s WHERE s.file_id = f.id AND s.local = 0) AS symbols,
        (SELECT COUNT(*) FROM exports e WHERE e.file_id = f.id) AS exports,
        (SELECT COUNT(DISTINCT i.file_id) FROM imports i WHERE i.resolved_file_id = f.id) AS imported_by
      FROM files f WHERE f.language IS NOT NULL AND f.path LIKE ? ESCAPE '\\' ORDER BY f.path`)
    .all(escapeLike(prefix) + '%') as { id: number; path: string; language: string | null; symbols: number; exports: number; imported_by: number }[];
  if (files.length === 0) {
    throw new UserError(`no indexed source files under '${quote(dir || '.')}'`, 'Pass a directory or file relative to the project root.', 'unknown_path');
  }
  const edgesRaw = p.db
    .prepare(`SELECT a.path AS src, b.path AS dst, COUNT(*) AS n FROM imports i JOIN files a ON a.id = i.file_id JOIN files b ON b.id = i.resolved_file_id
      WHERE a.path LIKE ? ESCAPE '\\' AND i.base_import_id IS NULL GROUP BY a.path, b.path ORDER BY a.path, b.path`)
    .all(escapeLike(prefix) + '%') as { src: string; dst: string; n: number }[];
  const inDir = new Set(files.map((f) => f.path));
  const edges = edgesRaw.filter((e) => inDir.has(e.dst) && e.src !== e.dst).map((e) => ({ from: e.src, to: e.dst, names: e.n }));
  const external = p.db
    .prepare(`SELECT i.source AS module, COUNT(DISTINCT i.file_id) AS importers FROM imports i JOIN files a ON a.id = i.file_id
      WHERE i.status = 'external' AND i.kind <> 'scope' AND i.base_import_id IS NULL AND a.path LIKE ? ESCAPE '\\' GROUP BY i.source ORDER BY importers DESC LIMIT 30`)
    .all(escapeLike(prefix) + '%') as { module: string; importers: number }[];
  const modulesPage = paginate(files.map((f) => ({ file: f.path, language: f.language, symbols: f.symbols, exports: f.exports, imported_by: f.imported_by })), args.offset, args.limit ?? 100);
  const shown = new Set(modulesPage.items.map((m) => m.file));
  const pageEdges = edges.filter((e) => shown.has(e.from));
  const truncated: string[] = [];
  if (pageEdges.length > 300) truncated.push(`edges: ${pageEdges.length} on this page (showing 300)`);
  return {
    type: 'directory',
    directory: dir || '.',
    modules: modulesPage.items,
    edges: pageEdges.slice(0, 300),
    external_dependencies: external,
    total_modules: files.length,
    total_edges: edges.length,
    next_offset: modulesPage.next_offset,
    truncated,
  };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}
