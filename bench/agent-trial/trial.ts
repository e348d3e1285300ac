#!/usr/bin/env node
/**
 * agent-trial: lets an agent that has only a shell act exactly like Claude Code driving code-intel.
 * Every command is one tool call (or one user/turn event) of the simulated client, with the hooks
 * `code-intel init` configured, a real transcript, and the MCP server over stdio.
 *
 *   node dist/bench/agent-trial/trial.js <command> … --dir DIR   (or TRIAL_DIR=DIR)
 *
 * See bench/agent-trial/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BASH_DEFAULT_MS, BASH_MAX_MS, absIn, doBash, doEdit, doGrep, doRead, doWrite, type GrepOpts } from './cc-tools.js';
import { commandList, OPERATOR_USAGE } from './commands.js';
import { hookLines } from './hooks.js';
import { appendLog, phaseOf } from './log.js';
import { callTool, listTools, shownText } from './mcp.js';
import { buildReport, formatReport } from './report.js';
import { expandCommand, setup } from './setup.js';
import { type CallOutcome, EXIT, print, simulate, stopTurn, userPrompt } from './simulate.js';
import { loadState, NESTED_MARK, trialDir, trunc, withLock } from './state.js';

const OPTIONS = {
  dir: { type: 'string' },
  repo: { type: 'string' },
  request: { type: 'string' },
  rev: { type: 'string' },
  'files-from': { type: 'string', multiple: true },
  offset: { type: 'string' },
  limit: { type: 'string' },
  path: { type: 'string' },
  glob: { type: 'string' },
  content: { type: 'string' },
  'content-file': { type: 'string' },
  count: { type: 'boolean' },
  i: { type: 'boolean', short: 'i' },
  C: { type: 'string', short: 'C' },
  'head-limit': { type: 'string' },
  old: { type: 'string' },
  new: { type: 'string' },
  'old-file': { type: 'string' },
  'new-file': { type: 'string' },
  'replace-all': { type: 'boolean' },
  timeout: { type: 'string' },
  'args-file': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function int(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a non-negative integer, not '${v}'`);
  return n;
}

const readText = (f: string) => (f === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(path.resolve(f), 'utf8'));

/** `grep --content` takes no value; `--content TEXT` is write's. parseArgs cannot have both, so grep's is spotted first. */
function splitGrepContent(argv: string[]): { argv: string[]; content: boolean } {
  if (argv[0] !== 'grep') return { argv, content: false };
  const i = argv.indexOf('--content');
  return i < 0 ? { argv, content: false } : { argv: [...argv.slice(0, i), ...argv.slice(i + 1)], content: true };
}

async function main(rawArgv: string[]): Promise<number> {
  if (process.env[NESTED_MARK]) {
    process.stdout.write('ERROR: the harness cannot be run from inside its own bash tool: call it directly from your shell.\n');
    return EXIT.error;
  }
  const grepContent = splitGrepContent(rawArgv);
  const { values: v, positionals } = parseArgs({ args: grepContent.argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  if (!command || v.help || command === 'help') {
    print([OPERATOR_USAGE, commandList(v.dir ?? process.env.TRIAL_DIR)]);
    return command || v.help ? EXIT.ok : EXIT.error;
  }
  const dir = trialDir(v.dir);

  if (command === 'setup') {
    fs.mkdirSync(dir, { recursive: true });
    return withLock(dir, () => setup(dir, { repo: v.repo ?? rest[0] ?? '', request: v.request ?? '', rev: v.rev, filesFrom: v['files-from'] }));
  }

  return withLock(dir, async () => {
    const s = loadState(dir);
    switch (command) {
      case 'call': {
        const tool = (rest[0] ?? '').replace(/^mcp__code-intel__/, '');
        if (!tool) throw new Error("call needs a tool name: call TOOL 'JSON'");
        const json = v['args-file'] ? readText(v['args-file']) : rest[1] ?? '{}';
        let args: Record<string, unknown>;
        try {
          args = JSON.parse(json) as Record<string, unknown>;
        } catch (e) {
          throw new Error(`the arguments are not JSON (${(e as Error).message}): ${trunc(json, 200)}`);
        }
        if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error('the arguments must be a JSON object');
        return simulate(s, {
          command, tool: `mcp__code-intel__${tool}`, logTool: tool, input: args,
          perform: async (): Promise<CallOutcome> => {
            const a = await callTool(s, tool, args);
            const text = a.content.map((b) => (b.type === 'text' ? b.text ?? '' : `[${b.type}]`)).join('\n');
            const sc = a.structured ?? {};
            const printed = (a.isError ? 'MCP tool error (isError: true):\n' : '') + shownText(a);
            const { index: _index, ...brief } = sc; // index freshness is noise in the log
            const summary = a.isError ? `${String(sc.error ?? 'error')}: ${String(sc.message ?? text)}${sc.next_step ? ` — next: ${String(sc.next_step)}` : ''}` : JSON.stringify(brief);
            const refused = !a.isError && (sc.allowed === false || sc.success === false) ? `${String(sc.error ?? 'refused')}: ${String(sc.message ?? sc.hint ?? JSON.stringify(sc))}` : undefined;
            return { ok: !a.isError, text, response: a.content, error: a.isError ? summary : undefined, printed, refused, logMessage: summary };
          },
        });
      }
      case 'read': {
        const file = rest[0];
        if (!file) throw new Error('read needs a FILE');
        const offset = int(v.offset, '--offset');
        const limit = int(v.limit, '--limit');
        const abs = absIn(s, file);
        return simulate(s, {
          command, tool: 'Read', logTool: 'Read', input: { file_path: abs, ...(offset !== undefined ? { offset } : {}), ...(limit !== undefined ? { limit } : {}) },
          perform: async () => doRead(s, abs, offset, limit),
        });
      }
      case 'grep': {
        const pattern = rest[0];
        if (pattern === undefined) throw new Error('grep needs a PATTERN');
        const mode: GrepOpts['mode'] = grepContent.content ? 'content' : v.count ? 'count' : 'files_with_matches';
        const o: GrepOpts = { mode, path: v.path, glob: v.glob, ignoreCase: v.i, context: int(v.C, '-C'), headLimit: int(v['head-limit'], '--head-limit') };
        const input: Record<string, unknown> = { pattern, output_mode: mode };
        if (o.path) input.path = absIn(s, o.path);
        if (o.glob) input.glob = o.glob;
        if (o.ignoreCase) input['-i'] = true;
        if (mode === 'content') input['-n'] = true;
        if (o.context !== undefined) input['-C'] = o.context;
        if (o.headLimit !== undefined) input.head_limit = o.headLimit;
        return simulate(s, { command, tool: 'Grep', logTool: 'Grep', input, perform: async () => doGrep(s, pattern, o) });
      }
      case 'edit': {
        const file = rest[0];
        if (!file) throw new Error('edit needs FILE --old TEXT --new TEXT');
        const oldS = v['old-file'] ? readText(v['old-file']) : v.old;
        const newS = v['new-file'] ? readText(v['new-file']) : v.new;
        if (oldS === undefined || newS === undefined) throw new Error('edit needs --old TEXT (or --old-file F) and --new TEXT (or --new-file F)');
        const abs = absIn(s, file);
        return simulate(s, {
          command, tool: 'Edit', logTool: 'Edit', input: { file_path: abs, old_string: oldS, new_string: newS, ...(v['replace-all'] ? { replace_all: true } : {}) },
          perform: async () => doEdit(s, abs, oldS, newS, v['replace-all'] === true),
        });
      }
      case 'write': {
        const file = rest[0];
        const content = v['content-file'] ? readText(v['content-file']) : v.content;
        if (!file || content === undefined) throw new Error('write needs FILE and --content TEXT (or --content-file F)');
        const abs = absIn(s, file);
        return simulate(s, { command, tool: 'Write', logTool: 'Write', input: { file_path: abs, content }, perform: async () => doWrite(s, abs, content) });
      }
      case 'bash': {
        const cmd = rest.join(' ');
        if (!cmd.trim()) throw new Error("bash needs a command: bash 'CMD'");
        const timeout = Math.min(int(v.timeout, '--timeout') ?? BASH_DEFAULT_MS, BASH_MAX_MS);
        return simulate(s, {
          command, tool: 'Bash', logTool: 'Bash', input: { command: cmd, ...(v.timeout !== undefined ? { timeout } : {}) },
          perform: async () => doBash(s, cmd, timeout),
        });
      }
      case 'stop':
        return stopTurn(s);
      case 'prompt': {
        const text = rest.join(' ');
        if (!text.trim()) throw new Error('prompt needs the user\'s message');
        const hv = userPrompt(s, text, 'prompt');
        const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
        const cmdFile = m ? path.join(s.project, '.claude', 'commands', `${m[1]}.md`) : undefined;
        const lines = hookLines(hv);
        if (hv.blocked) print([...lines, `PROMPT BLOCKED: ${hv.blocked}`]);
        else if (cmdFile && fs.existsSync(cmdFile)) {
          const n = fs.readdirSync(s.dir).filter((f) => /^PROMPT-\d+\.md$/.test(f)).length + 2;
          const out = path.join(s.dir, `PROMPT-${n}.md`);
          fs.writeFileSync(out, expandCommand(cmdFile, m![2]!));
          print([...lines, `the user typed ${text.slice(0, 200)}`, `its expansion (what the agent is given) is in ${out}`]);
        } else print([...lines, `the user said: ${text}`]);
        return hv.blocked ? EXIT.denied : EXIT.ok;
      }
      case 'tools': {
        const tools = await listTools(s);
        const want = rest[0]?.replace(/^mcp__code-intel__/, '');
        const shown = want ? tools.filter((t) => t.name === want) : tools;
        if (want && shown.length === 0) throw new Error(`no tool '${want}'; the tools are: ${tools.map((t) => t.name).join(', ')}`);
        const phase = phaseOf(s.project);
        appendLog(s.dir, { command, tool: null, args: rest, outcome: 'ok', phase, phase_after: phase, message: `${shown.length} tool(s) listed`, ms: 0 });
        if (v.json || want) print([JSON.stringify(shown.map((t) => ({ name: `mcp__code-intel__${t.name}`, description: t.description, inputSchema: t.inputSchema })), null, 2)]);
        else print(shown.map((t) => `mcp__code-intel__${t.name}\n    ${(t.description ?? '').replace(/\s+/g, ' ')}\n    input: ${JSON.stringify((t.inputSchema as { properties?: unknown }).properties ?? {})}`));
        return EXIT.ok;
      }
      case 'report': {
        const r = buildReport(s);
        print([v.json ? JSON.stringify(r, null, 2) : formatReport(r)]);
        return EXIT.ok;
      }
      default:
        throw new Error(`unknown command '${command}' (run help)`);
    }
  });
}

const argv = process.argv.slice(2);
main(argv).then((code) => { process.exitCode = code; }, (e: unknown) => {
  const msg = (e as Error)?.message ?? String(e);
  process.stdout.write(`ERROR: ${msg}\n`);
  try {
    const dir = trialDir(parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false }).values.dir as string | undefined);
    const s = loadState(dir);
    const phase = phaseOf(s.project);
    appendLog(dir, { command: argv.find((a) => !a.startsWith('-')) ?? '', tool: null, args: argv.slice(1), outcome: 'error', phase, phase_after: phase, message: msg, ms: 0 });
  } catch { /* no trial to log into */ }
  process.exitCode = EXIT.error;
});
