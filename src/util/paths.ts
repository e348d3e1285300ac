import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Package root (the folder holding package.json), whether running from src/ via vitest or from dist/. */
export const PACKAGE_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (path.basename(dir) === 'src' || path.basename(dir) === 'dist') {
      const parent = path.dirname(dir);
      return path.basename(parent) === 'dist' ? path.dirname(parent) : parent;
    }
    dir = path.dirname(dir);
  }
  throw new Error('cannot locate the code-intel package root');
})();

/** Project-relative path with `/` separators. */
export function toRel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/**
 * Resolves a user-supplied path against the project root and refuses anything that escapes it.
 * Returns the project-relative path (with `/`), or throws a UserError.
 */
export function relInsideRoot(root: string, p: string): string {
  const abs = path.resolve(root, p);
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new UserError(`path '${quote(p)}' is outside the project root ${root}`, 'Pass a path relative to the project root.', 'path_outside_root');
  }
  return rel.split(path.sep).join('/');
}

/** An error caused by the caller's input: reported as a tool error with a hint, never a crash. */
export class UserError extends Error {
  constructor(message: string, readonly hint?: string, readonly code = 'invalid_input') {
    super(message);
  }
}

/** How much of an input an error message quotes. */
export const QUOTE_MAX = 120;

/** A bounded prefix of something the caller sent, for messages: never the whole 1 MB. */
export function quote(s: unknown, max: number = QUOTE_MAX): string {
  const str = typeof s === 'string' ? s : String(s);
  if (str.length <= max) return str;
  return `${str.slice(0, max)}… (${str.length} characters)`;
}

/** Trailing slashes off, in linear time (`/\/+$/` backtracks over every slash of a long run). */
/** A TypeScript declaration file (`.d.ts`, `.d.mts`, `.d.cts`): it declares code that lives elsewhere. */
export function isDeclarationFile(p: string): boolean {
  return /\.d\.[cm]?ts$/.test(p);
}

export function trimSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 47) end--;
  return s.slice(0, end);
}
