/**
 * The relevance layer: glossary and segmenter on Japanese/Chinese input, mined pairs, tier
 * calibration, the NL→symbol cache (learn, decay), semantic_search on a fixture with known answers
 * (lexical, then hybrid with the generated model), and incremental re-embedding.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NlCache } from '../src/embeddings/cache.js';
import { applyCalibration, calibrate, quantile } from '../src/embeddings/calibration.js';
import { docAbove, docstringBelow } from '../src/embeddings/chunks.js';
import { compoundHead, withCompoundHeads } from '../src/embeddings/compounds.js';
import { SemanticEngine } from '../src/embeddings/engine.js';
import { siblingSaying, wordsNamingSibling } from '../src/session/which-definition.js';
import { coverageOf, KeywordIndex, keywordDoc } from '../src/embeddings/keyword.js';
import { conceptsOf, lexicon, minePairs, segmentJa, wordMatch } from '../src/embeddings/text.js';
import { Project } from '../src/project/project.js';
import { openDb } from '../src/store/db.js';
import { makeProject, removeProject } from './helpers/project.js';
import { writeTinyModel } from './helpers/tiny-model.js';

/** A small app with known answers: English and Japanese doc comments, a README with 日本語 (English) pairs. */
const APP = {
  'src/auth/service.ts': [
    '/** Authenticates a user with a password and opens a session. */',
    'export function authenticateUser(name: string, password: string): boolean {',
    '  return checkPassword(name, password);',
    '}',
    '// パスワードを照合する',
    'export function checkPassword(name: string, password: string): boolean {',
    '  return name.length > 0 && password.length > 0;',
    '}',
    '',
  ].join('\n'),
  'src/net/retry.ts': [
    '/** Retries a failed HTTP request with exponential backoff. */',
    'export async function retryRequest(url: string, attempts = 3): Promise<Response> {',
    '  for (let i = 0; ; i++) { try { return await fetch(url); } catch (e) { if (i >= attempts) throw e; } }',
    '}',
    '',
  ].join('\n'),
  'src/cart/checkout.ts': [
    '// 購入手続きを完了する',
    'export class CartCheckout {',
    '  /** Sums the prices of the items in the cart. */',
    '  total(items: number[]): number { return items.reduce((a, b) => a + b, 0); }',
    '}',
    '',
  ].join('\n'),
  'src/log/logger.ts': [
    '/** Writes a message to the log. */',
    'export class Logger {',
    '  write(message: string): void { process.stderr.write(message); }',
    '}',
    '',
  ].join('\n'),
  'src/reports/slips.ts': [
    '// 帳票を一覧表示する',
    'export function listSlips(userId: string): string[] { return [userId]; }',
    '// 帳票を削除する',
    'export function deleteSlips(userId: string): void { void userId; }',
    '',
  ].join('\n'),
  'docs/guide.md': '# Guide\n\n決済 (payment) は CartCheckout が担当します。\n\n## 再試行\n\nネットワークの再試行 (retry) は retryRequest を使います。\n',
};

describe('Japanese and Chinese input', () => {
  it('segments Japanese into words', () => {
    expect(segmentJa('ログイン機能でパスワードが空のとき')).toEqual(expect.arrayContaining(['ログイン', '機能', 'パスワード']));
  });
  it('maps requests to concepts through the glossary (longest match, generic words dropped)', () => {
    const c = conceptsOf('ログイン機能でパスワードが空のときエラーが出ない');
    const heads = c.map((x) => x.words[0]);
    expect(heads).toEqual(expect.arrayContaining(['login', 'password', 'error']));
    expect(c.find((x) => x.term === 'ログイン')!.words).toEqual(expect.arrayContaining(['login', 'signin', 'auth']));
    expect(conceptsOf('购物车结算').map((x) => x.words[0])).toEqual(['cart', 'checkout']);
    expect(conceptsOf('取消订阅').flatMap((x) => x.words)).toEqual(expect.arrayContaining(['unsubscribe']));
    expect(conceptsOf('実行する').map((x) => x.words[0])).toEqual(['run']); // not 行 (row)
    expect(conceptsOf('状態遷移').map((x) => x.term)).toEqual(['状態遷移']); // not 状態 + 遷移
  });
  it('gives a Japanese or Chinese request the concepts its English version has: no word vanishes, none is found inside another', () => {
    const terms = (s: string) => conceptsOf(s).map((x) => x.term);
    const heads = (s: string) => conceptsOf(s).map((x) => x.words[0]);
    // the same three concepts in three languages
    expect(heads('remove subscription when unmounted')).toEqual(['remove', 'subscription', 'unmounted']);
    expect(heads('アンマウントされたら購読を解除する').sort()).toEqual(['subscribe', 'unmount', 'unsubscribe']);
    expect(heads('组件卸载时移除订阅').sort()).toEqual(['component', 'remove', 'subscribe', 'unmount']);
    // a katakana term only as a word of its own or a whole part of a compound
    expect(terms('$patch をスタブにできるようにする')).toEqual(['スタブ', 'patch']); // not タブ (tab)
    expect(terms('アクションヘルパーを追加')).toEqual(['アクション', 'ヘルパー']);
    // what English drops (add, fix, function) the translation drops too
    expect(terms('isMemberExpression 関数を追加する')).toEqual(['member', 'expression']);
    expect(heads('improve isMemberExpression function')).toEqual(['improve', 'member', 'expression']);
    // a conjugated verb finds its dictionary form, a particle left on a word is not part of it
    expect(terms('state に渡された ref')).toEqual(['state', '渡す', 'ref']);
    expect(terms('storeToRefs の戻り値の型を直す')).toEqual(['戻り値', 'store', 'refs', '型']);
    // a particle after a one-character noun (値に: value, not a word of its own)
    expect(heads('同じ proxy を値に設定したときはトリガーしない')).toContain('value');
    expect(heads('値が変わったときに通知する')).toEqual(expect.arrayContaining(['value', 'notify']));
    // "the problem of …" is no concept, as 機能/功能 is none
    expect(terms('修复监听包含 shallowRef 的多个源时的问题')).not.toContain('问题');
    expect(heads('扫描公共资源时处理路径的排除规则').sort()).toEqual(['exclude', 'path', 'public', 'resource', 'rule', 'scan']);
    // a word the glossary does not know stays a concept of its own, in Japanese and in Chinese
    expect(terms('猫舌モードを追加する')).toEqual(['モード', '猫舌']);
    expect(terms('支持熊猫主题')).toEqual(expect.arrayContaining(['熊猫', '主题']));
    // a stop word among a term's English alternatives would match any code
    expect(conceptsOf('可能なら').flatMap((x) => x.words)).not.toContain('can');
    // a Chinese question keeps its content words and loses its question words (agent trial tr24:
    // 浮点数, 无穷大, 报错 reached no code, 怎么/哪里/它们/什么作 were concepts of their own)
    const zh = conceptsOf('serde_json 在序列化浮点数时，NaN 和正负无穷大是怎么处理的？哪里把它们变成 null，为什么作为 map 的 key 时反而会报错？');
    expect(zh.map((x) => x.words[0]).sort()).toEqual(['error', 'float', 'infinity', 'json', 'key', 'map', 'nan', 'null', 'serde', 'serialize', 'sign'].sort());
    const ja = conceptsOf('NaN や正負の無限大はどう扱われる？どこで null になり、なぜ浮動小数点数のキーはエラーになるのか');
    expect(ja.map((x) => x.words[0]).sort()).toEqual(['error', 'float', 'handle', 'infinity', 'key', 'nan', 'null', 'sign'].sort());
  });
  it('has several hundred real glossary entries', () => {
    expect(lexicon().terms.size).toBeGreaterThanOrEqual(500);
  });
  it('matches word forms: prefixes and close trigrams, not unrelated words', () => {
    expect(wordMatch('auth', 'authentication')).toBe(0.9);
    expect(wordMatch('subscriber', 'subscription')).toBeGreaterThan(0.3);
    expect(wordMatch('login', 'logger')).toBe(0);
  });
  it('mines bilingual pairs from comments above symbols and from "日本語 (English)"', () => {
    const pairs = minePairs(
      [
        { doc: '注文履歴を一覧表示する', nameWords: ['list', 'orders'] },
        { doc: '注文履歴を削除する', nameWords: ['delete', 'orders'] },
      ],
      ['決済 (payment) を担当', 'Use retryRequest (再試行) here'],
    );
    expect(pairs).toEqual(expect.arrayContaining([
      expect.objectContaining({ term: '注文', word: 'orders', source: 'comment' }),
      expect.objectContaining({ term: '決済', word: 'payment', source: 'parenthesis' }),
      expect.objectContaining({ term: '再試行', word: 'retry', source: 'parenthesis' }),
    ]));
    expect(pairs.find((p) => p.term === '注文' && p.word === 'list')).toBeUndefined(); // seen with orders twice, with list once
  });
  it('finds the doc comment right above a definition (and Python docstrings)', () => {
    const lines = ['/**', ' * Retries a request.', ' * @param url where', ' */', '@Injectable()', 'export function retry() {}'];
    expect(docAbove(lines, 5)).toEqual({ text: 'Retries a request.', line: 1 });
    expect(docAbove(['const x = 1;', 'function f() {}'], 1)).toBeUndefined();
    expect(docAbove(['// 認証する', '// ユーザーを', 'def f():'], 2)?.text).toBe('認証する ユーザーを');
    expect(docAbove(['/// Parses the config.', '#[derive(Debug)]', 'pub struct Config {}'], 2)?.text).toBe('Parses the config.'); // Rust
    expect(docAbove(['// Serve starts the server.', 'func Serve() {}'], 1)?.text).toBe('Serve starts the server.'); // Go
    expect(docAbove(['/** Saves a user. */', '@Override', '@Transactional(readOnly = false)', 'public void save() {}'], 3)?.text).toBe('Saves a user.'); // Java
    expect(docstringBelow(['def f():', '    """Fetch the user.', '    more"""', '    pass'], 0, 3)?.text).toBe('Fetch the user. more');
  });
});

describe('chunks: the units semantic_search ranks', () => {
  it('a module-level constant whose initializer spans lines is one; a one-line constant, a local or a member is not', async () => {
    const root = makeProject({
      'presets.ts': [
        'export const MAX = 10;',
        "export const vercelEdge = definePreset({",
        "  name: 'vercel-edge',",
        "  entry: './edge',",
        '});',
        'export function build() {',
        '  const local = {',
        '    a: 1,',
        '  };',
        '  return local;',
        '}',
        'export class Registry {',
        '  static table = {',
        '    a: 1,',
        '  };',
        '}',
        'declare function definePreset(x: object): object;',
        '',
      ].join('\n'),
    });
    const p = new Project(root);
    try {
      await p.refresh();
      const rows = p.db.prepare(`SELECT name, kind FROM chunks WHERE path = 'presets.ts' ORDER BY start_line`).all();
      expect(rows).toEqual([
        { name: 'vercelEdge', kind: 'constant' },
        { name: 'build', kind: 'function' },
        { name: 'Registry', kind: 'class' },
        { name: 'definePreset', kind: 'function' },
      ]);
    } finally {
      p.close();
      removeProject(root);
    }
  });
});

describe('tier calibration', () => {
  it('maps random p95 to 0.3 and the relevant median to 0.6, monotonically', () => {
    const random = Array.from({ length: 200 }, (_, i) => 0.70 + (i / 200) * 0.1); // 0.70..0.80
    const relevant = Array.from({ length: 50 }, (_, i) => 0.80 + (i / 50) * 0.1); // 0.80..0.90
    const c = calibrate(relevant, random);
    expect(applyCalibration(c, quantile(random, 0.95))).toBeCloseTo(0.3, 2);
    expect(applyCalibration(c, quantile(relevant, 0.5))).toBeCloseTo(0.6, 2);
    expect(applyCalibration(c, 0.5)).toBeLessThan(0.1);
    expect(applyCalibration(c, 0.99)).toBeGreaterThan(0.85);
    let prev = -1;
    for (let x = 0; x <= 1; x += 0.01) {
      const y = applyCalibration(c, x);
      expect(y).toBeGreaterThanOrEqual(prev);
      prev = y;
    }
    // a model that cannot separate the two still yields a monotone curve
    const flat = calibrate([0.8, 0.8, 0.8], [0.8, 0.8, 0.8]);
    expect(flat.points.every((p, i) => i === 0 || p[0] > flat.points[i - 1]![0])).toBe(true);
  });
  it('keeps unrelated symbols below 0.3 and related ones above it, on the lexical backend', () => {
    const root = makeProject(APP);
    const project = new Project(root);
    return project.refresh().then(async () => {
      const engine = new SemanticEngine(project);
      const s = (name: string, file: string, container: string | null = null) => ({ name, container, file, signature: '' });
      const [auth, logger, cart] = await engine.scoreSymbols('ログイン機能', [s('authenticateUser', 'src/auth/service.ts'), s('Logger', 'src/log/logger.ts'), s('CartCheckout', 'src/cart/checkout.ts')]);
      expect(auth!.score).toBeGreaterThan(0.6);
      expect(auth!.backend).toBe('lexical');
      expect(logger!.score).toBeLessThan(0.3);
      expect(cart!.score).toBeLessThan(0.3);
      project.close();
      removeProject(root);
    });
  });
});

describe('NL→symbol cache', () => {
  it('learns, matches by term and concept, strengthens, decays and forgets', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-cache-'));
    const db = openDb(dir);
    let now = Date.UTC(2026, 0, 1);
    const cache = new NlCache(db, 30, () => now);
    // (a pair written twice in one session — the mapped term equal to the value — is one row, counted once: red team adv90)
    const pair = { term: 'ログイン機能', symbol: 'AuthService.login', file: 'src/auth.ts', evidence: 'src/auth.ts:3' };
    expect(cache.learn('s1', [pair, pair])).toBe(1);
    expect(cache.match('ログイン機能')).toEqual([expect.objectContaining({ symbol: 'AuthService.login', weight: 0.7, term_similarity: 1, evidence: 'src/auth.ts:3' })]);
    expect(cache.match('ログイン')[0]).toMatchObject({ symbol: 'AuthService.login', term_similarity: 1 }); // same concepts
    expect(cache.match('カートの合計')).toEqual([]);
    cache.learn('s2', [{ term: 'ログイン機能', symbol: 'AuthService.login' }]);
    expect(cache.match('ログイン機能')[0]!.weight).toBeCloseTo(0.8);
    now += 30 * 86_400_000; // one half-life
    expect(cache.match('ログイン機能')[0]!.weight).toBeCloseTo(0.4);
    now += 5 * 30 * 86_400_000;
    expect(cache.match('ログイン機能')).toEqual([]);
    expect(cache.count()).toBe(0);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the NL→symbol cache against poisoning (red team adv87)', () => {
  it('a match counts for the definition in the file it was confirmed in, not a namesake in another file; a renamed one names nothing', async () => {
    const root = makeProject({
      'lib/request.js': 'module.exports = {\n  get(field) {\n    return this.headers[field.toLowerCase()]\n  },\n}\n',
      'lib/response.js': 'module.exports = {\n  get(field) {\n    return this.getHeader(field)\n  },\n}\n',
    });
    const project = new Project(root);
    await project.refresh();
    const engine = new SemanticEngine(project);
    const [req, res] = project.db.prepare("SELECT s.container_name AS c FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = 'get' ORDER BY f.path").all() as { c: string }[];
    expect(req!.c).toBe(res!.c); // one qualified name in two files (koa's `default.get`)
    engine.cache.learn('s1', [{ term: 'Referrer header', symbol: `${req!.c}.get`, file: 'lib/request.js', evidence: 'lib/request.js:2' }], 'request one');
    const [r, s] = await engine.scoreSymbols('Referrer header', [
      { name: 'get', container: req!.c, file: 'lib/request.js', signature: 'function (field)' },
      { name: 'get', container: res!.c, file: 'lib/response.js', signature: 'function (field)' },
    ]);
    expect(r!.legs.history).toBeGreaterThan(0);
    expect(s!.legs.history).toBeUndefined();
    expect(engine.cache.match('Referrer header', undefined, (_sym, file) => file === 'lib/request.js')).toHaveLength(1);
    expect(engine.cache.match('Referrer header', undefined, (_sym, file) => file !== 'lib/request.js')).toEqual([]);
    // confirmations of one definition are not handed to its namesake in another file
    for (const src of ['two', 'three']) engine.cache.learn(`s-${src}`, [{ term: 'Referrer header', symbol: `${req!.c}.get`, file: 'lib/request.js' }], src);
    engine.cache.learn('s-res', [{ term: 'Referrer header', symbol: `${res!.c}.get`, file: 'lib/response.js' }], 'four');
    expect(engine.cache.match('Referrer header')[0]).toMatchObject({ file: 'lib/response.js', confirmations: 1 });
    project.close();
    removeProject(root);
  });

  it('a term matches only a target that says nearly all of it and nearly all of whose words it says', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-cache-'));
    const db = openDb(dir);
    const cache = new NlCache(db);
    cache.learn('s1', [{ term: 'header', symbol: 'res.flushHeaders' }], 'a');
    expect(cache.match('Referrer header')).toEqual([]);
    expect(cache.match('header')).toHaveLength(1);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sessions of one request confirm a match once; a row written by anything but the cache is ignored and dropped', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-cache-'));
    const db = openDb(dir);
    const cache = new NlCache(db);
    const pair = [{ term: 'Referrer', symbol: 'res.get', file: 'lib/response.js' }];
    for (const id of ['s1', 's2', 's3', 's4']) cache.learn(id, pair, 'make redirect back same-origin only');
    expect(cache.match('Referrer')[0]).toMatchObject({ confirmations: 1, weight: 0.7 });
    cache.learn('s5', pair, 'another request');
    expect(cache.match('Referrer')[0]).toMatchObject({ confirmations: 2 });
    // the same words with other punctuation, and an earlier request again, are no new request (red team adv88)
    for (const [id, src] of [['s6', 'Another request?'], ['s7', 'another request!'], ['s8', 'make redirect back same-origin only.']]) cache.learn(id!, pair, src);
    expect(cache.match('Referrer')[0]).toMatchObject({ confirmations: 2 });
    // a script's INSERT (and an edit of a row the cache wrote) carries no valid mac
    db.prepare("INSERT INTO nl_cache(term, term_norm, symbol, session_id, confirmations, first_at, last_at) VALUES ('Referrer', 'referrer', 'app.render', 'x', 9, ?, ?)").run(Date.now(), Date.now());
    db.prepare("UPDATE nl_cache SET confirmations = 9 WHERE symbol = 'res.get'").run();
    expect(cache.match('Referrer')).toEqual([]);
    expect(cache.count()).toBe(0);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a bare name confirmed in a file credits that file\'s one definition of it; history lifts only code that says half of acceptance (red team adv88)', async () => {
    const root = makeProject({
      'lib/request.js': 'module.exports = {\n  get(field) {\n    return this.headers[field.toLowerCase()]\n  },\n  get length() {\n    return Number(this.get(\'Content-Length\'))\n  },\n}\n',
      'lib/response.js': 'module.exports = {\n  get(field) {\n    return this.getHeader(field)\n  },\n}\n',
    });
    const project = new Project(root);
    await project.refresh();
    const engine = new SemanticEngine(project);
    engine.cache.learn('s1', [{ term: 'Referrer header', symbol: 'get', file: 'lib/request.js' }], 'a');
    const [req, res] = await engine.scoreSymbols('Referrer header', [
      { name: 'get', container: 'default', file: 'lib/request.js', signature: 'get(field)' },
      { name: 'get', container: 'default', file: 'lib/response.js', signature: 'get(field)' },
    ]);
    expect(req!.legs.history).toBeGreaterThan(0);
    expect(res!.legs.history).toBeUndefined();
    // a weighty match for a symbol whose own code says next to nothing of the target lifts nothing
    for (const src of ['a', 'b', 'c', 'd']) engine.cache.learn(`t${src}`, [{ term: 'Referrer header', symbol: 'default.length', file: 'lib/request.js' }], src);
    const [len] = await engine.scoreSymbols('Referrer header', [{ name: 'length', container: 'default', file: 'lib/request.js', signature: 'get length()', evidence: "return Number(this.get('Content-Length'))" }]);
    expect(len!.legs.history).toBeGreaterThan(0.7);
    expect(len!.score).toBeLessThan(0.15);
    project.close();
    removeProject(root);
  });

  it('earlier sessions only lift a score: a weaker match is not averaged in', async () => {
    const root = makeProject({ 'src/cart.ts': 'export class Cart {\n  total(): number {\n    return 0;\n  }\n}\n' });
    const project = new Project(root);
    await project.refresh();
    const engine = new SemanticEngine(project);
    const sym = { name: 'total', container: 'Cart', file: 'src/cart.ts', signature: 'total(): number' };
    const [plain] = await engine.scoreSymbols('cart total', [sym]);
    engine.cache.learn('s1', [{ term: 'cart total and tax', symbol: 'Cart.total', file: 'src/cart.ts' }], 'a');
    const [lifted] = await engine.scoreSymbols('cart total', [sym]);
    expect(lifted!.score).toBeGreaterThanOrEqual(plain!.score);
    project.close();
    removeProject(root);
  });
});

describe('a match learned under a bare name (red team adv27)', () => {
  it('credits the one definition of that name, not every definition sharing it', async () => {
    const root = makeProject({
      'src/url.ts': 'export function encode(params: Record<string, string>): string {\n  return new URLSearchParams(params).toString();\n}\n',
      'src/form.ts': 'export class FormDataPart {\n  encode(): string {\n    return "part";\n  }\n}\n',
      'src/unique.ts': 'export function serializeParams(p: object): string {\n  return JSON.stringify(p);\n}\n',
    });
    const project = new Project(root);
    await project.refresh();
    const engine = new SemanticEngine(project);
    const term = 'URLパラメータの直列化';
    engine.cache.learn('s1', [{ term, symbol: 'encode' }, { term, symbol: 'serializeParams' }]);
    engine.cache.learn('s2', [{ term, symbol: 'encode' }, { term, symbol: 'serializeParams' }]);
    const [part, unique] = await engine.scoreSymbols(term, [
      { name: 'encode', container: 'FormDataPart', file: 'src/form.ts', signature: 'encode(): string' },
      { name: 'serializeParams', container: null, file: 'src/unique.ts', signature: 'export function serializeParams(p: object): string {' },
    ]);
    expect(part!.legs.history).toBeUndefined();
    expect(unique!.legs.history).toBeGreaterThan(0);
    project.close();
    removeProject(root);
  });
});

describe('semantic_search on a fixture with known answers (lexical backend)', () => {
  let root: string;
  let project: Project;
  let engine: SemanticEngine;
  beforeAll(async () => {
    root = makeProject(APP);
    project = new Project(root);
    await project.refresh();
    engine = new SemanticEngine(project);
  });
  afterAll(() => {
    project.close();
    removeProject(root);
  });
  const top = async (query: string, p?: string) => (await engine.search({ query, path: p })).items[0];

  it('ranks the right symbol first for English, Japanese and Chinese requests', async () => {
    expect(await top('retry a failed request')).toMatchObject({ symbol: 'retryRequest', file: 'src/net/retry.ts', start_line: 1, end_line: 4, backend: 'lexical' });
    expect((await top('ユーザーのログイン'))!.symbol).toBe('authenticateUser');
    expect((await top('购物车结算'))!.symbol).toBe('CartCheckout');
    expect((await top('カートの合計'))!.symbol).toBe('CartCheckout.total');
    expect((await top('パスワードの照合'))!.symbol).toBe('checkPassword'); // its Japanese comment
  });
  it('uses pairs mined from the project: 帳票 → slips (from comments above symbols)', async () => {
    const r = await engine.search({ query: '帳票の削除' });
    expect(r.items[0]!.symbol).toBe('deleteSlips');
    expect(r.expanded_terms).toEqual(expect.arrayContaining(['slips']));
  });
  it('searches markdown sections, filters by path, and cuts below min_confidence', async () => {
    const r = await engine.search({ query: '再試行', path: 'docs' });
    expect(r.items[0]).toMatchObject({ file: 'docs/guide.md', kind: 'section', symbol: '再試行' });
    const all = await engine.search({ query: 'logger write message' });
    expect(all.items[0]!.symbol).toMatch(/^Logger/);
    expect(all.items.every((x) => x.score >= all.min_confidence)).toBe(true);
    expect(all.vector).toMatchObject({ available: false });
  });
});

describe('hybrid backend with the generated model, and incremental re-embedding', () => {
  let root: string;
  let project: Project;
  let modelDir: string;
  const saved = process.env.CODE_INTEL_MODEL_DIR;
  beforeAll(async () => {
    modelDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-tiny-')), 'tiny');
    writeTinyModel(modelDir, 32);
    process.env.CODE_INTEL_MODEL_DIR = modelDir;
    root = makeProject(APP);
    project = new Project(root);
    await project.refresh();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.CODE_INTEL_MODEL_DIR;
    else process.env.CODE_INTEL_MODEL_DIR = saved;
    project.close();
    removeProject(root);
    fs.rmSync(path.dirname(modelDir), { recursive: true, force: true });
  });

  it('embeds every chunk once, into sqlite-vec, and names the backend of every score', async () => {
    const engine = new SemanticEngine(project);
    const counts = await engine.ensureEmbedded();
    expect(counts).toEqual({ embedded: counts!.total, total: counts!.total });
    expect(counts!.total).toBeGreaterThanOrEqual(8);
    const r = await engine.search({ query: 'ログイン' });
    expect(r.backend).toBe('neural(tiny)+lexical');
    expect(r.vector).toMatchObject({ model: 'tiny', knn: 'sqlite-vec' });
    expect(r.items[0]).toMatchObject({ symbol: 'authenticateUser', backend: 'neural+lexical' });
    expect(r.items[0]!.legs.vector).toBeDefined();
    const [scored] = await engine.scoreSymbols('ログイン機能', [{ name: 'authenticateUser', container: null, file: 'src/auth/service.ts', signature: '' }]);
    expect(scored!.backend).toBe('neural+lexical');
  });

  it('calibrates the model on the project\'s own documented functions (≥ 12), and keeps the curve', async () => {
    const topics = ['login', 'cart', 'total', 'price', 'format', 'subscribe', 'retry', 'delete', 'config', 'user', 'password', 'checkout', 'tax', 'message'];
    const files: Record<string, string> = {};
    topics.forEach((t, i) => (files[`src/m${i}.ts`] = `/** Handles the ${t} of the service. */\nexport function handle${t[0]!.toUpperCase()}${t.slice(1)}(x: number) {\n  return x + ${i};\n}\n`));
    const dir = makeProject(files);
    const p = new Project(dir);
    await p.refresh();
    const engine = new SemanticEngine(p);
    await engine.ensureEmbedded();
    const cal = JSON.parse((p.db.prepare(`SELECT value FROM meta WHERE key = 'calibration:tiny:32'`).get() as { value: string }).value);
    expect(cal).toMatchObject({ source: 'project', measured: { relevant: 14, random: 14 * 13 } });
    expect(cal.points.every((pt: number[], i: number) => i === 0 || pt[0]! > cal.points[i - 1][0])).toBe(true);
    p.close();
    removeProject(dir);
  });

  it('re-embeds only the chunks whose text changed', async () => {
    const engine = new SemanticEngine(project);
    await engine.ensureEmbedded();
    const embedded: string[] = [];
    const e = (await engine.provider.get())!;
    const original = e.embed.bind(e);
    e.embed = async (texts, kind) => {
      if (kind === 'passage') embedded.push(...texts);
      return original(texts, kind);
    };
    try {
      fs.appendFileSync(path.join(root, 'src/net/retry.ts'), '\n/** Waits before the next attempt. */\nexport function backoff(ms: number) { return ms * 2; }\n');
      await project.refresh();
      await engine.ensureEmbedded();
      expect(embedded).toHaveLength(1);
      expect(embedded[0]).toContain('backoff');
      embedded.length = 0;
      await project.refresh();
      await engine.ensureEmbedded();
      expect(embedded).toHaveLength(0);
    } finally {
      e.embed = original;
    }
  });
});

describe('cached_matches across sessions', () => {
  it('a successful session teaches the cache; the next validation returns its matches first and scores them with the history leg', async () => {
    const { SAMPLE } = await import('./helpers/project.js');
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { findReferences } = await import('../src/query/references.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const root = makeProject(SAMPLE);
    const project = new Project(root);
    await project.refresh();
    const sessions = new SessionService(project);
    const toValidation = (quote = 'カートの合計') => {
      sessions.start('IMPLEMENT', 'カートの合計に消費税を加える処理を追加して');
      sessions.setQueryFrame({ target_feature: { value: 'カートの合計', quote } });
      sessions.record('find_definitions', { name: 'formatPrice' }, { ...findDefinitions(project, { name: 'formatPrice' }) });
      sessions.record('get_symbols', { file: 'src/util/format.ts' }, { ...getSymbols(project, { file: 'src/util/format.ts' }) }); // a definition row names its file
      sessions.record('find_references', { name: 'Cart' }, { ...findReferences(project, { name: 'Cart' }) });
      sessions.record('get_symbols', { file: 'src/cart.ts' }, { ...getSymbols(project, { file: 'src/cart.ts' }) });
      sessions.submitUnderstanding({ symbols_identified: ['Cart', 'Cart.total', 'formatPrice'], entry_points: ['Cart.total()'], existing_patterns: ['fluent methods returning this, like Cart.add'], files_analyzed: ['src/cart.ts', 'src/util/format.ts'] });
    };
    toValidation();
    const { SAMPLE_CONFIRM, SAMPLE_SYMBOLS, readWhole } = await import('./helpers/session.js');
    const first = await sessions.validateRelevance('カートの合計', SAMPLE_SYMBOLS);
    expect(first.cached_matches).toEqual([]);
    const c1 = await sessions.confirmRelevance(SAMPLE_CONFIRM);
    expect(c1.next_phase).toBe('READY');
    expect((c1.accepted as { symbol: string; legs: object }[]).find((a) => a.symbol === 'Cart.total')!.legs).toEqual({ keyword: expect.any(Number) });
    const ended = sessions.end('success') as { cached_matches_learned: number; not_learned?: { symbol: string; why: string }[] };
    const learned = ended.cached_matches_learned;
    // what the words accepted teaches; a symbol a link accepted (formatPrice, which Cart.total calls) does not (red team adv28)
    const byLink = (c1.accepted as { symbol: string; legs: { graph?: number } }[]).filter((a) => a.legs.graph !== undefined).map((a) => a.symbol);
    expect(byLink).toEqual(['formatPrice']);
    // and the answer says which taught nothing, and why (agent trial tr167 read the count as a miscount)
    expect(ended.not_learned).toEqual([{ symbol: 'formatPrice', why: expect.stringMatching(/through a link/) }]);
    expect((ended as { learned_symbols?: string[] }).learned_symbols).not.toContain('formatPrice');
    expect(learned).toBe((c1.accepted as unknown[]).length - byLink.length);

    toValidation();
    const second = await sessions.validateRelevance('カートの合計', ['Cart']);
    expect(second.cached_matches).toEqual(expect.arrayContaining([expect.objectContaining({ term: 'カートの合計', symbol: 'Cart.total', evidence: 'src/cart.ts:10', weight: 0.7 })]));
    const c2 = await sessions.confirmRelevance([{ symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' }, { symbol: 'Cart', approved: false }]);
    const accepted = (c2.accepted as { backend: string; legs: { keyword: number; history?: number }; similarity: number }[])[0]!;
    expect(accepted.backend).toBe('lexical+history');
    expect(accepted.legs.history).toBe(0.7);
    sessions.end('failure'); // a failed session teaches nothing
    expect(sessions.engine.cache.count()).toBe(learned);
    // nor does one that claims success without the machine ever reaching READY
    toValidation();
    expect(sessions.end('success')).toMatchObject({ cached_matches_learned: 0 });
    expect(sessions.engine.cache.count()).toBe(learned);
    // a quote longer than its value: learned under both, so a later session that validates with the value finds it (red team adv88)
    toValidation('カートの合計に消費税を加える処理');
    await sessions.validateRelevance('カートの合計に消費税を加える処理', SAMPLE_SYMBOLS);
    expect((await sessions.confirmRelevance(SAMPLE_CONFIRM)).next_phase).toBe('READY');
    sessions.end('success');
    const rows = sessions.engine.cache.db.prepare("SELECT term, session_id FROM nl_cache WHERE symbol = 'Cart.total' ORDER BY term").all() as { term: string; session_id: string }[];
    expect(rows.map((r) => r.term)).toEqual(['カートの合計', 'カートの合計に消費税を加える処理']);
    expect(rows[0]!.session_id).toBe(rows[1]!.session_id); // the value, confirmed again by this session
    // where the guard runs: a change request that changed nothing after READY teaches nothing (red team adv91)
    const before = sessions.engine.cache.count();
    toValidation('カートの合計に消費税を加える');
    readWhole(sessions, 'src/cart.ts'); // (a Read the hook recorded: the client's hooks run the guard)
    await sessions.validateRelevance('カートの合計に消費税を加える', SAMPLE_SYMBOLS);
    expect((await sessions.confirmRelevance(SAMPLE_CONFIRM)).next_phase).toBe('READY');
    expect(sessions.end('success')).toMatchObject({ cached_matches_learned: 0, not_learned_note: expect.stringMatching(/did not change after READY/) });
    expect(sessions.engine.cache.count()).toBe(before);
    // and one that changed the project (the guard accepted a change after READY) does
    toValidation('カートの合計に消費税を加える');
    readWhole(sessions, 'src/cart.ts');
    await sessions.validateRelevance('カートの合計に消費税を加える', SAMPLE_SYMBOLS);
    expect((await sessions.confirmRelevance(SAMPLE_CONFIRM)).next_phase).toBe('READY');
    sessions.store.setGuardValues({ seq: String(Number(sessions.store.guardValue('seq')) + 1) }); // (as the guard counts an accepted change)
    expect((sessions.end('success') as { cached_matches_learned: number }).cached_matches_learned).toBeGreaterThan(0);
    project.close();
    removeProject(root);
  });
});

describe('a rejection says which definition it judged', () => {
  it('names the definition a shared name was judged as, and how to name another (agent trial tr24: five serialize_f64)', async () => {
    const { SAMPLE } = await import('./helpers/project.js');
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { findReferences } = await import('../src/query/references.js');
    const files = {
      ...SAMPLE,
      'src/report.ts': 'export class Report {\n  render(): string {\n    return "report";\n  }\n}\n',
      'src/banner.ts': 'export class Banner {\n  render(): string {\n    return "banner";\n  }\n}\n',
    };
    const root = makeProject(files);
    const project = new Project(root);
    await project.refresh();
    const sessions = new SessionService(project);
    sessions.start('INVESTIGATE', 'カートの合計はどう計算される？');
    sessions.setQueryFrame({ target_feature: { value: 'カートの合計', quote: 'カートの合計' } });
    sessions.record('find_definitions', { name: 'render' }, { ...findDefinitions(project, { name: 'render' }) });
    sessions.record('find_references', { name: 'Cart' }, { ...findReferences(project, { name: 'Cart' }) });
    sessions.record('find_definitions', { name: 'Cart' }, { ...findDefinitions(project, { name: 'Cart' }) });
    // the definition rows name their files; their outlines show the code
    const { getSymbols } = await import('../src/query/outline.js');
    for (const file of ['src/cart.ts', 'src/banner.ts']) sessions.record('get_symbols', { file }, { ...getSymbols(project, { file }) });
    sessions.submitUnderstanding({ symbols_identified: ['Cart', 'render'], entry_points: ['Cart.total()'], existing_patterns: [], files_analyzed: ['src/cart.ts', 'src/banner.ts'] });
    await sessions.validateRelevance('カートの合計', ['Cart', 'render']);
    const r = await sessions.confirmRelevance([
      { symbol: 'Cart', approved: true, code_evidence: '`export class Cart {` in src/cart.ts' },
      { symbol: 'render', approved: true, code_evidence: 'src/banner.ts:2' },
    ]);
    const rejected = (r.rejected as { symbol: string; judged_as?: string; guidance: { reason: string } }[]).find((x) => x.symbol === 'render')!;
    expect(rejected.judged_as).toMatch(/^judged as Banner\.render at src\/banner\.ts:2, the one of its 2 definitions nearest the code_evidence/);
    expect(rejected.guidance.reason).toContain('Banner.render at src/banner.ts:2');
    project.db.close();
    removeProject(root);
  });
});

describe('a rejection names the declaration its evidence lies in when that one was not sent', () => {
  it('says the call cited sits inside a declaration left out, and to send that one (agent trial tr97: composeSignals cited inside the fetch adapter)', async () => {
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const { readWhole } = await import('./helpers/session.js');
    const root = makeProject({
      'src/timeout.ts': 'export function requestTimeout(ms: number): number {\n  return ms;\n}\n',
      'src/ky.ts': 'export interface KyInstance {\n  get(url: string): Promise<unknown>;\n  post(url: string): Promise<unknown>;\n}\n',
      'src/signals.ts': 'export function composeSignals(list: AbortSignal[], ms: number): AbortSignal {\n  const c = new AbortController();\n  setTimeout(() => c.abort(), ms);\n  return c.signal;\n}\n',
      'src/request.ts': "import { composeSignals } from './signals';\nexport async function send(url: string, signal: AbortSignal, ms: number) {\n  const s = composeSignals([signal], ms);\n  return globalThis.fetch(url, { signal: s });\n}\n",
    });
    const project = new Project(root);
    await project.refresh();
    const sessions = new SessionService(project);
    sessions.start('INVESTIGATE', 'How does the request timeout abort a request?');
    sessions.setQueryFrame({ target_feature: { value: 'request timeout', quote: 'request timeout' } });
    for (const name of ['composeSignals', 'send', 'requestTimeout']) sessions.record('find_definitions', { name }, { ...findDefinitions(project, { name }) });
    for (const file of ['src/signals.ts', 'src/request.ts', 'src/timeout.ts']) sessions.record('get_symbols', { file }, { ...getSymbols(project, { file }) });
    for (const file of ['src/signals.ts', 'src/request.ts']) readWhole(sessions, file);
    sessions.submitUnderstanding({ symbols_identified: ['composeSignals', 'requestTimeout'], entry_points: ['requestTimeout()'], existing_patterns: [], files_analyzed: ['src/signals.ts', 'src/request.ts'] });
    await sessions.validateRelevance('request timeout', ['composeSignals', 'requestTimeout']);
    const r = await sessions.confirmRelevance([
      { symbol: 'requestTimeout', approved: true, code_evidence: 'src/timeout.ts:1' },
      { symbol: 'composeSignals', approved: true, code_evidence: 'src/request.ts:3' },
    ]);
    const rejected = (r.rejected as { symbol: string; guidance: { reason: string; next_actions: string[] } }[]).find((x) => x.symbol === 'composeSignals')!;
    expect(rejected.guidance.reason).toContain('Its code_evidence (src/request.ts:3) lies inside send, which was not sent for validation');
    expect(rejected.guidance.next_actions[0]).toMatch(/^if send is part of 'request timeout', send it too/);
    // a line inside a member of the symbol itself is inside the symbol (agent trial tr101: KyInstance.get)
    const v = (sessions as unknown as { validation: { unsentHolder(symbol: string, where: string, accepted: ReadonlySet<string>, mapped: { symbol: string }[]): string | undefined } }).validation;
    expect(v.unsentHolder('KyInstance', 'src/ky.ts:3', new Set(), [])).toBeUndefined();
    expect(v.unsentHolder('composeSignals', 'src/request.ts:3', new Set(), [])).toBe('send');
    project.db.close();
    removeProject(root);
  });
});

describe('a member cited where it is used is the definition that use resolves to', () => {
  it('`AxiosError.from(…)` in the fetch adapter is lib/core/AxiosError.js, not the .d.ts that declares it too (agent trial tr97)', async () => {
    const { SessionService } = await import('../src/session/service.js');
    const root = makeProject({
      'index.d.ts': 'export class AxiosError extends Error {\n  static from(error: Error): AxiosError;\n}\n',
      'lib/core/AxiosError.js': 'class AxiosError extends Error {\n  static from(error) {\n    return new AxiosError(error.message);\n  }\n}\nexport default AxiosError;\n',
      'lib/adapters/fetch.js': "import AxiosError from '../core/AxiosError.js';\nexport default async (config) => {\n  try { return await fetch(config.url); } catch (err) { throw AxiosError.from(err); }\n};\n",
    });
    const project = new Project(root);
    await project.refresh();
    const sessions = new SessionService(project);
    const v = (sessions as unknown as { validation: { definitionsFor(name: string, where?: unknown): { path: string }[] } }).validation;
    expect(v.definitionsFor('AxiosError.from', 'lib/adapters/fetch.js:3')[0]!.path).toBe('lib/core/AxiosError.js');
    project.db.close();
    removeProject(root);
  });
});

describe('a compound request word the code writes apart (autofix → fix)', () => {
  const doc = (name: string, body = '') => keywordDoc({ name, path: 'lib/rules/no-var.js', body });
  const docs = [doc('canFix'), doc('report', 'fix fixer replace'), doc('fixRange'), doc('autoWidth'), doc('isLoopAssignee'), doc('checkout'), doc('outdated'), doc('autofixDocs')];
  const index = new KeywordIndex(docs);

  it('gives the head the project uses more than the compound, never a function word', () => {
    expect(compoundHead('autofix', index)).toBe('fix'); // 'fix' is a request verb, yet a compound's head
    expect(compoundHead('checkout', index)).toBeUndefined(); // 'out' is a function word
    expect(compoundHead('loop', index)).toBeUndefined(); // too short to be two words
    expect(compoundHead('autofix', new KeywordIndex([doc('autoFix', 'autofix')]))).toBeUndefined(); // 'fix' in no more documents than the compound
  });

  it('matches the head at a quarter: the concept is expressed in part, never enough to accept alone (red team adv14: "filename" took every *Name)', () => {
    const [autofix] = withCompoundHeads(conceptsOf('autofix'), index);
    expect(autofix).toMatchObject({ term: 'autofix', words: ['autofix'], weak: ['fix'] });
    expect(coverageOf([autofix!], doc('canFix')).coverage).toBe(0.25);
    expect(coverageOf([autofix!], doc('canFix')).coverage).toBeLessThan(0.3);
    // beside a concept matched whole it adds: the rule's file says "var"
    const both = withCompoundHeads(conceptsOf('var autofix'), index);
    expect(coverageOf(both, doc('canFix')).coverage).toBeGreaterThan(coverageOf(conceptsOf('var autofix'), doc('canFix')).coverage);
    expect(coverageOf([autofix!], doc('autofixDocs')).coverage).toBe(1);
    expect(coverageOf([autofix!], doc('isLoopAssignee')).coverage).toBe(0);
    // without the split the rule's own fixer is no match at all
    expect(coverageOf(conceptsOf('autofix'), doc('canFix')).coverage).toBe(0);
  });
});

describe('a word the target shares with a family of siblings (red team adv13)', () => {
  it('gives no credit to a member when the target names the member beside it: "fetch adapter" is not xhr.js', async () => {
    const root = makeProject({
      'lib/adapters/xhr.js': 'export const isXHRAdapterSupported = typeof XMLHttpRequest !== "undefined";\nexport default function xhrAdapter(config) {\n  return new XMLHttpRequest(config);\n}\n',
      'lib/adapters/http.js': 'export const isHttpAdapterSupported = typeof process !== "undefined";\nexport default function httpAdapter(config) {\n  return request(config);\n}\n',
      'lib/adapters/fetch.js': 'export const isFetchSupported = typeof fetch === "function";\nexport default function fetchAdapter(config) {\n  return fetch(config.url);\n}\n',
      'lib/core/dispatch.js': 'export function dispatchRequest(config) {\n  return config.adapter(config);\n}\n',
      'lib/core/only.js': 'export function only(obj, keys) {\n  return keys;\n}\n',
      'lib/rules/getter-return.js': 'function isGetter(node) {\n  return node.kind === "get";\n}\nexport default { create(context) { return { FunctionExpression: isGetter }; } };\n',
      'lib/rules/accessor-pairs.js': 'function isPropertyDescriptor(node) {\n  return node.type === "ObjectExpression";\n}\nexport default { create(context) { return { ObjectExpression: isPropertyDescriptor }; } };\n',
      'lib/rules/array-callback-return.js': 'function isCallback(node) {\n  return true;\n}\nexport default { create(context) { return { ArrowFunctionExpression: isCallback }; } };\n',
      ...Object.fromEntries(['headers', 'cookies', 'params', 'timeout', 'cancel', 'retry', 'encode', 'merge', 'progress', 'errors'].map((w) => [`lib/helpers/${w}.js`, `export function ${w}Helper(value) {\n  return String(value);\n}\n`])),
    });
    const project = new Project(root);
    await project.refresh();
    const engine = new SemanticEngine(project);
    const siblingOf = (file: string, missing: string[], matched: string[]) => siblingSaying(project.db, file, missing, matched);
    const score = async (name: string, file: string, target = 'fetch adapter') => (await engine.scoreSymbols(target, [{ name, container: null, file, signature: '' }], { siblingOf }))[0]!;
    const xhr = await score('isXHRAdapterSupported', 'lib/adapters/xhr.js');
    expect(xhr.legs).toMatchObject({ sibling: 'lib/adapters/fetch.js' });
    // a refusal names the words the sibling is named for, not every missing one (agent trial tr138: クラス, 指定 for _typing_compat.pyi)
    expect(wordsNamingSibling('lib/adapters/fetch.js', ['fetch', 'stream'])).toEqual(['fetch']);
    expect(wordsNamingSibling('src/attr/_typing_compat.pyi', ['クラス', '指定'])).toEqual(['クラス']);
    expect(xhr.score).toBeLessThan(0.3);
    expect((await score('isFetchSupported', 'lib/adapters/fetch.js')).score).toBeGreaterThan(0.6);
    // a symbol with no sibling named for the missing word keeps its partial credit
    const dispatch = await score('dispatchRequest', 'lib/core/dispatch.js');
    expect(dispatch.legs.sibling).toBeUndefined();
    // an adverb of the target names no file (red team adv88: "… only when …" capped koa's request.origin for lib/only.js)
    expect(siblingSaying(project.db, 'lib/core/dispatch.js', ['only'])).toBeUndefined();
    expect(siblingSaying(project.db, 'lib/core/dispatch.js', ['only', 'merge'])).toBeUndefined();
    // a target that names two files beside each other names each one, not a family (agent trial tr98)
    for (const [name, file] of [['isGetter', 'lib/rules/getter-return.js'], ['isPropertyDescriptor', 'lib/rules/accessor-pairs.js']] as const) {
      for (const target of ['getter-return and accessor-pairs rules', 'getter-return 和 accessor-pairs 规则']) {
        const r = await score(name, file, target);
        expect(r.legs.sibling, `${name} ${target}`).toBeUndefined();
        expect(r.score, `${name} ${target}`).toBeGreaterThanOrEqual(0.3);
      }
    }
    project.db.close();
    removeProject(root);
  });
});

describe('an import alias is found by find_definitions (agent trial tr79)', () => {
  it('`from ._types import SupportsRead as _SupportsRead` and `import { a as b }`: the alias finds the declaration it names', async () => {
    const { findDefinitions } = await import('../src/query/definitions.js');
    const root = makeProject({
      'pkg/__init__.py': '',
      'pkg/_types.py': 'class SupportsRead:\n    def read(self):\n        ...\n',
      'pkg/models.py': 'from ._types import SupportsRead as _SupportsRead\n\n\ndef encode(fp):\n    return isinstance(fp, _SupportsRead)\n',
      'src/a.ts': 'export function formatPrice(n: number): string {\n  return String(n);\n}\n',
      'src/b.ts': 'import { formatPrice as price } from "./a";\n\nexport const shown = price(1);\n',
    });
    const project = new Project(root);
    await project.refresh();
    const py = findDefinitions(project, { name: '_SupportsRead' });
    expect(py.items).toEqual([expect.objectContaining({ file: 'pkg/_types.py', name: 'SupportsRead', imported_as: '_SupportsRead' })]);
    expect(py.resolution).toMatch(/'_SupportsRead' is the name an import gives SupportsRead/);
    expect(findDefinitions(project, { name: 'price' }).items).toEqual([expect.objectContaining({ file: 'src/a.ts', name: 'formatPrice' })]);
    // a name declared somewhere is that declaration, never an alias of another
    expect(findDefinitions(project, { name: 'formatPrice' }).items.map((d) => d.file)).toEqual(['src/a.ts']);
    // find_references takes the alias as find_definitions does (agent trial tr102)
    const { findReferences } = await import('../src/query/references.js');
    expect(findReferences(project, { name: '_SupportsRead' }).items).toEqual(expect.arrayContaining([expect.objectContaining({ file: 'pkg/models.py', line: 5 })]));
    // a use under the alias is a use of the declaration, as code_evidence (agent trial tr102)
    const { SessionService } = await import('../src/session/service.js');
    const v = (new SessionService(project) as unknown as { validation: { referenceOf(symbol: string, file: string, line: number): boolean } }).validation;
    expect(v.referenceOf('SupportsRead', 'pkg/models.py', 5)).toBe(true);
    expect(v.referenceOf('formatPrice', 'src/b.ts', 3)).toBe(true);
    expect(v.referenceOf('SupportsRead', 'src/b.ts', 3)).toBe(false);
    project.db.close();
    removeProject(root);
  });
});

describe('an anonymous default export goes by the name its importers give it (agent trial tr67)', () => {
  it('find_definitions and submit_understanding take resolveConfig for resolveConfig.js\'s `export default (config) => …`', async () => {
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const root = makeProject({
      'lib/helpers/resolveConfig.js': 'import buildURL from "./buildURL.js";\n\nexport default (config) => {\n  const url = buildURL(config.url, config.params, config.paramsSerializer);\n  return { ...config, url };\n};\n',
      'lib/helpers/buildURL.js': 'export default function buildURL(url, params, serializer) {\n  const query = typeof serializer === "function" ? serializer(params) : String(params);\n  return url + "?" + query;\n}\n',
      'lib/adapters/xhr.js': 'import resolveConfig from "../helpers/resolveConfig.js";\n\nexport default function xhrAdapter(config) {\n  const own = resolveConfig(config);\n  return own.url;\n}\n',
    });
    const project = new Project(root);
    await project.refresh();
    const defs = findDefinitions(project, { name: 'resolveConfig' });
    expect(defs.items).toEqual([expect.objectContaining({ file: 'lib/helpers/resolveConfig.js', name: 'default' })]);
    expect(defs.resolution).toMatch(/default export of lib\/helpers\/resolveConfig\.js, imported as 'resolveConfig'/);
    const sessions = new SessionService(project);
    sessions.start('MODIFY', 'buildURL should accept a paramsSerializer given as a plain function');
    sessions.setQueryFrame({ target_feature: { value: 'buildURL', quote: 'buildURL' }, desired_action: { value: 'accept a paramsSerializer given as a plain function', quote: 'accept a paramsSerializer given as a plain function' } });
    for (const name of ['buildURL', 'resolveConfig', 'xhrAdapter']) sessions.record('find_definitions', { name }, { ...findDefinitions(project, { name }) });
    for (const file of ['lib/helpers/resolveConfig.js', 'lib/helpers/buildURL.js', 'lib/adapters/xhr.js']) sessions.record('get_symbols', { file }, { ...getSymbols(project, { file }) });
    const { findReferences } = await import('../src/query/references.js');
    sessions.record('find_references', { name: 'buildURL' }, { ...findReferences(project, { name: 'buildURL' }) });
    sessions.submitUnderstanding({
      symbols_identified: ['buildURL', 'resolveConfig', 'xhrAdapter'], entry_points: ['xhrAdapter'], existing_patterns: [],
      files_analyzed: ['lib/helpers/resolveConfig.js', 'lib/helpers/buildURL.js', 'lib/adapters/xhr.js'], mapped_symbols: [{ nl_term: 'buildURL', symbol: 'buildURL' }],
    });
    // accepted: the name exists and was seen (its definition row names it), so the session moved on
    expect(sessions.status()).toMatchObject({ phase: 'SEMANTIC' });
    project.db.close();
    removeProject(root);
  });
});

describe('a symbol accepted only through a link vouches for nothing it holds (red team adv16)', () => {
  it('the module object `default`, linked to the method the target names, does not bring in its other methods', async () => {
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const { findReferences } = await import('../src/query/references.js');
    const body = (name: string, extra: string) => `  ${name}(value) {\n    const out = String(value);\n    ${extra}\n    return out;\n  },\n`;
    const root = makeProject({
      'lib/response.js': `'use strict'\n\nmodule.exports = {\n${body('attachment', 'this.set("Content-Disposition", out)')}${body('flushHeaders', 'this.res.flushHeaders()')}${body('inspect', 'return this.toJSON()')}${body('toJSON', 'return { status: this.status }')}}\n`,
      'lib/context.js': "'use strict'\nconst response = require('./response')\nfunction download(ctx, name) {\n  response.attachment.call(ctx, name)\n  return ctx\n}\nmodule.exports = download\n",
    });
    const project = new Project(root);
    await project.refresh();
    const sessions = new SessionService(project);
    sessions.start('MODIFY', 'ctx.attachment should keep a Content-Type that is already set');
    sessions.setQueryFrame({ target_feature: { value: 'ctx.attachment', quote: 'ctx.attachment' }, desired_action: { value: 'keep a Content-Type that is already set', quote: 'keep a Content-Type that is already set' } });
    for (const name of ['attachment', 'default', 'flushHeaders', 'inspect', 'toJSON']) sessions.record('find_definitions', { name }, { ...findDefinitions(project, { name }) });
    sessions.record('find_references', { name: 'attachment' }, { ...findReferences(project, { name: 'attachment' }) });
    for (const file of ['lib/response.js', 'lib/context.js']) sessions.record('get_symbols', { file }, { ...getSymbols(project, { file }) });
    const lineOf = (needle: string) => fs.readFileSync(path.join(root, 'lib/response.js'), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
    sessions.record('find_definitions', { name: 'attachment', include_body: true }, { ...findDefinitions(project, { name: 'attachment', include_body: true } as never) });
    const symbols = ['attachment', 'default', 'flushHeaders', 'inspect', 'toJSON'];
    sessions.submitUnderstanding({ symbols_identified: symbols, entry_points: ['attachment'], existing_patterns: ['default'], files_analyzed: ['lib/response.js', 'lib/context.js'], mapped_symbols: [{ nl_term: 'ctx.attachment', symbol: 'attachment' }] });
    expect(sessions.status()).toMatchObject({ phase: 'VALIDATION' });
    await sessions.validateRelevance('ctx.attachment', symbols);
    const r = await sessions.confirmRelevance([
      { symbol: 'attachment', approved: true, code_evidence: `lib/response.js:${lineOf('attachment(')}` },
      { symbol: 'default', approved: true, code_evidence: 'lib/response.js:3' },
      { symbol: 'flushHeaders', approved: true, code_evidence: `lib/response.js:${lineOf('flushHeaders(')}` },
      { symbol: 'inspect', approved: true, code_evidence: `lib/response.js:${lineOf('inspect(')}` },
      { symbol: 'toJSON', approved: true, code_evidence: `lib/response.js:${lineOf('toJSON(')}` },
    ]);
    const accepted = (r.accepted as { symbol: string }[]).map((a) => a.symbol);
    expect(accepted).toContain('attachment');
    for (const s of ['flushHeaders', 'inspect', 'toJSON']) expect(accepted, s).not.toContain(s);
    project.db.close();
    removeProject(root);
  });
});

describe('earlier sessions lift a symbol, never carry one (red team adv83)', () => {
  it('a symbol that shares nothing with the target scores 0 however often it was confirmed for it', async () => {
    const { SAMPLE } = await import('./helpers/project.js');
    const { SessionService } = await import('../src/session/service.js');
    const root = makeProject(SAMPLE);
    const project = new Project(root);
    await project.refresh();
    const sessions = new SessionService(project);
    // five sessions "confirmed" formatPrice for the cart's total: the cache holds it, weighty
    for (let i = 0; i < 5; i++) sessions.engine.cache.learn(`s${i}`, [{ term: 'カートの合計', symbol: 'formatPrice', file: 'src/util/format.ts', evidence: 'src/util/format.ts:2' }]);
    const [price, total] = await sessions.engine.scoreSymbols('カートの合計', [
      { name: 'formatPrice', container: null, file: 'src/util/format.ts', signature: 'export function formatPrice(cents: number): string' },
      { name: 'total', container: 'Cart', file: 'src/cart.ts', signature: 'total(): number' },
    ]);
    expect(price!.legs.history).toBeGreaterThan(0.5);
    expect(price!.legs.keyword).toBe(0);
    expect(price!.score).toBe(0);
    expect(total!.score).toBeGreaterThan(0);
    project.db.close();
    removeProject(root);
  });
});
