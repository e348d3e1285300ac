/**
 * Hand-written expectations for the cases that make or break precision, on the fixture
 * repositories (indexed from temp copies). Unlike the golden files these are not regenerated:
 * each one states what the TypeScript compiler would say, and fails if the engine regresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { getSymbols } from '../src/query/outline.js';
import { Project as ProjectClass, type Project } from '../src/project/project.js';
import { findReferences, type ReferenceOut } from '../src/query/references.js';
import { locate, openFixture } from './golden/golden.js';
import { makeProject, removeProject } from './helpers/project.js';

let ts: Project;
let js: Project;
const disposers: (() => void)[] = [];

beforeAll(async () => {
  for (const name of ['ts-app', 'js-app']) {
    const f = await openFixture(name);
    disposers.push(f.dispose);
    if (name === 'ts-app') ts = f.project;
    else js = f.project;
  }
});
afterAll(() => disposers.forEach((d) => d()));

/** `file:line:col` of the first occurrence of `at` in a fixture file, moved right by `offset`. */
function site(p: Project, file: string, at: string, offset = 0): string {
  const s = locate(p, { file, at, offset });
  return `${s.file}:${s.line}:${s.column}`;
}

/** References of the definition whose name is at `at` (the first occurrence) in `file`. */
function refsOf(p: Project, file: string, at: string, offset = 0): ReferenceOut[] {
  return findReferences(p, { ...locate(p, { file, at, offset }), limit: 500 }).items;
}

const where = (refs: ReferenceOut[]) => refs.map((r) => `${r.file}:${r.line}:${r.column}`);
const confidenceAt = (refs: ReferenceOut[], at: string) => refs.find((r) => `${r.file}:${r.line}:${r.column}` === at)?.confidence;

/** What `find_definitions({from})` says about the usage at `at`: `file:line:col confidence` each. */
function defsFrom(p: Project, file: string, at: string, offset = 0): string[] {
  return findDefinitions(p, { from: locate(p, { file, at, offset }) }).items.map((d) => `${d.file}:${d.line}:${d.column} ${d.confidence}`);
}

/** A small project of these files, indexed before the describe's tests and removed after them. */
function projectOf(files: Record<string, string>): () => Project {
  let dir = '';
  let p: Project | undefined;
  beforeAll(async () => {
    dir = makeProject(files);
    p = new ProjectClass(dir);
    await p.refresh();
  });
  afterAll(() => {
    p?.close();
    removeProject(dir);
  });
  return () => p!;
}

describe('ts-app: homonyms in different modules', () => {
  it('the number format and the template format keep their own callers', () => {
    const numberFormat = refsOf(ts, 'src/utils/format.ts', 'format(value');
    const templateFormat = refsOf(ts, 'src/utils/strings.ts', 'format(template');
    const numberCallers = [
      site(ts, 'src/main.ts', 'format(3.14159)'),
      site(ts, 'src/services/greeter.ts', 'formatNumber(points)'),
      site(ts, 'src/services/report.ts', 'utils.format', 6),
    ];
    const templateCallers = [site(ts, 'src/services/greeter.ts', "format('{0}"), site(ts, 'src/services/report.ts', 'strings.format', 8)];
    expect(where(numberFormat)).toEqual(expect.arrayContaining(numberCallers));
    expect(where(templateFormat)).toEqual(expect.arrayContaining(templateCallers));
    for (const s of templateCallers) expect(where(numberFormat)).not.toContain(s);
    for (const s of numberCallers) expect(where(templateFormat)).not.toContain(s);
    for (const r of [...numberFormat, ...templateFormat]) expect(r.confidence).toBe('imported');
  });

  it('find_definitions by name lists both; from a usage site it picks the one', () => {
    expect(findDefinitions(ts, { name: 'format' }).items.map((d) => d.file).sort()).toEqual(['src/utils/format.ts', 'src/utils/strings.ts']);
    expect(defsFrom(ts, 'src/services/greeter.ts', "format('{0}")).toEqual(['src/utils/strings.ts:4:17 imported']);
    expect(defsFrom(ts, 'src/services/greeter.ts', 'formatNumber(points)')).toEqual(['src/utils/format.ts:5:17 imported']);
  });

  it("a barrel's explicit `export { format } from` hides the `format` that `export *` would bring", () => {
    // main.ts imports from the directory './utils' (utils/index.ts)
    expect(defsFrom(ts, 'src/main.ts', 'format(3.14159)')).toEqual(['src/utils/format.ts:5:17 imported']);
  });
});

describe('ts-app: imports and exports', () => {
  it('renamed imports resolve to the original name', () => {
    expect(defsFrom(ts, 'src/main.ts', 'summary(store)')).toEqual(['src/services/report.ts:6:17 imported']);
    expect(where(refsOf(ts, 'src/services/report.ts', 'summarize('))).toEqual(['src/main.ts:2:23', site(ts, 'src/main.ts', 'summary(store)')]);
  });

  it('default imports reach the default export, named or re-bound with `export default X`', () => {
    expect(defsFrom(ts, 'src/main.ts', 'makeGreeter()')).toEqual(['src/services/factory.ts:3:25 imported']);
    expect(defsFrom(ts, 'src/components/App.tsx', '<PrimaryButton', 1)).toEqual(['src/components/Button.tsx:9:17 imported']);
    expect(where(refsOf(ts, 'src/services/greeter.ts', 'Greeter {'))).toContain(site(ts, 'src/services/factory.ts', 'Greeter(greeting)'));
  });

  it('ns.fn() through a namespace import resolves with confidence imported', () => {
    const refs = refsOf(ts, 'src/utils/strings.ts', 'SEPARATOR');
    expect(refs).toHaveLength(2);
    for (const r of refs) expect(r).toMatchObject({ file: 'src/services/report.ts', confidence: 'imported' });
    expect(defsFrom(ts, 'src/services/report.ts', 'utils.format', 6)).toEqual(['src/utils/format.ts:5:17 imported']);
    expect(defsFrom(ts, 'src/components/App.tsx', 'Icons.Star', 6)).toEqual(['src/components/icons.tsx:1:17 imported']);
  });

  it('`export * as strings from` makes strings.fn() a fact', () => {
    expect(defsFrom(ts, 'src/services/report.ts', 'strings.capitalize', 8)).toEqual(['src/utils/strings.ts:8:17 imported']);
  });

  it('re-exports (`export { X } from`, `export *`) are followed to the declaration', () => {
    // report.ts imports Role and UserStore from '../models' (index.ts: `export * from './user'`)
    expect(defsFrom(ts, 'src/services/report.ts', 'UserStore.create', 0)).toEqual(['src/models/user.ts:14:14 imported']);
    expect(where(refsOf(ts, 'src/models/admin.ts', 'AdminStore'))).toEqual(['src/models/index.ts:2:10']);
  });
});

describe('ts-app: scopes and shadowing', () => {
  const numberFormatRefs = () => where(refsOf(ts, 'src/utils/format.ts', 'format(value'));

  it('a parameter named like an import is not a reference to it', () => {
    expect(numberFormatRefs()).not.toContain(site(ts, 'src/main.ts', 'format.replace'));
    expect(numberFormatRefs()).not.toContain(site(ts, 'src/main.ts', 'format: string'));
    expect(() => findDefinitions(ts, { from: locate(ts, { file: 'src/main.ts', at: 'format.replace' }) })).toThrow(/no indexed reference or definition/);
  });

  it('a catch parameter and a block-scoped const hide the imports', () => {
    expect(numberFormatRefs()).not.toContain(site(ts, 'src/main.ts', 'format);'));
    const padRefs = where(refsOf(ts, 'src/utils/format.ts', 'pad('));
    expect(padRefs).toContain(site(ts, 'src/main.ts', 'pad(String'));
    expect(padRefs).not.toContain(site(ts, 'src/main.ts', 'pad);'));
  });

  it('a local `format` in the same module as the function is not a reference to it', () => {
    const refs = where(refsOf(ts, 'src/utils/strings.ts', 'format(template'));
    expect(refs.filter((r) => r.startsWith('src/utils/strings.ts'))).toEqual([]);
  });

  it('a local arrow function named format is what `map(format)` refers to', () => {
    expect(defsFrom(ts, 'src/services/report.ts', 'map(format)', 4)).toEqual(['src/services/report.ts:7:9 resolved']);
    expect(numberFormatRefs()).not.toContain(site(ts, 'src/services/report.ts', 'map(format)', 4));
  });
});

describe('ts-app: comments and strings', () => {
  it('names in comments, strings and template text are not references', () => {
    const padRefs = where(refsOf(ts, 'src/utils/format.ts', 'pad('));
    expect(padRefs.filter((r) => r.startsWith('src/utils/format.ts'))).toEqual([]); // "pad() is mentioned in a comment"
    const templateRefs = where(refsOf(ts, 'src/utils/strings.ts', 'format(template'));
    expect(templateRefs).not.toContain(site(ts, 'src/services/greeter.ts', 'format(...)')); // doc comment
    const numberRefs = where(refsOf(ts, 'src/utils/format.ts', 'format(value'));
    expect(numberRefs).not.toContain(site(ts, 'src/main.ts', "'format'", 1)); // string literal
    expect(numberRefs).not.toContain(site(ts, 'src/services/greeter.ts', 'see format', 4)); // template text
  });

  it('a call inside a template substitution is a reference', () => {
    expect(where(refsOf(ts, 'src/utils/format.ts', 'format(value'))).toContain(site(ts, 'src/services/greeter.ts', 'formatNumber(points)'));
  });
});

describe('ts-app: classes', () => {
  it('this.method() and this.field resolve to the enclosing class', () => {
    const list = refsOf(ts, 'src/models/user.ts', 'list(): User[]');
    expect(confidenceAt(list, site(ts, 'src/models/user.ts', 'list().length'))).toBe('resolved');
    expect(defsFrom(ts, 'src/services/greeter.ts', 'this.greeting', 5)).toEqual(['src/services/greeter.ts:9:32 resolved']);
  });

  it('this.method() inherited from an imported base class resolves to the base', () => {
    expect(defsFrom(ts, 'src/models/admin.ts', 'this.list()', 5)).toEqual(['src/models/user.ts:35:3 imported']);
  });

  it('static members through the class name: Cls.create(), Default.STATIC', () => {
    expect(defsFrom(ts, 'src/services/report.ts', 'UserStore.create', 10)).toEqual(['src/models/user.ts:17:10 imported']);
    expect(defsFrom(ts, 'src/services/report.ts', 'Greeter.DEFAULT', 8)).toEqual(['src/services/greeter.ts:7:19 imported']);
  });

  it('overloads are one symbol: every signature finds the same references', () => {
    const sigs = findDefinitions(ts, { name: 'UserStore.find' }).items;
    expect(sigs.map((d) => d.line)).toEqual([28, 29, 30]);
    const sets = sigs.map((d) => where(findReferences(ts, { file: d.file, line: d.line, column: d.column }).items));
    expect(sets[1]).toEqual(sets[0]);
    expect(sets[2]).toEqual(sets[0]);
  });
});

describe('ts-app: types', () => {
  it('interfaces, type aliases and enums are referenced from type positions', () => {
    const user = refsOf(ts, 'src/models/user.ts', 'User {');
    expect(user.find((r) => `${r.file}:${r.line}:${r.column}` === site(ts, 'src/services/report.ts', 'User)', 0))).toMatchObject({
      kind: 'type', confidence: 'imported',
    });
    expect(where(refsOf(ts, 'src/models/user.ts', 'UserId ='))).toContain(site(ts, 'src/services/report.ts', 'UserId):', 0));
    const admin = refsOf(ts, 'src/models/user.ts', 'Admin =');
    expect(admin.map((r) => r.confidence)).toEqual(['imported', 'imported', 'imported']);
  });
});

describe('ts-app: JSX', () => {
  it('<Button /> references the imported component; lowercase tags reference nothing', () => {
    const button = refsOf(ts, 'src/components/Button.tsx', 'Button({');
    expect(button.find((r) => `${r.file}:${r.line}:${r.column}` === site(ts, 'src/components/App.tsx', '<Button', 1))).toMatchObject({
      kind: 'jsx', confidence: 'imported',
    });
    expect(() => findDefinitions(ts, { from: locate(ts, { file: 'src/components/App.tsx', at: '<div', offset: 1 }) })).toThrow();
  });

  it('<section> is not a reference to a constant named section; {section} is', () => {
    const refs = where(refsOf(ts, 'src/components/Button.tsx', 'section ='));
    expect(refs).toEqual([site(ts, 'src/components/Button.tsx', '{section}', 1)]);
  });
});

describe('ts-app: members of values of unknown type', () => {
  it('obj.unknownMethod() is name_match, never a fact', () => {
    const r = findDefinitions(ts, { from: locate(ts, { file: 'src/main.ts', at: 'unknownMethod' }) });
    expect(r.items).toEqual([]);
    expect(r.resolution).toMatch(/unknown without a type checker/);
  });

  it('a member of an import that does not resolve (config.width) is a guess, never a fact', () => {
    // the default export of config.ts is an object literal: its members are not indexed
    const width = findReferences(ts, locate(ts, { file: 'src/components/Button.tsx', at: 'width?' }));
    expect(width.items.map((r) => `${r.file}:${r.line}:${r.column} ${r.confidence}`)).toEqual([`${site(ts, 'src/main.ts', 'config.width', 7)} name_match`]);
    expect(width.counts).toEqual({ resolved: 0, imported: 0, name_match: 1 });
  });

  it('store.find(id) on a parameter typed UserStore resolves through the annotation; an untyped receiver stays a guess', () => {
    const defs = findDefinitions(ts, { from: locate(ts, { file: 'src/services/report.ts', at: 'store.find', offset: 6 }) }).items;
    expect(defs.map((d) => `${d.file}:${d.line} ${d.container}.${d.name} ${d.confidence}`)).toEqual(['src/models/user.ts:28 UserStore.find imported']);
    const refs = refsOf(ts, 'src/models/user.ts', 'find(id');
    expect(confidenceAt(refs, site(ts, 'src/services/report.ts', 'store.find', 6))).toBe('imported');
    // `this.list().find(...)` is Array's find: the receiver is a call result, so only a guess
    expect(confidenceAt(refs, site(ts, 'src/models/user.ts', 'list().find', 7))).toBe('name_match');
  });
});

describe('ts-app: types evident from declarations (streams/)', () => {
  const P = 'src/streams/pipeline.ts';
  const at = (text: string, offset: number) => site(ts, P, text, offset);
  const factsOf = (file: string, def: string) => refsOf(ts, file, def).filter((r) => r.confidence !== 'name_match');

  it('untyped callback parameters take the types the callee declares (operate, a constructor)', () => {
    const next = where(factsOf('src/streams/sink.ts', 'next(value'));
    expect(next).toContain(at('sink.next(2)', 5));
    const complete = where(factsOf('src/streams/sink.ts', 'complete(): void'));
    expect(complete).toEqual(expect.arrayContaining([at('sink.complete()', 5), at('self.complete()', 5)]));
    expect(where(factsOf('src/streams/stream.ts', 'subscribe(sink'))).toContain(at('source.subscribe', 7));
  });

  it('a call gives its declared result; a getter gives what it returns; `as T` and `T | null` are T', () => {
    const pipe = where(factsOf('src/streams/stream.ts', 'pipe()'));
    expect(pipe).toEqual(expect.arrayContaining([at('from(value).pipe', 12), at('s.pipe', 2)]));
    expect(where(factsOf('src/streams/stream.ts', 'subscribe(sink'))).toEqual(expect.arrayContaining([at('pipe().subscribe', 7), at('number>).subscribe', 9)]));
    expect(where(factsOf('src/streams/sink.ts', 'self()'))).toEqual([at('sink.self', 5)]);
  });

  it('destructuring reads the member; a parameter property is the property in the constructor body', () => {
    expect(where(factsOf('src/streams/stream.ts', 'pipe()'))).toContain(at('{ pipe }', 2));
    expect(where(factsOf('src/streams/sink.ts', 'label: string'))).toEqual([
      site(ts, 'src/streams/sink.ts', 'debug(label)', 6), site(ts, 'src/streams/sink.ts', 'this.label', 5),
    ]);
  });

  it('object literal keys write the members of the type they are written for; an untyped literal has its own', () => {
    expect(where(factsOf('src/streams/pipeline.ts', 'next(value: number)'))).toEqual([at('{ next:', 2)]);
    expect(where(factsOf('src/streams/pipeline.ts', 'complete(): void'))).toEqual([at('complete };', 0), at('{ complete()', 2)]);
    // `{ complete }` also reads the parameter `complete` (a local: not indexed), so from there the member is the answer
    expect(defsFrom(ts, P, 'complete };')).toEqual([`${site(ts, P, 'complete(): void')} resolved`]);
    // the literal is stored with its method (it holds one): its `next` implements Observer.next, as a class's would
    expect(refsOf(ts, 'src/streams/pipeline.ts', 'next(value: number)').map((r) => r.kind)).toEqual(['override']);
  });

  it('`function (this: T)` types `this`; {@link X} and {@link X.member} in doc comments are references (kind doc)', () => {
    expect(where(factsOf('src/streams/sink.ts', 'complete(): void'))).toContain(at('this.complete', 5));
    const docs = refsOf(ts, 'src/streams/sink.ts', 'complete(): void').filter((r) => r.kind === 'doc');
    expect(where(docs)).toEqual([at('Sink.complete}', 5)]);
    expect(where(refsOf(ts, 'src/streams/stream.ts', 'Stream<T> {').filter((r) => r.kind === 'doc'))).toEqual([at('Stream} and', 0)]);
    // a name merely mentioned in a doc comment (no tag) is not a reference
    expect(where(refsOf(ts, 'src/streams/sink.ts', 'Sink<T> {'))).not.toContain(site(ts, 'src/streams/sink.ts', 'Sink, unrelated'));
  });

  it('elements of T[], Map values, for-of, a function-typed parameter\'s result, a union narrowed from a function', () => {
    const complete = where(factsOf('src/streams/sink.ts', 'complete(): void'));
    expect(complete).toEqual(expect.arrayContaining([at('pop()!.complete', 7), at('make()!.complete', 8), at('end.complete', 4)]));
    expect(where(factsOf('src/streams/sink.ts', 'next(value'))).toEqual(expect.arrayContaining([at("get('a')?.next", 10), at('each.next', 5), at('first?.next', 7)]));
    expect(complete).toContain(at('one.complete', 4));
  });

  it('a member of a union (an alias from another file, or written inline) is a use of each member type\'s', () => {
    for (const def of ['next(value', 'next(): number']) expect(where(factsOf('src/streams/sink.ts', def))).toContain(at('target?.next', 8));
    for (const def of ['complete(): void', 'complete(): boolean']) expect(where(factsOf('src/streams/sink.ts', def))).toContain(at('inline.complete', 7));
    expect(defsFrom(ts, P, 'target?.next', 8).sort()).toEqual(['src/streams/sink.ts:20:3 imported', 'src/streams/sink.ts:6:3 imported']);
    expect(findDefinitions(ts, { from: locate(ts, { file: P, at: 'target?.next', offset: 8 }) }).resolution).toMatch(/union/);
  });

  it('elements of collections declared in another file: a field `T[]`, a method returning `Array<T>`', () => {
    expect(where(factsOf('src/streams/sink.ts', 'complete(): void'))).toContain(at('(s) => s.complete', 9));
    expect(where(factsOf('src/streams/sink.ts', 'next(value'))).toEqual(expect.arrayContaining([at('s.next(5)', 2), at('[0]?.next(6)', 5)]));
  });

  it('a static and an instance member of one name keep their own uses (`Clock.now` / `this.now` through a base in another file)', () => {
    expect(where(factsOf('src/streams/sink.ts', 'now: () => number = () => 0'))).toEqual([site(ts, 'src/streams/sink.ts', 'Clock.now;', 6), at('Clock.now()', 6)]);
    expect(where(factsOf('src/streams/sink.ts', 'now: () => number = Clock'))).toEqual([at('this.now()', 5)]);
  });

  it('same-named members of an unrelated class get none of those uses', () => {
    // (only the union-typed receivers in advance() are uses of both)
    const cursorNext = refsOf(ts, 'src/streams/sink.ts', 'next(): number');
    expect(where(cursorNext.filter((r) => r.confidence !== 'name_match'))).toEqual([at('cursor.next', 7), at('target?.next', 8)]);
    expect(where(factsOf('src/streams/sink.ts', 'complete(): boolean'))).toEqual([at('inline.complete', 7)]);
    // Array's callback parameter is typed outside the project: `n.toFixed()` is nobody's fact
    expect(findDefinitions(ts, { from: locate(ts, { file: P, at: 'n.toFixed', offset: 2 }) }).items.filter((d) => d.confidence !== 'name_match')).toEqual([]);
  });
});

describe('js-app', () => {
  it('JSDoc types (`@param {T}`, `@returns {?T}`, `@type {T | null}`) type members in JavaScript; no type anywhere stays a guess', () => {
    const G = 'src/gallery.js';
    expect(defsFrom(js, G, 'shape.describe', 6)).toEqual(['src/shapes.js:16:3 imported']);
    expect(defsFrom(js, G, '?.area', 2)).toEqual(['src/shapes.js:31:3 imported']);
    expect(defsFrom(js, G, 'unit?.describe', 6)).toEqual(['src/shapes.js:35:3 imported']);
    expect(findDefinitions(js, { from: locate(js, { file: G, at: 'item.describe', offset: 5 }) }).items.every((d) => d.confidence === 'name_match')).toBe(true);
  });

  it('`export { default as multiply } from` and a default import reach the default function', () => {
    expect(defsFrom(js, 'src/app.js', 'lib.multiply', 4)).toEqual(['src/lib/math.js:7:25 imported']);
    expect(defsFrom(js, 'src/app.js', 'times(3')).toEqual(['src/lib/math.js:7:25 imported']);
  });

  it('a renamed re-export imported under another name reaches the original', () => {
    expect(defsFrom(js, 'src/app.js', 'fmt(total)')).toEqual(['src/lib/format.js:2:17 imported']);
  });

  it('require() + module.exports: legacy.format is the CommonJS format, not the ESM one', () => {
    expect(defsFrom(js, 'src/cli.cjs', 'legacy.format', 7)).toEqual(['src/lib/legacy.cjs:3:10 imported']);
    expect(where(refsOf(js, 'src/lib/format.js', 'format(value, unit'))).not.toContain(site(js, 'src/cli.cjs', 'legacy.format', 7));
    // destructured require of a renamed export (`pad: padLeft`)
    expect(defsFrom(js, 'src/cli.cjs', "padLeft('!'")).toEqual(['src/lib/legacy.cjs:7:10 imported']);
    // the require binding is an import, not a symbol of cli.cjs
    expect(getSymbols(js, { file: 'src/cli.cjs' }).items.map((s) => s.name)).toEqual(['main']);
  });

  it('the local arrow `format` in cli.cjs is neither of the module formats', () => {
    expect(defsFrom(js, 'src/cli.cjs', 'format(legacy')).toEqual(['src/cli.cjs:5:9 resolved']);
  });

  it('parameters, loop variables, comments and strings named add are not references to add', () => {
    expect(where(refsOf(js, 'src/lib/math.js', 'add('))).toEqual(['src/app.js:3:29', site(js, 'src/app.js', 'add(sum')]);
  });

  it('private fields and super.method() resolve inside the class chain', () => {
    expect(where(refsOf(js, 'src/shapes.js', '#id;'))).toEqual([site(js, 'src/shapes.js', 'this.#id', 5), site(js, 'src/shapes.js', '#id}')]);
    expect(defsFrom(js, 'src/shapes.js', 'super.describe', 6)).toEqual(['src/shapes.js:16:3 resolved']);
  });

  it('<Title /> in a .jsx file is a reference; <h1> is not a reference to a constant h1', () => {
    expect(defsFrom(js, 'src/components/Card.jsx', '<Title', 1)).toEqual(['src/components/Title.jsx:1:17 imported']);
    expect(where(refsOf(js, 'src/components/Card.jsx', 'h1 ='))).toEqual([site(js, 'src/components/Card.jsx', '{h1}', 1)]);
  });

  it('shape.describe() on an untyped parameter is a guess between both describe methods', () => {
    expect(defsFrom(js, 'src/app.js', 'shape.describe', 6)).toEqual(['src/shapes.js:16:3 name_match', 'src/shapes.js:35:3 name_match']);
  });
});

describe('members declared apart in CommonJS-era JavaScript', () => {
  let dir = '';
  let p: Project;
  beforeAll(async () => {
    dir = makeProject({
      'lib/fixer.js': [
        'function SourceCodeFixer() {}',
        'SourceCodeFixer.applyFixes = function (text, messages) {',
        '  return messages.map((m) => text + m);',
        '};',
        'function Foo() {}',
        'Foo.prototype.bar = function () { return 1; };',
        // chained: both names are members, and a call through `this` finds the right one (agent trial tr112)
        'SourceCodeFixer.set =',
        'SourceCodeFixer.header = function header(field) { return field; };',
        'SourceCodeFixer.send = function send() { return this.set("a"); };',
        'module.exports.helper = function () {};',
        'function init() { Foo.later = () => 2; }',
        'module.exports = SourceCodeFixer;',
        '',
      ].join('\n'),
      'lib/use.js': 'const SourceCodeFixer = require("./fixer");\nSourceCodeFixer.applyFixes("x", []);\n',
      // a factory that fills an object it declares (yargs' validation: agent trial tr126 found only the interface's signature)
      'lib/validation.ts': [
        'export interface ValidationInstance { requiredArguments(argv: string[]): void; other(): number }',
        'export function validation() {',
        '  const self = {} as ValidationInstance;',
        '  self.requiredArguments = function requiredArguments(argv) {',
        '    check(argv);',
        '  };',
        '  self.other = () => 1;',
        '  function init() { Outside.later = () => 2; }',
        '  return self;',
        '}',
        'function check(x: string[]) { return x; }',
        'export function Outside() {}',
        'export function use(v: ValidationInstance) { v.requiredArguments([]); }',
        '',
      ].join('\n'),
      // … or the function it declares (ky's createInstance: agent trial tr158 found no `extend`)
      'lib/instance.ts': [
        'export interface Instance { (url: string): number; extend(d: object): Instance }',
        'export const createInstance = (defaults: object): Instance => {',
        '  const ky: Partial<Instance> = (url: string) => url.length;',
        '  ky.extend = (d: object) => createInstance({ ...defaults, ...d });',
        '  ky.limit = 3;',
        '  return ky as Instance;',
        '};',
        '',
      ].join('\n'),
    });
    p = new ProjectClass(dir);
    await p.refresh();
  });
  afterAll(() => {
    p.close();
    removeProject(dir);
  });

  it('X.y = function and X.prototype.y = function at the top of a module are members of X', () => {
    type Item = { name: string; kind: string; children?: Item[] };
    const flat = (items: Item[], holder = ''): string[] => items.flatMap((s) => [`${s.kind} ${holder}${s.name}`, ...flat(s.children ?? [], `${s.name}.`)]);
    const outline = flat(getSymbols(p, { file: 'lib/fixer.js' }).items as Item[]);
    expect(outline).toEqual(expect.arrayContaining(['method SourceCodeFixer.applyFixes', 'method Foo.bar', 'method SourceCodeFixer.set', 'method SourceCodeFixer.header']));
    const set = findDefinitions(p, { from: { file: 'lib/fixer.js', line: 9, column: 54 } }).items as { name: string; line: number }[];
    expect(set.map((d) => [d.name, d.line])).toEqual([['set', 7]]);
    // module.exports.x is a function of the module, exported, not a member of `module`; an assignment inside a body is not a declaration
    expect(outline).toContain('function helper');
    expect(outline.some((s) => /module\.|later/.test(s))).toBe(false);
  });

  it('a method a body assigns to the object it declares is that object\'s, implementing the type it is cast to; another receiver declares nothing', () => {
    type Item = { name: string; kind: string; children?: Item[] };
    const flat = (items: Item[], holder = ''): string[] => items.flatMap((s) => [`${s.kind} ${holder}${s.name}`, ...flat(s.children ?? [], `${s.name}.`)]);
    const defs = findDefinitions(p, { name: 'requiredArguments' }).items as { container: string; line: number }[];
    expect(defs.map((d) => `${d.container}:${d.line}`).sort()).toEqual(['ValidationInstance:1', 'self:4']);
    expect(flat(getSymbols(p, { file: 'lib/validation.ts' }).items as Item[]).some((s) => /later/.test(s))).toBe(false);
    // the implementation is found from the interface's member, as a class's would be
    const refs = findReferences(p, { file: 'lib/validation.ts', line: 1, column: 40 }).items as { line: number; kind: string }[];
    expect(refs.map((r) => `${r.kind}:${r.line}`)).toEqual(expect.arrayContaining(['override:4']));
    // a function declared in the body holds the functions assigned to it there, not its other properties
    expect(findDefinitions(p, { name: 'ky.extend' }).items.map((d) => `${d.file}:${d.line}`)).toEqual(['lib/instance.ts:4']);
    expect(flat(getSymbols(p, { file: 'lib/instance.ts' }).items as Item[]).some((x) => /limit/.test(x))).toBe(false);
  });

  it('a member of what a module exports as a whole is a guess among same-named members, said so', () => {
    const r = findDefinitions(p, { from: { file: 'lib/use.js', line: 2, column: 17 } });
    expect(r.items.map((d) => `${d.file}:${d.line} ${d.confidence}`)).toEqual(['lib/fixer.js:2 name_match']);
    expect(r.resolution).toContain('not an export of that module');
  });
});

describe('an overloaded function is one symbol', () => {
  let dir = '';
  let p: Project;
  beforeAll(async () => {
    dir = makeProject({
      'src/a.ts': [
        'export function parse(x: string): number;',
        'export function parse(x: number): string;',
        'export function parse(x: string | number): number | string {',
        "  return typeof x === 'string' ? 1 : 'a';",
        '}',
        '',
      ].join('\n'),
      'src/b.ts': "import { parse } from './a';\nparse('x');\nparse(2);\n",
    });
    p = new ProjectClass(dir);
    await p.refresh();
  });
  afterAll(() => {
    p.close();
    removeProject(dir);
  });

  it('find_references from any signature lists every declaration and every use', () => {
    for (const line of [1, 2, 3]) {
      const r = findReferences(p, { file: 'src/a.ts', line, column: 17 });
      expect(r.definitions.map((d) => d.line)).toEqual([1, 2, 3]);
      expect(where(r.items)).toEqual(['src/b.ts:1:10', 'src/b.ts:2:1', 'src/b.ts:3:1']);
    }
  });
});

describe('a variable narrowed by instanceof', () => {
  const p = projectOf({
    'src/values.ts': 'export class Computed { suspend_() {} }\nexport class Atom { report() {} suspend_() {} }\n',
    'src/batch.ts': [
      "import { Atom, Computed } from './values';",
      'export function drain(list: unknown[], other: unknown) {',
      '  for (const o of list) {',
      '    if (o instanceof Computed) {',
      '      o.suspend_();',
      '      other.suspend_();',
      '    }',
      '    o instanceof Atom && o.report();',
      '  }',
      '  const o = list[0];',
      '  o.suspend_();',
      '}',
      '',
    ].join('\n'),
  });

  const at = (line: number, column: number) => findDefinitions(p(), { from: { file: 'src/batch.ts', line, column } }).items.map((d) => `${d.file}:${d.line} ${d.confidence}`);

  it('holds the class it was tested against where the test holds, as the compiler narrows it (agent trial tr51)', () => {
    expect(at(5, 9)).toEqual(['src/values.ts:1 imported']);
    expect(at(8, 28)).toEqual(['src/values.ts:2 imported']);
  });
  it('not another variable, nor the same name declared again outside the test', () => {
    expect(at(6, 13).join()).not.toContain('imported');
    expect(at(11, 5).join()).not.toContain('imported');
  });
});

describe('this in a method of an object literal', () => {
  const p = projectOf({
    'src/driver.ts': [
      'export const driver = (opts: { ttl: number }) => {',
      '  return {',
      '    async setItem(key: string) { return this.setItemRaw(key); },',
      '    async setItemRaw(key: string) { return key + opts.ttl; },',
      '    bound: () => this,',
      '  };',
      '};',
      'export const api = {',
      '  a() { return this.b(); },',
      '  b() { return 1; },',
      '  c: function () { return this.a(); },',
      '  d: () => this.b(),',
      '  get e() { return this.b(); },',
      '  set f(v: number) { this.a(); },',
      '};',
      '',
    ].join('\n'),
  });

  const at = (line: number, column: number) => findDefinitions(p(), { from: { file: 'src/driver.ts', line, column } }).items.map((d) => `${d.line} ${d.confidence}`);

  it('is the object, named by its holder: a variable, or the function that returns it (agent trial tr52)', () => {
    expect(at(3, 46)).toEqual(['4 resolved']);
    expect(at(9, 21)).toEqual(['10 resolved']);
    expect(at(11, 32)).toEqual(['9 resolved']);
  });
  it('in a getter or a setter too (agent trial tr150: koa\'s `set type(…) { this.remove(…) }`)', () => {
    expect(at(13, 25)).toEqual(['10 resolved']);
    expect(at(14, 27)).toEqual(['9 resolved']);
  });
  it('not in an arrow function, whose this is the one around the object', () => {
    expect(at(12, 17).join()).not.toContain('resolved');
  });
});

describe('export default of an expression encloses its code (agent trial tr59: an ESLint rule)', () => {
  const p = projectOf({
    'src/helper.ts': 'export function check(n: number): boolean {\n  return n > 0;\n}\n',
    'src/rule.ts': [
      "import { check } from './helper';",
      'declare function createRule<T>(x: T): T;',
      'export default createRule({',
      '  create(context: { n: number }) {',
      '    return {',
      '      CallExpression() {',
      '        check(context.n);',
      '      },',
      '    };',
      '  },',
      '});',
      'check(1);',
      '',
    ].join('\n'),
  });

  it('a call inside the rule is its visitor\'s, which create returns (create a member of the default); one after it is top-level', () => {
    const rows = findReferences(p(), { name: 'check' }).items.filter((r) => r.file === 'src/rule.ts' && r.kind === 'call');
    expect(rows.map((r) => `${r.line} ${r.container ?? '-'}`)).toEqual(['7 create.CallExpression', '12 -']);
  });
});

describe('the methods of an object passed to a call are members of the declaration the call is the value of (agent trial tr59)', () => {
  const p = projectOf({
    'src/rules.ts': [
      'declare function createRule<T>(x: T): T;',
      'declare function defineComponent<T>(x: T): T;',
      'declare function run(name: string, x: object): void;',
      'export const noThing = createRule({',
      "  name: 'no-thing',",
      '  create(context: { n: number }) {',
      '    return context.n;',
      '  },',
      '  check: (n: number) => n > 0,',
      '});',
      'export default defineComponent({',
      '  setup() {',
      '    return {};',
      '  },',
      '  methods: {',
      '    submit() {',
      '      return 1;',
      '    },',
      '  },',
      '});',
      "run('cases', { valid() { return []; } });",
      'const later = noThing.create({ n: 1 });',
      '',
    ].join('\n'),
    'src/extend.js': [
      'function AxiosError(message) {',
      '  this.message = message;',
      '}',
      'utils.inherits(AxiosError, Error, {',
      '  toJSON: function toJSON() { return { message: this.message }; },',
      '});',
      '',
      'function Cart() { this.items = []; }',
      'Object.assign(Cart.prototype, {',
      '  add(item) { this.items.push(item); return this; },',
      '  total() { return this.items.length; },',
      '});',
      'const defaults = { size: 1 };',
      'Object.assign({}, defaults, { extra() { return 1; } }); const merged = 1;',
      '',
    ].join('\n'),
    'src/limit.js': [
      'export function pLimit(n) {',
      '  const queue = [];',
      '  const generator = (fn) => fn();',
      '  Object.defineProperties(generator, {',
      '    pendingCount: {',
      '      get: () => queue.length,',
      '    },',
      '    clearQueue: {',
      '      value() {',
      '        queue.length = 0;',
      '      },',
      '    },',
      '    map: {',
      '      async value(items, fn) { return items.map(fn); },',
      '    },',
      '  });',
      '  Object.defineProperty(generator.prototype, "size", { get: function () { return n; } });',
      '  return generator;',
      '}',
      '',
    ].join('\n'),
  });

  const q = projectOf({
    'src/comp.js': ['export default {', "  name: 'Comp',", '  data() {', '    return { n: 1 };', '  },', '  methods: {', '    submit() {', '      this.n++;', '    },', '  },', '};', ''].join('\n'),
    'lib/rule.js': ['module.exports = {', "  meta: { type: 'problem' },", '  create(context) {', '    function check(node) {', '      context.report(node);', '    }', '    return {', '      CallExpression: check,', '      Identifier(node) { check(node); },', "      'Program:exit'() {},", '    };', '  },', '};', ''].join('\n'),
    'lib/escape.js': ["'use strict';", '', 'module.exports = string => {', "  return string.replace(/-/g, '\\x2d');", '};', ''].join('\n'),
    'lib/limit.js': ['function pLimit(n) {', '  return n;', '}', 'module.exports = pLimit;', ''].join('\n'),
    'lib/klass.js': ['module.exports = class Queue {', '  push(x) { return x; }', '};', ''].join('\n'),
    // CommonJS named exports (express's lib/utils.js held none of its nine)
    'lib/utils.js': ["var etag = require('etag');", 'function helper() { return 1; }', 'exports.normalizeType = function (type) { return type; };',
      'exports.setCharset = function setCharset(type) { return type; };', 'module.exports.arrow = (x) => x;', 'exports.helper = helper;',
      'exports.one = exports.two = function () {};', 'exports.etag = createTag({ weak: false });', 'function createTag(o) { return (b) => etag(b, o); }', ''].join('\n'),
    'lib/app.js': ["var utils = require('./utils');", 'exports.run = function () { return utils.normalizeType(utils.etag); };', ''].join('\n'),
    // members keyed by a symbol a name holds (pino's prototype, classes with `[kRun]() {}`)
    'lib/keyed.js': ["const setLevelSym = Symbol('setLevel');", "const kRun = Symbol('run');", 'function setLevel(level) { this.level = level; }',
      'const base = {', '  [setLevelSym]: setLevel,', '  [kRun]() { return 1; },', '  child(opts) {', '    const instance = Object.create(this);',
      '    instance[setLevelSym](opts.level);', '    return this[kRun]();', '  },', '};', 'class K {', '  [kRun]() { return 2; }', '  go() { return this[kRun](); }', '}', ''].join('\n'),
    // koa's context: the default is also given a name the module's own code uses
    'lib/context.js': ['const proto = module.exports = {', '  throw(status) { return status; },', '  onerror(err) { this.throw(500); },', '};', 'proto.inspect = 1;', ''].join('\n'),
  });

  it('create is noThing\'s, setup and submit the default\'s; an object passed to a call nothing holds declares nothing', () => {
    const outline = getSymbols(p(), { file: 'src/rules.ts' }).items.flatMap((s) => [`${s.name}:${s.line}`, ...s.children.map((c) => `${s.name}.${c.name}:${c.line}`)]);
    // (a member whose value is an arrow function is a method, as in an object a variable holds)
    expect(outline).toEqual(['createRule:1', 'defineComponent:2', 'run:3', 'noThing:4', 'noThing.create:6', 'noThing.check:9', 'default:11', 'default.setup:12', 'default.submit:16', 'later:22']);
  });

  it('an object passed after a class or function the call names first (or its prototype) gives it its methods; a new object made from others does not (agent trial tr71)', () => {
    const outline = getSymbols(p(), { file: 'src/extend.js' }).items.flatMap((s) => [`${s.name}:${s.line}`, ...s.children.map((c) => `${s.name}.${c.name}:${c.line}`)]);
    expect(outline).toEqual(['AxiosError:1', 'AxiosError.toJSON:5', 'Cart:8', 'Cart.add:10', 'Cart.total:11', 'defaults:13', 'defaults.size:13', 'merged:14']);
  });

  it('property descriptors define members of the function they are given, local to a factory too; their own value/get/set are no members (agent trial tr75)', () => {
    const outline = getSymbols(p(), { file: 'src/limit.js' }).items.flatMap(function all(s): string[] { return [`${s.kind} ${s.name}:${s.line}`, ...s.children.flatMap(all).map((c) => `${s.name}.${c}`)]; });
    expect(outline).toEqual(['function pLimit:1', 'pLimit.function generator:3', 'pLimit.generator.property pendingCount:5', 'pLimit.generator.method clearQueue:8', 'pLimit.generator.method map:13']);
  });

  it('an object of methods that is the default (`export default { … }`, `module.exports = { … }`) holds them, and what they declare and return', () => {
    const tree = (file: string) => getSymbols(q(), { file }).items.map(function show(s): string { return s.children.length ? `${s.name}(${s.children.map(show).join(' ')})` : s.name; });
    expect(tree('src/comp.js')).toEqual(['default(data submit)']);
    // the visitors create returns are its members (agent trial tr64), a string name read as what it says
    expect(tree('lib/rule.js')).toEqual(['default(create(check Identifier Program:exit))']);
  });

  it('a function, a class or a name assigned to `module.exports` is the module\'s default: a module of one arrow function holds it (agent trial tr77)', () => {
    const tree = (file: string) => getSymbols(q(), { file }).items.map((s) => `${s.kind} ${s.name}:${s.line}${s.children.length ? `(${s.children.map((c) => c.name).join(' ')})` : ''}`);
    expect(tree('lib/escape.js')).toEqual(['function default:3']);
    expect(tree('lib/klass.js')).toEqual(['class Queue:1(push)']);
    // (named as its own name, as `export default class Queue` is: Queue.push is found qualified — red team adv65's koa Application.handleRequest)
    expect(findDefinitions(q(), { name: 'Queue.push' }).items.map((d) => `${d.container ?? ''}.${d.name}`)).toEqual(['Queue.push']);
    // a name assigned there exports the declaration it names, which keeps its name
    expect(tree('lib/limit.js')).toEqual(['function pLimit:1']);
    expect(findDefinitions(q(), { name: 'pLimit' }).items.map((d) => `${d.name} exported=${d.exported}`)).toEqual(['pLimit exported=true']);
  });

  it('a member under a key a name holds is named `[k]`, and `x[k]` uses it; the key stays a read of k (agent trial tr127: pino\'s child calls `instance[setLevelSym]()`)', () => {
    const tree = getSymbols(q(), { file: 'lib/keyed.js' }).items.map((s) => `${s.name}${s.children.length ? `(${s.children.map((c) => `${c.kind} ${c.name}`).join(', ')})` : ''}`);
    expect(tree).toEqual(['setLevelSym', 'kRun', 'setLevel', 'base(property [setLevelSym], method [kRun], method child)', 'K(method [kRun], method go)']);
    const uses = findReferences(q(), { name: '[kRun]' }).items.map((r) => `${r.line} ${r.kind} ${r.confidence} ${r.definition}`);
    expect(uses).toEqual(['10 call resolved lib/keyed.js:6', '15 call resolved lib/keyed.js:14']);
    expect(findReferences(q(), { name: '[setLevelSym]' }).items.map((r) => `${r.line} ${r.kind} ${r.confidence}`)).toEqual(['9 call name_match']);
    expect(findReferences(q(), { name: 'setLevelSym' }).items.map((r) => `${r.line} ${r.kind} ${r.confidence}`)).toEqual(['5 read resolved', '9 read resolved']);
    // the key's definition is the const (as TypeScript answers on `k` in `x[k]`), not the member `[k]` beside it
    expect(findDefinitions(q(), { from: locate(q(), { file: 'lib/keyed.js', at: 'instance[setLevelSym]', offset: 9 }) }).items.map((d) => `${d.name}:${d.line} ${d.confidence}`)).toEqual(['setLevelSym:1 resolved']);
  });

  it('`const proto = module.exports = {…}`: the object\'s methods are proto\'s, and proto is the default (agent trial tr130)', () => {
    const tree = getSymbols(q(), { file: 'lib/context.js' }).items.map((s) => `${s.name}${s.children.length ? `(${s.children.map((c) => c.name).join(' ')})` : ''}`);
    expect(tree).toEqual(['proto(throw onerror)']);
    expect(findDefinitions(q(), { name: 'proto' }).items.map((d) => `${d.name} exported=${d.exported}`)).toEqual(['proto exported=true']);
    expect(findDefinitions(q(), { name: 'throw' }).items.map((d) => `${d.container}.${d.name}:${d.line}`)).toEqual(['proto.throw:2']);
    // its own code's call resolves to it
    const own = findReferences(q(), { name: 'throw' }).items.filter((r) => r.file === 'lib/context.js');
    expect(own.map((r) => `${r.confidence} ${r.definition}`)).toEqual(['resolved lib/context.js:2']);
  });

  it('`exports.x = …` and `module.exports.x = …` declare x and export it, chained too; `exports.x = name` exports the declaration named; a use through require resolves', () => {
    const tree = getSymbols(q(), { file: 'lib/utils.js' }).items.map((s) => `${s.kind} ${s.name}:${s.line}`);
    expect(tree).toEqual(['function helper:2', 'function normalizeType:3', 'function setCharset:4', 'function arrow:5', 'function one:7', 'function two:7', 'variable etag:8', 'function createTag:9']);
    expect(findDefinitions(q(), { name: 'helper' }).items.map((d) => `${d.name} exported=${d.exported}`)).toEqual(['helper exported=true']);
    expect(findDefinitions(q(), { name: 'normalizeType' }).items.map((d) => `${d.name} exported=${d.exported}`)).toEqual(['normalizeType exported=true']);
    const use = findReferences(q(), { name: 'normalizeType' }).items.filter((r) => r.file === 'lib/app.js');
    expect(use.map((r) => `${r.confidence} ${r.definition}`)).toEqual(['imported lib/utils.js:3']);
    // the module's own `etag` import is still what createTag calls
    expect(findReferences(q(), { name: 'etag' }).items.filter((r) => r.file === 'lib/utils.js' && r.line === 9).map((r) => r.definition ?? r.confidence)).not.toContain('lib/utils.js:8');
  });

  it('find_definitions finds them by name, and a use through the holder resolves to them', () => {
    expect(findDefinitions(p(), { name: 'submit' }).items.map((d) => `${d.container}.${d.name}:${d.line}`)).toEqual(['default.submit:16']);
    const use = findReferences(p(), { name: 'create' }).items.filter((r) => r.line === 22);
    expect(use.map((r) => `${r.confidence} ${r.definition}`)).toEqual(['resolved src/rules.ts:6']);
  });
});
