/** Relevance through the code graph: one step from a seed is the accepted tier, never FACT; unlinked code gets nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../src/query/project.js';
import { symbolsByName } from '../src/query/symbols.js';
import { linkedScore, linkToSeeds, symbolLabel } from '../src/session/graph-relevance.js';
import { makeProject, removeProject } from './helpers/project.js';

let root: string;
let project: Project;
const id = (name: string) => symbolsByName(project, name, { includeLocal: true })[0]!.id;

beforeAll(async () => {
  root = makeProject({
    'src/reset.ts': `import { helper } from './helper';\nexport function resetStore(): void {\n  helper();\n}\n`,
    'src/helper.ts': `import { deep } from './deep';\nexport function helper(): void {\n  deep();\n}\n`,
    'src/deep.ts': `export function deep(): number {\n  return 1;\n}\n`,
    'src/other.ts': `export class Unrelated {\n  run(): number {\n    return 2;\n  }\n}\n`,
  });
  project = new Project(root);
  await project.refresh();
});
afterAll(() => {
  project.close();
  removeProject(root);
});

describe('graph relevance', () => {
  it('finds a seed one step away, through references in either direction and containment', () => {
    const seeds = new Set([id('resetStore')]);
    expect(linkToSeeds(project.db, id('helper'), seeds, 1)).toMatchObject({ seed: id('resetStore'), hops: 1 });
    expect(linkToSeeds(project.db, id('deep'), seeds, 1)).toBeUndefined(); // two steps away
    expect(linkToSeeds(project.db, id('deep'), seeds, 2)).toMatchObject({ hops: 2 });
    expect(linkToSeeds(project.db, id('Unrelated.run'), new Set([id('Unrelated')]), 1)).toMatchObject({ hops: 1 }); // a member and its class
    expect(linkToSeeds(project.db, id('Unrelated'), seeds, 2)).toBeUndefined();
    expect(symbolLabel(project.db, id('Unrelated.run'))).toBe('Unrelated.run');
  });
  it('a link earns the accepted tier at most', () => {
    expect(linkedScore(1, 1)).toBeGreaterThanOrEqual(0.3);
    expect(linkedScore(1, 1)).toBeLessThanOrEqual(0.6);
    expect(linkedScore(0.4, 1)).toBeGreaterThanOrEqual(0.3);
    expect(linkedScore(0.4, 2)).toBe(0);
  });
});
