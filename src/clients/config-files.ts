/**
 * Reading, editing and writing the clients' config files for init and init --remove: a change is
 * computed first (what the file holds now, what it will hold; null = the file goes), so a dry run
 * shows exactly what a real run writes.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FileChange {
  file: string;
  before: string | null;
  /** null: the file is deleted (init --remove left nothing of it) */
  after: string | null;
}

export type Json = Record<string, unknown>;
export const asObj = (x: unknown): Json => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Json) : {});

export function readText(file: string): string | null {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

export function readJson(file: string): { text: string | null; data: Json } {
  const text = readText(file);
  if (text === null) return { text: null, data: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); fix it or move it away, then run init again`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} does not hold a JSON object; fix it or move it away, then run init again`);
  return { text, data: parsed as Json };
}

/**
 * The change that turns a JSON file into `data`. Nothing changes when the content is the same
 * (a user's formatting is kept); an object left empty by a removal deletes the file.
 */
export function jsonChange(file: string, text: string | null, before: Json, data: Json, removing = false): FileChange {
  if (text !== null && JSON.stringify(before) === JSON.stringify(data)) return { file, before: text, after: text };
  if (removing && Object.keys(data).length === 0) return { file, before: text, after: null };
  return { file, before: text, after: JSON.stringify(data, null, 2) + '\n' };
}

/** `obj` with `key` set to `value`, or without `key` when value is undefined. */
export function withKey(obj: Json, key: string, value: unknown): Json {
  const out = { ...obj };
  if (value === undefined) delete out[key];
  else out[key] = value;
  return out;
}

/**
 * Claude Code, Gemini CLI and Codex key hooks by event, each a list of groups {matcher, hooks: [...]}.
 * Our entries (isOurs) leave every event; a group or event left empty by that goes too, and so does
 * the hooks object itself; then `ours` (event → group) is appended. Everything else stays as it was.
 */
export function editHookGroups(existing: unknown, isOurs: (h: unknown) => boolean, ours: Record<string, Json> = {}): Json | undefined {
  const hooks = asObj(existing);
  const out: Json = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      out[event] = groups;
      continue;
    }
    const kept = groups.flatMap((g: unknown) => {
      const hs = asObj(g).hooks;
      if (!Array.isArray(hs) || !hs.some(isOurs)) return [g];
      const left = hs.filter((h) => !isOurs(h));
      return left.length ? [{ ...asObj(g), hooks: left }] : [];
    });
    if (kept.length || groups.length === 0) out[event] = kept;
  }
  for (const [event, group] of Object.entries(ours)) out[event] = [...(Array.isArray(out[event]) ? (out[event] as unknown[]) : []), group];
  // no hooks object left when ours were all it held (a user's empty one stays as it was)
  return Object.keys(out).length === 0 && (existing === undefined || Object.keys(hooks).length > 0) ? undefined : out;
}

export function applyChanges(changes: FileChange[]): void {
  for (const ch of changes) {
    if (ch.after === null) {
      fs.rmSync(ch.file, { force: true });
      removeEmptyDirs(path.dirname(ch.file));
      continue;
    }
    fs.mkdirSync(path.dirname(ch.file), { recursive: true });
    fs.writeFileSync(ch.file, ch.after);
  }
}

/** The clients' folders: one that init --remove emptied goes too (never one with anything in it). */
const CLIENT_DIRS = new Set(['.claude', '.codex', '.gemini', '.cursor', '.opencode', 'commands', 'plugins']);

function removeEmptyDirs(dir: string): void {
  for (let d = dir, i = 0; i < 2; i++, d = path.dirname(d)) {
    if (!CLIENT_DIRS.has(path.basename(d))) return;
    try {
      fs.rmdirSync(d);
    } catch {
      return; // not empty (or not ours to remove)
    }
  }
}

/** A compact line diff for --dry-run. */
export function describeChange(root: string, ch: FileChange): string {
  const rel = path.relative(root, ch.file);
  const before = ch.before?.split('\n') ?? [];
  const after = ch.after?.split('\n') ?? [];
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  const lines = [`--- ${ch.before === null ? '/dev/null' : rel}`, `+++ ${ch.after === null ? '/dev/null' : rel}`];
  for (const l of before) if (!afterSet.has(l)) lines.push(`- ${l}`);
  for (const l of after) if (!beforeSet.has(l)) lines.push(`+ ${l}`);
  return lines.join('\n');
}
