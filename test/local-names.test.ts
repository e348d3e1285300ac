/**
 * A function declared inside another one is found by name (and by Container.name), and said to be
 * local; so is an object built there that holds methods, and its methods are found like any member.
 * The object a declared function returns holds that function's members (a driver factory's methods).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { Project } from '../src/project/project.js';
import { findReferences } from '../src/query/references.js';
import { qualifiedName, symbolsByName } from '../src/query/symbols.js';
import { symbolLabel } from '../src/session/graph-relevance.js';
import { makeProject, removeProject } from './helpers/project.js';

let root: string;
let project: Project;
beforeAll(async () => {
  root = makeProject({
    'src/store.ts': [
      'export function createSetupStore(id: string) {',
      '  function wrapAction(name: string) {',
      '    return name + id;',
      '  }',
      '  return wrapAction("a") + wrapAction("b");',
      '}',
      '',
      '',
      'export function createStore(id: string) {',
      '',
      '  const options = { id, retries: 3 };',
      '  const partialStore = {',
      '    $id: id,',
      '    $subscribe(callback: () => void) {',
      '      return () => callback();',
      '    },',
      '    $dispose: function () {',
      '      return options.retries;',
      '    },',
      '    $reset: () => 0,',
      '  };',
      '  partialStore.$subscribe(() => {});',
      '  return partialStore;',
      '}',
      '',
    ].join('\n'),
    'src/driver.ts': [
      'export const redisDriver = (opts: { base: string }) => {',
      '  const p = (key: string) => opts.base + key;',
      '  return {',
      '    name: "redis",',
      '    async getItem(key: string) { return p(key); },',
      '    setItem: async (key: string) => p(key),',
      '  };',
      '};',
      'export function memoryDriver() {',
      '  const xs = [1].map((x) => ({ notAMember() { return x; } }));',
      '  return { hasItem: function (key: string) { return xs.length > key.length; } };',
      '}',
      'export const tiny = () => ({ clear() {} });',
      'export class Factory {',
      '  make() { return { fromAMethod() {} }; }',
      '}',
      'export function useDriver() {',
      '  return redisDriver({ base: "" }).getItem("k");',
      '}',
      '',
    ].join('\n'),
  });
  project = new Project(root);
  await project.refresh();
});
afterAll(() => {
  project.close();
  removeProject(root);
});

describe('names declared inside a function', () => {
  it('find_definitions finds them by name and by Container.name, and says they are local', () => {
    const byName = findDefinitions(project, { name: 'wrapAction' });
    expect(byName.items).toEqual([expect.objectContaining({ name: 'wrapAction', file: 'src/store.ts', line: 2 })]);
    expect(byName.resolution).toContain('local');
    expect(findDefinitions(project, { name: 'createSetupStore.wrapAction' }).items).toHaveLength(1);
    expect(findDefinitions(project, { name: 'nothingLikeThis' }).resolution).toContain('from');
    expect(byName.items[0]).toMatchObject({ local: true });
  });
  it('find_references by name reaches their uses', () => {
    const refs = findReferences(project, { name: 'wrapAction' });
    expect(refs.items.filter((r) => r.kind === 'call')).toHaveLength(2);
  });
});

describe('an object built inside a function that holds methods', () => {
  it('is stored with its members; methods written as functions are methods', () => {
    const sub = findDefinitions(project, { name: '$subscribe' });
    expect(sub.items).toEqual([expect.objectContaining({ name: '$subscribe', kind: 'method', container: 'partialStore', line: 14 })]);
    expect(findDefinitions(project, { name: 'partialStore.$dispose' }).items).toEqual([expect.objectContaining({ kind: 'method', line: 17 })]);
    expect(findDefinitions(project, { name: 'partialStore.$reset' }).items).toEqual([expect.objectContaining({ kind: 'method' })]);
    expect(findDefinitions(project, { name: 'partialStore.$id' }).items).toEqual([expect.objectContaining({ kind: 'property' })]);
    expect(findDefinitions(project, { name: 'partialStore' }).resolution).toContain('local');
  });
  it('its methods have their uses; an object that holds no method stays a local', () => {
    const refs = findReferences(project, { name: 'partialStore.$subscribe' });
    expect(refs.items.filter((r) => r.kind === 'call').map((r) => r.line)).toEqual([22]);
    expect(findDefinitions(project, { name: 'options' }).items).toEqual([]);
    expect(findDefinitions(project, { name: 'retries' }).items).toEqual([]);
  });
});

describe('the object a declared function returns', () => {
  it('holds the function\'s methods, written either way; its data properties are not symbols', () => {
    expect(findDefinitions(project, { name: 'redisDriver.getItem' }).items).toEqual([expect.objectContaining({ kind: 'method', container: 'redisDriver', line: 5 })]);
    expect(findDefinitions(project, { name: 'redisDriver.setItem' }).items).toEqual([expect.objectContaining({ kind: 'method', line: 6 })]);
    expect(findDefinitions(project, { name: 'memoryDriver.hasItem' }).items).toEqual([expect.objectContaining({ kind: 'method', line: 11 })]);
    expect(findDefinitions(project, { name: 'tiny.clear' }).items).toEqual([expect.objectContaining({ kind: 'method', line: 13 })]);
  });
  it('nor an object a callback returns, which belongs to nothing; an object a method returns is the method\'s (an ESLint rule\'s visitors, agent trial tr64)', () => {
    expect(findDefinitions(project, { name: 'notAMember' }).items).toEqual([]);
    expect(findDefinitions(project, { name: 'redisDriver.name' }).items).toEqual([]);
    expect(findDefinitions(project, { name: 'fromAMethod' }).items).toEqual([expect.objectContaining({ kind: 'method', container: 'make', line: 15 })]);
  });
});

describe('a named function passed as an argument (agent trials tr86, tr88)', () => {
  it("is found by its own name — nitro's `export default defineNitroErrorHandler(function defaultNitroErrorHandler() {…})`", async () => {
    const dir = makeProject({
      'src/error.ts': [
        'export function defineNitroErrorHandler<T>(handler: T): T {',
        '  return handler;',
        '}',
        'export default defineNitroErrorHandler(',
        '  function defaultNitroErrorHandler(error: { statusCode: number }) {',
        '    return error.statusCode === 404 ? "not found" : "error";',
        '  }',
        ');',
        'export const names = ["a"].map(function toUpper(s) { return s.toUpperCase(); });',
        'export const anon = ["b"].map(function () { return 1; });',
        '',
      ].join('\n'),
    });
    const p = new Project(dir);
    try {
      await p.refresh();
      const d = findDefinitions(p, { name: 'defaultNitroErrorHandler' });
      expect(d.items.map((i) => [i.file, i.line, i.kind])).toEqual([['src/error.ts', 5, 'function']]);
      expect(findDefinitions(p, { name: 'toUpper' }).items).toHaveLength(1);
      // the name binds only inside the function: a use of it elsewhere is none of it
      expect(findDefinitions(p, { name: 'default' }).items.map((i) => i.line)).toEqual([4]);
    } finally {
      p.close();
      removeProject(dir);
    }
  });
});

describe('a whole CommonJS module taken under a name (agent trial tr90)', () => {
  it("is its default where that is all it exports: koa's `const isStream = require('./is-stream')`", async () => {
    const dir = makeProject({
      'lib/is-stream.js': "'use strict'\nmodule.exports = (stream) => {\n  return stream !== null && typeof stream.pipe === 'function'\n}\n",
      'lib/helpers.js': "'use strict'\nexports.a = () => 1\nexports.b = () => 2\n",
      'lib/response.js': "'use strict'\nconst isStream = require('./is-stream')\nconst helpers = require('./helpers')\nmodule.exports = {\n  check (v) {\n    return isStream(v) && helpers.a()\n  }\n}\n",
    });
    const p = new Project(dir);
    try {
      await p.refresh();
      expect(findDefinitions(p, { name: 'isStream' }).items.map((i) => [i.file, i.line])).toEqual([['lib/is-stream.js', 2]]);
      // a module of several exports is no one function
      expect(findDefinitions(p, { name: 'helpers' }).items).toEqual([]);
    } finally {
      p.close();
      removeProject(dir);
    }
  });
});

describe('a member of an anonymous default export, by the name its module is imported as (red team adv80)', () => {
  it("koa's `request.is` and `response.is`, both `default.is` to the index, are told apart", async () => {
    const dir = makeProject({
      'lib/request.js': "'use strict'\nmodule.exports = {\n  is (type) {\n    return type === 'json'\n  }\n}\n",
      'lib/response.js': "'use strict'\nmodule.exports = {\n  get status () { return 200 },\n  is (type) {\n    return type === 'html'\n  }\n}\n",
      'lib/application.js': "'use strict'\nconst request = require('./request')\nconst response = require('./response')\nmodule.exports = { run () { return request.is('json') && response.is('html') } }\n",
    });
    const p = new Project(dir);
    try {
      await p.refresh();
      expect(findDefinitions(p, { name: 'request.is' }).items.map((i) => [i.file, i.line])).toEqual([['lib/request.js', 3]]);
      expect(findDefinitions(p, { name: 'ctx.response.is' }).items.map((i) => [i.file, i.line])).toEqual([['lib/response.js', 4]]);
      expect(findDefinitions(p, { name: 'default.is' }).items).toHaveLength(2);
      const rows = symbolsByName(p, 'response.is');
      expect(rows.map((r) => qualifiedName(p, r))).toEqual(['response.is']);
      expect(symbolLabel(p.db, rows[0]!.id)).toBe('response.is (lib/response.js)');
      // a name nothing imports the module as qualifies nothing
      expect(findDefinitions(p, { name: 'reply.is' }).items).toEqual([]);
    } finally {
      p.close();
      removeProject(dir);
    }
  });
});
