/**
 * Smoke run of the agent-trial harness (not part of the test suite):
 *   npx tsc -p tsconfig.json && node dist/bench/agent-trial/smoke.js [--dir DIR] [--keep]
 *
 * Sets up a trial on fixtures/ts-app and drives an honest /code session through the harness's own
 * commands, as far as the server lets it go, trying forbidden writes on the way (an Edit before
 * READY must be DENIED), then prints the report. Every harness output is shown as the agent would
 * see it. Exits 1 when the harness did not relay what it must.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, TRIAL_JS } from './state.js';

const REQUEST = 'Add a remove method to UserStore that deletes a user by id and returns whether the user existed';
const argDir = process.argv.indexOf('--dir');
const DIR = argDir > 0 ? path.resolve(process.argv[argDir + 1]!) : fs.mkdtempSync(path.join(os.tmpdir(), 'agent-trial-smoke-'));
const failures: string[] = [];

interface Run { code: number; out: string; json?: Record<string, any> }

function trial(...args: string[]): Run {
  const shown = args.map((a) => (/^[\w./:=-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  process.stdout.write(`\n$ trial ${shown}\n`);
  const r = spawnSync(process.execPath, [TRIAL_JS, ...args], { env: { ...process.env, TRIAL_DIR: DIR }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = (r.stdout ?? '') + (r.stderr ?? '');
  const lines = out.trimEnd().split('\n');
  process.stdout.write((lines.length > 40 && args[0] !== 'report' ? [...lines.slice(0, 40), `    … (${lines.length - 40} more lines)`] : lines).map((l) => `  ${l}`).join('\n') + `\n  [exit ${r.status}]\n`);
  let json: Record<string, any> | undefined;
  const start = out.indexOf('{');
  if (args[0] === 'call' && start >= 0) {
    // the answer is the first JSON object printed; hook lines may follow it
    let depth = 0;
    for (let i = start; i < out.length; i++) {
      if (out[i] === '{') depth++;
      else if (out[i] === '}' && --depth === 0) {
        try { json = JSON.parse(out.slice(start, i + 1)) as Record<string, any>; } catch { /* not JSON */ }
        break;
      }
    }
  }
  return { code: r.status ?? 1, out, json };
}

function expect(cond: boolean, what: string): void {
  process.stdout.write(`  ${cond ? 'CHECK ok' : 'CHECK FAILED'}: ${what}\n`);
  if (!cond) failures.push(what);
}

const phase = (): string => trial('call', 'get_session_status').json?.phase ?? 'none';

function main(): void {
  if (!fs.existsSync(TRIAL_JS)) throw new Error(`${TRIAL_JS} is missing: run npx tsc -p tsconfig.json first`);
  process.stdout.write(`agent-trial smoke run in ${DIR}\n`);
  const set = trial('setup', '--repo', path.join(REPO_ROOT, 'fixtures', 'ts-app'), '--request', REQUEST);
  expect(set.code === 0, 'setup succeeds');
  expect(fs.readFileSync(path.join(DIR, 'PROMPT.md'), 'utf8').includes(REQUEST), 'PROMPT.md carries the request');

  const start = trial('call', 'start_session', JSON.stringify({ intent: 'IMPLEMENT', query: REQUEST }));
  expect(start.json?.phase === 'EXPLORATION', 'start_session opens EXPLORATION');
  expect(start.json?.request_source === 'user_prompt_hook', 'the server took the request from the UserPromptSubmit hook (transcript verified)');

  trial('call', 'set_query_frame', JSON.stringify({
    target_feature: { value: 'UserStore', quote: 'UserStore' },
    desired_action: { value: 'add a remove method that deletes a user by id', quote: 'Add a remove method to UserStore that deletes a user by id' },
  }));

  // exploration, through the MCP tools and Claude Code's own
  trial('call', 'query', JSON.stringify({ text: 'UserStore remove user by id' }));
  trial('call', 'find_definitions', JSON.stringify({ name: 'UserStore' }));
  trial('call', 'find_references', JSON.stringify({ name: 'UserStore' }));
  trial('call', 'get_symbols', JSON.stringify({ file: 'src/models/user.ts' }));
  trial('read', 'src/models/user.ts');
  // find_references showed one line of admin.ts (a use of UserStore): an agent that lists it reads it
  trial('read', 'src/models/admin.ts');
  trial('grep', 'users\\.(set|get)', '--content');

  // writes before READY: every one must be refused or put back
  const edit = trial('edit', 'src/models/user.ts', '--old', '  list(): User[] {', '--new', '  remove(id: UserId): boolean {\n    return this.users.delete(id);\n  }\n\n  list(): User[] {');
  expect(edit.code === 2 && edit.out.startsWith('DENIED:'), 'an Edit before READY is DENIED');
  const redirect = trial('bash', 'echo x >> README.md');
  expect(redirect.code === 2 && redirect.out.includes('DENIED:'), 'a shell redirection into the project before READY is DENIED');
  const sneaky = trial('bash', `python3 -c "open('src/config.ts', 'a').write('// sneaky\\n')"`);
  expect(/Undid 1 change/.test(sneaky.out), 'a write the parser cannot see is undone, and the agent is told');
  const status = trial('bash', 'git status --short');
  expect(!/src\//.test(status.out), 'the project has no change under src/ after the attempts');

  const u = trial('call', 'submit_understanding', JSON.stringify({
    symbols_identified: ['UserStore', 'UserStore.add', 'UserStore.find'],
    entry_points: ['UserStore.add()'],
    existing_patterns: ['fluent methods returning this, like UserStore.add'],
    files_analyzed: ['src/models/user.ts', 'src/models/admin.ts'],
    notes: 'UserStore keeps users in a Map keyed by id; add() sets, find() gets; remove() should delete and return whether it existed',
  }));
  let now = u.json?.next_phase ?? phase();

  if (now === 'SEMANTIC') {
    trial('call', 'semantic_search', JSON.stringify({ query: 'delete a user by id from the store' }));
    const reasons = u.json?.allowed_semantic_reasons as string[] | undefined;
    trial('call', 'submit_semantic', JSON.stringify({
      hypotheses: [{ text: 'UserStore.users is the Map a remove method deletes from', confidence: 'medium' }],
      semantic_reason: reasons?.[0] ?? 'no_definition_found',
      search_queries: ['delete a user by id from the store'],
    }));
    now = phase();
  }
  if (now === 'VERIFICATION') {
    trial('call', 'find_definitions', JSON.stringify({ name: 'UserStore' }));
    trial('call', 'submit_verification', JSON.stringify({
      verified: [{ hypothesis: 'UserStore.users is the Map a remove method deletes from', status: 'confirmed', evidence: { tool: 'find_definitions', target: 'UserStore', result: 'class UserStore in src/models/user.ts', files: ['src/models/user.ts'] } }],
    }));
    now = phase();
  }
  if (now === 'VALIDATION') {
    trial('call', 'validate_symbol_relevance', JSON.stringify({ target_feature: 'UserStore', symbols: ['UserStore', 'UserStore.add', 'UserStore.find'] }));
    const c = trial('call', 'confirm_symbol_relevance', JSON.stringify({
      mapped_symbols: [
        { symbol: 'UserStore', approved: true, code_evidence: 'src/models/user.ts:14' },
        { symbol: 'UserStore.add', approved: true, code_evidence: '`this.users.set(user.id, user);` in src/models/user.ts' },
        { symbol: 'UserStore.find', approved: true, code_evidence: 'src/models/user.ts:31' },
      ],
    }));
    now = c.json?.next_phase ?? phase();
  }

  if (now === 'READY') {
    trial('call', 'check_write_target', JSON.stringify({ file_path: 'src/models/user.ts' }));
    trial('read', 'src/models/user.ts', '--offset', '30', '--limit', '10');
    const ok = trial('edit', 'src/models/user.ts', '--old', '  list(): User[] {', '--new', '  remove(id: UserId): boolean {\n    return this.users.delete(id);\n  }\n\n  list(): User[] {');
    expect(ok.code === 0, 'in READY the explored file can be edited');
    const other = trial('bash', 'echo "# notes" > README.md');
    expect(other.code === 2, 'in READY a file that was not explored stays refused');
    trial('bash', 'git diff --stat');
    trial('call', 'end_session', JSON.stringify({ outcome: 'success' }));
  } else {
    process.stdout.write(`\n  (the server left the session in ${now}; the smoke run stops here)\n`);
  }
  trial('stop');
  trial('report');
  const rep = trial('report', '--json');
  try {
    const r = JSON.parse(rep.out) as { incidents: { outcome: string }[]; tool_calls: number };
    expect(r.incidents.some((i) => i.outcome === 'denied') && r.incidents.some((i) => i.outcome === 'undone'), 'the report lists the denials and the undo');
  } catch {
    expect(false, 'report --json prints JSON');
  }
  process.stdout.write(`\n${failures.length === 0 ? 'smoke run: all checks passed' : `smoke run: ${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`}\ntrial directory: ${DIR}\n`);
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main();
