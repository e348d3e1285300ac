/**
 * Issue #13: no input stalls or crashes the server. One `code-intel serve` process over real stdio,
 * driven by the MCP SDK's client: the hostile calls (a regex bomb over a 5,000-character line, a
 * 1 MB single-word query, a 1 MB regex, NUL paths, arguments nested thousands of levels deep, a
 * 12 MB message, lines that are not JSON), then a few thousand random and malformed calls with a
 * fixed seed. Every call is answered within its budget, never with internal_error, never over the
 * size cap, every error with a code and a hint; the server is alive at the end and answers a
 * normal call. A longer run with figures: npm run bench:fuzz.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fuzzer, figures, type FuzzServer, hostileCalls, type Outcome, rawHostileLines, startFuzzServer, type ToolInfo, writeFuzzProject } from '../bench/lib/fuzz.js';
import { DEFAULT_BUDGET_MS, LIMITS } from '../src/server/limits.js';
import { CLI, REPO_ROOT } from './helpers/project.js';

const SEED = 13;
const CALLS = 2500;
/** the transport and a loaded CI machine, on top of the budget */
const SLACK_MS = 750;
const LIMIT_MS = DEFAULT_BUDGET_MS + SLACK_MS;

let root: string;
let server: FuzzServer;
const outcomes: Outcome[] = [];

function problemOf(o: Outcome): string | undefined {
  if (o.code === 'timeout') return 'no answer';
  if (o.code === 'internal_error' || o.code === 'protocol:-32603') return `internal error: ${o.message}`;
  if (o.code === 'output_schema_mismatch') return `an answer its outputSchema does not describe: ${o.message}`;
  if (o.code === 'unstructured_error') return `an error without a code: ${o.message}`;
  if (o.ms > LIMIT_MS) return `took ${Math.round(o.ms)} ms`;
  if (o.bytes > LIMITS.answerBytes) return `an answer of ${o.bytes} bytes`;
  if (o.code !== 'ok' && o.code !== 'went_on' && !o.code.startsWith('protocol:') && !o.hint) return `${o.code} without a hint`;
  if ((o.message?.length ?? 0) > 2500) return `a message of ${o.message!.length} characters`;
  return undefined;
}

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-fuzz-')));
  writeFuzzProject(root, path.join(REPO_ROOT, 'fixtures'));
  server = await startFuzzServer(CLI, root);
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('fuzzing one server over stdio', () => {
  it('answers every hostile call of the issue within its budget, with a specific error, and goes on', async () => {
    const seen: Record<string, Outcome> = {};
    for (const c of hostileCalls()) {
      const o = await server.call(c, LIMIT_MS + 5000);
      outcomes.push(o);
      seen[c.label] = o;
      expect(problemOf(o), c.label).toBeUndefined();
    }
    for (const r of rawHostileLines()) {
      const o = await server.raw(r.label, r.id, r.line, LIMIT_MS + 5000);
      outcomes.push(o);
      seen[r.label] = o;
      expect(problemOf(o), r.label).toBeUndefined();
    }
    const code = (label: string) => seen[label]?.code;
    // the bombs are stopped (a worker thread is terminated), with a hint about the pattern
    expect(code('regex bomb (a+)+$ over a 5,000-character line')).toBe('budget_exceeded');
    expect(seen['regex bomb (a+)+$ over a 5,000-character line']!.hint).toMatch(/nested quantifiers/);
    expect(code('regex bomb with a backreference')).toBe('budget_exceeded');
    // sizes and shapes are refused by the schemas, before any tool code runs
    expect(code('1 MB single-word query')).toBe('input_too_large');
    expect(code('1 MB single-word query in capitals')).toBe('input_too_large');
    expect(code('1 MB regex')).toBe('input_too_large');
    expect(code('4 KB word in capitals (the limit)')).toBe('ok');
    expect(code('NUL in check_write_target')).toBe('invalid_path');
    expect(code('NUL in get_symbols')).toBe('invalid_path');
    expect(code('arguments nested 3,000 levels deep')).toBe('input_too_deep');
    expect(code('30,000 array items')).toBe('input_too_large');
    expect(code('a 1 MB tool name')).toBe('unknown_tool');
    expect(code('raw: a 12 MB call')).toBe('input_too_large');
    expect(code('raw: arguments nested 100,000 levels deep')).toBe('input_too_deep');
    expect(code('raw: arrays nested 1,000,000 levels deep')).toBe('input_too_deep');
    expect(code('raw: arguments that are a string')).toBe('protocol:-32602');
    expect(code('raw: a line that is not JSON')).toBe('went_on');
    // no error quotes the megabytes it was sent
    for (const o of Object.values(seen)) if (o.code !== 'ok') expect(o.bytes, o.call.label).toBeLessThan(4000);
    const normal = await server.call({ tool: 'query', args: { text: 'cart total' }, label: 'normal' }, LIMIT_MS);
    expect(normal.code).toBe('ok');
  });

  it('serves other calls while a regex bomb runs', async () => {
    const bomb = server.call({ tool: 'search_text', args: { pattern: '(a|a)+$', regex: true }, label: 'bomb' }, LIMIT_MS + 5000);
    await new Promise((r) => setTimeout(r, 100));
    const during = await server.call({ tool: 'find_references', args: { name: 'Cart' }, label: 'normal' }, LIMIT_MS);
    expect(during.code).toBe('ok');
    expect(during.ms).toBeLessThan(500);
    const b = await bomb;
    expect(b.code).toBe('budget_exceeded');
    expect(b.ms).toBeLessThan(LIMIT_MS);
  });

  it(`answers ${CALLS} random and malformed calls: no crash, no internal_error, none over its budget or the size cap`, async () => {
    const { tools } = await server.client.listTools();
    const fuzzer = new Fuzzer(SEED, tools as ToolInfo[]);
    const problems: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      const c = fuzzer.next();
      const o = await server.call(c, LIMIT_MS + 5000);
      outcomes.push(o);
      const p = problemOf(o);
      if (p) problems.push(`#${i} ${c.label} ${JSON.stringify(c.args)?.slice(0, 200)}: ${p}`);
    }
    expect(problems).toEqual([]);
    const f = figures(outcomes);
    // the run reached real work, not only schema refusals: results, sessions, refusals by phase
    expect(f.by_code.ok).toBeGreaterThan(CALLS / 10);
    expect(Object.keys(f.by_code).length).toBeGreaterThan(12);
    // session tools without an active session say so (no_active_session), with a next step
    expect(f.by_code.no_active_session).toBeGreaterThan(0);
    expect(f.max_answer_bytes).toBeLessThanOrEqual(LIMITS.answerBytes);
    // the server logged no internal error, and still answers
    expect(server.stderr.filter((l) => /ERROR/.test(l))).toEqual([]);
    const last = await server.call({ tool: 'find_definitions', args: { name: 'formatPrice' }, label: 'normal' }, LIMIT_MS);
    expect(last.code).toBe('ok');
    expect(server.pid !== null && isAlive(server.pid)).toBe(true);
  }, 120_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
