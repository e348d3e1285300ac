/**
 * Cold index speed (#14): `code-intel index` on a fresh copy of a package against Universal Ctags
 * on the same machine, in the same run. For each package (effect@4.1.0, about 570 TypeScript files
 * and 21.6 MB of source, and rxjs@7.8.2, fetched with npm pack into bench/.cache/), each round runs
 * ctags on the package folder (the reference: `ctags -R --languages=TypeScript`), ctags on
 * the files the index parses (without `dist/`, which the index ignores) and a cold index of a fresh
 * copy, one after the other; the table gives medians over the rounds. Wall times include starting
 * node. Peak RSS covers the worker threads (they share the process).
 *
 * `INDEX_BENCH_RUNS` (default 3) sets the rounds, `INDEX_BENCH_PACKAGES` (comma-separated specs)
 * the packages. `INDEX_BENCH_COMPARE=/other/checkout/dist/src/cli/main.js` indexes with another
 * build too, in the same rounds (a before/after on a noisy machine). Without `ctags` on PATH the
 * ratio columns are left empty.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchPackage } from './lib/fetch.js';
import { heading, median, table, which } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
const PRELOAD = path.join(REPO, 'dist', 'bench', 'lib', 'max-rss.js');
const RUNS = Number(process.env.INDEX_BENCH_RUNS ?? 3);
const SPECS = (process.env.INDEX_BENCH_PACKAGES ?? 'effect@4.1.0,rxjs@7.8.2').split(',').map((s) => s.trim()).filter(Boolean);
const COMPARE = process.env.INDEX_BENCH_COMPARE;
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

interface Timed { ms: number; rssKb?: number }

/** Runs a command, its wall time and (with GNU time) its peak RSS. */
function timed(cmd: string, args: string[], cwd: string, useTime: boolean): Timed & { stdout: string } {
  const t0 = performance.now();
  const r = useTime && GNU_TIME
    ? spawnSync(GNU_TIME, ['-f', 'max-rss-kb %M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    : spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(-2000)}`);
  const m = /max-rss-kb (\d+)/.exec(r.stderr);
  return { ms, rssKb: m ? Number(m[1]) : undefined, stdout: r.stdout };
}

interface Round { ctagsAll?: Timed; ctagsSame?: Timed; index: Timed; files: number; parsed: number }

function tsBytes(dir: string): { files: number; bytes: number } {
  let files = 0, bytes = 0;
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!(d === dir && e.name === 'dist') && e.name !== 'node_modules' && e.name !== '.code-intel') visit(p);
      } else if (e.isFile() && /\.(ts|tsx|mts|cts)$/.test(e.name)) {
        files++;
        bytes += fs.statSync(p).size;
      }
    }
  };
  visit(dir);
  return { files, bytes };
}

/** A cold index of a fresh copy of the package with one build's CLI. */
function coldIndex(pkgDir: string, cli: string): { index: Timed; files: number; parsed: number } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-index-speed-'));
  try {
    // (an index left in the cached package by hand would make this a warm index, not a cold one)
    fs.cpSync(pkgDir, root, { recursive: true, filter: (src) => path.basename(src) !== '.code-intel' });
    const r = timed(process.execPath, ['--import', PRELOAD, cli, 'index', root, '--json'], root, false); // (its peak from the preload)
    const stats = JSON.parse(r.stdout) as { files: number; parsed: number };
    return { index: { ms: r.ms, rssKb: r.rssKb }, files: stats.files, parsed: stats.parsed };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function round(pkgDir: string, ctags: string | undefined): { rounds: Round[] } {
  const ctagsAll = ctags ? timed(ctags, ['-R', '--languages=TypeScript', '-f', '/dev/null', '.'], pkgDir, true) : undefined;
  const ctagsSame = ctags ? timed(ctags, ['-R', '--languages=TypeScript', '--exclude=dist', '-f', '/dev/null', '.'], pkgDir, true) : undefined;
  return { rounds: [CLI, ...(COMPARE ? [COMPARE] : [])].map((cli) => ({ ctagsAll, ctagsSame, ...coldIndex(pkgDir, cli) })) };
}

function main(): void {
  const ctags = which('ctags');
  const cache = path.join(REPO, 'bench', '.cache');
  heading(`Cold index vs ctags — ${os.availableParallelism()} cores, node ${process.version}, ${RUNS} rounds (medians)`);
  const rows: (string | number)[][] = [[
    'package', 'TS files', 'TS MB', 'index s', 'files/s', 'MB/s', 'peak RSS MB', 'ctags s', 'ratio', 'ctags (same files) s', 'ratio', 'ctags RSS MB',
  ]];
  for (const spec of SPECS) {
    const pkg = fetchPackage(cache, spec);
    const builds: Round[][] = COMPARE ? [[], []] : [[]];
    for (let i = 0; i < RUNS; i++) {
      const { rounds: rs } = round(pkg.dir, ctags);
      rs.forEach((r, b) => {
        builds[b]!.push(r);
        process.stderr.write(`${spec} round ${i + 1}${b ? ' (compare)' : ''}: index ${(r.index.ms / 1000).toFixed(2)} s (${Math.round((r.index.rssKb ?? 0) / 1024)} MB)` +
          (r.ctagsAll ? `, ctags ${(r.ctagsAll.ms / 1000).toFixed(2)} s, ctags same files ${(r.ctagsSame!.ms / 1000).toFixed(2)} s` : '') + '\n');
      });
    }
    for (const [b, rounds] of builds.entries()) {
    const med = (f: (r: Round) => number | undefined) => {
      const xs = rounds.map(f).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs) : NaN;
    };
    const index = med((r) => r.index.ms) / 1000;
    const ts = tsBytes(pkg.dir);
    const all = med((r) => r.ctagsAll?.ms) / 1000, same = med((r) => r.ctagsSame?.ms) / 1000;
    // ratios per round (the same round's conditions), then their median
    const ratioAll = med((r) => (r.ctagsAll ? r.index.ms / r.ctagsAll.ms : undefined));
    const ratioSame = med((r) => (r.ctagsSame ? r.index.ms / r.ctagsSame.ms : undefined));
    const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
    rows.push([
      b ? `${spec} (compare)` : spec, ts.files, f2(ts.bytes / 1e6), f2(index), Math.round(med((r) => r.parsed) / index), f2(ts.bytes / 1e6 / index),
      Math.round(med((r) => r.index.rssKb) / 1024), f2(all), Number.isFinite(ratioAll) ? ratioAll.toFixed(1) + '×' : '—',
      f2(same), Number.isFinite(ratioSame) ? ratioSame.toFixed(1) + '×' : '—', Math.round(med((r) => r.ctagsAll?.rssKb) / 1024) || '—',
    ]);
    }
  }
  console.log(table(rows));
  if (COMPARE) console.log(`  (compare): ${COMPARE}, run in the same rounds`);
  console.log('  index: `code-intel index` on a fresh copy (no .code-intel/), node start included; files/s counts every file it parsed');
  console.log('  ctags: `ctags -R --languages=TypeScript -f /dev/null` on the package (with dist/), and with --exclude=dist (the files the index parses)');
  console.log('  goal (#14): effect cold index ≤ 2.5× ctags in the same run, peak RSS ≤ 500 MB');
}

main();
