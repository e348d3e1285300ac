#!/usr/bin/env node
/** The `code-intel` command: index a project, serve it over MCP, and the exploration tools for humans. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { indexProject } from '../project/indexing.js';
import type { OutlineNode } from '../query/outline.js';
import { Project } from '../project/project.js';
import { relInsideRoot, UserError } from '../util/paths.js';
// the MCP server and the query tools are imported by the commands that use them: `index` (and
// every hook run) does not load them (≈ 0.2 s of a cold index of a small project)

const USAGE = `code-intel — a precise code index and MCP server for coding agents

Usage:
  code-intel index [DIR]              index DIR (default .) incrementally; progress on stderr, summary on stdout
  code-intel serve [DIR]              index DIR, then serve MCP over stdio (what an MCP client runs)
  code-intel defs NAME [--from FILE:LINE:COL]   where NAME is defined (or what a usage resolves to)
  code-intel refs NAME [--at FILE:LINE[:COL]] [--no-guesses]   where NAME is used
  code-intel search PATTERN [--regex] [-i] [--glob G] [--path P]   text search
  code-intel symbols FILE             outline of a file
  code-intel query TEXT               rank symbols and files for words or a feature description
  code-intel init [DIR] [--client C]… [--dry-run]   set up Claude Code (default) or cursor, gemini, codex, opencode, all
  code-intel init --remove [DIR] [--client C]… [--dry-run]   take out what init added (every client unless --client)
  code-intel hook EVENT               run a client hook (pre-tool-use, post-tool-use, user-prompt-submit, stop) on stdin
  code-intel guard status|reset       what the write guard allows now; reset (a person at a terminal only) ends a guarded turn
  code-intel sessions                 list the project's /code sessions
  code-intel show ID                  a session's timeline: phases, tool calls, evidence, denials, outcome
  code-intel semantic TEXT [--path P] semantic_search from the command line (hybrid: model + keywords + history)
  code-intel model pull [--model M] [--dir D]   download the embedding model (multilingual-e5-small) where a network allows
  code-intel model install-runtime [--dir D]    install the model runtime (@huggingface/transformers, ~430 MB) from the npm registry
  code-intel doctor [DIR]             which relevance backend is active, where the model is (or is not), and what to do

Options:
  --root DIR     project root for defs/refs/search/symbols/query (default .)
  --json         print JSON instead of text
  --limit N      results per page (default 50)   --offset N   skip N results
  -h, --help     this help          --version   the version
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      root: { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      from: { type: 'string' },
      at: { type: 'string' },
      'no-guesses': { type: 'boolean' },
      regex: { type: 'boolean' },
      i: { type: 'boolean', short: 'i' },
      glob: { type: 'string', multiple: true },
      path: { type: 'string' },
      client: { type: 'string', multiple: true },
      'dry-run': { type: 'boolean' },
      remove: { type: 'boolean' },
      model: { type: 'string' },
      dir: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
      tools: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.version) {
    const { packageVersion } = await import('../server/server.js');
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 1;
  }
  const limit = values.limit ? Number(values.limit) : undefined;
  const offset = values.offset ? Number(values.offset) : undefined;
  const out = (data: unknown, text: () => string) => process.stdout.write((values.json ? JSON.stringify(data, null, 2) : text()) + '\n');

  if (command === 'hook') {
    const { hookMain } = await import('../hooks/main.js');
    await hookMain(rest[0], process.argv.slice(2).filter((a) => a.startsWith('--client=')));
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  }
  if (command === 'init') {
    const { CLIENTS, planInit, planRemove, applyInit, describeChange, onPath } = await import('../clients/init.js');
    const root = path.resolve(rest[0] ?? values.root ?? '.');
    const asked = values.client ?? [values.remove ? 'all' : 'claude-code'];
    const clients = asked.includes('all') ? CLIENTS : asked;
    for (const c of clients) if (!CLIENTS.includes(c as never)) throw new UserError(`unknown client '${c}'`, `Use one of: ${CLIENTS.join(', ')}, all`);
    const { changes, kept } = values.remove ? planRemove(root, clients as never) : { changes: planInit(root, clients as never), kept: [] };
    const keptLines = kept.map((k) => `kept ${path.relative(root, k.file)}: ${k.why}`);
    if (values['dry-run']) {
      process.stdout.write([changes.length ? changes.map((c) => describeChange(root, c)).join('\n\n') : 'nothing to change', ...keptLines].join('\n') + '\n');
      return 0;
    }
    applyInit(changes);
    const what = (c: { file: string; before: string | null; after: string | null }) => `${c.after === null ? 'deleted' : c.before === null ? 'wrote' : 'updated'} ${path.relative(root, c.file)}`;
    if (values.remove) {
      process.stdout.write([
        ...changes.map(what),
        changes.length ? '' : 'nothing of code-intel\'s left to remove',
        ...keptLines,
        'the index stays in .code-intel/ (git ignores it); delete that folder to drop it too',
      ].filter(Boolean).join('\n') + '\n');
      return 0;
    }
    const project = new Project(root); // creates .code-intel/ and the index the hooks read
    const { SessionStore } = await import('../session/store.js');
    new SessionStore(project.db); // and the session tables, so the first /code prompt is recorded before any server ran
    const stats = await indexProject(project.db, project.root);
    project.close();
    process.stdout.write([
      ...changes.map(what),
      changes.length ? '' : 'already set up: nothing changed',
      `indexed ${stats.files} files (${stats.parsed} parsed)`,
      onPath()
        ? 'the configs name the `code-intel` command: they work on any machine where code-intel is installed'
        : 'note: code-intel is not installed on PATH, so the configs hold this checkout\'s path (fine on this machine; teammates should `npm install -g code-intel` and run init themselves)',
      ...nextSteps(clients as string[]),
    ].filter(Boolean).join('\n') + '\n');
    return 0;
  }
  if (command === 'guard') {
    const { guardReset, guardStatus } = await import('./guard-commands.js');
    const root = path.resolve(values.root ?? rest[1] ?? '.');
    if (rest[0] === 'status') return guardStatus(root, !!values.json);
    if (rest[0] === 'reset') return guardReset(root);
    throw new UserError(`unknown guard command '${rest[0] ?? ''}'`, 'Use: code-intel guard status | code-intel guard reset');
  }
  if (command === 'model' || command === 'doctor') {
    const { doctor, modelInstallRuntime, modelPull } = await import('./model-commands.js');
    if (command === 'doctor') return doctor(path.resolve(rest[0] ?? values.root ?? '.'), { json: values.json });
    if (rest[0] === 'install-runtime') return modelInstallRuntime({ dir: values.dir, json: values.json });
    if (rest[0] !== 'pull') throw new UserError(`unknown model command '${rest[0] ?? ''}'`, 'Use: code-intel model pull [--model NAME] [--dir DIR] | code-intel model install-runtime [--dir DIR]');
    return modelPull(path.resolve(values.root ?? '.'), { model: values.model, dir: values.dir, json: values.json });
  }
  if (command === 'sessions' || command === 'show') {
    const { SessionStore } = await import('../session/store.js');
    const project = new Project(path.resolve(values.root ?? '.'));
    try {
      const store = new SessionStore(project.db);
      if (command === 'sessions') {
        const rows = store.list(limit ?? 50);
        out(rows.map(({ snapshot: _s, ...r }) => r), () => rows.length === 0 ? 'no sessions yet' : rows.map((r) =>
          `${r.id}  ${new Date(r.created_at).toISOString()}  ${r.status.padEnd(8)} ${r.phase.padEnd(12)} ${r.intent.padEnd(11)} ${r.outcome ?? ''}  ${r.query.replace(/\s+/g, ' ').slice(0, 60)}`).join('\n'));
        return 0;
      }
      const id = rest[0];
      const row = id ? store.get(id) : undefined;
      if (!row) throw new UserError(`no session '${id ?? ''}'`, 'List sessions with: code-intel sessions');
      const { formatTimeline } = await import('../session/timeline.js');
      const timeline = { session: { ...row, snapshot: undefined }, transitions: store.transitions(row.id), ledger: store.ledger(row.id) };
      out(timeline, () => formatTimeline(timeline));
      return 0;
    } finally {
      project.close();
    }
  }
  if (command === 'serve') {
    const tools = values.tools ?? 'all';
    if (tools !== 'all' && tools !== 'exploration') throw new UserError(`unknown tool set '${tools}'`, 'Use --tools all (default: exploration and the /code session) or --tools exploration (read-only exploration only).');
    const { serveStdio } = await import('../server/server.js');
    await serveStdio(path.resolve(rest[0] ?? values.root ?? '.'), { tools });
    return -1; // keep running
  }
  if (command === 'index') {
    const root = path.resolve(rest[0] ?? values.root ?? '.');
    const project = new Project(root);
    const tty = process.stderr.isTTY;
    let lastDraw = 0;
    const stats = await indexProject(project.db, project.root, {
      onProgress: (done, total, stage) => {
        if (stage === 'link') return;
        const now = Date.now();
        if (!tty || (now - lastDraw < 80 && done < total)) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round((done / Math.max(total, 1)) * width);
        process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} files`);
        if (done === total) process.stderr.write('\n');
      },
    });
    if (!tty) process.stderr.write(`indexed ${stats.parsed} changed files\n`);
    out(stats, () =>
      [
        `${project.root}`,
        `  files       ${stats.files} (${stats.parsed} parsed, ${stats.files - stats.parsed} unchanged, ${stats.removed} removed)`,
        `  symbols     ${stats.symbols}`,
        `  references  ${stats.references}`,
        `  recovered   ${stats.recovered} files (statement ends made explicit: code without semicolons); ${stats.parseErrors} still with syntax errors`,
        `  time        ${Math.round(stats.ms)} ms${stats.link ? ` (linking ${stats.link.imports} imports of ${stats.link.files} files: ${Math.round(stats.link.ms)} ms)` : ''}`,
        `  skipped     ${stats.skipped.length}${skippedBreakdown(stats.skipped)}${stats.skipped.slice(0, 10).map((s) => `\n    ${s.file}: ${s.reason}`).join('')}${stats.skipped.length > 10 ? `\n    … ${stats.skipped.length - 10} more` : ''}`,
      ].join('\n'),
    );
    project.close();
    return 0;
  }

  const project = new Project(path.resolve(values.root ?? '.'));
  try {
    await project.refresh();
    const need = (what: string) => {
      if (!rest[0]) throw new UserError(`${command} needs ${what}`, `Example: code-intel ${command} ${what.toUpperCase()}`);
      return rest[0];
    };
    switch (command) {
      case 'defs': {
        const { findDefinitions } = await import('../query/definitions.js');
        const from = values.from ? parseSite(project.root, values.from, true) : undefined;
        const r = findDefinitions(project, { name: rest[0], from: from as { file: string; line: number; column: number } | undefined, limit, offset });
        out(r, () => [...r.items.map((d) => `${d.file}:${d.line}:${d.column}  ${d.kind} ${d.container ? d.container + '.' : ''}${d.name}  [${d.confidence}]\n    ${d.snippet}`), `(${r.resolution})`].join('\n'));
        return 0;
      }
      case 'refs': {
        const { findReferences } = await import('../query/references.js');
        const at = values.at ? parseSite(project.root, values.at, false) : undefined;
        const r = findReferences(project, { name: rest[0], ...at, include_guesses: !values['no-guesses'], limit, offset });
        out(r, () => [
          ...r.items.map((x) => `${x.file}:${x.line}:${x.column}  ${x.kind.padEnd(6)} [${x.confidence}]  ${x.snippet}`),
          `${r.total} references (resolved ${r.counts.resolved}, imported ${r.counts.imported}, name_match ${r.counts.name_match})${r.next_offset != null ? `; more with --offset ${r.next_offset}` : ''}`,
          r.note,
        ].join('\n'));
        return 0;
      }
      case 'search': {
        const { searchText } = await import('../query/search-text.js');
        const r = searchText(project, { pattern: need('pattern'), regex: values.regex, case_sensitive: !values.i, glob: values.glob, path: values.path ? relInsideRoot(project.root, values.path) : undefined, limit, offset });
        out(r, () => [...r.items.map((m) => `${m.file}:${m.line}:${m.column}  ${m.snippet}`), `${r.total}${r.total_is_lower_bound ? '+' : ''} matches in ${r.files_searched} files searched`].join('\n'));
        return 0;
      }
      case 'symbols': {
        const { getSymbols } = await import('../query/outline.js');
        const r = getSymbols(project, { file: relInsideRoot(project.root, need('file')), limit, offset });
        const lines: string[] = [];
        const walk = (n: OutlineNode, d: number) => {
          lines.push(`${'  '.repeat(d)}${n.kind} ${n.name}  :${n.line}${n.exported ? '  (exported)' : ''}`);
          n.children.forEach((c) => walk(c, d + 1));
        };
        r.items.forEach((n) => walk(n, 0));
        out(r, () => lines.join('\n'));
        return 0;
      }
      case 'semantic': {
        const { semanticSearch } = await import('../query/semantic.js');
        const r = await semanticSearch(project, { query: rest.join(' '), limit, offset, path: values.path ? relInsideRoot(project.root, values.path) : undefined });
        out(r, () => [
          ...r.items.map((s) => `${s.score.toFixed(3)}  ${s.file}:${s.start_line}-${s.end_line}  ${s.kind} ${s.symbol}  [${s.backend}]`),
          `backend ${r.backend}; terms: ${r.expanded_terms.join(', ')}`,
        ].join('\n'));
        return 0;
      }
      case 'query': {
        const { queryHybrid } = await import('../query/hybrid-query.js');
        const r = await queryHybrid(project, { text: rest.join(' '), limit, offset });
        out(r, () => r.symbols.map((s) => `${s.score.toFixed(3)}  ${s.file}:${s.line}  ${s.kind} ${s.container ? s.container + '.' : ''}${s.name}`).join('\n'));
        return 0;
      }
      default:
        process.stderr.write(`unknown command '${command}'\n\n${USAGE}`);
        return 1;
    }
  } finally {
    project.close();
  }
}

/** " (2 unreadable, 1 larger than 1024 KiB)": the skipped paths by reason. */
function skippedBreakdown(skipped: { reason: string }[]): string {
  if (skipped.length === 0) return '';
  const by = new Map<string, number>();
  for (const s of skipped) {
    const kind = /^[^:(]*/.exec(s.reason)![0].trim(); // 'unreadable: EACCES', 'minified or bundled (lines of …'
    by.set(kind, (by.get(kind) ?? 0) + 1);
  }
  return ` (${[...by].map(([k, n]) => `${n} ${k}`).join(', ')})`;
}

function parseSite(root: string, s: string, needColumn: boolean): { file: string; line: number; column?: number } {
  const m = /^(.*?):(\d+)(?::(\d+))?$/.exec(s);
  if (!m || (needColumn && !m[3])) throw new UserError(`'${s}' is not FILE:LINE${needColumn ? ':COL' : '[:COL]'}`, 'Example: src/app.ts:12:5');
  return { file: relInsideRoot(root, m[1]!), line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UserError) process.stderr.write(`error: ${e.message}${e.hint ? `\n${e.hint}` : ''}\n`);
    else if ((e as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')) process.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}`);
    else process.stderr.write(`error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);

/** What the person still has to do after init, per client (what init cannot do for them). */
function nextSteps(clients: string[]): string[] {
  const steps: Record<string, string> = {
    'claude-code': 'Claude Code: start `claude` in this project and trust the folder when asked; the code-intel server and its tools are approved in your own .claude/settings.local.json (`/mcp` shows it connected, `/hooks` lists the guard); then type `/code <request>`. Teammates run `code-intel init` themselves.',
    gemini: 'Gemini CLI: trust this folder when asked (untrusted folders run no servers or hooks); `gemini mcp list` shows code-intel.',
    cursor: 'Cursor: enable the code-intel server in its MCP settings; the hooks apply to new agent sessions.',
    codex: 'Codex: trust this project (Codex ignores project config in untrusted projects), then review and trust the code-intel hooks in `/hooks` (Codex runs no project hook until you do); `codex mcp list` shows code-intel.',
    opencode: 'OpenCode: restart it in this project; the server appears under MCP, and the write guard is the plugin in .opencode/plugins/code-intel-guard.js (loaded at startup).',
  };
  const out = clients.map((c) => steps[c]).filter((x): x is string => !!x);
  return out.length ? ['next:', ...out.map((x) => `  ${x}`)] : [];
}

