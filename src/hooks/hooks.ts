/**
 * The client hooks: the write guard (PreToolUse), the effect check that runs at every event, and
 * the recorders of the user's prompt and of the files the agent read. They share the project
 * database with the server (WAL, busy timeout), so the guard sees exactly the session state and
 * ledger the server decided on, under the seal (guard/seal.ts).
 *
 * Two layers, each complete for what it covers:
 *  - before a call: a reason to deny it, from what the call names (edit paths, the writes a shell
 *    command spells) — clear messages, nothing touched;
 *  - at every event (pre, post, failure, stop, the next prompt): what really changed in the project
 *    since the last accepted state; anything the session may not change is put back (guard/effects.ts).
 *
 * PreToolUse fails closed: any error, a missing, empty or foreign database, or a malformed payload
 * denies the call. (A hook that merely exits non-zero would let it through, so a denial is always
 * an explicit JSON decision on stdout with exit code 0.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { anchoredRoot, readAnchor } from '../guard/anchor.js';
import { asAccepted, describeUndo, enforceEffects, undoToAnchor } from '../guard/effects.js';
import { guardMode, type GuardMode } from '../guard/mode.js';
import { isGuardOwned } from '../guard/protected.js';
import { readShown, type ReadShown } from '../guard/read-shown.js';
import { isMarked } from '../guard/seal.js';
import { TreeSnapshot } from '../guard/tree-snapshot.js';
import { transcriptHasToolUse, transcriptPromptLine, transcriptToolResult, validTranscript } from '../guard/transcript.js';
import { SessionStore, type ShownLines } from '../session/store.js';
import { grepShownLines } from '../guard/grep-shown.js';
import { readResultAgrees } from '../guard/evidence-check.js';
import { asWritten, checkWriteTarget, processRelative, realpathDeep, unsafeName } from '../session/write-target.js';
import { CODEX_HOOKS_FILE, CURSOR_HOOKS_FILE } from '../clients/hook-command.js';
import { OPENCODE_PLUGIN_FILE } from '../clients/opencode-plugin.js';
import { PACKAGE_ROOT } from '../util/paths.js';
import type { BashWrite } from './bash-writes.js';
import { patternFolder, patternMatches } from './glob-targets.js';
import { type Client, format, normalize, patchFiles, type Payload } from './dialects.js';

export type HookEvent = 'pre-tool-use' | 'user-prompt-submit' | 'post-tool-use' | 'stop';
export const HOOK_EVENTS: HookEvent[] = ['pre-tool-use', 'user-prompt-submit', 'post-tool-use', 'stop'];
export interface HookOutput { stdout: string; exitCode: number }
export type { Client } from './dialects.js';

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const EDIT_LIKE_MCP = /(write|edit|create|delete|remove|move|rename|patch|apply|insert|replace|update|save|append|exec|run|shell|command|copy|commit|checkout|stash|merge|rebase|clone|restore|revert|mkdir|chmod|install|upload|download)/i;
/** short verbs that write, as whole words of a tool's name (`add` is no part of `address`) */
const WRITE_WORDS = new Set(['add', 'reset', 'init', 'switch', 'clean', 'touch', 'push', 'pull', 'tag', 'branch', 'set', 'put', 'post', 'sync', 'format', 'generate', 'build', 'cherry', 'pick', 'mv', 'cp', 'rm',
  // red team adv24: names that write and said none of the above
  'modify', 'unlink', 'rmdir', 'upsert', 'extract', 'chown', 'export', 'dump', 'migrate', 'truncate', 'eval', 'drop', 'alter', 'kill',
  'do', 'perform', 'invoke', 'call', 'send', 'deploy', 'publish', 'release', 'import', 'load', 'unzip', 'untar', 'mount', 'link', 'symlink', 'sql',
  // red team adv25
  'store', 'fix', 'purge', 'wipe', 'erase', 'zip', 'compress', 'archive', 'tee', 'stage', 'record']);
/** words a read-only tool's name says (get_issue, list_files, git_status, search_code) */
const READ_WORDS = new Set(['get', 'list', 'read', 'search', 'find', 'show', 'status', 'log', 'diff', 'view', 'fetch', 'describe', 'lookup', 'inspect', 'info', 'help', 'count', 'check', 'validate', 'resolve', 'explain', 'browse', 'stat', 'grep', 'glob', 'head', 'tail', 'blame', 'tree', 'ls', 'cat', 'which', 'whoami', 'version']);
const nameWords = (tool: string): string[] => (tool.split('__').pop() ?? '').replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z\d]+/).filter(Boolean);
/** Does a tool's name say it may write (a file, the repository)? */
const writesByName = (tool: string): boolean => EDIT_LIKE_MCP.test(tool.split('__').pop() ?? '') || nameWords(tool).some((w) => WRITE_WORDS.has(w));
/**
 * What another server's tool may be while nothing may change: one whose name says it only reads.
 * Any other runs only in READY, judged by the files it names (red team adv23: mcp__git__git_commit,
 * git_add, git_reset, git_init and mcp__fs__copy_file named no write the guard knew).
 */
const readsOnly = (tool: string): boolean => nameWords(tool).some((w) => READ_WORDS.has(w)) && !writesByName(tool);
const OWN_TOOLS = 'mcp__code-intel__';
/** Claude Code's tools that only read (they run even when the effect check cannot). */
const READ_ONLY_TOOLS = new Set(['Read', 'Grep', 'Glob', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'Task', 'ExitPlanMode', 'BashOutput']);
/** what the guard will read of a payload and of a command: past this, it denies rather than stall */
/**
 * The largest payload a hook reads. A Read of 2,000 long lines, or a Grep in content mode, sends
 * megabytes (agent trial tr67: a Grep that matched a source map sent more than 1 MB, and the Read
 * or Grep went unrecorded); JSON.parse of 32 MB takes ~0.2 s.
 */
export const MAX_PAYLOAD = 32 * 1024 * 1024;
const MAX_COMMAND = 64 * 1024;
const MAX_PATH = 4096;
/** named targets × the folders a command reaches that the guard will judge (each a few file-system calls) */
const MAX_TARGET_CHECKS = 20_000;
/** Claude Code's Bash default and maximum timeouts: how long a command can be in flight */
const BASH_DEFAULT_MS = 120_000;
const BASH_MAX_MS = 600_000;

/** A denial in the client's dialect (always exit code 0: a non-zero exit would let the call through). */
export function deny(reason: string, client: Client = 'claude-code'): HookOutput {
  return { stdout: format(client, 'pre-tool-use', reason), exitCode: 0 };
}

/** The project root: the nearest folder at or above `from` that holds .code-intel/index.db. */
export function findRoot(from: string): string | undefined {
  return findRoots(from)[0];
}

/** Every folder at or above `from` that holds .code-intel/index.db, nearest first. */
function findRoots(from: string): string[] {
  const out: string[] = [];
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.code-intel', 'index.db'))) out.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

/**
 * The project the call belongs to. Nearly always the one folder with a code-intel index at or
 * above the start; where indexes nest, an outer project in a guarded /code turn comes first: a
 * fresh index made inside it (`code-intel index` in a subfolder the client was started in) must
 * not take the hooks away from the turn. (Its files are the outer project's, and undone there.)
 */
function chooseRoot(start: string): string | undefined {
  const roots = findRoots(start);
  if (roots.length < 2) return roots[0];
  // only a project whose records the guard itself sealed (its marker is in the user's state
  // folder): an index crafted above the project must not take the turn over either
  for (const root of [...roots].reverse().filter(isMarked)) {
    const db = openShared(root); // a broken outer index fails closed, as the nearest would
    try {
      if (guardMode(new SessionStore(db), root).kind !== 'off') return root;
    } finally {
      db.close();
    }
  }
  return roots[0];
}

/** Opens the project database; refuses one that is not a code-intel index (empty, damaged, foreign). */
function openShared(root: string): Database.Database {
  const db = new Database(path.join(root, '.code-intel', 'index.db'), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // an index has its meta table (the session tables are made by the first SessionStore, the hook's too)
  const ours = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).all().length === 1;
  if (!ours) {
    db.close();
    throw new Error('the project database is empty, damaged or not a code-intel index; run `code-intel index` to rebuild it');
  }
  return db;
}

export async function runHook(
  event: HookEvent, input: string, env: { cwd: string; projectDir?: string }, client: Client = 'claude-code',
): Promise<HookOutput> {
  try {
    let p: Payload;
    if (input.length > MAX_PAYLOAD) {
      if (event === 'pre-tool-use') throw new Error(`the hook payload is larger than ${MAX_PAYLOAD} bytes`);
      // a recording event still runs the guard's check of what changed; only the call goes unrecorded
      process.stderr.write(`code-intel ${event}: the hook payload is larger than ${MAX_PAYLOAD} bytes: the call is not recorded\n`);
      p = {};
    } else p = normalize(client, parse(input));
    return { stdout: await handle(event, p, env, client), exitCode: 0 };
  } catch (e) {
    const why = (e as Error)?.message ?? String(e);
    if (event === 'pre-tool-use') {
      return deny(`the write guard failed (${why}); denying to be safe. Check the project's .code-intel/ folder and the hook command in the client's settings.`, client);
    }
    // the recording and checking events never block the user; a failure is reported on stderr
    process.stderr.write(`code-intel ${event}: ${why}\n`);
    return { stdout: format(client, event, undefined), exitCode: 0 };
  }
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

async function handle(event: HookEvent, p: Payload, env: { cwd: string; projectDir?: string }, client: Client): Promise<string> {
  if (event === 'pre-tool-use' && (typeof p.tool_name !== 'string' || !p.tool_input || typeof p.tool_input !== 'object')) {
    throw new Error('malformed PreToolUse payload (tool_name / tool_input missing)');
  }
  const start = env.projectDir ?? p.cwd ?? env.cwd;
  // a project in a guarded turn has an anchor (guard/anchor.ts): it is the project, whatever
  // happened to its database, and before any index in a folder above it
  const root = anchoredRoot(start) ?? chooseRoot(start);
  if (!root) {
    const tool = p.tool_name ?? '';
    const mayWrite = EDIT_TOOLS.has(tool) || tool === 'ApplyPatch' || tool === 'Bash' || (tool.startsWith('mcp__') && !tool.startsWith(OWN_TOOLS));
    if (event === 'pre-tool-use' && mayWrite) return format(client, event, `no code-intel database at or above ${start}: run \`code-intel init\` (or \`code-intel index\`) in the project`);
    return format(client, event, undefined);
  }
  let db: Database.Database;
  try {
    db = openShared(root);
  } catch (e) {
    if (!readAnchor(root)) throw e;
    return recordsGone(event, p, root, client, (e as Error)?.message ?? String(e));
  }
  try {
    const store = new SessionStore(db);
    const mode = guardMode(store, root);
    if (mode.kind === 'off') {
      if (event === 'user-prompt-submit') recordPrompt(store, root, p, client, false);
      return format(client, event, undefined);
    }
    let notice: string;
    try {
      // (a turn's end hashes every file: what a stat hides is undone before the turn is over)
      const report = enforceEffects(store, root, mode, event === 'stop' || event === 'user-prompt-submit');
      notice = describeUndo(report, event === 'user-prompt-submit');
      if (report.failed.length > 0 && event === 'pre-tool-use' && !READ_ONLY_TOOLS.has(p.tool_name ?? '') && !(p.tool_name ?? '').startsWith(OWN_TOOLS)) {
        return format(client, event, `${notice} Only reading tools run until then.`);
      }
    } catch (e) {
      // the effect check could not run (no git on PATH, a broken private store): reading stays
      // possible, anything that may write is refused while the guard is blind
      const cause = (e as Error)?.message?.split('\n')[0] ?? String(e);
      const why = `the write guard cannot check what changed (${cause})${/time limit/.test(cause) ? '' : '; is git installed?'}`;
      if (event !== 'pre-tool-use') throw new Error(why);
      if (!READ_ONLY_TOOLS.has(p.tool_name ?? '') && !(p.tool_name ?? '').startsWith(OWN_TOOLS)) return format(client, event, `${why} Only reading tools run until it can.`);
      notice = why;
    }
    const cwd = p.cwd && path.isAbsolute(p.cwd) ? p.cwd : root;
    if (event === 'pre-tool-use') {
      const verdict = await judge(store, root, cwd, mode, p);
      if (verdict && mode.session) {
        store.record(mode.session.id, {
          tool: 'hook:PreToolUse', args: { tool_name: p.tool_name, ...pick(p.tool_input ?? {}) }, phase: mode.session.phase, outcome: 'blocked', files: [], symbols: [], summary: verdict,
        });
      }
      return format(client, event, verdict ? [notice, verdict].filter(Boolean).join(' ') : undefined, notice || undefined, p.hook_event_name);
    }
    if (event === 'post-tool-use') {
      if (p.tool_name === 'Bash') {
        const f = inFlight(store);
        if (f && (f.id === null || f.id === (p.tool_use_id ?? null))) store.setGuardValues({ inflight: '{}' });
      } else recordRead(db, store, root, p, client);
    } else if (event === 'stop') {
      // the agent's turn is over: nothing of it runs — once the transcript shows the command's end
      // (a Stop sent from inside the command, before it ended, cleared the mark: red teams adv16–18)
      // (in the conversation of the user's prompt: a transcript made elsewhere, under a client folder a
      // forged payload's environment names, shows what its writer wants — red team adv29)
      const f = inFlight(store);
      const t = validTranscript(p.transcript_path);
      const ours = t !== undefined && ownConversation(store, t, 'conversation');
      if (f && (f.id === null || !TRANSCRIPT_CLIENTS.has(client) || (ours && transcriptToolResult(t, f.id) !== undefined))) store.setGuardValues({ inflight: '{}' });
    } else if (event === 'user-prompt-submit') {
      recordPrompt(store, root, p, client, true);
    }
    return format(client, event, undefined, notice || undefined, p.hook_event_name, p.stop_hook_active === true);
  } finally {
    db.close();
  }
}

/**
 * A guarded project whose database is gone, empty or unreadable: every change since the state the
 * guard last accepted is put back (the anchor outside the project holds it), reading tools run, and
 * anything that may write is refused.
 */
function recordsGone(event: HookEvent, p: Payload, root: string, client: Client, why: string): string {
  let notice: string;
  try {
    notice = describeUndo(undoToAnchor(root));
  } catch (e) {
    notice = `The write guard cannot check what changed (${(e as Error)?.message?.split('\n')[0] ?? e}).`;
  }
  const reason = `the write guard's records are unreadable (${why}). ${notice} Writes stay refused until a person runs \`code-intel guard reset\` in a terminal.`;
  if (event !== 'pre-tool-use') return format(client, event, undefined, notice || undefined, p.hook_event_name, p.stop_hook_active === true);
  const tool = p.tool_name ?? '';
  if (READ_ONLY_TOOLS.has(tool) || tool.startsWith(OWN_TOOLS)) return format(client, event, undefined, notice || undefined, p.hook_event_name);
  return format(client, event, reason);
}

function pick(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['file_path', 'notebook_path', 'path', 'command']) if (typeof input[k] === 'string') out[k] = String(input[k]).slice(0, 500);
  for (const k of ['offset', 'limit']) if (typeof input[k] === 'number') out[k] = input[k]; // which lines a Read showed
  return out;
}

/** The reason to deny the call, or undefined to let it run (its effects are checked afterwards). */
async function judge(store: SessionStore, root: string, cwd: string, mode: Exclude<GuardMode, { kind: 'off' }>, p: Payload): Promise<string | undefined> {
  const tool = p.tool_name!;
  const input = p.tool_input!;
  if (tool.startsWith(OWN_TOOLS)) return undefined; // the server gates its own tools
  // only a session that can reach READY is told to finish its phases (INVESTIGATE/QUESTION never edit)
  const canEdit = mode.kind === 'locked' && (mode.session?.intent === 'IMPLEMENT' || mode.session?.intent === 'MODIFY');
  const locked = mode.kind !== 'locked' ? undefined : canEdit ? `${mode.why} Finish the phases first (get_session_status says what is next).` : mode.why;
  // Gemini's save_memory appends to the user's GEMINI.md, which every later session reads as
  // standing instructions: not from inside a /code turn (red team adv29)
  if (tool === 'SaveMemory') return 'save_memory writes Gemini\'s standing instructions (~/.gemini/GEMINI.md), read by every later session: not during a /code turn. Tell the user what to remember instead.';
  if (tool === 'Batch') {
    // OpenCode's batch runs its calls itself, past the plugin's hooks: each is judged here as its own
    const calls = Array.isArray(input.calls) ? (input.calls as Payload[]) : [];
    if (calls.length === 0) return 'batch names no tool call the guard can check';
    for (const c of calls) {
      if (c.tool_name === 'Batch' || typeof c.tool_name !== 'string') return 'batch holds a call the guard cannot check (a batch in a batch, or no tool)';
      const why = await judge(store, root, cwd, mode, { ...p, ...c });
      if (why) return `batch: ${c.tool_name}: ${why}`;
    }
    return undefined;
  }
  if (EDIT_TOOLS.has(tool)) {
    // every path the call names, not the first: the tool writes the one it reads (NotebookEdit's
    // notebook_path beside a file_path the guard would allow)
    const files = [input.file_path, input.notebook_path, input.path].filter((f) => f !== undefined && f !== null);
    if (files.length === 0 || files.some((f) => typeof f !== 'string' || !f)) return `${tool} has no file path the guard can check`;
    for (const f of files as string[]) {
      const why = checkPath(root, cwd, mode, f, locked);
      if (why) return why;
    }
    return undefined;
  }
  if (tool === 'ApplyPatch') {
    // Codex's apply_patch (dialects.ts): every file the patch names must be writable
    const files = Array.isArray(input.file_paths) ? input.file_paths.filter((f): f is string => typeof f === 'string' && !!f) : [];
    if (files.length === 0) return 'apply_patch names no file the guard can check';
    for (const f of files) {
      const why = checkPath(root, cwd, mode, f, locked);
      if (why) return files.length > 1 ? `${f.slice(0, 160)}: ${why}` : why;
    }
    return undefined;
  }
  if (tool === 'Bash') {
    const command = input.command;
    if (typeof command !== 'string') return 'Bash call without a command string';
    if (command.length > MAX_COMMAND) return `the command is longer than ${MAX_COMMAND} characters, too long for the write guard to check; split it or put it in a script file outside the project`;
    if (input.run_in_background === true) return 'a /code turn runs commands in the foreground only: a background process could change files after the guard has looked. Run it without run_in_background.';
    const { analyzeBash } = await import('./bash-writes.js'); // the bash grammar loads only for Bash calls
    const a = await analyzeBash(command);
    // a patch in the command (`apply_patch <<'EOF' … EOF`, which Codex applies itself): its files are written
    if (command.includes('*** Begin Patch')) {
      const files = patchFiles(command);
      a.writes.push({ what: 'apply_patch', targets: files.length > 0 ? files : null });
    }
    // where each write lands: a relative target after `cd DIR` is written in DIR
    const base = (w: BashWrite) => (w.dir ? path.resolve(cwd, w.dir) : cwd);
    // `rm link` removes the link, not what it points to (`rm link/` goes through it)
    const removesItself = (w: BashWrite, t: string) => w.unlinks === true && !t.endsWith('/');
    const itself = new Set(a.writes.flatMap((w) => (w.targets ?? []).filter((t) => removesItself(w, t)).map((t) => asWritten(base(w), t))));
    const ignored = ignoredTargets(root, a.writes.flatMap((w) => (w.targets ?? []).map((t) => asWritten(base(w), t))), itself);
    // each named target is judged in every folder the command reaches: bounded, so the hook answers in time
    const checks = a.writes.reduce((n, w) => n + (w.targets?.length ?? 0), 0) * (1 + (a.reached?.length ?? 0));
    if (checks > MAX_TARGET_CHECKS) return `the command names ${a.writes.reduce((n, w) => n + (w.targets?.length ?? 0), 0)} files to write across ${a.reached?.length ?? 1} folders it moves to: too many for the write guard to check in time; split it into smaller commands`;
    if (a.background.length > 0) return `a /code turn runs commands in the foreground only (this one detaches: ${a.background[0]!.slice(0, 80)}): a background process could change files after the guard has looked.`;
    const refused = a.writes.find((w) => w.refuse);
    if (refused) return `${refused.what.slice(0, 160)}: ${refused.refuse}`;
    // a redirection the grammar fails on is one the guard does not see (red team adv38: `echo x 1<>FILE` wrote FILE unjudged)
    // (or a command substitution: adv39 hid one in a subscript behind a case pattern's `)`)
    // (a substitution in quotes is code bash may evaluate later — `test -v 'a[$(…)]'`: red team adv39 — a lone backtick is not)
    // (or a brace expansion: the grammar fails on `{rm,-rf,/root/x}` as a command, bash runs it — red team adv48)
    if (a.parseError && (/[<>`]|\$\(|\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/.test(literalsOut(command).replace(/&?\d*>>?&?\s*(?:\/dev\/null|\d+)(?![\w/.-])/g, '')) || /\$\(|`[^`]*`/.test(command.replace(/\\./gs, '')))) return 'the write guard cannot read this command (the bash grammar fails on part of it, with a redirection, a command substitution or a brace expansion in it, e.g. `<>`, `{a,b}`): write it in plainer shell';
    const mayLink = laterThroughLink(a.writes, base) ?? throughFolderMadeUnseen(a.writes, base);
    if (mayLink) return mayLink;
    // every folder the command may be in when it writes (null: one the guard cannot tell), and the project's real path
    const reached = (a.reached ?? []).map((d) => (d ? path.resolve(cwd, d) : cwd));
    const realRoot = fs.realpathSync(root);
    for (const w of a.writes) {
      if (/^git clean\b/.test(w.what)) return 'git clean deletes untracked and git-ignored files (.env, local data, build output) that the guard cannot put back; remove the files you mean by name.';
      const patterned = patternedWrite(w, base(w), root, realRoot, reached, a.reached?.includes(null) ?? false, (folder, file) => checkPath(root, folder, mode, file, locked));
      if (patterned) return `${w.what.slice(0, 160)}: ${patterned}`;
      if (w.targets === null) {
        if (locked && /^git\b/.test(w.what)) return `${locked} This command changes the repository: ${w.what.slice(0, 120)}`;
        // its effect is checked when it returns — in the project only: one that may write anything (an
        // install, git, a script) run in a folder outside it and the scratch area is refused (red team
        // adv45: `cd /root && npm init -y`, `cd /other/repo && git reset --hard`)
        // (every folder the command reaches: a loop's next pass, a function called after a cd — red team adv46)
        if (w.dir === null || a.reached?.includes(null)) return `${w.what.slice(0, 160)}: it runs in a folder the guard cannot tell before it runs (cd to an expansion, cd -, popd …) and may write there. Run it from the project, or cd to a plain path.`;
        for (const folder of [base(w), ...reached].map((f) => path.resolve(f, w.runsIn ?? '.'))) {
          const real = landing(folder);
          if (isOutside(path.relative(realRoot, real)) && !isScratch(real))
            return `${w.what.slice(0, 160)}: it runs in ${folder.slice(0, 120)}, outside the project, and may write there, where the guard cannot see or undo it. Run it from the project (or in ${os.tmpdir()}).`;
        }
        continue;
      }
      for (const t of w.targets) {
        // a path given to a program the guard does not know: refused where it is outside the project
        // and the scratch area (inside, the effect check sees what it did)
        if (w.given) {
          // (a relative word is judged from every folder the command runs it in — red team adv44: `cd /root && shuf -o .bashrc`)
          const relative = !path.isAbsolute(t) && !t.startsWith('~');
          if (relative && (w.dir === null || a.reached?.includes(null)))
            return `${w.what.slice(0, 160)}: the command moves to a folder the guard cannot tell before it runs, then gives '${t.slice(0, 120)}' to a program that may write a file of that name there. Run it from the project (or cd to a plain path), or name files by their full paths.`;
          for (const folder of [base(w), ...(relative ? reached : [])]) {
            const why = outsideGiven(root, folder, t);
            if (why) return `${w.what.slice(0, 160)}: ${why}`;
          }
          continue;
        }
        if (w.copiesLinks) {
          // a source that is a link: the copy points where it does, and a later write through the copy
          // lands there — refused where that is outside the project and the scratch area (the effect
          // check sees the rest)
          const why = copiedLink(root, asWritten(base(w), t));
          if (why) return `${w.what.slice(0, 160)}: ${why}`;
          continue;
        }
        const relative = !path.isAbsolute(t);
        if (relative && (w.dir === null || a.reached?.includes(null))) {
          return `${w.what.slice(0, 160)}: the command moves to a folder the guard cannot tell before it runs (cd to an expansion, cd -, popd, env -C, a \`..\` after a name or after cd -P, a trap or lastpipe), then writes '${t.slice(0, 120)}' by a relative path. Name the file by its full path, or cd to a plain path.`;
        }
        // build output and the like (git-ignored): not the project's files — but still judged in the
        // other folders the command reaches (red team adv37: `f(){ echo x >> .env; }; cd /root; f`)
        if (!ignored.has(asWritten(base(w), t))) {
          const why = checkPath(root, base(w), mode, t, locked, removesItself(w, t));
          if (why) return `${w.what.slice(0, 160)}: ${why}`;
        }
        // the other folders the command reaches: a write there inside the project is checked by its
        // effect; one outside it (or into the guard's files) only here
        for (const d of relative ? a.reached ?? [] : []) {
          const folder = d ? path.resolve(cwd, d) : cwd;
          const other = path.resolve(folder, t);
          if (other === path.resolve(base(w), t)) continue;
          const rel = path.relative(root, other);
          // outside as named, or where it lands (`link/../x`: the link is followed first)
          const landed = landing(asWritten(folder, t));
          const outside = isOutside(rel) || processRelative(landed) || isOutside(path.relative(fs.realpathSync(root), landed));
          // outside, judged as a path named there is (scratch yes; code-intel's own files, anywhere else no)
          const why = outside ? checkPath(root, folder, mode, t, locked) : isGuardOwned(rel.split(path.sep).join('/')) ? 'one of the write guard\'s files' : undefined;
          if (why) return `${w.what.slice(0, 160)}: after cd, '${t.slice(0, 120)}' may be written as ${other.slice(0, 200)}: ${why}. Name the file by its full path.`;
        }
      }
    }
    if (!a.readOnly) {
      // while it runs, hook evidence (a prompt, a Read) may be forged from inside it: none is recorded then
      const ms = Math.min(typeof input.timeout === 'number' ? input.timeout : BASH_DEFAULT_MS, BASH_MAX_MS) + 5_000;
      store.setGuardValues({ inflight: JSON.stringify({ id: p.tool_use_id ?? null, until: Date.now() + ms }) });
    }
    return undefined;
  }
  // another server's tool (code-intel's own returned above) that does not say it only reads: not
  // before READY, and in READY judged by the files it names
  const otherWrites = tool.startsWith('mcp__') && !readsOnly(tool);
  if (locked && otherWrites) return `${locked} (${tool} may change files or the repository: another server's tools that do not only read run in READY)`;
  if (!READ_ONLY_TOOLS.has(tool) && (otherWrites || writesByName(tool))) {
    // another server's tool or a client's edit tool the dialects do not map: the files it names are
    // judged like an edit's (outside the project, only this check can see them)
    for (const f of namedPaths(input)) {
      const why = checkPath(root, cwd, mode, f, locked);
      if (why) return `${tool} ${f.slice(0, 160)}: ${why}`;
    }
  }
  return undefined; // reads, and tools whose effect is checked when they return
}

/** argument names that hold a file or folder (file_path, filePath, destination, paths, to, target_notebook …) */
const PATH_KEY = /(^|_)(paths?|files?|filename|notebook|dir|directory|dest|destination|target|source|src|output|from|to|uri|where|location)$/;

/** The path of a file: URI (`file:///a%20b` → /a b; a host part is kept as a path that lands nowhere allowed). */
function fileUriPath(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname) || '/';
  } catch {
    return uri.replace(/^file:\/\//i, '/');
  }
}

/** The file paths a tool's arguments name (top level and one level into objects and lists). */
function namedPaths(input: Record<string, unknown>, depth = 0): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    const key = k.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) {
      // a file: URI names a file (red team adv25: `{"uri": "file:///…"}` was not judged); other schemes are no paths
      if (typeof x === 'string' && PATH_KEY.test(key) && /^file:\/\//i.test(x)) out.push(fileUriPath(x));
      else if (typeof x === 'string' && PATH_KEY.test(key) && x && !/^[a-z][a-z0-9+.-]*:\/\//i.test(x)) out.push(x);
      else if (x && typeof x === 'object' && depth < 2) out.push(...namedPaths(x as Record<string, unknown>, depth + 1));
    }
  }
  return out.slice(0, 100);
}

/** The targets (absolute, as written) that are inside the project, not the guard's, and ignored by git. */
function ignoredTargets(root: string, targets: string[], itself: ReadonlySet<string> = new Set()): Set<string> {
  const rels = new Map<string, string>();
  for (const t of targets) {
    if (t.length > MAX_PATH || unsafeName(t)) continue;
    const rel = path.relative(root, path.resolve(t)).split(path.sep).join('/');
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || isGuardOwned(rel)) continue;
    // an ignored path is build output only where the write lands in the project (not through a
    // symlink out of it, not in code-intel's own program)
    const real = landing(t, itself.has(t));
    if (processRelative(real) || (!itself.has(t) && hardLinked(real))) continue; // judged by checkPath
    const realRel = path.relative(fs.realpathSync(root), real);
    if (realRel.startsWith('..') || path.isAbsolute(realRel) || inOwnCode(root, real) || isGuardOwned(realRel.split(path.sep).join('/'))) continue;
    rels.set(rel, t);
  }
  if (rels.size === 0) return new Set();
  // a folder pattern (`dist/`) matches a path git knows is a folder: ask for both spellings (not for
  // a link removed itself: git refuses a path beyond a symbolic link)
  const ignored = new TreeSnapshot(root).ignored([...rels].flatMap(([r, t]) => (itself.has(t) ? [r] : [r, r + '/'])));
  return new Set([...rels].filter(([rel]) => ignored.has(rel) || ignored.has(rel + '/')).map(([, t]) => t));
}

/**
 * Where a write to `written` (absolute, `..` as written) lands: through every symlink on the way,
 * dangling ones included, a `..` after a link going up from where it led; with `itself` (removing
 * it), the last name is not followed: the link itself is what changes.
 */
function landing(written: string, itself = false): string {
  try {
    return realpathDeep(written, itself);
  } catch {
    return path.resolve(written); // a symlink loop: the write fails
  }
}

const isOutside = (rel: string) => rel.startsWith('..') || path.isAbsolute(rel);

/**
 * Why a write to targets written as patterns is refused: from every folder it may run in, the folder
 * a pattern matches in lies outside the project and the scratch area, or a file it matches now is
 * refused as a path (a hard link, a link out, the guard's own files). Inside the project the effect
 * check sees what changed, as for any target the guard cannot name.
 */
function patternedWrite(w: BashWrite, from: string, root: string, realRoot: string, reached: readonly string[], unknownFolder: boolean, check: (folder: string, file: string) => string | undefined): string | undefined {
  for (const g of w.globs ?? []) {
    const relative = !path.isAbsolute(g);
    if (relative && (w.dir === null || unknownFolder)) return `the command moves to a folder the guard cannot tell before it runs, then writes files matching '${g.slice(0, 120)}'. Name the files by their full paths, or cd to a plain path.`;
    for (const folder of relative ? [from, ...reached] : [from]) {
      const where = landing(patternFolder(folder, g));
      if (isOutside(path.relative(realRoot, where)) && !isScratch(where)) return `it writes files matching '${g.slice(0, 120)}' in ${where.slice(0, 160)}, outside the project, where the guard cannot see or undo it. Name the files, in the project or in ${os.tmpdir()}.`;
      const matches = patternMatches(folder, g);
      if (matches === null) return `'${g.slice(0, 120)}' matches too many files for the write guard to check: name the files`;
      // each file it names now (and the name as written): inside the project the effect check sees
      // what changed (the guard's own files aside); outside it, judged as a path named there
      for (const m of matches) {
        const rel = path.relative(realRoot, landing(m));
        const why = !isOutside(rel) ? (isGuardOwned(rel.split(path.sep).join('/')) ? "one of the write guard's files" : undefined) : check(folder, m);
        if (why) return `'${g.slice(0, 120)}' names ${m.slice(0, 160)}: ${why}`;
      }
    }
  }
  return undefined;
}

const within = (dir: string, p: string) => p === dir || p.startsWith(dir + path.sep);

/**
 * Scratch files may go to the system's temporary folder; nowhere else outside the project. Judged
 * where the write lands (`real`, from landing()): `/tmp/x` may be a symlink into another project.
 */
function isScratch(real: string): boolean {
  return (within(fs.realpathSync(os.tmpdir()), real) || within('/tmp', real)) && !isScratchRoot(real);
}

/** The scratch folder itself (not a file in it): a write to it could change or remove what others keep there. */
function isScratchRoot(real: string): boolean {
  return real === fs.realpathSync(os.tmpdir()) || real === '/tmp';
}

/** Why the scratch folder itself is refused, and what to write instead (agent trials met `cp x /tmp`, `tar -x -C /tmp`). */
const SCRATCH_ROOT = (file: string) =>
  `'${file.slice(0, 120)}' is the scratch folder itself, not a file or folder inside it: the guard judges a command by the path it is given, so name one inside (cp x ${os.tmpdir()}/x, tar -x -C ${os.tmpdir()}/unpacked)`;

/**
 * code-intel's own program, when it is installed inside the project (its node_modules, which git
 * ignores): the hook runs it, so a write there could switch the guard off. (Installed outside the
 * project it is refused as any outside path; in a checkout of code-intel itself it is the project.)
 */
function inOwnCode(root: string, real: string): boolean {
  let own: string;
  try {
    own = fs.realpathSync(PACKAGE_ROOT);
  } catch {
    return false;
  }
  const realRoot = fs.realpathSync(root);
  return within(own, real) && !within(own, realRoot);
}

/** Why a path given to a program the guard does not know is refused: it lies outside the project and the scratch area (or is code-intel's own, or a hard link there). */
function outsideGiven(root: string, cwd: string, file: string): string | undefined {
  if (file.startsWith('~')) return `it is given '${file.slice(0, 120)}', a path in the home folder: the guard does not know this program and cannot tell whether it writes there. Give it paths inside the project or in ${os.tmpdir()}`;
  const real = landing(asWritten(cwd, file));
  if (processRelative(real)) return `it is given '${file.slice(0, 120)}', which goes through /proc (or /dev/fd): name the file by its own path`;
  if (inOwnCode(root, real)) return `it is given '${file.slice(0, 120)}', part of code-intel itself, which runs the write guard`;
  const rel = path.relative(fs.realpathSync(root), real);
  if (!(rel.startsWith('..') || path.isAbsolute(rel))) return undefined;
  if (isScratch(real) && !hardLinked(real)) return undefined;
  if (isScratchRoot(real)) return SCRATCH_ROOT(file);
  return `it is given '${file.slice(0, 120)}', outside the project: the guard does not know this program and cannot tell whether it writes there. Give it paths inside the project or in ${os.tmpdir()}, or use a command the guard reads (cp, tee, a redirection)`;
}

function checkPath(root: string, cwd: string, mode: Exclude<GuardMode, { kind: 'off' }>, file: string, locked: string | undefined, itself = false): string | undefined {
  if (file.length > MAX_PATH) return `the path is longer than ${MAX_PATH} characters`;
  // a folder in the scratch area (`cp -r src /tmp/x/`): writing there is allowed, slash or not
  const folder = file.replace(/\/+$/, '');
  if (folder && folder !== file && !unsafeName(folder)) {
    const rel = path.relative(root, path.resolve(cwd, folder));
    if (isOutside(rel) && isScratch(landing(asWritten(cwd, folder)))) return undefined;
  }
  const bad = unsafeName(file);
  if (bad) return `'${file.slice(0, 120)}' ${bad}`;
  if (file.startsWith('~')) return `'${file.slice(0, 120)}' starts with ~: name the file by its full path`;
  const abs = path.resolve(cwd, file);
  const real = landing(asWritten(cwd, file), itself);
  if (processRelative(real)) return `'${file.slice(0, 120)}' goes through /proc (or /dev/fd), which names the writing process's own folders and files: name the file by its own path`;
  if (inOwnCode(root, real)) return `'${file.slice(0, 120)}' is part of code-intel itself (${real.slice(0, 200)}), which runs the write guard`;
  const rel = path.relative(root, abs);
  const realRel = path.relative(fs.realpathSync(root), real);
  // outside where it is named or where it lands (a symlink out of the project, or into it from /tmp)
  const namedOutside = rel.startsWith('..') || path.isAbsolute(rel);
  if (realRel.startsWith('..') || path.isAbsolute(realRel)) {
    // a project path whose symlink leads out is never scratch (the link is in the project)
    if (!namedOutside) return `'${file.slice(0, 120)}' resolves through a symlink to ${real.slice(0, 200)}, outside the project; write the real file inside the project instead`;
    // a scratch name that is a hard link writes another name's file too (red team adv26: `cp -l ~/x /tmp/h`, then `>> /tmp/h`)
    if (!itself && hardLinked(real)) return `'${file.slice(0, 120)}' is a hard link (the file has other names, perhaps outside the scratch area): write a new scratch file instead`;
    if (isScratch(real)) return undefined;
    if (isScratchRoot(real)) return SCRATCH_ROOT(file);
    return `'${real}' is outside the project; a /code turn writes only inside it (scratch files go to ${os.tmpdir()})`;
  }
  // a file of the project that has other names writes them too: one outside the project is reached
  // through it (red team adv36: `find … -exec ln -f ~/x source/utils/timeout.ts`, then an Edit of the
  // explored file wrote ~/x; pnpm links node_modules files to its store the same way)
  if (!itself && hardLinked(real)) return `'${file.slice(0, 120)}' is a hard link (the file has other names, perhaps outside the project): a write to it changes them all. Tell the user which file it is; the guard writes no file that has other names`;
  if (locked) return locked;
  if (mode.kind !== 'ready') return undefined;
  // named outside, lands inside: judged as the project file it is
  // a new file check_write_target approved is the agent's own once made: writable again, as the effect check lets it be
  const v = checkWriteTarget(root, namedOutside ? realRel : rel, true, new Set([...mode.explored, ...mode.approvedNew]));
  if (!v.allowed) {
    const lastRead = v.file ? mode.readsNotExploring.get(v.file) : undefined;
    if (lastRead) return `${v.error}: your Read of it showed ${lastRead}, which explores nothing. Read the code you will change (the declaration or the test block, whole), or all of the file.`;
    return `${v.error}. ${v.hint}`;
  }
  if (v.new_file && !mode.approvedNew.has(v.file)) return `'${v.file}' is a new file: call check_write_target with allow_new_files: true first.`;
  return undefined;
}

/**
 * A write of the command under (or at) a folder where the same command may make links (ln's
 * destination, a copy of links, an unpacked archive, a patch, a checkout): judged now, it would be
 * judged as the plain path it is not — the link appears before the write runs (red team adv36: `cp
 * -a D D2 && echo x >> D2/L/.bashrc`, `tar -x -C N && … N/L/…`, `ln -sr … D/L && … D/L/.bashrc`;
 * adv37: an archive that replaces an existing file with a link, `patch` that makes one).
 */
function laterThroughLink(writes: readonly BashWrite[], base: (w: BashWrite) => string): string | undefined {
  // (where each lands too: a link made earlier may lead into the folder — red team adv51's `ln -s S2 E2`, then `cp -a D S2 && echo >> E2/L/x`)
  const dests = writes.flatMap((w) => (w.linkDests ?? []).map((d) => ({ at: path.resolve(base(w), d), real: landing(path.resolve(base(w), d)), what: w.what, step: w.step })));
  const under = (p: string, d: { at: string; real: string }) => [d.at, d.real].some((x) => p === x || p.startsWith(x + path.sep));
  // (a write in a part of the command that runs before the one making links cannot go through them:
  // `rm -rf X && mkdir X && git archive HEAD | tar -x -C X` — agent trial tr112)
  const before = (w: BashWrite, d: { step?: number }) => w.step !== undefined && d.step !== undefined && w.step < d.step;
  if (dests.length === 0) return undefined;
  for (const w of writes) {
    if (w.linkDests || w.copiesLinks) continue;
    // a pattern may name a file under the folder the links are made in (red team adv49: `cp -a D D2 && … >> D2/[L]/x`)
    for (const g of w.globs ?? []) {
      const folder = patternFolder(base(w), g);
      const d = dests.find((x) => !before(w, x) && (under(folder, x) || under(landing(folder), x) || x.at.startsWith(folder + path.sep)));
      if (d) return `${w.what.slice(0, 160)}: writes files matching '${g.slice(0, 120)}' where the same command makes links or unpacks (${d.what.slice(0, 80)}): a link made there first would take the write elsewhere. Split it into two commands: the guard then judges the write where it lands`;
    }
    for (const t of w.targets ?? []) {
      const abs = path.resolve(base(w), t);
      const real = landing(asWritten(base(w), t));
      for (const d of dests) {
        // (the paths the same command is given are where it makes them, not a later write through
        // them: `git worktree add /tmp/x/wt`, `git clone SRC /tmp/x` were refused, red team adv48's friction)
        if ((w.given && w.what === d.what) || before(w, d)) continue;
        // under it, or it itself (`ln -f ~/x a.js && echo … >> a.js`): a name there, or one not there
        // yet, may be made a link or a second name of another file first (red team adv37: an archive
        // that replaces an existing file with a link)
        if (under(abs, d) || under(real, d)) return `${w.what.slice(0, 160)}: ${w.given ? 'may write (a program the guard does not know may write any file it is given)' : 'writes'} '${t.slice(0, 120)}' under ${d.at.slice(0, 200)}, where the same command makes links or unpacks (${d.what.slice(0, 80)}): a link made there first would take the write elsewhere. Split it into two commands: the guard then judges the write where it lands`;
      }
    }
  }
  return undefined;
}

/**
 * A named write through a folder that is not there when the guard looks, in a command where an
 * earlier part (or one running beside it) is a program whose writes the guard does not follow: that
 * program may make the folder, links in it included, and the write would land where they lead (red
 * team adv50: `rename.ul stash g stash && echo x >> g/L/.bashrc`, with stash/L a link to /root).
 */
function throughFolderMadeUnseen(writes: readonly BashWrite[], base: (w: BashWrite) => string): string | undefined {
  const opaque = writes.filter((w) => (w.targets === null && !w.globs?.length) || w.given);
  if (opaque.length === 0) return undefined;
  for (const w of writes) {
    if (w.given || w.targets === null) continue;
    // (not the program a redirection is written on: bash opens the file before it runs)
    const earlier = opaque.find((o) => o !== w && !(o.cmd !== undefined && o.cmd === w.cmd) && (o.step === undefined || w.step === undefined || o.step <= w.step));
    if (!earlier) continue;
    for (const t of w.targets) {
      const abs = (path.isAbsolute(t) ? t : `${base(w)}/${t}`).replace(/\/+$/, '');
      const folder = abs.slice(0, abs.lastIndexOf('/')) || '/';
      if (fs.existsSync(folder)) continue;
      return `${w.what.slice(0, 160)}: writes '${t.slice(0, 120)}' in ${folder.slice(0, 160)}, a folder that is not there yet, after ${earlier.what.slice(0, 80)}, whose writes the guard does not follow (it may make that folder, links in it included). Split it into two commands: the guard then judges the write where it lands`;
    }
  }
  return undefined;
}

/** Why copying `written` as a link is refused: it is a symlink to somewhere outside the project and the scratch area. */
function copiedLink(root: string, written: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(written);
  } catch {
    return undefined; // nothing there yet: the command's own effect is checked
  }
  if (!st.isSymbolicLink()) return undefined;
  const real = landing(written);
  if (processRelative(real)) return `'${written.slice(0, 120)}' is a link into /proc: its copy would name the writing process's files`;
  if (inOwnCode(root, real)) return `'${written.slice(0, 120)}' is a link into code-intel itself (${real.slice(0, 200)}): its copy would lead there`;
  if (isOutside(path.relative(fs.realpathSync(root), real)) && !isScratch(real)) return `'${written.slice(0, 120)}' is a link to ${real.slice(0, 200)}, outside the project: a copy of it would lead a later write there`;
  return undefined;
}

/** A regular file with more than one name. */
function hardLinked(file: string): boolean {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() && st.nlink > 1;
  } catch {
    return false;
  }
}

/** The Bash call in flight, if any (set by PreToolUse, cleared by its PostToolUse or its timeout). */
function inFlight(store: SessionStore): { id: string | null; until: number } | undefined {
  try {
    const v = JSON.parse(store.guardValue('inflight') ?? '{}') as { id?: string | null; until?: number };
    return typeof v.until === 'number' && v.until > Date.now() ? { id: v.id ?? null, until: v.until } : undefined;
  } catch {
    return undefined;
  }
}

/** Evidence that arrives while a shell command runs may come from that command: it is not recorded. */
function forgedWhileInFlight(store: SessionStore, what: string): boolean {
  if (!inFlight(store)) return false;
  const s = store.active();
  process.stderr.write(`code-intel: ${what} arrived while a shell command was running; not recorded\n`);
  if (s) store.record(s.id, { tool: 'hook:refused', args: { what }, phase: s.phase, outcome: 'blocked', files: [], symbols: [], summary: `${what} arrived while a shell command was running: not recorded as evidence` });
  return true;
}

/** Clients whose transcript the guard reads: their hook evidence counts only once the transcript shows it. */
const TRANSCRIPT_CLIENTS: ReadonlySet<Client> = new Set(['claude-code', 'gemini']);

/** Where init puts the hooks of each client whose transcript the guard does not read. */
const CLIENT_HOOKS: Partial<Record<Client, string>> = { codex: CODEX_HOOKS_FILE, cursor: CURSOR_HOOKS_FILE, opencode: OPENCODE_PLUGIN_FILE };

/**
 * Does this project run the hooks of `client`, a client whose transcript the guard does not read?
 * Anyone can run the hook binary with `--client=codex`: without this, a Claude Code project's
 * evidence (checked against its transcript) could be forged as Codex's, which only the in-flight
 * rule guards. In a guarded turn the hook file must also be as the guard accepted it (not one the
 * agent made meanwhile).
 */
function runsClient(root: string, client: Client, store: SessionStore, guarded: boolean): boolean {
  const rel = CLIENT_HOOKS[client];
  if (!rel) return true;
  const file = path.join(root, rel);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  return text.includes(`--client=${client}`) && (!guarded || asAccepted(store, file));
}

/** Evidence from a client this project does not run is never recorded. */
function foreignClient(store: SessionStore, root: string, client: Client, guarded: boolean, what: string): boolean {
  if (runsClient(root, client, store, guarded)) return false;
  process.stderr.write(`code-intel: ${what} came as ${client}'s, whose hooks this project does not run; not recorded\n`);
  const s = store.active();
  if (s) store.record(s.id, { tool: 'hook:refused', args: { what, client }, phase: s.phase, outcome: 'blocked', files: [], symbols: [], summary: `${what} came as ${client}'s, whose hooks this project does not run: not recorded as evidence` });
  return true;
}

/**
 * Evidence from a client whose transcript the guard reads must be in that transcript
 * (guard/transcript.ts): a payload that names none in the client's folder is not the client's, and
 * what it claims is refused.
 */
function clientTranscript(store: SessionStore, p: Payload, what: string): string | undefined {
  const t = validTranscript(p.transcript_path);
  if (t) return t;
  process.stderr.write(`code-intel: ${what} names no transcript in the client's own folder; not recorded\n`);
  const s = store.active();
  if (s) store.record(s.id, { tool: 'hook:refused', args: { what }, phase: s.phase, outcome: 'blocked', files: [], symbols: [], summary: `${what}: no transcript of the client to check it against, not recorded` });
  return undefined;
}

/**
 * Evidence counts from the conversation the user's prompt was found in: its transcript, or a
 * subagent's beside it (`<session>/subagents/…`). A transcript file made for the purpose (red team
 * adv18: a new .jsonl under the client's folder, written by an interpreter, with a Read call and its
 * result in it) is another conversation.
 */
function sameConversation(store: SessionStore, t: string, what: string): boolean {
  if (ownConversation(store, t, 'conversation')) return true;
  process.stderr.write(`code-intel: ${what} names another transcript than the user's prompt is in; not recorded\n`);
  const s = store.active();
  if (s) store.record(s.id, { tool: 'hook:refused', args: { what }, phase: s.phase, outcome: 'blocked', files: [], symbols: [], summary: `${what}: named another transcript than the conversation the user's prompt is in, not recorded` });
  return false;
}

/**
 * Is transcript `t` where the user's last prompt was found? `conversation`: that transcript or a
 * subagent's beside it; `folder`: any conversation under the same client folder (`…/projects` of
 * Claude Code, `…/.gemini/tmp` of Gemini: a new session of the client, started in the project or a
 * folder of it — red team adv30 was refused a reply typed in a session started in `lib/`). With no
 * prompt found yet, any.
 */
function ownConversation(store: SessionStore, t: string, scope: 'conversation' | 'folder'): boolean {
  const main = store.promptTranscript();
  if (!main) return true;
  const real = (f: string) => {
    try {
      return fs.realpathSync(f);
    } catch {
      return path.resolve(f);
    }
  };
  const [mine, theirs] = [real(main), real(t)];
  if (scope === 'folder') return clientFolder(theirs) === clientFolder(mine);
  const subagents = path.join(path.dirname(mine), path.basename(mine, '.jsonl'), 'subagents') + path.sep;
  return theirs === mine || theirs.startsWith(subagents);
}

/** The client folder that holds a transcript: Claude Code's `…/projects` (`projects/<project>/<session>.jsonl`), Gemini's `…/tmp` (`tmp/<project>/chats/…`). */
function clientFolder(real: string): string {
  const parts = real.split(path.sep);
  const chats = parts.lastIndexOf('chats');
  if (chats >= 2) return parts.slice(0, chats - 1).join(path.sep);
  const projects = parts.lastIndexOf('projects');
  return projects >= 0 ? parts.slice(0, projects + 1).join(path.sep) : path.dirname(real);
}

function recordPrompt(store: SessionStore, root: string, p: Payload, client: Client, guarded: boolean): void {
  if (typeof p.prompt !== 'string' || !p.prompt.trim()) return;
  if (forgedWhileInFlight(store, 'a user prompt')) return;
  const prompt = p.prompt.slice(0, 100_000);
  if (!TRANSCRIPT_CLIENTS.has(client)) {
    if (foreignClient(store, root, client, guarded, 'a user prompt')) return;
    store.recordPrompt(prompt, p.session_id ?? null);
    return;
  }
  const t = clientTranscript(store, p, 'a user prompt');
  // in a guarded turn, a prompt counts from the client folder the turn's prompt was found in: the
  // folder a transcript must lie in is read from the hook's environment (CLAUDE_CONFIG_DIR,
  // GEMINI_CLI_HOME), which a command that runs the hook binary itself sets as it likes — red team
  // adv29 wrote a user line into a file under /tmp, named it the client's folder, and ended the turn
  if (t && guarded && !ownConversation(store, t, 'folder')) {
    process.stderr.write('code-intel: a user prompt came from a transcript outside the client folder of this turn; not recorded\n');
    const s = store.active();
    if (s) store.record(s.id, { tool: 'hook:refused', args: { what: 'a user prompt' }, phase: s.phase, outcome: 'blocked', files: [], symbols: [], summary: 'a user prompt from a transcript outside the client folder of this /code turn: not recorded' });
    return;
  }
  const at = Date.now();
  if (t) store.recordPrompt(prompt, p.session_id ?? null, t, (claimed) => transcriptPromptLine(t, prompt, at, claimed));
}

const isFile = (abs: string): boolean => {
  try {
    return fs.statSync(abs).isFile();
  } catch {
    return false;
  }
};

function recordRead(db: Database.Database, store: SessionStore, root: string, p: Payload, client: Client): void {
  const s = store.active();
  if (!s || typeof p.tool_name !== 'string') return;
  const files: string[] = [];
  const lines: ShownLines = {};
  let blank: { rel: string; shown: ReadShown } | undefined;
  const add = (f: unknown): string | undefined => {
    if (typeof f !== 'string' || f.length > MAX_PATH) return;
    // the file read is where the name lands (through symlinks): the write guard judges that file too
    // (a Read of lib/cart.ts, lib → src, explored a name no write is judged by)
    const abs = path.resolve(root, f);
    let rel: string;
    try {
      rel = path.relative(fs.realpathSync(root), fs.realpathSync(abs)).split(path.sep).join('/');
    } catch {
      return;
    }
    // a file: a Read of a folder shows no code (and would make the folder above it hold explored code)
    if (rel.startsWith('..') || path.isAbsolute(rel) || !isFile(abs)) return;
    if (p.tool_name === 'Read') {
      // the lines it showed: none of the file's code (past its end, only its imports) explores nothing
      // (Claude Code's answer says how many lines it showed, which can narrow the range, never widen
      // it, and what they were, which must be the file's)
      const said = (p.tool_response as { file?: { numLines?: unknown; content?: unknown } } | undefined)?.file;
      const shown = readShown(db, rel, abs, p.tool_input?.offset, p.tool_input?.limit, client !== 'claude-code', {
        ...(typeof said?.numLines === 'number' ? { numLines: said.numLines } : {}),
        ...(typeof said?.content === 'string' ? { content: said.content } : {}),
      });
      if (!shown.code) {
        blank = { rel, shown };
        return;
      }
      lines[rel] = [[shown.first, Math.max(shown.first, shown.last)]];
    }
    files.push(rel);
    return rel;
  };
  if (p.tool_name === 'Read') add(p.tool_input?.file_path);
  else if (p.tool_name === 'Grep') {
    // in content mode the agent saw matching lines of these files: a text match each, and the lines
    // shown are what code_evidence may cite (settled against the transcript's copy of the result)
    const r = p.tool_response as { mode?: string; filenames?: unknown[]; content?: unknown } | undefined;
    if (r?.mode === 'content' && Array.isArray(r.filenames)) {
      const printed = r.filenames.slice(0, 1000).flatMap((f) => {
        const rel = add(f);
        return rel ? [{ rel, printed: [f as string, rel, path.join(root, rel)] }] : [];
      });
      if (typeof r.content === 'string') Object.assign(lines, grepShownLines(r.content, printed, root));
    }
  }
  if (blank) {
    const { rel, shown } = blank;
    const what = shown.elsewhere ? `other text than ${rel} holds there (the path led elsewhere when it was read, or the file changed since)`
      : shown.last < shown.first ? `nothing (line ${shown.first} is past its end, line ${shown.total})` : `lines ${shown.first}–${shown.last} of ${shown.total}: a search match's worth, or none of its declarations (imports, comments)`;
    store.record(s.id, {
      tool: `hook:${p.tool_name}`, args: pick(p.tool_input ?? {}), phase: s.phase, outcome: 'blocked', files: [], symbols: [],
      summary: `a Read of ${rel} that showed ${what}: it explores nothing; read the code you mean to change`,
    });
    return;
  }
  if (files.length === 0) return;
  if (forgedWhileInFlight(store, `a ${p.tool_name} of ${files[0]}`)) return;
  if (!TRANSCRIPT_CLIENTS.has(client)) {
    if (foreignClient(store, root, client, true, `a ${p.tool_name} of ${files[0]}`)) return;
    // OpenCode's plugin sees a call's arguments, never what it showed, and keeps no transcript the
    // guard reads: files count as explored there only through code-intel's own tools (guard.md; red
    // team adv29 made a file explored with a Read sent to the hook by hand)
    if (client === 'opencode') return;
    store.record(s.id, { tool: `hook:${p.tool_name}`, args: pick(p.tool_input ?? {}), phase: s.phase, outcome: 'ok', files, symbols: [], lines, summary: 'read by the agent' });
    return;
  }
  // counted once the transcript shows the call (settled at the next decision if not yet written);
  // Claude Code names the call by its id, Gemini CLI names none (its transcript is matched by file)
  const t = clientTranscript(store, p, `a ${p.tool_name} of ${files[0]}`);
  if (!t || (client === 'claude-code' && typeof p.tool_use_id !== 'string')) return;
  if (!sameConversation(store, t, `a ${p.tool_name} of ${files[0]}`)) return;
  const id = typeof p.tool_use_id === 'string' ? p.tool_use_id : undefined;
  // the transcript holds the call as the agent named the file (lib/main.ts), not where it landed
  const found = p.tool_name === 'Read' && transcriptHasToolUse(t, id, 'Read', path.resolve(root, String(p.tool_input?.file_path)), { offset: p.tool_input?.offset, limit: p.tool_input?.limit })
    && readResultAgrees(t, id, root, files[0]!, lines);
  store.record(s.id, {
    tool: `hook:${p.tool_name}`, args: { ...pick(p.tool_input ?? {}), tool_name: p.tool_name, tool_use_id: p.tool_use_id, transcript: t },
    phase: s.phase, outcome: found ? 'ok' : 'pending', files, symbols: [], lines, summary: found ? 'read by the agent (found in the client\'s transcript)' : 'waiting for the client\'s transcript',
  });
}

/**
 * A command's text without what bash reads literally: single-quoted text and escaped characters. A
 * backtick inside single quotes (`grep -n '\`' f`) or escaped (`"run \`npm test\`"`) substitutes
 * nothing, though the grammar may stumble on it (red team adv42's friction).
 */
export function literalsOut(command: string): string {
  let out = '';
  let quote: "'" | '"' | '$' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'" || quote === '$') {
      // (`$'…'` ends at an unescaped quote: `$'\''` is one quote character — red team adv43)
      if (quote === '$' && c === '\\') i++;
      else if (c === "'") quote = undefined;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    // a comment runs to the line's end; an apostrophe in it opens nothing (adv43: `true # it's`); it
    // starts any word, after an operator too (adv44: `echo a;# it's` hid a later `1<>F` from this reading)
    if (c === '#' && quote === undefined && (i === 0 || /[\s;&|()<>]/.test(command[i - 1]!))) {
      const nl = command.indexOf('\n', i);
      if (nl < 0) break;
      i = nl - 1;
      continue;
    }
    if (c === '$' && command[i + 1] === "'" && quote === undefined) {
      quote = '$';
      i++;
      continue;
    }
    if (c === "'" && quote === undefined) quote = "'";
    else if (c === '"') quote = quote === '"' ? undefined : '"';
    out += c;
  }
  return out;
}
