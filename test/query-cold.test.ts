/**
 * `query` on a cold engine: when building the code-text corpus would not fit in what is left of the
 * call's budget (a fresh server on a large project), the answer comes from the name index, says so,
 * and the corpus is built for the next call; a warm engine answers with both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { semanticEngine } from '../src/embeddings/engine.js';
import { Project } from '../src/project/project.js';
import { queryHybrid } from '../src/query/hybrid-query.js';
import { Deadline, runWithDeadline } from '../src/util/deadline.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';

let root: string | undefined;
let project: Project | undefined;
afterEach(() => {
  project?.close();
  project = undefined;
  if (root) removeProject(root);
  root = undefined;
});

const underBudget = (ms: number, text: string) => runWithDeadline(new Deadline('query', ms), () => queryHybrid(project!, { text }));

describe('query with a cold engine', () => {
  it('answers from the names within a budget the corpus would not fit in, then warms for the next call', async () => {
    root = makeProject(SAMPLE);
    project = new Project(root);
    await project.refresh();
    const engine = semanticEngine(project);
    expect(engine.corpusCostMs()).toBeGreaterThan(0);

    // 250 ms leave less than the 300 ms the engine keeps in hand: the names answer alone
    const cold = await underBudget(250, 'formatPrice');
    expect(cold.backend).toBe('names');
    expect((cold as Record<string, unknown>).engine).toMatch(/warming/);
    expect(cold.symbols[0]).toMatchObject({ name: 'formatPrice', file: 'src/util/format.ts' });

    // the corpus is built in the background for the next call
    await new Promise((r) => setTimeout(r, 200));
    expect(engine.corpusCostMs()).toBe(0);
    const warm = await underBudget(250, 'formatPrice');
    expect(warm.backend).toMatch(/^names\+/);
    expect((warm as Record<string, unknown>).engine).toBeUndefined();
    expect(warm.symbols[0]).toMatchObject({ name: 'formatPrice' });
  });

  it('builds the corpus inside the call when the budget allows it', async () => {
    root = makeProject(SAMPLE);
    project = new Project(root);
    await project.refresh();
    const r = await underBudget(2000, 'cart total');
    expect(r.backend).toMatch(/^names\+/);
    expect(semanticEngine(project).corpusCostMs()).toBe(0);
  });
});
