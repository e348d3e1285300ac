/**
 * End-to-end: the built `code-intel serve` binary driven by the MCP SDK's own Client over stdio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TOOLS } from '../machines/policy.js';
import { withErrorObject } from './helpers/mcp.js';
import { CLI, makeProject, removeProject, SAMPLE } from './helpers/project.js';

type Result = { isError?: boolean; structuredContent?: Record<string, any>; content: { type: string; text?: string }[] };

let root: string;
let client: Client;
let stderr = '';

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  return withErrorObject((await client.callTool({ name, arguments: args })) as Result);
}

beforeAll(async () => {
  root = makeProject(SAMPLE);
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', root], stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'e2e', version: '0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  removeProject(root);
});

describe('MCP server over stdio', () => {
  it('lists the tools with annotations and input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const exploration = ['analyze_structure', 'find_definitions', 'find_references', 'get_symbols', 'query', 'search_text'];
    expect(names).toEqual(expect.arrayContaining([...exploration, 'start_session', 'set_query_frame', 'submit_understanding', 'check_write_target']));
    // the phase table names exactly the registered tools (start_session runs before any session exists)
    expect([...names].sort()).toEqual([...SERVER_TOOLS].sort());
    for (const t of tools) {
      expect(t.annotations, t.name).toBeDefined();
      if (exploration.includes(t.name)) expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.inputSchema.type).toBe('object');
      expect(t.description?.length).toBeGreaterThan(40);
      // every answer is described; the SDK's client checks each answer against it (helpers/mcp.ts lists the tools first)
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(Object.keys(t.outputSchema?.properties ?? {}), t.name).toContain('index');
    }
  });

  it('answers carry structured content that the client checked; errors are JSON text only', async () => {
    const good = await call('find_definitions', { name: 'formatPrice' });
    expect(good.structuredContent?.items?.[0]?.name).toBe('formatPrice');
    const raw = (await client.callTool({ name: 'get_symbols', arguments: { file: '../outside.ts' } })) as Result;
    expect(raw.isError).toBe(true);
    expect(raw.structuredContent).toBeUndefined();
    expect(JSON.parse(raw.content[0]!.text!)).toMatchObject({ error: expect.any(String), message: expect.any(String), hint: expect.any(String) });
  });

  it('a session tool that moves the session carries the change\'s token in its answer, structured and as text (guard/witness.ts)', async () => {
    const raw = (await client.callTool({ name: 'start_session', arguments: { intent: 'MODIFY', query: 'make the cart total include tax' } })) as Result & { structuredContent?: { witness?: string } };
    const token = raw.structuredContent?.witness;
    expect(token).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.parse((raw.content as { text: string }[])[0]!.text).witness).toBe(token);
    // a refusal that changes nothing carries none; the abort that ends it carries its own
    const again = (await client.callTool({ name: 'start_session', arguments: { intent: 'MODIFY', query: 'x' } })) as Result;
    expect(JSON.parse((again.content as { text: string }[])[0]!.text).witness).toBeUndefined();
    const abort = (await client.callTool({ name: 'abort_session', arguments: { reason: 'done' } })) as Result & { structuredContent?: { witness?: string } };
    expect(abort.structuredContent?.witness).toMatch(/^[0-9a-f]{16}$/);
    expect(abort.structuredContent?.witness).not.toBe(token);
  });

  it('offers /code as an MCP prompt, the request in its text', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('code');
    const got = await client.getPrompt({ name: 'code', arguments: { request: 'カートに割引を追加して' } });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text).toContain('カートに割引を追加して');
    expect(text).toContain('mcp__code-intel__start_session');
    expect(text.startsWith('---')).toBe(false);
  });

  it('find_definitions by name and from a usage site', async () => {
    const byName = await call('find_definitions', { name: 'formatPrice' });
    expect(byName.isError).toBeFalsy();
    expect(byName.structuredContent!.items).toMatchObject([{ file: 'src/util/format.ts', line: 2, kind: 'function', confidence: 'resolved' }]);
    // the first answer waited for the background index (serve answers initialize before indexing)
    expect(byName.structuredContent!.index).toMatchObject({ files: expect.any(Number), complete: true });
    // the call in cart.ts goes through the barrel (export * from './format')
    const fromUse = await call('find_definitions', { from: { file: 'src/cart.ts', line: 13, column: 12 } });
    expect(fromUse.structuredContent!.items).toMatchObject([{ file: 'src/util/format.ts', line: 2, confidence: 'imported' }]);
    // the parameter named formatPrice in main.ts is not the function
    const param = await call('find_definitions', { from: { file: 'src/main.ts', line: 5, column: 10 } });
    expect(param.isError).toBe(true);
  });

  it('find_references: scoped, through re-exports and renames, never comments or strings', async () => {
    const r = await call('find_references', { name: 'formatPrice' });
    const sites = (r.structuredContent!.items as any[]).map((x) => `${x.file}:${x.line}:${x.column}:${x.confidence}`);
    expect(sites).toEqual(
      expect.arrayContaining(['src/cart.ts:1:10:imported', 'src/cart.ts:13:12:imported', 'src/util/index.ts:2:10:imported', 'src/cart.ts:13:65:imported', 'src/cart.ts:2:10:imported']),
    );
    expect(sites.some((s) => s.startsWith('src/cart.ts:11:'))).toBe(false); // comment
    expect(sites.some((s) => s.startsWith('src/cart.ts:12:'))).toBe(false); // string
    expect(sites.some((s) => s.startsWith('src/main.ts:'))).toBe(false); // shadowing parameter
    expect(sites.some((s) => s.startsWith('generated/'))).toBe(false); // .gitignore
  });

  it('member calls on values of unknown type are guesses, not facts', async () => {
    const r = await call('find_references', { name: 'Cart.total' });
    expect(r.structuredContent!.items).toMatchObject([{ file: 'src/main.ts', line: 5, confidence: 'name_match' }]);
    const facts = await call('find_references', { name: 'Cart.total', include_guesses: false });
    expect(facts.structuredContent!.total).toBe(0);
  });

  it('search_text: literal, regex, globs, paging', async () => {
    const lit = await call('search_text', { pattern: 'formatPrice', glob: '*.md' });
    expect(lit.structuredContent!.items).toMatchObject([{ file: 'README.md', line: 2, column: 5 }]);
    const re = await call('search_text', { pattern: 'format\\w+\\(', regex: true, path: 'src', limit: 1 });
    expect(re.structuredContent!.total).toBeGreaterThan(1);
    expect(re.structuredContent!.items).toHaveLength(1);
    expect(re.structuredContent!.next_offset).toBe(1);
  });

  it('get_symbols nests members under their class', async () => {
    const r = await call('get_symbols', { file: 'src/cart.ts' });
    expect(r.structuredContent!.items).toMatchObject([
      { name: 'Cart', kind: 'class', children: [{ name: 'items', kind: 'property' }, { name: 'add', kind: 'method' }, { name: 'total', kind: 'method' }] },
    ]);
  });

  it('analyze_structure on a file and on a directory', async () => {
    const f = await call('analyze_structure', { path: 'src/cart.ts' });
    expect(f.structuredContent!.imports).toMatchObject([
      { source: './util', resolved_file: 'src/util/index.ts', status: 'resolved' },
      { source: './util/index', resolved_file: 'src/util/index.ts' },
    ]);
    expect(f.structuredContent!.calls).toEqual(expect.arrayContaining([expect.objectContaining({ caller: 'Cart.total', callee: 'formatPrice', target: 'src/util/format.ts:2' })]));
    const d = await call('analyze_structure', { path: 'src' });
    expect(d.structuredContent!.edges).toEqual(expect.arrayContaining([{ from: 'src/main.ts', to: 'src/cart.ts', names: 1 }]));
  });

  it('search_text: a grep-style pattern that finds nothing as text is searched as a regex, and says so; regex: false keeps it literal', async () => {
    const r = await call('search_text', { pattern: 'formatPrice\\(this' });
    expect(r.structuredContent).toMatchObject({ total: 1, interpreted_as: 'regex', items: [{ file: 'src/cart.ts', line: 13 }] });
    expect((await call('search_text', { pattern: 'formatPrice\\(this', regex: false })).structuredContent).toMatchObject({ total: 0 });
    expect((await call('search_text', { pattern: 'formatPrice' })).structuredContent!.interpreted_as).toBeUndefined();
  });

  it('query ranks symbols from words, in Japanese too; a name typed exactly comes first', async () => {
    const r = await call('query', { text: 'format the price' });
    expect(r.structuredContent!.symbols[0]).toMatchObject({ name: 'formatPrice', file: 'src/util/format.ts' });
    // no English word at all: the engine's glossary and segmenter still reach the code
    const ja = await call('query', { text: '価格を整形する' });
    expect(ja.structuredContent!.symbols[0]).toMatchObject({ name: 'formatPrice', file: 'src/util/format.ts', line: 2 });
    expect((await call('query', { text: 'add' })).structuredContent!.symbols[0]).toMatchObject({ name: 'add', container: 'Cart', line: 6, column: 3 });
    expect((await call('query', { text: 'Cart.total' })).structuredContent!.symbols[0]).toMatchObject({ name: 'total', container: 'Cart' });
  });

  it('bad input is a clear tool error, never a crash', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['get_symbols', { file: 'src/nope.ts' }, 'unknown_file'],
      ['get_symbols', { file: '../outside.ts' }, 'path_outside_root'],
      ['search_text', { pattern: '(', regex: true }, 'invalid_regex'],
      ['find_definitions', { name: '   ' }, 'empty_name'],
      ['find_references', { name: 'doesNotExist' }, 'unknown_symbol'],
      ['analyze_structure', { path: '/etc' }, 'path_outside_root'],
    ];
    for (const [tool, args, code] of cases) {
      const r = await call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.structuredContent?.error).toBe(code);
      expect(String(r.structuredContent?.message)).not.toHaveLength(0);
    }
    // schema violations are reported too, and the server keeps serving
    const bad = await call('find_references', { name: 5 });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ error: 'invalid_arguments', hint: expect.any(String) });
    expect((await call('query', { text: 'cart' })).isError).toBeFalsy();
  });

  it('brings the index up to date before answering', async () => {
    fs.writeFileSync(path.join(root, 'src/extra.ts'), `import { formatPrice } from './util/format';\nexport const shown = formatPrice(5);\n`);
    const r = await call('find_references', { name: 'formatPrice', include_guesses: false });
    expect(r.structuredContent!.index.reindexed_now).toBe(1);
    expect((r.structuredContent!.items as any[]).some((x) => x.file === 'src/extra.ts' && x.line === 2)).toBe(true);
    fs.rmSync(path.join(root, 'src/extra.ts'));
    const after = await call('find_references', { name: 'formatPrice', include_guesses: false });
    expect((after.structuredContent!.items as any[]).some((x) => x.file === 'src/extra.ts')).toBe(false);
  });

  it('keeps stdout for the protocol: logs go to stderr', () => {
    expect(stderr).toContain('serving');
  });
});
