/**
 * Preloaded with `node --import` by bench/index-speed.ts: writes the process's peak resident set
 * (worker threads included: they are threads of this process) to stderr on exit, as one line
 * `max-rss-kb N`, so that the peak can be read without GNU time.
 */
import fs from 'node:fs';

process.on('exit', () => {
  fs.writeSync(2, `\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
