import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateIndex } from '../src/index/indexer.js';
import { Project } from '../src/query/project.js';
import { setMeta } from '../src/store/db.js';
import { findReferences } from '../src/query/references.js';
import { findDefinitions } from '../src/query/definitions.js';
import { makeProject, removeProject, SAMPLE } from './helpers/project.js';

let root: string | undefined;
afterEach(() => root && removeProject(root));

const bump = (file: string, text: string) => {
  fs.writeFileSync(file, text);
  const t = new Date(Date.now() + 5000); // mtime must move even on coarse clocks
  fs.utimesSync(file, t, t);
};

describe('incremental index', () => {
  it('re-parses only edited, added and removed files, and answers follow', async () => {
    root = makeProject(SAMPLE);
    const p = new Project(root);
    const cold = await updateIndex(p.db, p.root, { workers: 0 });
    expect(cold.parsed).toBe(cold.files);
    expect(cold.files).toBe(6); // 4 sources + README + .gitignore; generated/ is ignored

    const again = await updateIndex(p.db, p.root);
    expect(again).toMatchObject({ parsed: 0, removed: 0, unchanged: 0 });

    // edit: a new call site in main.ts
    const main = path.join(root, 'src/main.ts');
    bump(main, fs.readFileSync(main, 'utf8') + `export const again = () => new Cart();\n`);
    const edited = await updateIndex(p.db, p.root);
    expect(edited).toMatchObject({ parsed: 1, removed: 0 });
    const cartRefs = findReferences(p, { name: 'Cart' }).items.map((r) => `${r.file}:${r.line}`);
    expect(cartRefs).toContain('src/main.ts:7');

    // touch without change: hashed, not parsed
    bump(main, fs.readFileSync(main, 'utf8'));
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: 0, unchanged: 1 });

    // add a file that imports through the barrel
    fs.writeFileSync(path.join(root, 'src/new.ts'), `import { formatPrice } from './util';\nformatPrice(1);\n`);
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: 1 });
    expect(findReferences(p, { name: 'formatPrice' }).items.map((r) => `${r.file}:${r.line}`)).toContain('src/new.ts:2');

    // delete the definition's file: references through it disappear, the importer is left unresolved
    fs.rmSync(path.join(root, 'src/util/format.ts'));
    const removed = await updateIndex(p.db, p.root);
    expect(removed).toMatchObject({ parsed: 0, removed: 1 });
    expect(findDefinitions(p, { name: 'formatPrice' }).total).toBe(0);
    p.close();
  });

  it('an index written by another extractor (an upgrade, an edited query) is parsed again in full, once', async () => {
    root = makeProject(SAMPLE);
    const p = new Project(root);
    const cold = await updateIndex(p.db, p.root, { workers: 0 });
    setMeta(p.db, 'extractor', 'an older extractor');
    const refs = findReferences(p, { name: 'Cart' }).total;
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: cold.files, removed: 0 });
    expect(findReferences(p, { name: 'Cart' }).total).toBe(refs);
    expect(await updateIndex(p.db, p.root)).toMatchObject({ parsed: 0 });
    p.close();
  });

  it('skips binaries and says so', async () => {
    root = makeProject({ 'a.ts': 'export const a = 1;\n' });
    fs.writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const p = new Project(root);
    const stats = await updateIndex(p.db, p.root);
    expect(stats.skipped).toEqual([{ file: 'logo.png', reason: 'binary' }]);
    p.close();
  });

  it('a cold index on worker threads gives the same facts as in-process', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) files[`src/m${i}.ts`] = `import { f${(i + 1) % 80} } from './m${(i + 1) % 80}';\nexport function f${i}() { return f${(i + 1) % 80}; }\n`;
    root = makeProject(files);
    const a = new Project(root);
    const threaded = await updateIndex(a.db, a.root, { workers: 2 });
    const snapshot = findReferences(a, { name: 'f3' }).items;
    a.close();
    fs.rmSync(path.join(root, '.code-intel'), { recursive: true });
    const b = new Project(root);
    const inline = await updateIndex(b.db, b.root, { workers: 0 });
    expect(inline.symbols).toBe(threaded.symbols);
    expect(inline.references).toBe(threaded.references);
    expect(findReferences(b, { name: 'f3' }).items).toEqual(snapshot);
    b.close();
  });
});
