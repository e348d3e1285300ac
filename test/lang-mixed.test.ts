/**
 * A polyglot repository indexes in one pass: py-app, rust-app and ts-app side by side in one
 * project (each in its own directory, with its own pyproject.toml / Cargo.toml / tsconfig.json).
 * Each language resolves through its own module system, and the many functions named `format`
 * never borrow each other's references.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinitions } from '../src/query/definitions.js';
import { Project } from '../src/project/project.js';
import { findReferences } from '../src/query/references.js';
import { analyzeStructure } from '../src/query/structure.js';
import { FIXTURES_DIR, locate } from './golden/golden.js';

let p: Project;
let dir: string;
beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-mixed-')));
  for (const f of ['py-app', 'rust-app', 'ts-app']) {
    fs.cpSync(path.join(FIXTURES_DIR, f), path.join(dir, f), { recursive: true, filter: (src) => path.basename(src) !== '.code-intel' });
  }
  p = new Project(dir);
  await p.refresh();
});
afterAll(() => {
  p.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const defsFrom = (file: string, at: string, offset = 0) =>
  findDefinitions(p, { from: locate(p, { file, at, offset }) }).items.map((d) => `${d.file}:${d.line} ${d.confidence}`);

describe('a Python + Rust + TypeScript repository', () => {
  it('indexes every language in one pass', () => {
    const langs = (p.db.prepare('SELECT language, COUNT(*) AS n FROM files WHERE language IS NOT NULL GROUP BY language').all() as { language: string; n: number }[])
      .map((r) => r.language).sort();
    expect(langs).toEqual(['python', 'rust', 'tsx', 'typescript']);
    const s = analyzeStructure(p, { path: '.' });
    expect(s.type === 'directory' && s.total_modules).toBeGreaterThan(25);
  });

  it('each language resolves through its own module system, from a subdirectory', () => {
    expect(defsFrom('py-app/src/app.py', 'shop.pricing.format', 13)).toEqual(['py-app/src/shop/pricing.py:6 imported']);
    expect(defsFrom('rust-app/src/main.rs', 'rust_app::format', 10)).toEqual(['rust-app/src/lib.rs:13 imported']);
    expect(defsFrom('rust-app/src/util.rs', 'q.norm()', 2)).toEqual(['rust-app/src/extra.rs:5 imported']);
    expect(defsFrom('ts-app/src/services/greeter.ts', "format('{0}")).toEqual(['ts-app/src/utils/strings.ts:4 imported']);
  });

  it('homonyms in other languages are never facts', () => {
    const formats = findDefinitions(p, { name: 'format', limit: 50 }).items;
    expect(formats.map((d) => d.file.split('/')[0]).sort()).toEqual(
      ['py-app', 'py-app', 'py-app', 'rust-app', 'rust-app', 'rust-app', 'ts-app', 'ts-app'],
    );
    for (const d of formats) {
      const lang = d.file.split('/')[0];
      const refs = findReferences(p, { file: d.file, line: d.line, column: d.column, limit: 500 }).items;
      for (const r of refs.filter((x) => x.confidence !== 'name_match')) expect(r.file.split('/')[0], `${d.file}:${d.line} ← ${r.file}:${r.line}`).toBe(lang);
    }
  });
});
