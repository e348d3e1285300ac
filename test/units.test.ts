import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitWords } from '../src/util/words.js';
import { paginate } from '../src/query/page.js';
import { relInsideRoot, UserError } from '../src/util/paths.js';
import { walkProject } from '../src/index/walk.js';
import { createEcmascriptResolver } from '../src/index/resolvers/ecmascript.js';
import { makeProject, removeProject } from './helpers/project.js';
import { extractFile } from '../src/index/extract.js';
import { languageFor } from '../src/index/languages.js';
import { factCap, ownWords, TIER } from '../src/session/relevance.js';

describe('splitWords', () => {
  it('splits camelCase, PascalCase, acronyms, snake_case and kebab-case', () => {
    expect(splitWords('parseHTTPRequest_v2')).toEqual(['parse', 'http', 'request', 'v2']);
    expect(splitWords('user-session lock')).toEqual(['user', 'session', 'lock']);
    expect(splitWords('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    // NaN is one word, as Rust's is_nan spells it
    expect(splitWords('isNaN Number.NaN parseNaNValue')).toEqual(['is', 'nan', 'number', 'nan', 'parse', 'nan', 'value']);
  });
  it('keeps CJK runs with their bigrams (full-width normalised by NFKC elsewhere)', () => {
    expect(splitWords('ログイン機能')).toEqual(['ログイン機能', 'ログ', 'グイ', 'イン', 'ン機', '機能']);
  });
});

describe('paginate', () => {
  it('caps and reports next_offset', () => {
    const p = paginate([1, 2, 3, 4, 5], 1, 2);
    expect(p).toEqual({ items: [2, 3], total: 5, offset: 1, limit: 2, next_offset: 3 });
    expect(paginate([1, 2], 0, 10_000).limit).toBe(500);
    expect(paginate([1, 2], 0, 2).next_offset).toBeNull();
  });
});

describe('relInsideRoot', () => {
  it('accepts paths inside the root and refuses escapes', () => {
    expect(relInsideRoot('/p', 'src/a.ts')).toBe('src/a.ts');
    expect(relInsideRoot('/p', '/p/src/a.ts')).toBe('src/a.ts');
    expect(() => relInsideRoot('/p', '../etc/passwd')).toThrow(UserError);
    expect(() => relInsideRoot('/p', '/etc/passwd')).toThrow(/outside the project root/);
  });
});

describe('walkProject', () => {
  it('honours nested .gitignore files and the defaults, and skips huge files', () => {
    const root = makeProject({
      '.gitignore': 'secret.ts\n',
      'src/a.ts': '',
      'src/secret.ts': '',
      'src/gen/.gitignore': '*.gen.ts\n',
      'src/gen/x.gen.ts': '',
      'src/gen/keep.ts': '',
      'node_modules/dep/index.js': '',
      'dist/out.js': '',
      'src/build/real.ts': '',
    });
    fs.writeFileSync(path.join(root, 'src/huge.ts'), 'x'.repeat(1024 * 1024 + 1));
    const { files, skipped } = walkProject(root);
    expect(files.map((f) => f.rel)).toEqual(['.gitignore', 'src/a.ts', 'src/build/real.ts', 'src/gen/.gitignore', 'src/gen/keep.ts']);
    expect(skipped).toEqual([{ file: 'src/huge.ts', reason: 'larger than 1024 KiB' }]);
    removeProject(root);
  });
});

describe('ECMAScript module resolution', () => {
  const files = new Set(['src/a.ts', 'src/b/index.ts', 'src/c.tsx', 'src/d.js', 'lib/x.ts', 'packages/core/src/index.ts', 'packages/core/package.json']);
  const root = makeProject({ 'packages/core/package.json': '{"name":"@acme/core"}', 'tsconfig.json': '{ /* c */ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"] }, } }' });
  const resolve = createEcmascriptResolver(root, files);
  it('probes extensions, index files and .js → .ts', () => {
    expect(resolve('src/z.ts', './a')).toEqual({ file: 'src/a.ts' });
    expect(resolve('src/z.ts', './a.js')).toEqual({ file: 'src/a.ts' });
    expect(resolve('src/z.ts', './b')).toEqual({ file: 'src/b/index.ts' });
    expect(resolve('src/z.ts', './c')).toEqual({ file: 'src/c.tsx' });
    expect(resolve('src/z.ts', './d.js')).toEqual({ file: 'src/d.js' });
    expect(resolve('src/z.ts', './missing')).toHaveProperty('unresolved');
    expect(resolve('src/z.ts', '../../outside')).toHaveProperty('unresolved');
  });
  it('follows tsconfig paths and workspace packages; the rest is external', () => {
    expect(resolve('src/z.ts', '@lib/x')).toEqual({ file: 'lib/x.ts' });
    expect(resolve('src/z.ts', '@acme/core')).toEqual({ file: 'packages/core/src/index.ts' });
    expect(resolve('src/z.ts', 'react')).toEqual({ external: true });
  });
});

describe('extraction details', () => {
  const facts = (src: string) => extractFile(languageFor('x.ts')!, src);
  it('`this` inside a nested function or class expression is not the outer class', async () => {
    const f = await facts(`class A {\n  x = 1;\n  m() {\n    this.x;\n    const g = function () { return this.x; };\n    const h = () => this.x;\n    return class { y() { return this.x; } };\n  }\n}\n`);
    const xs = f.refs.filter((r) => r.name === 'x').map((r) => `${r.line}:${r.target.kind}`);
    expect(xs).toEqual(['4:symbol', '5:member', '6:symbol', '7:member']);
  });
  it('properties of inline type literals belong to no symbol', async () => {
    const f = await facts(`export function App({ onSave }: { onSave: () => void }) {}\ntype T = { a: number };\n`);
    expect(f.symbols.map((s) => `${s.name}:${s.container === null ? '-' : f.symbols[s.container]!.name}`)).toEqual(['App:-', 'T:-', 'a:T']);
  });
});

describe('factCap: a FACT is a symbol whose name says the target and nothing more', () => {
  it('caps a name with words of its own at the FACT line; the thing itself stays uncapped', () => {
    expect(factCap('ref', 'ComputedRef')).toBe(TIER.fact);
    expect(factCap('ref', 'hasScopeRef')).toBe(TIER.fact);
    // (a name that shares only part of the code the target writes: below the accepted tier, it counts through links — red team adv91)
    expect(factCap('ObservableSet', 'makeObservable')).toBe(TIER.accept - 0.01);
    expect(factCap('the ObservableSet toggle', 'makeObservable')).toBe(TIER.fact);
    expect(ownWords('ObservableSet', 'makeObservable')).toEqual(['make']); // what a capped acceptance names as its reason (tr119)
    expect(ownWords('ref', 'ref')).toEqual([]);
    expect(factCap('ref', 'ref')).toBe(1);
    expect(factCap('getters', 'getters')).toBe(1);
    expect(factCap('ObservableSet.replace', 'replace')).toBe(1);
    expect(factCap('the cart total', 'total')).toBe(1);
    // a leading get names the accessor of the rest (agent trial tr163); has, make, is… say more
    expect(factCap('帮助选项的名字', 'get_help_option_names')).toBe(1);
    expect(factCap('help option names', 'getHelpOptionNames')).toBe(1);
    expect(factCap('help option names', 'getHelpOptionNamesCache')).toBe(TIER.fact);
    expect(factCap('ref', 'getScopeRef')).toBe(TIER.fact);
  });
  it('a name that carries the code the target writes and more is another identifier: below acceptance by its name (red team adv85)', () => {
    expect(factCap('res.send()', 'sendFile')).toBeLessThan(TIER.accept);
    expect(factCap('retryStale() of the query', 'retryStaleAfter')).toBeLessThan(TIER.accept);
    expect(factCap('The `radix` rule', 'isValidRadix')).toBe(TIER.fact); // a word in backticks may name a rule (graph-relevance: tr33)
    expect(factCap('res.send()', 'send')).toBe(1);
    // (not written as code: words, judged as before)
    expect(factCap('ObservableSet toggle', 'ObservableSet')).toBe(1);
    expect(factCap('the send function', 'sendFile')).toBe(TIER.fact);
  });
  it('reads a Japanese target through the glossary', () => {
    expect(factCap('JsonPrimitive の hashCode', 'hashCode')).toBe(1);
    expect(factCap('JsonPrimitive の hashCode', 'hashCodeOf')).toBe(1);
    expect(factCap('JsonPrimitive の hashCode', 'equalsIgnoreCase')).toBe(TIER.fact);
  });
});

describe('rankFiles: a file ranks by its best symbols, not by how many match (agent trial tr119)', () => {
  it('twenty weak matches of a type declaration file stay below the implementation\'s three strong ones', async () => {
    const { rankFiles } = await import('../src/query/file-rank.js');
    const rows = [
      ...['dispatchBeforeRedirect', 'setProxy', 'default'].map((label, i) => ({ file: 'lib/adapters/http.js', label, score: 1 - i * 0.05 })),
      ...Array.from({ length: 20 }, (_, i) => ({ file: 'index.d.ts', label: `Option${i}`, score: 0.8 })),
    ];
    const files = rankFiles(rows, 1);
    expect(files.map((f) => f.file)).toEqual(['lib/adapters/http.js', 'index.d.ts']);
    expect(files[0]!.top_symbols).toEqual(['dispatchBeforeRedirect', 'setProxy', 'default']);
    expect(files.every((f) => f.score > 0 && f.score <= 1)).toBe(true);
  });
});

describe('the JA glossary', () => {
  it('knows 指定 (specify) and 必須 as mandatory too (agent trial tr122: 指定 had no English word, so missingMandatoryOptionValue could never carry it)', async () => {
    const { concepts } = await import('../src/session/relevance.js');
    const c = concepts('必須オプションが指定されなかったときのエラーメッセージ');
    expect(c).toEqual(expect.arrayContaining([expect.arrayContaining(['required', 'mandatory']), expect.arrayContaining(['specify', 'specified'])]));
  });
});
