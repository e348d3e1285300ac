/**
 * Hand-written expectations for Go on fixtures/go-app (a module that builds: `go vet ./...` and
 * `go test ./...` pass in a copy). Each one states what the Go compiler's name resolution says,
 * and fails if the engine regresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { getSymbols } from '../src/query/outline.js';
import type { Project } from '../src/project/project.js';
import { findReferences, type ReferenceOut } from '../src/query/references.js';
import { analyzeStructure } from '../src/query/structure.js';
import { locate, openFixture } from './golden/golden.js';

let go: Project;
let dispose: () => void;
beforeAll(async () => {
  ({ project: go, dispose } = await openFixture('go-app'));
});
afterAll(() => dispose());

const site = (file: string, at: string, offset = 0) => {
  const s = locate(go, { file, at, offset });
  return `${s.file}:${s.line}:${s.column}`;
};
const refsOf = (file: string, at: string, offset = 0): ReferenceOut[] =>
  findReferences(go, { ...locate(go, { file, at, offset }), limit: 500 }).items;
const where = (refs: ReferenceOut[]) => refs.map((r) => `${r.file}:${r.line}:${r.column}`);
const facts = (refs: ReferenceOut[]) => where(refs.filter((r) => r.confidence !== 'name_match'));
const defsFrom = (file: string, at: string, offset = 0) =>
  findDefinitions(go, { from: locate(go, { file, at, offset }) }).items.map(
    (d) => `${d.file}:${d.line} ${d.container ? d.container + '.' : ''}${d.name} ${d.confidence}`,
  );

describe('go-app: three functions named Format in three packages', () => {
  it('each keeps its own callers: package import, aliased import, same package', () => {
    const main = facts(refsOf('helpers.go', 'Format(n int'));
    const geometry = facts(refsOf('geometry/circle.go', 'Format(s Shape'));
    const text = facts(refsOf('text/format.go', 'Format(s string'));
    expect(main).toEqual([site('helpers.go', 'Format(len'), site('helpers.go', 'Format(1)'), site('main.go', 'Format(3)')]);
    expect(geometry).toEqual([site('main.go', 'geometry.Format(sh)', 9)]);
    expect(text).toEqual(expect.arrayContaining([site('main.go', 'str.Format', 4), site('cmd/tool/main.go', 'text.Format', 5)]));
    // the package's own test file calls it without an import
    expect(text).toContain(site('text/format_test.go', 'Format(" a ")'));
  });

  it('by name all three are listed; from a usage site, the one it means', () => {
    expect(findDefinitions(go, { name: 'Format' }).items.map((d) => d.file)).toEqual(['geometry/circle.go', 'helpers.go', 'text/format.go']);
    expect(defsFrom('main.go', 'str.Format', 4)).toEqual(['text/format.go:10 Format imported']);
    expect(defsFrom('main.go', 'Format(3)')).toEqual(['helpers.go:6 Format resolved']);
  });
});

describe('go-app: the package is the scope', () => {
  it('a type and a function of another file of the package need no import', () => {
    expect(defsFrom('main.go', 'Config{')).toEqual(['config.go:6 Config resolved']);
    expect(defsFrom('main.go', 'newConfig()')).toEqual(['config.go:11 newConfig resolved']);
    expect(defsFrom('text/format_test.go', 'join(nil)')).toEqual(['text/format.go:14 join resolved']);
  });

  it('another directory is another package, even with the same package name', () => {
    expect(defsFrom('cmd/tool/main.go', 'newConfig().name')).toEqual(['cmd/tool/main.go:8 newConfig resolved']);
    expect(facts(refsOf('config.go', 'newConfig()'))).toEqual([site('main.go', 'newConfig()')]);
  });

  it('a dot import makes the package\'s exported names visible', () => {
    expect(defsFrom('main.go', 'Meters(3)')).toEqual(['units/units.go:7 Meters imported']);
  });

  it('a function declared in two files of a package for different builds is a guess between both, never a fact', () => {
    const r = findDefinitions(go, { from: locate(go, { file: 'main.go', at: 'geometry.Unit()', offset: 9 }) });
    expect(r.items.map((d) => `${d.file} ${d.confidence}`)).toEqual(['geometry/unit_linux.go name_match', 'geometry/unit_windows.go name_match']);
    expect(r.resolution).toMatch(/several files declare it/);
  });

  it('the predeclared identifiers and the standard library are outside the project, not guesses', () => {
    const r = findDefinitions(go, { from: locate(go, { file: 'helpers.go', at: 'len(c.Name)' }) });
    expect(r.items).toEqual([]);
    expect(() => findReferences(go, { name: 'len' })).toThrow(/no definition/);
  });
});

describe('go-app: methods', () => {
  it('a method belongs to its receiver type, also when declared in another file', () => {
    const outline = getSymbols(go, { file: 'helpers.go' }).items;
    expect(outline.find((n) => n.name === 'Describe')).toMatchObject({ kind: 'method', container: 'Config' });
    expect(findDefinitions(go, { name: 'Config.Describe' }).items.map((d) => d.file)).toEqual(['helpers.go']);
    const config = getSymbols(go, { file: 'config.go' }).items.find((n) => n.name === 'Config')!;
    expect(config.children.map((c) => c.name)).toEqual(['Name', 'verbose', 'print']);
  });

  it('a capitalised method or field is exported (visible outside its package), a lower-case one is not', () => {
    const circle = getSymbols(go, { file: 'geometry/circle.go' }).items;
    const methods = circle.flatMap((n) => [n, ...n.children]).filter((n) => n.kind === 'method');
    expect(methods.map((m) => `${m.name} ${m.exported}`).sort()).toEqual(['Area true', 'Label true', 'describe false', 'describe false']);
    const config = getSymbols(go, { file: 'config.go' }).items.find((n) => n.name === 'Config')!;
    expect(config.children.map((c) => `${c.name} ${c.exported}`)).toEqual(['Name true', 'verbose false', 'print false']);
    // a method adds no name to its package: `geometry.Area` is not a package-level name
    expect(findDefinitions(go, { name: 'Area' }).items.every((d) => d.container)).toBe(true);
  });

  it('methods resolve through declared types: T{}, &pkg.T{}, var x pkg.I, receivers, results of this file', () => {
    expect(defsFrom('main.go', 'c.print()', 2)).toEqual(['config.go:15 Config.print resolved']);
    expect(defsFrom('main.go', 'c.Describe()', 2)).toEqual(['helpers.go:11 Config.Describe resolved']);
    expect(defsFrom('main.go', 's.Area()', 2)).toEqual(['geometry/shape.go:15 Square.Area imported']);
    expect(defsFrom('main.go', 'sh.Area()', 3)).toEqual(['geometry/shape.go:6 Shape.Area imported']);
    expect(defsFrom('main.go', 'unknown().Area()', 10)).toEqual(['geometry/shape.go:6 Shape.Area imported']);
    expect(defsFrom('helpers.go', 'c.Name', 2)).toEqual(['config.go:7 Config.Name resolved']);
    expect(defsFrom('main.go', 'Side:')).toEqual(['geometry/shape.go:11 Square.Side imported']);
  });

  it('range variables are elements of the collection; a type assertion states its type', () => {
    // for _, s := range shapes ([]Shape); sq, ok := s.(*Square)
    expect(defsFrom('geometry/circle.go', 's.Area())', 2)).toEqual(['geometry/shape.go:6 Shape.Area resolved']);
    expect(defsFrom('geometry/circle.go', 'sq.Side', 3)).toEqual(['geometry/shape.go:11 Square.Side resolved']);
  });

  it('a method promoted from an embedded struct is found through the embedding', () => {
    expect(defsFrom('geometry/circle.go', 'c.describe(), c.Area()', 2)).toEqual(['geometry/circle.go:9 base.describe resolved']);
  });

  it('an embedded field is named by its type, and is a use of that type too', () => {
    expect(defsFrom('geometry/circle.go', 'c.base.label', 2)).toEqual(['geometry/circle.go:13 Circle.base resolved']);
    expect(defsFrom('geometry/circle.go', 'c.base.label', 7)).toEqual(['geometry/circle.go:6 base.label resolved']);
    expect(where(refsOf('geometry/circle.go', 'base struct'))).toContain(site('geometry/circle.go', 'base\n\tRadius'));
  });

  it('a method of an embedding type shadows the embedded one: their references are not merged', () => {
    const base = where(refsOf('geometry/circle.go', 'describe() string'));
    expect(base).toEqual(expect.arrayContaining([site('geometry/circle.go', 'c.describe(), c.Area()', 2), site('geometry/circle.go', 'l.base.describe', 7)]));
    expect(base).not.toContain(site('geometry/circle.go', 'Labelled{}.describe', 11));
    expect(defsFrom('geometry/circle.go', 'Labelled{}.describe', 11)).toEqual(['geometry/circle.go:45 Labelled.describe resolved']);
  });

  it('methods and functions of one name stay apart: Square.Area is not Circle.Area', () => {
    expect(facts(refsOf('geometry/shape.go', 'Area() float64 {'))).toEqual([site('main.go', 's.Area()', 2)]);
    expect(facts(refsOf('geometry/circle.go', 'Area() float64'))).toEqual([site('geometry/circle.go', 'c.Area()', 2)]);
  });

  it('the result type of a function of another file of the package types the variable', () => {
    // config.go: func newConfig() *Config
    expect(defsFrom('main.go', 'cfg.Describe', 4)).toEqual(['helpers.go:11 Config.Describe imported']);
  });

  it('a method on a value of unknown type stays a guess, never a fact', () => {
    expect(defsFrom('main.go', 'd.String()', 2)).toEqual(['units/units.go:10 Meters.String name_match']);
  });
});

describe('go-app: scopes, comments and strings', () => {
  it('a local variable hides the function; before its declaration the function is meant', () => {
    const refs = where(refsOf('helpers.go', 'Format(n int'));
    expect(refs).not.toContain(site('helpers.go', 'return Format', 7));
    expect(refs).toContain(site('helpers.go', 'Format(1)'));
    expect(() => findDefinitions(go, { from: locate(go, { file: 'helpers.go', at: 'return Format', offset: 7 }) })).toThrow(/no indexed reference/);
  });

  it('names in comments and strings are not references', () => {
    const all = where(refsOf('helpers.go', 'Format(n int')).concat(where(refsOf('text/format.go', 'Format(s string')));
    expect(all.filter((r) => r.startsWith('main.go:1:'))).toEqual([]); // the package comment
    expect(all).not.toContain(site('main.go', '"Format(x)', 1));
  });
});

describe('go-app: structure', () => {
  it('analyze_structure lists a file\'s imports (not the names of its package) and the edges between packages', () => {
    const f = analyzeStructure(go, { path: 'main.go' });
    if (f.type !== 'file') throw new Error('expected a file');
    expect(f.language).toBe('go');
    expect(f.imports.map((i) => i.source)).toEqual([
      'fmt', 'strings', 'example.com/goapp/geometry', 'example.com/goapp/plugins', 'example.com/goapp/text', 'example.com/goapp/units',
    ]);
    expect(f.imports.find((i) => i.source === 'example.com/goapp/text')).toMatchObject({ status: 'resolved', names: ['* as str'] });
    expect(f.imports.find((i) => i.source === 'fmt')?.status).toBe('external');
    const d = analyzeStructure(go, { path: '.' });
    if (d.type !== 'directory') throw new Error('expected a directory');
    expect(d.edges).toEqual(expect.arrayContaining([{ from: 'main.go', to: 'config.go', names: 2 }]));
    expect(d.external_dependencies.map((e) => e.module)).not.toContain('len');
  });
});

describe('go-app: incremental', () => {
  it('re-indexing the file of a type keeps the methods declared in other files attached to it', async () => {
    const { project: p, dispose: done } = await openFixture('go-app');
    try {
      const config = `${p.root}/config.go`;
      const fs = await import('node:fs');
      fs.appendFileSync(config, '\n// touched\n');
      const fresh = await p.refresh();
      expect(fresh.reindexed_now).toBe(1);
      expect(getSymbols(p, { file: 'helpers.go' }).items.find((n) => n.name === 'Describe')).toMatchObject({ container: 'Config' });
      const defs = findDefinitions(p, { from: locate(p, { file: 'main.go', at: 'c.Describe()', offset: 2 }) }).items;
      expect(defs.map((d) => `${d.file}:${d.line} ${d.container}.${d.name} ${d.confidence}`)).toEqual(['helpers.go:11 Config.Describe resolved']);
      const refs = findReferences(p, { ...locate(p, { file: 'config.go', at: 'Config struct' }), limit: 100 }).items;
      expect(refs.map((r) => r.file)).toEqual(expect.arrayContaining(['helpers.go', 'main.go']));
    } finally {
      done();
    }
  });
});
