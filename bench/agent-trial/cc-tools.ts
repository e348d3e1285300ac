/**
 * Claude Code's own tools (Read, Grep, Edit, Write, Bash) as the harness performs them in the
 * project: same inputs, same result text the model would see, same tool_response for the hooks.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { envFor, NESTED_MARK, type TrialState } from './state.js';

export interface ToolOutcome {
  ok: boolean;
  /** what the model sees (the tool_result text) */
  text: string;
  /** tool_response in the PostToolUse payload */
  response: unknown;
  /** PostToolUseFailure's `error` */
  error?: string;
}

const MAX_LINES = 2000;
const MAX_LINE = 2000;
const MAX_OUTPUT = 30_000;

const fail = (error: string, response: unknown = {}): ToolOutcome => ({ ok: false, text: `<tool_use_error>${error}</tool_use_error>`, response, error });

export function absIn(s: TrialState, file: string): string {
  return path.resolve(s.project, file);
}

function clip(text: string): string {
  return text.length <= MAX_OUTPUT ? text : `${text.slice(0, MAX_OUTPUT)}\n\n... [${text.length - MAX_OUTPUT} characters truncated] ...`;
}

const numbered = (lines: string[], first: number) => lines.map((l, i) => `${String(first + i).padStart(6)}\t${l.length > MAX_LINE ? l.slice(0, MAX_LINE) + '… [line truncated]' : l}`).join('\n');

function splitLines(content: string): string[] {
  const lines = content.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

// ---- Read ----------------------------------------------------------------------------------------

export function doRead(s: TrialState, abs: string, offset?: number, limit?: number): ToolOutcome {
  if (!fs.existsSync(abs)) return fail(`File does not exist. Current working directory: ${s.project}`);
  const st = fs.statSync(abs);
  if (st.isDirectory()) return fail(`EISDIR: illegal operation on a directory, read '${abs}'`);
  const content = fs.readFileSync(abs, 'utf8');
  const all = splitLines(content);
  const start = Math.max(1, offset ?? 1);
  const count = limit ?? MAX_LINES;
  const shown = all.slice(start - 1, start - 1 + count);
  s.reads[abs] = st.mtimeMs;
  const response = { type: 'text', file: { filePath: abs, content: shown.join('\n'), numLines: shown.length, startLine: start, totalLines: all.length } };
  if (all.length === 0) return { ok: true, text: '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>', response };
  if (shown.length === 0) return { ok: true, text: `<system-reminder>Warning: the file exists but is shorter than the provided offset (${start}). The file has ${all.length} lines.</system-reminder>`, response };
  let text = numbered(shown, start);
  if (start - 1 + shown.length < all.length && limit === undefined) text += `\n\n[file has ${all.length} lines; ${shown.length} shown. Read on with --offset ${start + shown.length}]`;
  return { ok: true, text, response };
}

// ---- Grep ----------------------------------------------------------------------------------------

export interface GrepOpts { path?: string; mode: 'files_with_matches' | 'content' | 'count'; glob?: string; ignoreCase?: boolean; context?: number; headLimit?: number }

function haveRg(): boolean {
  return spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** The files rg would search under `target`: git's view (tracked + untracked, not ignored), hidden ones included. */
/** Globs separated by spaces or commas, a comma inside braces excepted (`*.{ts,tsx}` is one glob, as Claude Code's Grep takes it). */
function splitGlobs(glob: string): string[] {
  const out: string[] = [];
  let depth = 0, cur = '';
  for (const c of glob) {
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

function candidateFiles(s: TrialState, target: string, glob?: string): string[] {
  let files: string[];
  if (fs.statSync(target).isFile()) files = [target];
  else {
    const r = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z', '--', path.relative(s.project, target) || '.'], { cwd: s.project, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (r.status === 0 && path.relative(s.project, target).split(path.sep)[0] !== '..') {
      files = r.stdout.split('\0').filter(Boolean).map((f) => path.join(s.project, f));
    } else {
      files = (fs.readdirSync(target, { recursive: true }) as string[]).map((f) => path.join(target, f)).filter((f) => !f.split(path.sep).includes('.git'));
    }
    files = files.filter((f) => { try { return fs.statSync(f).isFile(); } catch { return false; } });
  }
  if (glob) {
    // as ripgrep: `!g` excludes what g matches, the others include (a list of them: any one); picomatch
    // given both in one list let every file through a negation (tr44: `--glob '!…'` filtered nothing)
    const globs = splitGlobs(glob);
    const basename = !globs.some((g) => g.includes('/'));
    const plus = globs.filter((g) => !g.startsWith('!'));
    const minus = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
    const included = plus.length ? picomatch(plus, { dot: true, basename }) : () => true;
    const excluded = minus.length ? picomatch(minus, { dot: true, basename }) : () => false;
    files = files.filter((f) => {
      const rel = path.relative(target, f) || path.basename(f);
      return included(rel) && !excluded(rel);
    });
  }
  return files;
}

/** The file a grep output line (`path:12:text`, `path-12-text`, `path:3`) is about. */
function fileOf(line: string): string | undefined {
  for (const m of line.matchAll(/[:-]\d+(?:[:-]|$)/g)) {
    const f = line.slice(0, m.index);
    try {
      if (fs.statSync(f).isFile()) return f;
    } catch { /* not this split */ }
  }
  return undefined;
}

export function doGrep(s: TrialState, pattern: string, o: GrepOpts): ToolOutcome {
  const target = o.path ? absIn(s, o.path) : s.project;
  if (!fs.existsSync(target)) return fail(`Path does not exist: ${target}`);
  let out = '';
  let errText = '';
  if (haveRg()) {
    const args = ['--hidden', '--glob', '!.git', '--no-heading', '--color', 'never'];
    if (o.ignoreCase) args.push('-i');
    if (o.glob) for (const g of splitGlobs(o.glob)) args.push('--glob', g);
    if (o.mode === 'files_with_matches') args.push('-l');
    else if (o.mode === 'count') args.push('-c');
    else {
      args.push('-n', '--with-filename');
      if (o.context) args.push('-C', String(o.context));
    }
    const r = spawnSync('rg', [...args, '-e', pattern, '--', target], { cwd: s.project, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (r.status === 2) return fail(`rg: ${r.stderr.trim()}`);
    out = r.stdout;
  } else {
    const files = candidateFiles(s, target, o.glob);
    const base = ['-I', '-H', '--color=never'];
    if (o.ignoreCase) base.push('-i');
    if (o.mode === 'files_with_matches') base.push('-l');
    else if (o.mode === 'count') base.push('-c');
    else {
      base.push('-n');
      if (o.context) base.push('-C', String(o.context));
    }
    // rg's regex syntax is closest to PCRE; fall back to ERE where grep has no -P
    const dialect = spawnSync('grep', ['-P', 'x'], { input: 'x' }).status === 0 ? '-P' : '-E';
    for (let i = 0; i < files.length; i += 400) {
      const r = spawnSync('grep', [...base, dialect, '-e', pattern, '--', ...files.slice(i, i + 400)], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      if (r.status === 2 && r.stderr.trim()) errText = r.stderr.trim().split('\n')[0]!;
      out += r.stdout;
    }
    if (!out && errText) return fail(errText);
  }
  let lines = out.split('\n').filter(Boolean);
  if (o.mode === 'count') lines = lines.filter((l) => !/:0$/.test(l));
  let filenames: string[];
  if (o.mode === 'files_with_matches') {
    // Claude Code lists the most recently modified first
    lines.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs || a.localeCompare(b));
    filenames = lines;
  } else {
    const seen = new Set<string>();
    for (const l of lines) {
      const f = fileOf(l);
      if (f) seen.add(f);
    }
    filenames = [...seen];
  }
  const limited = o.headLimit ? lines.slice(0, o.headLimit) : lines;
  let text: string;
  if (o.mode === 'files_with_matches') text = limited.length === 0 ? 'No files found' : `Found ${limited.length} file${limited.length === 1 ? '' : 's'}\n${limited.join('\n')}`;
  else if (o.mode === 'count') text = limited.length === 0 ? 'No matches found' : limited.join('\n');
  else text = limited.length === 0 ? 'No matches found' : limited.join('\n');
  const response = o.mode === 'content'
    ? { mode: 'content', numFiles: filenames.length, filenames, content: limited.join('\n'), numLines: limited.length }
    : { mode: o.mode, numFiles: filenames.length, filenames: o.headLimit ? filenames.slice(0, o.headLimit) : filenames };
  return { ok: true, text: clip(text), response };
}

// ---- Edit / Write --------------------------------------------------------------------------------

function readRule(s: TrialState, abs: string): string | undefined {
  const seen = s.reads[abs];
  if (seen === undefined) return 'File has not been read yet. Read it first before writing to it.';
  if (fs.statSync(abs).mtimeMs > seen) return 'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';
  return undefined;
}

function snippet(content: string, at: number, len: number): string {
  const lines = splitLines(content);
  const first = content.slice(0, at).split('\n').length;
  const last = content.slice(0, at + len).split('\n').length;
  const from = Math.max(1, first - 4);
  return numbered(lines.slice(from - 1, Math.min(lines.length, last + 4)), from);
}

export function doEdit(s: TrialState, abs: string, oldS: string, newS: string, replaceAll: boolean): ToolOutcome {
  if (oldS === newS) return fail('No changes to make: old_string and new_string are exactly the same.');
  if (!fs.existsSync(abs)) {
    if (oldS !== '') return fail(`File does not exist. Current working directory: ${s.project}`);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, newS);
    s.reads[abs] = fs.statSync(abs).mtimeMs;
    return { ok: true, text: `File created successfully at: ${abs}`, response: { filePath: abs, oldString: oldS, newString: newS, originalFile: '', replaceAll, userModified: false, structuredPatch: [] } };
  }
  if (fs.statSync(abs).isDirectory()) return fail(`EISDIR: illegal operation on a directory, edit '${abs}'`);
  const why = readRule(s, abs);
  if (why) return fail(why);
  const before = fs.readFileSync(abs, 'utf8');
  if (oldS === '') return fail('Cannot create new file - file already exists.');
  const n = before.split(oldS).length - 1;
  if (n === 0) return fail(`String to replace not found in file.\nString: ${oldS}`);
  if (n > 1 && !replaceAll) return fail(`Found ${n} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${oldS}`);
  const at = before.indexOf(oldS);
  const after = replaceAll ? before.split(oldS).join(newS) : before.slice(0, at) + newS + before.slice(at + oldS.length);
  fs.writeFileSync(abs, after);
  s.reads[abs] = fs.statSync(abs).mtimeMs;
  const text = `The file ${abs} has been updated${replaceAll && n > 1 ? ` (${n} replacements)` : ''}. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet(after, at, newS.length)}`;
  return { ok: true, text, response: { filePath: abs, oldString: oldS, newString: newS, originalFile: before, replaceAll, userModified: false, structuredPatch: [] } };
}

export function doWrite(s: TrialState, abs: string, content: string): ToolOutcome {
  const exists = fs.existsSync(abs);
  if (exists && fs.statSync(abs).isDirectory()) return fail(`EISDIR: illegal operation on a directory, write '${abs}'`);
  if (exists) {
    const why = readRule(s, abs);
    if (why) return fail(why);
  }
  const before = exists ? fs.readFileSync(abs, 'utf8') : null;
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  s.reads[abs] = fs.statSync(abs).mtimeMs;
  const text = exists
    ? `The file ${abs} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(splitLines(content).slice(0, 20), 1)}`
    : `File created successfully at: ${abs}`;
  return { ok: true, text, response: { type: exists ? 'update' : 'create', filePath: abs, content, originalFile: before, structuredPatch: [] } };
}

// ---- Bash ----------------------------------------------------------------------------------------

export const BASH_DEFAULT_MS = 120_000;
export const BASH_MAX_MS = 600_000;

export async function doBash(s: TrialState, command: string, timeoutMs: number): Promise<ToolOutcome> {
  const env = { ...envFor(s), [NESTED_MARK]: '1' };
  const child = spawn('bash', ['-c', command], { cwd: s.project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { if (stdout.length < 4 * MAX_OUTPUT) stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { if (stderr.length < 4 * MAX_OUTPUT) stderr += d; });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', (e) => { stderr += String(e); resolve(127); });
    child.on('exit', (c, sig) => {
      // a process the command left behind may hold the pipes: take what came and go on
      const done = () => resolve(c ?? (sig ? 128 : 1));
      const t = setTimeout(() => { child.stdout.destroy(); child.stderr.destroy(); done(); }, 500);
      child.on('close', () => { clearTimeout(t); done(); });
    });
  });
  clearTimeout(timer);
  const body = [stdout.replace(/\n+$/, ''), stderr.replace(/\n+$/, '')].filter(Boolean).join('\n');
  const tail = timedOut ? `Command timed out after ${Math.round(timeoutMs / 1000)}s` : `exit code: ${code}`;
  const text = clip(body ? `${body}\n[${tail}]` : `[${tail}]`);
  const response = { stdout: clip(stdout), stderr: clip(stderr), interrupted: timedOut, isImage: false };
  if (timedOut || code !== 0) return { ok: false, text, response, error: timedOut ? tail : `Exit code ${code}` };
  return { ok: true, text, response };
}
