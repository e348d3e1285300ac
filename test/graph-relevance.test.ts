/** Relevance through the code graph: one step from a seed is the accepted tier, never FACT; unlinked code gets nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../src/project/project.js';
import { symbolsByName } from '../src/query/symbols.js';
import { linkDirection, linkedScore, linkToSeeds, linkWords, personalizedRank, propagationCutoff, symbolLabel } from '../src/session/graph-relevance.js';
import { makeProject, removeProject } from './helpers/project.js';
import { readWhole } from './helpers/session.js';

let root: string;
let project: Project;
const id = (name: string) => symbolsByName(project, name, { includeLocal: true })[0]!.id;

beforeAll(async () => {
  root = makeProject({
    'src/reset.ts': `import { helper } from './helper';\nexport function resetStore(): void {\n  helper();\n}\n`,
    'src/helper.ts': `import { deep } from './deep';\nexport function helper(): void {\n  deep();\n}\n`,
    'src/deep.ts': `export function deep(): number {\n  return 1;\n}\n`,
    'src/other.ts': `export class Unrelated {\n  run(): number {\n    return 2;\n  }\n}\n`,
    'src/keys.ts': `export function escapeKey(k: string): string {\n  return k;\n}\n`,
    'src/cached.ts': [
      `import { escapeKey } from './keys';`,
      `export function defineCached(handler: () => string) {`,
      `  const cacheOpts = {`,
      `    getCacheKey: (path: string) => escapeKey(path),`,
      `    validateEntry: () => true,`,
      `  };`,
      `  return () => handler() + cacheOpts.getCacheKey('x');`,
      `}`,
      ``,
    ].join('\n'),
    'src/track.ts': [
      `import { deep } from './deep';`,
      `export class Reaction {`,
      `  track(fn: () => void) {`,
      `    const runner = () => { deep(); fn(); };`,
      `    function inner() { return deep(); }`,
      `    return runner() ?? inner();`,
      `  }`,
      `  dispose() {}`,
      `}`,
      ``,
    ].join('\n'),
    // a call on a value of no known type (the index can only guess it) of the one method so named
    // a method installed under a symbol key, called through an instance of no known type (agent trial tr127: pino's child)
    'src/levels.js': "export function setLevel(level) {\n  this.level = level;\n}\n",
    'src/proto.js': "import { setLevel } from './levels';\nconst setLevelSym = Symbol('setLevel');\nexport const prototype = {\n  [setLevelSym]: setLevel,\n};\nexport function child(opts) {\n  const instance = Object.create(this);\n  instance[setLevelSym](opts.level);\n  return instance;\n}\n",
    'src/cancel.js': 'export class CancelToken {\n  toAbortSignal() {\n    return null;\n  }\n  forEach() {}\n  destroy() {}\n}\n',
    'src/adapter.js': [
      `export default function fetchAdapter(config) {`,
      `  const { cancelToken } = config;`,
      `  const run = () => cancelToken.destroy();`,
      `  config.items.forEach(run);`,
      `  return cancelToken && cancelToken.toAbortSignal();`,
      `}`,
      ``,
    ].join('\n'),
    // a call of a base method runs its overrides (agent trial tr115: Session.send → BaseAdapter.send → HTTPAdapter.send)
    'src/adapters.py': 'class BaseAdapter:\n    def send(self, request):\n        raise NotImplementedError\n\n    def close(self):\n        pass\n\n\nclass HTTPAdapter(BaseAdapter):\n    def send(self, request):\n        return request\n\n    def close(self):\n        pass\n',
    'src/sessions.py': 'from .adapters import BaseAdapter\n\n\nclass Session:\n    def send(self, request, adapter: BaseAdapter):\n        return adapter.send(request)\n',
    // a field one method sets and another reads (agent trials tr122, tr123: commander's option.mandatory, _passThroughOptions)
    'src/cmd.js': [
      `export class Opt {`,
      `  constructor() { this.required = false; this.label = ''; }`,
      `  makeRequired() { this.required = true; return this; }`,
      `}`,
      `export class Cmd {`,
      `  constructor() { this._passThrough = false; this.options = []; this.label = ''; }`,
      `  passThrough() { this._passThrough = true; return this; }`,
      `  parse(args) { return this._passThrough ? args : []; }`,
      `  checkMissing() { for (const o of this.options) if (o.required) throw new Error(o.label); }`,
      `  help() { return 'help ' + this.label; }`,
      `  rename(n) { this.name = n; }`,
      `  title() { return this.name; }`,
      `}`,
      ``,
    ].join('\n'),
    'src/params.ts': [
      `export class RouteParams {`,
      `  values: string[] = [];`,
      `  add(v: string) { this.values.push(v); }`,
      `}`,
      `export class Ctx { params = new RouteParams(); }`,
      `export function findRoute(ctx: Ctx, v: string): void {`,
      `  ctx.params.values = [...ctx.params.values, v];`,
      `}`,
      `export function countAdds(ctx: Ctx): void { ctx.params.add('x'); }`,
      `export function firstValue(ctx: Ctx): string | undefined { return ctx.params.values[0]; }`,
      ``,
    ].join('\n'),
  });
  project = new Project(root);
  await project.refresh();
});
afterAll(() => {
  project.close();
  removeProject(root);
});

describe('graph relevance', () => {
  it('finds a seed one step away, through references in either direction and containment', () => {
    const seeds = new Set([id('resetStore')]);
    expect(linkToSeeds(project.db, id('helper'), seeds, 1)).toMatchObject({ seed: id('resetStore'), hops: 1 });
    expect(linkToSeeds(project.db, id('deep'), seeds, 1)).toBeUndefined(); // two steps away
    expect(linkToSeeds(project.db, id('deep'), seeds, 2)).toMatchObject({ hops: 2 });
    expect(linkToSeeds(project.db, id('Unrelated.run'), new Set([id('Unrelated')]), 1)).toMatchObject({ hops: 1 }); // a member and its class
    expect(linkToSeeds(project.db, id('Unrelated'), seeds, 2)).toBeUndefined();
    expect(symbolLabel(project.db, id('Unrelated.run'))).toBe('Unrelated.run');
  });
  it('counts a write to a data member as a step to the type that holds it, and not a read or a method call', () => {
    // findRoute writes ctx.params.values: one step to RouteParams, both ways
    expect(linkToSeeds(project.db, id('RouteParams'), new Set([id('findRoute')]), 1)).toMatchObject({ seed: id('findRoute'), hops: 1 });
    expect(linkToSeeds(project.db, id('findRoute'), new Set([id('RouteParams')]), 1)).toMatchObject({ hops: 1 });
    // calling a method links to the method (one step), the method to its class (another)
    expect(linkToSeeds(project.db, id('RouteParams'), new Set([id('countAdds')]), 1)).toBeUndefined();
    // reading a field: an options type read everywhere would link to everything
    expect(linkToSeeds(project.db, id('RouteParams'), new Set([id('firstValue')]), 1)).toBeUndefined();
  });
  it('links the code that sets a field one class writes to the code that reads it, and not through an initialiser, a shared name or a built-in one', () => {
    const db = project.db;
    expect(linkToSeeds(db, id('Cmd.parse'), new Set([id('Cmd.passThrough')]), 1)).toMatchObject({ hops: 1 });
    expect(linkToSeeds(db, id('Cmd.passThrough'), new Set([id('Cmd.parse')]), 1)).toMatchObject({ hops: 1 });
    expect(linkWords(db, id('Cmd.passThrough'), id('Cmd.parse'), linkDirection(db, id('Cmd.passThrough'), id('Cmd.parse')))).toBe('Cmd.passThrough sets the field `_passThrough`, which Cmd.parse reads');
    // across classes: a value of no known type read in Cmd, the field only Opt writes
    expect(linkToSeeds(db, id('Cmd.checkMissing'), new Set([id('Opt.makeRequired')]), 1)).toMatchObject({ hops: 1 });
    // the constructor's default is no data path; `label` is written in two classes; `name` is every function's
    expect(linkToSeeds(db, id('Cmd.parse'), new Set([id('Cmd.constructor')]), 1)).toBeUndefined();
    expect(linkToSeeds(db, id('Cmd.help'), new Set([id('Opt.makeRequired')]), 1)).toBeUndefined();
    expect(linkToSeeds(db, id('Cmd.title'), new Set([id('Cmd.rename')]), 1)).toBeUndefined();
  });
  it('counts what a closure calls as called by the declaration that holds it', () => {
    const seeds = new Set([id('Reaction.track')]);
    // deep() is called only inside the closures runner and inner: one step from track, both ways
    expect(linkToSeeds(project.db, id('deep'), seeds, 1)).toMatchObject({ seed: id('Reaction.track'), hops: 1 });
    expect(linkToSeeds(project.db, id('Reaction.track'), new Set([id('deep')]), 1)).toMatchObject({ hops: 1 });
    // a local is part of its owner, and not of the class around the owner
    expect(linkToSeeds(project.db, id('runner'), seeds, 1)).toMatchObject({ hops: 1 });
    expect(linkToSeeds(project.db, id('runner'), new Set([id('Reaction.dispose')]), 1)).toBeUndefined();
    const order = personalizedRank(project.db, new Map([[id('Reaction.track'), 1]])).map((x) => x.id);
    expect(order.indexOf(id('deep'))).toBeGreaterThanOrEqual(0);
  });
  it('counts what a method of an object built in a body calls as called by the function that builds it (agent trial tr46)', () => {
    // escapeKey is called only in getCacheKey, a method of the object literal cacheOpts inside defineCached
    expect(linkToSeeds(project.db, id('escapeKey'), new Set([id('defineCached')]), 1)).toMatchObject({ seed: id('defineCached'), hops: 1 });
    expect(linkToSeeds(project.db, id('defineCached'), new Set([id('escapeKey')]), 1)).toMatchObject({ hops: 1 });
    const order = personalizedRank(project.db, new Map([[id('defineCached'), 1]])).map((x) => x.id);
    expect(order.indexOf(id('escapeKey'))).toBeGreaterThanOrEqual(0);
  });
  it('links a call the index could only guess to the one method of a specific name, and not a built-in member or a plain word (agent trial tr97)', () => {
    const adapter = new Set([id('fetchAdapter')]);
    expect(linkToSeeds(project.db, id('CancelToken.toAbortSignal'), adapter, 1)).toMatchObject({ seed: id('fetchAdapter'), hops: 1 });
    expect(linkToSeeds(project.db, id('fetchAdapter'), new Set([id('CancelToken.toAbortSignal')]), 1)).toMatchObject({ hops: 1 });
    expect(linkDirection(project.db, id('fetchAdapter'), id('CancelToken.toAbortSignal'))).toBe('down');
    // `items.forEach(…)` is most likely an array's; `destroy` (from a closure) is one word many things have
    expect(linkToSeeds(project.db, id('CancelToken.forEach'), adapter, 1)).toBeUndefined();
    expect(linkToSeeds(project.db, id('CancelToken.destroy'), adapter, 1)).toBeUndefined();
    expect(personalizedRank(project.db, new Map([[id('fetchAdapter'), 1]])).map((r) => r.id)).toContain(id('CancelToken.toAbortSignal'));
  });
  it('links a call through a computed key to the member so keyed, and to the function it holds (agent trials tr127, tr134)', () => {
    expect(linkToSeeds(project.db, id('child'), new Set([id('prototype.[setLevelSym]')]), 1)).toMatchObject({ hops: 1 });
    expect(linkToSeeds(project.db, id('prototype.[setLevelSym]'), new Set([id('child')]), 1)).toMatchObject({ hops: 1 });
    // the call through the key is a call of the function the key holds, both ways (agent trial tr134 still had child refused)
    expect(linkToSeeds(project.db, id('child'), new Set([id('setLevel')]), 1)).toMatchObject({ hops: 1 });
    expect(linkToSeeds(project.db, id('setLevel'), new Set([id('child')]), 1)).toMatchObject({ hops: 1 });
    expect(linkWords(project.db, id('setLevel'), id('child'), linkDirection(project.db, id('setLevel'), id('child')))).toBe('child uses setLevel');
  });
  it('links a call of a base method to the methods that override it, and not to their siblings (agent trial tr115)', () => {
    const http = symbolsByName(project, 'send', { includeLocal: true }).find((r) => r.container_name === 'HTTPAdapter')!.id;
    const close = symbolsByName(project, 'close', { includeLocal: true }).find((r) => r.container_name === 'HTTPAdapter')!.id;
    const session = symbolsByName(project, 'send', { includeLocal: true }).find((r) => r.container_name === 'Session')!.id;
    expect(linkToSeeds(project.db, http, new Set([session]), 1)).toMatchObject({ seed: session, hops: 1 });
    expect(linkToSeeds(project.db, session, new Set([http]), 1)).toMatchObject({ seed: http, hops: 1 });
    expect(linkDirection(project.db, session, http)).toBe('down');
    expect(linkToSeeds(project.db, close, new Set([session]), 1)).toBeUndefined();
  });

  it('propagates from the seeds over every path: nearer first, nothing where no path leads', () => {
    const order = personalizedRank(project.db, new Map([[id('resetStore'), 1]])).map((x) => x.id);
    expect(order.indexOf(id('helper'))).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(id('helper'))).toBeLessThan(order.indexOf(id('deep')));
    expect(order).not.toContain(id('Unrelated.run'));
    expect(order).not.toContain(id('resetStore')); // the seeds themselves are not listed
    expect(personalizedRank(project.db, new Map())).toEqual([]);
    // the cutoff is a share of the project: the best one of a tiny project, at most ten
    expect([5, 60, 245, 5000].map(propagationCutoff)).toEqual([1, 6, 10, 10]);
  });
  it('a link earns the accepted tier at most', () => {
    expect(linkedScore(1, 1)).toBeGreaterThanOrEqual(0.3);
    expect(linkedScore(1, 1)).toBeLessThanOrEqual(0.6);
    expect(linkedScore(0.4, 1)).toBeGreaterThanOrEqual(0.3);
    expect(linkedScore(0.4, 2)).toBe(0);
  });
});

describe('the graph leg in confirm_symbol_relevance', () => {
  it('accepts a linked symbol with the path, keeps it accepted across a return to EXPLORATION, rejects an unlinked one', async () => {
    const { SAMPLE } = await import('./helpers/project.js');
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { findReferences } = await import('../src/query/references.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const dir = makeProject({ ...SAMPLE, 'src/basket.ts': 'export class Basket {\n  add(cents: number): number {\n    return cents;\n  }\n}\n' });
    const p = new Project(dir);
    await p.refresh();
    const sessions = new SessionService(p);
    const understand = (extra: Record<string, unknown> = {}) => {
      sessions.record('find_definitions', { name: 'formatPrice' }, { ...findDefinitions(p, { name: 'formatPrice' }) });
      sessions.record('get_symbols', { file: 'src/util/format.ts' }, { ...getSymbols(p, { file: 'src/util/format.ts' }) }); readWhole(sessions, 'src/util/format.ts'); // a definition row names its file
      sessions.record('find_references', { name: 'Cart' }, { ...findReferences(p, { name: 'Cart' }) });
      sessions.record('get_symbols', { file: 'src/cart.ts' }, { ...getSymbols(p, { file: 'src/cart.ts' }) }); readWhole(sessions, 'src/cart.ts');
      sessions.record('get_symbols', { file: 'src/basket.ts' }, { ...getSymbols(p, { file: 'src/basket.ts' }) }); readWhole(sessions, 'src/basket.ts');
      return sessions.submitUnderstanding({
        symbols_identified: ['Cart.total', 'formatPrice', 'Basket'], entry_points: ['Cart.total()'],
        existing_patterns: ['fluent methods returning this, like Cart.add'], files_analyzed: ['src/cart.ts', 'src/util/format.ts'], ...extra,
      });
    };
    sessions.start('IMPLEMENT', 'カートの合計に消費税を加える処理を追加して');
    sessions.setQueryFrame({ target_feature: { value: 'カートの合計', quote: 'カートの合計' } });
    understand();
    await sessions.validateRelevance('カートの合計', ['Cart.total', 'formatPrice', 'Basket']);
    const first = await sessions.confirmRelevance([
      { symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' },
      { symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' },
      { symbol: 'Basket', approved: true, code_evidence: 'src/basket.ts:1' },
    ]);
    // the link said as what it is, which way it runs (an arrow was read as a call either way: tr118)
    expect(first.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'formatPrice', tier: 'ACCEPTED_HIGH_RISK', via: 'linked through the code: Cart.total uses formatPrice' })]));
    expect(first.rejected).toEqual([expect.objectContaining({ symbol: 'Basket' })]);
    expect(first.next_phase).toBe('EXPLORATION');
    // second pass: formatPrice again, alone — it stays accepted (it is no longer its own link)
    understand({ symbols_identified: ['Cart.total', 'formatPrice', 'Cart'], mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }] });
    await sessions.validateRelevance('カートの合計', ['formatPrice', 'Cart']);
    const second = await sessions.confirmRelevance([
      { symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' },
      { symbol: 'Cart', approved: true, code_evidence: '`export class Cart {` in src/cart.ts' },
    ]);
    expect(second).toMatchObject({ next_phase: 'READY', rejected: [] });
    p.close();
    removeProject(dir);
  });
});

describe('a chain of links keeps its way (red team adv27)', () => {
  it('from buildURL down through what it uses, not back up to another user of a shared helper', async () => {
    const files: Record<string, string> = {
      'src/buildURL.ts': "import { encodeParams } from './params';\nexport function buildURL(url: string, params: object): string {\n  return url + '?' + encodeParams(params);\n}\n",
      'src/params.ts': "import { toFormData } from './formdata';\nexport function encodeParams(p: object): string {\n  return String(toFormData(p));\n}\n",
      'src/formdata.ts': 'export function toFormData(o: object): object {\n  return { ...o };\n}\n',
      'src/transform.ts': "import { toFormData } from './formdata';\nexport function transformRequest(data: object): object {\n  return toFormData(data);\n}\n",
    };
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request: 'buildURL should accept a serializer function', target: 'buildURL', lookups: ['buildURL', 'toFormData'],
      entry_points: ['buildURL()'], patterns: ['encodeParams turns the params into text, as buildURL uses it'],
      claims: [
        { symbol: 'buildURL', approved: true, code_evidence: 'src/buildURL.ts:2' },
        { symbol: 'encodeParams', approved: true, code_evidence: 'src/params.ts:2' },
        { symbol: 'toFormData', approved: true, code_evidence: 'src/formdata.ts:1' },
        { symbol: 'transformRequest', approved: true, code_evidence: 'src/transform.ts:2' },
      ],
    });
    const accepted = (r.accepted as { symbol: string }[]).map((a) => a.symbol).sort();
    expect(accepted).toEqual(['buildURL', 'encodeParams', 'toFormData']);
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toEqual(['transformRequest']);
  });
});

describe('a caller a link reached does not bring in its other callees; links teach the cache nothing (red team adv28)', () => {
  it("from buildURL up to the adapter that calls it, not down to the adapter's proxy set-up; only buildURL is learned", async () => {
    const files: Record<string, string> = {
      'src/buildURL.ts': "import { encode } from './encode';\nexport function buildURL(url: string, params: object, paramsSerializer?: { serialize(p: object): string }): string {\n  return url + '?' + (paramsSerializer ? paramsSerializer.serialize(params) : encode(params));\n}\n",
      'src/encode.ts': 'export function encode(p: object): string {\n  return JSON.stringify(p);\n}\n',
      'src/adapter.ts': "import { buildURL } from './buildURL';\nexport function setProxy(o: { proxy?: string }): void {\n  o.proxy = 'http://proxy';\n}\nexport function dispatchRequest(config: { url: string; params: object }): string {\n  setProxy(config);\n  return buildURL(config.url, config.params);\n}\n",
    };
    let learned: string[] = [];
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request: 'buildURL should accept paramsSerializer given as a plain function', target: 'paramsSerializer', lookups: ['buildURL', 'dispatchRequest'],
      entry_points: ['buildURL()'], patterns: ['encode turns the params into text, as buildURL uses it'],
      claims: [
        { symbol: 'buildURL', approved: true, code_evidence: 'src/buildURL.ts:2' },
        { symbol: 'encode', approved: true, code_evidence: 'src/encode.ts:1' },
        { symbol: 'dispatchRequest', approved: true, code_evidence: 'src/adapter.ts:5' },
        { symbol: 'setProxy', approved: true, code_evidence: 'src/adapter.ts:2' },
      ],
      after: (sessions) => {
        sessions.store.setGuardValues({ seq: String(Number(sessions.store.guardValue('seq')) + 1) }); // (the change made in READY, as the guard counts it)
        sessions.end('success');
        learned = (sessions.engine.cache.db.prepare('SELECT DISTINCT symbol FROM nl_cache ORDER BY symbol').all() as { symbol: string }[]).map((e) => e.symbol);
      },
    });
    const accepted = (r.accepted as { symbol: string; link_direction?: string }[]);
    expect(accepted.map((a) => a.symbol).sort()).toEqual(['buildURL', 'dispatchRequest', 'encode']);
    expect(accepted.find((a) => a.symbol === 'dispatchRequest')?.link_direction).toBe('up');
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toEqual(['setProxy']);
    expect(r.next_phase).toBe('READY');
    // what words accepted teaches; what a link accepted (the adapter, the helper) does not
    expect(learned).toEqual(['buildURL']);
  });
});

describe('a helper at the end of a chain does not turn up to its callers beside it (red team adv30)', () => {
  it('back → redirect → set, then not up from set to append and attachment; one link from a seed the turn stays', async () => {
    const files: Record<string, string> = {
      'lib/response.js': [
        'export function set(field, val) {', '  this.header[field] = val;', '}',
        'export function append(field, val) {', '  set(field, val);', '}',
        'export function attachment(name) {', "  set('Content-Disposition', name);", '}',
        'export function redirect(url) {', "  set('Location', url);", '}',
        'export function back(alt) {', "  redirect(alt || '/');", '}',
        'export function vary(field) {', '  return field;', '}',
        'export function etag(v) {', '  return v;', '}',
        'export function status(code) {', '  return code;', '}',
      ].join('\n') + '\n',
    };
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request: 'back should redirect to a same-origin path of the Referer', target: 'back', lookups: ['back', 'redirect', 'set'],
      entry_points: ['back()'], patterns: ['redirect sets Location through set, as back uses it'],
      claims: [
        { symbol: 'back', approved: true, code_evidence: 'lib/response.js:13' },
        { symbol: 'redirect', approved: true, code_evidence: 'lib/response.js:10' },
        { symbol: 'set', approved: true, code_evidence: 'lib/response.js:1' },
        { symbol: 'append', approved: true, code_evidence: 'lib/response.js:4' },
        { symbol: 'attachment', approved: true, code_evidence: 'lib/response.js:7' },
      ],
    });
    const accepted = (r.accepted as { symbol: string; link_depth?: number }[]);
    expect(accepted.map((a) => a.symbol).sort()).toEqual(['back', 'redirect', 'set']);
    expect(accepted.find((a) => a.symbol === 'set')?.link_depth).toBe(2);
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol).sort()).toEqual(['append', 'attachment']);
  });
});

describe('an acceptance carries over to the same definition only (red team adv31)', () => {
  it('formatPrice accepted through Cart.total, cited again inside another formatPrice, is judged as that one', async () => {
    const { SAMPLE } = await import('./helpers/project.js');
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { findReferences } = await import('../src/query/references.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const dir = makeProject({ ...SAMPLE, 'scripts/legacy.ts': 'export function formatPrice(n: number): string {\n  return String(n);\n}\n' });
    const p = new Project(dir);
    try {
      await p.refresh();
      const sessions = new SessionService(p);
      const understand = (symbols: string[]) => {
        sessions.record('find_definitions', { name: 'formatPrice' }, { ...findDefinitions(p, { name: 'formatPrice' }) });
        sessions.record('find_references', { name: 'Cart' }, { ...findReferences(p, { name: 'Cart' }) });
        for (const f of ['src/util/format.ts', 'src/cart.ts', 'scripts/legacy.ts']) {
          sessions.record('get_symbols', { file: f }, { ...getSymbols(p, { file: f }) });
          readWhole(sessions, f);
        }
        return sessions.submitUnderstanding({
          symbols_identified: symbols, entry_points: ['Cart.total()'], existing_patterns: ['fluent methods returning this, like Cart.add'], files_analyzed: ['src/cart.ts', 'src/util/format.ts'],
          mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }],
        });
      };
      sessions.start('IMPLEMENT', 'カートの合計に消費税を加える処理を追加して');
      sessions.setQueryFrame({ target_feature: { value: 'カートの合計', quote: 'カートの合計' } });
      understand(['Cart.total', 'formatPrice', 'Cart']);
      await sessions.validateRelevance('カートの合計', ['Cart.total', 'formatPrice']);
      const first = await sessions.confirmRelevance([
        { symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' },
        { symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' },
      ]);
      expect(first.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'formatPrice', via: expect.stringContaining('Cart.total') })]));
      expect(first.next_phase).toBe('EXPLORATION'); // two of three
      // the same name, cited inside the other definition of it: not the one accepted
      understand(['Cart.total', 'formatPrice', 'Cart']);
      await sessions.validateRelevance('カートの合計', ['formatPrice']);
      const second = await sessions.confirmRelevance([{ symbol: 'formatPrice', approved: true, code_evidence: 'scripts/legacy.ts:1' }]);
      expect(second.accepted).toEqual([]);
      expect(second.rejected).toEqual([expect.objectContaining({ symbol: 'formatPrice' })]);
    } finally {
      p.close();
      removeProject(dir);
    }
  });
});

describe('a chain of links is bounded (red team adv32)', () => {
  it('two links up to callers of callers, no third', async () => {
    const files: Record<string, string> = {
      'src/core.ts': 'export function statusMessage(code: number): string {\n  return String(code);\n}\n',
      'src/c1.ts': "import { statusMessage } from './core';\nexport function create(n: number): string {\n  return statusMessage(n);\n}\n",
      'src/c2.ts': "import { create } from './c1';\nexport function instance(n: number): string {\n  return create(n);\n}\n",
      'src/c3.ts': "import { instance } from './c2';\nexport function api(n: number): string {\n  return instance(n);\n}\n",
      'test/leak.ts': "import { api } from '../src/c3';\nexport function isLeaking(): boolean {\n  return api(0) === '';\n}\n",
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/other${i}.ts`, `export function other${i}(n: number): number {\n  return n + ${i};\n}\n`])),
    };
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request: 'statusMessage should put the status text into the message', target: 'statusMessage', lookups: ['statusMessage', 'create', 'instance', 'api'],
      entry_points: ['statusMessage()'], patterns: ['create wraps statusMessage, as instance wraps create'],
      claims: [
        { symbol: 'statusMessage', approved: true, code_evidence: 'src/core.ts:1' },
        { symbol: 'create', approved: true, code_evidence: 'src/c1.ts:2' },
        { symbol: 'instance', approved: true, code_evidence: 'src/c2.ts:2' },
        { symbol: 'api', approved: true, code_evidence: 'src/c3.ts:2' },
        { symbol: 'isLeaking', approved: true, code_evidence: 'test/leak.ts:2' },
      ],
    });
    // create by its words (it calls statusMessage), then instance and api up two links; the test helper a third link up is not
    const accepted = r.accepted as { symbol: string; link_depth?: number }[];
    expect(accepted.map((a) => a.symbol).sort()).toEqual(['api', 'create', 'instance', 'statusMessage']);
    expect(accepted.find((a) => a.symbol === 'api')?.link_depth).toBe(2);
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toEqual(['isLeaking']);
  });
});

describe('a class accepted at risk HIGH does not vouch for all it holds (red team adv34)', () => {
  it("ky's Ky, accepted for the word 'ky', lets in the members that reach the timeout, not its private helpers", async () => {
    const files: Record<string, string> = {
      'source/errors/TimeoutError.ts': 'export class TimeoutError extends Error {\n  constructor(readonly request: Request) {\n    super(`Request timed out: ${request.url}`);\n  }\n}\n',
      'source/utils/timeout.ts': "import { TimeoutError } from '../errors/TimeoutError';\nexport async function timeout(request: Request, ms: number): Promise<Response> {\n  await new Promise((r) => setTimeout(r, ms));\n  throw new TimeoutError(request);\n}\n",
      'source/core/Ky.ts': [
        "import { timeout } from '../utils/timeout';",
        "import { TimeoutError } from '../errors/TimeoutError';",
        'export class Ky {',
        '  request = new Request("http://x");',
        '  async fetch(): Promise<Response> {',
        '    this.#cancelBody();',
        '    try {',
        '      return await timeout(this.request, this.#delay());',
        '    } catch (error) {',
        '      if (error instanceof TimeoutError) throw error;',
        '      throw new Error(String(error));',
        '    }',
        '  }',
        '  #cancelBody(): void {',
        '    this.request.body?.cancel();',
        '  }',
        '  #delay(): number {',
        '    return 10;',
        '  }',
        '  #normalizeSearchParams(p: string): string {',
        '    return p.trim();',
        '  }',
        '}',
      ].join('\n') + '\n',
      // enough declarations that the rank leg accepts the best four (Ky ranks fourth)
      ...Object.fromEntries(Array.from({ length: 17 }, (_, f) => [`source/other${f}.ts`, Array.from({ length: 10 }, (_, i) => `export function other${f}x${i}(n: number): number {\n  return n + ${i};\n}\n`).join('')])),
    };
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request: 'When a request times out, ky should throw a TimeoutError that includes the request', target: 'TimeoutError',
      quote: 'ky should throw a TimeoutError', lookups: ['Ky', 'TimeoutError', 'timeout'], entry_points: ['Ky.fetch()'], patterns: ['Ky.fetch wraps the request in timeout'],
      claims: [
        { symbol: 'TimeoutError', approved: true, code_evidence: 'source/errors/TimeoutError.ts:1' },
        { symbol: 'Ky', approved: true, code_evidence: 'source/core/Ky.ts:3' },
        { symbol: 'Ky.#cancelBody', approved: true, code_evidence: 'source/core/Ky.ts:15' },
        { symbol: 'Ky.#normalizeSearchParams', approved: true, code_evidence: 'source/core/Ky.ts:21' },
      ],
    });
    const accepted = r.accepted as { symbol: string; similarity: number }[];
    const ky = accepted.find((a) => a.symbol === 'Ky');
    expect(ky, JSON.stringify(r)).toBeDefined();
    expect(ky!.similarity).toBeLessThanOrEqual(0.6); // the case: a class the words accept at risk HIGH
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol).sort()).toEqual(['Ky.#cancelBody', 'Ky.#normalizeSearchParams']);
  });
});

describe('the rank leg takes no homonym the words say the target does not mean (red team adv32)', () => {
  it("NetworkError's constructor is not HTTPError's, however its code ranks", async () => {
    const files: Record<string, string> = {
      'source/errors/HTTPError.ts': 'export class HTTPError extends Error {\n  status: number;\n  constructor(status: number, statusText: string) {\n    super(`Request failed with status code ${status} ${statusText}`);\n    this.status = status;\n  }\n}\n',
      'source/errors/NetworkError.ts': 'export class NetworkError extends Error {\n  constructor(cause: Error) {\n    super(`Request failed: ${cause.message}`);\n  }\n}\n',
      ...Object.fromEntries(Array.from({ length: 44 }, (_, i) => [`source/utils/u${i}.ts`, Array.from({ length: 5 }, (_, j) => `export function util${i}x${j}(n: number): number {\n  return n * ${j + 1};\n}\n`).join('')])),
    };
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: "HTTPError's constructor() should put the status text into the message", target: "HTTPError's constructor()", lookups: ['HTTPError', 'NetworkError'],
      claims: [
        { symbol: 'HTTPError.constructor', approved: true, code_evidence: 'source/errors/HTTPError.ts:3' },
        { symbol: 'NetworkError.constructor', approved: true, code_evidence: 'source/errors/NetworkError.ts:2' },
      ],
    });
    expect((r.accepted as { symbol: string }[]).map((a) => a.symbol)).toEqual(['HTTPError.constructor']);
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toEqual(['NetworkError.constructor']);
  });
});

describe('an investigation grows its chain by the hops it cites (agent trial tr106)', () => {
  // subcommandsOf (the words) ← checkArgs ← locate ← entry → step → ready: the last three lie past the bound on a chain
  const files: Record<string, string> = {
    'src/subcommands.ts': 'export function subcommandsOf(c: { children: string[] }): number {\n  return c.children.length;\n}\n',
    'src/args.ts': "import { subcommandsOf } from './subcommands';\nexport function checkArgs(c: { children: string[] }, args: string[]): string | undefined {\n  if (subcommandsOf(c) === 0) return undefined;\n  return args[0];\n}\n",
    'src/locate.ts': "import { checkArgs } from './args';\nexport function locate(c: { children: string[] }, args: string[]): string | undefined {\n  return checkArgs(c, args);\n}\n",
    'src/run.ts': [
      "import { locate } from './locate';",
      'export function entry(c: { children: string[] }, args: string[]): string {',
      '  const found = locate(c, args);',
      '  return step(found);',
      '}',
      'export function step(found: string | undefined): string {',
      "  if (!ready(found)) return 'help';",
      "  return 'ran';",
      '}',
      'export function ready(found: string | undefined): boolean {',
      '  return found !== undefined;',
      '}',
    ].join('\n') + '\n',
    ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`src/util/u${i}.ts`, Array.from({ length: 4 }, (_, j) => `export function util${i}x${j}(n: number): number {\n  return n * ${j + 1};\n}\n`).join('')])),
  };
  const claims = [
    { symbol: 'subcommandsOf', approved: true, code_evidence: 'src/subcommands.ts:2' },
    { symbol: 'checkArgs', approved: true, code_evidence: 'src/args.ts:3' },
    { symbol: 'locate', approved: true, code_evidence: 'src/locate.ts:3' },
    { symbol: 'entry', approved: true, code_evidence: 'src/run.ts:3' },
    { symbol: 'step', approved: true, code_evidence: 'src/run.ts:4' },
    { symbol: 'ready', approved: true, code_evidence: 'src/run.ts:7' },
  ];
  const o = { request: 'Why does a command with subcommands show help for an unknown argument?', target: 'subcommands', lookups: ['subcommandsOf', 'checkArgs', 'locate', 'entry'] };

  it('INVESTIGATE: every step whose call line is cited stands', async () => {
    const r = await confirmOn(files, { intent: 'INVESTIGATE', ...o, claims });
    expect((r.accepted as { symbol: string }[]).map((a) => a.symbol).sort(), JSON.stringify(r.rejected)).toEqual(['checkArgs', 'entry', 'locate', 'ready', 'step', 'subcommandsOf']);
  });

  it('IMPLEMENT (code changes): the chain stays bounded, and the refusal says that a link exists', async () => {
    const r = await confirmOn(files, { intent: 'IMPLEMENT', ...o, claims, entry_points: ['entry()'], patterns: ['entry calls locate, which calls checkArgs'] });
    const rejected = r.rejected as { symbol: string; guidance: { reason: string } }[];
    expect(rejected.map((x) => x.symbol)).toEqual(['ready']);
  });
});

/**
 * An honest session over `files` up to one confirm_symbol_relevance: every file's outline, the
 * lookups named, the understanding and the validation, then the claims as given.
 */
async function confirmOn(files: Record<string, string>, o: {
  intent: 'IMPLEMENT' | 'MODIFY' | 'INVESTIGATE'; request: string; target: string; quote?: string; lookups: string[];
  claims: { symbol: string; approved: boolean; code_evidence?: string }[]; entry_points?: string[]; patterns?: string[];
  /** nl_term → symbol, for a session at risk HIGH (a MODIFY with the target slot alone) */
  mapped?: { nl_term: string; symbol: string }[];
  /** run on the session after the confirm, before the project closes */
  after?: (sessions: import('../src/session/service.js').SessionService) => void;
}): Promise<Record<string, unknown>> {
  const { SessionService } = await import('../src/session/service.js');
  const { getSymbols } = await import('../src/query/outline.js');
  const { findDefinitions } = await import('../src/query/definitions.js');
  const { findReferences } = await import('../src/query/references.js');
  const dir = makeProject(files);
  const p = new Project(dir);
  try {
    await p.refresh();
    const sessions = new SessionService(p);
    sessions.start(o.intent, o.request);
    sessions.setQueryFrame({ target_feature: { value: o.target, quote: o.quote ?? o.target } });
    for (const f of Object.keys(files)) {
      sessions.record('get_symbols', { file: f }, { ...getSymbols(p, { file: f }) });
      readWhole(sessions, f);
    }
    for (const name of o.lookups) {
      sessions.record('find_definitions', { name }, { ...findDefinitions(p, { name }) });
      sessions.record('find_references', { name }, { ...findReferences(p, { name }) });
    }
    const symbols = o.claims.map((c) => c.symbol);
    sessions.submitUnderstanding({ symbols_identified: symbols, entry_points: o.entry_points ?? [], existing_patterns: o.patterns ?? [], files_analyzed: Object.keys(files), ...(o.mapped ? { mapped_symbols: o.mapped } : {}) });
    await sessions.validateRelevance(o.target, symbols);
    const r = await sessions.confirmRelevance(o.claims);
    o.after?.(sessions);
    return r;
  } finally {
    p.close();
    removeProject(dir);
  }
}

/** The file of the definition a confirm accepted for a claimed name. */
const acceptedFile = (r: Record<string, unknown>, symbol: string) => (r.accepted as { symbol: string; file?: string }[]).find((a) => a.symbol === symbol)?.file;

describe('evidence inside a symbol accepted in the same pass', () => {
  it('accepts a chain the agent traced from an accepted symbol, in one confirm, whatever the order', async () => {
    const files: Record<string, string> = {
      'src/cached.ts': [
        "import { clearObserving } from './derivation';",
        'export class CachedValue {',
        '  value: unknown = 1;',
        '  suspend(): void {',
        '    clearObserving(this);',
        '    this.value = undefined;',
        '  }',
        '}',
      ].join('\n') + '\n',
      'src/derivation.ts': [
        "import { removeObserver } from './observable';",
        'export function clearObserving(d: { deps?: object[] }): void {',
        '  for (const o of d.deps ?? []) removeObserver(o);',
        '}',
      ].join('\n') + '\n',
      'src/observable.ts': [
        'const pending: object[] = [];',
        'export function removeObserver(o: object): void {',
        '  queueForUnobservation(o);',
        '}',
        'export function queueForUnobservation(o: object): void {',
        '  pending.push(o);',
        '}',
      ].join('\n') + '\n',
      'src/log.ts': 'export function formatLog(line: string): string {\n  return `[log] ${line}`;\n}\n',
    };
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'how is a cached value discarded once nothing observes it', target: 'cached value', lookups: ['clearObserving'],
      claims: [
        // listed before the method that makes them relevant: the order must not matter
        { symbol: 'queueForUnobservation', approved: true, code_evidence: 'src/observable.ts:5' },
        { symbol: 'removeObserver', approved: true, code_evidence: 'src/derivation.ts:3' }, // a call inside clearObserving
        { symbol: 'clearObserving', approved: true, code_evidence: 'src/cached.ts:5' }, // a call inside CachedValue.suspend, no target word on it
        { symbol: 'CachedValue.suspend', approved: true, code_evidence: 'src/cached.ts:4' },
        { symbol: 'formatLog', approved: true, code_evidence: 'src/cached.ts:5' }, // a line that does not use it
      ],
    });
    const acceptedNames = (r.accepted as { symbol: string }[]).map((a) => a.symbol).sort();
    expect(acceptedNames).toEqual(['CachedValue.suspend', 'clearObserving', 'queueForUnobservation', 'removeObserver']);
    expect(r.rejected).toEqual([expect.objectContaining({ symbol: 'formatLog', guidance: expect.objectContaining({ reason: expect.stringContaining("is neither inside formatLog's definition nor a use of it") }) })]);
    expect(r.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'queueForUnobservation', tier: 'ACCEPTED_HIGH_RISK', via: expect.stringContaining('removeObserver') })]));
  });
});

describe('a use cited as evidence (agent trial tr33: a line calling checkArguments was "not about" it)', () => {
  const files: Record<string, string> = {
    'src/rules/radix.ts': [
      'export function isValidRadix(radix: number): boolean {',
      '  return radix >= 2 && radix <= 36;',
      '}',
      'export function create(report: (m: string) => void) {',
      '  function checkArguments(args: number[]): void {',
      "    if (args.length === 1) report('missingRadix');",
      '  }',
      '  return {',
      '    onExit(args: number[]): void {',
      '      checkArguments(args);',
      "      if (!isValidRadix(args[1] ?? 10)) report('invalidRadix');",
      '    },',
      '  };',
      '}',
    ].join('\n') + '\n',
    'src/rules/dot.ts': [
      "import { getStaticPropertyName } from '../utils/ast';",
      'export function checkDot(n: { name: string }): string {',
      '  return getStaticPropertyName(n);',
      '}',
    ].join('\n') + '\n',
    'src/utils/ast.ts': 'export function getStaticPropertyName(n: { name: string }): string {\n  return n.name;\n}\n',
  };
  it('counts a use inside the file the target names as the feature\'s code, and says where another use is', async () => {
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'How does The `radix` rule check the arguments of a call?', target: 'The `radix` rule', lookups: ['checkArguments', 'getStaticPropertyName'],
      claims: [
        { symbol: 'isValidRadix', approved: true, code_evidence: 'src/rules/radix.ts:2' },
        { symbol: 'checkArguments', approved: true, code_evidence: 'src/rules/radix.ts:10' }, // its call, in the rule's file
        { symbol: 'getStaticPropertyName', approved: true, code_evidence: 'src/rules/dot.ts:3' }, // its call, in another rule
      ],
    });
    const names = (r.accepted as { symbol: string }[]).map((a) => a.symbol).sort();
    expect(names).toEqual(['checkArguments', 'isValidRadix']);
    expect(r.rejected).toEqual([expect.objectContaining({
      symbol: 'getStaticPropertyName',
      guidance: expect.objectContaining({ reason: expect.stringContaining("uses getStaticPropertyName, but inside checkDot, which is neither named by nor accepted for 'The `radix` rule'") }),
    })]);
  });
});

describe('a kebab-case file the target names (red team adv10: "no-var\'s autofix" did not name lib/rules/no-var.js)', () => {
  it('a use inside it is the feature\'s code; a use in another rule\'s file is not', async () => {
    const files: Record<string, string> = {
      'src/rules/no-var.ts': [
        "import { isInLoop } from '../utils/ast';",
        'export function create(report: (m: string) => void) {',
        '  return {',
        '    onDeclaration(n: { loop: boolean }): void {',
        "      if (!isInLoop(n)) report('unexpected');",
        '    },',
        '  };',
        '}',
      ].join('\n') + '\n',
      'src/rules/no-loop-func.ts': [
        "import { isInLoop } from '../utils/ast';",
        'export function checkLoop(n: { loop: boolean }): boolean {',
        '  return isInLoop(n);',
        '}',
      ].join('\n') + '\n',
      'src/utils/ast.ts': 'export function isInLoop(n: { loop: boolean }): boolean {\n  return n.loop;\n}\n',
    };
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: "How does no-var's autofix decide when to report?", target: "no-var's autofix", lookups: ['isInLoop'],
      claims: [{ symbol: 'isInLoop', approved: true, code_evidence: 'src/rules/no-var.ts:5' }],
    });
    // the use is the feature's code (its score is the words' and the graph's business: "autofix" is no word of it)
    expect(JSON.stringify(r.rejected)).not.toContain('neither named by nor accepted for');
    const other = await confirmOn(files, {
      intent: 'INVESTIGATE', request: "How does no-var's autofix decide when to report?", target: "no-var's autofix", lookups: ['isInLoop'],
      claims: [{ symbol: 'isInLoop', approved: true, code_evidence: 'src/rules/no-loop-func.ts:3' }],
    });
    expect(other.rejected).toEqual([expect.objectContaining({ guidance: expect.objectContaining({ reason: expect.stringContaining("inside checkLoop, which is neither named by nor accepted for 'no-var's autofix'") }) })]);
  });
});

describe('evidence inside a local function accepted in the same pass', () => {
  it('counts a call inside an accepted local function (a rule\'s checkForShadows inside create()) as the feature\'s code (agent trial tr45)', async () => {
    const files: Record<string, string> = {
      'src/rules/rule.ts': [
        'function isDuplicatedEnumNameVariable(v: { name: string }): boolean {',
        "  return v.name === '';",
        '}',
        'export default {',
        '  create(context: { variables: { name: string }[] }) {',
        '    function checkForShadows(variables: { name: string }[]): void {',
        '      for (const v of variables) {',
        '        if (isDuplicatedEnumNameVariable(v)) continue;',
        '        console.log(v.name);',
        '      }',
        '    }',
        '    return { Program: () => checkForShadows(context.variables) };',
        '  },',
        '};',
        '',
      ].join('\n'),
      'src/other.ts': 'export function unrelated(): number {\n  return 1;\n}\n',
    };
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'How does the check for shadows skip a variable?', target: 'check for shadows', lookups: ['checkForShadows', 'isDuplicatedEnumNameVariable'],
      claims: [
        { symbol: 'checkForShadows', approved: true, code_evidence: 'src/rules/rule.ts:6' },
        { symbol: 'isDuplicatedEnumNameVariable', approved: true, code_evidence: 'src/rules/rule.ts:8' }, // its call, inside checkForShadows
      ],
    });
    const names = (r.accepted as { symbol: string }[]).map((a) => a.symbol).sort();
    expect(names).toEqual(['checkForShadows', 'isDuplicatedEnumNameVariable']);
  });
});

describe('a name the user wrote as code in the target quote', () => {
  it('is the thing itself (FACT) when the agent passes its own rendering of the value without the backticks (agent trial tr34)', async () => {
    const files: Record<string, string> = {
      'src/map.ts': 'export class Map {\n  entries: [string, number][] = [];\n  values(): number[] {\n    return this.entries.map((e) => e[1]);\n  }\n}\n',
      'src/other.ts': 'export function other(): number {\n  return 1;\n}\n',
    };
    const request = 'Give `Map` an `intoValues` method that consumes the map and returns its values';
    const claims = [{ symbol: 'Map', approved: true, code_evidence: 'src/map.ts:1' }];
    const plain = await confirmOn(files, { intent: 'INVESTIGATE', request, target: 'Give `Map` an `intoValues` method', lookups: ['Map'], claims });
    const rendered = await confirmOn(files, { intent: 'INVESTIGATE', request, target: 'Map intoValues method', quote: 'Give `Map` an `intoValues` method', lookups: ['Map'], claims });
    for (const r of [plain, rendered]) expect(r.accepted).toEqual([expect.objectContaining({ symbol: 'Map', tier: 'FACT', legs: expect.objectContaining({ named: 0.7 }) })]);
  });
});

describe('a bare name is the definition its evidence points into', () => {
  it('judges delete cited inside ObservableSet as ObservableSet.delete, not the first delete of the index', async () => {
    const files: Record<string, string> = {
      'src/a-map.ts': 'export class ObservableMap {\n  delete(key: string): boolean {\n    return !!key;\n  }\n}\n',
      'src/set.ts': [
        'export class ObservableSet {',
        '  private values = new Set<number>();',
        '  has(v: number): boolean {',
        '    return this.values.has(v);',
        '  }',
        '  add(v: number): this {',
        '    this.values.add(v);',
        '    return this;',
        '  }',
        '  delete(v: number): boolean {',
        '    return this.values.delete(v);',
        '  }',
        '}',
      ].join('\n') + '\n',
    };
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request: 'Add a toggle(value) method to ObservableSet that adds the value when it is missing and deletes it when it is present',
      target: 'ObservableSet', lookups: ['ObservableSet'], entry_points: ['ObservableSet.add()'], patterns: ['fluent methods like ObservableSet.add'],
      claims: [
        { symbol: 'ObservableSet', approved: true, code_evidence: 'src/set.ts:1' },
        { symbol: 'delete', approved: true, code_evidence: 'src/set.ts:11' },
        { symbol: 'add', approved: true, code_evidence: 'src/set.ts:7' },
      ],
    });
    expect(acceptedFile(r, 'delete')).toBe('src/set.ts');
    expect(r).toMatchObject({ next_phase: 'READY', rejected: [] });
  });
});

describe('a bare name cited where it is used', () => {
  it('is the definition that use resolves to, not the first of its name', async () => {
    const files: Record<string, string> = {
      'src/a-reactivity/warning.ts': 'export function warn(msg: string): void {\n  console.warn(msg);\n}\n',
      'src/core/warning.ts': 'export function warn(msg: string): void {\n  console.warn(`[core] ${msg}`);\n}\n',
      'src/core/inject.ts': [
        "import { warn } from './warning';",
        'export function inject(key: string): string | undefined {',
        '  if (!key) {',
        '    warn(`inject() can only be used inside setup()`);',
        '  }',
        '  return key;',
        '}',
      ].join('\n') + '\n',
    };
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'where does the warning inject() prints outside setup() come from', target: 'the warning inject() prints', lookups: ['inject', 'warn'],
      claims: [
        { symbol: 'inject', approved: true, code_evidence: 'src/core/inject.ts:2' },
        { symbol: 'warn', approved: true, code_evidence: 'src/core/inject.ts:4' },
      ],
    });
    expect(acceptedFile(r, 'warn')).toBe('src/core/warning.ts');
  });
});

describe('overloads', () => {
  it('evidence in the body of an overloaded function links through its signatures, which the references name', async () => {
    const files: Record<string, string> = {
      'src/check.ts': [
        'export function isComputed(v: number): boolean;',
        'export function isComputed(v: unknown): boolean {',
        "  return typeof v === 'object';",
        '}',
      ].join('\n') + '\n',
      'src/store.ts': "import { isComputed } from './check';\nexport function createStore(target: unknown): boolean {\n  return isComputed(target);\n}\n",
    };
    const r = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'how does createStore decide what it returns', target: 'createStore', lookups: ['isComputed'],
      claims: [
        { symbol: 'createStore', approved: true, code_evidence: 'src/store.ts:2' },
        { symbol: 'isComputed', approved: true, code_evidence: 'src/check.ts:3' }, // the body, not the first signature
      ],
    });
    expect(r.rejected).toEqual([]);
    expect(r.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'isComputed', via: expect.stringContaining('createStore') })]));
  });
});

describe('the rank leg', () => {
  it('the cutoff is the same share of every project, at least the best one, at most five', async () => {
    const { rankCutoff, rankedScore } = await import('../src/session/graph-relevance.js');
    expect([8, 60, 100, 245, 5000].map(rankCutoff)).toEqual([1, 2, 3, 5, 5]);
    expect(rankedScore(1, 245)).toBe(0.5);
    expect(rankedScore(5, 245)).toBeGreaterThanOrEqual(0.3);
    expect(rankedScore(5, 245)).toBeLessThan(0.35);
    expect(rankedScore(6, 245)).toBe(0);
    expect(rankedScore(2, 8)).toBe(0); // a tiny project: only the best
    expect(rankedScore(undefined, 245)).toBe(0);
  });

  it('accepts code whose body answers the target though its name does not, and says why; rejects what ranks nowhere', async () => {
    const { SessionService } = await import('../src/session/service.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { findReferences } = await import('../src/query/references.js');
    const files: Record<string, string> = {
      'src/client.ts': [
        'export class Client {',
        '  dispatch(url: string): Promise<string> {',
        '    let retries = 0;',
        '    const timeoutMs = 5000;',
        '    while (retries < 3) {',
        '      retries++;',
        '      if (this.timedOut(timeoutMs)) continue;',
        '    }',
        '    return fetchText(url);',
        '  }',
        '  timedOut(ms: number): boolean {',
        '    return ms > 0;',
        '  }',
        '}',
        'export function fetchText(url: string): Promise<string> {',
        '  return Promise.resolve(url);',
        '}',
      ].join('\n') + '\n',
      'src/colors.ts': 'export function paint(c: string): string {\n  return c.toUpperCase();\n}\n',
    };
    // a project of some size, so that "the best few" is a small share of it
    for (let i = 0; i < 160; i++) files[`src/misc/m${i}.ts`] = `export function util${i}(a: number): number {\n  return a + ${i};\n}\n`;
    const dir = makeProject(files);
    const p = new Project(dir);
    await p.refresh();
    const sessions = new SessionService(p);
    sessions.start('IMPLEMENT', 'retry the request after a timeout, three times at most');
    sessions.setQueryFrame({ target_feature: { value: 'retry after a timeout', quote: 'retry the request after a timeout' } });
    sessions.record('get_symbols', { file: 'src/client.ts' }, { ...getSymbols(p, { file: 'src/client.ts' }) }); readWhole(sessions, 'src/client.ts');
    sessions.record('get_symbols', { file: 'src/colors.ts' }, { ...getSymbols(p, { file: 'src/colors.ts' }) }); readWhole(sessions, 'src/colors.ts');
    sessions.record('find_definitions', { name: 'dispatch' }, { ...findDefinitions(p, { name: 'dispatch' }) });
    sessions.record('find_references', { name: 'fetchText' }, { ...findReferences(p, { name: 'fetchText' }) });
    sessions.submitUnderstanding({
      symbols_identified: ['Client.dispatch', 'Client.timedOut', 'paint'], entry_points: ['Client.dispatch()'],
      existing_patterns: ['methods of Client, like Client.timedOut'], files_analyzed: ['src/client.ts', 'src/colors.ts'],
    });
    expect(sessions.status().phase).toBe('VALIDATION');
    await sessions.validateRelevance('retry after a timeout', ['Client.dispatch', 'Client.timedOut', 'paint']);
    const r = await sessions.confirmRelevance([
      { symbol: 'Client.dispatch', approved: true, code_evidence: 'src/client.ts:3' },
      { symbol: 'Client.timedOut', approved: true, code_evidence: 'src/client.ts:11' },
      { symbol: 'paint', approved: true, code_evidence: 'src/colors.ts:1' },
    ]);
    const dispatch = (r.accepted as { symbol: string; via?: string; tier: string; backend: string }[]).find((a) => a.symbol === 'Client.dispatch');
    expect(dispatch).toMatchObject({ tier: 'ACCEPTED_HIGH_RISK', backend: expect.stringContaining('rank'), via: expect.stringMatching(/ranks #\d of the project's \d+ declarations/) });
    const paint = (r.rejected as { symbol: string; guidance: { reason: string } }[]).find((x) => x.symbol === 'paint');
    expect(paint?.guidance.reason).toMatch(/ranks nowhere/);
    // which of the target's words it carries, and which not
    expect(paint?.guidance.reason).toMatch(/\(0 < 0\.3; of the target's words it carries none, not retry, after, timeout\)/);
    expect((paint as unknown as { terms: { matched: string[]; missing: string[] } }).terms).toEqual({ matched: [], missing: ['retry', 'after', 'timeout'] });
    expect(r.next_phase).toBe('EXPLORATION');
    p.close();
    removeProject(dir);
  });
});

/** An INVESTIGATE session about resetStore on the graph fixture, with these files outlined and one definition looked up. */
async function investigating(files: string[], defined: string) {
  const { SessionService } = await import('../src/session/service.js');
  const { getSymbols } = await import('../src/query/outline.js');
  const { findDefinitions } = await import('../src/query/definitions.js');
  const sessions = new SessionService(project);
  sessions.start('INVESTIGATE', 'How does resetStore reset the store?');
  sessions.setQueryFrame({ target_feature: { value: 'resetStore', quote: 'resetStore' } });
  for (const f of files) {
      sessions.record('get_symbols', { file: f }, { ...getSymbols(project, { file: f }) });
      readWhole(sessions, f);
    }
  sessions.record('find_definitions', { name: defined }, { ...findDefinitions(project, { name: defined }) });
  return sessions;
}

describe('links within one confirmation', () => {
  it('a chain of submitted symbols is accepted in one pass when each is one step from one accepted before it', async () => {
    const sessions = await investigating(['src/reset.ts', 'src/helper.ts', 'src/deep.ts'], 'deep');
    sessions.submitUnderstanding({ symbols_identified: ['resetStore', 'helper', 'deep'], entry_points: [], existing_patterns: [], files_analyzed: ['src/reset.ts', 'src/helper.ts', 'src/deep.ts'] });
    await sessions.validateRelevance('resetStore', ['resetStore', 'helper', 'deep']);
    const r = await sessions.confirmRelevance([
      { symbol: 'deep', approved: true, code_evidence: 'src/deep.ts:1' },
      { symbol: 'helper', approved: true, code_evidence: 'src/reset.ts:3' }, // a use inside the code the target names (h3 trial t4)
      { symbol: 'resetStore', approved: true, code_evidence: 'src/reset.ts:2' },
    ]);
    expect(r.rejected).toEqual([]);
    const by = new Map((r.accepted as { symbol: string; via?: string; tier: string }[]).map((a) => [a.symbol, a]));
    expect(by.get('resetStore')!.tier).toBe('FACT'); // the target names it, written as code
    expect(by.get('helper')!.tier).toBe('ACCEPTED_HIGH_RISK'); // its use inside resetStore is the evidence
    expect(by.get('deep')!.via).toContain('helper'); // linked to a symbol a link accepted in this same pass
    expect(r.next_phase).toBe('READY');
    sessions.end('success');
  });
});

describe('the request names the symbol', () => {
  it('code written in the target is the thing itself; a plain word that is a whole name is accepted; parts of names are not this rule', async () => {
    const { namedScore } = await import('../src/embeddings/named.js');
    const { STOP_EN } = await import('../src/embeddings/text.js');
    const n = (t: string, name: string, c: string | null = null) => namedScore(t, name, c, STOP_EN);
    expect(n('Add a toggle(value) method to ObservableSet', 'ObservableSet')).toBe(0.7);
    expect(n('fix storeToRefs with getters', 'storeToRefs')).toBe(0.7);
    expect(n('the `when` timeout message', 'when')).toBe(0.7); // a stop word, but marked as code
    expect(n('the when() timeout', 'when')).toBe(0.7);
    expect(n('call it when the timeout expires', 'when')).toBe(0); // a plain stop word
    expect(n('dispose of a pinia instance', 'Pinia')).toBe(0.45);
    expect(n('fix Server.onError', 'onError', 'Server')).toBe(0.7);
    expect(n('add a toggle to ObservableSet', 'makeObservable')).toBe(0); // shares a word, is not named
    expect(n('computed を誰も参照しなくなったとき', 'computed')).toBe(0.45);
    // a name followed by the kind of code it is names it as code (agent trial tr139: "the existing levenshtein helper")
    expect(n('use the existing levenshtein helper', 'levenshtein')).toBe(0.7);
    expect(n('parse 関数のエラーを直す', 'parse')).toBe(0.7);
    expect(n('the levenshtein distance of two words', 'levenshtein')).toBe(0.45);
    // what a dotted name goes through holds the thing; it is not the thing (red team adv91: `req` a FACT by req.acceptsCharsets())
    expect(n('Make req.acceptsCharsets() return the preferred charset', 'req')).toBe(0.45);
    expect(n('Make req.acceptsCharsets() return the preferred charset', 'acceptsCharsets')).toBe(0.7);
    expect(n('fix `ObservableSet.toggle`', 'ObservableSet')).toBe(0.45);
  });
});

describe('a rejected claim is not credited, and does not hold back what stands', () => {
  it('pads an honest confirmation with an unrelated symbol: READY on what is backed, the padding rejected and never counted', async () => {
    const sessions = await investigating(['src/reset.ts', 'src/other.ts'], 'resetStore');
    sessions.submitUnderstanding({ symbols_identified: ['resetStore', 'Unrelated'], entry_points: [], existing_patterns: [], files_analyzed: ['src/reset.ts', 'src/other.ts'] });
    await sessions.validateRelevance('resetStore', ['resetStore', 'Unrelated']);
    const r = await sessions.confirmRelevance([
      { symbol: 'resetStore', approved: true, code_evidence: 'src/reset.ts:2' },
      { symbol: 'Unrelated', approved: true, code_evidence: 'src/other.ts:1' },
    ]);
    expect(r).toMatchObject({ success: true, next_phase: 'READY', accepted_total: { have: 1, need: 1 }, rejected_note: expect.stringContaining('not credited') });
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toEqual(['Unrelated']);
    expect((r.accepted as { symbol: string }[]).map((x) => x.symbol)).toEqual(['resetStore']);
    sessions.end('success');
  });
});

describe('a symbol the request names as code, outside the target feature', () => {
  const files: Record<string, string> = {
    'src/store.ts': [
      'export const listeners: Array<() => void> = [];',
      'export function subscribe(callback: () => void): () => void {',
      '  listeners.push(callback);',
      '  return () => listeners.splice(listeners.indexOf(callback), 1);',
      '}',
    ].join('\n') + '\n',
    'src/lifecycle.ts': 'let stopped = false;\nexport function dispose(): void {\n  stopped = true;\n}\nexport function isStopped(): boolean {\n  return stopped;\n}\n',
    'src/log.ts': 'export function formatLog(line: string): string {\n  return `[log] ${line}`;\n}\n',
  };
  const claims = [
    { symbol: 'subscribe', approved: true, code_evidence: 'src/store.ts:2' },
    { symbol: 'dispose', approved: true, code_evidence: 'src/lifecycle.ts:2' },
  ];

  it('is accepted (risk HIGH) when the user wrote it as code in the request; not when the request only describes it', async () => {
    const named = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'what happens to callbacks registered with subscribe() after dispose() is called', target: 'callbacks registered with subscribe',
      lookups: ['subscribe', 'dispose'], claims,
    });
    expect(named.accepted).toEqual(expect.arrayContaining([
      expect.objectContaining({ symbol: 'dispose', tier: 'ACCEPTED_HIGH_RISK', similarity: 0.45, via: expect.stringContaining('request names it') }),
    ]));
    const described = await confirmOn(files, {
      intent: 'INVESTIGATE', request: 'what happens to callbacks registered with subscribe() after the store is torn down', target: 'callbacks registered with subscribe',
      lookups: ['subscribe', 'dispose'], claims,
    });
    expect((described.rejected as { symbol: string }[]).map((x) => x.symbol)).toEqual(['dispose']);
  });

  it('a method declared twice in one class (its typings beside its code) is one name, not homonyms (agent trial tr123)', async () => {
    const twin: Record<string, string> = {
      'lib/command.js': 'class Command {\n  parseOptions(args) {\n    return this._positional ? args : [];\n  }\n  enablePositionalOptions(on = true) {\n    this._positional = on;\n    return this;\n  }\n}\nmodule.exports = { Command };\n',
      'typings/index.d.ts': 'export class Command {\n  parseOptions(args: string[]): string[];\n  enablePositionalOptions(on?: boolean): this;\n}\n',
    };
    const r = await confirmOn(twin, {
      intent: 'INVESTIGATE', request: 'how are unknown arguments parsed, and what does enablePositionalOptions change about that?', target: 'unknown arguments parsed',
      lookups: ['parseOptions', 'enablePositionalOptions'],
      claims: [{ symbol: 'parseOptions', approved: true, code_evidence: 'lib/command.js:2' }, { symbol: 'enablePositionalOptions', approved: true, code_evidence: 'lib/command.js:5' }],
    });
    expect(r.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'enablePositionalOptions', tier: 'ACCEPTED_HIGH_RISK' })]));
    // a declaration file's member of another class is another owner: the name alone does not say which (red team adv56)
    const other = { ...twin, 'typings/index.d.ts': twin['typings/index.d.ts']! + 'export class Option {\n  enablePositionalOptions(on?: boolean): this;\n}\n' };
    const r2 = await confirmOn(other, {
      intent: 'INVESTIGATE', request: 'how are unknown arguments parsed, and what does enablePositionalOptions change about that?', target: 'unknown arguments parsed',
      lookups: ['parseOptions', 'enablePositionalOptions'],
      claims: [{ symbol: 'parseOptions', approved: true, code_evidence: 'lib/command.js:2' }, { symbol: 'enablePositionalOptions', approved: true, code_evidence: 'lib/command.js:5' }],
    });
    expect((r2.accepted as { symbol: string; via?: string }[]).find((a) => a.symbol === 'enablePositionalOptions')?.via ?? '').not.toMatch(/request names it/);
  });
});

describe('one function under two names (red team adv74: `res.set = res.header = function …`)', () => {
  it('both names span the function, a line of its body is evidence for either, and the two count once', async () => {
    const source = [
      'var res = module.exports = {};',
      'res.set = res.header = function header(field, val) {',
      '  this.setHeader(field, val);',
      '  return this;',
      '};',
      'res.json = function json(obj) {',
      "  this.set('Content-Type', 'application/json');",
      '  return this.send(JSON.stringify(obj));',
      '};',
    ];
    await onResponseFile(source, 'How does res.set set a response header?', 'res.set', 'header', async (sessions, p) => {
      const spans = symbolsByName(p, 'set').concat(symbolsByName(p, 'header')).map((s) => `${s.name} ${s.line}-${s.end_line}`);
      expect(spans).toEqual(['set 2-5', 'header 2-5']);
      let twice: unknown;
      try {
        sessions.submitUnderstanding({ symbols_identified: ['res.set', 'res.header'], entry_points: [], existing_patterns: [], files_analyzed: ['lib/res.js'] });
      } catch (e) {
        twice = e;
      }
      expect(JSON.stringify((twice as { extra?: unknown }).extra)).toMatch(/'res\.header' is a symbol already listed under another spelling or name \('res\.set'\)/);
      sessions.submitUnderstanding({ symbols_identified: ['res.set'], entry_points: [], existing_patterns: [], files_analyzed: ['lib/res.js'] });
      await sessions.validateRelevance('res.set', ['res.set', 'res.header']);
      const r = await sessions.confirmRelevance([
        { symbol: 'res.set', approved: true, code_evidence: 'lib/res.js:3' },
        { symbol: 'res.header', approved: true, code_evidence: 'lib/res.js:3' },
      ]);
      expect((r.accepted as { symbol: string }[]).map((a) => a.symbol).sort()).toEqual(['res.header', 'res.set']);
      expect(r.accepted_total).toMatchObject({ have: 1 });
    });
  });
});

describe('a turn from a helper up to its other callers', () => {
  it('reaches a thin variant of the helper beside it, not a caller that only uses it among other things (red team adv74: redirect → res.set → res.json)', async () => {
    const source = [
      'var res = module.exports = {};',
      'res.set = function set(field, val) {',
      '  this.setHeader(field, val);',
      '  return this;',
      '};',
      'res.redirect = function redirect(url) {',
      "  this.set('Location', url);",
      '  this.statusCode = 302;',
      '};',
      'res.type = function type(t) {',
      "  return this.set('Content-Type', t);",
      '};',
      'res.json = function json(obj) {',
      '  var body = stringify(obj);',
      "  this.set('Content-Type', 'application/json');",
      '  this.charset(body);',
      '  return this.send(body);',
      '};',
      'res.send = function send(b) {',
      '  this.end(b);',
      '};',
      'res.charset = function charset(b) {',
      '  return b;',
      '};',
      'function stringify(o) {',
      '  return JSON.stringify(o);',
      '}',
    ];
    await onResponseFile(source, 'How does res.redirect set the Location of the response?', 'res.redirect', 'redirect', async (sessions) => {
      const names = ['res.redirect', 'res.set', 'res.type', 'res.json'];
      sessions.submitUnderstanding({ symbols_identified: names, entry_points: [], existing_patterns: [], files_analyzed: ['lib/res.js'] });
      await sessions.validateRelevance('res.redirect', names);
      const r = await sessions.confirmRelevance([
        { symbol: 'res.redirect', approved: true, code_evidence: 'lib/res.js:6' },
        { symbol: 'res.set', approved: true, code_evidence: 'lib/res.js:7' },
        // (lines that are not the use: in an INVESTIGATE session a cited use is a hop the agent traced)
        { symbol: 'res.type', approved: true, code_evidence: 'lib/res.js:10' },
        { symbol: 'res.json', approved: true, code_evidence: 'lib/res.js:13' },
      ]);
      expect((r.accepted as { symbol: string }[]).map((a) => a.symbol).sort()).toEqual(['res.redirect', 'res.set', 'res.type']);
      expect((r.rejected as { symbol: string }[]).map((a) => a.symbol)).toEqual(['res.json']);
    });
  });
});

/** An INVESTIGATE session on lib/res.js of its own project, the file explored and `lookup` found: what `run` does with it. */
async function onResponseFile(source: string[], request: string, target: string, lookup: string, run: (sessions: import('../src/session/service.js').SessionService, p: Project) => Promise<void>): Promise<void> {
  const { SessionService } = await import('../src/session/service.js');
  const { getSymbols } = await import('../src/query/outline.js');
  const { findDefinitions } = await import('../src/query/definitions.js');
  const dir = makeProject({ 'lib/res.js': [...source, ''].join('\n') });
  const p = new Project(dir);
  try {
    await p.refresh();
    const sessions = new SessionService(p);
    sessions.start('INVESTIGATE', request);
    sessions.setQueryFrame({ target_feature: { value: target, quote: target } });
    sessions.record('get_symbols', { file: 'lib/res.js' }, { ...getSymbols(p, { file: 'lib/res.js' }) });
    readWhole(sessions, 'lib/res.js');
    sessions.record('find_definitions', { name: lookup }, { ...findDefinitions(p, { name: lookup }) });
    await run(sessions, p);
    sessions.end('success');
  } finally {
    p.close();
    removeProject(dir);
  }
}

describe('a state two methods share through a field the target names (agent trial tr165: koa callback)', () => {
  const files: Record<string, string> = {
    'lib/application.js': [
      "const { AsyncLocalStorage } = require('node:async_hooks');",
      'class Application {',
      '  constructor(options = {}) {',
      '    this.proxy = options.proxy || false; this.context = Object.create(null);',
      '    this.middleware = [];',
      '    if (options.asyncLocalStorage) {',
      '      this.ctxStorage = options.asyncLocalStorage;',
      '    } else {',
      '      this.ctxStorage = new AsyncLocalStorage();',
      '    }',
      '  }',
      '  callback() {',
      '    const handleRequest = (req, res) => {',
      '      const ctx = this.createContext(req, res);',
      '      if (!this.ctxStorage) return this.handleRequest(ctx);',
      '      return this.ctxStorage.run(ctx, async () => this.handleRequest(ctx));',
      '    };',
      '    return handleRequest;',
      '  }',
      '  get currentContext() {',
      '    if (this.ctxStorage) return this.ctxStorage.getStore();',
      '  }',
      '  handleRequest(ctx) {',
      '    return this.middleware.length ? ctx : null;',
      '  }',
      '  createContext(req, res) {',
      '    return { req, res, proxy: this.proxy };',
      '  }',
      '  toJSON() {',
      '    return { proxy: this.proxy };',
      '  }',
      '  inspectContext() {',
      '    return this.context;',
      '  }',
      '}',
      'module.exports = Application;',
      '',
    ].join('\n'),
    'test/app.test.js': [
      "const Application = require('../lib/application');",
      'const app = new Application({ asyncLocalStorage: true });',
      'const ctx = {};',
      'app.handleRequest(ctx);',
      '// the current context comes from async local storage',
      'console.log(ctx === app.currentContext);',
      '',
    ].join('\n'),
  };
  const request = 'Create the AsyncLocalStorage used by app.currentContext lazily, on first use, instead of in the Application constructor, so that koa works in V8 startup snapshots.';
  const target = 'AsyncLocalStorage used by app.currentContext';

  it('accepts the method whose cited line uses the storage the accepted getter reads, and not one that shares only a field the target does not name', async () => {
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request, target, lookups: ['currentContext', 'callback'], entry_points: ['Application.callback()'], patterns: ['ctxStorage.run wraps handleRequest, as currentContext reads ctxStorage'],
      claims: [
        { symbol: 'currentContext', approved: true, code_evidence: 'lib/application.js:21' },
        { symbol: 'callback', approved: true, code_evidence: 'lib/application.js:16' },
        { symbol: 'toJSON', approved: true, code_evidence: 'lib/application.js:30' },
      ],
    });
    const accepted = r.accepted as { symbol: string; via?: string; tier: string }[];
    expect(accepted.find((a) => a.symbol === 'callback')).toMatchObject({ tier: 'ACCEPTED_HIGH_RISK', via: expect.stringContaining('the field `ctxStorage`') });
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toContain('toJSON');
  });

  it('takes the field only on the line the agent cites', async () => {
    const r = await confirmOn(files, {
      intent: 'IMPLEMENT', request, target, lookups: ['currentContext', 'callback'], entry_points: ['Application.callback()'], patterns: ['ctxStorage.run wraps handleRequest, as currentContext reads ctxStorage'],
      claims: [
        { symbol: 'currentContext', approved: true, code_evidence: 'lib/application.js:21' },
        { symbol: 'callback', approved: true, code_evidence: 'lib/application.js:14' },
        { symbol: 'toJSON', approved: true, code_evidence: 'lib/application.js:30' },
      ],
    });
    expect((r.rejected as { symbol: string }[]).map((x) => x.symbol)).toContain('callback');
  });

  const honest = { intent: 'IMPLEMENT' as const, request, target, lookups: ['currentContext', 'callback', 'handleRequest'], entry_points: ['currentContext'], patterns: ['ctxStorage.run wraps handleRequest, as currentContext reads ctxStorage'] };
  type Answer = { accepted: { symbol: string; via?: string; backend: string; legs: { keyword: number } }[]; rejected: { symbol: string }[]; success: boolean; accepted_total: { have: number }; closeness_note?: string };

  it('takes a field only from a FACT the target reaches, and a shared field links no further (red team adv90)', async () => {
    // the constructor, accepted because the request names it, writes `this.context`: no state shared with the target
    const r = await confirmOn(files, { ...honest, claims: [
      { symbol: 'constructor', approved: true, code_evidence: 'lib/application.js:4' },
      { symbol: 'currentContext', approved: true, code_evidence: 'lib/application.js:21' },
      { symbol: 'inspectContext', approved: true, code_evidence: 'lib/application.js:33' },
    ] }) as unknown as Answer;
    expect(r.accepted.find((a) => a.symbol === 'inspectContext')?.via ?? '').not.toMatch(/the field `context`/);
    // callback, linked through ctxStorage, does not pass the link on to what it calls
    const chained = await confirmOn(files, { ...honest, claims: [
      { symbol: 'currentContext', approved: true, code_evidence: 'lib/application.js:21' },
      { symbol: 'callback', approved: true, code_evidence: 'lib/application.js:16' },
      { symbol: 'createContext', approved: true, code_evidence: 'lib/application.js:27' },
    ] }) as unknown as Answer;
    expect(chained.accepted.find((a) => a.symbol === 'callback')?.via).toMatch(/the field `ctxStorage`/);
    expect(chained.accepted.find((a) => a.symbol === 'createContext')?.via ?? '').not.toMatch(/Application\.callback uses/);
  });

  it('credits a fragment outside the definition with its lines that use the symbol, not the words around them or a comment (red team adv90)', async () => {
    const r = await confirmOn(files, { ...honest, claims: [
      { symbol: 'currentContext', approved: true, code_evidence: 'lib/application.js:21' },
      { symbol: 'callback', approved: true, code_evidence: 'lib/application.js:16' },
      { symbol: 'handleRequest', approved: true, code_evidence: "`const app = new Application({ asyncLocalStorage: true });\nconst ctx = {};\napp.handleRequest(ctx);\n// the current context comes from async local storage\nconsole.log(ctx === app.currentContext);`" },
    ] }) as unknown as Answer;
    const handle = [...r.accepted, ...(r.rejected as { symbol: string; legs?: { keyword: number } }[])].find((a) => a.symbol === 'handleRequest') as { legs?: { keyword: number } };
    expect(handle.legs?.keyword ?? 0).toBeLessThan(0.3);
  });

  it('counts one symbol at most that stands by closeness alone toward the intent\'s minimum (red team adv90)', async () => {
    // two calls away from the getter the target names, in a project of 80 declarations (the propagation leg accepts the 8 nearest)
    const util = Array.from({ length: 74 }, (_, i) => `export function helper${i}() {\n  return ${i};\n}\n`).join('');
    const ctx = [
      'const storage = { getStore() { return null; } };',
      'export function currentContext() {', '  return storage.getStore();', '}',
      'export function middle() {', '  return currentContext();', '}',
      'export function relay() {', '  return middle();', '}',
      'export function farA() {', '  return relay() || 1;', '}',
      'export function farB() {', '  return relay() || 2;', '}',
      'export function farC() {', '  return relay() || 3;', '}', '',
    ].join('\n');
    const r = await confirmOn({ 'lib/context.js': ctx, 'lib/util.js': util }, {
      intent: 'IMPLEMENT', request: 'Make currentContext create its storage lazily, on first use.', target: 'currentContext', lookups: ['currentContext', 'farA'],
      entry_points: ['currentContext()'], patterns: ['a getter reading the storage, like currentContext'],
      claims: [
        { symbol: 'currentContext', approved: true, code_evidence: 'lib/context.js:3' },
        { symbol: 'farA', approved: true, code_evidence: 'lib/context.js:12' },
        { symbol: 'farB', approved: true, code_evidence: 'lib/context.js:15' },
        { symbol: 'farC', approved: true, code_evidence: 'lib/context.js:18' },
      ],
    }) as unknown as Answer;
    expect(r.accepted.filter((a) => a.backend.endsWith('+propagation')).map((a) => a.symbol).sort()).toEqual(['farA', 'farB', 'farC']);
    expect(r).toMatchObject({ success: false, accepted_total: { have: 2, need: 3 }, closeness_note: expect.stringMatching(/3 of the symbols stand only by closeness/) });
  });
});

describe('red team adv91: a target that is nothing but code, on express\'s request object', () => {
  const files: Record<string, string> = {
    'lib/request.js': [
      "var accepts = require('accepts');",
      'var req = Object.create(null);',
      'module.exports = req;',
      'req.get = function header(name) {',
      '  return this.headers[name.toLowerCase()];',
      '};',
      'req.accepts = function () {',
      '  var accept = accepts(this);',
      '  return accept.types.apply(accept, arguments);',
      '};',
      'req.acceptsEncodings = function () {',
      '  var accept = accepts(this);',
      '  return accept.encodings.apply(accept, arguments);',
      '};',
      'req.acceptsCharsets = function () {',
      '  var accept = accepts(this);',
      '  return accept.charsets.apply(accept, arguments);',
      '};',
      'req.acceptsLanguages = function () {',
      '  var accept = accepts(this);',
      '  return accept.languages.apply(accept, arguments);',
      '};',
      'req.range = function range(size) {',
      "  var range = this.get('Range');",
      '  return range ? size : undefined;',
      '};',
      'req.is = function is(types) {',
      '  return types;',
      '};',
      '',
    ].join('\n'),
    'lib/utils.js': [
      'exports.setCharset = function setCharset(type, charset) {',
      "  return type + '; charset=' + charset;",
      '};',
      'exports.acceptParams = function acceptParams(str) {',
      '  return { value: str, quality: 1, params: {} };',
      '};',
      '',
    ].join('\n'),
    'lib/response.js': [
      "var createError = require('http-errors');",
      'var res = module.exports = {};',
      'res.set = function set(field, val) {',
      '  this.setHeader(field, val);',
      '  return this;',
      '};',
      'res.format = function (obj, next) {',
      '  var keys = Object.keys(obj);',
      '  var key = keys.length > 0 ? this.req.accepts(keys) : false;',
      '  if (!key) next(createError(406, {',
      '    types: keys',
      '  }));',
      '  return this;',
      '};',
      '',
    ].join('\n'),
    'test/req.acceptsCharsets.js': [
      "var request = require('supertest');",
      "var express = require('../');",
      "describe('req', function () {",
      "  it('should return the best charset', function (done) {",
      '    var app = express();',
      "    app.use(function (req, res) { res.end(req.acceptsCharsets('utf-8') ? 'yes' : 'no'); });",
      '    request(app)',
      "      .get('/')",
      "      .set('Accept-Charset', 'foo, bar, utf-8')",
      "      .expect('yes', done);",
      '  });',
      '});',
      '',
    ].join('\n'),
  };
  const request = 'Make req.acceptsCharsets() return the charset the client prefers when it is called without arguments, and the best match among the given charsets otherwise; keep req.acceptsEncodings() as it is.';
  const base = { intent: 'IMPLEMENT' as const, request, target: 'req.acceptsCharsets()', quote: request, lookups: ['acceptsCharsets', 'set'], entry_points: ['req.acceptsCharsets()'], patterns: ['each negotiation method asks accepts(this), like req.acceptsEncodings'] };
  type Answer = { accepted: { symbol: string; via?: string }[]; rejected: { symbol: string; guidance?: { reason: string } }[]; success: boolean };
  const names = (xs: { symbol: string }[]) => xs.map((x) => x.symbol).sort();
  const charsets = [{ nl_term: 'req.acceptsCharsets()', symbol: 'req.acceptsCharsets' }];

  it('a name sharing part of the code the target writes, the holder of it, a guess on another library\'s chain: none makes the minimum', async () => {
    const r = await confirmOn(files, { ...base, claims: [
      { symbol: 'setCharset', approved: true, code_evidence: 'lib/utils.js:2' },
      { symbol: 'acceptParams', approved: true, code_evidence: 'lib/utils.js:5' },
      { symbol: 'res.set', approved: true, code_evidence: 'test/req.acceptsCharsets.js:9' },
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:15' },
    ] }) as unknown as Answer;
    expect(r.success).toBe(false);
    expect(names(r.rejected)).toEqual(expect.arrayContaining(['acceptParams', 'res.set', 'setCharset']));
    expect(r.rejected.find((x) => x.symbol === 'res.set')?.guidance?.reason).toMatch(/nor a use of it/);
  });

  it('the holder a dotted name goes through vouches for none of its members; a member of what an import gives is no field of the project', async () => {
    const held = await confirmOn(files, { ...base, claims: [
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:2' },
      { symbol: 'req.range', approved: true, code_evidence: 'lib/request.js:24' },
      { symbol: 'req.is', approved: true, code_evidence: 'lib/request.js:28' },
      { symbol: 'req.get', approved: true, code_evidence: 'lib/request.js:5' },
    ] }) as unknown as Answer;
    expect(held.success).toBe(false);
    expect(names(held.accepted)).toEqual(['req']);
    const kept = await confirmOn(files, { ...base, claims: [
      { symbol: 'req.acceptsCharsets', approved: true, code_evidence: 'lib/request.js:17' },
      { symbol: 'req.acceptsEncodings', approved: true, code_evidence: 'lib/request.js:13' },
      { symbol: 'res.format', approved: true, code_evidence: 'lib/response.js:11' },
    ] }) as unknown as Answer;
    expect(kept.accepted.find((a) => a.symbol === 'req.acceptsCharsets')).toBeDefined();
    expect(kept.rejected.find((x) => x.symbol === 'req.acceptsEncodings')?.guidance?.reason).toMatch(/only to keep it out of the change/);
    expect(kept.accepted.find((a) => a.symbol === 'res.format')?.via ?? '').not.toMatch(/the field `types`/);
  });

  it('asks a change to one method nothing calls for no more symbols than the code it names links to (red team adv91 had to pad to three)', async () => {
    // req.acceptsCharsets calls only what an import gives, and nothing in the project calls it: itself and its holder
    // (the sibling the agent read as the pattern to follow is identified, then dismissed: not part of the change)
    const r = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: charsets, claims: [
      { symbol: 'req.acceptsCharsets', approved: true, code_evidence: 'lib/request.js:17' },
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:2' },
      { symbol: 'req.acceptsEncodings', approved: false },
    ] }) as unknown as Answer & { accepted_total: { have: number; need: number; need_because?: string } };
    expect(r).toMatchObject({ success: true, accepted_total: { have: 2, need: 2, need_because: expect.stringMatching(/links to no more than 2 declaration/) } });
    // the holder alone, the named method not found: the minimum stands
    const alone = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: [{ nl_term: 'req.acceptsCharsets()', symbol: 'req' }], claims: [
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:2' },
      { symbol: 'req.acceptsCharsets', approved: false },
      { symbol: 'req.acceptsEncodings', approved: false },
    ] }) as unknown as Answer & { accepted_total: { need: number } };
    expect(alone).toMatchObject({ success: false, accepted_total: { need: 3 } });
    // a method that has callers in the project keeps the minimum: req.accepts is called by res.format
    const called = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: [{ nl_term: 'req.accepts()', symbol: 'req.accepts' }], target: 'req.accepts()', request: 'Make req.accepts() prefer the first type when the client accepts anything.', quote: 'Make req.accepts() prefer the first type when the client accepts anything.', claims: [
      { symbol: 'req.accepts', approved: true, code_evidence: 'lib/request.js:8' },
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:2' },
      { symbol: 'req.acceptsEncodings', approved: false },
    ] }) as unknown as Answer & { accepted_total: { need: number } };
    expect(called).toMatchObject({ success: false, accepted_total: { need: 3 } });
  });

  it('reads a Japanese request that keeps a sibling as it is, its name and particle apart (agent trial tr171)', async () => {
    const ja = 'req.acceptsCharsets() を引数なしで呼んだときは、クライアントが最も優先する charset を1つだけ返すようにしてください。req.acceptsEncodings() はそのままにしてください。';
    const r = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: charsets, request: ja, quote: ja, claims: [
      { symbol: 'req.acceptsCharsets', approved: true, code_evidence: 'lib/request.js:17' },
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:2' },
      { symbol: 'req.acceptsEncodings', approved: false },
    ] }) as unknown as Answer & { accepted_total: { need: number } };
    expect(r).toMatchObject({ success: true, accepted_total: { need: 2 } });
  });

  it('a lowered need is met only by what it was counted from, for a change the request keeps to that code (red team adv92)', async () => {
    type Total = Answer & { accepted_total: { have: number; need: number; need_because?: string } };
    // res.format, linked through req.accepts elsewhere: outside the neighbourhood of req.acceptsCharsets
    const outside = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: charsets, claims: [
      { symbol: 'req.acceptsCharsets', approved: true, code_evidence: 'lib/request.js:17' },
      { symbol: 'res.format', approved: true, code_evidence: 'lib/response.js:9' },
      { symbol: 'req', approved: false },
    ] }) as unknown as Total;
    expect(outside.success).toBe(false);
    expect(outside.accepted_total.need).toBe(3);
    // an IMPLEMENT, or a request that asks for something new or names other code, keeps the minimum
    const claims = [
      { symbol: 'req.acceptsCharsets', approved: true, code_evidence: 'lib/request.js:17' },
      { symbol: 'req', approved: true, code_evidence: 'lib/request.js:2' },
      { symbol: 'req.acceptsEncodings', approved: false },
    ];
    const implement = await confirmOn(files, { ...base, claims }) as unknown as Total;
    expect(implement).toMatchObject({ success: false, accepted_total: { need: 3 } });
    const wider = 'Rework content negotiation in res.format and req.range, and make req.acceptsCharsets() return the preferred charset when called without arguments.';
    const named = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: charsets, request: wider, quote: wider, claims }) as unknown as Total;
    expect(named).toMatchObject({ success: false, accepted_total: { need: 3 } });
    const added = 'Add logging of each negotiation to req.acceptsCharsets().';
    const adds = await confirmOn(files, { ...base, intent: 'MODIFY', mapped: charsets, request: added, quote: added, claims }) as unknown as Total;
    expect(adds).toMatchObject({ success: false, accepted_total: { need: 3 } });
  });

  it('for a target that is only code, the rank leg and its anchors take only code that uses it; a dismissed symbol seeds no link (red team adv92)', async () => {
    const more: Record<string, string> = {
      ...files,
      // enough declarations that the rank leg accepts the best five
      ...Object.fromEntries(Array.from({ length: 20 }, (_, f) => [`lib/other${f}.js`, Array.from({ length: 10 }, (_, i) => `function other${f}x${i}(n) {\n  return n + ${i};\n}\n`).join('') + `module.exports = { ${Array.from({ length: 10 }, (_, i) => `other${f}x${i}`).join(', ')} };\n`])),
      // a release script whose words rank for "combine URLs", and its caller
      'bin/release.js': ['function deduplicate(list) {', '  const combined = new Set(list.map((url) => url.toLowerCase()));', '  return [...combined];', '}',
        'function getReleaseInfo(urls) {', '  return deduplicate(urls).join(", ");', '}', 'module.exports = { getReleaseInfo };', ''].join('\n'),
      'lib/combine.js': ['function combineURLs(baseURL, relativeURL) {', "  return relativeURL ? baseURL.replace(/\\/+$/, '') + '/' + relativeURL : baseURL;", '}',
        'function buildFullPath(baseURL, requestedURL) {', '  return combineURLs(baseURL, requestedURL);', '}', 'module.exports = { buildFullPath };', ''].join('\n'),
    };
    const request = "Make combineURLs() keep a base URL's query string: when the base URL has a '?', put the relative path before the query.";
    const o = { ...base, intent: 'MODIFY' as const, mapped: [{ nl_term: 'combineURLs()', symbol: 'combineURLs' }], request, target: 'combineURLs()', quote: request, lookups: ['combineURLs', 'deduplicate'], entry_points: ['combineURLs()'], patterns: ['a helper its caller passes both URLs to, like buildFullPath'] };
    const ranked = await confirmOn(more, { ...o, claims: [
      { symbol: 'combineURLs', approved: true, code_evidence: 'lib/combine.js:2' },
      { symbol: 'deduplicate', approved: true, code_evidence: 'bin/release.js:2' },
      { symbol: 'getReleaseInfo', approved: false },
    ] }) as unknown as Answer;
    expect(names(ranked.accepted)).toEqual(['combineURLs']);
    const linked = await confirmOn(more, { ...o, claims: [
      { symbol: 'combineURLs', approved: true, code_evidence: 'lib/combine.js:2' },
      { symbol: 'getReleaseInfo', approved: true, code_evidence: 'bin/release.js:6' },
      { symbol: 'deduplicate', approved: false },
    ] }) as unknown as Answer;
    expect(names(linked.accepted)).toEqual(['combineURLs']);
    // the honest pair: the named code and its one caller
    const honest = await confirmOn(more, { ...o, claims: [
      { symbol: 'combineURLs', approved: true, code_evidence: 'lib/combine.js:2' },
      { symbol: 'buildFullPath', approved: true, code_evidence: 'lib/combine.js:5' },
      { symbol: 'deduplicate', approved: false },
    ] }) as unknown as Answer & { accepted_total: { need: number } };
    expect(honest).toMatchObject({ success: true, accepted_total: { need: 2 } });
  });
});
