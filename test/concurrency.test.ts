/**
 * Hooks and the server write one session's ledger at the same time: nothing is lost, nothing is
 * recorded twice, and the sequence has no holes (each append takes its number inside the write
 * transaction that also renews the seal); and the decisions the ledger backs are the ones the same
 * calls make one after another.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { Project } from '../src/project/project.js';
import { symbolsByName } from '../src/query/symbols.js';
import { deriveEvidence } from '../src/session/evidence.js';
import { SessionService } from '../src/session/service.js';
import { evaluateUnderstanding } from '../src/session/understanding.js';
import { makeProject, removeProject, REPO_ROOT, SAMPLE } from './helpers/project.js';
import { Transcript } from './helpers/transcript.js';

const HOOK = path.join(REPO_ROOT, 'dist', 'src', 'hooks', 'main.js');
let root: string;
let project: Project;
let sessions: SessionService;

beforeAll(() => {
  root = makeProject(SAMPLE);
  project = new Project(root);
  sessions = new SessionService(project);
});
afterAll(() => {
  project.close();
  removeProject(root);
});

function hookAsync(payload: unknown, cwd = root): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOOK, 'post-tool-use'], { cwd, env: { ...process.env, CLAUDE_PROJECT_DIR: cwd } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

const FILES = ['src/cart.ts', 'src/main.ts', 'src/util/format.ts', 'README.md'];
const N = 24;
const readPayload = (dir: string, t: Transcript, i: number) => ({
  hook_event_name: 'PostToolUse', cwd: dir, session_id: t.sessionId, transcript_path: t.path, tool_name: 'Read', tool_use_id: `toolu_c${i}`,
  tool_input: { file_path: path.join(dir, FILES[i % FILES.length]!) }, tool_response: {},
});

/** What the ledger decides: the files explored, the symbols seen, the tools used, and a verdict on one understanding. */
function decisions(svc: SessionService, p: Project): unknown {
  const status = svc.status();
  const ev = deriveEvidence(svc.store.ledger(status.session_id as string));
  const verdict = evaluateUnderstanding(
    { symbols_identified: ['Cart.total', 'formatPrice', 'Cart'], entry_points: ['Cart.total()'], existing_patterns: ['formatPrice'], files_analyzed: ['src/cart.ts', 'src/util/format.ts'] },
    { intent: 'IMPLEMENT', risk: 'MEDIUM', request: 'add tax to the cart total', evidence: ev, symbolExists: (n) => symbolsByName(p, n).length > 0 },
  );
  return { explored: status.explored_files, symbols: [...ev.symbolsSeen].sort(), tools: [...ev.toolsUsed].sort(), verdict };
}

describe('concurrent writers of one ledger', () => {
  it('24 hook processes and 24 server calls at once: every call recorded exactly once', async () => {
    await project.refresh();
    sessions.start('IMPLEMENT', 'add tax to the cart total');
    const t = new Transcript();
    for (let i = 0; i < N; i++) t.toolUse(`toolu_c${i}`, 'Read', { file_path: path.join(root, FILES[i % FILES.length]!) });
    const hooks = Array.from({ length: N }, (_, i) => hookAsync(readPayload(root, t, i)));
    for (let i = 0; i < N; i++) {
      sessions.record('find_definitions', { name: 'formatPrice', i }, { ...findDefinitions(project, { name: 'formatPrice' }) });
      await new Promise((r) => setTimeout(r, 5));
    }
    const results = await Promise.all(hooks);
    expect(results.filter((r) => r.code !== 0 || r.stderr), JSON.stringify(results.filter((r) => r.stderr).slice(0, 2))).toEqual([]);
    const id = sessions.status().session_id as string;
    const ledger = sessions.store.ledger(id);
    expect(ledger.filter((e) => e.tool === 'hook:Read')).toHaveLength(N);
    expect(ledger.filter((e) => e.tool === 'find_definitions')).toHaveLength(N);
    expect(ledger.map((e) => e.seq)).toEqual(ledger.map((_, i) => i + 1)); // no hole, no duplicate
    expect(sessions.store.problem()).toBeUndefined(); // and the seal still holds

    // the same calls one after another, in a second copy of the project: the same decisions
    const serialRoot = makeProject(SAMPLE);
    const serialProject = new Project(serialRoot);
    try {
      await serialProject.refresh();
      const serial = new SessionService(serialProject);
      serial.start('IMPLEMENT', 'add tax to the cart total');
      const t2 = new Transcript();
      for (let i = 0; i < N; i++) t2.toolUse(`toolu_c${i}`, 'Read', { file_path: path.join(serialRoot, FILES[i % FILES.length]!) });
      for (let i = 0; i < N; i++) {
        expect(await hookAsync(readPayload(serialRoot, t2, i), serialRoot)).toEqual({ code: 0, stderr: '' });
        serial.record('find_definitions', { name: 'formatPrice', i }, { ...findDefinitions(serialProject, { name: 'formatPrice' }) });
      }
      const d = decisions(sessions, project) as { explored: string[]; tools: string[]; verdict: { refused: string[] } };
      expect(d.explored).toEqual(expect.arrayContaining(FILES)); // the hooks' Reads count, settled against the transcript
      expect(d.tools).toEqual(expect.arrayContaining(['find_definitions', 'hook:Read']));
      expect(d).toEqual(decisions(serial, serialProject));
    } finally {
      serialProject.close();
      removeProject(serialRoot);
    }
  }, 120_000);
});
