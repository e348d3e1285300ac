/**
 * Golden files for the fixture repositories in fixtures/: what the index says about each one
 * (outlines, references of every non-local definition, definitions looked up from usage sites),
 * written as short `file:line:col` strings so a reviewer can check them against the code by eye.
 * Shared by test/golden.test.ts (compare) and test/golden/regenerate.ts (rewrite).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findDefinitions } from '../../src/query/definitions.js';
import { getSymbols, type OutlineNode } from '../../src/query/outline.js';
import { Project } from '../../src/project/project.js';
import { findReferences } from '../../src/query/references.js';
import { PACKAGE_ROOT, UserError } from '../../src/util/paths.js';

export const FIXTURES_DIR = path.join(PACKAGE_ROOT, 'fixtures');

/** A usage site, located by the first occurrence of `at` in `file` (plus `offset` characters). */
export interface Site {
  file: string;
  at: string;
  offset?: number;
}

/** The usage sites whose `find_definitions({from})` answer goes into each golden file. */
export const FROM_SITES: Record<string, Site[]> = {
  'ts-app': [
    { file: 'src/main.ts', at: 'format(3.14159)' }, // barrel picks the number format
    { file: 'src/main.ts', at: 'capitalize(\'done\')' }, // through `export *`
    { file: 'src/main.ts', at: 'summary(store)' }, // renamed import
    { file: 'src/main.ts', at: 'makeGreeter()' }, // default import of a named default function
    { file: 'src/main.ts', at: 'format.replace' }, // a parameter: no indexed definition
    { file: 'src/main.ts', at: 'config.width', offset: 7 }, // member of an anonymous default object
    { file: 'src/main.ts', at: 'unknownMethod' }, // member of an unknown value
    { file: 'src/services/greeter.ts', at: 'format(\'{0}' }, // the template format
    { file: 'src/services/greeter.ts', at: 'formatNumber(points)' },
    { file: 'src/services/report.ts', at: 'map(format)', offset: 4 }, // the local arrow function
    { file: 'src/services/report.ts', at: 'utils.format', offset: 6 }, // namespace import of a barrel
    { file: 'src/services/report.ts', at: 'strings.format', offset: 8 }, // `export * as strings`
    { file: 'src/services/report.ts', at: 'UserStore.create', offset: 10 }, // static member
    { file: 'src/services/report.ts', at: 'Greeter.DEFAULT', offset: 8 }, // static of a default-exported class
    { file: 'src/services/report.ts', at: 'store.find', offset: 6 }, // method of a parameter: guesses
    { file: 'src/models/admin.ts', at: 'this.list()', offset: 5 }, // inherited from an imported class
    { file: 'src/components/App.tsx', at: '<Button', offset: 1 },
    { file: 'src/components/App.tsx', at: '<PrimaryButton', offset: 1 }, // default import of `export default Button`
    { file: 'src/components/App.tsx', at: 'Icons.Star', offset: 6 },
  ],
  'js-app': [
    { file: 'src/app.js', at: 'add(sum' },
    { file: 'src/app.js', at: 'fmt(total)' }, // renamed re-export, renamed import
    { file: 'src/app.js', at: 'lib.multiply', offset: 4 }, // `export { default as multiply } from`
    { file: 'src/app.js', at: 'times(3' }, // default import
    { file: 'src/app.js', at: 'Shape.create', offset: 6 },
    { file: 'src/app.js', at: 'shape.describe', offset: 6 }, // method of a parameter: guesses
    { file: 'src/shapes.js', at: 'super.describe', offset: 6 },
    { file: 'src/shapes.js', at: 'this.#id', offset: 5 },
    { file: 'src/cli.cjs', at: 'legacy.format', offset: 7 }, // require() + module.exports
    { file: 'src/cli.cjs', at: 'padLeft(\'!\'' }, // destructured require of a renamed export
    { file: 'src/cli.cjs', at: 'format(legacy' }, // the local arrow function
    { file: 'src/components/Card.jsx', at: '<Title', offset: 1 },
    { file: 'src/components/Card.jsx', at: 'format(width)' },
  ],
  'go-app': [
    { file: 'main.go', at: 'Config{', offset: 0 }, // same package, another file, no import
    { file: 'main.go', at: 'c.print()', offset: 2 }, // method through `c := Config{}`
    { file: 'main.go', at: 'c.Describe()', offset: 2 }, // method declared in another file than its type
    { file: 'main.go', at: 'cfg.Describe()', offset: 4 }, // result of a function of another file: a guess
    { file: 'main.go', at: 'geometry.Square', offset: 9 }, // package import
    { file: 'main.go', at: 's.Area()', offset: 2 }, // method of *Square through `s := &geometry.Square{}`
    { file: 'main.go', at: 'sh.Area()', offset: 3 }, // interface method through `var sh geometry.Shape`
    { file: 'main.go', at: 'geometry.Format(sh)', offset: 9 }, // homonym in another package
    { file: 'main.go', at: 'str.Format(format)', offset: 4 }, // aliased import
    { file: 'main.go', at: 'Format(3)' }, // the main package's own Format (helpers.go)
    { file: 'main.go', at: 'str.Separator', offset: 4 },
    { file: 'main.go', at: 'Meters(3)' }, // dot import
    { file: 'main.go', at: 'unknown().Area()', offset: 10 }, // result type of a function of this file
    { file: 'helpers.go', at: 'c.Name', offset: 2 }, // field through the receiver
    { file: 'helpers.go', at: 'return Format', offset: 7 }, // a local variable named Format
    { file: 'helpers.go', at: 'Format(1)' }, // the function: the local is declared after
    { file: 'geometry/circle.go', at: 'c.describe(), c.Area()', offset: 2 }, // promoted from an embedded struct
    { file: 'text/format_test.go', at: 'join(nil)' }, // unexported, same package, test file
    { file: 'cmd/tool/main.go', at: 'newConfig().name', offset: 0 }, // another main package
    { file: 'main.go', at: 'geometry.Unit()', offset: 9 }, // declared for two builds: a guess between both
  ],
  'java-app': [
    { file: 'src/main/java/com/example/app/App.java', at: 'new Service()', offset: 4 }, // same package, no import
    { file: 'src/main/java/com/example/app/App.java', at: 'Role.ADMIN', offset: 5 }, // wildcard import
    { file: 'src/main/java/com/example/app/App.java', at: 'Strings.format', offset: 8 }, // homonym
    { file: 'src/main/java/com/example/app/App.java', at: 'pad(format', offset: 0 }, // static import
    { file: 'src/main/java/com/example/app/App.java', at: 'Format.format(user)', offset: 7 }, // fully qualified name
    { file: 'src/main/java/com/example/app/App.java', at: 'service.greet', offset: 8 }, // field with a declared type
    { file: 'src/main/java/com/example/app/App.java', at: 'g.hello()', offset: 2 }, // interface method
    { file: 'src/main/java/com/example/app/App.java', at: 'this.count', offset: 5 }, // the field, not the local
    { file: 'src/main/java/com/example/app/App.java', at: 'log("count', offset: 0 }, // App's own log, not Base's
    { file: 'src/main/java/com/example/app/Service.java', at: 'log(user', offset: 0 }, // inherited from Base
    { file: 'src/main/java/com/example/app/Service.java', at: 'return name;', offset: 7 }, // the field
    { file: 'src/main/java/com/example/app/Service.java', at: 'name());', offset: 0 }, // the method, from an anonymous class
    { file: 'src/main/java/com/example/app/Service.java', at: 'calls = 0', offset: 0 }, // inherited field
    { file: 'src/main/java/com/example/model/User.java', at: 'case ADMIN', offset: 5 }, // enum constant of the switched value
    { file: 'src/main/java/com/example/model/Admin.java', at: 'label()', offset: 0 }, // method of an enum constant's enum
    { file: 'src/main/java/com/example/model/Role.java', at: 'toLowerCase', offset: 0 }, // unknown receiver: a guess
    { file: 'src/test/java/com/example/app/AppTest.java', at: 'App.main', offset: 4 }, // same package, other source tree
  ],
  'py-app': [
    { file: 'src/shop/services/report.py', at: 'format(p.price)' }, // `from ..pricing import format`
    { file: 'src/shop/services/report.py', at: 'render("{0}"' }, // inside method render: the import, not the method
    { file: 'src/shop/services/report.py', at: 'format(first)' }, // a parameter shadows the import
    { file: 'src/shop/services/report.py', at: 'text.join', offset: 5 }, // `from .. import text`: a submodule
    { file: 'src/shop/services/report.py', at: 'product.tag', offset: 8 }, // `x = Product()`: inherited from Item
    { file: 'src/shop/services/report.py', at: 'made.describe', offset: 5 }, // `make_product() -> Product`
    { file: 'src/shop/services/report.py', at: 'item.describe()', offset: 5 }, // a loop variable: guesses
    { file: 'src/shop/models.py', at: 'super().describe', offset: 8 },
    { file: 'src/shop/models.py', at: 'label.setter' }, // the class body's own name
    { file: 'src/shop/models.py', at: 'self.name.upper', offset: 5 }, // declared by `self.name =` in Item
    { file: 'src/shop/pricing.py', at: 'product.describe()\n', offset: 8 }, // `product: Product`
    { file: 'src/shop/pricing.py', at: 'RATE = 0.0' }, // `global RATE`
    { file: 'src/app.py', at: 'shop.pricing.format', offset: 13 }, // `import shop.pricing`
    { file: 'src/app.py', at: 'shop.util.strings.slug', offset: 18 }, // through a namespace package
    { file: 'src/app.py', at: 'template_format("{0}"' }, // `from shop import format` (shop: `from .text import *`)
    { file: 'src/app.py', at: 'Item("plain")' }, // `from shop.models import *`
    { file: 'src/app.py', at: 'unknown.describe', offset: 8 }, // unknown receiver: guesses
    { file: 'scripts/tool.py', at: 'helpers.shout', offset: 8 }, // the script's own directory
  ],
  'rust-app': [
    { file: 'src/lib.rs', at: 'format(c.area' }, // the crate root's own format
    { file: 'src/lib.rs', at: 'c.area', offset: 2 }, // `impl Shape for Circle`, Circle re-exported by `pub use`
    { file: 'src/lib.rs', at: 'geometry::format', offset: 10 }, // `mod geometry;` → geometry/mod.rs
    { file: 'src/lib.rs', at: 'Point::origin', offset: 7 }, // `use geometry::point::Point`
    { file: 'src/lib.rs', at: 's.describe()', offset: 2 }, // a closure parameter: guesses
    { file: 'src/shapes.rs', at: 'format(self.area', offset: 0 }, // inside format!(...): `use crate::format`
    { file: 'src/shapes.rs', at: 'Self::new', offset: 6 },
    { file: 'src/shapes.rs', at: 'self.radius +=', offset: 5 },
    { file: 'src/shapes.rs', at: 'corners: 4' }, // a field of an enum variant
    { file: 'src/util.rs', at: 'Circle::new(2.0)', offset: 8 }, // `use crate::shapes::*`
    { file: 'src/util.rs', at: 'c.grow', offset: 2 }, // `let c = Circle::new(..)`, `new() -> Self`
    { file: 'src/util.rs', at: 'q.norm()', offset: 2 }, // impl in another module (extra.rs)
    { file: 'src/util.rs', at: 'format(area)' }, // a local closure shadows util::format
    { file: 'src/util.rs', at: 'self::inner::helper', offset: 13 },
    { file: 'src/util.rs', at: 'format(&["a"' }, // inside `mod tests { use super::*; }`
    { file: 'src/extra.rs', at: 'self.distance', offset: 5 }, // `impl P` with `use ... Point as P`
    { file: 'src/main.rs', at: 'Circle::new', offset: 8 }, // the library crate by its package name
    { file: 'src/main.rs', at: 'rust_app::format', offset: 10 },
  ],
};

/** Names whose by-name definitions go into the golden file (homonyms across modules). */
export const BY_NAME: Record<string, string[]> = {
  'ts-app': ['format', 'find'],
  'js-app': ['format', 'describe'],
  'go-app': ['Format', 'Area', 'newConfig'],
  'java-app': ['format', 'name', 'log'],
  'py-app': ['format', 'describe', 'label'],
  'rust-app': ['format', 'area', 'new'],
};

export interface Golden {
  fixture: string;
  /** per file: `line:col kind Container.name` (+ ` exported` / ` default`), nested by indentation */
  outlines: Record<string, string[]>;
  /** per non-local definition `file:line:col Container.name`: `file:line:col kind confidence` */
  references: Record<string, string[]>;
  /** per usage site `file:line:col text`: the definitions `find_definitions({from})` returns */
  definitions_from: Record<string, string[]>;
  /** per name: the definitions `find_definitions({name})` returns */
  definitions_by_name: Record<string, string[]>;
}

export function fixtureNames(): string[] {
  return fs.readdirSync(FIXTURES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
}

export function goldenPath(fixture: string): string {
  return path.join(FIXTURES_DIR, `${fixture}.golden.json`);
}

/** Copies a fixture to a temp dir (the index is written into the project root) and indexes it. */
export async function openFixture(fixture: string): Promise<{ project: Project; dispose: () => void }> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `code-intel-golden-${fixture}-`)));
  fs.cpSync(path.join(FIXTURES_DIR, fixture), dir, { recursive: true, filter: (src) => path.basename(src) !== '.code-intel' });
  const project = new Project(dir);
  await project.refresh();
  return {
    project,
    dispose: () => {
      project.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** 1-based line and column of a site in the fixture's source. */
export function locate(project: Project, site: Site): { file: string; line: number; column: number } {
  const text = fs.readFileSync(path.join(project.root, site.file), 'utf8');
  const i = text.indexOf(site.at);
  if (i < 0) throw new Error(`'${site.at}' not found in ${site.file}`);
  const before = text.slice(0, i + (site.offset ?? 0));
  const line = before.split('\n').length;
  return { file: site.file, line, column: before.length - before.lastIndexOf('\n') };
}

const qualified = (name: string, container: string | null) => (container ? `${container}.${name}` : name);

export async function buildGolden(fixture: string): Promise<Golden> {
  const { project: p, dispose } = await openFixture(fixture);
  try {
    const files = (p.db.prepare('SELECT path FROM files WHERE language IS NOT NULL ORDER BY path').all() as { path: string }[]).map((f) => f.path);

    const outlines: Golden['outlines'] = {};
    for (const file of files) {
      const lines: string[] = [];
      const walk = (nodes: OutlineNode[], depth: number, container: string | null) => {
        for (const n of nodes) {
          const flags = n.exported ? ' exported' : '';
          lines.push(`${'  '.repeat(depth)}${n.line}:${n.column} ${n.kind} ${qualified(n.name, n.container ?? container)}${flags}`);
          walk(n.children, depth + 1, n.name);
        }
      };
      walk(getSymbols(p, { file, limit: 500, depth: 10 }).items, 0, null);
      outlines[file] = lines;
    }

    const references: Golden['references'] = {};
    const defs = p.db
      .prepare(
        `SELECT f.path, s.name, s.container_name, s.name_line, s.name_col FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.local = 0 ORDER BY f.path, s.name_line, s.name_col`,
      )
      .all() as { path: string; name: string; container_name: string | null; name_line: number; name_col: number }[];
    for (const d of defs) {
      const refs = findReferences(p, { file: d.path, line: d.name_line, column: d.name_col, limit: 500 });
      references[`${d.path}:${d.name_line}:${d.name_col} ${qualified(d.name, d.container_name)}`] = refs.items.map(
        (r) => `${r.file}:${r.line}:${r.column} ${r.kind} ${r.confidence}`,
      );
    }

    const definitions_from: Golden['definitions_from'] = {};
    for (const site of FROM_SITES[fixture] ?? []) {
      const at = locate(p, site);
      const key = `${at.file}:${at.line}:${at.column} ${site.at}`;
      try {
        const res = findDefinitions(p, { from: at, limit: 500 });
        definitions_from[key] = res.items.length
          ? res.items.map((d) => `${d.file}:${d.line}:${d.column} ${d.kind} ${qualified(d.name, d.container)} ${d.confidence}`)
          : [`(none: ${res.resolution})`];
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        definitions_from[key] = [`(error: ${e.message})`];
      }
    }

    const definitions_by_name: Golden['definitions_by_name'] = {};
    for (const name of BY_NAME[fixture] ?? []) {
      definitions_by_name[name] = findDefinitions(p, { name, limit: 500 }).items.map(
        (d) => `${d.file}:${d.line}:${d.column} ${d.kind} ${qualified(d.name, d.container)}`,
      );
    }

    return { fixture, outlines, references, definitions_from, definitions_by_name };
  } finally {
    dispose();
  }
}

export function readGolden(fixture: string): Golden {
  return JSON.parse(fs.readFileSync(goldenPath(fixture), 'utf8')) as Golden;
}

export function writeGolden(golden: Golden): void {
  fs.writeFileSync(goldenPath(golden.fixture), JSON.stringify(golden, null, 2) + '\n');
}
