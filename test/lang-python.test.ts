/**
 * Hand-written expectations for Python on fixtures/py-app. Each one states what Python's own
 * name resolution (and a type checker such as pyright) says, and fails if the engine regresses.
 * The fixture runs: `cd fixtures/py-app/src && python3 -c 'import app; app.main()'`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { getSymbols } from '../src/query/outline.js';
import type { Project } from '../src/project/project.js';
import { findReferences, type ReferenceOut } from '../src/query/references.js';
import { analyzeStructure } from '../src/query/structure.js';
import { locate, openFixture } from './golden/golden.js';

let py: Project;
let dispose: () => void;
beforeAll(async () => {
  ({ project: py, dispose } = await openFixture('py-app'));
});
afterAll(() => dispose());

const S = 'src/shop';
const site = (file: string, at: string, offset = 0) => {
  const s = locate(py, { file, at, offset });
  return `${s.file}:${s.line}:${s.column}`;
};
const refsOf = (file: string, at: string, offset = 0): ReferenceOut[] => findReferences(py, { ...locate(py, { file, at, offset }), limit: 500 }).items;
const where = (refs: ReferenceOut[]) => refs.map((r) => `${r.file}:${r.line}:${r.column}`);
const facts = (refs: ReferenceOut[]) => where(refs.filter((r) => r.confidence !== 'name_match'));
const confidenceAt = (refs: ReferenceOut[], at: string) => refs.find((r) => `${r.file}:${r.line}:${r.column}` === at)?.confidence;
const defsFrom = (file: string, at: string, offset = 0) =>
  findDefinitions(py, { from: locate(py, { file, at, offset }) }).items.map((d) => `${d.file}:${d.line} ${d.container ? d.container + '.' : ''}${d.name} ${d.confidence}`);

describe('py-app: three functions named format in three modules', () => {
  it('each keeps its own callers, through relative, aliased, package and dotted imports', () => {
    const number = facts(refsOf(`${S}/pricing.py`, 'format(value'));
    const template = facts(refsOf(`${S}/text.py`, 'format(template'));
    const slugFormat = facts(refsOf(`${S}/util/strings.py`, 'format(text'));
    const numberCallers = [
      site(`${S}/pricing.py`, 'format(amount'), // same module: resolved
      site(`${S}/services/report.py`, 'format(p.price)'), // from ..pricing import format
      site('src/app.py', 'shop.pricing.format', 13), // import shop.pricing; shop.pricing.format()
    ];
    const templateCallers = [
      site(`${S}/services/report.py`, 'render("{0}"'), // from ..text import format as render
      site('src/app.py', 'template_format("{0}"'), // from shop import format (shop/__init__: from .text import *)
    ];
    expect(number).toEqual(expect.arrayContaining(numberCallers));
    expect(template).toEqual(expect.arrayContaining(templateCallers));
    expect(slugFormat).toEqual([site('src/app.py', 'strings.format', 8)]);
    for (const s of templateCallers) expect(number).not.toContain(s);
    for (const s of numberCallers) expect(template).not.toContain(s);
  });

  it('from a usage site, find_definitions picks the one format', () => {
    expect(defsFrom(`${S}/services/report.py`, 'format(p.price)')).toEqual([`${S}/pricing.py:6 format imported`]);
    expect(defsFrom(`${S}/services/report.py`, 'render("{0}"')).toEqual([`${S}/text.py:8 format imported`]);
    expect(defsFrom('src/app.py', 'template_format("{0}"')).toEqual([`${S}/text.py:8 format imported`]);
    expect(defsFrom('src/app.py', 'shop.pricing.format', 13)).toEqual([`${S}/pricing.py:6 format imported`]);
  });
});

describe('py-app: scopes', () => {
  it('a method body does not see the class body: `render` inside Report.render is the imported format', () => {
    expect(defsFrom(`${S}/services/report.py`, 'render("{0}"')).toEqual([`${S}/text.py:8 format imported`]);
    expect(where(refsOf(`${S}/services/report.py`, 'render(self)'))).toEqual([]);
  });

  it('a default value is evaluated where the function is defined: in the class body for a method', () => {
    expect(defsFrom(`${S}/services/report.py`, 'text=title', 5)).toEqual([`${S}/services/report.py:8 Report.title resolved`]);
  });

  it('parameters, comprehension variables and lambda parameters shadow module names', () => {
    const number = where(refsOf(`${S}/pricing.py`, 'format(value'));
    expect(number).not.toContain(site(`${S}/services/report.py`, 'format(first)')); // def summary(items, format=None)
    const calls = where(findReferences(py, { name: 'format', limit: 500 }).items);
    expect(calls).not.toContain(site('src/app.py', 'format for format'));
    expect(calls).not.toContain(site('src/app.py', 'format: format', 8));
  });

  it('`global RATE` makes the assignment in reset_rate a write to the module variable', () => {
    const rate = refsOf(`${S}/pricing.py`, 'RATE = 0.2');
    expect(rate.map((r) => `${r.file}:${r.line}:${r.column} ${r.kind} ${r.confidence}`)).toEqual([
      `${site(`${S}/pricing.py`, 'rate=RATE', 5)} read resolved`,
      `${site(`${S}/pricing.py`, 'global RATE', 7)} read resolved`,
      `${site(`${S}/pricing.py`, 'RATE = 0.0')} write resolved`,
    ]);
    expect(getSymbols(py, { file: `${S}/pricing.py` }).items.filter((s) => s.name === 'RATE')).toHaveLength(1);
  });

  it('names in comments, strings and docstrings are not references', () => {
    const template = where(refsOf(`${S}/text.py`, 'format(template'));
    expect(template.filter((r) => r.startsWith(`${S}/text.py`) || r.startsWith(`${S}/models.py`))).toEqual([]);
    const describe = where(refsOf(`${S}/models.py`, 'describe(self) -> str:\n        return f'));
    expect(describe).not.toContain(site(`${S}/models.py`, 'Item.describe() is documented', 5));
  });
});

describe('py-app: classes', () => {
  it('methods belong to their class; self.x assignments declare attributes', () => {
    const outline = getSymbols(py, { file: `${S}/models.py`, depth: 3 }).items;
    const item = outline.find((s) => s.name === 'Item')!;
    expect(item.kind).toBe('class');
    expect(item.children.map((c) => `${c.kind} ${c.name}`)).toEqual([
      'property kind', 'method __init__', 'property name', 'property tags', 'method describe', 'method tag', 'method copy',
    ]);
    const product = outline.find((s) => s.name === 'Product')!;
    expect(product.children.map((c) => c.name)).toEqual(['kind', '__init__', 'price', 'describe', 'label', 'label', 'parse', 'free']);
    expect(outline.find((s) => s.name === 'make_product')?.kind).toBe('function');
  });

  it('self.attr and self.method() resolve in the class and its bases', () => {
    expect(defsFrom(`${S}/models.py`, 'self.kind', 5)).toEqual([`${S}/models.py:7 Item.kind resolved`]);
    expect(defsFrom(`${S}/models.py`, 'self.name.upper', 5)).toEqual([`${S}/models.py:10 Item.name resolved`]);
    expect(defsFrom(`${S}/models.py`, 'self.price)', 5)).toEqual([`${S}/models.py:29 Product.price resolved`]);
  });

  it('super().m() is the base class method', () => {
    expect(defsFrom(`${S}/models.py`, 'super().describe', 8)).toEqual([`${S}/models.py:13 Item.describe resolved`]);
    expect(defsFrom(`${S}/models.py`, 'super().__init__', 8)).toEqual([`${S}/models.py:9 Item.__init__ resolved`]);
  });

  it('`@label.setter` names the property defined in the class body', () => {
    expect(defsFrom(`${S}/models.py`, 'label.setter')).toEqual([`${S}/models.py:36 Product.label resolved`]);
  });

  it('typed receivers: annotations and constructor calls, across modules, inherited members too', () => {
    expect(defsFrom(`${S}/pricing.py`, 'product.describe()\n', 8)).toEqual([`${S}/models.py:31 Product.describe imported`]);
    expect(defsFrom(`${S}/pricing.py`, 'product.price', 8)).toEqual([`${S}/models.py:29 Product.price imported`]);
    expect(defsFrom(`${S}/services/report.py`, 'product.tag', 8)).toEqual([`${S}/models.py:16 Item.tag imported`]);
    expect(defsFrom(`${S}/services/report.py`, 'item.describe()\n', 5)).toEqual([`${S}/models.py:13 Item.describe imported`]);
    expect(defsFrom(`${S}/services/report.py`, 'Product.parse', 8)).toEqual([`${S}/models.py:44 Product.parse imported`]);
    expect(defsFrom(`${S}/services/report.py`, 'Product.free', 8)).toEqual([`${S}/models.py:49 Product.free imported`]);
    // `for each in products` with `products: list[Product]`
    expect(defsFrom(`${S}/pricing.py`, 'each.describe', 5)).toEqual([`${S}/models.py:31 Product.describe imported`]);
  });

  it('a forward reference `-> "Item"` is a type use; `self.x = x` takes the parameter\'s annotation', () => {
    expect(defsFrom(`${S}/models.py`, '"Item"', 1)).toEqual([`${S}/models.py:4 Item resolved`]);
    expect(defsFrom(`${S}/services/report.py`, 'self.owner.copy', 11)).toEqual([`${S}/models.py:20 Item.copy imported`]);
    expect(defsFrom(`${S}/services/report.py`, 'copy().describe', 7)).toEqual([`${S}/models.py:13 Item.describe imported`]);
  });

  it('a variable assigned twice has no evident type: its members are guesses', () => {
    expect(defsFrom(`${S}/models.py`, 'thing.describe', 6)).toEqual([
      `${S}/models.py:13 Item.describe name_match`, `${S}/models.py:31 Product.describe name_match`,
    ]);
  });

  it('a receiver of unknown type stays a guess', () => {
    const refs = refsOf(`${S}/models.py`, 'describe(self) -> str:\n        return f');
    expect(confidenceAt(refs, site('src/app.py', 'unknown.describe', 8))).toBe('name_match');
    expect(confidenceAt(refs, site(`${S}/services/report.py`, 'item.describe()', 5))).toBe('name_match'); // loop variable
  });

  it('find_references on a method includes the overriding method in the subclass', () => {
    const refs = refsOf(`${S}/models.py`, 'describe(self) -> str:\n        return f');
    expect(facts(refs)).toEqual(expect.arrayContaining([site(`${S}/pricing.py`, 'product.describe()\n', 8), site(`${S}/models.py`, 'super().describe', 8)]));
  });
});

describe('py-app: modules', () => {
  it('`import a.b.c` binds a; a.b.c.f() walks packages, a namespace package (no __init__.py) included', () => {
    expect(defsFrom('src/app.py', 'shop.util.strings.slug', 18)).toEqual([`${S}/util/strings.py:1 slug imported`]);
    expect(defsFrom('src/app.py', 'strings.format', 8)).toEqual([`${S}/util/strings.py:5 format imported`]);
  });

  it('`from .. import text` finds the submodule; a package re-exports what its __init__ imports', () => {
    expect(defsFrom(`${S}/services/report.py`, 'text.join', 5)).toEqual([`${S}/text.py:16 join imported`]);
    expect(defsFrom('src/app.py', 'grand_total(products)')).toEqual([`${S}/pricing.py:11 total imported`]);
    expect(defsFrom('src/app.py', 'Product("a"')).toEqual([`${S}/models.py:24 Product imported`]);
  });

  it('`from m import *` brings the public names (or those of a literal __all__)', () => {
    expect(defsFrom('src/app.py', 'Item("plain")')).toEqual([`${S}/models.py:4 Item imported`]);
    expect(defsFrom('src/app.py', 'make_product("loaded")')).toEqual([`${S}/models.py:53 make_product imported`]);
    expect(defsFrom('src/app.py', 'item.describe', 5)).toEqual([`${S}/models.py:13 Item.describe imported`]);
    // text.py's __all__ leaves out join and _strip: `from shop import *` would not bring them
    const structure = analyzeStructure(py, { path: `${S}/text.py` });
    expect(structure.type === 'file' && structure.declarations.map((d) => `${d.name}${d.exported ? ' exported' : ''}`)).toEqual([
      '__all__', 'SEPARATOR exported', 'format exported', '_strip', 'join',
    ]);
  });

  it("a script's own directory is on sys.path: `import helpers` next to it", () => {
    expect(defsFrom('scripts/tool.py', 'helpers.shout', 8)).toEqual(['scripts/helpers.py:1 shout imported']);
    expect(defsFrom('scripts/tool.py', 'shout("y")')).toEqual(['scripts/helpers.py:1 shout imported']);
  });

  it('analyze_structure draws the import edges between modules', () => {
    const s = analyzeStructure(py, { path: '.' });
    expect(s.type === 'directory' && s.edges.some((e) => e.from === `${S}/services/report.py` && e.to === `${S}/pricing.py`)).toBe(true);
  });
});
