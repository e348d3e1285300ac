import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { quote, UserError } from '../util/paths.js';
import { log } from '../util/log.js';
import { LIMITS } from './limits.js';

/**
 * The wire form of a result. An answer is the structured object (what the tool's outputSchema
 * describes) and the same as text for clients that read text. An error is the same JSON as text
 * only: clients check structured content against the outputSchema even on errors (the MCP SDK's
 * client does), and an error is not the answer the schema describes.
 */
function wrap(data: Record<string, unknown>, isError: boolean): CallToolResult {
  const text = JSON.stringify(data);
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }], structuredContent: data };
}

/** Bytes of a CallToolResult as it goes over the wire (JSON). */
export function answerBytes(r: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(r));
}

/**
 * A successful result. Claude Code shows the model only `structuredContent` when present, so the
 * structured object carries everything; the text block repeats it for clients that read text.
 * Never larger than LIMITS.answerBytes: see fitAnswer.
 */
export function ok(data: Record<string, unknown>): CallToolResult {
  try {
    return wrap(fitAnswer(data), false);
  } catch (e) {
    return fromException('answer', e);
  }
}

/** A tool error the agent can act on: what was wrong and what to do instead. */
export function toolError(error: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const data = { error, message: clip(message, 2000), ...extra };
  try {
    return wrap(fitAnswer(data), true);
  } catch {
    return wrap({ error, message: clip(message, 2000), hint: typeof extra.hint === 'string' ? clip(extra.hint, 2000) : undefined }, true);
  }
}

/** Turns a thrown error into a tool error; unexpected ones are logged to stderr, never to stdout. */
export function fromException(tool: string, e: unknown): CallToolResult {
  if (e instanceof UserError) return toolError(e.code, e.message, e.hint ? { hint: e.hint } : {});
  // another process (an index run from a terminal, a hook) held the database past the busy timeout:
  // nothing is wrong with the call, and nothing was written
  const code = (e as { code?: unknown })?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT') {
    log.info(`${tool}: the index database was busy (${String(code)})`);
    return toolError('index_busy', `${tool} could not read or write the index: another process held the database (${String(code)}); nothing changed`, {
      hint: 'Call the same tool again in a few seconds (a `code-intel index` run in a terminal, or a hook, was writing).',
    });
  }
  log.error(`${tool} failed`, e);
  return toolError('internal_error', `${tool} failed: ${quote((e as Error)?.message ?? String(e), 300)}`, {
    hint: 'This is a bug in code-intel; the details are in the server log (stderr).',
  });
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… [${s.length - max} more characters cut]`;
}

// ---- the answer size cap ----------------------------------------------------------------------------

/** Lists that are the page of a paginated answer: cutting one moves next_offset back. */
const PAGED = ['items', 'symbols', 'modules', 'results'];
const LONG_STRING = 4000;

interface Cut {
  field: string;
  kept: number;
  of: number;
}

/**
 * Makes an answer fit LIMITS.answerBytes (the whole CallToolResult, both copies) without ever
 * cutting JSON in half: the longest lists are shortened item by item (a paginated list keeps its
 * first items and next_offset points at the first one left out), then over-long strings are
 * clipped, and `answer_truncated` says what was cut and how to get the rest. Throws answer_too_large when
 * even that cannot make it fit.
 */
export function fitAnswer(data: Record<string, unknown>, maxBytes: number = LIMITS.answerBytes): Record<string, unknown> {
  const budget = maxBytes - 512; // the JSON-RPC envelope and the truncation note
  const size = (d: Record<string, unknown>) => answerBytes(wrap(d, 'error' in d));
  if (size(data) <= budget) return data;
  const out: Record<string, unknown> = structuredClone(data);
  const cuts: Cut[] = [];
  for (let round = 0; round < 32 && size(out) > budget; round++) {
    const target = largestList(out);
    if (!target) break;
    const { holder, key, path } = target;
    const arr = holder[key] as unknown[];
    // the most items that fit, by bisection over the whole answer's size
    let lo = 0, hi = arr.length - 1;
    const full = arr.slice();
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      holder[key] = full.slice(0, mid);
      if (size(out) <= budget) lo = mid;
      else hi = mid - 1;
    }
    holder[key] = full.slice(0, lo);
    const prev = cuts.find((c) => c.field === path);
    if (prev) prev.kept = lo;
    else cuts.push({ field: path, kept: lo, of: full.length });
  }
  let clipped = 0;
  for (let round = 0; round < 64 && size(out) > budget; round++) {
    const s = longestString(out);
    if (!s || (s.holder[s.key] as string).length <= 200) break;
    const str = s.holder[s.key] as string;
    s.holder[s.key] = clip(str, Math.max(200, Math.min(LONG_STRING, Math.floor(str.length / 2))));
    clipped++;
  }
  if (size(out) > budget) {
    throw new UserError(`the answer is larger than ${maxBytes} bytes even when cut down`, 'Ask for less: a smaller limit, a narrower path or a more specific name.', 'answer_too_large');
  }
  const paged = cuts.find((c) => PAGED.includes(c.field));
  const offset = typeof out.offset === 'number' ? out.offset : 0;
  if (paged && 'next_offset' in out) out.next_offset = offset + paged.kept;
  out.answer_truncated = {
    reason: `the answer was cut to fit ${maxBytes} bytes`,
    lists: cuts,
    ...(clipped ? { strings_clipped: clipped } : {}),
    ...(paged && 'next_offset' in out ? { continue_with_offset: out.next_offset } : {}),
  };
  return out;
}

type Slot = { holder: Record<string, unknown> | unknown[]; key: string | number; path: string };

/** Every list and string in the answer (four levels deep), with where it sits. */
function* slots(value: unknown, path = '', depth = 0): Generator<Slot & { value: unknown }> {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    const p = typeof k === 'number' ? `${path}[]` : path ? `${path}.${k}` : k;
    yield { holder: value as Record<string, unknown>, key: k, path: p, value: v };
    yield* slots(v, p, depth + 1);
  }
}

function largestList(root: Record<string, unknown>): { holder: Record<string, unknown>; key: string; path: string } | undefined {
  let best: { holder: Record<string, unknown>; key: string; path: string; bytes: number } | undefined;
  for (const s of slots(root)) {
    if (!Array.isArray(s.value) || s.value.length === 0 || typeof s.key !== 'string') continue;
    const bytes = JSON.stringify(s.value).length;
    if (!best || bytes > best.bytes) best = { holder: s.holder as Record<string, unknown>, key: s.key, path: s.path, bytes };
  }
  return best;
}

function longestString(root: Record<string, unknown>): { holder: Record<string, unknown>; key: string | number } | undefined {
  let best: { holder: Record<string, unknown>; key: string | number; len: number } | undefined;
  for (const s of slots(root)) {
    if (typeof s.value !== 'string') continue;
    if (!best || s.value.length > best.len) best = { holder: s.holder as Record<string, unknown>, key: s.key, len: s.value.length };
  }
  return best;
}
