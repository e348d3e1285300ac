/**
 * False claims, round 2 (issue #10): each test drives an honest session in-process (the tools run
 * through their records and are recorded as the server's wrapper records them), makes one false
 * claim at a gate, and checks that it is refused AND that the database holds nothing of it: the
 * session's phase, frame, understanding and mapped symbols, the ledger, the write guard's mode and
 * the NL→symbol cache. Each ends with the honest claim still passing.
 */
import { describe, expect, it } from 'vitest';
import type { Project } from '../src/project/project.js';
import { explore, setup } from './helpers/claims.js';
import { SAMPLE } from './helpers/project.js';
import { readWhole, SAMPLE_CONFIRM, SAMPLE_SYMBOLS, SAMPLE_UNDERSTANDING } from './helpers/session.js';

const REQUEST = 'カートの合計に消費税を加える処理を追加して';
const TARGET = 'カートの合計';
const FRAME = { target_feature: { value: TARGET, quote: TARGET }, desired_action: { value: '消費税を加える', quote: '消費税を加える' } };

type SC = Record<string, any>;

describe('QueryFrame: a value that says the opposite of its quote', () => {
  it('refuses an opposite action, in one language or across two, and stores nothing of the frame', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST });
    const attacks: [string, Record<string, unknown>, RegExp][] = [
      ['remove consumption tax', { desired_action: { value: 'remove consumption tax', quote: '消費税を加える' } }, /says remove where its quote/],
      ['消費税を削除する', { desired_action: { value: '消費税を削除する', quote: '消費税を加える' } }, /opposite|says more/],
      ['do not add consumption tax', { desired_action: { value: 'do not add consumption tax', quote: '消費税を加える' } }, /states a negation its quote/],
      // the same opposite with a Cyrillic о, or a zero-width space, read as "remove" and passed
      ['rem\u043Eve consumption tax', { desired_action: { value: 'rem\u043Eve consumption tax', quote: '消費税を加える' } }, /look-alike/],
      ['re\u200Bmove consumption tax', { desired_action: { value: 're\u200Bmove consumption tax', quote: '消費税を加える' } }, /look-alike/],
    ];
    for (const [what, frame, why] of attacks) {
      const e = await t.refused('set_query_frame', frame);
      expect(e.code, what).toBe('validation_failed');
      expect(JSON.stringify(e.extra.validation_errors), what).toMatch(why);
      // nothing of it stored: no frame, still EXPLORATION with no risk set, the call logged as refused
      expect(t.row().query_frame, what).toBeNull();
      expect(t.row().phase).toBe('EXPLORATION');
      expect(t.last()).toMatchObject({ tool: 'set_query_frame', outcome: 'error', summary: 'validation_failed' });
    }
    expect((await t.call('set_query_frame', FRAME)).success, 'the honest frame passes').toBe(true);
    expect(JSON.parse(t.row().query_frame!)).toMatchObject({ desired_action: '消費税を加える', validated_slots: ['target_feature', 'desired_action'] });
    // English values for the Japanese quotes, as the agent trials write them, pass too
    await t.call('abort_session', { reason: 'next' });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST });
    expect((await t.call('set_query_frame', { target_feature: { value: 'cart total', quote: TARGET }, desired_action: { value: 'add consumption tax', quote: '消費税を加える' } })).success).toBe(true);
  });
});

describe('QueryFrame: a negation dropped by a translation', () => {
  it('refuses "add consumption tax" for 消費税を加えない, and "カートを削除する" for "do not delete the cart"; stores no frame', async () => {
    const t = await setup();
    for (const [req, value, quote] of [['カートの合計に消費税を加えないでください', 'add consumption tax', '消費税を加えない'], ['Do not delete the cart', 'カートを削除する', 'Do not delete the cart']]) {
      await t.call('start_session', { intent: 'MODIFY', query: req });
      const e = await t.refused('set_query_frame', { desired_action: { value, quote } });
      expect(JSON.stringify(e.extra.validation_errors), value).toMatch(/drops the negation/);
      expect(t.row().query_frame).toBeNull();
      expect(t.last()).toMatchObject({ tool: 'set_query_frame', outcome: 'error' });
      // the negation kept in translation passes
      const kept = value === 'add consumption tax' ? 'do not add consumption tax' : 'カートを削除しない';
      expect((await t.call('set_query_frame', { desired_action: { value: kept, quote } })).success, kept).toBe(true);
      await t.call('abort_session', { reason: 'next' });
    }
  });
});

describe('Explored: a file seen only in a text-match row', () => {
  const NOTES = 'export function audit(): string {\n  return "cart audit";\n}\n';
  it('is neither a file of the understanding nor editable in READY, for the session and the guard alike', async () => {
    const t = await setup({ ...SAMPLE, 'src/notes.ts': NOTES });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    // one line of src/notes.ts (and of README.md) shown by a text search; a Grep in content mode names src/notes.ts too
    expect((await t.call('search_text', { pattern: 'audit' })).items).toEqual([expect.objectContaining({ file: 'src/notes.ts' }), expect.objectContaining({ file: 'src/notes.ts' })]);
    t.sessions.store.record(t.row().id, { tool: 'hook:Grep', args: { pattern: 'Use' }, phase: 'EXPLORATION', outcome: 'ok', files: ['README.md'], symbols: [], summary: 'read by the agent' });
    const e = await t.refused('submit_understanding', { ...SAMPLE_UNDERSTANDING, files_analyzed: ['src/cart.ts', 'src/notes.ts'] });
    expect(e.code).toBe('understanding_refused');
    expect(JSON.stringify(e.extra.consistency_errors)).toMatch(/src\/notes\.ts' was seen only in rows that show one line of it/);
    expect(t.row()).toMatchObject({ phase: 'EXPLORATION', understanding: null });
    expect(t.last()).toMatchObject({ tool: 'submit_understanding', outcome: 'error', summary: 'refused' });
    // the honest understanding passes and reaches READY
    expect((await t.call('submit_understanding', SAMPLE_UNDERSTANDING)).next_phase).toBe('VALIDATION');
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
    // READY: the matched files stay closed to the session's check and to the write guard
    for (const f of ['src/notes.ts', 'README.md']) {
      expect(await t.call('check_write_target', { file_path: f }), f).toMatchObject({ allowed: false });
      expect(t.guardSays(f), f).toMatch(/not explored/);
    }
    expect(t.sessions.status().explored_files).not.toContain('src/notes.ts');
    expect(t.guardSays('src/cart.ts')).toBeUndefined();
    // a use find_references showed is one line of its file too (round 3): named, not explored
    expect(t.guardSays('src/main.ts'), 'a file seen only in a reference row is not explored').toMatch(/not explored/);
    // seeing the file's code opens it: its outline, or a Read the hook recorded
    await t.call('get_symbols', { file: 'src/notes.ts' });
    expect(t.guardSays('src/notes.ts')).toBeUndefined();
    expect(await t.call('check_write_target', { file_path: 'src/notes.ts' })).toMatchObject({ allowed: true });
    t.sessions.store.record(t.row().id, { tool: 'hook:Read', args: { file_path: 'README.md' }, phase: 'READY', outcome: 'ok', files: ['README.md'], symbols: [], summary: 'read by the agent' });
    expect(t.guardSays('README.md')).toBeUndefined();
  });

  it('a text match still backs verification evidence (it names its files), and its declaration lines still show symbols', async () => {
    const t = await setup({ ...SAMPLE, 'src/notes.ts': NOTES });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await t.call('search_text', { pattern: 'export function audit' });
    const ev = t.sessions.evidence(t.sessions.require());
    expect(ev.symbolsSeen.has('audit')).toBe(true);
    expect(ev.exploredFiles.has('src/notes.ts')).toBe(false);
    expect(t.last()).toMatchObject({ tool: 'search_text', files: ['src/notes.ts'] });
  });
});

describe('Validation: a target_feature narrowed to what is done', () => {
  const BASKET = {
    'src/basket.ts': 'export class Basket {\n  private xs: string[] = [];\n  add(name: string): void {\n    this.xs.push(name);\n  }\n}\n',
    'src/report.ts': 'export function addRow(rows: string[], row: string): string[] {\n  return [...rows, row];\n}\n',
  };
  it('a target of the request\'s verb only (追加 "add", which gave Basket.add and addRow FACT 1.0) is refused, and no symbol is judged against it', async () => {
    const t = await setup({ ...SAMPLE, ...BASKET });
    const start = await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: { target_feature: { value: '追加', quote: '追加' } } });
    expect(start.query_frame).toMatchObject({ status: 'refused' });
    expect(JSON.stringify(start.query_frame.validation_errors)).toMatch(/names no feature/);
    expect(t.row().query_frame).toBeNull();
    for (const [value, quote] of [['add', '加える処理を追加'], ['加える処理を追加', '加える処理を追加']]) {
      expect((await t.refused('set_query_frame', { target_feature: { value, quote } })).code).toBe('validation_failed');
      expect(t.row().query_frame).toBeNull();
    }
    // the honest frame, then a validate naming the verb as target: not the frame's target
    await t.call('set_query_frame', FRAME);
    await explore(t.call);
    await t.call('get_symbols', { file: 'src/basket.ts' });
    await t.call('get_symbols', { file: 'src/report.ts' });
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: [...SAMPLE_UNDERSTANDING.symbols_identified, 'Basket.add', 'addRow'] });
    expect((await t.refused('validate_symbol_relevance', { target_feature: '追加', symbols: ['Basket.add', 'addRow'] })).code).toBe('target_mismatch');
    expect(t.row()).toMatchObject({ phase: 'VALIDATION', mapped_symbols: null });
  });
});

/** Rows of the NL→symbol cache. */
const cacheRows = (t: { project: Project }) => t.project.db.prepare('SELECT term, symbol, confirmations FROM nl_cache ORDER BY term, symbol').all() as { term: string; symbol: string; confirmations: number }[];

describe('Red team adv87: what earlier sessions confirmed vouches for no link, and a name the request writes teaches nothing of the target', () => {
  it('an acceptance only earlier sessions carried seeds no link; one the code carries does; a request-named acceptance outside the target teaches nothing', async () => {
    const t = await setup();
    const v = (t.sessions as unknown as { validation: { carriedByHistory(legs: unknown): boolean } }).validation;
    expect(v.carriedByHistory({ keyword: 0.13, history: 0.7 })).toBe(true);
    expect(v.carriedByHistory({ keyword: 0.45, history: 0.7 })).toBe(false);
    expect(v.carriedByHistory({ keyword: 0.13 })).toBe(false);
    expect(v.carriedByHistory({ keyword: 0.13, history: 0.7, graph: 0.32 })).toBe(false);
    const svc = t.sessions as unknown as { teaches(legs: unknown): boolean };
    expect(svc.teaches({ keyword: 0.13, request_named: 0.45 })).toBe(false);
    expect(svc.teaches({ keyword: 0.45, request_named: 0.45 })).toBe(true);
    expect(svc.teaches({ keyword: 0.1, rank: 3 })).toBe(true);
    // a plain word of the target that is the whole name (0.45) is no match to learn; the name written as code (0.7) is (red team adv88)
    expect(svc.teaches({ keyword: 0, named: 0.45 })).toBe(false);
    expect(svc.teaches({ keyword: 0.1, named: 0.7 })).toBe(true);
  });
});

describe('New attacks (round 2)', () => {
  it('a symbol the agent only listed in validate_symbol_relevance is not thereby seen (no laundering through a revert)', async () => {
    const t = await setup({ ...SAMPLE, 'src/admin.ts': 'export function wipeAll(): void {\n  globalThis.localStorage?.clear();\n}\n' });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    const e = await t.refused('validate_symbol_relevance', { target_feature: TARGET, symbols: ['Cart.total', 'wipeAll'] });
    expect(e.code).toBe('unseen_symbols');
    expect(e.message).toMatch(/wipeAll/);
    // nothing of it in the ledger as seen, the phase unchanged
    expect(t.ledger().some((x) => x.symbols.includes('wipeAll'))).toBe(false);
    expect(t.row().phase).toBe('VALIDATION');
    expect(t.sessions.evidence(t.sessions.require()).symbolsSeen.has('wipeAll')).toBe(false);
    // the server's own suggestions are shown to the agent: those count as seen; the agent's own list adds nothing
    const v = await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const last = t.last();
    expect(last.tool).toBe('validate_symbol_relevance');
    expect(new Set(last.symbols)).toEqual(new Set([...v.embedding_suggestions.map((x: SC) => x.symbol), ...v.cached_matches.map((x: SC) => x.symbol)]));
    // and a revert does not make wipeAll submittable
    await t.call('revert_to_exploration', { reason: 'retry' });
    const u = await t.refused('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: [...SAMPLE_UNDERSTANDING.symbols_identified, 'wipeAll'] });
    expect(JSON.stringify(u.extra.consistency_errors)).toMatch(/'wipeAll' never appeared/);
    // the honest confirm still works after a fresh validate
    expect((await t.call('submit_understanding', SAMPLE_UNDERSTANDING)).next_phase).toBe('VALIDATION');
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
  });

  it('an entry point that names a member the listed container does not have is refused', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    for (const ep of ['Cart.wipeEverything()', 'Cart#dropDatabase']) {
      const e = await t.refused('submit_understanding', { ...SAMPLE_UNDERSTANDING, entry_points: [ep] });
      expect(JSON.stringify(e.extra.consistency_errors), ep).toMatch(/entry_point/);
      expect(t.row()).toMatchObject({ phase: 'EXPLORATION', understanding: null });
    }
    // a real member of a listed container still counts (Cart.add, shown by Cart's outline)
    expect((await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, entry_points: ['Cart.add(cents)'] })).next_phase).toBe('VALIDATION');
  });

  it('end_session teaches the cache only the words validation judged: a mapped nl_term outside the target feature teaches nothing', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    // 消費税 (consumption tax) is a word of the request, but formatPrice was judged against カートの合計 only
    // カート (cart) lies inside the target, but formatPrice was judged against カートの合計, not against カート
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, mapped_symbols: [{ nl_term: '消費税', symbol: 'formatPrice' }, { nl_term: 'カート', symbol: 'formatPrice' }, { nl_term: 'カート', symbol: 'Cart' }] });
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
    await t.call('end_session', { outcome: 'success' });
    const rows = cacheRows(t);
    expect(rows.filter((r) => r.term === '消費税'), 'a term validation never judged').toEqual([]);
    expect(rows.filter((r) => r.term === 'カート' && r.symbol === 'formatPrice'), 'a part of the target the symbol does not answer').toEqual([]);
    // what validation did judge is learned: the target's quote for each symbol accepted on its own words, and a mapped term inside it
    expect(rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ term: TARGET, symbol: 'Cart.total' }), expect.objectContaining({ term: 'カート', symbol: 'Cart' }),
    ]));
    // formatPrice was accepted through a link (Cart.total calls it): it teaches nothing (red team adv28)
    expect(rows.filter((r) => r.symbol === 'formatPrice')).toEqual([]);
  });
});

describe('New attacks (round 2): a second target', () => {
  it('symbols accepted against one target feature do not teach the cache another one the frame was changed to', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
    // back, and the frame's target changed to another quote of the request, which nothing in the code is about
    await t.call('revert_to_exploration', { reason: 're-frame' });
    expect((await t.call('set_query_frame', { target_feature: { value: '消費税', quote: '消費税' } })).success).toBe(true);
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, mapped_symbols: [{ nl_term: '消費税', symbol: 'Cart.total' }] });
    await t.call('validate_symbol_relevance', { target_feature: '消費税', symbols: SAMPLE_SYMBOLS });
    const c = await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM });
    const stored = JSON.parse(t.row().mapped_symbols!) as SC[];
    // each standing symbol keeps the target it was judged against
    for (const a of stored) expect(a.target, a.symbol).toBe(TARGET);
    expect(c.next_phase, 'the earlier acceptances stand (a return to EXPLORATION keeps its facts)').toBe('READY');
    expect((await t.call('end_session', { outcome: 'success' })).cached_matches_learned).toBeGreaterThan(0);
    expect(cacheRows(t).filter((r) => r.term === '消費税'), 'no symbol was judged against 消費税').toEqual([]);
    expect(cacheRows(t).filter((r) => r.term === TARGET).map((r) => r.symbol).sort()).toEqual(['Cart', 'Cart.total']); // (formatPrice: through a link, teaches nothing)
  });
});

describe('New attacks (round 2): a hypothesis that says nothing', () => {
  it('a hypothesis naming nothing of the request or of the code seen is refused at submit_semantic; nothing advances', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    expect((await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: ['Cart', 'Cart.total'] })).next_phase).toBe('SEMANTIC');
    await t.call('semantic_search', { query: '価格の整形' });
    const semantic = (text: string) => ({ hypotheses: [{ text, confidence: 'high' }], semantic_reason: 'no_definition_found', search_queries: ['価格の整形'] });
    // "the code works" was verified by search_text('code') and led to VALIDATION
    for (const h of ['the code works', 'it is handled somewhere in the system', 'コードは正しく動く']) {
      const e = await t.refused('submit_semantic', semantic(h));
      expect(e.code, h).toBe('semantic_refused');
      expect(e.message, h).toMatch(/names nothing/);
      expect(t.row().phase).toBe('SEMANTIC');
      expect(t.sessions.require().actor.getSnapshot().context.hypotheses, h).toEqual([]);
    }
    // honest hypotheses name the code or the request, in either language
    for (const h of ['Cart.total formats the cart total with formatPrice']) {
      expect((await t.call('submit_semantic', semantic(h))).next_phase, h).toBe('VERIFICATION');
    }
  });

  it('honest hypotheses in Japanese, or naming a request word only, pass', async () => {
    const t = await setup();
    for (const h of ['価格の整形は formatPrice が行う', 'the consumption tax belongs beside the cart total', '消費税の計算はカートの合計のあとに行う']) {
      await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
      await explore(t.call);
      await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: ['Cart', 'Cart.total'] });
      await t.call('semantic_search', { query: '価格の整形' });
      expect((await t.call('submit_semantic', { hypotheses: [{ text: h, confidence: 'medium' }], semantic_reason: 'no_definition_found', search_queries: ['価格の整形'] })).next_phase, h).toBe('VERIFICATION');
      await t.call('abort_session', { reason: 'next' });
    }
  });
});

describe('New attacks (round 2): the intent', () => {
  it('IMPLEMENT or MODIFY for a request that only asks to be told something is refused; no session is created', async () => {
    const t = await setup();
    for (const q of ['Explain how the cart total is computed', 'カートの合計はどう計算されていますか？', 'どういう順番で実行されるのか調べてください', '为什么购物车总价是这样计算的？']) {
      for (const intent of ['IMPLEMENT', 'MODIFY']) {
        const before = t.sessions.store.list(50).length;
        const e = await t.refused('start_session', { intent, query: q });
        expect(e.code, `${intent} ${q}`).toBe('intent_mismatch');
        expect(t.sessions.store.active(), q).toBeUndefined();
        expect(t.sessions.store.list(50), q).toHaveLength(before);
      }
      // the honest intent for it starts
      expect((await t.call('start_session', { intent: 'INVESTIGATE', query: q })).phase).toBe('EXPLORATION');
      await t.call('abort_session', { reason: 'next' });
    }
    // questions that ask for a change, or report a problem, are change requests
    for (const q of ['How can we make the cart total show two decimals?', 'Why does the total show NaN?', 'Why is the cart total computed twice?', REQUEST, 'fix it']) {
      expect((await t.call('start_session', { intent: 'MODIFY', query: q })).phase, q).toBe('EXPLORATION');
      await t.call('abort_session', { reason: 'next' });
    }
  });
});

describe('New attacks (round 2): code_evidence over several lines', () => {
  it('a multi-line fragment that names the symbol only in a comment or a string is not about it', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    // the agent has read both files: what it cites was shown to it
    readWhole(t.sessions, 'src/cart.ts');
    readWhole(t.sessions, 'src/util/format.ts');
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const honest = Object.fromEntries(SAMPLE_CONFIRM.map((m) => [m.symbol, m]));
    // src/cart.ts lines 11-12: formatPrice in a comment, then in a string (round 1 refused each line alone)
    const cheat = { symbol: 'formatPrice', approved: true, code_evidence: '`// formatPrice in a comment is not a reference\n    const label = "formatPrice";`' };
    const c = await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_SYMBOLS.map((x) => (x === 'formatPrice' ? cheat : honest[x]!)) });
    expect(c.rejected.map((r: SC) => r.symbol)).toEqual(['formatPrice']);
    expect(c.rejected[0].guidance.reason).toMatch(/is neither inside formatPrice's definition nor a use of it/);
    expect(c.next_phase).toBe('EXPLORATION');
    expect((JSON.parse(t.row().mapped_symbols!) as SC[]).map((a) => a.symbol)).not.toContain('formatPrice');
    // a multi-line fragment of its definition, or of code that really uses it, still counts
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, mapped_symbols: [{ nl_term: TARGET, symbol: 'Cart.total' }] });
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: ['formatPrice'] });
    const ok = await t.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'formatPrice', approved: true, code_evidence: '`export function formatPrice(cents: number): string {\n  return (cents / 100).toFixed(2);`' }] });
    expect(ok.next_phase).toBe('READY');
    expect(ok.accepted[0]).toMatchObject({ symbol: 'formatPrice', evidence: 'src/util/format.ts:2' });
  });
});

describe('New attacks (round 2): an outline that shows nothing', () => {
  it('get_symbols or analyze_structure of a file with no declarations (package.json, a script) does not explore it', async () => {
    const t = await setup({ ...SAMPLE, 'package.json': '{"name":"x","scripts":{"test":"vitest"}}\n', 'scripts/run.sh': 'echo hi\n' });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    expect((await t.call('get_symbols', { file: 'package.json' })).items).toEqual([]);
    expect((await t.call('analyze_structure', { path: 'scripts/run.sh' })).declarations ?? []).toEqual([]);
    const ev = t.sessions.evidence(t.sessions.require());
    expect(ev.exploredFiles.has('package.json')).toBe(false);
    expect(ev.exploredFiles.has('scripts/run.sh')).toBe(false);
    const e = await t.refused('submit_understanding', { ...SAMPLE_UNDERSTANDING, files_analyzed: ['src/cart.ts', 'package.json'] });
    expect(JSON.stringify(e.extra.consistency_errors)).toMatch(/package\.json' was not explored/);
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
    for (const f of ['package.json', 'scripts/run.sh']) {
      expect(t.guardSays(f), f).toMatch(/not explored/);
      expect(await t.call('check_write_target', { file_path: f }), f).toMatchObject({ allowed: false });
    }
    // an outline that shows declarations explores its file (src/cart.ts by explore(), and format.ts here)
    await t.call('get_symbols', { file: 'src/util/format.ts' });
    expect(t.guardSays('src/util/format.ts')).toBeUndefined();
  });
});

describe('Red team adv8: code_evidence from a line the session was never shown', () => {
  it('an outline explores cart.ts but shows no body: a line inside total() is refused until the code is shown (find_definitions include_body)', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call); // outlines of format.ts and cart.ts: signature lines only
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    // cart.ts:13 is the body of total() (`return formatPrice(…)`): never shown, however well it fits
    const unseen = SAMPLE_CONFIRM.map((m) => (m.symbol === 'Cart.total' ? { ...m, code_evidence: 'src/cart.ts:13' } : m));
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: unseen });
    const refused = r.rejected.find((x: { symbol: string }) => x.symbol === 'Cart.total');
    expect(refused?.guidance.reason).toMatch(/line 13 of src\/cart\.ts was never shown in this session; lines shown: 4-6, 10\)/);
    expect(r.accepted.map((x: { symbol: string }) => x.symbol)).not.toContain('Cart.total');
    // shown now: the body of total(), and the file's code with it
    const defs = await t.call('find_definitions', { name: 'Cart.total', include_body: true });
    expect(defs.items[0]).toMatchObject({ line: 10, end_line: 14, body: expect.stringContaining('return formatPrice(') });
    expect(t.last().lines).toEqual({ 'src/cart.ts': [[10, 14]] });
    // a comment line that was shown is refused as no code, not as "never shown" (red team adv12)
    const comment = SAMPLE_CONFIRM.map((m) => (m.symbol === 'Cart.total' ? { ...m, code_evidence: 'src/cart.ts:11' } : m));
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }] });
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const c = await t.call('confirm_symbol_relevance', { mapped_symbols: comment });
    const why = c.rejected.find((x: { symbol: string }) => x.symbol === 'Cart.total')?.guidance.reason;
    expect(why).toMatch(/line 11 of src\/cart\.ts holds no code/);
  });

  it('a fragment copied from lines never shown is refused as well', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const frag = SAMPLE_CONFIRM.map((m) => (m.symbol === 'Cart.total' ? { ...m, code_evidence: '`return formatPrice(this.items.reduce((a, b) => a + b, 0))`' } : m));
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: frag });
    expect(r.rejected.map((x: { symbol: string }) => x.symbol)).toContain('Cart.total');
    expect(r.accepted.map((x: { symbol: string }) => x.symbol)).not.toContain('Cart.total');
  });

  it('the body of a local (a closure inside a function) is citable but does not explore its file, as a Read of it would not (red team adv9)', async () => {
    const t = await setup({ ...SAMPLE, 'src/big.ts': ['export function outer(n: number): number {', '  const inner = (x: number) => {', '    return x + 1;', '  };', '  return inner(n);', '}', 'export function other(): number {', '  return 2;', '}', ''].join('\n') });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    const defs = await t.call('find_definitions', { name: 'inner', include_body: true });
    expect(defs.items[0]).toMatchObject({ local: true, body: expect.stringContaining('return x + 1;') });
    expect(t.last()).toMatchObject({ files: [], lines: { 'src/big.ts': [[2, 4]] } });
    // a top-level function's whole body does explore it
    await t.call('find_definitions', { name: 'other', include_body: true });
    expect(t.last().files).toEqual(['src/big.ts']);
  });

  it('with the body shown by find_definitions, the line is taken and the session reaches READY', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await t.call('find_definitions', { name: 'Cart.total', include_body: true });
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const cited = SAMPLE_CONFIRM.map((m) => (m.symbol === 'Cart.total' ? { ...m, code_evidence: 'src/cart.ts:13' } : m));
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: cited });
    expect(r.accepted.map((x: { symbol: string }) => x.symbol)).toContain('Cart.total');
    expect(r.next_phase).toBe('READY');
  });
});

describe('Red team adv8: a plain name every driver shares', () => {
  const driverOf = (body: string) => `export interface Driver { getKeys(): string[] }\nexport function driver(): Driver {\n  ${body}\n  return {\n    getKeys() {\n      return keys();\n    },\n  };\n}\n`;
  const FILES = {
    'src/drivers/memory.ts': driverOf('const data = new Map<string, string>(); const keys = () => [...data.keys()];'),
    'src/drivers/cloudflare-kv-http.ts': driverOf('const keys = () => fetchKeys();'),
    'src/drivers/utils.ts': 'export function fetchKeys(): string[] {\n  return [];\n}\n',
  };

  it('the target\'s other words say which driver it means: the one in memory.ts, not cloudflare-kv-http.ts', async () => {
    const { targetMeansAnother } = await import('../src/session/which-definition.js');
    const t = await setup(FILES);
    const target = "memory driver's getKeys";
    expect(targetMeansAnother(t.project.db, target, 'driver', 'src/drivers/cloudflare-kv-http.ts', null)).toBe(true);
    expect(targetMeansAnother(t.project.db, target, 'driver', 'src/drivers/memory.ts', null)).toBe(false);
    // words that no definition's place says tell none apart: each is still named
    expect(targetMeansAnother(t.project.db, "the driver's getKeys", 'driver', 'src/drivers/cloudflare-kv-http.ts', null)).toBe(false);
    // the name is unique: nothing to tell apart
    expect(targetMeansAnother(t.project.db, 'memory fetchKeys', 'fetchKeys', 'src/drivers/utils.ts', null)).toBe(false);
  });

  const confirmDriver = async (evidence: string, value = "memory driver's getKeys") => {
    const t = await setup(FILES);
    const request = "The memory driver's getKeys returns keys in insertion order; make it return them sorted.";
    await t.call('start_session', { intent: 'INVESTIGATE', query: request, query_frame: { target_feature: { value, quote: "The memory driver's getKeys returns keys in insertion order" } } });
    for (const f of Object.keys(FILES)) {
      await t.call('get_symbols', { file: f });
      readWhole(t.sessions, f);
    }
    await t.call('find_definitions', { name: 'driver' });
    await t.call('submit_understanding', { symbols_identified: ['driver', 'fetchKeys'], entry_points: ['driver()'], existing_patterns: ['drivers return an object of methods, like driver in src/drivers/memory.ts'], files_analyzed: ['src/drivers/memory.ts', 'src/drivers/cloudflare-kv-http.ts'] });
    await t.call('validate_symbol_relevance', { target_feature: value, symbols: ['driver'] });
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'driver', approved: true, code_evidence: evidence }] });
    return { r, judged: [...r.accepted, ...r.rejected].find((x: { symbol: string }) => x.symbol === 'driver') };
  };

  it('confirm: the cloudflare driver gets no credit from the word "driver", nor from the getKeys the target means (memory.ts\'s); the memory one does', async () => {
    const other = await confirmDriver('src/drivers/cloudflare-kv-http.ts:2');
    expect(other.judged.legs?.named).toBeUndefined();
    expect(other.r.accepted.map((x: { symbol: string }) => x.symbol)).not.toContain('driver');
    const memory = await confirmDriver('src/drivers/memory.ts:2');
    expect(memory.judged).toMatchObject({ tier: 'ACCEPTED_HIGH_RISK', legs: { named: 0.45 } });
  });

  it('a value that leaves out the qualifier its quote has ("driver\'s getKeys") still means the memory driver (red team adv9)', async () => {
    const other = await confirmDriver('src/drivers/cloudflare-kv-http.ts:2', "driver's getKeys");
    // no credit from the name (it was FACT at 1.0 for redis.ts's getKeys); what its words share with the narrower value is all it has
    expect(other.judged.legs?.named).toBeUndefined();
    expect(other.judged.tier).not.toBe('FACT');
  });
});
