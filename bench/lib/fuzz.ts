/**
 * A fuzzer for the MCP server: random and malformed tool calls, guided by the tools' own input
 * schemas (tools/list), plus a fixed list of hostile calls from issue #13 (a regex bomb over a long
 * line, a 1 MB single-word query, a 1 MB regex, a NUL path, deeply nested arguments). Shared by
 * test/fuzz.test.ts (a few thousand calls, bounded in time) and bench/fuzz.ts (a longer run with
 * figures). Deterministic for a seed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SAMPLE } from '../../test/helpers/project.js';
import { prng } from './util.js';
import { toolNamed } from '../../src/tools/catalog.js';

export interface FuzzCall {
  tool: string;
  args: unknown;
  /** what the call is, for reports */
  label: string;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
}

export interface ToolInfo {
  name: string;
  inputSchema: JsonSchema;
}

const LONG_LINE = 'a'.repeat(5000) + 'b';

/**
 * The project the fuzzer runs against: the tests' SAMPLE project (a /code session can be driven
 * through it honestly), fixtures/ts-app under app/, and a few hostile files.
 */
export function writeFuzzProject(dir: string, fixtures: string): void {
  for (const [rel, text] of Object.entries(SAMPLE)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.cpSync(path.join(fixtures, 'ts-app'), path.join(dir, 'app'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'long-line.txt'), LONG_LINE + '\n');
  fs.writeFileSync(path.join(dir, 'app', 'src', 'unicode.ts'), '// カートの合計 购物车 😀\nexport const カート = 1;\nexport function ΑΒΓ() { return "é"; }\n');
  fs.writeFileSync(path.join(dir, 'app', 'src', 'caps.ts'), `export const ${'X'.repeat(3000)} = 1;\nexport function parseHTTPRequest() {}\n`);
}

/** The issue's hostile calls; each must be answered within its budget, and the server must go on. */
export function hostileCalls(): FuzzCall[] {
  const mb = 1024 * 1024;
  // as deep as the SDK client's JSON.stringify goes; deeper ones are sent as raw lines (rawHostileLines)
  let nested: unknown = 'x';
  for (let i = 0; i < 3000; i++) nested = { a: nested };
  let nestedArr: unknown = [];
  for (let i = 0; i < 3000; i++) nestedArr = [nestedArr];
  return [
    { tool: 'search_text', args: { pattern: '(a+)+$', regex: true }, label: 'regex bomb (a+)+$ over a 5,000-character line' },
    { tool: 'search_text', args: { pattern: '(a|aa)+$', regex: true }, label: 'regex bomb (a|aa)+$' },
    { tool: 'search_text', args: { pattern: '(a+)+\\1$', regex: true }, label: 'regex bomb with a backreference' },
    { tool: 'search_text', args: { pattern: '(?=(a+)+$)x', regex: true }, label: 'regex bomb inside a lookahead' },
    { tool: 'query', args: { text: 'a'.repeat(mb) }, label: '1 MB single-word query' },
    { tool: 'query', args: { text: 'A'.repeat(mb) }, label: '1 MB single-word query in capitals' },
    { tool: 'query', args: { text: 'A'.repeat(4096) }, label: '4 KB word in capitals (the limit)' },
    { tool: 'search_text', args: { pattern: '(' + 'a'.repeat(mb - 2) + ')', regex: true }, label: '1 MB regex' },
    { tool: 'search_text', args: { pattern: '(?:a{1000}){1000}b', regex: true }, label: 'a million-fold repetition' },
    { tool: 'check_write_target', args: { file_path: 'src/main.ts\u0000.png' }, label: 'NUL in check_write_target' },
    { tool: 'get_symbols', args: { file: 'src/main.ts\u0000' }, label: 'NUL in get_symbols' },
    { tool: 'search_text', args: { pattern: 'x', path: 'src\u0000' }, label: 'NUL in search_text path' },
    { tool: 'find_definitions', args: { name: nested }, label: 'arguments nested 3,000 levels deep' },
    { tool: 'submit_understanding', args: { symbols_identified: nestedArr }, label: 'arrays nested 3,000 levels deep' },
    { tool: 'find_definitions', args: { name: 'x'.repeat(mb) }, label: '1 MB name' },
    { tool: 'get_symbols', args: { file: 'a/'.repeat(mb / 2) }, label: '1 MB path' },
    { tool: 'analyze_structure', args: { path: '/'.repeat(4096) }, label: '4,096 slashes' },
    { tool: 'start_session', args: { intent: 'MODIFY', query: 'カート'.repeat(2730) }, label: 'an 8,190-character request' },
    { tool: 'x'.repeat(mb), args: {}, label: 'a 1 MB tool name' },
    { tool: 'validate_symbol_relevance', args: { target_feature: 'x', symbols: Array.from({ length: 30_000 }, () => 'a') }, label: '30,000 array items' },
  ];
}

/** Lines the SDK client cannot send (too deep for its JSON.stringify, too large, not JSON), written raw. */
export function rawHostileLines(): { label: string; id: string | null; line: string }[] {
  const call = (id: string, args: string) => `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"find_definitions","arguments":${args}}}`;
  return [
    { label: 'raw: a 12 MB call', id: 'raw-big', line: call('raw-big', JSON.stringify({ name: 'a'.repeat(12_000_000) })) },
    { label: 'raw: arguments nested 100,000 levels deep', id: 'raw-deep', line: call('raw-deep', '{"name":' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}') },
    { label: 'raw: arrays nested 1,000,000 levels deep', id: 'raw-arr', line: call('raw-arr', '{"name":' + '['.repeat(1_000_000) + ']'.repeat(1_000_000) + '}') },
    { label: 'raw: arguments that are a string', id: 'raw-str', line: call('raw-str', '"find everything"') },
    { label: 'raw: tools/list with params that are a number', id: 'raw-list', line: '{"jsonrpc":"2.0","id":"raw-list","method":"tools/list","params":5}' },
    { label: 'raw: a method that does not exist', id: 'raw-method', line: '{"jsonrpc":"2.0","id":"raw-method","method":"tools/destroy","params":{}}' },
    { label: 'raw: a line that is not JSON', id: null, line: '{"jsonrpc":"2.0","id":' },
  ];
}

/** Strings worth trying anywhere: names from the fixture, paths, regex syntax, Unicode, sizes. */
function stringPool(): string[] {
  return [
    'Cart', 'Cart.total', 'Cart.add', 'formatPrice', 'checkout', 'price', 'src/cart.ts', 'src/util/format.ts', 'src/util', 'app/src/main.ts',
    'カートの合計', 'カートの合計に消費税を加える処理を追加して', 'src/cart.ts:10', '`return formatPrice(this.items.reduce((a, b) => a + b, 0))`',
    'Greeter', 'format', 'UserStore', 'UserStore.create', 'main', 'pad', 'capitalize', 'makeGreeter', 'Button', 'Admin.list', 'X',
    'src/main.ts', 'app/src/services/greeter.ts', 'app/src/utils', 'src', '.', './', '..', '../..', '../outside.ts', '/etc/passwd', 'src//main.ts',
    'long-line.txt', 'app/src/caps.ts', 'app/src/unicode.ts', 'node_modules/x.js', '.code-intel/index.db', '~/x', 'C:\\Windows\\x', 'src/*.ts',
    '*.ts', '!**/*.tsx', '**/*', '{a,b}', '[a-z]', '**/**/**/**/**/*a*a*a*a*a*a*a*b',
    '', ' ', '\t\n', '\u0000', 'a\u0000b', '\u0007\u001b[31m', '\r\n',
    'カートの合計', '购物车结算', '😀👍🏽', '\u202etxt.exe', 'é', 'ﬁ', 'İ', 'ß', '\ud800',
    '(', ')', '[', '\\', '(a+)+$', '.*', '^$', '(?<=a)b', '\\p{L}+', '(?:a|b)*c', 'format\\w+\\(', '[^]*', '\\1', '(?<n>a)\\k<n>', 'a{2,1}', '$',
    "'; DROP TABLE files; --", '%', '_', '${x}', '`rm -rf /`', '$(id)', 'null', 'undefined', '__proto__', 'constructor', 'toString',
    'IMPLEMENT', 'MODIFY', 'INVESTIGATE', 'QUESTION', 'success', 'confirmed', 'find_definitions', 'search_text',
    'a'.repeat(5000), 'A'.repeat(5000), 'aB'.repeat(2000), '/'.repeat(4097), ' '.repeat(5000), 'é'.repeat(3000), 'カ'.repeat(4000), 'a_'.repeat(2500) + 'é',
    'parseHTTPRequest_v2', 'user_id', 'ObservableSet', 'HTTP2',
  ];
}

const REQUEST = 'カートの合計に消費税を加える処理を追加して';
const UNDERSTANDING = {
  symbols_identified: ['Cart', 'Cart.total', 'formatPrice'],
  entry_points: ['Cart.total()'],
  existing_patterns: ['fluent methods returning this, like Cart.add'],
  files_analyzed: ['src/cart.ts', 'src/util/format.ts'],
  notes: 'total() sums cents and formats them',
  mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }],
};

/** An honest /code session on the SAMPLE project, to READY: the fuzzer stops it at a random step. */
function sessionScript(): FuzzCall[] {
  const c = (tool: string, args: Record<string, unknown>): FuzzCall => ({ tool, args, label: `session: ${tool}` });
  return [
    c('abort_session', { reason: 'fuzz: start again' }),
    c('start_session', { intent: 'IMPLEMENT', query: REQUEST }),
    c('set_query_frame', { target_feature: { value: 'カートの合計', quote: 'カートの合計' } }),
    c('find_definitions', { name: 'formatPrice' }),
    c('get_symbols', { file: 'src/util/format.ts' }),
    c('find_references', { name: 'Cart' }),
    c('get_symbols', { file: 'src/cart.ts' }),
    c('submit_understanding', UNDERSTANDING),
    c('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['Cart.total'] }),
    c('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' }] }),
    c('check_write_target', { file_path: 'src/cart.ts' }),
  ];
}

export class Fuzzer {
  private readonly rand: () => number;
  private readonly pool = stringPool();
  private readonly queue: FuzzCall[] = [];

  constructor(seed: number, private readonly tools: ToolInfo[]) {
    this.rand = prng(seed);
  }

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  private chance(p: number): boolean {
    return this.rand() < p;
  }

  randomString(): string {
    const r = this.rand();
    if (r < 0.55) return this.pick(this.pool);
    if (r < 0.9) {
      const alphabet = this.pick(['abcXYZ_ .', '()[]{}*+?|\\^$.aAb', 'カートの合計购物车', '\u0000\u0001\n\t"\\\'/', 'aaaaaaaaab', 'AZaz09éß😀']);
      const chars = [...alphabet];
      let s = '';
      const n = this.pick([1, 2, 3, 8, 20, 64, 300]);
      for (let i = 0; i < n; i++) s += chars[this.int(chars.length)];
      return s;
    }
    if (r < 0.995) return this.pick(['x', 'A', 'ab', 'カ', '/', ' ']).repeat(this.pick([1000, 4096, 4097, 8193, 20_000]));
    return this.pick(['a', 'A', 'é']).repeat(this.pick([100_000, 1024 * 1024]));
  }

  randomNumber(): number {
    return this.pick([0, 1, 2, 3, 5, 10, 50, 499, 500, 501, -1, -100, 0.5, 1e3, 1e7, 1e7 + 1, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE]);
  }

  /** Any JSON value, nested up to `depth`. */
  randomJson(depth = 3): unknown {
    const r = this.rand();
    if (depth <= 0 || r < 0.3) return this.randomString();
    if (r < 0.45) return this.randomNumber();
    if (r < 0.55) return this.chance(0.5);
    if (r < 0.6) return null;
    if (r < 0.8) return Array.from({ length: this.int(4) }, () => this.randomJson(depth - 1));
    const o: Record<string, unknown> = {};
    for (let i = this.int(4); i > 0; i--) o[this.pick(['a', 'name', 'file', 'line', '__proto__', 'constructor', this.randomString().slice(0, 20)])] = this.randomJson(depth - 1);
    return o;
  }

  /** A string the schema accepts (length within bounds), as hostile as allowed. */
  validString(schema: JsonSchema): string {
    for (let i = 0; i < 20; i++) {
      const s = this.randomString();
      if (s.length <= (schema.maxLength ?? Infinity) && s.length >= (schema.minLength ?? 0) && !s.includes('\u0000')) return s;
    }
    return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }

  /**
   * A value for a schema. `valid`: of the right shape and within every bound (so the call reaches
   * the tool's code); otherwise mostly right, sometimes of the wrong type, too long or too many.
   */
  value(schema: JsonSchema | undefined, depth = 0, valid = false): unknown {
    if (!schema || depth > 6 || (!valid && this.chance(0.07))) return this.randomJson(2);
    if (schema.anyOf?.length) return this.value(this.pick(schema.anyOf), depth + 1, valid);
    if (schema.enum?.length) return valid || this.chance(0.85) ? this.pick(schema.enum) : this.randomString();
    const type = Array.isArray(schema.type) ? this.pick(schema.type) : schema.type;
    switch (type) {
      case 'string':
        return valid ? this.validString(schema) : this.randomString();
      case 'number':
      case 'integer': {
        const lo = schema.minimum ?? 0, hi = schema.maximum ?? 1e7;
        if (valid) return this.chance(0.7) ? Math.min(hi, lo + this.int(30)) : this.chance(0.5) ? hi : lo + this.int(Math.max(1, Math.min(hi - lo, 1e6)));
        return this.chance(0.6) ? this.int(20) + lo : this.randomNumber();
      }
      case 'boolean':
        return this.chance(0.5);
      case 'array': {
        const max = schema.maxItems ?? 256, min = schema.minItems ?? 0;
        const n = valid ? Math.max(min, this.chance(0.05) ? max : this.int(Math.min(max, 5) + 1)) : this.chance(0.03) ? max + 1 : this.int(5);
        return Array.from({ length: n }, () => this.value(schema.items, depth + 1, valid));
      }
      case 'object': {
        const o: Record<string, unknown> = {};
        const required = new Set(schema.required ?? []);
        for (const [k, s] of Object.entries(schema.properties ?? {})) {
          if (required.has(k) ? valid || this.chance(0.95) : this.chance(0.6)) o[k] = this.value(s, depth + 1, valid);
        }
        if (!valid && this.chance(0.05)) o[this.randomString().slice(0, 30)] = this.randomJson(2);
        return o;
      }
      default:
        return this.randomJson(2);
    }
  }

  /** One random call: a real tool with schema-guided (often invalid) arguments, or something odd. */
  next(): FuzzCall {
    const queued = this.queue.shift();
    if (queued) return queued;
    if (this.chance(0.01)) {
      // an honest session, cut short at a random step: the calls after it land in that phase
      const script = sessionScript();
      this.queue.push(...script.slice(0, 2 + this.int(script.length - 1)));
      return this.queue.shift()!;
    }
    const r = this.rand();
    if (r < 0.02) return { tool: this.randomString().slice(0, 200), args: this.randomJson(2), label: 'unknown tool' };
    const tool = this.pick(this.tools);
    if (r < 0.06) return { tool: tool.name, args: this.randomJson(3), label: `${tool.name} with random JSON` };
    if (r < 0.08) return { tool: tool.name, args: undefined, label: `${tool.name} without arguments` };
    const args = this.value(tool.inputSchema, 0, this.chance(0.5)) as Record<string, unknown>;
    if (tool.name === 'search_text' && args && typeof args === 'object' && this.chance(0.4)) args.regex = true;
    return { tool: tool.name, args, label: tool.name };
  }
}

// ---- running calls against one server over stdio ------------------------------------------------------

export interface Outcome {
  call: FuzzCall;
  ms: number;
  /** bytes of the result as JSON (what came over the wire, less the JSON-RPC envelope) */
  bytes: number;
  /** the tool error code, `ok`, `protocol:<code>` for a JSON-RPC error, or `timeout` */
  code: string;
  hint?: string;
  message?: string;
}

export interface FuzzServer {
  client: Client;
  pid: number | null;
  /** lines the server wrote to stderr */
  stderr: string[];
  call(c: FuzzCall, timeoutMs: number): Promise<Outcome>;
  /** writes one line to the server's stdin as is, and waits for the answer with that id (id null: for a ping after it) */
  raw(label: string, id: string | null, line: string, timeoutMs: number): Promise<Outcome>;
  close(): Promise<void>;
}

export async function startFuzzServer(cli: string, root: string, env: Record<string, string> = {}): Promise<FuzzServer> {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [cli, 'serve', root], stderr: 'pipe',
    env: { ...process.env, CODE_INTEL_LOG: 'silent', ...env } as Record<string, string>,
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (d: Buffer) => stderr.push(...d.toString('utf8').split('\n').filter(Boolean)));
  const client = new Client({ name: 'fuzz', version: '0' });
  // answers to raw lines have ids the client did not send: it reports them as errors, with the JSON
  const stray: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  client.onerror = (e) => {
    const m = /unknown message ID: (.*)$/s.exec(e.message);
    if (!m) return;
    try {
      stray.push(JSON.parse(m[1]!) as Record<string, unknown>);
      for (const w of waiting) w();
    } catch {
      /* not ours */
    }
  };
  await client.connect(transport);
  const stdin = (transport as unknown as { _process?: { stdin?: NodeJS.WritableStream } })._process?.stdin;
  return {
    client,
    pid: transport.pid,
    stderr,
    async call(c, timeoutMs) {
      const t0 = performance.now();
      try {
        const r = (await client.request(
          { method: 'tools/call', params: { name: c.tool, arguments: c.args } as never },
          CallToolResultSchema,
          { timeout: timeoutMs },
        )) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: unknown[] };
        const ms = performance.now() - t0;
        const bytes = Buffer.byteLength(JSON.stringify(r));
        if (!r.isError) return answerOutcome(c, ms, bytes, r.structuredContent);
        const sc = errorObject(r);
        return {
          call: c, ms, bytes,
          code: typeof sc.error === 'string' ? sc.error : 'unstructured_error',
          hint: typeof sc.hint === 'string' ? sc.hint : undefined,
          message: typeof sc.message === 'string' ? sc.message : JSON.stringify(r.content).slice(0, 300),
        };
      } catch (e) {
        const ms = performance.now() - t0;
        const code = (e as { code?: number }).code;
        const message = String((e as Error).message ?? e);
        return { call: c, ms, bytes: message.length, code: code === -32001 || /timed out/i.test(message) ? 'timeout' : `protocol:${code ?? '?'}`, message: message.slice(0, 300) };
      }
    },
    async raw(label, id, line, timeoutMs) {
      const c: FuzzCall = { tool: '(raw)', args: undefined, label };
      const t0 = performance.now();
      if (id === null) {
        // the answer (a parse error with id null) is not one the SDK client passes on: check that
        // the server goes on instead
        stdin!.write(line + '\n');
        try {
          await client.ping({ timeout: timeoutMs });
          return { call: c, ms: performance.now() - t0, bytes: 0, code: 'went_on' };
        } catch (e) {
          return { call: c, ms: performance.now() - t0, bytes: 0, code: 'timeout', message: String(e) };
        }
      }
      const answer = await new Promise<Record<string, unknown> | undefined>((resolve) => {
        const look = () => {
          const i = stray.findIndex((r) => r.id === id);
          if (i < 0) return;
          const [r] = stray.splice(i, 1);
          done(r);
        };
        const done = (r: Record<string, unknown> | undefined) => {
          waiting.delete(look);
          clearTimeout(timer);
          resolve(r);
        };
        const timer = setTimeout(() => done(undefined), timeoutMs);
        waiting.add(look);
        stdin!.write(line + '\n');
      });
      const ms = performance.now() - t0;
      if (!answer) return { call: c, ms, bytes: 0, code: 'timeout' };
      const bytes = Buffer.byteLength(JSON.stringify(answer));
      const err = answer.error as { code?: number; message?: string } | undefined;
      if (err) return { call: c, ms, bytes, code: `protocol:${err.code}`, message: err.message };
      const r = answer.result as { isError?: boolean; content?: unknown[]; structuredContent?: unknown };
      if (!r?.isError) return answerOutcome(c, ms, bytes, r?.structuredContent);
      const sc = errorObject(r);
      return { call: c, ms, bytes, code: String(sc.error ?? 'unstructured_error'), hint: sc.hint as string | undefined, message: sc.message as string | undefined };
    },
    close: () => client.close(),
  };
}

// ---- figures --------------------------------------------------------------------------------------------

export interface FuzzFigures {
  calls: number;
  by_code: Record<string, number>;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  slowest: string;
  max_answer_bytes: number;
  largest: string;
}

export function figures(outcomes: Outcome[]): FuzzFigures {
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
  const by: Record<string, number> = {};
  for (const o of outcomes) by[o.code] = (by[o.code] ?? 0) + 1;
  const slowest = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a), outcomes[0]!);
  const largest = outcomes.reduce((a, b) => (b.bytes > a.bytes ? b : a), outcomes[0]!);
  return {
    calls: outcomes.length,
    by_code: Object.fromEntries(Object.entries(by).sort((a, b) => b[1] - a[1])),
    p50_ms: round(q(0.5)), p99_ms: round(q(0.99)), max_ms: round(ms[ms.length - 1] ?? 0),
    slowest: `${slowest.call.label} → ${slowest.code}`,
    max_answer_bytes: largest.bytes,
    largest: `${largest.call.label} → ${largest.code}`,
  };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** A tool error's object: the JSON of its text (src/server/respond.ts); {} when the text is not one. */
function errorObject(r: { content?: unknown[] }): Record<string, unknown> {
  const first = r.content?.[0] as { type?: string; text?: string } | undefined;
  if (first?.type !== 'text' || typeof first.text !== 'string') return {};
  try {
    const o = JSON.parse(first.text) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An answer, checked against its tool's outputSchema as a client such as Claude Code checks it. */
function answerOutcome(c: FuzzCall, ms: number, bytes: number, structured: unknown): Outcome {
  const output = toolNamed(c.tool)?.output;
  if (!output) return { call: c, ms, bytes, code: 'ok' };
  const r = output.safeParse(structured);
  if (r.success) return { call: c, ms, bytes, code: 'ok' };
  return { call: c, ms, bytes, code: 'output_schema_mismatch', message: r.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}
