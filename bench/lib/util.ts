/** Small helpers for the benchmark: a seeded PRNG, timing, process spawning, tables. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** mulberry32: tiny, deterministic, good enough for sampling. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with the given random source; returns a new array. */
export function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Absolute path of an executable on PATH, or undefined. */
export function which(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, cmd);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      if (fs.statSync(full).isFile()) return full;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function run(cmd: string, args: string[], cwd: string): RunResult {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms };
}

export const fmtPct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(1) + '%' : '—');
export const fmtMs = (x: number): string => (x >= 1000 ? (x / 1000).toFixed(2) + ' s' : x.toFixed(x < 10 ? 2 : 0) + ' ms');
export const ratio = (num: number, den: number): number => (den === 0 ? NaN : num / den);

/** A plain-text table: first row is the header; numbers right-aligned. */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const isNum = (s: string) => /^[-+]?[\d.,]+\s*(%|ms|s|x|×)?$/.test(s) || s === '—';
  const line = (r: string[]) => r.map((c, i) => (i > 0 && isNum(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of cells.slice(1)) out.push(line(r));
  return out.map((l) => '  ' + l).join('\n');
}

export function heading(s: string): void {
  console.log(`\n=== ${s} ${'='.repeat(Math.max(0, 76 - s.length))}`);
}

/** Every file under dir (relative to base, `/`-separated) whose name passes the filter. */
export function listFiles(base: string, dir: string, keep: (rel: string) => boolean): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(base, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else if (e.isFile() && keep(r)) out.push(r);
    }
  };
  visit(dir);
  return out.sort();
}
