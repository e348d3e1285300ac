/**
 * The in-process harness of the false-claim suites (session-claims*.test.ts): a project with a
 * session service, its tools run as the MCP wrapper runs them (gate → run → record), and views of
 * what the database holds (session row, ledger, the write guard's verdict).
 */
import { afterEach, expect } from 'vitest';
import { guardMode, forbids } from '../../src/guard/mode.js';
import { Project } from '../../src/project/project.js';
import { SessionError } from '../../src/session/core.js';
import { SessionService } from '../../src/session/service.js';
import { toolNamed } from '../../src/tools/catalog.js';
import { Deadline } from '../../src/util/deadline.js';
import { relInsideRoot } from '../../src/util/paths.js';
import { makeProject, removeProject, SAMPLE } from './project.js';
import { SAMPLE_CONFIRM, SAMPLE_SYMBOLS, SAMPLE_UNDERSTANDING } from './session.js';

type SC = Record<string, any>;
let open: { root: string; project: Project }[] = [];
afterEach(() => {
  for (const o of open) {
    o.project.close();
    removeProject(o.root);
  }
  open = [];
});

/** A project with a session service, and `call` running a tool as the MCP wrapper does (gate → run → record). */
export async function setup(files: Record<string, string> = SAMPLE) {
  const root = makeProject(files);
  const project = new Project(root);
  await project.refresh();
  const sessions = new SessionService(project);
  open.push({ root, project });
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<SC> => {
    const record = toolNamed(name)!;
    const ctx = { project, sessions, deadline: new Deadline(name, 60_000), inside: (p: string) => relInsideRoot(root, p) };
    if (record.role !== 'explore') return (await record.run(ctx, args as never)) as SC;
    sessions.gate(name, args);
    const result = (await record.run(ctx, args as never)) as SC;
    sessions.record(name, args, result);
    record.recorded?.(sessions);
    return result;
  };
  /** a session step that must be refused: its error code */
  const refused = async (name: string, args: Record<string, unknown>): Promise<SessionError> => {
    try {
      const r = await call(name, args);
      throw new Error(`${name} was not refused: ${JSON.stringify(r).slice(0, 400)}`);
    } catch (e) {
      if (!(e instanceof SessionError)) throw e;
      return e;
    }
  };
  const row = () => sessions.store.active() ?? sessions.store.list(1)[0]!;
  const ledger = () => sessions.store.ledger(row().id);
  const last = () => ledger().at(-1)!;
  /** what the guard says of an edit to a file right now */
  const guardSays = (rel: string) => forbids(guardMode(sessions.store, root), rel, () => false);
  return { root, project, sessions, call, refused, row, ledger, last, guardSays };
}

/** The honest exploration of the sample (e2e-session's): format.ts, cart.ts and main.ts shown. */
export async function explore(call: (n: string, a?: Record<string, unknown>) => Promise<SC>): Promise<void> {
  await call('query', { text: 'cart total' });
  await call('find_definitions', { name: 'formatPrice' });
  await call('get_symbols', { file: 'src/util/format.ts' }); // a definition row names its file; the outline shows its code
  await call('find_references', { name: 'Cart' });
  await call('get_symbols', { file: 'src/cart.ts' });
}

/** The sample session (started, explored) taken honestly through VALIDATION to READY against `target`. */
export async function toReady(t: Awaited<ReturnType<typeof setup>>, target: string): Promise<void> {
  expect((await t.call('submit_understanding', SAMPLE_UNDERSTANDING)).next_phase).toBe('VALIDATION');
  await t.call('validate_symbol_relevance', { target_feature: target, symbols: SAMPLE_SYMBOLS });
  expect((await t.call('confirm_symbol_relevance', { mapped_symbols: SAMPLE_CONFIRM })).next_phase).toBe('READY');
}
