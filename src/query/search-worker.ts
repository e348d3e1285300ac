/** Worker thread of search_text: runs one scan per message (see search-pool.ts). */
import { parentPort } from 'node:worker_threads';
import { UserError } from '../util/paths.js';
import { runSearchJob, type SearchJob } from './search-text.js';

parentPort!.on('message', (msg: { id: number; job: SearchJob }) => {
  try {
    parentPort!.postMessage({ id: msg.id, result: runSearchJob(msg.job) });
  } catch (e) {
    const err = e instanceof UserError
      ? { code: e.code, message: e.message, hint: e.hint }
      : { code: 'search_failed', message: `the search failed: ${String((e as Error)?.message ?? e).slice(0, 300)}`, hint: 'Try a simpler pattern or a narrower path.' };
    parentPort!.postMessage({ id: msg.id, error: err });
  }
});
