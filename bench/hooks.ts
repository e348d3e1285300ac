/**
 * `npm run bench:hooks`: the hook latency section alone, on the same reference codebase as
 * `npm run bench` (fetched by name from the npm registry into bench/.cache).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchPackage } from './lib/fetch.js';
import { measureHooks } from './lib/hooks.js';
import { fmtMs, heading, table } from './lib/util.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = fetchPackage(path.join(REPO, 'bench', '.cache'), 'rxjs@7.8.2');
console.log(`code-intel hook bench — rxjs@7.8.2, node ${process.version}, ${os.availableParallelism()} cores`);
heading('Hook latency (process per call, cold start included)');
const timings = measureHooks(REPO, pkg.dir, 'src/internal/Observable.ts', Number(process.env.BENCH_RUNS ?? 15));
console.log(table([['case', 'decision', 'median', 'worst'], ...timings.map((h) => [h.case, h.decision, fmtMs(h.median_ms), fmtMs(h.max_ms)])]));
