/**
 * References cross from the parse workers to the indexing thread packed (src/index/packed-refs.ts):
 * unpacked, they must be the facts the extractor gave, field for field.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/index/extract.js';
import { languageFor } from '../src/index/languages.js';
import { packBatch, unpackBatch } from '../src/index/packed-refs.js';
import type { ParseResult } from '../src/index/parse-job.js';
import { REPO_ROOT } from './helpers/project.js';

/** Source files of the fixtures and of the extractor itself, in every indexed language present. */
function sources(): string[] {
  const engine = path.join(REPO_ROOT, 'src', 'index', 'extract');
  const out: string[] = [path.join(REPO_ROOT, 'src', 'index', 'extract.ts'), ...fs.readdirSync(engine).sort().map((f) => path.join(engine, f))];
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules') visit(p);
      else if (e.isFile() && languageFor(p)) out.push(p);
    }
  };
  visit(path.join(REPO_ROOT, 'fixtures'));
  return out;
}

describe('packed references', () => {
  it('unpack to the extractor’s own references', async () => {
    const results: ParseResult[] = [];
    for (const file of sources()) {
      const facts = await extractFile(languageFor(file)!, fs.readFileSync(file, 'utf8'));
      results.push({ rel: file, status: 'parsed', hash: '', size: 0, mtimeMs: 0, facts });
    }
    results.push({ rel: 'x.bin', status: 'skipped', reason: 'binary' });
    const expected = structuredClone(results);
    const refs = expected.flatMap((r) => (r.status === 'parsed' ? r.facts?.refs ?? [] : []));
    expect(refs.some((r) => r.args !== undefined)).toBe(true);
    expect(refs.some((r) => r.target.kind === 'member_of_import' && r.target.access !== undefined)).toBe(true);
    expect(unpackBatch(structuredClone(packBatch(results)))).toStrictEqual(expected);
  });
});
