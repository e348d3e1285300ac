import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Project } from '../query/project.js';
import { log } from '../util/log.js';
import { PACKAGE_ROOT } from '../util/paths.js';
import { SessionService } from '../session/service.js';
import { collectTools, installDispatcher } from './dispatch.js';
import { registerExplorationTools } from './exploration-tools.js';
import { budgetFromEnv } from './limits.js';
import { registerSessionTools, sessionGate } from './session-tools.js';
import { GuardedStdioTransport } from './stdio.js';

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export interface ServerOptions {
  /** time budget of one tool call in ms (default: CODE_INTEL_BUDGET_MS, else 2000) */
  budgetMs?: number;
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
  sessions.engine.warm(); // embeds changed chunks in the background when a model is installed
  registerExplorationTools(server, project, sessionGate(sessions));
  registerSessionTools(server, project, sessions);
  installDispatcher(server, tools, { budgetMs: opts.budgetMs ?? budgetFromEnv() });
  return server;
}

/** Indexes the project (incrementally), then serves MCP over stdio until the client goes away. */
export async function serveStdio(root: string): Promise<void> {
  const project = new Project(root);
  const t0 = performance.now();
  const fresh = await project.refresh();
  log.info(`indexed ${fresh.files} files in ${Math.round(performance.now() - t0)} ms (${fresh.reindexed_now} re-indexed); serving ${project.root} over stdio`);
  const server = createServer(project);
  const transport = new GuardedStdioTransport();
  transport.onerror = (e) => log.info(`transport: ${e.message}`);
  const shutdown = () => {
    void server.close().finally(() => {
      project.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.stdin.on('end', shutdown);
  await server.connect(transport);
}
