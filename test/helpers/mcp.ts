import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './project.js';

export type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content: { type: string; text?: string }[] };

export interface Server {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** the server process's pid, to kill it the hard way */
  pid: number | null;
  close(): Promise<void>;
}

/** Starts `code-intel serve ROOT` and connects the MCP SDK's own client to it over stdio. */
export async function startServer(root: string, env: Record<string, string> = {}, args: string[] = []): Promise<Server> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', root, ...args], stderr: 'pipe', env: { ...process.env, CODE_INTEL_LOG: 'silent', ...env } as Record<string, string> });
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(transport);
  // with the tool list known, the SDK's client checks every answer against its tool's outputSchema
  await client.listTools();
  return {
    client,
    pid: transport.pid,
    call: async (name, args = {}) => withErrorObject((await client.callTool({ name, arguments: args })) as ToolResult),
    close: () => client.close(),
  };
}

/** An error comes as JSON text only (src/server/respond.ts); tests read its object like an answer's. */
export function withErrorObject(r: ToolResult): ToolResult {
  if (r.isError && !r.structuredContent && r.content[0]?.text) return { ...r, structuredContent: JSON.parse(r.content[0].text) as Record<string, any> };
  return r;
}
