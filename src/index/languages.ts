import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PACKAGE_ROOT } from '../util/paths.js';

export interface LanguageRow {
  id: string;
  extensions: string[];
  wasm: string;
  queries: string[];
  resolver: string;
}

const GRAMMARS_DIR = path.join(PACKAGE_ROOT, 'grammars');

export const LANGUAGES: LanguageRow[] = (
  JSON.parse(fs.readFileSync(path.join(GRAMMARS_DIR, 'languages.json'), 'utf8')) as { languages: LanguageRow[] }
).languages;

const byExtension = new Map<string, LanguageRow>();
for (const row of LANGUAGES) for (const ext of row.extensions) byExtension.set(ext, row);

/** The language of a file by its extension, or undefined when we do not index it. */
export function languageFor(file: string): LanguageRow | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith('.d.ts')) return byExtension.get('.ts');
  return byExtension.get(path.extname(lower));
}

export function querySource(row: LanguageRow): string {
  return row.queries.map((q) => fs.readFileSync(path.join(GRAMMARS_DIR, q), 'utf8')).join('\n');
}

export function wasmPath(row: LanguageRow): string {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json'));
  return path.join(pkg, 'wasm', row.wasm);
}
