/** Every tool the server offers, by name. */
import { EXPLORATION_TOOLS } from './exploration.js';
import type { ToolRecord } from './record.js';
import { SESSION_TOOLS } from './session.js';

export const ALL_TOOLS: readonly ToolRecord[] = [...EXPLORATION_TOOLS, ...SESSION_TOOLS] as ToolRecord[];

const BY_NAME = new Map(ALL_TOOLS.map((t) => [t.name, t]));

export function toolNamed(name: string): ToolRecord | undefined {
  return BY_NAME.get(name);
}
