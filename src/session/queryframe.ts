/**
 * QueryFrame validation (seed 001 v3.6): every slot's quote must be in the user's own words, and
 * every value must be grounded in its quote. Pure functions; Japanese, Chinese and English alike.
 */
import type { Intent, Risk } from '../../machines/session.js';

export const SLOTS = ['target_feature', 'trigger_condition', 'observed_issue', 'desired_action'] as const;
export type Slot = (typeof SLOTS)[number];
export type SlotInput = { value: string; quote: string };
export type QueryFrameInput = Partial<Record<Slot, SlotInput>>;

/**
 * Normalisation for matching: NFKC (full-width ＡＢＣ１２３ and half-width ｶﾅ fold to their usual
 * forms), Latin case folded, every run of whitespace → one space, trimmed.
 */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LATIN_STOP = new Set('a an the of to in on for and or is are be by with from at as it this that when if then not no'.split(' '));

/**
 * Content units of a text: Latin/digit words (3+ chars, stop words dropped, compared by a 4-char
 * stem), and CJK character bigrams that are not pure hiragana (particles such as の, が, とき).
 */
export function contentUnits(text: string): Set<string> {
  const units = new Set<string>();
  for (const chunk of normalize(text).split(/[^\p{L}\p{N}ー]+/u)) {
    if (!chunk) continue;
    if (CJK.test(chunk)) {
      const chars = [...chunk];
      if (chars.length === 1 && !HIRAGANA_ONLY.test(chunk)) units.add(chunk);
      for (let i = 0; i + 1 < chars.length; i++) {
        const bigram = chars[i]! + chars[i + 1]!;
        if (!HIRAGANA_ONLY.test(bigram)) units.add(bigram);
      }
    } else if (chunk.length >= 3 && !LATIN_STOP.has(chunk)) {
      units.add(chunk.slice(0, 4));
    } else if (/^\d+$/.test(chunk)) units.add(chunk);
  }
  return units;
}

export interface SlotError {
  slot: Slot;
  error: string;
}

/**
 * A value is grounded in its quote when, after normalisation, one contains the other, or they share
 * at least one content unit. The rule lets the agent paraphrase ("空のパスワード入力時" for
 * "パスワードが空のとき", "empty password" for "password is empty") but not invent a value that has
 * nothing in common with what the user wrote.
 */
export function isGrounded(value: string, quote: string): boolean {
  const v = normalize(value);
  const q = normalize(quote);
  if (!v) return false;
  if (q.includes(v) || v.includes(q)) return true;
  const qu = contentUnits(q);
  for (const u of contentUnits(v)) if (qu.has(u)) return true;
  return false;
}

export function validateFrame(request: string, frame: QueryFrameInput): { errors: SlotError[]; validated: Slot[] } {
  const req = normalize(request);
  const errors: SlotError[] = [];
  const validated: Slot[] = [];
  for (const slot of SLOTS) {
    const s = frame[slot];
    if (!s) continue;
    const quote = normalize(s.quote);
    if (!quote) errors.push({ slot, error: 'quote is empty' });
    else if (!req.includes(quote)) errors.push({ slot, error: `quote not found in the user's request: "${s.quote}"` });
    else if (!normalize(s.value)) errors.push({ slot, error: 'value is empty' });
    else if (!isGrounded(s.value, s.quote)) errors.push({ slot, error: `value "${s.value}" shares no words with its quote "${s.quote}"` });
    else validated.push(slot);
  }
  return { errors, validated };
}

/** seed 001: HIGH = MODIFY with the issue unknown; MEDIUM = IMPLEMENT or partly unknown; LOW = INVESTIGATE or all known. */
export function riskLevel(intent: Intent, missing: readonly Slot[]): Risk {
  if (intent === 'INVESTIGATE' || intent === 'QUESTION') return 'LOW';
  if (intent === 'MODIFY' && missing.includes('observed_issue')) return 'HIGH';
  if (intent === 'IMPLEMENT' || missing.length > 0) return 'MEDIUM';
  return 'LOW';
}

/** Per missing slot: what to look for and which tools help (seed 001's table). */
export const SLOT_GUIDANCE: Record<Slot, { hint: string; tools: string[] }> = {
  target_feature: { hint: 'Find the feature or component the request is about.', tools: ['query', 'get_symbols', 'analyze_structure'] },
  trigger_condition: { hint: 'Find when it happens: the input, event or code path that triggers it.', tools: ['search_text', 'find_definitions'] },
  observed_issue: { hint: 'Find what currently goes wrong: error messages, failing checks, wrong output.', tools: ['search_text', 'query'] },
  desired_action: { hint: 'Find where the change belongs: the callers and structure around the target.', tools: ['find_references', 'analyze_structure'] },
};

export function investigationGuidance(missing: readonly Slot[]): { hints: string[]; recommended_tools: string[] } {
  const tools = new Set<string>();
  const hints: string[] = [];
  for (const slot of missing) {
    hints.push(`${slot}: ${SLOT_GUIDANCE[slot].hint}`);
    SLOT_GUIDANCE[slot].tools.forEach((t) => tools.add(t));
  }
  return { hints, recommended_tools: [...tools] };
}

export function extractionPrompt(request: string): string {
  return [
    'Extract a QueryFrame from the user request below. For each slot you can fill, give a short `value` and a `quote`:',
    'an exact substring of the request that supports it. Leave out slots the request does not state; do not guess.',
    '- target_feature: the feature or component concerned',
    '- trigger_condition: when or under what input it happens',
    '- observed_issue: what currently goes wrong',
    '- desired_action: what should be done',
    '',
    `Request: """${request}"""`,
  ].join('\n');
}
