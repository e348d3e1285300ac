/**
 * Hand-written expectations for Rust on fixtures/rust-app (a crate that builds: `cargo build` in a
 * copy). Each one states what rustc's name resolution says, and fails if the engine regresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { getSymbols } from '../src/query/outline.js';
import type { Project } from '../src/project/project.js';
import { findReferences, type ReferenceOut } from '../src/query/references.js';
import { analyzeStructure } from '../src/query/structure.js';
import { locate, openFixture } from './golden/golden.js';

let rs: Project;
let dispose: () => void;
beforeAll(async () => {
  ({ project: rs, dispose } = await openFixture('rust-app'));
});
afterAll(() => dispose());

const site = (file: string, at: string, offset = 0) => {
  const s = locate(rs, { file: `src/${file}`, at, offset });
  return `${s.file}:${s.line}:${s.column}`;
};
const refsOf = (file: string, at: string, offset = 0): ReferenceOut[] =>
  findReferences(rs, { ...locate(rs, { file: `src/${file}`, at, offset }), limit: 500 }).items;
const where = (refs: ReferenceOut[]) => refs.map((r) => `${r.file}:${r.line}:${r.column}`);
const facts = (refs: ReferenceOut[]) => where(refs.filter((r) => r.confidence !== 'name_match'));
const confidenceAt = (refs: ReferenceOut[], at: string) => refs.find((r) => `${r.file}:${r.line}:${r.column}` === at)?.confidence;
const defsFrom = (file: string, at: string, offset = 0) =>
  findDefinitions(rs, { from: locate(rs, { file: `src/${file}`, at, offset }) }).items.map(
    (d) => `${d.file}:${d.line} ${d.container ? d.container + '.' : ''}${d.name} ${d.confidence}`,
  );

describe('rust-app: three functions named format', () => {
  it('crate::format, geometry::format and util::format keep their own callers', () => {
    const root = facts(refsOf('lib.rs', 'format(value'));
    const geometry = facts(refsOf('geometry/mod.rs', 'format(p'));
    const util = facts(refsOf('util.rs', 'format(items'));
    expect(root).toEqual(expect.arrayContaining([
      site('lib.rs', 'format(c.area'), // same module
      site('shapes.rs', 'format;', 0), // use crate::format;
      site('shapes.rs', 'format(self.area'), // inside format!(...): a token tree, still a call
      site('main.rs', 'rust_app::format', 10), // the library crate by its name
    ]));
    expect(geometry).toEqual([site('lib.rs', 'geometry::format', 10), site('util.rs', 'geometry::format', 10)]);
    expect(util).toEqual([site('util.rs', 'format(&[geometry'), site('util.rs', 'format(&["a"')]);
  });

  it('format!(...) is a macro, and a local `let format` shadows the function', () => {
    const root = where(refsOf('lib.rs', 'format(value'));
    expect(root).not.toContain(site('lib.rs', 'format!'));
    expect(root).not.toContain(site('shapes.rs', 'format!'));
    expect(root).not.toContain(site('lib.rs', '    format\n', 4)); // `let format = geometry::format(&p); format`
    expect(where(refsOf('util.rs', 'format(items'))).not.toContain(site('util.rs', 'format(area)'));
  });

  it('names in comments and strings are not references', () => {
    expect(where(refsOf('lib.rs', 'format(value')).filter((r) => r.startsWith('src/lib.rs:1:') || r.startsWith('src/lib.rs:12:'))).toEqual([]);
  });
});

describe('rust-app: impl blocks', () => {
  it('methods in `impl T` and `impl Trait for T` belong to T; trait items to the trait', () => {
    const outline = getSymbols(rs, { file: 'src/shapes.rs', depth: 3 }).items;
    const byName = (n: string) => outline.find((s) => s.name === n)!;
    expect(byName('Shape').kind).toBe('trait');
    expect(byName('Shape').children.map((c) => `${c.kind} ${c.name}`)).toEqual(['method area', 'method name', 'method describe']);
    expect(byName('Circle').kind).toBe('struct');
    expect(byName('Circle').children.map((c) => `${c.kind} ${c.name}`)).toEqual([
      'property radius', 'method new', 'method unit', 'method grow', 'method area', 'method name',
    ]);
    expect(byName('Square').children.map((c) => c.name)).toEqual(['area', 'name', 'describe']);
    expect(byName('Kind').children.map((c) => `${c.kind} ${c.name}`)).toEqual(['enum_member Round', 'enum_member Angular', 'method of']);
  });

  it('an impl in another module adds to the type declared elsewhere (through `use ... as P`)', () => {
    expect(findDefinitions(rs, { name: 'Point.norm' }).items.map((d) => `${d.file}:${d.line} ${d.container}.${d.name}`)).toEqual(['src/extra.rs:5 Point.norm']);
    expect(defsFrom('extra.rs', 'self.distance', 5)).toEqual(['src/geometry/point.rs:16 Point.distance imported']);
    expect(defsFrom('extra.rs', 'P::origin', 3)).toEqual(['src/geometry/point.rs:12 Point.origin imported']);
  });

  it('self, Self:: and a trait default method', () => {
    expect(defsFrom('shapes.rs', 'Self::new', 6)).toEqual(['src/shapes.rs:18 Circle.new resolved']);
    expect(defsFrom('shapes.rs', 'self.radius +=', 5)).toEqual(['src/shapes.rs:14 Circle.radius resolved']);
    expect(defsFrom('shapes.rs', 'self.area()', 5)).toEqual(['src/shapes.rs:5 Shape.area resolved']);
    expect(defsFrom('shapes.rs', 'shape.name()', 6)).toEqual(['src/shapes.rs:6 Shape.name resolved']); // shape: &dyn Shape
    expect(defsFrom('shapes.rs', 'first.area', 6)).toEqual(['src/shapes.rs:5 Shape.area resolved']); // first: &S, S: Shape
  });

  it('find_references on a trait method includes its implementations', () => {
    const area = facts(refsOf('shapes.rs', 'area(&self) -> f64;'));
    expect(area).toEqual(expect.arrayContaining([site('shapes.rs', 'self.area()', 5), site('util.rs', 's.area()', 2), site('util.rs', 'unit.area()', 5)]));
  });

  it('enum variants and their fields through the enum path', () => {
    expect(defsFrom('shapes.rs', 'Kind::Round', 6)).toEqual(['src/shapes.rs:58 Kind.Round resolved']);
    expect(defsFrom('shapes.rs', 'corners: 4')).toEqual(['src/shapes.rs:59 Angular.corners resolved']);
  });

  it('`use Kind::*` starts at a name in scope (Rust 2018), and a capitalised name in a pattern is the variant', () => {
    expect(defsFrom('shapes.rs', 'Round => 0')).toEqual(['src/shapes.rs:58 Kind.Round imported']);
    expect(defsFrom('shapes.rs', 'Angular { corners } =>')).toEqual(['src/shapes.rs:59 Kind.Angular imported']);
  });
});

describe('rust-app: modules and paths', () => {
  it('`use crate::shapes::*` brings the module items; T::new() and Self-returning calls type the binding', () => {
    expect(defsFrom('util.rs', 'Circle::new(2.0)', 8)).toEqual(['src/shapes.rs:18 Circle.new imported']);
    expect(defsFrom('util.rs', 'c.grow', 2)).toEqual(['src/shapes.rs:26 Circle.grow imported']);
    expect(defsFrom('util.rs', 's.area()', 2)).toEqual(['src/shapes.rs:44 Square.area imported']);
    expect(defsFrom('util.rs', 'unit.area()', 5)).toEqual(['src/shapes.rs:32 Circle.area imported']);
  });

  it('a shadowing `let` retypes the name from its end on', () => {
    expect(defsFrom('util.rs', 's.area()); //', 2)).toEqual(['src/shapes.rs:32 Circle.area imported']);
    expect(defsFrom('util.rs', 's.area()\n}', 2)).toEqual(['src/shapes.rs:44 Square.area imported']);
  });

  it('paths: `geometry::point::Point` through `use super::geometry`, `crate::...`, `self::inner::...`', () => {
    expect(defsFrom('util.rs', 'p.distance', 2)).toEqual(['src/geometry/point.rs:16 Point.distance imported']);
    expect(defsFrom('util.rs', 'q.norm()', 2)).toEqual(['src/extra.rs:5 Point.norm imported']);
    expect(defsFrom('util.rs', 'point::Point::origin', 14)).toEqual(['src/geometry/point.rs:12 Point.origin imported']);
    expect(defsFrom('util.rs', 'self::inner::helper', 13)).toEqual(['src/util.rs:32 inner.helper imported']);
  });

  it('`mod tests { use super::*; }` sees the parent module; inline modules by name', () => {
    expect(defsFrom('util.rs', 'format(&["a"')).toEqual(['src/util.rs:4 format resolved']);
    expect(defsFrom('util.rs', 'inner::helper(), "helper"', 7)).toEqual(['src/util.rs:32 inner.helper resolved']);
  });

  it('the binary crate uses the library by its package name (rust-app → rust_app)', () => {
    expect(defsFrom('main.rs', 'describe_all(&shapes)')).toEqual(['src/lib.rs:17 describe_all imported']);
    expect(defsFrom('main.rs', 'Circle::new', 8)).toEqual(['src/shapes.rs:18 Circle.new imported']);
    expect(defsFrom('main.rs', 'Point::new', 7)).toEqual(['src/geometry/point.rs:8 Point.new imported']);
    expect(defsFrom('main.rs', 'p.distance', 2)).toEqual(['src/geometry/point.rs:16 Point.distance imported']);
  });

  it('`pub use shapes::{Circle, Shape as ShapeTrait}` re-exports under the new name', () => {
    expect(defsFrom('main.rs', 'dyn ShapeTrait', 4)).toEqual(['src/shapes.rs:4 Shape imported']);
  });

  it('a receiver of unknown type stays a guess', () => {
    const refs = refsOf('shapes.rs', 'describe(&self) -> String {\n        format!');
    expect(confidenceAt(refs, site('lib.rs', 's.describe()', 2))).toBe('name_match');
  });

  it('get_symbols and analyze_structure work on Rust files', () => {
    expect(getSymbols(rs, { file: 'src/lib.rs' }).items.map((s) => `${s.kind} ${s.name}${s.exported ? ' exported' : ''}`)).toEqual([
      'module geometry exported', 'module shapes exported', 'module extra', 'module util', 'constant VERSION exported',
      'function format exported', 'function describe_all exported', 'function origin_label exported', 'function area_text exported',
    ]);
    const lib = analyzeStructure(rs, { path: 'src/lib.rs' });
    expect(lib.type === 'file' && lib.imports.find((i) => i.source === 'geometry')?.resolved_file).toBe('src/geometry/mod.rs');
    const dir = analyzeStructure(rs, { path: 'src' });
    expect(dir.type === 'directory' && dir.edges.some((e) => e.from === 'src/util.rs' && e.to === 'src/shapes.rs')).toBe(true);
  });
});

describe('rust-app: incremental re-indexing', () => {
  it('re-indexing the file of a type keeps the methods other files add to it, and their callers', async () => {
    const f = await openFixture('rust-app');
    try {
      const point = `${f.project.root}/src/geometry/point.rs`;
      const fs = await import('node:fs');
      fs.writeFileSync(point, fs.readFileSync(point, 'utf8') + '\n// edited\n');
      await f.project.refresh();
      const norm = findDefinitions(f.project, { name: 'Point.norm' }).items;
      expect(norm.map((d) => `${d.file}:${d.line} ${d.container}.${d.name}`)).toEqual(['src/extra.rs:5 Point.norm']);
      const at = locate(f.project, { file: 'src/util.rs', at: 'q.norm()', offset: 2 });
      expect(findDefinitions(f.project, { from: at }).items.map((d) => `${d.file}:${d.line} ${d.confidence}`)).toEqual(['src/extra.rs:5 imported']);
      const impl = locate(f.project, { file: 'src/lib.rs', at: 'c.area', offset: 2 });
      expect(findDefinitions(f.project, { from: impl }).items.map((d) => `${d.file}:${d.line} ${d.confidence}`)).toEqual(['src/shapes.rs:32 imported']);
    } finally {
      f.dispose();
    }
  });
});
