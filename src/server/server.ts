import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Project } from '../project/project.js';
import { log } from '../util/log.js';
import { PACKAGE_ROOT } from '../util/paths.js';
import { SessionService } from '../session/service.js';
import { semanticEngine } from '../embeddings/engine.js';
import { warmQueryIndex } from '../query/lexical.js';
import { z } from 'zod';
import { expandCodeCommand } from '../clients/code-command.js';
import { collectTools, installDispatcher } from './dispatch.js';
import { budgetFromEnv } from './limits.js';
import { registerTools } from './register.js';
import { EXPLORATION_TOOLS } from '../tools/exploration.js';
import { SESSION_TOOLS } from '../tools/session.js';
import { GuardedStdioTransport } from './stdio.js';

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export interface ServerOptions {
  /** time budget of one tool call in ms (default: CODE_INTEL_BUDGET_MS, else 2000) */
  budgetMs?: number;
  /** 'exploration': only the read-only exploration tools (a lighter tools/list for agents that only explore) */
  tools?: 'all' | 'exploration';
}

export function createServer(project: Project, opts: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'code-intel', version: packageVersion() },
    {
      instructions:
        'code-intel indexes this project with tree-sitter. Start with `query` for a feature described in words, then ' +
        'find_definitions / find_references for precise answers; every result says how sure it is (confidence). ' +
        'For a /code request, start_session first: the session machine then gates every tool by phase ' +
        '(EXPLORATION → VALIDATION → SEMANTIC → VERIFICATION → READY) and edits are allowed only in READY, only to explored files.',
    },
  );
  const tools = collectTools(server);
  const sessions = new SessionService(project);
  // the exploration tools still ask the session machine: a /code session started elsewhere gates them too
  registerTools(server, project, sessions, EXPLORATION_TOOLS);
  if (opts.tools !== 'exploration') registerSessionSurface(server, project, sessions);
  installDispatcher(server, tools, { budgetMs: opts.budgetMs ?? budgetFromEnv() });
  return server;
}

/** The /code session tools, and /code itself as an MCP prompt (clients show prompts as slash commands). */
function registerSessionSurface(server: McpServer, project: Project, sessions: SessionService): void {
  registerTools(server, project, sessions, SESSION_TOOLS);
  server.registerPrompt(
    'code',
    {
      title: '/code — understand first, then change',
      description: "Walks the agent through code-intel's phase-gated session (explore, validate, then edit only explored files) for a request.",
      argsSchema: { request: z.string().min(1).max(20_000).describe('what to build, fix or explain') },
    },
    ({ request }) => ({ messages: [{ role: 'user', content: { type: 'text', text: expandCodeCommand(request) } }] }),
  );
}

/**
 * Serves MCP over stdio until the client goes away. The client gets its `initialize` answer at once;
 * the index is brought up to date in the background (committed in batches, so a killed server
 * resumes where it stopped), and each tool call waits for it as src/server/index-wait.ts says.
 */
export async function serveStdio(root: string, opts: ServerOptions = {}): Promise<void> {
  const project = new Project(root);
  const server = createServer(project, opts);
  const transport = new GuardedStdioTransport();
  transport.onerror = (e) => log.info(`transport: ${e.message}`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => {
      project.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.stdin.on('end', shutdown);
  // the client closed its end of the pipe (EPIPE): nobody is listening any more
  process.stdout.on('error', shutdown);
  await server.connect(transport);
  const t0 = performance.now();
  project
    .refresh()
    .then((f) => {
      log.info(`indexed ${f.files} files in ${Math.round(performance.now() - t0)} ms (${f.reindexed_now} re-indexed); serving ${project.root} over stdio`);
      semanticEngine(project).warm(); // embeds changed chunks in the background, batch by batch, once the index is there
      setImmediate(() => warmQueryIndex(project)); // and the first `query` does not build its symbol index in its budget
      project.watch(); // from now on an edit is re-indexed as it happens, not when the next call checks
    })
    .catch((e) => log.error('background indexing failed', e));
}
