/**
 * The agent-trial harness's Grep takes globs as Claude Code's (ripgrep) does: `!g` excludes what g
 * matches, the others include. Without ripgrep on the machine the fallback filters the files itself
 * (tr44: a `--glob '!…'` filtered nothing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { doGrep } from '../bench/agent-trial/cc-tools.js';
import type { TrialState } from '../bench/agent-trial/state.js';
import { makeProject, removeProject } from './helpers/project.js';

let root: string | undefined;
afterEach(() => {
  if (root) removeProject(root);
  root = undefined;
});

const files = (text: string) => text.split('\n').slice(1).map((l) => l.replace(/^.*\/(src\/)/, '$1')).sort();

describe('the trial harness Grep', () => {
  it('includes by globs and excludes by negated ones', () => {
    root = makeProject({ 'src/a.ts': 'needle', 'src/a.test.ts': 'needle', 'src/b.md': 'needle', 'src/c.ts': 'hay' });
    const s = { project: root } as TrialState;
    const run = (glob?: string) => files(String(doGrep(s, 'needle', { mode: 'files_with_matches', glob }).text));
    expect(run()).toEqual(['src/a.test.ts', 'src/a.ts', 'src/b.md']);
    expect(run('*.ts')).toEqual(['src/a.test.ts', 'src/a.ts']);
    expect(run('!*.test.ts')).toEqual(['src/a.ts', 'src/b.md']);
    expect(run('*.ts !*.test.ts')).toEqual(['src/a.ts']);
  });
});
