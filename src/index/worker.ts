/** Worker-thread entry: parses batches of files for a cold index. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ParseJob, runParseJob } from './parse-job.js';

const root = (workerData as { root: string }).root;

parentPort?.on('message', async (jobs: ParseJob[]) => {
  const results = [];
  for (const job of jobs) results.push(await runParseJob(root, job));
  parentPort?.postMessage(results);
});
