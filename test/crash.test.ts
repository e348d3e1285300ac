/**
 * kill -9 at random points of honest sessions: after every restart the session resumes in a phase
 * consistent with its ledger — no call recorded as done without the transition it caused, no
 * transition without its call — and the guard's seal still holds.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from './helpers/mcp.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';
import { SAMPLE_UNDERSTANDING } from './helpers/session.js';
import { prng } from '../bench/lib/util.js';

const REQUEST = 'カートの合計に消費税を加える処理を追加して';
const FRAME = { target_feature: { value: 'カートの合計', quote: 'カートの合計' } };
const MAPPED = { ...SAMPLE_UNDERSTANDING, mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }] };
/** calls that move the machine, and the event each one records as a transition */
const MOVES: Record<string, string> = {
  submit_understanding: 'SUBMIT_UNDERSTANDING', confirm_symbol_relevance: 'RELEVANCE_CONFIRMED', revert_to_exploration: 'REVERT', end_session: 'END', abort_session: 'ABORT',
};

const root = makeProject(SAMPLE);
afterAll(() => removeProject(root));

/** The next honest call for the phase the session is in. */
function nextCall(phase: string | undefined, step: number): [string, Record<string, unknown>] {
  switch (phase) {
    case undefined: return ['start_session', { intent: 'IMPLEMENT', query: REQUEST }];
    case 'EXPLORATION':
      return ([
        ['set_query_frame', FRAME], ['find_definitions', { name: 'formatPrice' }], ['get_symbols', { file: 'src/util/format.ts' }], ['find_references', { name: 'Cart' }],
        ['get_symbols', { file: 'src/cart.ts' }], ['submit_understanding', MAPPED],
      ] as [string, Record<string, unknown>][])[step % 6]!;
    case 'VALIDATION':
      return step % 2 === 0 ? ['validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['Cart.total'] }]
        : ['confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' }] }];
    case 'READY': return step % 3 === 0 ? ['end_session', { outcome: 'success' }] : ['revert_to_exploration', { reason: 'again' }];
    default: return ['get_session_status', {}];
  }
}

function consistency(): string[] {
  const db = new Database(path.join(root, '.code-intel', 'index.db'), { readonly: true });
  try {
    const problems: string[] = [];
    for (const s of db.prepare('SELECT id, phase, status FROM sessions').all() as { id: string; phase: string; status: string }[]) {
      const last = db.prepare('SELECT to_phase FROM transitions WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(s.id) as { to_phase: string } | undefined;
      if (last && last.to_phase !== s.phase) problems.push(`${s.id}: phase ${s.phase}, last transition to ${last.to_phase}`);
      for (const [tool, event] of Object.entries(MOVES)) {
        const calls = (db.prepare(`SELECT COUNT(*) n FROM ledger WHERE session_id = ? AND tool = ? AND outcome = 'ok'`).get(s.id, tool) as { n: number }).n;
        const moves = (db.prepare('SELECT COUNT(*) n FROM transitions WHERE session_id = ? AND event = ?').get(s.id, event) as { n: number }).n;
        if (calls !== moves) problems.push(`${s.id}: ${calls} ${tool} recorded, ${moves} ${event} transitions`);
      }
    }
    return problems;
  } finally {
    db.close();
  }
}

describe('kill -9 at random points of honest sessions', () => {
  it('24 kills: every restart resumes consistent with the ledger, seal intact', async () => {
    const rand = prng(20261123);
    let server: Server = await startServer(root);
    let step = 0;
    const seen = new Set<string>();
    for (let kill = 0; kill < 24; kill++) {
      // a few calls, then one that is killed somewhere in its middle
      const calls = 1 + Math.floor(rand() * 4);
      for (let c = 0; c < calls; c++, step++) {
        const status = (await server.call('get_session_status')).structuredContent!;
        const [tool, args] = nextCall(status.active ? String(status.phase) : undefined, step);
        seen.add(tool);
        const pending = server.call(tool, args).catch(() => undefined);
        if (c === calls - 1) {
          await new Promise((r) => setTimeout(r, Math.floor(rand() * 25)));
          process.kill(server.pid!, 'SIGKILL');
          await pending;
        } else await pending;
      }
      server = await startServer(root);
      const problems = consistency();
      expect(problems, `after kill ${kill + 1}`).toEqual([]);
      const status = (await server.call('get_session_status')).structuredContent!;
      expect(status.error, `after kill ${kill + 1}: ${JSON.stringify(status).slice(0, 200)}`).toBeUndefined();
    }
    await server.close();
    expect([...seen]).toEqual(expect.arrayContaining(['submit_understanding', 'confirm_symbol_relevance']));
  }, 240_000);
});
