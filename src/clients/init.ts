/**
 * `code-intel init`: writes what each client needs into a user's project, merging into existing
 * files (a user's settings are never lost), idempotently, with a dry-run that shows the changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../util/paths.js';
import { CODE_COMMAND } from './code-command.js';
import { type Client as HookClient, format } from '../hooks/dialects.js';

export type ClientName = 'claude-code' | 'cursor' | 'gemini' | 'codex' | 'opencode';
export const CLIENTS: ClientName[] = ['claude-code', 'cursor', 'gemini', 'codex', 'opencode'];

export interface FileChange {
  file: string;
  before: string | null;
  after: string;
}

const CLI_JS = path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');
const HOOK_JS = path.join(PACKAGE_ROOT, 'dist', 'src', 'hooks', 'main.js');
/** how our hook commands are recognised when merging (so a re-run replaces, never duplicates) */
const HOOK_MARK = '--installed-by=code-intel';

/**
 * The hook command. The write guard fails closed even when it cannot start at all (code-intel
 * moved or uninstalled, node missing: the shell answers 127): a client treats a failing hook as
 * "not blocking", so the pre-tool command falls back to printing the denial itself.
 */
function hookCommand(event: string, client: HookClient = 'claude-code'): string {
  const start = onPath() ? `code-intel-hook ${event}` : `node "${HOOK_JS}" ${event}`;
  const run = `${start}${client === 'claude-code' ? '' : ` --client=${client}`} ${HOOK_MARK}`;
  if (event !== 'pre-tool-use') return run;
  const why = onPath() ? 'code-intel is not installed here or not on PATH; install it (npm install -g code-intel)' : `${HOOK_JS} is missing`;
  const denial = format(client, 'pre-tool-use', `the write guard could not start (${why}); run \`code-intel init\` again in this project`);
  return `${run} || printf '%s\\n' '${denial.replace(/'/g, `'\\''`)}'`;
}
const isOurs = (h: Json) => String(h.command ?? '').includes(HOOK_MARK);

type Json = Record<string, unknown>;
const asObj = (x: unknown): Json => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Json) : {});

function readJson(file: string): { text: string | null; data: Json } {
  if (!fs.existsSync(file)) return { text: null, data: {} };
  const text = fs.readFileSync(file, 'utf8');
  try {
    return { text, data: asObj(JSON.parse(text)) };
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); fix it or move it away, then run init again`);
  }
}

/**
 * Configs people commit travel when they name the `code-intel` command rather than this machine's
 * path: used when the `code-intel` on PATH is this very installation (a global install). From a
 * development checkout, the paths of the checkout are written (and init says so).
 */
const onPathCache = new Map<string, boolean>();
/** The command `name` on PATH is this installation's `file` (a global install's bin link). */
function installed(name: string, file: string): boolean {
  let hit = onPathCache.get(name);
  if (hit !== undefined) return hit;
  hit = false;
  if (process.env.CODE_INTEL_INIT_ABSOLUTE !== '1') {
    const mine = fs.realpathSync(file);
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      try {
        if (fs.realpathSync(path.join(dir, name)) === mine) {
          hit = true;
          break;
        }
      } catch {
        /* not there */
      }
    }
  }
  onPathCache.set(name, hit);
  return hit;
}
/** `code-intel` and its hook entry (`code-intel-hook`, a bin of its own: a hook must not load the whole CLI) are this installation. */
export function onPath(): boolean {
  return installed('code-intel', CLI_JS) && installed('code-intel-hook', HOOK_JS);
}

const serverEntry = () => (onPath() ? { command: 'code-intel', args: ['serve', '.'] } : { command: 'node', args: [CLI_JS, 'serve', '.'] });

function mergeMcpServers(file: string, key = 'mcpServers', entry: Json = { type: 'stdio', ...serverEntry() }): FileChange {
  const { text, data } = readJson(file);
  const servers = { ...asObj(data[key]), 'code-intel': entry };
  return { file, before: text, after: JSON.stringify({ ...data, [key]: servers }, null, 2) + '\n' };
}

type HookSpec = { matcher?: string; event: string };

/**
 * Claude Code and Gemini CLI both key hooks by event with groups of {matcher, hooks: [...]}: our
 * entries replace our earlier ones, groups left empty by that are dropped, the rest is kept.
 */
function mergeHookGroups(existing: unknown, ours: Record<string, HookSpec>, entry: (spec: HookSpec) => Json): Json {
  const hooks = asObj(existing);
  const merged: Json = { ...hooks };
  for (const [name, spec] of Object.entries(ours)) {
    const groups = (Array.isArray(hooks[name]) ? (hooks[name] as Json[]) : [])
      .map((g) => ({ ...g, hooks: (Array.isArray(g.hooks) ? (g.hooks as Json[]) : []).filter((h) => !isOurs(h)) }))
      .filter((g) => (g.hooks as Json[]).length > 0);
    groups.push({ ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [entry(spec)] });
    merged[name] = groups;
  }
  return merged;
}

function mergeClaudeHooks(file: string): FileChange {
  const { text, data } = readJson(file);
  // every tool and every turn boundary: the guard checks what really changed at each of them
  const hooks = mergeHookGroups(data.hooks, {
    PreToolUse: { matcher: '*', event: 'pre-tool-use' },
    PostToolUse: { matcher: '*', event: 'post-tool-use' },
    PostToolUseFailure: { matcher: '*', event: 'post-tool-use' },
    UserPromptSubmit: { event: 'user-prompt-submit' },
    Stop: { event: 'stop' },
    SubagentStop: { event: 'stop' },
  }, (spec) => ({ type: 'command', command: hookCommand(spec.event), timeout: 30 }));
  return { file, before: text, after: JSON.stringify({ ...data, hooks }, null, 2) + '\n' };
}

/** Gemini CLI: settings.json holds the MCP server and the hooks (timeouts in milliseconds). */
function geminiSettings(file: string): FileChange {
  const { text, data } = readJson(file);
  const hooks = mergeHookGroups(data.hooks, {
    BeforeTool: { matcher: '.*', event: 'pre-tool-use' },
    AfterTool: { matcher: '.*', event: 'post-tool-use' },
    BeforeAgent: { event: 'user-prompt-submit' },
    AfterAgent: { event: 'stop' },
  }, (spec) => ({ type: 'command', name: `code-intel ${spec.event}`, command: hookCommand(spec.event, 'gemini'), timeout: 30000 }));
  const servers = { ...asObj(data.mcpServers), 'code-intel': { ...serverEntry(), cwd: '.' } };
  return { file, before: text, after: JSON.stringify({ ...data, mcpServers: servers, hooks }, null, 2) + '\n' };
}

/** Cursor: .cursor/hooks.json, version 1, event → [{command, matcher?}]. Our entries replace our earlier ones. */
function cursorHooks(file: string): FileChange {
  const { text, data } = readJson(file);
  const hooks = asObj(data.hooks);
  const ours: [string, string, string?][] = [
    ['preToolUse', 'pre-tool-use', 'Write|Edit|StrReplace|Delete|MultiEdit'],
    ['beforeShellExecution', 'pre-tool-use'],
    ['beforeMCPExecution', 'pre-tool-use'],
    ['beforeSubmitPrompt', 'user-prompt-submit'],
    ['beforeReadFile', 'post-tool-use'],
    ['afterShellExecution', 'post-tool-use'],
    ['afterMCPExecution', 'post-tool-use'],
    ['afterFileEdit', 'post-tool-use'],
    ['stop', 'stop'],
  ];
  const merged: Json = { ...hooks };
  for (const [name, event, matcher] of ours) {
    const kept = (Array.isArray(hooks[name]) ? (hooks[name] as Json[]) : []).filter((h) => !isOurs(h));
    merged[name] = [...kept, { command: hookCommand(event, 'cursor'), ...(matcher ? { matcher } : {}) }];
  }
  return { file, before: text, after: JSON.stringify({ ...data, version: 1, hooks: merged }, null, 2) + '\n' };
}

function plainFile(file: string, content: string): FileChange {
  return { file, before: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null, after: content };
}

export function planInit(root: string, clients: ClientName[]): FileChange[] {
  const changes: FileChange[] = [];
  for (const c of clients) {
    if (c === 'claude-code') {
      changes.push(mergeMcpServers(path.join(root, '.mcp.json')));
      changes.push(plainFile(path.join(root, '.claude', 'commands', 'code.md'), CODE_COMMAND));
      changes.push(mergeClaudeHooks(path.join(root, '.claude', 'settings.json')));
    } else if (c === 'cursor') {
      changes.push(mergeMcpServers(path.join(root, '.cursor', 'mcp.json'), 'mcpServers', serverEntry()));
      changes.push(cursorHooks(path.join(root, '.cursor', 'hooks.json')));
    } else if (c === 'gemini') {
      changes.push(geminiSettings(path.join(root, '.gemini', 'settings.json')));
    } else if (c === 'codex') {
      changes.push(codexConfig(path.join(root, '.codex', 'config.toml')));
    } else if (c === 'opencode') {
      const file = path.join(root, 'opencode.json');
      const { text, data } = readJson(file);
      const entry = serverEntry();
      const mcp = { ...asObj(data.mcp), 'code-intel': { type: 'local', command: [entry.command, ...entry.args], enabled: true } };
      changes.push({ file, before: text, after: JSON.stringify({ $schema: 'https://opencode.ai/config.json', ...data, mcp }, null, 2) + '\n' });
    }
  }
  return changes.filter((ch) => ch.before !== ch.after);
}

/**
 * Codex reads project MCP servers from .codex/config.toml ([mcp_servers.NAME], trusted projects).
 * Our table is replaced in place as text, so the user's other tables and comments survive.
 */
function codexConfig(file: string): FileChange {
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const str = (x: string) => JSON.stringify(x); // a TOML basic string has JSON's escapes
  const ours = `[mcp_servers.code-intel]\ncommand = "node"\nargs = [${[CLI_JS, 'serve', '.'].map(str).join(', ')}]\n`;
  const lines = (before ?? '').split('\n');
  const kept: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) skipping = header[1] === 'mcp_servers.code-intel' || header[1]!.startsWith('mcp_servers.code-intel.');
    if (!skipping) kept.push(line);
  }
  const rest = kept.join('\n').replace(/\n+$/, '');
  return { file, before, after: (rest ? rest + '\n\n' : '') + ours };
}

export function applyInit(changes: FileChange[]): void {
  for (const ch of changes) {
    fs.mkdirSync(path.dirname(ch.file), { recursive: true });
    fs.writeFileSync(ch.file, ch.after);
  }
}

/** A compact line diff for --dry-run. */
export function describeChange(root: string, ch: FileChange): string {
  const rel = path.relative(root, ch.file);
  const before = ch.before?.split('\n') ?? [];
  const after = ch.after.split('\n');
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  const lines = [`--- ${ch.before === null ? '/dev/null' : rel}`, `+++ ${rel}`];
  for (const l of before) if (!afterSet.has(l)) lines.push(`- ${l}`);
  for (const l of after) if (!beforeSet.has(l)) lines.push(`+ ${l}`);
  return lines.join('\n');
}
