/**
 * The re-link after an incremental update resolves only what the change can reach (#14): after
 * every edit, the incremental index must hold exactly the facts a cold index of the same tree
 * holds — compared as sorted dumps joined to paths and target names, never raw ids.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IndexStats, updateIndex } from '../src/index/indexer.js';
import { type DB, openDb } from '../src/store/db.js';
import { copyFixture, makeProject, removeProject } from './helpers/project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeProject(d);
});

/** every fact of the index, by path, position and name (what a cold index of the tree must equal) */
export function dumpFacts(db: DB): string[] {
  const rows = (sql: string) => (db.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r));
  return [
    ...rows(`SELECT 'ref', f.path, r.line, r.col, r.end_col, r.name, r.role, r.target_kind, sf.path, s.name, s.line, s.col, r.confidence, e.name, e.line, r.args, r.access, r.derived
      FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.symbol_id LEFT JOIN files sf ON sf.id = s.file_id LEFT JOIN symbols e ON e.id = r.enclosing_id`),
    ...rows(`SELECT 'symbol', f.path, s.line, s.col, s.end_line, s.end_col, s.name, s.kind, s.container_name, s.signature, s.arity, s.exported, s.local,
        c.name, c.line, rf.path, rt.name, rt.line, ef.path, el.name, el.line
      FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols c ON c.id = s.container_id
      LEFT JOIN symbols rt ON rt.id = s.returns_symbol_id LEFT JOIN files rf ON rf.id = rt.file_id
      LEFT JOIN symbols el ON el.id = s.elements_symbol_id LEFT JOIN files ef ON ef.id = el.file_id`),
    ...rows(`SELECT 'import', f.path, i.line, i.col, i.local_name, i.source, i.imported, i.kind, i.status, rf.path, sf.path, s.name, s.line
      FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN files rf ON rf.id = i.resolved_file_id
      LEFT JOIN symbols s ON s.id = i.resolved_symbol_id LEFT JOIN files sf ON sf.id = s.file_id`),
    ...rows(`SELECT 'base', f.path, d.name, d.line, bf.path, b.name, b.line, x.is_union
      FROM bases x JOIN files f ON f.id = x.file_id LEFT JOIN symbols d ON d.id = x.symbol_id LEFT JOIN symbols b ON b.id = x.base_symbol_id LEFT JOIN files bf ON bf.id = b.file_id`),
    ...rows(`SELECT 'export', f.path, e.name, e.kind, s.name, s.line, e.source, e.hidden FROM exports e JOIN files f ON f.id = e.file_id LEFT JOIN symbols s ON s.id = e.symbol_id`),
    ...rows(`SELECT 'callback', f.path, s.name, s.line, c.arg, c.param, tf.path, t.name, t.line FROM callbacks c JOIN files f ON f.id = c.file_id
      JOIN symbols s ON s.id = c.symbol_id LEFT JOIN symbols t ON t.id = c.type_symbol_id LEFT JOIN files tf ON tf.id = t.file_id`),
    ...rows(`SELECT 'file', path, language, hash, is_module, parse_errors, package FROM files`),
  ].sort();
}

/** a cold index of a copy of the tree, in a fresh database */
async function coldFacts(root: string): Promise<{ facts: string[]; stats: IndexStats }> {
  const copy = makeProject({});
  dirs.push(copy);
  fs.cpSync(root, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.code-intel`) });
  const db = openDb(copy);
  try {
    const stats = await updateIndex(db, copy, { workers: 0 });
    return { facts: dumpFacts(db), stats };
  } finally {
    db.close();
  }
}

type Edit = { what: string; apply: (root: string) => void; /** files whose rows the re-link resolves at most (the whole link: undefined) */ relinked?: number };

let clock = Date.now() + 10_000;
function write(root: string, rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const t = new Date((clock += 5000)); // mtime must move even on coarse clocks
  fs.utimesSync(file, t, t);
}
function edit(root: string, rel: string, from: string | RegExp, to: string): void {
  const text = fs.readFileSync(path.join(root, rel), 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`edit of ${rel} did not apply: ${String(from)}`);
  write(root, rel, next);
}

async function replay(fixture: string, edits: Edit[]): Promise<IndexStats[]> {
  const root = copyFixture(fixture);
  dirs.push(root);
  const db = openDb(root);
  const all: IndexStats[] = [];
  try {
    await updateIndex(db, root, { workers: 0 });
    for (const e of edits) {
      e.apply(root);
      const stats = await updateIndex(db, root, { workers: 0 });
      all.push(stats);
      expect(stats.parsed + stats.removed, e.what).toBeGreaterThan(0);
      const incremental = dumpFacts(db);
      const { facts: cold, stats: coldStats } = await coldFacts(root);
      // (counted from what the re-link changed, not from every row)
      expect({ symbols: stats.symbols, references: stats.references }, e.what).toEqual({ symbols: coldStats.symbols, references: coldStats.references });
      // (the differing rows, not two arrays of thousands)
      expect(incremental.filter((r) => !cold.includes(r)), `${e.what}: rows only the incremental index holds`).toEqual([]);
      expect(cold.filter((r) => !incremental.includes(r)), `${e.what}: rows only the cold index holds`).toEqual([]);
      expect(incremental.length, e.what).toBe(cold.length);
      if (e.relinked !== undefined) expect(stats.link?.files ?? 0, `${e.what}: files re-linked`).toBeLessThanOrEqual(e.relinked);
    }
  } finally {
    db.close();
  }
  return all;
}

describe('incremental re-link equals a cold index', () => {
  it('TypeScript: bodies, comments, renames, re-exports, members, types, removed and added files (only what leads to them re-linked)', async () => {
    const edits: Edit[] = [
      { what: 'a body-only edit', relinked: 1, apply: (r) => edit(r, 'src/utils/format.ts', `text.padStart(width, ' ')`, `text.padStart(width, '-').trim()`) },
      { what: 'a comment', relinked: 1, apply: (r) => edit(r, 'src/models/user.ts', /$/, '\n// a comment\n') },
      { what: 'a new local in a body', relinked: 1, apply: (r) => edit(r, 'src/models/admin.ts', 'return this.list()', 'const all = this.list();\n    return all') },
      { what: 'an exported function renamed (importers through a barrel and a namespace)', relinked: 5, apply: (r) => edit(r, 'src/utils/strings.ts', 'export function capitalize', 'export function capitalise') },
      { what: 'an export added that an unresolved import now finds', relinked: 5, apply: (r) => edit(r, 'src/utils/strings.ts', /$/, '\nexport const capitalize = capitalise;\n') },
      { what: 'a named re-export renamed', relinked: 5, apply: (r) => edit(r, 'src/models/index.ts', 'export { AdminStore }', 'export { AdminStore as Admins }') },
      { what: 'an `export *` removed', relinked: 3, apply: (r) => edit(r, 'src/utils/index.ts', `export * from './strings';\n`, '') },
      { what: 'an `export *` back', relinked: 3, apply: (r) => edit(r, 'src/utils/index.ts', /$/, `export * from './strings';\n`) },
      { what: 'a method renamed that other files call through instances', relinked: 7, apply: (r) => edit(r, 'src/models/user.ts', /\blist\(\): User\[\]/, 'all(): User[]') },
      { what: 'a method added under the old name', relinked: 7, apply: (r) => edit(r, 'src/models/user.ts', '  count(): number {', '  list(): User[] {\n    return this.all();\n  }\n\n  count(): number {') },
      { what: 'a declared result type changed (another file\'s `x.m()` moves)', relinked: 4, apply: (r) => edit(r, 'src/streams/sink.ts', 'all(): Array<Sink<number>>', 'all(): Array<Cursor>') },
      { what: 'a field type changed', relinked: 4, apply: (r) => edit(r, 'src/streams/sink.ts', 'sinks: Sink<number>[] = [];', 'sinks: Cursor[] = [];') },
      { what: 'a base class changed', relinked: 6, apply: (r) => edit(r, 'src/models/admin.ts', 'extends UserStore', 'extends Object') },
      { what: 'a file removed', apply: (r) => fs.rmSync(path.join(r, 'src/streams/target.ts')) },
      { what: 'a file added that an import resolves to again', apply: (r) => write(r, 'src/streams/target.ts', `import { Sink } from './sink';\nexport type Target = Sink<number> | undefined;\n`) },
      { what: 'a new file importing through the barrels', apply: (r) => write(r, 'src/extra.ts', `import { UserStore, Admins } from './models';\nexport const n = UserStore.create().count() + new Admins().admins().length;\n`) },
      { what: 'an import of a file edited to another name', relinked: 1, apply: (r) => edit(r, 'src/extra.ts', 'Admins }', 'Admins as A }') },
      { what: 'a body edit in a file others import through a barrel', relinked: 1, apply: (r) => edit(r, 'src/models/user.ts', 'return this.list().length;', 'return this.list().length + 0;') },
      { what: 'merged declarations added (a type and a value of one name)', apply: (r) => edit(r, 'src/utils/strings.ts', /$/, '\nexport interface Separator { text: string }\nexport const Separator = { text: SEPARATOR };\n') },
      { what: 'an importer using both meanings', relinked: 1, apply: (r) => edit(r, 'src/extra.ts', /$/, `import { Separator } from './utils/strings';\nexport const sep: Separator = Separator;\n`) },
      { what: 'a body edit beside them', relinked: 1, apply: (r) => edit(r, 'src/utils/strings.ts', 'return format + word.slice(1);', 'return format + word.slice(1).trim();') },
      { what: 'an import through a path alias tsconfig does not have yet', relinked: 1, apply: (r) => edit(r, 'src/extra.ts', /$/, `import { UserStore as Users } from '@models';\nexport const users = Users.create().count();\n`) },
      { what: 'the alias added to tsconfig.json (a file a resolver reads: the whole link)', apply: (r) => edit(r, 'tsconfig.json', '"strict": true,', '"strict": true,\n    "baseUrl": "src",\n    "paths": { "@models": ["models/index.ts"] },') },
      { what: 'a text file added', apply: (r) => write(r, 'NOTES.md', 'Notes on UserStore.\n') },
      { what: 'a text file no resolver reads, edited (no link)', relinked: 0, apply: (r) => edit(r, 'NOTES.md', /$/, 'More on Greeter.\n') },
      { what: 'the merged declarations in the other order', apply: (r) => edit(r, 'src/utils/strings.ts', 'export interface Separator { text: string }\nexport const Separator = { text: SEPARATOR };', 'export const Separator = { text: SEPARATOR };\nexport interface Separator { text: string }') },
      // added files: only what now imports them, and what their interfaces reach, is re-linked
      { what: 'a module added that ./models now leads to instead of the folder\'s index', relinked: 6, apply: (r) => write(r, 'src/models.ts', `export { UserStore } from './models/user';\nexport class Admins {\n  admins(): string[] {\n    return [];\n  }\n}\n`) },
      { what: 'an `export *` and an import of a file not there yet', relinked: 4, apply: (r) => {
        edit(r, 'src/utils/index.ts', /$/, `export * from './later';\n`);
        edit(r, 'src/extra.ts', /$/, `import { laterFn } from './utils';\nexport const later = laterFn();\n`);
      } },
      { what: 'the file added that the `export *` leads to', relinked: 5, apply: (r) => write(r, 'src/utils/later.ts', `export function laterFn(): number {\n  return 1;\n}\n`) },
      { what: 'a JSON file an import names, added', relinked: 1, apply: (r) => {
        edit(r, 'src/extra.ts', /$/, `import data from './data.json';\nexport const d = data;\n`);
      } },
      { what: 'the JSON file', relinked: 1, apply: (r) => write(r, 'src/data.json', '{ "a": 1 }\n') },
      { what: 'a script added (no import or export: its declarations are global; the whole link)', apply: (r) => write(r, 'src/globals.ts', 'function globalHelper(): number {\n  return 1;\n}\n') },
      // removed files: what led to them
      { what: 'the module removed that ./models led to (back to the folder\'s index)', relinked: 5, apply: (r) => fs.rmSync(path.join(r, 'src/models.ts')) },
      { what: 'the file an `export *` leads to, removed', relinked: 4, apply: (r) => fs.rmSync(path.join(r, 'src/utils/later.ts')) },
      { what: 'the JSON file, removed', relinked: 1, apply: (r) => fs.rmSync(path.join(r, 'src/data.json')) },
      { what: 'a module nothing imports, removed (no link)', relinked: 0, apply: (r) => fs.rmSync(path.join(r, 'src/extra.ts')) },
      { what: 'the script removed (the whole link)', apply: (r) => fs.rmSync(path.join(r, 'src/globals.ts')) },
    ];
    const stats = await replay('ts-app', edits);
    // (the whole link: files came or went)
    const at = (what: string) => stats[edits.findIndex((e) => e.what.startsWith(what))]!.link?.files;
    expect([at('the alias added'), at('a script added'), at('the script removed')]).toEqual([20, 25, 20]);
    // a file added or removed: what leads to it, not the whole project; what nothing imports, no link
    expect([at('a file removed'), at('a file added'), at('a new file'), at('a text file added'), at('a module nothing imports')]).toEqual([1, 2, 1, undefined, undefined]);
    expect(at('a text file no resolver reads')).toBeUndefined();
  }, 120_000);

  // elsewhere a changed interface re-links the whole project (answers flow through package
  // scopes and members declared apart from their type); an unchanged one, the file's own rows
  it('Go, Java, Python and Rust: bodies, comments and renamed declarations', async () => {
    await replay('go-app', [
      { what: 'go: a body edit', relinked: 1, apply: (r) => edit(r, 'geometry/circle.go', 'return 3.14 * c.Radius', 'return 3.1416 * c.Radius') },
      { what: 'go: a function renamed', apply: (r) => edit(r, 'geometry/circle.go', 'func Format(s Shape)', 'func Describe(s Shape)') },
      { what: 'go: a method added', apply: (r) => edit(r, 'geometry/shape.go', /$/, '\nfunc (s Square) Area() float64 { return s.Side * s.Side }\n') },
      { what: 'go: a comment', relinked: 1, apply: (r) => edit(r, 'geometry/shape.go', /$/, '\n// a comment\n') },
    ]);
    await replay('java-app', [
      { what: 'java: a body edit', relinked: 1, apply: (r) => edit(r, 'src/main/java/com/example/util/Strings.java', 'return "[" + value + "]";', 'return "<" + value + ">";') },
      { what: 'java: an overload removed', apply: (r) => edit(r, 'src/main/java/com/example/util/Strings.java', 'return pad(value, 8);', 'return value;') },
      { what: 'java: a method renamed', apply: (r) => edit(r, 'src/main/java/com/example/util/Strings.java', 'public static String format(', 'public static String render(') },
    ]);
    await replay('py-app', [
      { what: 'python: a body edit', relinked: 1, apply: (r) => edit(r, 'src/shop/models.py', 'return f"{self.kind}: {self.name}"', 'return f"{self.kind} - {self.name}"') },
      { what: 'python: a method renamed', apply: (r) => edit(r, 'src/shop/models.py', 'def describe(self)', 'def explain(self)') },
    ]);
    await replay('rust-app', [
      { what: 'rust: a body edit', relinked: 1, apply: (r) => edit(r, 'src/util.rs', 'items.join(", ")', 'items.join("; ")') },
      { what: 'rust: a function renamed', apply: (r) => edit(r, 'src/util.rs', 'pub(crate) fn format(', 'pub(crate) fn render(') },
    ]);
  }, 120_000);
});
