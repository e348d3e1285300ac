/**
 * code-intel's MCP server as Claude Code runs it: the command from .mcp.json (snapshotted at setup),
 * cwd the project, stdio, the official SDK client. One server per call: session state lives in the
 * project's database, so a fresh server resumes where the last one stopped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { envFor, type TrialState } from './state.js';

export interface McpAnswer {
  isError: boolean;
  structured?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** Long enough for a first semantic_search that loads an embedding model. */
const CALL_TIMEOUT_MS = 300_000;

async function withServer<T>(s: TrialState, fn: (c: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({
    command: s.mcp.command === 'node' ? process.execPath : s.mcp.command,
    args: s.mcp.args,
    cwd: s.project,
    env: { ...envFor(s), ...(s.mcp.env ?? {}) },
    stderr: 'pipe',
  });
  const log = path.join(s.dir, 'server.log');
  transport.stderr?.on('data', (d: Buffer) => fs.appendFileSync(log, d));
  const client = new Client({ name: 'claude-code', version: 'agent-trial' });
  fs.appendFileSync(log, `--- ${new Date().toISOString()} ${s.mcp.command} ${s.mcp.args.join(' ')}\n`);
  await client.connect(transport);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

export async function callTool(s: TrialState, name: string, args: Record<string, unknown>): Promise<McpAnswer> {
  return withServer(s, async (c) => {
    // Claude Code knows the tool list before it calls, and checks each answer against its outputSchema
    await c.listTools();
    const r = await c.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    return {
      isError: r.isError === true,
      structured: (r.structuredContent ?? undefined) as Record<string, unknown> | undefined,
      content: (Array.isArray(r.content) ? r.content : []) as McpAnswer['content'],
    };
  });
}

export interface ToolInfo { name: string; description?: string; inputSchema: unknown; annotations?: unknown }

export async function listTools(s: TrialState): Promise<ToolInfo[]> {
  return withServer(s, async (c) => (await c.listTools()).tools as ToolInfo[]);
}

/** What the model sees of a result: Claude Code shows structuredContent when there is one. */
export function shownText(a: McpAnswer): string {
  if (a.structured) return JSON.stringify(a.structured, null, 2);
  return a.content.map((b) => {
    if (b.type !== 'text' || typeof b.text !== 'string') return `[${b.type} content]`;
    try {
      return JSON.stringify(JSON.parse(b.text), null, 2);
    } catch {
      return b.text;
    }
  }).join('\n');
}
