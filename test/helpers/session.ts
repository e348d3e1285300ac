/** A real /code session driven to READY in-process, the way the MCP tools would, on the SAMPLE project. */
import { expect } from 'vitest';
import { findDefinitions } from '../../src/query/definitions.js';
import { getSymbols } from '../../src/query/outline.js';
import type { Project } from '../../src/project/project.js';
import { findReferences } from '../../src/query/references.js';
import type { SessionService } from '../../src/session/service.js';

/** An honest understanding of the SAMPLE project for the cart-total request (what its exploration shows). */
export const SAMPLE_UNDERSTANDING = {
  symbols_identified: ['Cart', 'Cart.total', 'formatPrice'],
  entry_points: ['Cart.total()'],
  existing_patterns: ['fluent methods returning this, like Cart.add'],
  files_analyzed: ['src/cart.ts', 'src/util/format.ts'],
  notes: 'total() sums cents and formats them',
};

/** The honest confirmation on the sample: the three symbols of the understanding, each with evidence about it. */
export const SAMPLE_SYMBOLS = ['Cart.total', 'Cart', 'formatPrice'];
export const SAMPLE_CONFIRM = [
  { symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' },
  { symbol: 'Cart', approved: true, code_evidence: '`export class Cart {` in src/cart.ts' },
  { symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' },
];

export async function driveToReady(project: Project, sessions: SessionService): Promise<void> {
  sessions.start('IMPLEMENT', 'カートの合計に消費税を加える処理を追加して');
  sessions.setQueryFrame({ target_feature: { value: 'カートの合計', quote: 'カートの合計' } });
  await project.refresh();
  sessions.record('find_definitions', { name: 'formatPrice' }, { ...findDefinitions(project, { name: 'formatPrice' }) });
  // a definition row names its file; its outline shows the code
  sessions.record('get_symbols', { file: 'src/util/format.ts' }, { ...getSymbols(project, { file: 'src/util/format.ts' }) });
  sessions.record('find_references', { name: 'Cart' }, { ...findReferences(project, { name: 'Cart' }) });
  sessions.record('get_symbols', { file: 'src/cart.ts' }, { ...getSymbols(project, { file: 'src/cart.ts' }) });
  sessions.submitUnderstanding(SAMPLE_UNDERSTANDING);
  await sessions.validateRelevance('カートの合計', SAMPLE_SYMBOLS);
  await sessions.confirmRelevance(SAMPLE_CONFIRM);
  expect(sessions.status().phase).toBe('READY');
}

/** The agent Read the whole file, recorded as the PostToolUse hook records a Read (the lines it showed included). */
export function readWhole(sessions: SessionService, file: string): void {
  const s = sessions.store.active()!;
  const n = Math.max(1, sessions.project.lines(file).length);
  sessions.store.record(s.id, { tool: 'hook:Read', args: { file_path: file }, phase: s.phase, outcome: 'ok', files: [file], symbols: [], lines: { [file]: [[1, n]] }, summary: 'read by the agent' });
}
