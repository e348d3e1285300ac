/** A minimal Language Server Protocol client over stdio (JSON-RPC with Content-Length framing). */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface LspLocation {
  file: string; // absolute path
  line: number; // 1-based
  column: number; // 1-based, UTF-16
}

export class LspClient {
  private proc: ChildProcessWithoutNullStreams;
  private buf = Buffer.alloc(0);
  private nextId = 0;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private opened = new Set<string>();
  stderr = '';

  constructor(cmd: string, args: string[], private settings: Record<string, unknown> = {}) {
    this.proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (d: Buffer) => this.onData(d));
    this.proc.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.proc.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`language server exited (${code}): ${this.stderr.slice(-500)}`));
      this.pending.clear();
    });
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const h = this.buf.indexOf('\r\n\r\n');
      if (h < 0) return;
      const len = Number(/Content-Length: *(\d+)/i.exec(this.buf.subarray(0, h).toString())?.[1] ?? NaN);
      if (!Number.isFinite(len) || this.buf.length < h + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(h + 4, h + 4 + len).toString()) as {
        id?: number; method?: string; params?: { items?: unknown[] }; result?: unknown; error?: { message: string };
      };
      this.buf = this.buf.subarray(h + 4 + len);
      if (msg.id !== undefined && msg.method) {
        // a request from the server: configuration gets our settings, everything else null
        const result = msg.method === 'workspace/configuration' ? (msg.params?.items ?? []).map(() => this.settings) : null;
        this.send({ id: msg.id, result });
      } else if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message));
        else p?.resolve(msg.result);
      }
    }
  }

  private send(m: Record<string, unknown>): void {
    const s = JSON.stringify({ jsonrpc: '2.0', ...m });
    this.proc.stdin.write(`Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`);
  }

  request<T>(method: string, params: unknown, timeoutMs = 60_000): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  async initialize(rootDir: string): Promise<void> {
    const uri = pathToFileURL(rootDir).href;
    await this.request('initialize', {
      processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: 'bench' }],
      capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { references: {} } },
    });
    this.notify('initialized', {});
  }

  open(file: string, languageId: string): void {
    if (this.opened.has(file)) return;
    this.opened.add(file);
    this.notify('textDocument/didOpen', {
      textDocument: { uri: pathToFileURL(file).href, languageId, version: 1, text: fs.readFileSync(file, 'utf8') },
    });
  }

  /** References of the symbol at a 1-based position, without its declaration. */
  async references(file: string, line: number, column: number): Promise<LspLocation[]> {
    const r = await this.request<{ uri: string; range: { start: { line: number; character: number } } }[] | null>('textDocument/references', {
      textDocument: { uri: pathToFileURL(file).href },
      position: { line: line - 1, character: column - 1 },
      context: { includeDeclaration: false },
    });
    return (r ?? []).map((l) => ({ file: fileURLToPath(l.uri), line: l.range.start.line + 1, column: l.range.start.character + 1 }));
  }

  async close(): Promise<void> {
    try {
      await this.request('shutdown', null, 5000);
      this.notify('exit', null);
    } catch {
      /* killed below */
    }
    this.proc.kill();
  }
}
