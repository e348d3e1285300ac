/**
 * `code-intel model pull`: the one place that downloads model files, and only when asked. Every
 * request has a deadline for its answer and for each chunk of the body, so a closed network fails
 * within seconds with a message that says what to do instead. Files land in DIR.partial and are
 * moved into place only when all arrived.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../util/paths.js';
import { KNOWN_MODELS } from './config.js';
import { inspectModelDir, MANIFEST } from './model.js';

export interface PullOptions {
  model: string;
  dir: string;
  /** hub base address; HF_ENDPOINT or the public hub */
  endpoint?: string;
  /** ms to wait for response headers, and for each body chunk */
  timeoutMs?: number;
  onProgress?: (file: string, bytes: number, total: number | null) => void;
}

export async function pullModel(opts: PullOptions): Promise<{ dir: string; files: string[]; bytes: number }> {
  const known = KNOWN_MODELS[opts.model];
  if (!known) throw new UserError(`unknown model '${opts.model}'`, `Known models: ${Object.keys(KNOWN_MODELS).join(', ')}. For another model, copy its directory and set CODE_INTEL_MODEL_DIR.`);
  const endpoint = (opts.endpoint ?? process.env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, '');
  const timeout = opts.timeoutMs ?? 20_000;
  const partial = `${opts.dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  let total = 0;
  try {
    for (const file of known.files) {
      const url = `${endpoint}/${known.repo}/resolve/main/${file}`;
      const target = path.join(partial, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      total += await download(url, target, timeout, (n, t) => opts.onProgress?.(file, n, t));
    }
    fs.writeFileSync(path.join(partial, MANIFEST), JSON.stringify({
      name: opts.model, repo: known.repo, query_prefix: known.queryPrefix, passage_prefix: known.passagePrefix, dim: known.dim,
      pulled_at: new Date().toISOString(), source: endpoint,
    }, null, 2) + '\n');
    const check = inspectModelDir(partial);
    if (!check.ok) throw new Error(`downloaded files are incomplete: ${check.missing.join(', ')}`);
    fs.rmSync(opts.dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(opts.dir), { recursive: true });
    fs.renameSync(partial, opts.dir);
  } catch (e) {
    fs.rmSync(partial, { recursive: true, force: true });
    if (e instanceof UserError) throw e;
    throw new UserError(
      `could not download ${opts.model} from ${endpoint}: ${(e as Error).message}`,
      `This machine cannot reach the model hub. On a machine that can, run \`code-intel model pull --dir DIR\` and copy DIR here, ` +
        `then set CODE_INTEL_MODEL_DIR=DIR (or "model_dir" in .code-intel/config.json). Until then the lexical backend is used. ` +
        `A mirror can be named with HF_ENDPOINT.`,
      'download_failed',
    );
  }
  return { dir: opts.dir, files: known.files, bytes: total };
}

async function download(url: string, target: string, timeoutMs: number, progress: (n: number, total: number | null) => void): Promise<number> {
  const ctrl = new AbortController();
  let timer = setTimeout(() => ctrl.abort(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: ctrl.signal, redirect: 'follow' });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new Error((cause?.code ? `${cause.code} (${new URL(url).host})` : undefined) ?? cause?.message ?? (ctrl.signal.reason as Error | undefined)?.message ?? (e as Error).message);
    }
    if (!res.ok || !res.body) throw new Error(`${url} answered HTTP ${res.status}`);
    const totalHeader = Number(res.headers.get('content-length'));
    const out = fs.createWriteStream(target);
    let n = 0;
    try {
      const reader = res.body.getReader();
      for (;;) {
        clearTimeout(timer);
        timer = setTimeout(() => ctrl.abort(new Error(`download stalled for ${timeoutMs / 1000} s`)), timeoutMs);
        const { done, value } = await reader.read();
        if (done) break;
        n += value.length;
        if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
        progress(n, Number.isFinite(totalHeader) && totalHeader > 0 ? totalHeader : null);
      }
    } finally {
      await new Promise<void>((r) => out.end(r));
    }
    return n;
  } finally {
    clearTimeout(timer);
  }
}
