/** A function declared inside another one is found by name (and by Container.name), and said to be local. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { Project } from '../src/query/project.js';
import { findReferences } from '../src/query/references.js';
import { makeProject, removeProject } from './helpers/project.js';

let root: string;
let project: Project;
beforeAll(async () => {
  root = makeProject({
    'src/store.ts': [
      'export function createSetupStore(id: string) {',
      '  function wrapAction(name: string) {',
      '    return name + id;',
      '  }',
      '  return wrapAction("a") + wrapAction("b");',
      '}',
      '',
    ].join('\n'),
  });
  project = new Project(root);
  await project.refresh();
});
afterAll(() => {
  project.close();
  removeProject(root);
});

describe('names declared inside a function', () => {
  it('find_definitions finds them by name and by Container.name, and says they are local', () => {
    const byName = findDefinitions(project, { name: 'wrapAction' });
    expect(byName.items).toEqual([expect.objectContaining({ name: 'wrapAction', file: 'src/store.ts', line: 2 })]);
    expect(byName.resolution).toContain('local');
    expect(findDefinitions(project, { name: 'createSetupStore.wrapAction' }).items).toHaveLength(1);
    expect(findDefinitions(project, { name: 'nothingLikeThis' }).resolution).toContain('from');
  });
  it('find_references by name reaches their uses', () => {
    const refs = findReferences(project, { name: 'wrapAction' });
    expect(refs.items.filter((r) => r.kind === 'call')).toHaveLength(2);
  });
});
