/**
 * The /code session end to end over stdio: an honest IMPLEMENT session, an INVESTIGATE session,
 * the SEMANTIC → VERIFICATION path, a restart mid-session, and an agent trying to cheat each gate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type Server } from './helpers/mcp.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';
import { SAMPLE_CONFIRM, SAMPLE_SYMBOLS, SAMPLE_UNDERSTANDING } from './helpers/session.js';

const REQUEST = 'カートの合計に消費税を加える処理を追加して';
const FRAME = {
  target_feature: { value: 'カートの合計', quote: 'カートの合計' },
  desired_action: { value: '消費税を加える', quote: '消費税を加える' },
};

let root: string | undefined;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (root) removeProject(root);
  root = undefined;
});

async function open(): Promise<Server> {
  root = makeProject(SAMPLE);
  server = await startServer(root);
  return server;
}

async function phase(s: Server): Promise<string> {
  return (await s.call('get_session_status')).structuredContent!.phase;
}

/** Exploration an honest agent does on the sample: shows cart.ts, format.ts and main.ts. */
async function explore(s: Server): Promise<void> {
  expect((await s.call('query', { text: 'cart total' })).isError).toBeFalsy();
  expect((await s.call('find_definitions', { name: 'formatPrice' })).isError).toBeFalsy();
  expect((await s.call('get_symbols', { file: 'src/util/format.ts' })).isError).toBeFalsy();
  expect((await s.call('find_references', { name: 'Cart' })).isError).toBeFalsy();
  expect((await s.call('get_symbols', { file: 'src/cart.ts' })).isError).toBeFalsy();
}

const UNDERSTANDING = SAMPLE_UNDERSTANDING;

describe('/code session over MCP', () => {
  it('an honest IMPLEMENT session reaches READY and may write only explored files', async () => {
    const s = await open();
    const start = await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST });
    expect(start.structuredContent).toMatchObject({ success: true, phase: 'EXPLORATION', query_frame: { status: 'pending' } });
    expect(start.structuredContent!.query_frame.extraction_prompt).toContain(REQUEST);
    expect(start.structuredContent!.next_step_ja).toContain('探索'); // the request is Japanese

    const qf = await s.call('set_query_frame', FRAME);
    expect(qf.structuredContent).toMatchObject({
      success: true, risk_level: 'MEDIUM', risk_reason: expect.stringMatching(/^MEDIUM: a new feature/), missing_slots: [], // a new feature has no observed issue, and this one no trigger
      query_frame: { validated_slots: ['target_feature', 'desired_action'], slot_sources: { target_feature: 'FACT' } },
    });
    expect(qf.structuredContent!.investigation_guidance.recommended_tools).toEqual([]); // nothing the intent expects is missing

    await explore(s);
    const u = await s.call('submit_understanding', UNDERSTANDING);
    expect(u.structuredContent).toMatchObject({ success: true, next_phase: 'VALIDATION', evaluated_confidence: 'high', missing_requirements: [] });

    // exploration tools are closed in VALIDATION
    expect((await s.call('search_text', { pattern: 'x' })).structuredContent).toMatchObject({ error: 'phase_blocked', current_phase: 'VALIDATION', next_step_ja: expect.stringContaining('validate_symbol_relevance') });

    const v = await s.call('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['Cart', 'Cart.total', 'formatPrice'] });
    expect(v.structuredContent).toMatchObject({ cached_matches: [], backend: 'lexical' });
    expect(v.structuredContent!.embedding_suggestions[0]).toMatchObject({ symbol: 'Cart.total', rank: 1 });

    const c = await s.call('confirm_symbol_relevance', {
      mapped_symbols: [
        { symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' },
        { symbol: 'Cart', approved: true, code_evidence: '`export class Cart {` in src/cart.ts' },
        { symbol: 'formatPrice', approved: false },
      ],
    });
    // two accepted, one dismissed: an IMPLEMENT needs three symbols that survive validation
    expect(c.structuredContent).toMatchObject({ success: false, next_phase: 'EXPLORATION', risk_level: 'HIGH', dismissed: ['formatPrice'], accepted_total: { have: 2, need: 3 } });
    expect(c.structuredContent!.next_step).toContain('Only 2 of the 3');
    expect(c.structuredContent!.accepted).toEqual(expect.arrayContaining([
      // (what the pass judged: the target_feature value; its quote beside it only where it says more)
      expect.objectContaining({ symbol: 'Cart.total', tier: 'FACT', judged_against: 'カートの合計' }),
      expect.objectContaining({ symbol: 'Cart', tier: 'ACCEPTED_HIGH_RISK' }),
    ]));
    // the helper total uses is part of the feature: confirmed with its definition, it is linked through the code
    expect((await s.call('submit_understanding', { ...UNDERSTANDING, mapped_symbols: [{ nl_term: 'カート', symbol: 'Cart' }] })).structuredContent!.next_phase).toBe('VALIDATION');
    await s.call('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['formatPrice'] });
    const c2 = await s.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' }] });
    expect(c2.structuredContent).toMatchObject({ success: true, next_phase: 'READY', accepted_total: { have: 3, need: 3 } });

    const write = (file_path: string, allow_new_files = false) => s.call('check_write_target', { file_path, allow_new_files });
    expect((await write('src/cart.ts')).structuredContent).toMatchObject({ allowed: true });
    // find_references showed one line of it (a use of Cart): named, not explored, until it is opened
    expect((await write('src/main.ts')).structuredContent).toMatchObject({ allowed: false, error: expect.stringContaining('not explored') });
    expect((await s.call('get_session_status')).structuredContent).toMatchObject({ named_files: ['src/main.ts'] });
    await s.call('get_symbols', { file: 'src/main.ts' });
    expect((await write('src/main.ts')).structuredContent).toMatchObject({ allowed: true });
    expect((await write('README.md')).structuredContent).toMatchObject({ allowed: false, error: expect.stringContaining('not explored') });
    expect((await write('src/tax.ts', true)).structuredContent).toMatchObject({ allowed: true, new_file: true });
    expect((await write('docs/tax.ts', true)).structuredContent).toMatchObject({ allowed: false, error: expect.stringContaining('the project root holds no explored file') });
    // a new folder beside explored code (a test folder the project does not have yet, tr26)
    expect((await write('src/__tests__/tax.test.ts', true)).structuredContent).toMatchObject({ allowed: true, new_file: true });
    expect((await write('src/util/rates/jp/tax.ts', true)).structuredContent).toMatchObject({ allowed: true, new_file: true });
    expect((await write('generated/new/tax.ts', true)).structuredContent).toMatchObject({ allowed: false });
    expect((await write('src/tax.ts')).structuredContent).toMatchObject({ allowed: false });

    const end = await s.call('end_session', { outcome: 'success' });
    expect(end.structuredContent).toMatchObject({ success: true, outcome: 'success' });
    expect((await s.call('get_session_status')).structuredContent).toMatchObject({ active: false, last_session: { outcome: 'success' } });
  });

  it('start_session sets the QueryFrame in the same call; a refused frame leaves the session started and says what to fix', async () => {
    const s = await open();
    const start = await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: FRAME });
    expect(start.structuredContent).toMatchObject({
      success: true, phase: 'EXPLORATION',
      query_frame: { status: 'set', risk_level: 'MEDIUM', missing_slots: [], query_frame: { validated_slots: ['target_feature', 'desired_action'] } },
    });
    const status = (await s.call('get_session_status')).structuredContent!;
    expect(status.query_frame).toMatchObject({ target_feature: 'カートの合計' });
    await s.call('abort_session', { reason: 'next case' });

    const bad = await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: { target_feature: { value: 'ログイン', quote: 'ログイン機能' } } });
    expect(bad.isError).toBeFalsy();
    expect(bad.structuredContent).toMatchObject({ success: true, phase: 'EXPLORATION', query_frame: { status: 'refused', validation_errors: [expect.anything()] } });
    expect((await s.call('set_query_frame', FRAME)).structuredContent).toMatchObject({ success: true });
    // the slots nested as start_session takes them (agent trials tr28, tr36, tr37 sent them so, and set nothing)
    const nested = await s.call('set_query_frame', { query_frame: { target_feature: { value: 'カートの合計', quote: 'カートの合計' } } });
    // a call that gives one slot fixes that slot and keeps the others (it used to drop them silently)
    expect(nested.structuredContent).toMatchObject({ success: true, query_frame: { target_feature: 'カートの合計', validated_slots: ['target_feature', 'desired_action'] }, kept_from_before: ['desired_action'], missing_slots: [] });
    expect((await s.call('get_session_status')).structuredContent!.query_frame).toMatchObject({ target_feature: 'カートの合計', desired_action: '消費税を加える', quotes: { desired_action: '消費税を加える' } });
  });

  it('a frame refused in one slot sets the others and says so; the refused slot is fixed alone (agent trial tr64)', async () => {
    const s = await open();
    const start = await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST, query_frame: { ...FRAME, target_feature: { value: 'ログイン', quote: 'ログイン機能' } } });
    expect(start.structuredContent).toMatchObject({ success: true, query_frame: { status: 'partly set', set_slots: ['desired_action'], validation_errors: [expect.objectContaining({ slot: 'target_feature' })] } });
    expect((await s.call('get_session_status')).structuredContent!.query_frame).toMatchObject({ desired_action: '消費税を加える' });
    const fixed = await s.call('set_query_frame', { target_feature: FRAME.target_feature });
    expect(fixed.structuredContent).toMatchObject({ success: true, query_frame: { validated_slots: ['target_feature', 'desired_action'] }, kept_from_before: ['desired_action'], missing_slots: [] });
    // over set_query_frame itself: the error names the slots it set
    const again = await s.call('set_query_frame', { target_feature: { value: 'ログイン', quote: 'ログイン機能' }, desired_action: FRAME.desired_action });
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toMatch(/desired_action set; fix the others/);
  });

  it('an INVESTIGATE session never gets a write', async () => {
    const s = await open();
    await s.call('start_session', { intent: 'INVESTIGATE', query: 'How is the cart total formatted?' });
    const qf = await s.call('set_query_frame', { target_feature: { value: 'cart total', quote: 'cart total' } });
    expect(qf.structuredContent!.risk_level).toBe('LOW');
    expect(qf.structuredContent!.next_step_ja).toBeUndefined(); // an English request gets English only
    await explore(s);
    const u = await s.call('submit_understanding', { symbols_identified: ['Cart.total'], entry_points: [], existing_patterns: [], files_analyzed: ['src/cart.ts'] });
    expect(u.structuredContent!.next_phase).toBe('VALIDATION');
    await s.call('validate_symbol_relevance', { target_feature: 'cart total', symbols: ['Cart.total'] });
    const c = await s.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' }] });
    expect(c.structuredContent!.next_phase).toBe('READY');
    const w = await s.call('check_write_target', { file_path: 'src/cart.ts' });
    expect(w.structuredContent).toMatchObject({ allowed: false, error: 'INVESTIGATE sessions never write files' });
  });

  it('a thin understanding goes through SEMANTIC and VERIFICATION, with evidence checked against the ledger', async () => {
    const s = await open();
    await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST });
    await s.call('set_query_frame', FRAME);
    await explore(s);
    const u = await s.call('submit_understanding', { ...UNDERSTANDING, symbols_identified: ['Cart', 'Cart.total'] });
    expect(u.structuredContent).toMatchObject({ next_phase: 'SEMANTIC', missing_requirements: [{ requirement: 'symbols_identified', have: 2, need: 3 }] });
    expect(u.structuredContent!.allowed_semantic_reasons).toEqual(['no_definition_found', 'context_fragmented', 'architecture_unknown']);

    // submit_semantic before any semantic_search, or with a reason that does not fit, is refused
    const early = await s.call('submit_semantic', { hypotheses: [{ text: 'x', confidence: 'low' }], semantic_reason: 'no_definition_found', search_queries: ['税'] });
    expect(early.structuredContent!.error).toBe('semantic_refused');
    const found = await s.call('semantic_search', { query: '価格の整形' });
    expect(found.structuredContent!.items[0]).toMatchObject({ symbol: 'formatPrice', backend: 'lexical' });
    const wrongReason = await s.call('submit_semantic', { hypotheses: [{ text: 'x', confidence: 'low' }], semantic_reason: 'no_similar_implementation', search_queries: ['価格の整形'] });
    expect(wrongReason.structuredContent!.message).toContain("semantic_reason 'no_similar_implementation' is not allowed");
    const made = await s.call('submit_semantic', { hypotheses: [{ text: 'formatPrice formats the total', confidence: 'medium' }], semantic_reason: 'no_definition_found', search_queries: ['価格の整形'] });
    expect(made.structuredContent).toMatchObject({ next_phase: 'VERIFICATION', hypotheses: [{ id: 1, slot_source: 'HYPOTHESIS' }] });

    // evidence must be a call made after submit_semantic: the earlier find_definitions does not count
    const evidence = { tool: 'find_definitions', target: 'formatPrice', result: 'defined in format.ts', files: ['src/util/format.ts'] };
    const stale = await s.call('submit_verification', { verified: [{ hypothesis: '#1', status: 'confirmed', evidence }] });
    expect(stale.structuredContent!.error).toBe('verification_refused');
    await s.call('find_definitions', { name: 'formatPrice' });
    const badFiles = await s.call('submit_verification', { verified: [{ hypothesis: '#1', status: 'confirmed', evidence: { ...evidence, files: ['src/main.ts'] } }] });
    expect(badFiles.structuredContent!.message).toContain('not among the results');
    const good = await s.call('submit_verification', { verified: [{ hypothesis: 'formatPrice formats the total', status: 'confirmed', evidence }] });
    expect(good.structuredContent).toMatchObject({ success: true, confirmed: 1, next_phase: 'VALIDATION' });
    expect(await phase(s)).toBe('VALIDATION');
  });

  it('survives a server restart mid-session', async () => {
    const s = await open();
    const start = await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST });
    await s.call('set_query_frame', FRAME);
    await explore(s);
    process.kill(s.pid!, 'SIGKILL');
    await s.close().catch(() => {});
    server = await startServer(root!);
    const st = await server.call('get_session_status');
    expect(st.structuredContent).toMatchObject({ active: true, session_id: start.structuredContent!.session_id, phase: 'EXPLORATION', risk_level: 'MEDIUM' });
    expect(st.structuredContent!.explored_files).toEqual(['src/cart.ts', 'src/util/format.ts']);
    expect(st.structuredContent!.named_files).toEqual(['src/main.ts']); // a reference's use: one line of it
    const u = await server.call('submit_understanding', UNDERSTANDING);
    expect(u.structuredContent!.next_phase).toBe('VALIDATION');
    // a second server on the same project sees the same session
    const again = await server.call('start_session', { intent: 'MODIFY', query: 'something else' });
    expect(again.structuredContent).toMatchObject({ error: 'session_active', active_session_id: start.structuredContent!.session_id });
  });
});

describe('an agent trying to cheat', () => {
  it('is refused at every gate, and nothing advances', async () => {
    const s = await open();
    await s.call('start_session', { intent: 'IMPLEMENT', query: REQUEST });
    const expectStill = async (p: string) => expect(await phase(s)).toBe(p);

    // skip a phase
    expect((await s.call('check_write_target', { file_path: 'src/cart.ts' })).structuredContent).toMatchObject({ error: 'phase_blocked', current_phase: 'EXPLORATION' });
    expect((await s.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'Cart', approved: true, code_evidence: 'x' }] })).structuredContent!.error).toBe('phase_blocked');
    expect((await s.call('submit_understanding', UNDERSTANDING)).structuredContent!.error).toBe('query_frame_required');
    // semantic_search outside SEMANTIC
    const sem = await s.call('semantic_search', { query: 'cart' });
    expect(sem.structuredContent).toMatchObject({ error: 'phase_blocked', allowed_tools: expect.arrayContaining(['find_definitions']), next_step: expect.any(String) });
    await expectStill('EXPLORATION');

    // an empty frame sets nothing: it was answered "success" and let submit_understanding through (tr28)
    const empty = await s.call('set_query_frame', {});
    expect(empty.structuredContent).toMatchObject({ error: 'validation_failed', validation_errors: [{ slot: 'target_feature', error: expect.stringContaining('no slot given') }] });
    expect((await s.call('submit_understanding', UNDERSTANDING)).structuredContent!.error).toBe('query_frame_required');
    // forge a quote (and a full-width one that is really there passes)
    const forged = await s.call('set_query_frame', { target_feature: { value: 'ログイン', quote: 'ログイン機能' } });
    expect(forged.structuredContent).toMatchObject({ error: 'validation_failed', validation_errors: [{ slot: 'target_feature' }] });
    const ungrounded = await s.call('set_query_frame', { target_feature: { value: 'payment gateway', quote: 'カートの合計' } });
    expect(ungrounded.structuredContent!.validation_errors[0].error).toContain('says more than its quote');
    expect((await s.call('set_query_frame', FRAME)).structuredContent!.success).toBe(true);

    // required tools not called yet
    const noTools = await s.call('submit_understanding', UNDERSTANDING);
    expect(noTools.structuredContent!.consistency_errors).toEqual(expect.arrayContaining([expect.stringContaining('find_definitions')]));
    await explore(s);

    const refusedWith = async (patch: Record<string, unknown>, text: string) => {
      const r = await s.call('submit_understanding', { ...UNDERSTANDING, ...patch });
      expect(r.structuredContent!.error, JSON.stringify(patch)).toBe('understanding_refused');
      expect(JSON.stringify(r.structuredContent!.consistency_errors)).toContain(text);
      await expectStill('EXPLORATION');
    };
    await refusedWith({ symbols_identified: ['Cart', 'Cart.total', 'PaymentGateway'] }, "symbol 'PaymentGateway' does not exist");
    await refusedWith({ files_analyzed: ['src/cart.ts', 'README.md'] }, "file 'README.md' was not explored");
    await refusedWith({ symbols_identified: ['Cart', 'Cart', 'Cart.total'] }, 'duplicate symbols');
    await refusedWith({ entry_points: ['Checkout.run()'] }, 'must name one symbol');

    // reach VALIDATION honestly, then try to slip an unrelated symbol through
    expect((await s.call('submit_understanding', UNDERSTANDING)).structuredContent!.next_phase).toBe('VALIDATION');
    const wrongTarget = await s.call('validate_symbol_relevance', { target_feature: 'payment', symbols: ['Cart'] });
    expect(wrongTarget.structuredContent!.error).toBe('target_mismatch');
    await s.call('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['Cart.total', 'formatPrice'] });
    // every symbol sent to validation is confirmed or dismissed: confirming only the strong one is refused
    const partial = await s.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'Cart.total', approved: true, code_evidence: 'src/cart.ts:10' }] });
    expect(partial.structuredContent).toMatchObject({ error: 'not_addressed' });
    await expectStill('VALIDATION');
    // evidence must concern the symbol: a real, explored line about something else is not evidence for it
    const elsewhere = await s.call('confirm_symbol_relevance', {
      mapped_symbols: [{ symbol: 'Cart.total', approved: true, code_evidence: 'src/util/format.ts:2' }, { symbol: 'formatPrice', approved: false }],
    });
    expect(elsewhere.structuredContent!.rejected[0].guidance.reason).toContain('is neither inside Cart.total\'s definition nor a use of it');
    expect((await s.call('submit_understanding', UNDERSTANDING)).structuredContent!.next_phase).toBe('VALIDATION');
    await s.call('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['Cart.total', 'formatPrice'] });
    const fakeEvidence = await s.call('confirm_symbol_relevance', {
      mapped_symbols: [{ symbol: 'Cart.total', approved: true, code_evidence: '`applyTax(total)` in src/cart.ts' }, { symbol: 'formatPrice', approved: false }],
    });
    expect(fakeEvidence.structuredContent).toMatchObject({ success: false, next_phase: 'EXPLORATION' });
    expect(fakeEvidence.structuredContent!.rejected[0].guidance.reason).toContain('code_evidence does not point at code');

    // back in EXPLORATION; a symbol the words of the target do not reach is accepted only through
    // the code graph (Cart.total, which the target names, calls it), never as a FACT
    expect((await s.call('submit_understanding', UNDERSTANDING)).structuredContent!.next_phase).toBe('VALIDATION');
    await s.call('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['formatPrice'] });
    const linked = await s.call('confirm_symbol_relevance', { mapped_symbols: [{ symbol: 'formatPrice', approved: true, code_evidence: 'src/util/format.ts:2' }] });
    expect(linked.structuredContent!.accepted).toEqual([expect.objectContaining({ symbol: 'formatPrice', tier: 'ACCEPTED_HIGH_RISK', via: expect.stringContaining('Cart.total') })]);
    await s.call('revert_to_exploration', { reason: 'test the rest of the path' });

    // honest again → READY (the graph link raised the risk to HIGH: mapped_symbols are now required); then writes outside the root
    await s.call('submit_understanding', { ...UNDERSTANDING, mapped_symbols: [{ nl_term: 'カートの合計', symbol: 'Cart.total' }] });
    await s.call('validate_symbol_relevance', { target_feature: 'カートの合計', symbols: ['Cart.total', 'Cart'] });
    const onward = await s.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM.slice(0, 2) });
    // the answer says why the risk is HIGH though every symbol was accepted (agent trials tr61, tr63)
    expect(onward.structuredContent).toMatchObject({ success: true, risk_level: 'HIGH', risk_note: expect.stringContaining('accepted below FACT') });
    await expectStill('READY');
    fs.symlinkSync(path.dirname(root!), path.join(root!, 'src', 'escape'));
    for (const p of ['../outside.ts', '/etc/passwd', 'src/escape/x.ts', 'src/../../x.ts']) {
      const w = await s.call('check_write_target', { file_path: p, allow_new_files: true });
      expect(w.structuredContent!.allowed, p).toBe(false);
    }
    // a second session while one is active
    const second = await s.call('start_session', { intent: 'MODIFY', query: 'fix it' });
    expect(second.structuredContent).toMatchObject({ error: 'session_active', next_step: expect.stringContaining('abort_session') });
    await expectStill('READY');
    // verification evidence for a call never made: only reachable through SEMANTIC, covered above; aborting ends the session
    expect((await s.call('abort_session', { reason: 'done testing' })).structuredContent!.phase).toBe('ABORTED');
    expect((await s.call('start_session', { intent: 'MODIFY', query: 'fix it' })).structuredContent!.success).toBe(true);
  });
});
