/**
 * Hand-written expectations for Java on fixtures/java-app (sources that compile: `javac -d out
 * $(find . -name '*.java')` in a copy). Each one states what javac's name resolution says, and
 * fails if the engine regresses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { getSymbols } from '../src/query/outline.js';
import { Project } from '../src/project/project.js';
import { findReferences, type ReferenceOut } from '../src/query/references.js';
import { analyzeStructure } from '../src/query/structure.js';
import { FIXTURES_DIR, locate, openFixture } from './golden/golden.js';

let java: Project;
let dispose: () => void;
beforeAll(async () => {
  ({ project: java, dispose } = await openFixture('java-app'));
});
afterAll(() => dispose());

const MAIN = 'src/main/java/com/example';
const at = (file: string) => (file.startsWith('src/') ? file : `${MAIN}/${file}`);
const site = (file: string, text: string, offset = 0) => {
  const s = locate(java, { file: at(file), at: text, offset });
  return `${s.file}:${s.line}:${s.column}`;
};
const refsOf = (file: string, text: string, offset = 0): ReferenceOut[] =>
  findReferences(java, { ...locate(java, { file: at(file), at: text, offset }), limit: 500 }).items;
const where = (refs: ReferenceOut[]) => refs.map((r) => `${r.file}:${r.line}:${r.column}`);
const facts = (refs: ReferenceOut[]) => where(refs.filter((r) => r.confidence !== 'name_match'));
const defsFrom = (file: string, text: string, offset = 0) =>
  findDefinitions(java, { from: locate(java, { file: at(file), at: text, offset }) }).items.map(
    (d) => `${d.file.slice(MAIN.length + 1)}:${d.line} ${d.container ? d.container + '.' : ''}${d.name} ${d.confidence}`,
  );

describe('java-app: two static methods named format', () => {
  it('Strings.format (imported class) and Format.format (fully qualified) keep their own callers', () => {
    expect(facts(refsOf('util/Strings.java', 'format(String'))).toEqual([site('app/App.java', 'Strings.format', 8)]);
    expect(facts(refsOf('text/Format.java', 'format(User'))).toEqual([site('app/App.java', 'Format.format(user)', 7)]);
    expect(defsFrom('app/App.java', 'Format.format(user)', 7)).toEqual(['text/Format.java:6 Format.format imported']);
  });

  it('a local variable named format, a comment and a string are not references', () => {
    const all = where(refsOf('util/Strings.java', 'format(String')).concat(where(refsOf('text/Format.java', 'format(User')));
    expect(all).toHaveLength(2);
    expect(() => findDefinitions(java, { from: locate(java, { file: at('app/App.java'), at: 'pad(format', offset: 4 }) })).toThrow(/no indexed reference/);
  });
});

describe('java-app: overloads', () => {
  it('a call binds to the overload that takes its number of arguments, through a static import too', () => {
    expect(defsFrom('util/Strings.java', 'pad(value, 8)')).toEqual(['util/Strings.java:17 Strings.pad resolved']);
    expect(defsFrom('app/App.java', 'pad(format')).toEqual(['util/Strings.java:17 Strings.pad imported']);
    expect(defsFrom('src/test/java/com/example/app/AppTest.java', 'pad("x")')).toEqual(['util/Strings.java:9 Strings.pad imported']);
  });

  it('each overload keeps its own callers', () => {
    expect(where(refsOf('util/Strings.java', 'pad(String value) {')).filter((r) => !r.endsWith(':7:40'))).toEqual([
      site('src/test/java/com/example/app/AppTest.java', 'pad("x")'),
    ]);
    expect(where(refsOf('util/Strings.java', 'pad(String value, int')).filter((r) => !r.endsWith(':7:40'))).toEqual([site('util/Strings.java', 'pad(value, 8)'), site('app/App.java', 'pad(format')]);
    // `import static ...Strings.pad;` imports every overload: it is a reference of each
    for (const at of ['pad(String value) {', 'pad(String value, int']) expect(where(refsOf('util/Strings.java', at))).toContain(site('app/App.java', 'pad;'));
  });
});

describe('java-app: packages and imports', () => {
  it('classes of the same package need no import, also from the test source tree', () => {
    expect(defsFrom('app/App.java', 'new Service()', 4)).toEqual(['app/Service.java:5 Service resolved']);
    expect(defsFrom('src/test/java/com/example/app/AppTest.java', 'App.main', 4)).toEqual(['app/App.java:14 App.main resolved']);
    expect(where(refsOf('app/Service.java', 'greet(User'))).toContain(site('src/test/java/com/example/app/AppTest.java', 'greet(', 0));
  });

  it('single-type, on-demand (a.b.*) and static imports', () => {
    expect(defsFrom('app/App.java', 'new User', 4)).toEqual(['model/User.java:3 User imported']);
    expect(defsFrom('app/App.java', 'Role.ADMIN')).toEqual(['model/Role.java:3 Role imported']);
    expect(defsFrom('app/App.java', 'pad(format')).toEqual(['util/Strings.java:17 Strings.pad imported']);
  });

  it('names from java.lang are outside the project, not guesses', () => {
    const r = findDefinitions(java, { from: locate(java, { file: at('app/App.java'), at: 'System.out' }) });
    expect(r.items).toEqual([]);
    expect(r.resolution).not.toMatch(/guesses/);
  });
});

describe('java-app: members', () => {
  it('fields and methods resolve through declared types: fields, locals, this.x, parameters', () => {
    expect(defsFrom('app/App.java', 'service.greet', 8)).toEqual(['app/Service.java:13 Service.greet resolved']);
    expect(defsFrom('app/App.java', 'this.service.greet', 13)).toEqual(['app/Service.java:13 Service.greet resolved']);
    expect(defsFrom('app/App.java', 'g.hello()', 2)).toEqual(['app/Greeter.java:4 Greeter.hello resolved']);
    expect(defsFrom('app/Service.java', 'user.isAdmin', 5)).toEqual(['model/User.java:16 User.isAdmin imported']);
  });

  it('the local count hides the field; this.count is the field', () => {
    expect(where(refsOf('app/App.java', 'count;'))).toEqual([site('app/App.java', 'this.count', 5), site('app/App.java', 'count++')]);
  });

  it('an unqualified call is the class\'s own method, or one it inherits', () => {
    expect(defsFrom('app/App.java', 'log("count')).toEqual(['app/App.java:37 App.log resolved']);
    expect(defsFrom('app/Service.java', 'log(user')).toEqual(['app/Base.java:6 Base.log imported']);
    expect(defsFrom('app/Service.java', 'calls = 0')).toEqual(['app/Base.java:4 Base.calls imported']);
    expect(facts(refsOf('app/App.java', 'log(String'))).toEqual([site('app/App.java', 'log("count')]);
  });

  it('a member a nested class inherits hides the enclosing class\'s member of that name', () => {
    expect(defsFrom('app/Outer.java', 'check(); //')).toEqual(['app/Outer.java:9 Inner.check resolved']);
  });

  it('a field and a method may share a name: `name` and `name()` are different members', () => {
    expect(defsFrom('app/Service.java', 'return name;', 7)).toEqual(['app/Service.java:6 Service.name resolved']);
    expect(defsFrom('app/Service.java', 'name());')).toEqual(['app/Service.java:9 Service.name resolved']);
    const field = where(refsOf('app/Service.java', 'name = "service"'));
    expect(field).toEqual([site('app/Service.java', 'return name;', 7), site('app/Service.java', 'this.name', 5)]);
    // the method overrides Base.name(): a call in Base may run it
    expect(where(refsOf('app/Service.java', 'name() {'))).toContain(site('app/Base.java', 'name() +'));
  });

  it('enum constants: Role.ADMIN, `case ADMIN:` on a Role, and the constant\'s methods', () => {
    expect(where(refsOf('model/Role.java', 'ADMIN,'))).toEqual([
      site('model/Admin.java', 'ADMIN.label', 0), site('model/User.java', 'case ADMIN', 5), site('app/App.java', 'Role.ADMIN', 5),
    ]);
    expect(defsFrom('model/Admin.java', 'label()')).toEqual(['model/Role.java:6 Role.label resolved']);
  });

  it('records: components are fields of the record', () => {
    expect(defsFrom('model/Admin.java', 'user.getName', 0)).toEqual(['model/Admin.java:3 Admin.user resolved']);
    expect(defsFrom('model/Admin.java', 'user.getName', 5)).toEqual(['model/User.java:12 User.getName resolved']);
  });

  it('a receiver of unknown type stays a guess', () => {
    expect(defsFrom('model/Role.java', 'toLowerCase')).toEqual([]);
    const r = findDefinitions(java, { from: locate(java, { file: at('model/Role.java'), at: 'toLowerCase' }) });
    expect(r.resolution).toMatch(/unknown without a type checker/);
  });
});

describe('java-app: symbols and structure', () => {
  it('get_symbols nests members in their class, enum and record', () => {
    const service = getSymbols(java, { file: at('app/Service.java') }).items;
    expect(service.map((n) => `${n.kind} ${n.name}`)).toEqual(['class Service']);
    expect(service[0]!.children.map((n) => `${n.kind} ${n.name}`)).toEqual(['property name', 'method name', 'method greet', 'method greeter']);
    const role = getSymbols(java, { file: at('model/Role.java') }).items[0]!;
    expect(role).toMatchObject({ kind: 'enum', exported: true });
    expect(getSymbols(java, { file: at('model/Admin.java') }).items[0]!.kind).toBe('record');
  });

  it('analyze_structure lists written imports only', () => {
    const f = analyzeStructure(java, { path: at('app/App.java') });
    if (f.type !== 'file') throw new Error('expected a file');
    expect(f.imports.map((i) => `${i.source} ${i.names.join(',')} ${i.status}`)).toEqual([
      'com.example.model *,User resolved', 'com.example.util Strings resolved', 'com.example.util.Strings pad resolved',
    ]);
  });
});

describe('a mixed-language repository', () => {
  it('indexes Go, Java and TypeScript files in one pass', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-mixed-')));
    try {
      for (const name of ['go-app', 'java-app', 'ts-app']) fs.cpSync(path.join(FIXTURES_DIR, name), path.join(dir, name), { recursive: true });
      const p = new Project(dir);
      try {
        await p.refresh();
        const languages = (p.db.prepare('SELECT DISTINCT language FROM files WHERE language IS NOT NULL ORDER BY 1').all() as { language: string }[]).map((r) => r.language);
        expect(languages).toEqual(expect.arrayContaining(['go', 'java', 'typescript', 'tsx']));
        // the Go module lives in a subdirectory: its go.mod still anchors the import paths
        const defs = findDefinitions(p, { from: locate(p, { file: 'go-app/main.go', at: 'str.Format', offset: 4 }) }).items;
        expect(defs.map((d) => d.file)).toEqual(['go-app/text/format.go']);
        const java = findDefinitions(p, { from: locate(p, { file: 'java-app/src/main/java/com/example/app/App.java', at: 'pad(format' }) }).items;
        expect(java.map((d) => `${d.container}.${d.name}`)).toEqual(['Strings.pad']);
      } finally {
        p.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
