/**
 * Hooks and the server write one session's ledger at the same time: nothing is lost, nothing is
 * recorded twice, and the sequence has no holes (each append takes its number inside the write
 * transaction that also renews the seal).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { Project } from '../src/query/project.js';
import { SessionService } from '../src/session/service.js';
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

function hookAsync(payload: unknown): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOOK, 'post-tool-use'], { cwd: root, env: { ...process.env, CLAUDE_PROJECT_DIR: root } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

describe('concurrent writers of one ledger', () => {
  it('24 hook processes and 24 server calls at once: every call recorded exactly once', async () => {
    await project.refresh();
    sessions.start('IMPLEMENT', 'add tax to the cart total');
    const t = new Transcript();
    const files = ['src/cart.ts', 'src/main.ts', 'src/util/format.ts', 'README.md'];
    const N = 24;
    for (let i = 0; i < N; i++) t.toolUse(`toolu_c${i}`, 'Read', { file_path: path.join(root, files[i % files.length]!) });
    const hooks = Array.from({ length: N }, (_, i) => hookAsync({
      hook_event_name: 'PostToolUse', cwd: root, session_id: t.sessionId, transcript_path: t.path, tool_name: 'Read', tool_use_id: `toolu_c${i}`,
      tool_input: { file_path: path.join(root, files[i % files.length]!) }, tool_response: {},
    }));
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
  }, 120_000);
});
