/** Worker-thread entry: parses batches of files for a cold index. */
import { parentPort, workerData } from 'node:worker_threads';
import { packBatch } from './packed-refs.js';
import { type ParseJob, runParseJob } from './parse-job.js';

const root = (workerData as { root: string }).root;

// batches arrive ahead of time (the indexer keeps two in flight): they are parsed one after the other
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (jobs: ParseJob[]) => {
  queue = queue.then(async () => {
    const results = [];
    for (const job of jobs) results.push(await runParseJob(root, job));
    parentPort?.postMessage(packBatch(results));
  });
});
