/**
 * Rewrites fixtures/<name>.golden.json from what the index says now (`npm run golden`). Run it
 * after a deliberate change to the extractor, a grammar or a fixture, then review the diff by hand:
 * a golden file is only as good as the reading it got.
 */
import { buildGolden, fixtureNames, goldenPath, writeGolden } from './golden.js';

const only = process.argv.slice(2);
for (const name of fixtureNames()) {
  if (only.length > 0 && !only.includes(name)) continue;
  writeGolden(await buildGolden(name));
  process.stdout.write(`wrote ${goldenPath(name)}\n`);
}
