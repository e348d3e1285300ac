/**
 * A long fuzz run against one `code-intel serve` process over stdio (npm run bench:fuzz):
 * FUZZ_CALLS random and malformed calls (default 10,000) after the hostile ones of issue #13, with a
 * fixed seed (FUZZ_SEED). Prints the figures: calls, answers by error code, latency p50 / p99 / max,
 * the largest answer, and every problem (a crash, internal_error, a call over its budget, an answer
 * over the size cap, an error without a code or hint). Exit status 1 when there is a problem.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/util/paths.js';
import { type FuzzCall, Fuzzer, figures, hostileCalls, type Outcome, rawHostileLines, startFuzzServer, type ToolInfo, writeFuzzProject } from './lib/fuzz.js';
import { DEFAULT_BUDGET_MS, LIMITS } from '../src/server/limits.js';

const CLI = path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');
const N = Number(process.env.FUZZ_CALLS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 13);
const BUDGET = Number(process.env.CODE_INTEL_BUDGET_MS ?? DEFAULT_BUDGET_MS);
/** what a call may take beyond its budget: the transport and a loaded machine */
const SLACK_MS = Number(process.env.FUZZ_SLACK_MS ?? 500);

/** What is wrong with one answer, if anything. */
export function problemOf(o: Outcome, budget = BUDGET, slack = SLACK_MS): string | undefined {
  if (o.code === 'timeout') return 'no answer (timeout)';
  if (o.code === 'internal_error' || o.code === 'protocol:-32603') return `internal error: ${o.message}`;
  if (o.code === 'output_schema_mismatch') return `an answer its outputSchema does not describe: ${o.message}`;
  if (o.code === 'unstructured_error') return `an error without a code: ${o.message}`;
  if (o.ms > budget + slack) return `took ${Math.round(o.ms)} ms (budget ${budget} ms)`;
  if (o.bytes > LIMITS.answerBytes) return `answer of ${o.bytes} bytes`;
  if (o.code !== 'ok' && o.code !== 'went_on' && !o.code.startsWith('protocol:') && !o.hint) return `error ${o.code} without a hint`;
  if ((o.message?.length ?? 0) > 2500) return `an error message of ${o.message!.length} characters`;
  return undefined;
}

async function main(): Promise<void> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-fuzz-')));
  writeFuzzProject(root, path.join(PACKAGE_ROOT, 'fixtures'));
  const server = await startFuzzServer(CLI, root);
  const outcomes: Outcome[] = [];
  const problems: string[] = [];
  const timeout = BUDGET + 10_000;
  const run = async (c: FuzzCall) => {
    const o = await server.call(c, timeout);
    outcomes.push(o);
    const p = problemOf(o);
    if (p) problems.push(`${c.label}: ${p}`);
    return o;
  };
  const t0 = performance.now();
  try {
    for (const c of hostileCalls()) {
      const o = await run(c);
      process.stderr.write(`  ${c.label.padEnd(48)} ${String(Math.round(o.ms)).padStart(5)} ms  ${o.code}\n`);
    }
    for (const r of rawHostileLines()) {
      const o = await server.raw(r.label, r.id, r.line, timeout);
      outcomes.push(o);
      const p = problemOf(o);
      if (p) problems.push(`${r.label}: ${p}`);
      process.stderr.write(`  ${r.label.padEnd(48)} ${String(Math.round(o.ms)).padStart(5)} ms  ${o.code}\n`);
    }
    const { tools } = await server.client.listTools();
    const fuzzer = new Fuzzer(SEED, tools as ToolInfo[]);
    for (let i = 0; i < N; i++) {
      await run(fuzzer.next());
      if ((i + 1) % 1000 === 0) process.stderr.write(`  ${i + 1} / ${N} calls\n`);
    }
    const last = await run({ tool: 'query', args: { text: 'greeter' }, label: 'a normal call at the end' });
    if (last.code !== 'ok') problems.push(`the normal call at the end answered ${last.code}`);
  } finally {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  const f = figures(outcomes);
  const crashes = server.stderr.filter((l) => /ERROR/.test(l));
  process.stdout.write(
    [
      `fuzz: ${f.calls} calls (seed ${SEED}, budget ${BUDGET} ms, answer cap ${LIMITS.answerBytes} bytes) in ${Math.round((performance.now() - t0) / 1000)} s`,
      `answers by code:`,
      ...Object.entries(f.by_code).map(([code, n]) => `  ${code.padEnd(28)} ${n}`),
      `latency: p50 ${f.p50_ms} ms, p99 ${f.p99_ms} ms, max ${f.max_ms} ms (${f.slowest})`,
      `largest answer: ${f.max_answer_bytes} bytes (${f.largest})`,
      `server errors logged on stderr: ${crashes.length}`,
      ...crashes.slice(0, 10).map((l) => `  ${l.slice(0, 300)}`),
      `problems: ${problems.length}`,
      ...problems.slice(0, 40).map((p) => `  ${p.slice(0, 400)}`),
      '',
    ].join('\n'),
  );
  if (problems.length > 0 || crashes.length > 0) process.exitCode = 1;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(new URL(import.meta.url).pathname)) await main();
