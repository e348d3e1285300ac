/**
 * MCP over stdio, robust to what a fuzzer sends. The SDK's StdioServerTransport closes the whole
 * connection when one message exceeds 10 MB (the server then exits: a 12 MB call killed it), copies
 * its buffer on every chunk (quadratic in a message's size), and lets a request whose params do not
 * fit the method's schema through to a handler that fails with "internal error". Here:
 * - lines are collected chunk by chunk and joined once (linear);
 * - a line over MAX_MESSAGE_BYTES is skipped to its end and answered (input_too_large for a
 *   tools/call, a JSON-RPC error otherwise) when its id can be read from its start or end;
 * - a line that is not JSON, or not JSON-RPC, is answered with a JSON-RPC error (-32700 / -32600);
 * - a request for a known method whose params do not fit is answered with -32602 (invalid params).
 * Messages that pass go to the SDK's Server unchanged.
 */
import process from 'node:process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { quote } from '../util/paths.js';

/** The largest message read; a bigger one is skipped (no tool argument comes near it: see limits.ts). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const PEEK = 256;

type Id = string | number;

/** JSON-RPC "server not initialized" (the code LSP uses; MCP names none) */
const NOT_INITIALIZED = -32002;

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** set while skipping the rest of a line that is too long: its first and last bytes */
  private skipping: { head: Buffer; tail: Buffer } | undefined;
  private closed = false;
  /** an initialize request has come in: other requests are served from then on */
  private initializing = false;
  private readonly schemas = requestSchemas();

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  private readonly onStreamError = (e: Error) => {
    this.onerror?.(e);
  };

  private readonly ondata = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) {
        this.push(buf.subarray(start));
        return;
      }
      this.push(buf.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
  };

  private push(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.skipping) {
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, part]));
      return;
    }
    this.chunks.push(part);
    if (this.size > this.maxBytes) {
      const all = Buffer.concat(this.chunks);
      this.skipping = { head: Buffer.from(all.subarray(0, PEEK)), tail: lastBytes(all) };
      this.chunks = [];
    }
  }

  private endLine(): void {
    const size = this.size;
    const skipped = this.skipping;
    const chunks = this.chunks;
    this.chunks = [];
    this.size = 0;
    this.skipping = undefined;
    if (skipped) {
      this.tooLarge(skipped.head.toString('utf8'), skipped.tail.toString('utf8'), size);
      return;
    }
    const line = Buffer.concat(chunks).toString('utf8').replace(/\r$/, '');
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      this.reply(null, ErrorCode.ParseError, `parse error: the line is not JSON (${quote((e as Error).message, 120)})`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.reply(idOf(json), ErrorCode.InvalidRequest, 'invalid request: the message is not JSON-RPC 2.0 (jsonrpc, id, method, params)');
      return;
    }
    const msg = parsed.data as JSONRPCMessage & { method?: string; id?: Id; params?: unknown };
    // the protocol's lifecycle: nothing but initialize (and ping) before initialize
    if (typeof msg.method === 'string' && msg.id !== undefined && !this.initializing && msg.method !== 'initialize' && msg.method !== 'ping') {
      this.reply(msg.id, NOT_INITIALIZED, `server not initialized: send initialize before ${quote(msg.method, 60)}`);
      return;
    }
    if (msg.method === 'initialize') this.initializing = true;
    if (typeof msg.method === 'string' && msg.id !== undefined) {
      const schema = this.schemas.get(msg.method);
      const check = schema?.safeParse(json);
      if (check && !check.success) {
        const issues = check.error.issues.slice(0, 3).map((i) => `${i.path.map(String).map((k) => quote(k, 40)).join('.') || '(request)'}: ${quote(i.message, 160)}`);
        this.reply(msg.id, ErrorCode.InvalidParams, `invalid params for ${quote(msg.method, 60)}: ${issues.join('; ')}`);
        return;
      }
    }
    this.onmessage?.(msg);
  }

  /** A message too large to read: answer it when its id can be found at either end. */
  private tooLarge(head: string, tail: string, size: number): void {
    const id = /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,64}")\s*}\s*$/.exec(tail)?.[1] ?? /^\s*\{(?:\s*"jsonrpc"\s*:\s*"2\.0"\s*,)?\s*"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,64}")/.exec(head)?.[1];
    const method = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(head)?.[1];
    const message = `the request is ${size} bytes; the server reads messages of at most ${this.maxBytes} bytes`;
    this.onerror?.(new Error(`skipped a message of ${size} bytes (${method ?? 'unknown method'})`));
    if (id === undefined) return;
    const rid: Id = id.startsWith('"') ? id.slice(1, -1) : Number(id);
    if (method === 'tools/call') {
      const data = { error: 'input_too_large', message, hint: 'Send less: the limits are in the tool\'s inputSchema (maxLength, maxItems).' };
      void this.send({ jsonrpc: '2.0', id: rid, result: { isError: true, content: [{ type: 'text', text: JSON.stringify(data) }] } });
    } else this.reply(rid, ErrorCode.InvalidRequest, message);
  }

  private reply(id: Id | null, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id: id as Id, error: { code, message } });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const json = JSON.stringify(message) + '\n';
    await new Promise<void>((resolve) => {
      if (this.stdout.write(json)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('error', this.onStreamError);
    this.chunks = [];
    this.onclose?.();
  }
}

function lastBytes(b: Buffer): Buffer {
  return Buffer.from(b.subarray(Math.max(0, b.length - PEEK)));
}

/** The id of something that is not valid JSON-RPC, when it has a usable one. */
function idOf(json: unknown): Id | null {
  const id = json && typeof json === 'object' ? (json as { id?: unknown }).id : undefined;
  return typeof id === 'number' || (typeof id === 'string' && id.length <= 200) ? id : null;
}

/** The schema of each request a client may send, by method. */
function requestSchemas(): Map<string, z.ZodType> {
  const out = new Map<string, z.ZodType>();
  for (const option of (ClientRequestSchema as unknown as { options: z.ZodObject[] }).options) {
    const method = (option.shape.method as unknown as { value?: unknown })?.value;
    if (typeof method === 'string') out.set(method, option);
  }
  return out;
}
