/**
 * Startup (#12): how long an MCP client waits for `initialize` and `tools/list` from a cold
 * `code-intel serve` on a real ≥ 1,000-file package (three@0.170.0, fetched with npm pack; speed
 * only), how long until the index is complete, and a warm restart. Clients give up at 5–30 s
 * (OpenCode 5 s, Gemini CLI ~8 s, Codex 10 s, Claude Code ~30 s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fetchPackage } from './lib/fetch.js';
import { heading, table } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
const SPEC = process.env.STARTUP_PACKAGE ?? 'three@0.170.0';

async function run(root: string): Promise<{ initialize: number; tools: number; firstCall: number; complete: number; files: number }> {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', root], stderr: 'ignore', env: { ...process.env, CODE_INTEL_LOG: 'silent', CODE_INTEL_INDEX_WAIT_MS: '0' } as Record<string, string> });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const initialize = performance.now() - t0;
  await client.listTools();
  const tools = performance.now() - t0;
  const call = async () => (await client.callTool({ name: 'get_session_status', arguments: {} })).structuredContent as { index?: { complete: boolean; files: number } };
  await call();
  const firstCall = performance.now() - t0;
  let s = await call();
  // a server from before background indexing answers only once indexed, without `complete`
  while (s.index?.complete === false) {
    await new Promise((r) => setTimeout(r, 200));
    s = await call();
  }
  const complete = performance.now() - t0;
  await client.close();
  return { initialize, tools, firstCall, complete, files: s.index?.files ?? 0 };
}

async function main(): Promise<void> {
  const cache = path.join(REPO, 'bench', '.cache', 'packages');
  const pkg = fetchPackage(cache, SPEC);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-startup-'));
  fs.cpSync(pkg.dir, root, { recursive: true });
  try {
    const cold = await run(root);
    const warm = await run(root);
    heading(`Startup — ${SPEC}, ${os.availableParallelism()} cores, node ${process.version}`);
    const ms = (x: number) => `${Math.round(x)} ms`;
    console.log(table([
      ['start', 'files', 'initialize', 'tools/list', 'first tool call', 'index complete'],
      ['cold (no .code-intel)', cold.files, ms(cold.initialize), ms(cold.tools), ms(cold.firstCall), ms(cold.complete)],
      ['warm (indexed, nothing changed)', warm.files, ms(warm.initialize), ms(warm.tools), ms(warm.firstCall), ms(warm.complete)],
    ]));
    console.log('  times from spawning `code-intel serve` (node start included); the first call answers from the partial index (CODE_INTEL_INDEX_WAIT_MS=0)');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
