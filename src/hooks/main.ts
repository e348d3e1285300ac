#!/usr/bin/env node
/**
 * Hook entry: `node dist/src/hooks/main.js <pre-tool-use|user-prompt-submit|post-tool-use|stop> [--client=claude-code|gemini|cursor|codex]`
 * with the client's hook JSON on stdin. Kept apart from the CLI so a hook loads only what it needs.
 * This is its own process, never the MCP server: its stdout is the hook's answer to the client.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import { limitGitTo } from '../guard/project-git.js';
import { type Client, HOOK_CLIENTS } from './dialects.js';
import { deny, HOOK_EVENTS, type HookEvent, MAX_PAYLOAD, runHook } from './hooks.js';

const EVENTS = new Set<HookEvent>(HOOK_EVENTS);

/**
 * A hook answers within this time, well inside the 30 s `init` gives it: past it the client would
 * drop the hook, and Codex and Gemini CLI then let the tool call through. Work that would run longer
 * (git over a huge or locked tree) stops, and a call that may write is denied.
 */
const HOOK_BUDGET_MS = Number(process.env.CODE_INTEL_HOOK_BUDGET_MS) || 20_000;

/** The client named by `--client=NAME` (Claude Code when absent or unknown). */
function clientOf(args: string[]): Client {
  const named = args.find((a) => a.startsWith('--client='))?.slice('--client='.length);
  return HOOK_CLIENTS.includes(named as Client) ? (named as Client) : 'claude-code';
}

export async function hookMain(event: string | undefined, args: string[] = []): Promise<void> {
  const client = clientOf(args);
  limitGitTo(Date.now() + HOOK_BUDGET_MS);
  // A hook is a short process: V8's background optimising compile of the bash grammar's wasm would
  // hold the exit for about a second. Baseline compilation alone parses a command in milliseconds.
  v8.setFlagsFromString('--liftoff-only');
  if (!event || !EVENTS.has(event as HookEvent)) {
    // an unknown event name is a broken installation: deny rather than let edits through
    process.stdout.write(deny(`unknown hook event '${event ?? ''}' (expected ${[...EVENTS].join(', ')})`, client).stdout);
    return;
  }
  // read at most a little more than the guard accepts: a huge payload is refused, never waited on
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin) {
    chunks.push(c as Buffer);
    size += (c as Buffer).length;
    if (size > MAX_PAYLOAD + 1) break;
  }
  const out = await runHook(event as HookEvent, Buffer.concat(chunks).toString('utf8'), {
    cwd: process.cwd(),
    projectDir: process.env.CLAUDE_PROJECT_DIR || process.env.GEMINI_PROJECT_DIR || undefined,
  }, client);
  if (out.stdout) process.stdout.write(out.stdout);
  process.exitCode = out.exitCode;
}

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  hookMain(process.argv[2], process.argv.slice(3)).catch((e: unknown) => {
    process.stdout.write(deny(`hook crashed: ${(e as Error)?.message ?? e}`, clientOf(process.argv)).stdout);
  });
}
