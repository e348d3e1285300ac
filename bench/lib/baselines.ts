/** The tools an agent would otherwise use: ripgrep (word matches) and Universal Ctags (tags by name). */
import fs from 'node:fs';
import path from 'node:path';
import type { Loc } from './truth.js';
import { run, which } from './util.js';

export interface Tool {
  path: string | undefined;
  version: string;
  missing: string;
}

export function findTool(cmd: string, hint: string): Tool {
  const p = which(cmd);
  if (!p) return { path: undefined, version: '', missing: `skipped: ${cmd} not found (${hint})` };
  let version = '';
  try {
    version = run(p, ['--version'], process.cwd()).stdout.split('\n')[0]?.trim() ?? '';
  } catch {
    /* version is cosmetic */
  }
  return { path: p, version, missing: '' };
}

/** Byte column (rg) → UTF-16 column, using the line's text. */
function utf16Column(lineText: string | undefined, byteCol: number): number {
  if (lineText === undefined) return byteCol;
  const buf = Buffer.from(lineText, 'utf8');
  return buf.subarray(0, byteCol - 1).toString('utf8').length + 1;
}

/** Every whole-word occurrence of `name` under `dir` (relative to root). */
export function rgWordMatches(rg: string, root: string, dir: string, name: string, lines: (rel: string) => string[]): Loc[] {
  const r = run(rg, ['--vimgrep', '--no-heading', '--no-ignore', '--color', 'never', '-F', '-w', '-g', '*.ts', '--', name, dir], root);
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed (${r.status}): ${r.stderr}`);
  const out: Loc[] = [];
  for (const l of r.stdout.split('\n')) {
    const m = /^(.*?):(\d+):(\d+):/.exec(l);
    if (!m) continue;
    const file = m[1]!.split(path.sep).join('/');
    const line = Number(m[2]);
    out.push({ file, line, column: utf16Column(lines(file)[line - 1], Number(m[3])) });
  }
  return out;
}

export interface Tag {
  name: string;
  file: string;
  line: number;
  kind: string;
}

/** All tags of the TypeScript files under `dir`, by name. */
export function ctagsIndex(ctags: string, root: string, dir: string): { byName: Map<string, Tag[]>; count: number; ms: number; format: string } {
  const byName = new Map<string, Tag[]>();
  let count = 0;
  const add = (t: Tag) => {
    count++;
    let l = byName.get(t.name);
    if (!l) byName.set(t.name, (l = []));
    l.push(t);
  };
  let r = run(ctags, ['-R', '--languages=TypeScript', '--fields=+nK', '--output-format=json', '--sort=no', '-f', '-', dir], root);
  if (r.status === 0 && r.stdout.trimStart().startsWith('{')) {
    for (const line of r.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const j = JSON.parse(line) as { _type?: string; name?: string; path?: string; line?: number; kind?: string };
      if (j._type !== 'tag' || !j.name || !j.path || !j.line) continue;
      add({ name: j.name, file: j.path.split(path.sep).join('/'), line: j.line, kind: j.kind ?? '' });
    }
    return { byName, count, ms: r.ms, format: 'json' };
  }
  // no JSON support compiled in: the cross-reference format "name kind line file text"
  r = run(ctags, ['-R', '--languages=TypeScript', '-x', '--_xformat=%N\t%K\t%n\t%F', dir], root);
  if (r.status !== 0) r = run(ctags, ['-R', '--languages=TypeScript', '-x', dir], root);
  for (const line of r.stdout.split('\n')) {
    const tab = line.split('\t');
    if (tab.length === 4) add({ name: tab[0]!, kind: tab[1]!, line: Number(tab[2]), file: tab[3]! });
    else {
      const m = /^(\S+)\s+(\S+)\s+(\d+)\s+(\S+)/.exec(line);
      if (m) add({ name: m[1]!, kind: m[2]!, line: Number(m[3]), file: m[4]! });
    }
  }
  return { byName, count, ms: r.ms, format: 'xref' };
}

export function readAll(root: string, files: string[]): { bytes: number; ms: number } {
  const t0 = performance.now();
  let bytes = 0;
  for (const f of files) bytes += fs.readFileSync(path.join(root, f), 'utf8').length;
  return { bytes, ms: performance.now() - t0 };
}
