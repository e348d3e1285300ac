/** The read-only exploration tools: definitions, references, text search, outlines, structure, query. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { findDefinitions } from '../query/definitions.js';
import { runQuery } from '../query/lexical.js';
import { getSymbols } from '../query/outline.js';
import type { Project } from '../query/project.js';
import { findReferences } from '../query/references.js';
import { searchTextGuarded } from '../query/search-pool.js';
import { analyzeStructure } from '../query/structure.js';
import { currentDeadline, Deadline } from '../util/deadline.js';
import { relInsideRoot } from '../util/paths.js';
import { type Extra, indexFor } from './index-wait.js';
import { LIMITS, list, MAX_POSITION, pathArg, text } from './limits.js';
import { fitAnswer, fromException, ok } from './respond.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const page = {
  limit: z.number().int().min(1).max(500).optional().describe('page size (default 50; max 500)'),
  offset: z.number().int().min(0).max(MAX_POSITION).optional().describe('skip this many results (use next_offset from the previous page)'),
};
const position = {
  line: z.number().int().min(1).max(MAX_POSITION).describe('1-based line'),
  column: z.number().int().min(1).max(MAX_POSITION).describe('1-based column (UTF-16 code units)'),
};
const filePath = pathArg('file', 1).describe('file path relative to the project root');
const symbolName = text(LIMITS.name, 'name').min(1);
const kindArg = text(64, 'kind');

/** When the index is being brought up to date as a call's time runs out. */
const REFRESH_HINT = 'The index was being brought up to date (files changed on disk); call again in a moment.';

/** Called around every tool run; the session machine hooks in here (src/server/session-tools.ts). */
export interface ToolGate {
  /** a tool error to return instead of running the tool, or undefined to run it */
  before(tool: string, args: Record<string, unknown>): CallToolResult | undefined;
  after(tool: string, args: Record<string, unknown>, result: Record<string, unknown> | undefined, error?: string): void;
}

export const OPEN_GATE: ToolGate = { before: () => undefined, after: () => {} };

export function registerExplorationTools(server: McpServer, project: Project, gate: ToolGate = OPEN_GATE): void {
  const run = async (
    tool: string, args: Record<string, unknown>, fn: (deadline: Deadline) => Record<string, unknown> | Promise<Record<string, unknown>>, extra?: Extra,
  ): Promise<CallToolResult> => {
    const blocked = gate.before(tool, args);
    if (blocked) return blocked;
    const deadline = currentDeadline() ?? new Deadline(tool, Number.POSITIVE_INFINITY);
    try {
      deadline.hint = REFRESH_HINT;
      const freshness = await indexFor(project, extra);
      deadline.hint = undefined;
      deadline.check();
      // the session records what the agent is shown: the answer as cut to its size cap
      const result = fitAnswer({ ...(await fn(deadline)), index: freshness });
      if (deadline.abandoned) throw deadline.error(); // answered budget_exceeded already: nothing was shown
      gate.after(tool, args, result);
      return ok(result);
    } catch (e) {
      gate.after(tool, args, undefined, (e as Error)?.message ?? String(e));
      return fromException(tool, e);
    }
  };
  const inside = (p: string) => relInsideRoot(project.root, p);

  server.registerTool(
    'find_definitions',
    {
      title: 'Find definitions',
      description:
        'Where a symbol is defined, from the syntax tree. By `name` (or `Container.member`): every definition of that name. ' +
        'With `from` (the file, line and column of a usage): the one definition that usage resolves to through scopes and imports. ' +
        'Each result has `confidence`: resolved / imported are facts, name_match is a guess (a member whose object type is unknown).',
      inputSchema: {
        name: symbolName.optional().describe('symbol name, e.g. "parseConfig" or "Server.start"'),
        from: z.object({ file: filePath, ...position }).optional().describe('a usage site to resolve'),
        kind: kindArg.optional().describe('only this kind: function, class, method, interface, type, enum, variable, constant, property, namespace'),
        ...page,
      },
      annotations: { title: 'Find definitions', ...READ_ONLY },
    },
    (args, extra) =>
      run('find_definitions', args, () => {
        const from = args.from ? { ...args.from, file: inside(args.from.file) } : undefined;
        return { ...findDefinitions(project, { ...args, from }) };
      }, extra),
  );

  server.registerTool(
    'find_references',
    {
      title: 'Find references',
      description:
        'Every place a symbol is used (calls, reads, writes, types, imports, re-exports), resolved through scopes and the module graph; ' +
        'never plain words in comments or strings (a doc comment\'s `{@link X}` / `@see X` tag is resolved like code: kind `doc`). ' +
        'For a method or field, the members that override or implement it (or that it overrides) are included with their uses; their declarations have kind `override` / `overridden`. ' +
        'Pick one of several same-named symbols with `file` + `line` (+ `column`) of its definition. ' +
        'Results carry `confidence`: resolved (same file, by scope), imported (through imports), name_match (a guess: same member name, type unknown); facts come first.',
      inputSchema: {
        name: symbolName.optional().describe('symbol name, or Container.member'),
        file: filePath.optional().describe('file of the definition (with line/column) to pick one symbol'),
        line: position.line.optional(),
        column: position.column.optional(),
        include_guesses: z.boolean().optional().describe('include name_match guesses (default true)'),
        ...page,
      },
      annotations: { title: 'Find references', ...READ_ONLY },
    },
    (args, extra) => run('find_references', args, () => ({ ...findReferences(project, { ...args, file: args.file ? inside(args.file) : undefined }) }), extra),
  );

  server.registerTool(
    'search_text',
    {
      title: 'Search text',
      description:
        'ripgrep-style search of the project\'s text files (.gitignore honoured). Literal by default; `regex: true` for a JavaScript regular expression. ' +
        'Filter with `path` (a directory or file) and `glob` (e.g. "*.ts", "src/**/*.tsx", "!**/*.test.ts"). ' +
        'A search that runs out of time answers with what it found so far (total_is_lower_bound); a regex that cannot finish in time is stopped (budget_exceeded).',
      inputSchema: {
        pattern: text(LIMITS.pattern, 'pattern').min(1).describe('text, or a regex with regex: true'),
        regex: z.boolean().optional(),
        case_sensitive: z.boolean().optional().describe('default true'),
        glob: z.union([text(LIMITS.glob, 'glob'), list(text(LIMITS.glob, 'glob'), 32, 'glob')]).optional(),
        path: pathArg().optional().describe('directory or file relative to the project root'),
        ...page,
      },
      annotations: { title: 'Search text', ...READ_ONLY },
    },
    (args, extra) => run('search_text', args, async (deadline) => ({ ...(await searchTextGuarded(project, { ...args, path: args.path ? inside(args.path) : undefined }, deadline)) }), extra),
  );

  server.registerTool(
    'get_symbols',
    {
      title: 'File outline',
      description: 'The symbols of one file, nested (classes with their methods and properties), with kind, line and signature.',
      inputSchema: {
        file: filePath,
        depth: z.number().int().min(1).max(10).optional().describe('nesting depth to show (default 3)'),
        ...page,
      },
      annotations: { title: 'File outline', ...READ_ONLY },
    },
    (args, extra) => run('get_symbols', args, () => ({ ...getSymbols(project, { ...args, file: inside(args.file) }) }), extra),
  );

  server.registerTool(
    'analyze_structure',
    {
      title: 'Analyze structure',
      description:
        'A file: its imports (resolved to project files or external), exports, top-level declarations and calls (caller → callee, resolved target). ' +
        'A directory ("." for the root): its modules and the import edges between them, plus external dependencies.',
      inputSchema: { path: pathArg().describe('file or directory relative to the project root'), ...page },
      annotations: { title: 'Analyze structure', ...READ_ONLY },
    },
    (args, extra) => run('analyze_structure', args, () => ({ ...analyzeStructure(project, { ...args, path: inside(args.path || '.') }) }), extra),
  );

  server.registerTool(
    'query',
    {
      title: 'Query',
      description:
        'A starting point from natural language or keywords ("session lock", "parse config file"): ranks symbols and files by the words in their ' +
        'names (camelCase/snake_case split), containers, paths and signatures. Follow up with find_definitions / find_references.',
      inputSchema: {
        text: text(LIMITS.query, 'text').min(1).describe('what you are looking for'),
        kind: kindArg.optional().describe('only this symbol kind'),
        ...page,
      },
      annotations: { title: 'Query', ...READ_ONLY },
    },
    (args, extra) => run('query', args, () => ({ ...runQuery(project, args) }), extra),
  );
}
