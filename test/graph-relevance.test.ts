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

describe('the graph leg in confirm_symbol_relevance', () => {
  it('accepts a linked symbol with the path, keeps it accepted across a return to EXPLORATION, rejects an unlinked one', async () => {
    const { SAMPLE } = await import('./helpers/project.js');
    const { SessionService } = await import('../src/session/service.js');
    const { findDefinitions } = await import('../src/query/definitions.js');
    const { findReferences } = await import('../src/query/references.js');
    const { getSymbols } = await import('../src/query/outline.js');
    const dir = makeProject({ ...SAMPLE, 'src/basket.ts': 'export class Basket {\n  add(cents: number): number {\n    return cents;\n  }\n}\n' });
    const p = new Project(dir);
    await p.refresh();
    const sessions = new SessionService(p);
    const understand = (extra: Record<string, unknown> = {}) => {
      sessions.record('find_definitions', { name: 'formatPrice' }, { ...findDefinitions(p, { name: 'formatPrice' }) });
      sessions.record('find_references', { name: 'Cart' }, { ...findReferences(p, { name: 'Cart' }) });
      sessions.record('get_symbols', { file: 'src/cart.ts' }, { ...getSymbols(p, { file: 'src/cart.ts' }) });
      sessions.record('get_symbols', { file: 'src/basket.ts' }, { ...getSymbols(p, { file: 'src/basket.ts' }) });
      return sessions.submitUnderstanding({
        symbols_identified: ['Cart.total', 'formatPrice', 'Basket'], entry_points: ['Cart.total()'],
        existing_patterns: ['fluent methods returning this, like Cart.add'], files_analyzed: ['src/cart.ts', 'src/util/format.ts'], ...extra,
      });
    };
    sessions.start('IMPLEMENT', 'カートの合計に消費税を加える処理を追加して');
    sessions.setQueryFrame({ target_feature: { value: 'カートの合計', quote: 'カートの合計' } });
    understand();
    await sessions.validateRelevance('カートの合計', ['Cart.total', 'formatPrice', 'Basket']);
    const first = await sessions.confirmRelevance([
      { symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' },
      { symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' },
      { symbol: 'Basket', approved: true, code_evidence: 'src/basket.ts:1' },
    ]);
    expect(first.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'formatPrice', tier: 'ACCEPTED_HIGH_RISK', via: expect.stringContaining('Cart.total') })]));
    expect(first.rejected).toEqual([expect.objectContaining({ symbol: 'Basket' })]);
    expect(first.next_phase).toBe('EXPLORATION');
    // second pass: formatPrice again, alone — it stays accepted (it is no longer its own link)
    understand({ symbols_identified: ['Cart.total', 'formatPrice', 'Cart'], mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }] });
    await sessions.validateRelevance('カートの合計', ['formatPrice', 'Cart']);
    const second = await sessions.confirmRelevance([
      { symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' },
      { symbol: 'Cart', approved: true, code_evidence: '`export class Cart {` in src/cart.ts' },
    ]);
    expect(second).toMatchObject({ next_phase: 'READY', rejected: [] });
    p.close();
    removeProject(dir);
  });
});
