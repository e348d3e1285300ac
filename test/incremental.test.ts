import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultWorkers, updateIndex, workersFor } from '../src/index/indexer.js';
import { memoryBudgetMb, MIN_OLD_MB, planWorkers } from '../src/index/worker-budget.js';
import { Project } from '../src/project/project.js';
import { setMeta } from '../src/store/db.js';
import { findReferences } from '../src/query/references.js';
import { findDefinitions } from '../src/query/definitions.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';

let root: string | undefined;
afterEach(() => root && removeProject(root));

const bump = (file: string, text: string) => {
  fs.writeFileSync(file, text);
  const t = new Date(Date.now() + 5000); // mtime must move even on coarse clocks
  fs.utimesSync(file, t, t);
};

describe('incremental index', () => {
  it('re-parses only edited, added and removed files, and answers follow', async () => {
    root = makeProject(SAMPLE);
    const p = new Project(root);
    const cold = await updateIndex(p.db, p.root, { workers: 0 });
    expect(cold.parsed).toBe(cold.files);
    expect(cold.files).toBe(6); // 4 sources + README + .gitignore; generated/ is ignored

    const again = await updateIndex(p.db, p.root);
    expect(again).toMatchObject({ parsed: 0, removed: 0, unchanged: 0 });

    // edit: a new call site in main.ts
    const main = path.join(root, 'src/main.ts');
    bump(main, fs.readFileSync(main, 'utf8') + `export const again = () => new Cart();\n`);
    const edited = await updateIndex(p.db, p.root);
    expect(edited).toMatchObject({ parsed: 1, removed: 0 });
    const cartRefs = findReferences(p, { name: 'Cart' }).items.map((r) => `${r.file}:${r.line}`);
    expect(cartRefs).toContain('src/main.ts:7');

    // touch without change: hashed, not parsed
    bump(main, fs.readFileSync(main, 'utf8'));
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: 0, unchanged: 1 });

    // add a file that imports through the barrel
    fs.writeFileSync(path.join(root, 'src/new.ts'), `import { formatPrice } from './util';\nformatPrice(1);\n`);
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: 1 });
    expect(findReferences(p, { name: 'formatPrice' }).items.map((r) => `${r.file}:${r.line}`)).toContain('src/new.ts:2');

    // delete the definition's file: references through it disappear, the importer is left unresolved
    fs.rmSync(path.join(root, 'src/util/format.ts'));
    const removed = await updateIndex(p.db, p.root);
    expect(removed).toMatchObject({ parsed: 0, removed: 1 });
    expect(findDefinitions(p, { name: 'formatPrice' }).total).toBe(0);
    p.close();
  });

  it('an index written by another extractor (an upgrade, an edited query) is parsed again in full, once', async () => {
    root = makeProject(SAMPLE);
    const p = new Project(root);
    const cold = await updateIndex(p.db, p.root, { workers: 0 });
    setMeta(p.db, 'extractor', 'an older extractor');
    const refs = findReferences(p, { name: 'Cart' }).total;
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: cold.files, removed: 0 });
    expect(findReferences(p, { name: 'Cart' }).total).toBe(refs);
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: 0 });
    p.close();
  });

  it('skips binaries and says so', async () => {
    root = makeProject({ 'a.ts': 'export const a = 1;\n' });
    fs.writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const p = new Project(root);
    const stats = await updateIndex(p.db, p.root);
    expect(stats.skipped).toEqual([{ file: 'logo.png', reason: 'binary' }]);
    p.close();
  });

  it('a cold index parsed on this thread lets the event loop run between its files', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) files[`src/m${i}.ts`] = `export function f${i}(x: number) { return x + ${i}; }\n`;
    root = makeProject(files);
    const p = new Project(root);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const seen: number[] = [];
    try {
      // (the first batch may wait on loading the parser: the ticks are counted from its end)
      const stats = await updateIndex(p.db, p.root, { workers: 0, onProgress: (_d, _t, stage) => { if (stage === 'parse') seen.push(ticks); } });
      expect(stats.parsed).toBe(80);
    } finally {
      clearInterval(timer);
      p.close();
    }
    expect(seen).toHaveLength(5); // 80 files, batches of 16
    expect(seen.at(-1)! - seen[0]!).toBeGreaterThanOrEqual(3);
  });

  it('a cold index on worker threads gives the same facts as in-process', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) files[`src/m${i}.ts`] = `import { f${(i + 1) % 80} } from './m${(i + 1) % 80}';\nexport function f${i}() { return f${(i + 1) % 80}; }\n`;
    root = makeProject(files);
    const a = new Project(root);
    const threaded = await updateIndex(a.db, a.root, { workers: 2 });
    const snapshot = findReferences(a, { name: 'f3' }).items;
    a.close();
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true });
    const b = new Project(root);
    const inline = await updateIndex(b.db, b.root, { workers: 0 });
    expect(inline.symbols).toBe(threaded.symbols);
    expect(inline.references).toBe(threaded.references);
    expect(findReferences(b, { name: 'f3' }).items).toEqual(snapshot);
    b.close();
  });
});

describe('file watcher', () => {
  /** Waits until the watcher has re-indexed after a change (events arrive asynchronously). */
  async function settled(w: { refreshes: number; idle(): Promise<void> }, before: number): Promise<void> {
    for (let i = 0; i < 200 && w.refreshes === before; i++) await new Promise((r) => setTimeout(r, 25));
    await w.idle();
  }

  it('re-indexes an edit, a new file and a file in a new folder before the next call asks', async () => {
    root = makeProject(SAMPLE);
    const p = new Project(root);
    await p.refresh();
    const w = p.watch({ settleMs: 30 });
    try {
      expect(p.freshness().watching).toBe(true);
      let n = w.refreshes;
      bump(path.join(root, 'src/cart.ts'), fs.readFileSync(path.join(root, 'src/cart.ts'), 'utf8') + '\nexport function watchedEdit(): number { return 1; }\n');
      await settled(w, n);
      expect(findDefinitions(p, { name: 'watchedEdit' }).items).toHaveLength(1);

      n = w.refreshes;
      fs.mkdirSync(path.join(root, 'src/fresh'));
      fs.writeFileSync(path.join(root, 'src/fresh/first.ts'), 'export const firstInFolder = 1;\n');
      await settled(w, n);
      expect(findDefinitions(p, { name: 'firstInFolder' }).items).toHaveLength(1);

      // the new folder is watched now: a second file there is seen too
      n = w.refreshes;
      fs.writeFileSync(path.join(root, 'src/fresh/second.ts'), 'export const secondInFolder = 2;\n');
      await settled(w, n);
      expect(findDefinitions(p, { name: 'secondInFolder' }).items).toHaveLength(1);

      // the call that comes next has nothing left to re-index
      expect((await p.fresh(1000)).reindexed_now).toBe(0);
    } finally {
      p.close();
    }
    expect(w.watching).toBe(false);
  });

  it('stops (and each call checks the files itself) when a project has more folders than it may watch', async () => {
    root = makeProject(SAMPLE);
    const p = new Project(root);
    await p.refresh();
    const w = p.watch({ maxDirs: 1 });
    expect(w.watching).toBe(false);
    expect(p.freshness().watching).toBeUndefined();
    bump(path.join(root, 'src/cart.ts'), 'export const afterStop = 1;\n');
    expect((await p.fresh(5000)).reindexed_now).toBe(1);
    p.close();
  });
});

describe('worker count', () => {
  it('defaults to the cores, at most 8; CODE_INTEL_INDEX_WORKERS sets it; a bad value falls back', () => {
    const cores = Math.min(os.availableParallelism(), 8);
    expect(defaultWorkers({})).toBe(cores);
    expect(defaultWorkers({ CODE_INTEL_INDEX_WORKERS: '16' })).toBe(16);
    expect(defaultWorkers({ CODE_INTEL_INDEX_WORKERS: '0' })).toBe(0);
    for (const bad of ['-1', '2.5', 'many', '65']) expect(defaultWorkers({ CODE_INTEL_INDEX_WORKERS: bad })).toBe(cores);
  });

  it('by default, workers only for enough bytes to pay for starting them; a number asked for is kept', () => {
    const cores = Math.min(os.availableParallelism(), 8);
    // rxjs-sized (1.1 MB): parsed on the indexing thread
    expect(workersFor(1_100_000, undefined, {})).toBe(0);
    // effect-sized (21.8 MB): one per core where there are two or more
    expect(workersFor(21_800_000, undefined, {})).toBe(cores >= 2 ? cores : 0);
    // on two cores, two workers from 5 MB: each parses half, saving the 2.5 MB one thread parses while they start
    if (cores === 2) {
      expect(workersFor(4_900_000, undefined, {})).toBe(0);
      expect(workersFor(5_000_000, undefined, {})).toBe(2);
    }
    // asked for (an option, CODE_INTEL_INDEX_WORKERS): kept whatever the size
    expect(workersFor(1_000, 2, {})).toBe(2);
    expect(workersFor(1_000, undefined, { CODE_INTEL_INDEX_WORKERS: '3' })).toBe(3);
    expect(workersFor(50_000_000, undefined, { CODE_INTEL_INDEX_WORKERS: '0' })).toBe(0);
    expect(workersFor(50_000_000, 0, { CODE_INTEL_INDEX_WORKERS: '4' })).toBe(0);
    // a bad value is the default, bytes and all
    expect(workersFor(1_000, undefined, { CODE_INTEL_INDEX_WORKERS: 'many' })).toBe(0);
  });

  it('the memory budget bounds each worker\'s heap and how many run at once; they index what one thread indexes', async () => {
    // two workers (the 2-core default): V8's young generation, an old generation above what they grow to
    expect(planWorkers(2, 512)).toEqual({ workers: 2, limits: { maxOldGenerationSizeMb: 152 }, capped: false });
    // more: a small young generation first, then fewer workers, each with room for a large file
    expect(planWorkers(4, 512)).toEqual({ workers: 4, limits: { maxOldGenerationSizeMb: 72, maxYoungGenerationSizeMb: 8 }, capped: false });
    expect(planWorkers(16, 512)).toEqual({ workers: 4, limits: { maxOldGenerationSizeMb: 72, maxYoungGenerationSizeMb: 8 }, capped: true });
    expect(planWorkers(16, 2048).workers).toBe(16);
    for (const n of [1, 2, 3, 5, 8, 16, 64]) for (const mb of [128, 256, 512, 1024, 4096]) {
      const p = planWorkers(n, mb);
      expect(p.workers).toBeGreaterThanOrEqual(1);
      expect(p.workers).toBeLessThanOrEqual(n);
      expect(p.limits.maxOldGenerationSizeMb).toBeGreaterThanOrEqual(MIN_OLD_MB);
    }
    // 512 MB up to 4 cores, 128 MB more for each core up to 8: 8 cores keep their 8 workers
    expect([1, 2, 4, 6, 8, 16, 64].map((cores) => memoryBudgetMb({}, cores).mb)).toEqual([512, 512, 512, 768, 1024, 1024, 1024]);
    expect(planWorkers(8, memoryBudgetMb({}, 8).mb)).toMatchObject({ workers: 8, capped: false });
    expect(planWorkers(16, memoryBudgetMb({}, 2).mb)).toMatchObject({ workers: 4, capped: true });
    expect(memoryBudgetMb({ CODE_INTEL_INDEX_MEMORY_MB: '2048' }, 2)).toEqual({ mb: 2048 });
    expect(memoryBudgetMb({ CODE_INTEL_INDEX_MEMORY_MB: '64' }, 2)).toEqual({ mb: 512, bad: '64' });
    const files: Record<string, string> = {};
    for (let i = 0; i < 160; i++) files[`src/m${i}.ts`] = `import { f${(i + 1) % 160} } from './m${(i + 1) % 160}';\nexport function f${i}(): number { return f${(i + 1) % 160}.length; }\n`;
    root = makeProject(files);
    const dump = (p: Project) => p.db.prepare('SELECT f.path, r.name, r.line, r.col, r.role, r.confidence, s.name AS target FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.symbol_id ORDER BY 1, 3, 4').all();
    const many = new Project(root);
    const stats = await updateIndex(many.db, many.root, { workers: 10 }); // 160 files: 10 batches of 16
    expect(stats.parsed).toBe(160);
    const rows = dump(many);
    many.close();
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true, force: true });
    const one = new Project(root);
    await updateIndex(one.db, one.root, { workers: 0 });
    expect(rows).toEqual(dump(one));
    expect(rows.filter((r) => (r as { confidence: string }).confidence === 'imported').length).toBe(160 * 2);
    one.close();
  });

  it('a worker out of memory hands its files back: the indexing thread parses them, and the facts are the same', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 96; i++) {
      const body = Array.from({ length: 200 }, (_, j) => `export const v${j} = f${(i + 1) % 96}(${j}, { k: v${Math.max(0, j - 1)} });`).join('\n');
      files[`src/m${i}.ts`] = `import { f${(i + 1) % 96} } from './m${(i + 1) % 96}';\nexport function f${i}(n: number, o: object): number { return n; }\n${body}\n`;
    }
    root = makeProject(files);
    const dump = (p: Project) => p.db.prepare('SELECT f.path, r.name, r.line, r.col, r.role, r.confidence, s.name AS target FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.symbol_id ORDER BY 1, 3, 4').all();
    const said: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((m) => (said.push(String(m)), true));
    const small = new Project(root);
    let stats;
    try {
      stats = await updateIndex(small.db, small.root, { workers: 2, workerHeapMb: 8 }); // too small for any file
    } finally {
      spy.mockRestore();
    }
    expect(stats.parsed).toBe(96);
    expect(said.some((m) => m.includes('ran out of its 8 MB heap'))).toBe(true);
    const rows = dump(small);
    small.close();
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true, force: true });
    const one = new Project(root);
    await updateIndex(one.db, one.root, { workers: 0 });
    expect(rows).toEqual(dump(one));
    expect(rows.length).toBeGreaterThan(96 * 200);
    one.close();
  });
});
