/**
 * What one tool call may cost: input sizes (checked by the tools' zod schemas), a time budget per
 * call, and a cap on the size of an answer. A fuzzer's 1 MB word, regex bomb or NUL path gets a
 * specific error quickly, and the next call is served as usual.
 */
import { z } from 'zod';

export const LIMITS = {
  /** file and directory paths (PATH_MAX on Linux) */
  path: 4096,
  /** a symbol name, `Container.member` or a kind */
  name: 512,
  /** a search_text pattern (literal or regex) */
  pattern: 4096,
  /** `query` / semantic_search text */
  query: 4096,
  /** the user's request given to start_session, verbatim */
  request: 8192,
  /** any other free text: notes, reasons, quotes, code evidence */
  text: 8192,
  /** items in one array argument */
  list: 100,
  /** one glob */
  glob: 512,
  /** array elements and object members in one call's arguments, all levels */
  elements: 20_000,
  /** nesting of the arguments */
  depth: 32,
  /** an answer (the whole CallToolResult as JSON), in bytes */
  answerBytes: 100 * 1024,
} as const;

/** Default time budget of one tool call; CODE_INTEL_BUDGET_MS overrides it. */
export const DEFAULT_BUDGET_MS = 2000;

export function budgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.CODE_INTEL_BUDGET_MS);
  return Number.isFinite(v) && v >= 50 ? Math.min(v, 600_000) : DEFAULT_BUDGET_MS;
}

// ---- schemas ---------------------------------------------------------------------------------------

const NUL = '\u0000';

/** A bounded string; longer input is refused with `input_too_large` before any tool code runs. */
export function text(max: number = LIMITS.text, what = 'text') {
  return z.string().max(max, { message: `${what} is longer than ${max} characters` });
}

/** A path argument: bounded, and never with a NUL byte (no file system accepts one). */
export function pathArg(what = 'path', min = 0) {
  return z
    .string()
    .min(min, { message: `${what} is empty` })
    .max(LIMITS.path, { message: `${what} is longer than ${LIMITS.path} characters` })
    .refine((s) => !s.includes(NUL), { message: `${what} contains a NUL byte`, params: { code: 'invalid_path' } });
}

/** A bounded array. */
export function list<T extends z.ZodType>(item: T, max: number = LIMITS.list, what = 'list') {
  return z.array(item).max(max, { message: `${what} has more than ${max} items` });
}

/** A 1-based line or column, or an offset: bounded so arithmetic on it stays exact. */
export const MAX_POSITION = 10_000_000;

// ---- arguments --------------------------------------------------------------------------------------

/**
 * Element count and depth of a value, without recursion (a 100,000-level nesting must not
 * overflow the stack); stops counting at the limits.
 */
export function measureArgs(value: unknown, maxElements: number = LIMITS.elements, maxDepth: number = LIMITS.depth): { elements: number; depth: number } {
  let elements = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (d > depth) depth = d;
    if (depth > maxDepth) return { elements, depth };
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      if (++elements > maxElements) return { elements, depth };
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return { elements, depth };
}
