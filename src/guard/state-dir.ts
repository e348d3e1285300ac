import os from 'node:os';
import path from 'node:path';

/** The user's code-intel state folder (never inside a project). */
export function stateDir(): string {
  if (process.env.CODE_INTEL_STATE_DIR) return process.env.CODE_INTEL_STATE_DIR;
  const base = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'code-intel');
}
