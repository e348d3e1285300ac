/**
 * Claude Code hooks. They share the project database with the server (WAL, busy timeout), so the
 * edit guard sees exactly the session state and ledger the server decided on.
 *
 * PreToolUse fails closed: any error, a missing database or a malformed payload denies the call.
 * (A hook that merely exits non-zero would let the edit through, so the denial is always an
 * explicit JSON decision on stdout with exit code 0.)
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { deriveEvidence } from '../session/evidence.js';
import { type SessionRow, SessionStore } from '../session/store.js';
import { checkWriteTarget } from '../session/write-target.js';
import { analyzeBash } from './bash-writes.js';
import { type Client, format, normalize, type Payload } from './dialects.js';

export type HookEvent = 'pre-tool-use' | 'user-prompt-submit' | 'post-tool-use';
export interface HookOutput { stdout: string; exitCode: number }
export type { Client } from './dialects.js';

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const EDIT_LIKE_MCP = /(write|edit|create|delete|remove|move|rename|patch|apply|insert|replace|update|save|append)/i;

/** A denial in the client's dialect (always exit code 0: a non-zero exit would let the call through). */
export function deny(reason: string, client: Client = 'claude-code'): HookOutput {
  return { stdout: format(client, 'pre-tool-use', reason), exitCode: 0 };
}

/** The project root: the nearest folder at or above `from` that holds .code-intel/index.db. */
export function findRoot(from: string): string | undefined {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.code-intel', 'index.db'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function openShared(root: string): Database.Database {
  const db = new Database(path.join(root, '.code-intel', 'index.db'), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

function strictMode(root: string): boolean {
  if (process.env.CODE_INTEL_STRICT === '1') return true;
  try {
    return (JSON.parse(fs.readFileSync(path.join(root, '.code-intel', 'config.json'), 'utf8')) as { strict?: boolean }).strict === true;
  } catch {
    return false;
  }
}

export async function runHook(
  event: HookEvent, input: string, env: { cwd: string; projectDir?: string }, client: Client = 'claude-code',
): Promise<HookOutput> {
  if (event === 'pre-tool-use') {
    let reason: string | undefined;
    try {
      reason = await preToolUse(normalize(client, parse(input)), env);
    } catch (e) {
      reason = `the write guard failed (${(e as Error)?.message ?? e}); denying to be safe. Check the project's .code-intel/ folder and the hook command in the client's settings.`;
    }
    return { stdout: format(client, event, reason), exitCode: 0 };
  }
  // recording hooks never block the user; a failure is reported on stderr
  const ALLOW: HookOutput = { stdout: format(client, event, undefined), exitCode: 0 };
  try {
    const p = normalize(client, parse(input));
    const root = findRoot(env.projectDir ?? p.cwd ?? env.cwd);
    if (!root) return ALLOW;
    const db = openShared(root);
    try {
      if (event === 'user-prompt-submit') recordPrompt(db, p);
      else recordRead(db, root, p);
    } finally {
      db.close();
    }
  } catch (e) {
    process.stderr.write(`code-intel ${event}: ${(e as Error)?.message ?? e}\n`);
  }
  return ALLOW;
}

function parse(input: string): Record<string, unknown> {
  let p: unknown;
  try {
    p = JSON.parse(input);
  } catch {
    throw new Error('the hook payload is not JSON');
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new Error('the hook payload is not an object');
  return p as Record<string, unknown>;
}

/** The reason to deny the call, or undefined to let it through. */
async function preToolUse(p: Payload, env: { cwd: string; projectDir?: string }): Promise<string | undefined> {
  if (typeof p.tool_name !== 'string' || !p.tool_input || typeof p.tool_input !== 'object') throw new Error('malformed PreToolUse payload (tool_name / tool_input missing)');
  const start = env.projectDir ?? p.cwd ?? env.cwd;
  const root = findRoot(start);
  if (!root) return `no code-intel database at or above ${start}: run \`code-intel init\` (or \`code-intel index\`) in the project`;
  const db = openShared(root);
  try {
    const store = new SessionStore(db);
    const session = store.active();
    const tool = p.tool_name;
    if (!session) {
      if (!strictMode(root) || !isWriteTool(tool)) return undefined;
      if (tool === 'Bash') {
        const a = await analyzeBash(String(p.tool_input.command ?? ''));
        if (a.writes.length === 0 && !a.parseError) return undefined;
      }
      return 'strict mode: writing needs an active /code session in READY. Start one with start_session.';
    }
    const verdict = await judge(root, store, session, tool, p.tool_input);
    if (verdict) {
      store.record(session.id, { tool: 'hook:PreToolUse', args: { tool_name: tool, ...pick(p.tool_input) }, phase: session.phase, outcome: 'blocked', files: [], symbols: [], summary: verdict });
    }
    return verdict;
  } finally {
    db.close();
  }
}

function isWriteTool(tool: string): boolean {
  return EDIT_TOOLS.has(tool) || tool === 'Bash' || (tool.startsWith('mcp__') && !tool.startsWith('mcp__code-intel__') && EDIT_LIKE_MCP.test(tool.split('__').pop() ?? ''));
}

function pick(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['file_path', 'notebook_path', 'path', 'command']) if (typeof input[k] === 'string') out[k] = String(input[k]).slice(0, 500);
  return out;
}

/** The reason to deny, or undefined to allow. */
async function judge(root: string, store: SessionStore, s: SessionRow, tool: string, input: Record<string, unknown>): Promise<string | undefined> {
  const phase = s.phase;
  const writable = s.intent === 'IMPLEMENT' || s.intent === 'MODIFY';
  const notReady = `the /code session ${s.id} is in ${phase}; edits are allowed only in READY${writable ? '' : ` (and never in ${s.intent} sessions)`}. ` +
    'Finish the phases (get_session_status says what is next), or abort_session to work without it.';
  const ledger = store.ledger(s.id);
  const explored = deriveEvidence(ledger).exploredFiles;
  const approvedNew = new Set(ledger.filter((e) => e.tool === 'check_write_target' && e.outcome === 'ok').map((e) => normalizeRel(root, String(e.args.file_path))));
  const checkFile = (file: string): string | undefined => {
    const v = checkWriteTarget(root, file, true, explored);
    if (!v.allowed) return `${v.error}. ${v.hint}`;
    if (v.new_file && !approvedNew.has(v.file)) return `'${v.file}' is a new file: call check_write_target with allow_new_files: true first.`;
    return undefined;
  };

  if (EDIT_TOOLS.has(tool) || (tool.startsWith('mcp__') && !tool.startsWith('mcp__code-intel__') && EDIT_LIKE_MCP.test(tool.split('__').pop() ?? ''))) {
    if (phase !== 'READY' || !writable) return notReady;
    const file = input.file_path ?? input.notebook_path ?? input.path;
    if (typeof file !== 'string' || !file) return `${tool} has no file path the guard can check`;
    return checkFile(file);
  }
  if (tool === 'Bash') {
    const command = input.command;
    if (typeof command !== 'string') return 'Bash call without a command string';
    const a = await analyzeBash(command);
    if (phase !== 'READY' || !writable) {
      if (a.writes.length > 0) return `${notReady} This command writes: ${a.writes.map((w) => w.what).slice(0, 3).join('; ')}`;
      if (a.parseError) return `${notReady} The command could not be parsed, so it may write.`;
      return undefined;
    }
    for (const w of a.writes) {
      for (const t of w.targets ?? []) {
        const why = checkFile(t);
        if (why) return `${w.what}: ${why}`;
      }
    }
    return undefined;
  }
  return undefined; // reads and everything else
}

function normalizeRel(root: string, p: string): string {
  return path.relative(root, path.resolve(root, p)).split(path.sep).join('/');
}

function recordPrompt(db: Database.Database, p: Payload): void {
  if (typeof p.prompt !== 'string' || !p.prompt.trim()) return;
  new SessionStore(db).recordPrompt(p.prompt, p.session_id ?? null);
}

function recordRead(db: Database.Database, root: string, p: Payload): void {
  const store = new SessionStore(db);
  const s = store.active();
  if (!s || typeof p.tool_name !== 'string') return;
  const files: string[] = [];
  const add = (f: unknown) => {
    if (typeof f !== 'string') return;
    const rel = normalizeRel(root, f);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && fs.existsSync(path.join(root, rel))) files.push(rel);
  };
  if (p.tool_name === 'Read') add(p.tool_input?.file_path);
  else if (p.tool_name === 'Grep') {
    // in content mode the agent saw matching lines of these files
    const r = p.tool_response as { mode?: string; filenames?: unknown[] } | undefined;
    if (r?.mode === 'content' && Array.isArray(r.filenames)) r.filenames.forEach(add);
  }
  if (files.length === 0) return;
  store.record(s.id, { tool: `hook:${p.tool_name}`, args: pick(p.tool_input ?? {}), phase: s.phase, outcome: 'ok', files, symbols: [], summary: 'read by the agent' });
}
