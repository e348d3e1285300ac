/**
 * Golden fixtures: index a temp copy of each repository under fixtures/ and compare outlines,
 * references and definition lookups with the reviewed golden file. After a deliberate change,
 * `npm run golden` rewrites the files; review their diff before committing it.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGolden, fixtureNames, goldenPath, readGolden } from './golden/golden.js';

describe('golden fixtures', () => {
  const names = fixtureNames();

  it('has a golden file for every fixture', () => {
    expect(names).toEqual(expect.arrayContaining(['js-app', 'ts-app']));
    for (const name of names) expect(fs.existsSync(goldenPath(name)), `${goldenPath(name)} (run npm run golden)`).toBe(true);
  });

  for (const name of names) {
    it(`${name} matches ${name}.golden.json`, async () => {
      const actual = await buildGolden(name);
      const expected = readGolden(name);
      // section by section, so a failure points at the part that moved
      expect(actual.outlines, 'outlines').toEqual(expected.outlines);
      expect(actual.references, 'references').toEqual(expected.references);
      expect(actual.definitions_from, 'definitions_from').toEqual(expected.definitions_from);
      expect(actual.definitions_by_name, 'definitions_by_name').toEqual(expected.definitions_by_name);
      expect(actual).toEqual(expected);
    });
  }
});
