/**
 * Issue #13, the parts below the protocol: linear splitters that give the same words as before,
 * the answer size cap, argument measurement, the search worker's deadline, the stdio transport's
 * handling of oversized and malformed lines, and unreadable directories in the index summary.
 */
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { prng } from '../bench/lib/util.js';
import { conceptsOf, identifierWords } from '../src/embeddings/text.js';
import { walkProject } from '../src/index/walk.js';
import { Project } from '../src/project/project.js';
import { splitWords } from '../src/util/words.js';
import { searchTextGuarded } from '../src/query/search-pool.js';
import { searchText } from '../src/query/search-text.js';
import { LIMITS, measureArgs } from '../src/server/limits.js';
import { answerBytes, fitAnswer, fromException, ok, toolError } from '../src/server/respond.js';
import { GuardedStdioTransport } from '../src/server/stdio.js';
import { support } from '../src/session/queryframe.js';
import { Deadline, runWithDeadline } from '../src/util/deadline.js';
import { findReferences } from '../src/query/references.js';
import { personalizedRank } from '../src/session/graph-relevance.js';
import { quote, trimSlashes } from '../src/util/paths.js';
import { camelSpaces } from '../src/util/words.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';

/** The two regular expressions camelSpaces replaces (the second backtracks quadratically). */
const camelByRegex = (s: string) => s.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');

const ms = (fn: () => void) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};

describe('linear splitters', () => {
  it('camelSpaces gives what the regular expressions gave, on 200,000 random strings', () => {
    const rand = prng(13);
    const alphabet = [...'aAbBzZ09 _éÉ'];
    for (let k = 0; k < 200_000; k++) {
      let s = '';
      for (let i = Math.floor(rand() * 14); i > 0; i--) s += alphabet[Math.floor(rand() * alphabet.length)];
      if (camelSpaces(s) !== camelByRegex(s)) expect(camelSpaces(s), JSON.stringify(s)).toBe(camelByRegex(s));
    }
    for (const s of ['parseHTTPRequest_v2', 'XMLHttpRequest', 'userId2Name', 'ABCdEFg', 'HTTP2Server', 'iOS', 'ÉtatA', 'A']) expect(camelSpaces(s)).toBe(camelByRegex(s));
  });

  it('splitWords is linear: a 1 MB word of capitals in milliseconds (it took minutes)', () => {
    expect(splitWords('parseHTTPRequest_v2')).toEqual(['parse', 'http', 'request', 'v2']);
    const t = ms(() => splitWords('A'.repeat(1 << 20)));
    expect(t).toBeLessThan(1000);
    expect(ms(() => splitWords('aB'.repeat(1 << 19)))).toBeLessThan(2000);
  });

  it('identifierWords and conceptsOf are linear on long requests, and give the same concepts', () => {
    expect(conceptsOf('カートの合計に消費税を加える処理を追加して').map((c) => c.term)).toEqual(expect.arrayContaining(['合計', '消費税']));
    // 64 KB of one glossary term took 7 s (a quadratic splice per occurrence), 256 KB 84 s
    expect(ms(() => conceptsOf('認証'.repeat(32_768)))).toBeLessThan(3000);
    // a katakana compound is split by a search over its parts (400 characters took 144 ms, 4,000 minutes);
    // each word is checked against every concept's words (20,000 words took 1.5 s)
    expect(ms(() => conceptsOf('アイウエオカキクケコサシスセソタチツテト'.repeat(2000)))).toBeLessThan(3000);
    expect(ms(() => conceptsOf(('スタブアクションヘルパー'.repeat(4) + ' ').repeat(2000)))).toBeLessThan(3000);
    expect(ms(() => conceptsOf(Array.from({ length: 40_000 }, (_, i) => `w${i.toString(36)}`).join(' ')))).toBeLessThan(3000);
    // 131,072 words from one chunk overflowed the stack (push(...words))
    expect(identifierWords('aA'.repeat(1 << 17) + 'é').length).toBeGreaterThan(100_000);
  });

  it('QueryFrame grounding is linear in its inputs', () => {
    const long = 'カート'.repeat(5000);
    expect(ms(() => support(long, long + ' x'))).toBeLessThan(3000);
    expect(ms(() => support('a_'.repeat(4000) + 'é', 'aA'.repeat(4000)))).toBeLessThan(3000);
  });

  it('trimSlashes and quote', () => {
    expect(trimSlashes('src///')).toBe('src');
    expect(trimSlashes('/'.repeat(1 << 20))).toBe('');
    expect(quote('abc')).toBe('abc');
    expect(quote('x'.repeat(1 << 20))).toMatch(/^x{120}… \(1048576 characters\)$/);
  });
});

describe('a minified bundle', () => {
  // 2,000 functions on one 80,000-character line, as a minifier writes them
  const line = Array.from({ length: 2000 }, (_, i) => `function fn${i}(alpha${i}){return alpha${i}+${i}}`).join(';');

  it('reads each declaration on a long line from its own column: signatures and chunks are its own, not the line\'s', async () => {
    const dir = makeProject({ 'generated.ts': `${line}\n` });
    const project = new Project(dir);
    try {
      await project.refresh();
      const sig = project.db.prepare(`SELECT name, signature FROM symbols WHERE name IN ('fn0', 'fn1500')`).all() as { name: string; signature: string }[];
      expect(sig).toHaveLength(2);
      for (const s of sig) {
        expect(s.signature.startsWith(`function ${s.name}(`), s.signature).toBe(true);
        expect(s.signature.length).toBeLessThanOrEqual(160);
      }
      const chunk = project.db.prepare(`SELECT text, body FROM chunks WHERE name = 'fn1500'`).get() as { text: string; body: string };
      expect(chunk.text).toContain('fn1500(alpha1500)');
      expect(chunk.body).toContain('alpha1500');
      expect(chunk.body).not.toContain('alpha0');
    } finally {
      project.close();
      removeProject(dir);
    }
  });

  it('a minified JavaScript file stays a file (searchable) without its symbols, and the index says why; written JavaScript is extracted', async () => {
    const written = Array.from({ length: 400 }, (_, i) => `export function handler${i}(request) {\n  return request.id + ${i};\n}\n`).join('\n');
    const dir = makeProject({ 'vendor/bundle.js': `${line}\n`, 'src/handlers.js': written });
    const project = new Project(dir);
    try {
      await project.refresh();
      const count = (file: string) => (project.db.prepare(`SELECT COUNT(*) n FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ?`).get(file) as { n: number }).n;
      expect(count('vendor/bundle.js')).toBe(0);
      expect(count('src/handlers.js')).toBe(400);
      expect(project.db.prepare(`SELECT COUNT(*) n FROM files WHERE path = 'vendor/bundle.js'`).get()).toEqual({ n: 1 });
      const skipped = JSON.parse((project.db.prepare(`SELECT value FROM meta WHERE key = 'skipped'`).get() as { value: string }).value) as { file: string; reason: string }[];
      expect(skipped).toEqual([expect.objectContaining({ file: 'vendor/bundle.js', reason: expect.stringContaining('minified or bundled') })]);
      expect([...new Set(searchText(project, { pattern: 'alpha1999' }).items.map((m) => m.file))]).toEqual(['vendor/bundle.js']);
    } finally {
      project.close();
      removeProject(dir);
    }
  });
});

describe('a refresh that changes nothing', () => {
  it('leaves the caches keyed on the index generation alone, binaries in the tree or not (every call rebuilt the search corpus)', async () => {
    const dir = makeProject({ ...SAMPLE, 'assets/logo.png': '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR', 'fixtures/archive.tgz': '\u001f\u008b\u0008\u0000\u0000' });
    const project = new Project(dir);
    try {
      await project.refresh();
      const before = project.generation;
      await project.refresh();
      await project.refresh();
      expect(project.generation).toBe(before);
      fs.appendFileSync(`${dir}/src/cart.ts`, '\n// changed\n');
      await project.refresh();
      expect(project.generation).toBeGreaterThan(before);
    } finally {
      project.close();
      removeProject(dir);
    }
  });
});

describe('a database another process holds', () => {
  it('is no internal_error: the call is told to retry (agent trial tr41 met "database is locked" while an index ran in a terminal)', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const answer = fromException('submit_understanding', busy);
    const body = JSON.parse((answer.content[0] as { text: string }).text) as { error: string; hint: string };
    expect(answer.isError).toBe(true);
    expect(body.error).toBe('index_busy');
    expect(body.hint).toMatch(/again/);
    const bug = JSON.parse((fromException('x', new Error('boom')).content[0] as { text: string }).text) as { error: string };
    expect(bug.error).toBe('internal_error');
  });
});

describe('answers within the size cap', () => {
  const item = (i: number) => ({ file: `src/file${i}.ts`, line: i, snippet: 'x'.repeat(300) });

  it('a paginated list is cut item by item, and next_offset points at the first one left out', () => {
    const items = Array.from({ length: 500 }, (_, i) => item(i));
    const data = fitAnswer({ items, total: 900, offset: 100, limit: 500, next_offset: 600 });
    const kept = (data.items as unknown[]).length;
    expect(kept).toBeGreaterThan(50);
    expect(kept).toBeLessThan(500);
    expect(data.next_offset).toBe(100 + kept);
    expect(data.answer_truncated).toMatchObject({ lists: [{ field: 'items', kept, of: 500 }], continue_with_offset: 100 + kept });
    expect(answerBytes(ok(data))).toBeLessThanOrEqual(LIMITS.answerBytes);
    // the kept items are the first ones, whole
    expect((data.items as unknown[])[kept - 1]).toEqual(item(kept - 1));
  });

  it('a small answer is left alone; a huge string is clipped; an error is capped too', () => {
    const small = { items: [item(1)], total: 1 };
    expect(fitAnswer(small)).toBe(small);
    const big = fitAnswer({ prompt: 'y'.repeat(400_000) });
    expect(answerBytes(ok(big))).toBeLessThanOrEqual(LIMITS.answerBytes);
    expect(big.answer_truncated).toMatchObject({ strings_clipped: expect.any(Number) });
    const err = toolError('validation_failed', 'm'.repeat(50_000), { hint: 'h', refused: Array.from({ length: 2000 }, (_, i) => `reason ${i} ${'z'.repeat(100)}`) });
    expect(answerBytes(err)).toBeLessThanOrEqual(LIMITS.answerBytes);
    expect(err.structuredContent).toBeUndefined(); // an error is text only
    expect((JSON.parse((err.content[0] as { text: string }).text) as { message: string }).message.length).toBeLessThan(2100);
  });
});

describe('arguments', () => {
  it('measures elements and depth without recursion, stopping at the limits', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(measureArgs(deep).depth).toBeGreaterThan(LIMITS.depth);
    expect(measureArgs({ a: [1, 2, { b: 3 }] })).toEqual({ elements: 5, depth: 2 });
    expect(measureArgs({ a: Array.from({ length: 100_000 }, () => 0) }).elements).toBeGreaterThan(LIMITS.elements);
  });
});

describe('search_text under a deadline', () => {
  const root = makeProject({ ...SAMPLE, 'long.txt': 'a'.repeat(5000) + 'b\n' });
  const project = new Project(root);
  afterAll(() => {
    project.close();
    removeProject(root);
  });

  it('a regex bomb is stopped at the deadline (its worker terminated) and the next search is served', async () => {
    await project.refresh();
    const t0 = performance.now();
    await expect(searchTextGuarded(project, { pattern: '(a+)+$', regex: true }, new Deadline('search_text', 800))).rejects.toMatchObject({ code: 'budget_exceeded' });
    expect(performance.now() - t0).toBeLessThan(2000);
    const r = await searchTextGuarded(project, { pattern: 'formatPrice' }, new Deadline('search_text', 2000));
    expect(r.items.length).toBeGreaterThan(0);
    // the same answer as the in-process search
    expect(r).toEqual(searchText(project, { pattern: 'formatPrice' }));
  });

  it('find_references stops at the call budget instead of running on; the graph walk stops short', async () => {
    await project.refresh();
    const spent = new Deadline('find_references', 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(() => runWithDeadline(spent, () => findReferences(project, { name: 'formatPrice' }))).toThrow(/budget/);
    const ids = (project.db.prepare('SELECT id FROM symbols LIMIT 3').all() as { id: number }[]).map((r) => [r.id, 1] as [number, number]);
    // the walk never throws (confirm must finish): out of time, it stops where it is
    expect(runWithDeadline(spent, () => personalizedRank(project.db, new Map(ids)))).toEqual([]);
    expect(personalizedRank(project.db, new Map(ids)).length).toBeGreaterThan(0);
    expect(runWithDeadline(new Deadline('find_references', 2000), () => findReferences(project, { name: 'formatPrice' })).items.length).toBeGreaterThan(0);
  });

  it('a bad regex is invalid_regex, a missing path unknown_path', async () => {
    await expect(searchTextGuarded(project, { pattern: '(', regex: true }, new Deadline('search_text', 2000))).rejects.toMatchObject({ code: 'invalid_regex' });
    await expect(searchTextGuarded(project, { pattern: 'x', path: 'nope' }, new Deadline('search_text', 2000))).rejects.toMatchObject({ code: 'unknown_path' });
  });
});

const INITIALIZE = { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } };

describe('the stdio transport', () => {
  const open = (maxBytes = 1024) => {
    const stdin = new PassThrough(), stdout = new PassThrough();
    const t = new GuardedStdioTransport(stdin, stdout, maxBytes);
    const messages: unknown[] = [], out: Record<string, any>[] = [];
    t.onmessage = (m) => messages.push(m);
    stdout.on('data', (d: Buffer) => out.push(...d.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))));
    return { t, stdin, messages, out, start: () => t.start() };
  };
  const tick = () => new Promise((r) => setTimeout(r, 10));

  it('passes messages through, in pieces or several to a chunk', async () => {
    const c = open();
    await c.start();
    const a = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    c.stdin.write(a.slice(0, 10));
    c.stdin.write(a.slice(10) + '\n' + JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    await tick();
    expect(c.messages).toHaveLength(2);
    expect(c.out).toEqual([]);
  });

  it('answers an oversized tools/call with input_too_large, and goes on', async () => {
    const c = open(1024);
    await c.start();
    c.stdin.write(JSON.stringify({ method: 'tools/call', params: { name: 'query', arguments: { text: 'x'.repeat(5000) } }, jsonrpc: '2.0', id: 7 }) + '\n');
    c.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) + '\n');
    await tick();
    expect(c.out).toEqual([expect.objectContaining({ id: 7, result: expect.objectContaining({ isError: true, content: [expect.objectContaining({ text: expect.stringContaining('"error":"input_too_large"') })] }) })]);
    expect(c.messages).toEqual([expect.objectContaining({ id: 8 })]);
  });

  it('answers a line that is not JSON, not JSON-RPC, or whose params do not fit the method', async () => {
    const c = open();
    await c.start();
    c.stdin.write(JSON.stringify(INITIALIZE) + '\n');
    c.stdin.write('{oops\n[1]\n');
    c.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'query', arguments: 'text' } }) + '\n');
    await tick();
    expect(c.out.map((o) => [o.id, o.error?.code])).toEqual([[null, -32700], [null, -32600], [3, -32602]]);
    expect(c.messages).toEqual([expect.objectContaining({ method: 'initialize' })]);
  });

  it('serves nothing but initialize and ping before initialize (the protocol error, -32002)', async () => {
    const c = open();
    await c.start();
    c.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) + '\n');
    c.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
    c.stdin.write(JSON.stringify(INITIALIZE) + '\n');
    c.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }) + '\n');
    await tick();
    expect(c.out).toEqual([expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32002, message: expect.stringContaining('initialize') }) })]);
    expect(c.messages.map((m) => (m as { id: number }).id)).toEqual([2, 9, 4]);
  });
});

describe('unreadable paths', () => {
  it('are reported in the walk (and so in the index summary), not skipped without a word', () => {
    const root = makeProject({ 'src/ok/a.ts': 'export const a = 1;\n', 'src/secret/b.ts': 'export const b = 1;\n' });
    const real = fs.readdirSync;
    const spy = vi.spyOn(fs, 'readdirSync').mockImplementation(((p: fs.PathLike, o?: unknown) => {
      if (String(p).endsWith('secret')) throw Object.assign(new Error('permission denied'), { code: 'EACCES' });
      return (real as (p: fs.PathLike, o?: unknown) => unknown)(p, o);
    }) as typeof fs.readdirSync);
    try {
      const w = walkProject(root);
      expect(w.files.map((f) => f.rel)).toEqual(['src/ok/a.ts']);
      expect(w.skipped).toEqual([{ file: 'src/secret/', reason: 'unreadable directory: EACCES' }]);
    } finally {
      spy.mockRestore();
      removeProject(root);
    }
  });
});

describe('deep nesting', () => {
  it('a file nested thousands deep is skipped and said so; the rest is indexed (a 10,000-level file took 18 s)', async () => {
    const { Project } = await import('../src/project/project.js');
    const { nestingDepth, MAX_NESTING } = await import('../src/index/parse-job.js');
    expect(nestingDepth('f(a[{b}], (c))')).toBe(3);
    expect(nestingDepth(')))((')).toBe(2);
    const n = 20_000;
    const root = makeProject({ 'src/deep.ts': `export const v = ${'g('.repeat(n)}1${')'.repeat(n)}\n`, 'src/ok.ts': 'export const ok = 1;\n' });
    const p = new Project(root);
    try {
      const t0 = performance.now();
      await p.refresh();
      expect(performance.now() - t0).toBeLessThan(20_000); // quadratic walks took minutes at this depth
      expect(p.stats!.skipped).toEqual([{ file: 'src/deep.ts', reason: expect.stringContaining(`nested deeper than ${MAX_NESTING}`) }]);
      expect((p.db.prepare("SELECT COUNT(*) n FROM symbols WHERE name = 'ok'").get() as { n: number }).n).toBe(1);
    } finally {
      p.close();
      removeProject(root);
    }
  });
});
