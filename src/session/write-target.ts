/**
 * check_write_target: may this file be written now? Only explored files, or a new file inside a
 * directory that holds an explored file when new files are allowed. Paths that leave the project
 * (`..`, absolute, or through a symlink) are refused.
 */
import fs from 'node:fs';
import path from 'node:path';

export type WriteVerdict =
  | { allowed: true; file: string; new_file: boolean }
  | { allowed: false; file: string | null; error: string; hint: string };

/** The real path of p, or of its deepest existing ancestor joined with the rest (for new files). */
function realpathDeep(p: string): string {
  let cur = p;
  const tail: string[] = [];
  while (!fs.existsSync(cur)) {
    const parent = path.dirname(cur);
    if (parent === cur) break;
    tail.unshift(path.basename(cur));
    cur = parent;
  }
  return path.join(fs.realpathSync(cur), ...tail);
}

export function checkWriteTarget(root: string, filePath: string, allowNew: boolean, explored: ReadonlySet<string>): WriteVerdict {
  const abs = path.resolve(root, filePath);
  const lexical = path.relative(root, abs);
  if (lexical.startsWith('..') || path.isAbsolute(lexical)) {
    return { allowed: false, file: null, error: `'${filePath}' is outside the project root`, hint: 'Only files inside the project can be written.' };
  }
  const real = realpathDeep(abs);
  const relReal = path.relative(root, real);
  if (relReal.startsWith('..') || path.isAbsolute(relReal)) {
    return { allowed: false, file: null, error: `'${filePath}' resolves through a symlink to ${real}, outside the project`, hint: 'Write the real file inside the project instead.' };
  }
  const rel = relReal.split(path.sep).join('/');
  const exists = fs.existsSync(real);
  if (exists && fs.statSync(real).isDirectory()) {
    return { allowed: false, file: rel, error: `'${rel}' is a directory`, hint: 'Pass a file path.' };
  }
  if (exists) {
    if (explored.has(rel)) return { allowed: true, file: rel, new_file: false };
    return {
      allowed: false, file: rel,
      error: `File '${rel}' was not explored in this session`,
      hint: 'Explore it first (get_symbols, find_definitions, search_text in that file) — or revert_to_exploration if the plan changed.',
    };
  }
  if (!allowNew) {
    return { allowed: false, file: rel, error: `'${rel}' does not exist and allow_new_files is false`, hint: 'Pass allow_new_files: true to create a new file in an explored directory.' };
  }
  const dir = path.posix.dirname(rel);
  const dirExplored = [...explored].some((f) => path.posix.dirname(f) === dir);
  if (dirExplored) return { allowed: true, file: rel, new_file: true };
  return {
    allowed: false, file: rel,
    error: `New file '${rel}' is not in a directory this session explored`,
    hint: `Explore a file in '${dir}' first, or create the file next to code you explored.`,
  };
}
