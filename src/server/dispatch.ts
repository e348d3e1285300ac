/**
 * Every tools/call goes through here: the tool's name and arguments are checked (size, depth,
 * schema) with an error code and a hint for each kind of problem, the tool runs under its time
 * budget, and the answer is capped. It replaces the MCP SDK's own tools/call handler, whose
 * errors are plain text ("Input validation error: …") without a code; tools/list stays the SDK's.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { Deadline, runWithDeadline } from '../util/deadline.js';
import { log } from '../util/log.js';
import { quote } from '../util/paths.js';
import { LIMITS, measureArgs } from './limits.js';
import { answerBytes, fromException, toolError } from './respond.js';

type Handler = (args: unknown, extra: unknown) => CallToolResult | Promise<CallToolResult>;

/** Records every tool registered on `server` from now on, for the dispatcher. */
export function collectTools(server: McpServer): Map<string, RegisteredTool> {
  const tools = new Map<string, RegisteredTool>();
  const register = server.registerTool.bind(server);
  server.registerTool = ((name: string, config: never, cb: never) => {
    const t = register(name, config, cb);
    tools.set(name, t);
    return t;
  }) as typeof server.registerTool;
  return tools;
}

export interface DispatchOptions {
  /** time budget of one call, ms */
  budgetMs: number;
}

export function installDispatcher(server: McpServer, tools: Map<string, RegisteredTool>, opts: DispatchOptions): void {
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const t0 = performance.now();
    const name = request.params.name;
    const result = await dispatch(name, request.params.arguments, extra);
    const ms = performance.now() - t0;
    const bytes = answerBytes(result);
    if (bytes > LIMITS.answerBytes) {
      // fitAnswer keeps every answer below the cap; this is the last line of defence
      log.error(`${name}: an answer of ${bytes} bytes was replaced (cap ${LIMITS.answerBytes})`);
      return toolError('answer_too_large', `the answer of ${quote(name)} was larger than ${LIMITS.answerBytes} bytes`, {
        hint: 'Ask for less: a smaller limit, a narrower path or a more specific name.',
      });
    }
    if (ms > opts.budgetMs) log.info(`${name} took ${Math.round(ms)} ms (budget ${opts.budgetMs} ms)`);
    return result;
  });

  async function dispatch(name: string, rawArgs: unknown, extra: unknown): Promise<CallToolResult> {
    const tool = tools.get(name);
    if (!tool || !tool.enabled) {
      return toolError('unknown_tool', `there is no tool named '${quote(name, 80)}'`, { hint: `The tools are: ${[...tools.keys()].join(', ')}.` });
    }
    const args = rawArgs ?? {};
    const size = measureArgs(args);
    if (size.depth > LIMITS.depth) {
      return toolError('input_too_deep', `the arguments of ${name} are nested more than ${LIMITS.depth} levels deep`, {
        hint: 'Send the arguments the tool\'s inputSchema describes (tools/list); none is nested that deep.',
      });
    }
    if (size.elements > LIMITS.elements) {
      return toolError('input_too_large', `the arguments of ${name} have more than ${LIMITS.elements} elements`, {
        hint: 'Send fewer items (see the limits in the tool\'s inputSchema).',
      });
    }
    const schema = tool.inputSchema as z.ZodType | undefined;
    let parsed: unknown = args;
    if (schema) {
      const r = await schema.safeParseAsync(args);
      if (!r.success) return invalidArguments(name, r.error);
      parsed = r.data;
    }
    const deadline = new Deadline(name, opts.budgetMs);
    // a read-only call is answered with budget_exceeded when its time is up, and its late result
    // dropped; one that changes the session checks its deadline before changing anything, then runs
    // to completion, so that its answer always tells what happened
    const abandonable = tool.annotations?.readOnlyHint === true;
    try {
      const run = runWithDeadline(deadline, () => Promise.resolve((tool.handler as Handler)(parsed, extra)));
      return await (abandonable ? race(run, deadline) : run);
    } catch (e) {
      return fromException(name, e);
    }
  }
}

function race(run: Promise<CallToolResult>, deadline: Deadline): Promise<CallToolResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      deadline.abandoned = true;
      resolve(fromException(deadline.tool, deadline.error()));
    }, deadline.remainingBudget());
    run.then(
      (r) => {
        clearTimeout(timer);
        resolve(r);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

const CODE_HINTS: Record<string, string> = {
  input_too_large: 'Send less: the limits are in the tool\'s inputSchema (maxLength, maxItems).',
  invalid_path: 'Pass a plain path relative to the project root, without NUL bytes.',
  invalid_arguments: 'Send the arguments the tool\'s inputSchema describes (tools/list): names, types and required fields.',
};

function invalidArguments(tool: string, error: z.ZodError): CallToolResult {
  const issues = error.issues.slice(0, 5).map((i) => ({
    path: i.path.map(String).map((k) => quote(k, 40)).join('.') || '(arguments)',
    message: quote(i.message, 200),
  }));
  const first = error.issues[0];
  const custom = first?.code === 'custom' ? (first.params as { code?: string } | undefined)?.code : undefined;
  // too long a string or list is a size problem; too big a number (limit: 9999) is a wrong value
  const tooLong = first?.code === 'too_big' && (first.origin === 'string' || first.origin === 'array');
  const code = tooLong ? 'input_too_large' : custom ?? 'invalid_arguments';
  return toolError(code, `invalid arguments for ${tool}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, {
    hint: CODE_HINTS[code] ?? CODE_HINTS.invalid_arguments,
    issues,
  });
}
