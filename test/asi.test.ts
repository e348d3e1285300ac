/**
 * Code written without semicolons (issue #14): where tree-sitter misreads a line break that ends a
 * statement (`): E` ⏎ `<M>(m: M): E` in a type body reads as `E<M> …`), the damaged regions are
 * parsed again with their statement ends written in (src/index/recover.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractFile } from '../src/index/extract.js';
import type { FileFacts } from '../src/index/facts.js';
import { updateIndex } from '../src/index/indexer.js';
import { indexProject } from '../src/project/indexing.js';
import { languageFor } from '../src/index/languages.js';
import { loadLanguage } from '../src/index/parser.js';
import { damage, MAX_REPARSES, presumeStatementEnds, recoverStatementEnds } from '../src/index/recover.js';
import { Project } from '../src/project/project.js';
import { makeProject, REPO_ROOT, removeProject } from './helpers/project.js';

const DATA = path.join(REPO_ROOT, 'test', 'data', 'no-semicolons');
const NO_SEMI = fs.readFileSync(path.join(DATA, 'declarations.ts'), 'utf8');
const WITH_SEMI = fs.readFileSync(path.join(DATA, 'declarations.semicolons.ts'), 'utf8');
const TS = languageFor('x.ts')!;
const withoutRecovery = { ...TS, asi: false };

const ISSUE = `export interface Register<E> {
  (method: string, path: string): E
  <M extends string, P extends string>(method: M, path: P): E
}

export interface After {
  size: number
}

export function after(x: After): number {
  return x.size
}
`;

/** what the index keeps of a declaration, but the signature (its line's text, `;` included) and end column */
const declarations = (f: FileFacts) => f.symbols.map((s) => ({
  kind: s.kind, name: s.name, line: s.line, column: s.column, endLine: s.endLine, nameLine: s.nameLine, nameColumn: s.nameColumn,
  container: s.container != null ? f.symbols[s.container]!.name : null, exported: s.exported, isDefault: s.isDefault, local: s.local,
}));
const references = (f: FileFacts) => f.refs.map((r) => ({
  name: r.name, line: r.line, column: r.column, endColumn: r.endColumn, role: r.role, target: r.target.kind,
  enclosing: r.enclosing != null ? f.symbols[r.enclosing]!.name : null,
}));

let root: string | undefined;
afterEach(() => {
  if (root) removeProject(root);
  root = undefined;
  vi.restoreAllMocks();
});

describe('code without semicolons', () => {
  it('the issue: an interface with a generic call signature after `): E` no longer hides the file', async () => {
    expect((await extractFile(withoutRecovery, ISSUE)).symbols).toHaveLength(0);
    const facts = await extractFile(TS, ISSUE);
    expect(facts.symbols.map((s) => `${s.kind} ${s.name} ${s.line}:${s.column}-${s.endLine}:${s.endColumn}`)).toEqual([
      'interface Register 1:8-4:2', 'interface After 6:8-8:2', 'property size 7:3-7:15', 'function after 10:8-12:2',
    ]);
    expect(facts.parseErrors).toBe(0);
    expect(facts.recovered).toBe(1);
    // the same file with the semicolon written
    const semi = ISSUE.replace('(method: string, path: string): E\n', '(method: string, path: string): E;\n');
    expect(declarations(facts)).toEqual(declarations(await extractFile(TS, semi)));
  });

  it('the fixture is its semicolon twin without the statement ends', () => {
    expect(WITH_SEMI.replace(/;$/gm, '')).toBe(NO_SEMI);
    expect(WITH_SEMI).not.toBe(NO_SEMI);
  });

  it('every declaration form indexes as in the same file written with semicolons', async () => {
    const twin = await extractFile(TS, WITH_SEMI);
    expect(twin.parseErrors).toBe(0);
    const lost = await extractFile(withoutRecovery, NO_SEMI);
    expect(lost.parseErrors).toBe(1);
    expect(lost.symbols.length).toBeLessThan(twin.symbols.length / 2); // what the issue saw: most of the file gone

    const facts = await extractFile(TS, NO_SEMI);
    expect(facts.parseErrors).toBe(0);
    expect(facts.recovered).toBeGreaterThan(0);
    expect(declarations(facts)).toEqual(declarations(twin));
    expect(references(facts)).toEqual(references(twin));
    expect(facts.imports).toEqual(twin.imports);
    expect(facts.exports).toEqual(twin.exports);
    // a spot check of forms the fixture is there for
    const names = facts.symbols.map((s) => `${s.kind} ${s.container != null ? facts.symbols[s.container]!.name + '.' : ''}${s.name}`);
    expect(names).toEqual(expect.arrayContaining([
      'interface Register', 'method Register.handle', 'interface Factory', 'method Factory.box', 'method Factory.map', 'type Handler',
      'property Handler.priority', 'type Lookup', 'enum Color', 'enum_member Color.Blue', 'class Shape', 'property Shape.area',
      'property Shape.#secret', 'method Shape.points', 'method Shape.measure', 'method Shape.convert', 'method Circle.describe',
      'function overloaded', 'function identity', 'function pick', 'function wrap', 'namespace Geometry', 'interface Geometry.Point',
      'function Geometry.distance', 'type Inner.Id', 'class Registry', 'method Registry.add',
    ]));
  });

  it('indexes the fixture as its twin, and the summary counts the file recovery repaired', async () => {
    root = makeProject({ 'src/no-semi.ts': NO_SEMI, 'src/semi.ts': WITH_SEMI, 'src/clean.ts': 'export const a = 1\n' });
    const p = new Project(root);
    try {
      const stats = await updateIndex(p.db, p.root, { workers: 0 });
      expect(stats).toMatchObject({ recovered: 1, parseErrors: 0 });
      const rows = (file: string) => p.db.prepare(
        `SELECT s.name, s.kind, s.line, s.col, s.end_line, s.name_line, s.name_col, s.container_name, s.exported
         FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY s.id`,
      ).all(file);
      expect(rows('src/no-semi.ts')).toEqual(rows('src/semi.ts'));
      expect(rows('src/no-semi.ts').length).toBeGreaterThan(70);
      const files = p.db.prepare('SELECT path, recovered, parse_errors FROM files ORDER BY path').all();
      expect(files).toEqual([
        { path: 'src/clean.ts', recovered: 0, parse_errors: 0 },
        { path: 'src/no-semi.ts', recovered: expect.any(Number), parse_errors: 0 },
        { path: 'src/semi.ts', recovered: 0, parse_errors: 0 },
      ]);
      expect((files[1] as { recovered: number }).recovered).toBeGreaterThan(0);
    } finally {
      p.close();
    }
  });

  it('`const f = <T>(x: T) => x` after a misread line is a function (with a semantic chunk), not a constant', async () => {
    const misread = ['export interface R<E> {', '  a: E', '  <M>(m: M): E', '}'];
    const arrows = ['export const f = <T>(x: T) => x', 'export const g = async <T,>(x: T) => x', 'export const h = <T>(x: T) => {', '  return x', '}', ''];
    const kinds = (f: FileFacts) => Object.fromEntries(f.symbols.filter((s) => ['f', 'g', 'h'].includes(s.name)).map((s) => [s.name, s.kind]));
    // tree-sitter's own error recovery reads `<T>(x: T)` there as a type assertion
    for (const head of [misread, ['export class K {', '  a = 1', '  [Symbol.iterator]() {}', '}']]) {
      const src = [...head, ...arrows].join('\n');
      expect(Object.values(kinds(await extractFile(withoutRecovery, src)))).toContain('constant');
      expect(kinds(await extractFile(TS, src))).toEqual({ f: 'function', g: 'function', h: 'function' });
    }
    const src = [...misread, ...arrows].join('\n');

    root = makeProject({ 'a.ts': src });
    const p = new Project(root);
    try {
      await indexProject(p.db, p.root, { workers: 0 });
      const chunks = p.db.prepare("SELECT name, kind, start_line, end_line FROM chunks WHERE name IN ('f', 'g', 'h') ORDER BY start_line").all();
      expect(chunks).toEqual([
        { name: 'f', kind: 'function', start_line: 5, end_line: 5 },
        { name: 'g', kind: 'function', start_line: 6, end_line: 6 },
        { name: 'h', kind: 'function', start_line: 7, end_line: 9 },
      ]);
    } finally {
      p.close();
    }
  });

  it('keeps positions exact: tabs, CRLF line ends, comments between the lines, text after the break', async () => {
    const lf = [
      'export interface Api {',
      '\t(path: string): Promise<void> // the plain form',
      '\t// the generic form',
      '\t<T>(path: string, body: T): Promise<T>',
      '\tnew (base: string): Api',
      '}',
      'export const après = "é" // non-ASCII before the next declaration',
      'export class Store {',
      '\tsize = 0',
      '\t[key: string]: unknown',
      '}',
      '',
    ].join('\n');
    for (const text of [lf, lf.replace(/\n/g, '\r\n')]) {
      const facts = await extractFile(TS, text);
      const semi = await extractFile(TS, text.replace('Promise<void> //', 'Promise<void>; //').replace('<T>(path: string, body: T): Promise<T>', '<T>(path: string, body: T): Promise<T>;'));
      expect(facts.parseErrors).toBe(0);
      expect(facts.recovered).toBeGreaterThan(0);
      expect(declarations(facts)).toEqual(declarations(semi));
      expect(facts.symbols.map((s) => `${s.name}@${s.nameLine}:${s.nameColumn}`)).toEqual(['Api@1:18', 'après@7:14', 'Store@8:14', 'size@9:2']);
    }
  });

  it('a clean tree is parsed once; a damaged one at most MAX_REPARSES more times, however many errors it has', async () => {
    const { parser } = await loadLanguage(TS);
    const parse = vi.spyOn(parser, 'parse');
    await extractFile(TS, WITH_SEMI);
    expect(parse).toHaveBeenCalledTimes(1);

    // many unrelated errors in many regions: nothing to gain, and the re-parses stay capped
    // (each region has line breaks to try, none of them helps)
    const broken = Array.from({ length: 200 }, (_, i) =>
      `export function f${i}(a: number) {\n  const b = a\n  return b +* 2\n}\nconst c${i} = 1\nconst d${i} = 2\n`).join('');
    parse.mockClear();
    const facts = await extractFile(TS, broken);
    expect(parse).toHaveBeenCalledTimes(1 + MAX_REPARSES);
    expect(facts.parseErrors).toBe(1);

    // recoverStatementEnds keeps a tree only when it is less damaged
    const tree = parser.parse(ISSUE)!;
    const before = damage(tree.rootNode);
    const r = recoverStatementEnds(parser, ISSUE, tree)!;
    expect(before).toBeGreaterThan(0);
    expect(damage(r.tree.rootNode)).toBe(0);
    expect(r.reparses).toBeLessThanOrEqual(MAX_REPARSES);
    // nodes read the file's own text, not the text with `;` written in
    expect(r.tree.rootNode.text).toBe(ISSUE);
    expect([...r.ends.keys()].map((i) => ISSUE[i])).toEqual([' ']);
    r.tree.delete();
    tree.delete();
  });
});

describe('statement ends presumed before the first parse (languages.json `presumeEndsBefore`)', () => {
  it('the overloads of a type without semicolons parse once, without error, as their semicolon twin', async () => {
    const { parser } = await loadLanguage(TS);
    const parse = vi.spyOn(parser, 'parse');
    // a doc comment between the overloads, as effect writes them
    const src = ISSUE.replace('  <M extends', '  /**\n   * the generic form\n   */\n  <M extends');
    const facts = await extractFile(TS, src);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(facts.parseErrors).toBe(0);
    expect(facts.recovered).toBe(1);
    const semi = src.replace('(method: string, path: string): E\n', '(method: string, path: string): E;\n');
    expect(declarations(facts)).toEqual(declarations(await extractFile(TS, semi)));
    expect(references(facts)).toEqual(references(await extractFile(TS, semi)));
  });

  it('what recovery still finds is added to the presumed ends (a computed member after a field)', async () => {
    const src = `${ISSUE}export class K {\n  a = 1\n  [Symbol.iterator]() {}\n}\n`;
    const semi = src.replace('path: string): E\n', 'path: string): E;\n').replace('a = 1\n', 'a = 1;\n');
    const facts = await extractFile(TS, src);
    expect(facts.parseErrors).toBe(0);
    expect(facts.recovered).toBe(2);
    expect(declarations(facts)).toEqual(declarations(await extractFile(TS, semi)));
  });

  it('presumes nothing where the line goes on: deeper indent, an operator or keyword, a control head, a trailing comment, comments, semicolons', () => {
    const none = [
      'const x = foo\n  (bar)',
      'const f = (a: number) =>\n(a)',
      'const t = a extends\n(b)',
      'function g() {\n  return\n  (x)\n}',
      'if (ok)\n(run)()',
      'const y = a // note\n(b)()',
      '/*\n  a\n  (b)\n*/',
      'interface I {\n  (a: A): E;\n  <M>(m: M): E;\n}',
      'const z = f(\n  a,\n  (b),\n)',
      'const el = <div>\n  <span />\n</div>',
      'if (a) {\n  b()\n}\n(c || d).run()',
    ];
    for (const text of none) expect(presumeStatementEnds(text, '<('), text).toBeUndefined();
    // where it does: the indentation of the new line (or a space after the token) becomes the `;`
    const p = presumeStatementEnds('type T = {\n  (a: A): E\n  <M>(m: M): E\n}\nf() \n(g)()\n', '<(')!;
    expect(p.text).toBe('type T = {\n  (a: A): E\n; <M>(m: M): E\n}\nf();\n(g)()\n');
    expect([...p.ends.values()]).toEqual([{ row: 1, column: 11 }, { row: 4, column: 3 }]);
  });
});

describe('syntax the grammar does not know (languages.json `blank`)', () => {
  const SRC = `export interface Base {}
export interface Cache<in out K, out V = never> extends Base {
  get(key: K): V
}
export type Getter<out A> = () => A
export function read<in T>(x: T): void {}
`;
  it("reads TypeScript's variance annotations (in/out on type parameters) without an error, and not as references", async () => {
    const facts = await extractFile(TS, SRC);
    expect(facts.parseErrors).toBe(0);
    expect(facts.refs.map((r) => r.name)).not.toContain('in');
    expect(facts.refs.map((r) => r.name)).not.toContain('out');
    expect(facts.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(['Base', 'Cache', 'get', 'Getter', 'read']));
    // the file's own text stays what is shown
    expect(facts.symbols.find((s) => s.name === 'Cache')!.signature).toContain('<in out K, out V = never>');
    // without it, the grammar errs (on effect 4.1: 49 files, 209 `out` and 69 `in` read as references)
    const raw = await extractFile({ ...TS, blank: undefined }, SRC);
    expect(raw.parseErrors).toBeGreaterThan(0);
  });

  it('reads a tagged template with type arguments as the call of its tag; a comparison stays one', async () => {
    const src = [
      'import { sql } from "./sql"',
      'export const count = (t: string) => sql<{ readonly count: number }>`SELECT COUNT(*) FROM ${t}`',
      'export const rows = sql<',
      '  { id: string }',
      '>`SELECT id FROM t`',
      'const low = 1, high = 2',
      'export const less = low < high ? `yes` : `no`',
      'export const codegen = (t: string) => `Promise<${t}>` + `at <${low}>`',
      '',
    ].join('\n');
    const facts = await extractFile(TS, src);
    expect(facts.parseErrors).toBe(0);
    expect(facts.refs.filter((r) => r.name === 'sql').map((r) => `${r.line}:${r.role}`)).toEqual(['1:import', '2:call', '3:call']);
    expect(facts.refs.filter((r) => r.name === 'low').map((r) => r.line)).toEqual([7, 8]);
    expect(facts.refs.filter((r) => r.name === 'high').map((r) => r.line)).toEqual([7]);
    expect(facts.symbols.find((s) => s.name === 'count')!.signature).toContain('sql<{ readonly count: number }>');
    expect((await extractFile({ ...TS, blank: undefined }, src)).parseErrors).toBeGreaterThan(0);
  });
});
