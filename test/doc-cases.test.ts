import { afterEach, describe, expect, it } from 'vitest';
import { Project } from '../src/project/project.js';
import { copyKey, docCases } from '../train/doc-cases.js';
import { makeProject, removeProject } from './helpers/project.js';

let root: string | undefined;
afterEach(() => root && removeProject(root));

describe('doc sentence → declaration requests (#15 held-out bench and tuning)', () => {
  it("counts a declaration's undocumented copies in its module's other files as the same target", async () => {
    // a package that documents its types (url.d.ts) beside an undocumented implementation (url.js):
    // ranking the implementation's decodePath first answers the request
    root = makeProject({
      'code/url.d.ts': '/** Decodes the path section of a URL. */\nexport declare function decodePath(text: string): string;\n',
      'code/url.js': 'export function decodePath(text) {\n  return decodeURIComponent(text);\n}\n',
      'code/other/url.js': 'export function decodePath(text) {\n  return text;\n}\n',
    });
    const p = new Project(root);
    try {
      await p.refresh();
      const cases = docCases(p.db);
      expect(cases).toHaveLength(1);
      expect(cases[0]!.query).toBe('Decodes the path section of a URL.');
      // the same module's copy is a hit; another module's same-named function is not
      expect([...cases[0]!.targets].sort()).toEqual(['code/url.d.ts\0decodePath', 'code/url.js\0decodePath']);
      expect(cases[0]!.distinct).toBe(1);
    } finally {
      p.close();
    }
  });

  it('keys a declaration by its module, whatever the extension', () => {
    expect(copyKey('a/url.d.ts', 'f')).toBe(copyKey('a/url.mjs', 'f'));
    expect(copyKey('a/url.cts', 'C.m')).toBe(copyKey('a/url.js', 'C.m'));
    expect(copyKey('a/url.ts', 'f')).not.toBe(copyKey('b/url.ts', 'f'));
  });
});
