/**
 * False claims, round 3 (issue #10): the loose ends of round 2 and new attacks. Each test drives an
 * honest session in-process to a gate, makes the false claim there, and checks that it is refused
 * AND what the database holds (phase, frame, ledger, the write guard's verdict, the cache); each
 * ends with the honest claim still passing.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateFrame } from '../src/session/queryframe.js';
import { matchEvidence } from '../src/session/semantic.js';
import { SessionStore } from '../src/session/store.js';
import { translateCjk } from '../src/session/validation.js';
import { explore, setup, toReady } from './helpers/claims.js';
import { SAMPLE } from './helpers/project.js';
import { Transcript } from './helpers/transcript.js';
import { readWhole, SAMPLE_CONFIRM, SAMPLE_SYMBOLS, SAMPLE_UNDERSTANDING } from './helpers/session.js';

const REQUEST = 'カートの合計に消費税を加える処理を追加して';
const TARGET = 'カートの合計';
const FRAME = { target_feature: { value: TARGET, quote: TARGET }, desired_action: { value: '消費税を加える', quote: '消費税を加える' } };

type SC = Record<string, any>;


describe('Loose end 1: a file seen only in a find_references use row', () => {
  it('is named, not explored: neither files_analyzed nor editable in READY, for the session and the guard alike', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call); // find_references('Cart') shows one line of src/main.ts: `const cart = new Cart().add(100);`
    const refs = t.ledger().find((e) => e.tool === 'find_references')!;
    expect(refs.files).toEqual([]); // the definition's row shows its signature line: named (round 4)
    expect(refs.named!.sort()).toEqual(['src/cart.ts', 'src/main.ts']); // the definition's file and the use's
    expect(refs.symbols).toContain('checkout'); // the declaration the use sits in was shown
    const e = await t.refused('submit_understanding', { ...SAMPLE_UNDERSTANDING, files_analyzed: ['src/cart.ts', 'src/main.ts'] });
    expect(JSON.stringify(e.extra.consistency_errors)).toMatch(/main\.ts' was seen only in rows that show one line/);
    expect(t.row()).toMatchObject({ phase: 'EXPLORATION', understanding: null });
    await toReady(t, TARGET);
    expect(await t.call('check_write_target', { file_path: 'src/main.ts' })).toMatchObject({ allowed: false, error: expect.stringContaining('not explored') });
    expect(t.guardSays('src/main.ts')).toMatch(/a reference row shows one line/);
    expect(t.sessions.status()).toMatchObject({ named_files: ['src/main.ts'] });
    // a verification may still cite the file the call returned
    expect(matchEvidence({ tool: 'find_references', target: 'Cart', files: ['src/main.ts'] }, t.ledger())).toMatchObject({ ok: true });
    // the honest flow: find_references, then a Read the hook recorded — now it is explored
    t.sessions.store.record(t.row().id, { tool: 'hook:Read', args: { file_path: 'src/main.ts' }, phase: 'READY', outcome: 'ok', files: ['src/main.ts'], symbols: [], summary: 'read by the agent' });
    expect(t.guardSays('src/main.ts')).toBeUndefined();
    expect(await t.call('check_write_target', { file_path: 'src/main.ts' })).toMatchObject({ allowed: true });
  });

  it('a ledger made before the `named` column gets it, keeps its seal and its entries', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await t.call('get_symbols', { file: 'src/cart.ts' });
    // the database as an earlier version left it: no `named` column, sealed over the rows it had
    t.project.db.exec('ALTER TABLE ledger DROP COLUMN named');
    t.sessions.store.seal.write();
    const db = new Database(path.join(t.root, '.code-intel', 'index.db'));
    try {
      const store = new SessionStore(db);
      expect(store.problem()).toBeUndefined();
      expect((db.prepare('PRAGMA table_info(ledger)').all() as { name: string }[]).map((c) => c.name)).toContain('named');
      expect(store.ledger(t.row().id).find((e) => e.tool === 'get_symbols')).toMatchObject({ files: ['src/cart.ts'], named: [] });
    } finally {
      db.close();
    }
  });
});

describe('Loose end 2: English renderings of a negated Japanese/Chinese quote', () => {
  const frame = (request: string, value: string, quote: string, slot = 'observed_issue') => validateFrame(request, { [slot]: { value, quote } }, translateCjk);
  const JA = 'ログインに失敗したときにエラーが表示されない';
  const ZH = '登录失败时不显示错误';
  it('honest renderings pass: "error hidden", "the error is not displayed / shown", "login fails"', () => {
    for (const [req, value, quote] of [
      [JA, 'error hidden', 'エラーが表示されない'], [JA, 'the error is not displayed', 'エラーが表示されない'], [JA, 'the error is not shown', 'エラーが表示されない'],
      [ZH, 'error hidden', '不显示错误'], [ZH, 'error not shown', '不显示错误'],
      ['The error is not shown when login fails', 'error hidden', 'The error is not shown'],
      ['ログインできない', 'login fails', 'ログインできない'], ['ボタンが有効にならない', 'button disabled', 'ボタンが有効にならない'],
    ] as const) expect(frame(req, value, quote).errors, `${value} for ${quote}`).toEqual([]);
  });
  it('the negation is still not dropped, in one language or across two (an error word in both is no stated failure)', () => {
    for (const [req, value, quote] of [
      [JA, 'the error is displayed', 'エラーが表示されない'], [JA, 'error shown', 'エラーが表示されない'], [JA, 'エラーが表示される', 'エラーが表示されない'],
      [ZH, 'error shown', '不显示错误'], [ZH, 'error is displayed', '不显示错误'],
      ['The error is not shown when login fails', 'error shown', 'The error is not shown'],
      ['ボタンが有効にならない', 'button is enabled', 'ボタンが有効にならない'],
    ] as const) expect(frame(req, value, quote).errors, `${value} for ${quote}`).toEqual([expect.objectContaining({ error: expect.stringMatching(/drops the negation/) })]);
  });
  it('"not adding" is no removal: the opposite of a negated action is refused unless one side is the other\'s negation', () => {
    const req = 'カートの合計に消費税を加えないでください';
    for (const value of ['remove consumption tax', 'consumption tax removed'])
      expect(frame(req, value, '消費税を加えない', 'desired_action').errors, value).toEqual([expect.objectContaining({ error: expect.stringMatching(/not doing a thing is not doing its opposite/) })]);
    expect(frame('Do not add tax to the total', 'remove the tax from the total', 'Do not add tax to the total', 'desired_action').errors).not.toEqual([]);
    // the round-2 attacks stay refused
    expect(frame(REQUEST, 'remove consumption tax', '消費税を加える', 'desired_action').errors).toEqual([expect.objectContaining({ error: expect.stringMatching(/opposite/) })]);
    expect(frame(req, 'add consumption tax', '消費税を加えない', 'desired_action').errors).toEqual([expect.objectContaining({ error: expect.stringMatching(/drops the negation/) })]);
  });
  it('over the session: the honest value is stored, the dropped negation stores nothing', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'MODIFY', query: 'カートの合計でエラーが表示されない' });
    const e = await t.refused('set_query_frame', { target_feature: { value: TARGET, quote: TARGET }, observed_issue: { value: 'the error is displayed', quote: 'エラーが表示されない' } });
    expect(e.code).toBe('validation_failed');
    // the slot that passed is set (tr64: dropping it sent the agent on with it "missing"); the refused one is not
    expect(e.extra).toMatchObject({ set_slots: ['target_feature'] });
    expect(JSON.parse(t.row().query_frame!)).toMatchObject({ target_feature: TARGET, validated_slots: ['target_feature'] });
    expect(JSON.parse(t.row().query_frame!).observed_issue).toBeUndefined();
    expect(t.last()).toMatchObject({ tool: 'set_query_frame', outcome: 'error' });
    const ok = await t.call('set_query_frame', { target_feature: { value: TARGET, quote: TARGET }, observed_issue: { value: 'error hidden', quote: 'エラーが表示されない' } });
    expect(ok.success).toBe(true);
    expect(JSON.parse(t.row().query_frame!)).toMatchObject({ observed_issue: 'error hidden' });
  });
});

describe('Loose end 3: which recorded prompt is the request', () => {
  /** moves the latest recorded prompt back in time (as if typed long ago), sealed as the store would */
  const age = (t: Awaited<ReturnType<typeof setup>>, ms: number) => {
    t.project.db.prepare('UPDATE prompts SET at = at - ? WHERE id = (SELECT MAX(id) FROM prompts)').run(ms);
    t.sessions.store.seal.write();
  };
  it('a prompt over an hour old is still the request: the agent\'s own query does not replace it', async () => {
    const t = await setup();
    t.sessions.store.recordPrompt(`/code ${REQUEST}`, 'c1');
    age(t, 2 * 60 * 60 * 1000);
    const e = await t.refused('start_session', { intent: 'IMPLEMENT', query: 'delete the admin check' });
    expect(e.code).toBe('query_mismatch');
    expect(t.sessions.store.active()).toBeUndefined();
    expect(t.sessions.store.list()).toEqual([]);
    expect(await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST })).toMatchObject({ request_source: 'user_prompt_hook' });
    expect(t.row().query).toBe(REQUEST);
  });
  it('a prompt the transcript does not show yet is not replaced by an earlier one; a forged one never counts', async () => {
    const t = await setup();
    t.sessions.store.recordPrompt('/code カートを削除する処理を追加して', 'c1'); // an earlier request
    // the latest, recorded by the hook while the client's transcript does not show it yet
    const tr = new Transcript();
    t.sessions.store.recordPrompt(`/code ${REQUEST}`, 'c1', tr.path, () => undefined);
    expect(t.sessions.store.currentPrompt()).toMatchObject({ pending: true });
    // the earlier request does not stand in for it (it did: only found prompts were looked at)
    const e = await t.refused('start_session', { intent: 'IMPLEMENT', query: 'カートを削除する処理を追加して' });
    expect(e.code).toBe('request_pending');
    expect(t.sessions.store.list()).toEqual([]);
    // once the transcript shows it, it is the request
    tr.user(`/code ${REQUEST}`);
    expect((await t.refused('start_session', { intent: 'IMPLEMENT', query: 'カートを削除する処理を追加して' })).code).toBe('query_mismatch');
    expect(await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST })).toMatchObject({ success: true, request_source: 'user_prompt_hook' });
    await t.call('abort_session', { reason: 'next' });
    // a prompt never found (forged by running the hook by hand) never counts: the latest real one stands
    t.sessions.store.recordPrompt('/code delete everything', 'c1', tr.path, () => undefined);
    t.project.db.prepare('UPDATE prompts SET verified = -1 WHERE verified = 0').run();
    t.sessions.store.seal.write();
    expect(t.sessions.store.currentPrompt()).toMatchObject({ prompt: REQUEST, pending: false });
  });
  it('a session started before the latest /code request serves an earlier one: its steps are refused, writes too, until it is ended', async () => {
    const t = await setup();
    t.sessions.store.recordPrompt(`/code ${REQUEST}`, 'c1');
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await toReady(t, TARGET);
    expect(t.guardSays('src/cart.ts')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 5));
    t.sessions.store.recordPrompt('/code カートを削除する処理を追加して', 'c1'); // a new request in a new turn
    // the old session's frame cannot be re-grounded, its tools do not run, its READY lets nothing through
    for (const [tool, args] of [['set_query_frame', { target_feature: { value: 'カート', quote: 'カート' } }], ['find_definitions', { name: 'Cart' }], ['check_write_target', { file_path: 'src/cart.ts' }]] as const) {
      const e = await t.refused(tool, args as Record<string, unknown>);
      expect(e.code, tool).toBe('session_stale');
    }
    expect(t.row()).toMatchObject({ status: 'active', phase: 'READY' });
    expect(JSON.parse(t.row().query_frame!)).toMatchObject({ target_feature: TARGET });
    expect(t.last()).toMatchObject({ outcome: 'blocked', summary: expect.stringContaining('latest /code request') });
    expect(t.guardSays('src/cart.ts')).toMatch(/latest \/code request/);
    // ending it is allowed; the new request gets its own session
    expect(await t.call('abort_session', { reason: 'a new request' })).toMatchObject({ success: true });
    expect(await t.call('start_session', { intent: 'IMPLEMENT', query: 'カートを削除する処理を追加して' })).toMatchObject({ success: true, request_source: 'user_prompt_hook' });
  });
});

describe('code_evidence that quotes the symbol and cites another line (agent trial tr141)', () => {
  it('is judged by the place that is about the symbol: its quoted code', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    readWhole(t.sessions, 'src/util/format.ts');
    readWhole(t.sessions, 'src/cart.ts');
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM.map((m) => (m.symbol === 'Cart.total' ? { ...m, code_evidence: '`this.items.reduce((a, b) => a + b, 0)`, whose sum is formatted at src/util/format.ts:3' } : m)) });
    expect(r.rejected ?? []).toEqual([]);
    expect(r.accepted.find((a: SC) => a.symbol === 'Cart.total')?.evidence).toBe('src/cart.ts:13');
  });
});

describe('New attacks (round 3): code_evidence at a use of another thing of the same name', () => {
  it('a parameter named like the symbol (checkout(formatPrice) in main.ts) is not a use of it: rejected, nothing stored, READY not reached', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await t.call('get_symbols', { file: 'src/main.ts' });
    readWhole(t.sessions, 'src/main.ts'); // the agent read it: what it cites was shown to it
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    // main.ts:5 `return formatPrice(1) + cart.total();` — formatPrice is checkout's parameter there (it was accepted, 0.45 → READY)
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM.map((m) => (m.symbol === 'formatPrice' ? { ...m, code_evidence: 'src/main.ts:5' } : m)) });
    expect(r.rejected).toEqual([expect.objectContaining({ symbol: 'formatPrice', guidance: expect.objectContaining({ reason: expect.stringContaining("is neither inside formatPrice's definition nor a use of it") }) })]);
    expect(r.next_phase).toBe('EXPLORATION');
    expect(t.row().phase).toBe('EXPLORATION');
    expect(JSON.parse(t.row().mapped_symbols!).map((a: SC) => a.symbol)).not.toContain('formatPrice');
    expect(t.guardSays('src/cart.ts')).toMatch(/EXPLORATION/);
    // the same line is a use of Cart.total (cart.total(): Cart is imported there): still evidence for it
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, mapped_symbols: [{ nl_term: TARGET, symbol: 'Cart.total' }] });
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols: SAMPLE_SYMBOLS });
    const ok = await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM.map((m) => (m.symbol === 'Cart.total' ? { ...m, code_evidence: 'src/main.ts:5' } : m)) });
    expect(ok.next_phase).toBe('READY');
  });
});

describe('New attacks (round 3): an approved new file that reads as another', () => {
  it('invisible, direction-changing, look-alike, decomposed or case-twin names are refused; `..` and symlinked folders are judged where they land', async () => {
    const t = await setup({ ...SAMPLE, 'lib/secret.ts': 'export const k = 1;\n' });
    const fs = await import('node:fs');
    fs.symlinkSync('../lib', path.join(t.root, 'src', 'lnk'));
    fs.symlinkSync('.', path.join(t.root, 'src', 'here'));
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await toReady(t, TARGET);
    const write = (file_path: string) => t.call('check_write_target', { file_path, allow_new_files: true });
    for (const [name, why] of [
      ['src/tax\u200b.ts', /invisible/], ['src/tax\u202Est.ts', /direction-changing|invisible/], ['src/c\u0430rt2.ts', /Cyrillic or Greek/],
      ['src/cafe\u0301.ts', /NFC/], ['src/Cart.ts', /differs only in case from 'src\/cart\.ts'/], ['SRC/tax.ts', /differs only in case from 'src'/],
      ['src/../lib/tax.ts', /not beside code/], ['src/lnk/tax.ts', /not beside code/],
    ] as const) {
      const r = await write(name);
      expect(r, name).toMatchObject({ allowed: false, error: expect.stringMatching(why) });
      expect(t.last(), name).toMatchObject({ tool: 'check_write_target', outcome: 'error' });
      expect(t.guardSays(name.normalize('NFC').replace('src/../', '').replace('src/lnk/', 'lib/')), name).toMatch(/not explored/);
    }
    // an honest new file passes, and the guard lets through the file that was judged, however it was spelled
    expect(await write('src/tax.ts')).toMatchObject({ allowed: true, new_file: true });
    expect(await write('src/here/rates.ts')).toMatchObject({ allowed: true, new_file: true, file: 'src/rates.ts' });
    expect(t.last().args).toMatchObject({ file_path: 'src/here/rates.ts', judged_file: 'src/rates.ts' });
    expect(t.guardSays('src/rates.ts')).toBeUndefined();
    expect(t.guardSays('src/tax.ts')).toBeUndefined();
  });
});

describe('New attacks (round 3): the cache taught through an honest READY session with a padded target', () => {
  const ADMIN = 'export class AdminService {\n  resetPassword(user: string): void {\n    console.log(user);\n  }\n}\n';
  it('a part of the padded term does not bring back what was judged against the whole', async () => {
    const t = await setup({ ...SAMPLE, 'src/admin.ts': ADMIN });
    const REQ = 'Add consumption tax to the cart total and reset the admin password';
    const PAD = 'cart total and reset the admin password';
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQ, query_frame: { target_feature: { value: PAD, quote: PAD } } });
    await explore(t.call);
    await t.call('submit_understanding', SAMPLE_UNDERSTANDING);
    await t.call('validate_symbol_relevance', { target_feature: PAD, symbols: SAMPLE_SYMBOLS });
    expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
    // (Cart.total stood on the plain word 'total' of the padded target, its name: no match to learn — red team adv88)
    expect((await t.call('end_session', { outcome: 'success' })).cached_matches_learned).toBe(0);
    t.sessions.engine.cache.learn('earlier', [{ term: PAD, symbol: 'Cart.total', file: 'src/cart.ts' }], 'an earlier request');
    // the whole term, or a target stating all of it, still finds what it taught
    expect(t.sessions.engine.cache.match(PAD).map((e) => e.symbol)).toContain('Cart.total');
    expect(t.sessions.engine.cache.match(`${PAD} now`).map((e) => e.symbol)).toContain('Cart.total');
    // the admin half alone matched Cart, Cart.total and formatPrice at 0.6 (score 0.42 in cached_matches and the history leg)
    expect(t.sessions.engine.cache.match('reset the admin password')).toEqual([]);
    await t.call('start_session', { intent: 'MODIFY', query: 'Reset the admin password when the user asks', query_frame: { target_feature: { value: 'reset the admin password', quote: 'Reset the admin password' } } });
    await explore(t.call);
    await t.call('get_symbols', { file: 'src/admin.ts' });
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: ['AdminService', 'AdminService.resetPassword', 'Cart'], entry_points: ['AdminService.resetPassword()'], files_analyzed: ['src/admin.ts', 'src/cart.ts'], existing_patterns: ['a service class like AdminService'], mapped_symbols: [{ nl_term: 'admin password', symbol: 'AdminService.resetPassword' }] });
    const v = await t.call('validate_symbol_relevance', { target_feature: 'reset the admin password', symbols: ['AdminService.resetPassword'] });
    expect(v.cached_matches).toEqual([]);
  });
});

describe('New attacks (round 3): verification evidence from another symbol of the same name', () => {
  it('find_definitions(total) citing report.ts (its own total) does not verify a hypothesis about Cart.total; cart.ts does', async () => {
    const t = await setup({ ...SAMPLE, 'src/report.ts': 'export function total(rows: number[]): number {\n  return rows.length;\n}\n' });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    expect((await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: ['Cart', 'Cart.total'] })).next_phase).toBe('SEMANTIC');
    await t.call('semantic_search', { query: '価格の整形' });
    const H = 'Cart.total formats the cart total with formatPrice';
    expect((await t.call('submit_semantic', { hypotheses: [{ text: H, confidence: 'medium' }], semantic_reason: 'no_definition_found', search_queries: ['価格の整形'] })).next_phase).toBe('VERIFICATION');
    expect((await t.call('find_definitions', { name: 'total' })).items.map((x: SC) => x.file).sort()).toEqual(['src/cart.ts', 'src/report.ts']);
    const verify = (files: string[]) => ({ verified: [{ hypothesis: H, status: 'confirmed', evidence: { tool: 'find_definitions', target: 'total', result: 'it formats', files } }] });
    const e = await t.refused('submit_verification', verify(['src/report.ts']));
    expect(e.code).toBe('verification_refused');
    expect(e.message).toMatch(/report\.ts holds another 'total', not Cart\.total/);
    expect(t.row().phase).toBe('VERIFICATION');
    expect(t.last()).toMatchObject({ tool: 'submit_verification', outcome: 'error' });
    expect(t.sessions.status().pending_hypotheses).toEqual([expect.objectContaining({ text: H })]);
    // accepted; it shows nothing the understanding did not name already (Cart.total), so SEMANTIC again (red team adv20)
    expect(await t.call('submit_verification', verify(['src/cart.ts']))).toMatchObject({ confirmed: 1, next_phase: 'SEMANTIC' });
  });
});

describe('New attacks (round 3): a verified hypothesis as a pass for any thin understanding', () => {
  it('after one verified pass, an understanding that drops its entry points and patterns goes through SEMANTIC; the same shortfall does not', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    const thin = { ...SAMPLE_UNDERSTANDING, symbols_identified: ['Cart', 'Cart.total'] };
    expect((await t.call('submit_understanding', thin)).next_phase).toBe('SEMANTIC');
    await t.call('semantic_search', { query: '価格の整形' });
    const H = 'Cart.total formats the cart total with formatPrice';
    await t.call('submit_semantic', { hypotheses: [{ text: H, confidence: 'medium' }], semantic_reason: 'no_definition_found', search_queries: ['価格の整形'] });
    await t.call('find_definitions', { name: 'formatPrice' });
    expect((await t.call('submit_verification', { verified: [{ hypothesis: H, status: 'confirmed', evidence: { tool: 'find_definitions', target: 'formatPrice', result: 'defined there', files: ['src/util/format.ts'] } }] })).next_phase).toBe('VALIDATION');
    await t.call('revert_to_exploration', { reason: 'look again' });
    // no entry point, no pattern, one file: what the hypothesis answered was two symbols of three (it went straight to VALIDATION)
    const r = await t.call('submit_understanding', { ...thin, entry_points: [], existing_patterns: [], files_analyzed: ['src/cart.ts'] });
    expect(r.next_phase).toBe('SEMANTIC');
    expect(t.row().phase).toBe('SEMANTIC');
    expect(t.sessions.store.transitions(t.row().id).at(-1)).toMatchObject({ to_phase: 'SEMANTIC', reason: expect.stringContaining('entry_points 0/1') });
    await t.call('revert_to_exploration', { reason: 'honest again' });
    expect((await t.call('submit_understanding', thin)).next_phase).toBe('VALIDATION');
  });
});

describe('New attacks (round 3): a stop or a prevention dropped from a value', () => {
  const frame = (request: string, value: string, quote: string, slot = 'desired_action') => validateFrame(request, { [slot]: { value, quote } }, translateCjk);
  it('"delete users" for "prevent users from being deleted" (and in Japanese, Chinese, across languages) is refused', () => {
    for (const [req, value, quote] of [
      ['Prevent users from being deleted', 'delete users', 'Prevent users from being deleted'],
      ['Stop showing NaN in the total', 'show NaN in the total', 'Stop showing NaN in the total'],
      ['Avoid sending the email twice', 'send the email twice', 'Avoid sending the email twice'],
      ['ユーザーの削除を禁止する', 'ユーザーを削除する', 'ユーザーの削除を禁止する'], ['ユーザーの削除を禁止する', 'delete users', 'ユーザーの削除を禁止する'],
      ['合計に NaN を表示するのをやめる', 'NaN を表示する', 'NaN を表示するのをやめる'], ['禁止删除用户', '删除用户', '禁止删除用户'],
    ] as const) expect(frame(req, value, quote).errors, `${value} for ${quote}`).toEqual([expect.objectContaining({ error: expect.stringMatching(/stops or prevents it/) })]);
    expect(frame('Stop adding tax to the total', 'remove tax from the total', 'Stop adding tax to the total').errors).toEqual([expect.objectContaining({ error: expect.stringMatching(/not doing a thing/) })]);
  });
  it('honest values keep the stop, negate the action, say its complement, name only the thing, or state the issue', () => {
    for (const [req, value, quote, slot] of [
      ['Prevent users from being deleted', 'prevent user deletion', 'Prevent users from being deleted', 'desired_action'],
      ['合計に NaN を表示するのをやめる', 'stop showing NaN', 'NaN を表示するのをやめる', 'desired_action'],
      ['合計に NaN を表示するのをやめる', 'do not show NaN', 'NaN を表示するのをやめる', 'desired_action'],
      ['合計に NaN を表示するのをやめる', 'hide NaN', 'NaN を表示するのをやめる', 'desired_action'],
      ['Stop showing NaN in the total', 'NaN in the total', 'Stop showing NaN in the total', 'target_feature'],
      ['Avoid sending the email twice', 'sends the email twice', 'Avoid sending the email twice', 'observed_issue'],
      ['禁止删除用户', 'prevent deleting users', '禁止删除用户', 'desired_action'],
    ] as const) expect(frame(req, value, quote, slot).errors, `${value} for ${quote}`).toEqual([]);
  });
  it('over the session: the refused slot is not stored; the risk is that of the slots that passed', async () => {
    const t = await setup();
    await t.call('start_session', { intent: 'MODIFY', query: 'カートの合計に NaN を表示するのをやめる' });
    const e = await t.refused('set_query_frame', { target_feature: { value: TARGET, quote: TARGET }, desired_action: { value: 'show NaN', quote: 'NaN を表示するのをやめる' } });
    expect(e.code).toBe('validation_failed');
    expect(JSON.parse(t.row().query_frame!).desired_action).toBeUndefined();
    expect(t.sessions.status()).toMatchObject({ risk_level: 'HIGH', query_frame: { target_feature: TARGET, missing_slots: expect.arrayContaining(['desired_action', 'observed_issue']) } });
    // nothing at all passed: nothing is stored
    const t2 = await setup();
    await t2.call('start_session', { intent: 'MODIFY', query: 'カートの合計に NaN を表示するのをやめる' });
    await t2.refused('set_query_frame', { desired_action: { value: 'show NaN', quote: 'NaN を表示するのをやめる' } });
    expect(t2.row().query_frame).toBeNull();
    expect(t2.sessions.status()).toMatchObject({ query_frame: { status: 'pending' } });
  });
});

describe('New attacks (round 3): the quote\'s action replaced by a verb the opposites did not list', () => {
  const frame = (request: string, value: string, quote: string) => validateFrame(request, { desired_action: { value, quote } }, translateCjk);
  it('"wipe / purge / cancel consumption tax" for 消費税を加える and "clear the cart total" for "add … to the cart total" are refused; honest renderings pass', () => {
    for (const [req, value, quote] of [
      [REQUEST, 'wipe consumption tax', '消費税を加える'], [REQUEST, 'purge consumption tax', '消費税を加える'], [REQUEST, 'cancel consumption tax', '消費税を加える'],
      ['Add consumption tax to the cart total', 'clear the cart total', 'Add consumption tax to the cart total'],
    ] as const) expect(frame(req, value, quote).errors, value).toEqual([expect.objectContaining({ error: expect.stringMatching(/says remove where its quote .* says add/) })]);
    for (const [req, value, quote] of [
      [REQUEST, 'add consumption tax', '消費税を加える'], [REQUEST, 'include consumption tax', '消費税を加える'], [REQUEST, 'apply consumption tax', '消費税を加える'],
    ] as const) expect(frame(req, value, quote).errors, value).toEqual([]);
  });
});

describe('New attacks (round 3): the intent, past a change the request forbids', () => {
  it('IMPLEMENT for "Explain … Do not change anything." (and コードは変更しないで, 不要修改代码) is refused; no session is created', async () => {
    const t = await setup();
    for (const query of ['Explain how the cart total is computed. Do not change anything.', 'Explain how the cart total is computed, without modifying any code',
      'カートの合計がどう計算されるか説明して。コードは変更しないで', '解释一下购物车总价是怎么计算的，不要修改代码']) {
      const e = await t.refused('start_session', { intent: 'IMPLEMENT', query });
      expect(e.code, query).toBe('intent_mismatch');
    }
    expect(t.sessions.store.list()).toEqual([]);
    // a problem stated with a negation is no forbidden change: it may ask for a fix, as before
    expect(await t.call('start_session', { intent: 'MODIFY', query: 'Why is the cart total not updated?' })).toMatchObject({ success: true });
    await t.call('abort_session', { reason: 'next' });
    // a request that asks for a change beside the question still may
    expect(await t.call('start_session', { intent: 'MODIFY', query: "Don't just explain how the cart total works, fix it" })).toMatchObject({ success: true });
    await t.call('abort_session', { reason: 'next' });
    expect(await t.call('start_session', { intent: 'INVESTIGATE', query: 'Explain how the cart total is computed. Do not change anything.' })).toMatchObject({ success: true });
  });
});

describe('New attacks (round 3): a quote the request rules out', () => {
  const frame = (request: string, slot: string, value: string, quote: string) => validateFrame(request, { [slot]: { value, quote } }, translateCjk);
  it('the thing it says not to change, or the change quoted without its "do not", is no target or action', () => {
    for (const [req, slot, value, quote, why] of [
      ['Add tax to the cart total but do not change the admin report', 'target_feature', 'admin report', 'the admin report', 'do not change'],
      ['Add tax to the cart total but do not change the admin report', 'desired_action', 'change the admin report', 'change the admin report', 'do not'],
      ['Add tax to the cart total, not to the admin report', 'target_feature', 'admin report', 'the admin report', 'not to'],
      ['カートの合計に消費税を加えて。管理レポートは変更しないで', 'target_feature', '管理レポート', '管理レポート', '変更しないで'],
      ['管理レポートを変更しないで、カートの合計を直して', 'desired_action', '管理レポートを変更', '管理レポートを変更', 'しないで'],
      ['不要修改管理报告，只修改购物车总价', 'target_feature', '管理报告', '管理报告', '不要修改'],
    ] as const) expect(frame(req, slot, value, quote).errors, `${quote} in ${req}`).toEqual([{ slot, error: expect.stringContaining(`rules out ("${why}")`) }]);
  });
  it('what it asks for, a feature that fails, or a thing a clause merely locates passes', () => {
    for (const [req, slot, value, quote] of [
      ['Add tax to the cart total but do not change the admin report', 'target_feature', 'cart total', 'the cart total'],
      ['Add tax to the cart total but do not change the admin report', 'desired_action', 'do not change the admin report', 'do not change the admin report'],
      ['ログインできない', 'target_feature', 'login', 'ログイン'], ['I cannot log in', 'target_feature', 'log in', 'log in'],
      ['The item is not in the cart', 'target_feature', 'cart', 'the cart'], ['不要修改管理报告，只修改购物车总价', 'target_feature', '购物车总价', '购物车总价'],
      ['The cart is not updated in the checkout page', 'target_feature', 'checkout page', 'the checkout page'], // a problem, not a prohibition
    ] as const) expect(frame(req, slot, value, quote).errors, `${quote} in ${req}`).toEqual([]);
  });
  it('over the session: nothing is stored, and the frame that quotes what is asked is', async () => {
    const t = await setup();
    const req = 'Add tax to the cart total but do not change the admin report';
    await t.call('start_session', { intent: 'IMPLEMENT', query: req });
    const e = await t.refused('set_query_frame', { target_feature: { value: 'admin report', quote: 'the admin report' } });
    expect(e.code).toBe('validation_failed');
    expect(t.row().query_frame).toBeNull();
    expect((await t.call('set_query_frame', { target_feature: { value: 'cart total', quote: 'the cart total' } })).success).toBe(true);
    expect(JSON.parse(t.row().query_frame!)).toMatchObject({ target_feature: 'cart total' });
  });
});

describe('New attacks (round 3): a code_evidence fragment that runs into other code', () => {
  const LOG = 'export function writeLog(line: string): void {\n  console.log(line);\n}\n\nexport function cartTotalLabel(): string {\n  const cart = "cart";\n  const total = "total";\n  return `${cart} ${total} 合計 カート`;\n}\n';
  it('scores the symbol by the lines of its own definition: writeLog is not lifted by cartTotalLabel\'s words (it was, to 0.45 → accepted)', async () => {
    const t = await setup({ ...SAMPLE, 'src/log.ts': LOG });
    await t.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    await explore(t.call);
    await t.call('get_symbols', { file: 'src/log.ts' });
    readWhole(t.sessions, 'src/log.ts'); // the agent read it: what it cites was shown to it
    const symbols = [...SAMPLE_SYMBOLS, 'writeLog'];
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: symbols });
    await t.call('validate_symbol_relevance', { target_feature: TARGET, symbols });
    const fragment = '`export function writeLog(line: string): void {\n  console.log(line);\n}\n\nexport function cartTotalLabel(): string {\n  const cart = "cart";\n  const total = "total";`';
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: [...SAMPLE_CONFIRM, { symbol: 'writeLog', approved: true, code_evidence: fragment }] });
    expect(r.accepted.map((a: SC) => a.symbol)).not.toContain('writeLog');
    expect(r.rejected).toEqual([expect.objectContaining({ symbol: 'writeLog', similarity: 0 })]);
    expect(JSON.parse(t.row().mapped_symbols!).map((a: SC) => a.symbol)).not.toContain('writeLog');
    // the three honest symbols stand: READY, with writeLog refused
    expect(r.next_phase).toBe('READY');
  });
});

describe('New attacks (round 3): a symbol the request names only to keep it out', () => {
  const ADMIN = 'export class AdminService {\n  resetPassword(user: string): void {\n    console.log(user);\n  }\n}\n';
  const drive = async (request: string) => {
    const t = await setup({ ...SAMPLE, 'src/admin.ts': ADMIN });
    await t.call('start_session', { intent: 'IMPLEMENT', query: request, query_frame: { target_feature: { value: 'cart total', quote: 'the cart total' } } });
    await explore(t.call);
    await t.call('get_symbols', { file: 'src/admin.ts' });
    const symbols = [...SAMPLE_SYMBOLS, 'AdminService'];
    await t.call('submit_understanding', { ...SAMPLE_UNDERSTANDING, symbols_identified: symbols, files_analyzed: ['src/cart.ts', 'src/admin.ts'] });
    await t.call('validate_symbol_relevance', { target_feature: 'cart total', symbols });
    const r = await t.call('confirm_symbol_relevance', { mapped_symbols: [...SAMPLE_CONFIRM, { symbol: 'AdminService', approved: true, code_evidence: 'src/admin.ts:1' }] });
    return { t, r };
  };
  it('"do not change `AdminService`" does not make AdminService part of the request (it was accepted at 0.45, "the request names it as code")', async () => {
    const { t, r } = await drive('Add consumption tax to the cart total, but do not change `AdminService`');
    expect(r.accepted.map((a: SC) => a.symbol)).not.toContain('AdminService');
    expect(r.rejected).toEqual([expect.objectContaining({ symbol: 'AdminService' })]);
    expect(JSON.parse(t.row().mapped_symbols!).map((a: SC) => a.symbol)).not.toContain('AdminService');
  });
  it('a request that names it as part of the change still does', async () => {
    const { r } = await drive('Add consumption tax to the cart total, and log it in `AdminService`');
    expect(r.accepted).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: 'AdminService', via: expect.stringContaining('the request names it') })]));
  });
});
