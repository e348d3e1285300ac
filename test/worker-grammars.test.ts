/**
 * A parse worker takes the language rows and node tables its indexing thread checked (#14):
 * it does not read or check them again (nor load zod for that, ≈ 50 ms and ≈ 10 MB per worker).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { checkedGrammars } from '../src/index/languages.js';
import { type WorkerBatch, unpackBatch } from '../src/index/packed-refs.js';
import { runParseJob } from '../src/index/parse-job.js';
import { makeProject, removeProject, REPO_ROOT } from './helpers/project.js';

let root: string | undefined;
afterEach(() => root && removeProject(root));

const WORKER = path.join(REPO_ROOT, 'dist', 'src', 'index', 'worker.js');

function parseInWorker(dir: string, grammars: unknown, rel: string): Promise<WorkerBatch> {
  const w = new Worker(WORKER, { workerData: { root: dir, grammars } });
  return new Promise<WorkerBatch>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
    w.postMessage([{ rel }]);
  }).finally(() => w.terminate());
}

describe('parse workers and the grammars they are handed', () => {
  it('parse with the rows and tables handed to them: the facts of the indexing thread', async () => {
    root = makeProject({ 'src/a.ts': 'export class A { run(): number { return 1; } }\nexport const a = new A().run();\n' });
    const given = checkedGrammars();
    expect(Object.keys(given.tables)).toContain('typescript/nodes.json');
    const [inWorker] = unpackBatch(await parseInWorker(root, given, 'src/a.ts'));
    const here = await runParseJob(root, { rel: 'src/a.ts' });
    expect(inWorker).toEqual(here);
    expect(here.status === 'parsed' && here.facts?.refs.some((r) => r.name === 'run' && r.role === 'call')).toBe(true);
  });

  it('read no table themselves: one not handed over is an error, not read from grammars/', async () => {
    root = makeProject({ 'src/a.ts': 'export const a = 1;\n' });
    await expect(parseInWorker(root, { ...checkedGrammars(), tables: {} }, 'src/a.ts')).rejects.toThrow(/grammars\/collections\.json was not handed to this worker/);
  });
});
