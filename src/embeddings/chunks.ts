/**
 * Semantic chunks: the units semantic_search ranks and the model embeds. They follow the syntax
 * tree the index already holds — one per function, method, class, interface, type, enum and
 * namespace (with the doc comment right above it), and one per markdown section — never fixed
 * windows. Built at index time for the files whose content changed (by file hash), so a re-index
 * rebuilds only those; each chunk's text hash is the key of its cached embedding.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LONG_LINE, shortNumber, splitWords } from '../util/words.js';
import { type DB, getMeta, setMeta } from '../store/db.js';

export const CHUNK_SCHEMA = `
CREATE TABLE IF NOT EXISTS chunk_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,            -- function | method | class | interface | type | enum | namespace | section
  name TEXT NOT NULL,
  container TEXT,
  start_line INTEGER NOT NULL,   -- the declaration (a markdown section: its heading)
  end_line INTEGER NOT NULL,
  name_line INTEGER NOT NULL,
  doc_line INTEGER,              -- first line of the doc comment, when there is one
  signature TEXT NOT NULL,
  doc TEXT NOT NULL,             -- the comment immediately above (Python: the docstring), '' when none
  body TEXT NOT NULL,            -- identifier words of the body, space-separated, most frequent first (capped)
  text TEXT NOT NULL,            -- what the model embeds
  hash TEXT NOT NULL             -- sha1 of text: the embedding cache key
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS chunks_hash ON chunks(hash);
`;

export const CHUNK_KINDS = new Set(['function', 'method', 'class', 'interface', 'type', 'enum', 'namespace', 'struct', 'trait', 'record', 'module', 'macro']);
const DOC_MAX = 600;
const TEXT_MAX = 1500;
const BODY_WORDS = 60;
const MAX_SYMBOL_LINES = 400;

export interface ChunkRow {
  id: number;
  path: string;
  kind: string;
  name: string;
  container: string | null;
  start_line: number;
  end_line: number;
  name_line: number;
  doc_line: number | null;
  signature: string;
  doc: string;
  body: string;
  text: string;
  hash: string;
}

export function ensureChunkSchema(db: DB): void {
  db.exec(CHUNK_SCHEMA);
}

const COMMENT_LINE = /^\s*(\/\/\/?|#(?![\[!])|--|\*|\/\*\*?|\*\/)/;

/**
 * The comment immediately above line `row` (0-based index of the declaration's first line):
 * a block comment ending on the line above, or consecutive line comments; decorators and
 * attributes between the comment and the declaration are skipped. Markers and JSDoc tags removed.
 */
export function docAbove(lines: string[], row: number): { text: string; line: number } | undefined {
  let i = row - 1;
  while (i >= 0 && /^\s*(@[\w.]+|#\[)/.test(lines[i]!)) i--; // decorators / attributes
  if (i < 0) return undefined;
  const last = lines[i]!.trim();
  let start = i;
  if (last.endsWith('*/')) {
    while (start >= 0 && !lines[start]!.includes('/*')) start--;
    if (start < 0) return undefined;
  } else if (/^(\/\/|#(?![\[!])|--)/.test(last)) {
    while (start - 1 >= 0 && /^\s*(\/\/|#(?![\[!])|--)/.test(lines[start - 1]!)) start--;
  } else return undefined;
  const text = cleanComment(lines.slice(start, i + 1));
  return text ? { text, line: start + 1 } : undefined;
}

/** Python: the docstring that opens a def/class body (the line after `row`). */
export function docstringBelow(lines: string[], row: number, endRow: number): { text: string; line: number } | undefined {
  let i = row + 1;
  while (i <= endRow && i < lines.length && !/\S/.test(lines[i]!)) i++;
  const first = lines[i]?.trim() ?? '';
  const m = /^[rRuU]?("""|''')/.exec(first);
  if (!m) return undefined;
  const q = m[1]!;
  const parts: string[] = [];
  let rest = first.slice(m[0].length);
  for (let j = i; j <= Math.min(endRow, i + 40) && j < lines.length; j++) {
    const line = j === i ? rest : lines[j]!;
    const end = line.indexOf(q);
    if (end >= 0) {
      parts.push(line.slice(0, end));
      const text = squash(parts.join('\n'));
      return text ? { text: cap(text, DOC_MAX), line: i + 1 } : undefined;
    }
    parts.push(line);
    rest = '';
  }
  return undefined;
}

function cleanComment(raw: string[]): string {
  const lines = raw.map((l) => l.replace(/^\s*\/\*\*?/, '').replace(/\*\/\s*$/, '').replace(/^\s*(\/\/\/?!?|#|--|\*)\s?/, ''));
  const out: string[] = [];
  for (const l of lines) {
    if (/^\s*@\w+/.test(l)) break; // JSDoc/Javadoc tags: the description is what comes before
    out.push(l);
  }
  const description = squash(out.join('\n'));
  // a comment made only of tags (date-fns: @name, @summary, @description) says it in @summary/@description
  return cap(description || taggedDescription(lines), DOC_MAX);
}

function taggedDescription(lines: string[]): string {
  const i = lines.findIndex((l) => /^\s*@(summary|description)\b/.test(l));
  if (i < 0) return '';
  const out = [lines[i]!.replace(/^\s*@\w+\s*/, '')];
  for (const l of lines.slice(i + 1)) {
    if (/^\s*@\w+/.test(l)) break;
    out.push(l);
  }
  return squash(out.join('\n'));
}

const squash = (s: string) => s.replace(/\{@\w+\s+([^}]*)\}/g, '$1').replace(/\s+/g, ' ').trim();
const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** Code lines without comments (line comments, block comments, Python docstrings kept as code are rare). */
export function stripComments(code: string): string {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    .replace(/^\s*#(?![\[!]).*$/gm, '');
}

export const KEYWORDS = new Set(
  ('const let var function return if else for while do switch case break continue new this super class extends implements interface type ' +
    'enum export import from default async await yield try catch finally throw typeof instanceof in of void null undefined true false ' +
    'public private protected readonly static abstract override declare namespace module as is keyof infer never unknown any number string boolean ' +
    'def self cls pass lambda elif none func fn pub impl struct mut use mod crate package go defer chan map range var nil').split(' '),
);

function bodyWords(code: string): string {
  const counts = new Map<string, number>();
  for (const w of splitWords(code)) {
    if (w.length < 2 || KEYWORDS.has(w) || shortNumber(w) || /[^\x00-\x7f]/.test(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, BODY_WORDS).map(([w]) => w).join(' ');
}

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

interface SymRow {
  name: string;
  kind: string;
  container_name: string | null;
  line: number;
  col: number;
  end_line: number;
  end_col: number;
  name_line: number;
  signature: string;
}

/** what a declaration on a bundle's long lines contributes to its chunk, at most */
const LONG_CODE = 8000;

/** A declaration's source lines; on a bundle's long lines (LONG_LINE) only its own columns. */
function sourceOf(lines: string[], s: SymRow): string {
  const rows = lines.slice(s.line - 1, Math.min(s.end_line, s.line + MAX_SYMBOL_LINES));
  if (!rows.some((l) => l.length > LONG_LINE)) return rows.join('\n');
  const last = rows.length - 1;
  const endsHere = s.end_line - s.line === last;
  return rows.map((l, i) => {
    const from = i === 0 ? s.col - 1 : 0;
    return l.slice(from, Math.min(i === last && endsHere ? s.end_col - 1 : l.length, from + LONG_CODE));
  }).join('\n').slice(0, LONG_CODE);
}

export type NewChunk = Omit<ChunkRow, 'id'>;

/**
 * A declaration that is a unit of code to search: a function, class, type… and a module-level
 * constant or variable whose initializer spans lines (a preset object, a component, a table of
 * handlers: a fifth of the declarations real commits change), not `const MAX = 10`.
 */
export function chunkable(s: { kind: string; container_name: string | null; line: number; end_line: number }): boolean {
  return CHUNK_KINDS.has(s.kind) || ((s.kind === 'constant' || s.kind === 'variable') && s.container_name === null && s.end_line - s.line >= 2);
}

export function chunksOfCode(file: string, lines: string[], symbols: SymRow[], language: string | null): NewChunk[] {
  const out: NewChunk[] = [];
  for (const s of symbols) {
    if (!chunkable(s)) continue;
    const row = s.line - 1;
    const doc = language === 'python' ? docstringBelow(lines, row, s.end_line - 1) ?? docAbove(lines, row) : docAbove(lines, row);
    const code = stripComments(sourceOf(lines, s));
    const body = bodyWords(code);
    const qualified = s.container_name ? `${s.container_name}.${s.name}` : s.name;
    const excerpt = code.replace(/\n\s*\n/g, '\n').replace(/[ \t]+/g, ' ');
    const text = cap([`${s.kind} ${qualified}`, doc?.text ?? '', `${file}`, excerpt].filter(Boolean).join('\n'), TEXT_MAX);
    out.push({
      path: file, kind: s.kind, name: s.name, container: s.container_name, start_line: s.line, end_line: s.end_line, name_line: s.name_line,
      doc_line: doc?.line ?? null, signature: s.signature, doc: doc?.text ?? '', body, text, hash: sha1(text),
    });
  }
  return out;
}

/** Markdown: one chunk per section (heading to the next heading of any level). */
export function chunksOfMarkdown(file: string, lines: string[]): NewChunk[] {
  const out: NewChunk[] = [];
  const heads: { row: number; title: string }[] = [];
  let fence = false;
  lines.forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    const m = !fence && /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(l);
    if (m) heads.push({ row: i, title: m[2]! });
  });
  if (heads.length === 0 || heads[0]!.row > 0) {
    const end = heads[0]?.row ?? lines.length;
    if (lines.slice(0, end).join('').trim()) heads.unshift({ row: -1, title: path.basename(file) });
  }
  heads.forEach((h, k) => {
    const endRow = (heads[k + 1]?.row ?? lines.length) - 1;
    const body = lines.slice(h.row + 1, endRow + 1).join('\n');
    const doc = cap(squash(body.replace(/```[\s\S]*?```/g, ' ')), DOC_MAX);
    if (!doc && h.row < 0) return;
    const text = cap(`${h.title}\n${squash(body)}`, TEXT_MAX);
    const line = Math.max(1, h.row + 1);
    out.push({
      path: file, kind: 'section', name: h.title.slice(0, 120), container: null, start_line: line, end_line: Math.max(line, endRow + 1), name_line: line,
      doc_line: null, signature: h.row >= 0 ? lines[h.row]!.trim().slice(0, 160) : '', doc, body: bodyWords(body), text, hash: sha1(text),
    });
  });
  return out;
}

/** bumped when chunk contents change meaning */
const CHUNKER_VERSION = '5';
const MARKDOWN = /\.(md|markdown|mdx)$/i;

export interface ChunkStats {
  files: number;
  chunks: number;
  ms: number;
}

/** What syncChunks writes: the chunks of every file whose hash moved since its chunks were built, and the files gone. */
export interface ChunkPlan {
  work: { path: string; hash: string; chunks: NewChunk[] }[];
  gone: string[];
}

/**
 * The chunk tables made ready: created, and emptied when the chunker changed. It writes, so it runs
 * on the indexing connection before planChunks reads (there or on another connection).
 */
export function prepareChunks(db: DB): void {
  ensureChunkSchema(db);
  // chunks are derived from the symbols table: a rebuilt index (the meta table is cleared) or a
  // new chunker rebuilds them all
  if (getMeta(db, 'chunks_version') !== CHUNKER_VERSION) {
    db.exec('DELETE FROM chunk_files; DELETE FROM chunks;');
    setMeta(db, 'chunks_version', CHUNKER_VERSION);
  }
}

/**
 * The chunks to build, read from the index and the files (it writes nothing: a worker can plan
 * on a read-only connection while the indexing thread links). `only`: those paths alone.
 * A chunk reads a symbol's name, kind, lines, signature and container_name; of these, linking
 * writes only container_name, of symbols whose container is imported (container_import_id):
 * planned before linking, those files are planned again after it (see chunksAfterLink).
 */
export function planChunks(db: DB, root: string, only?: Set<string>): ChunkPlan {
  const files = db.prepare('SELECT id, path, hash, language FROM files').all() as { id: number; path: string; hash: string; language: string | null }[];
  const built = new Map((db.prepare('SELECT path, hash FROM chunk_files').all() as { path: string; hash: string }[]).map((r) => [r.path, r.hash]));
  const symbolsOf = db.prepare(
    'SELECT name, kind, container_name, line, col, end_line, end_col, name_line, signature FROM symbols WHERE file_id = ? AND local = 0 ORDER BY line, col',
  );
  const seen = new Set<string>();
  const work: ChunkPlan['work'] = [];
  for (const f of files) {
    seen.add(f.path);
    if (built.get(f.path) === f.hash || (only && !only.has(f.path))) continue;
    const isMd = MARKDOWN.test(f.path);
    let chunks: NewChunk[] = [];
    if (f.language || isMd) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(root, f.path), 'utf8');
      } catch {
        continue;
      }
      const lines = text.split(/\r?\n/);
      chunks = isMd ? chunksOfMarkdown(f.path, lines) : chunksOfCode(f.path, lines, symbolsOf.all(f.id) as SymRow[], f.language);
    }
    work.push({ path: f.path, hash: f.hash, chunks });
  }
  const gone = only ? [] : [...built.keys()].filter((p) => !seen.has(p));
  return { work, gone };
}

/**
 * A plan made before linking, brought in line with the linked index: the files holding a symbol
 * whose container linking set (an imported container) are planned again.
 */
export function chunksAfterLink(db: DB, root: string, plan: ChunkPlan): ChunkPlan {
  const moved = new Set((db.prepare(
    'SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.container_import_id IS NOT NULL',
  ).all() as { path: string }[]).map((r) => r.path));
  if (moved.size === 0) return plan;
  const again = new Map(planChunks(db, root, moved).work.map((w) => [w.path, w]));
  return { work: plan.work.map((w) => again.get(w.path) ?? w), gone: plan.gone };
}

/** Writes a plan: the chunks of each planned file replace its old ones; files gone lose theirs. */
export function applyChunks(db: DB, plan: ChunkPlan): { files: number; chunks: number } {
  const { work, gone } = plan;
  let count = 0;
  if (work.length || gone.length) {
    const del = db.prepare('DELETE FROM chunks WHERE path = ?');
    const delFile = db.prepare('DELETE FROM chunk_files WHERE path = ?');
    const ins = db.prepare(
      `INSERT INTO chunks(path, kind, name, container, start_line, end_line, name_line, doc_line, signature, doc, body, text, hash)
       VALUES (@path, @kind, @name, @container, @start_line, @end_line, @name_line, @doc_line, @signature, @doc, @body, @text, @hash)`,
    );
    const mark = db.prepare('INSERT OR REPLACE INTO chunk_files(path, hash) VALUES (?, ?)');
    db.transaction(() => {
      for (const p of gone) {
        del.run(p);
        delFile.run(p);
      }
      for (const w of work) {
        del.run(w.path);
        for (const c of w.chunks) ins.run(c);
        mark.run(w.path, w.hash);
        count += w.chunks.length;
      }
    })();
  }
  return { files: work.length + gone.length, chunks: count };
}

/**
 * Brings the chunks in line with the index: files whose hash differs from the one their chunks
 * were built from are re-chunked; removed files lose theirs. Cheap when nothing changed.
 */
export function syncChunks(db: DB, root: string): ChunkStats {
  const t0 = performance.now();
  prepareChunks(db);
  return { ...applyChunks(db, planChunks(db, root)), ms: performance.now() - t0 };
}
