/**
 * Gated queries (languages.json `gated`, #14): CommonJS patterns are compiled and matched only in a
 * file that uses `exports`, `module` or `require` as a name. Skipping them must change no fact: each
 * of their patterns tests one of those names on a node the main query always captures, and the
 * facts with the gate equal the facts of one query holding every pattern.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/index/extract.js';
import { LANGUAGES, type LanguageRow } from '../src/index/languages.js';
import { loadLanguage } from '../src/index/parser.js';
import { REPO_ROOT } from './helpers/project.js';

const GRAMMARS = path.join(REPO_ROOT, 'grammars');
const row = (id: string): LanguageRow => LANGUAGES.find((r) => r.id === id)!;

/** The top-level forms (patterns) of a query file, comments dropped. */
function patterns(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === ';') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
    } else if (c === '(' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === ')' || c === ']') && --depth === 0) out.push(src.slice(start, i + 1));
  }
  return out;
}

/** The same row with its gated queries folded into the main one: what the gate must not change. */
function ungated(r: LanguageRow): LanguageRow {
  return { ...r, id: `${r.id}-ungated`, queries: [...r.queries, ...(r.gated ?? []).flatMap((g) => g.queries)], gated: undefined };
}

const SOURCES: [string, string][] = [
  ['typescript', 'export function f(a: number) {\n  return a\n}\n// exports.x = function () {} in a comment, "module.exports" in a string\nconst s = "require(\'x\')"\n'],
  ['typescript', 'import fs = require("fs")\nconst path = require("path")\nexports.read = function (p: string) { return fs.readFileSync(path.join(p)) }\nmodule.exports.size = 3\n'],
  ['typescript', 'class Module { exports = 1 }\nconst m = new Module()\nm.exports = 2\n'],
  ['javascript', 'const { a, b: c } = require("./x")\nmodule.exports = { a, c }\n'],
  ['javascript', 'function Fixer() {}\nexports.Fixer = exports.default = Fixer\nmodule.exports = { run() {}, Fixer }\n'],
  ['javascript', 'let requireLike = 1\nconst modules = { exports_: 2 }\nexport default requireLike + modules.exports_\n'],
  ['tsx', 'const React = require("react")\nexports.App = () => <div>{React.version}</div>\n'],
];

describe('gated queries', () => {
  it('every pattern of a gated query tests one of its names on an identifier or a property', () => {
    let checked = 0;
    for (const r of LANGUAGES) {
      for (const gate of r.gated ?? []) {
        for (const file of gate.queries) {
          for (const p of patterns(fs.readFileSync(path.join(GRAMMARS, file), 'utf8'))) {
            const tested = [...p.matchAll(/\(#(?:eq|any-of)\?\s+@([\w.]+)((?:\s+"[^"]*")+)\)/g)].filter((m) =>
              [...m[2]!.matchAll(/"([^"]*)"/g)].every((v) => gate.names.includes(v[1]!)),
            );
            const onName = tested.some((m) => new RegExp(`\\((?:identifier|property_identifier)\\)\\s+@${m[1]!.replace('.', '\\.')}\\b`).test(p));
            expect(onName, `${file}: ${p.slice(0, 120)}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(18);
  });

  it('gives the facts of one query holding every pattern, in files that use the names and files that do not', async () => {
    const fixtures = ['src/cli.cjs', 'src/lib/legacy.cjs', 'src/lib/index.js', 'src/app.js'].map(
      (f): [string, string] => ['javascript', fs.readFileSync(path.join(REPO_ROOT, 'fixtures', 'js-app', f), 'utf8')],
    );
    for (const [id, source] of [...SOURCES, ...fixtures]) {
      const gatedFacts = await extractFile(row(id), source);
      const whole = await extractFile(ungated(row(id)), source);
      expect({ ...gatedFacts, language: id }, source.slice(0, 80)).toEqual({ ...whole, language: id });
    }
  });

  it('finds CommonJS declarations in TypeScript, and compiles the gated query only for a file that needs it', async () => {
    const ts = { ...row('typescript'), id: 'typescript-fresh' };
    const loaded = await loadLanguage(ts);
    let compiled = 0;
    const gate = loaded.gated[0]!;
    const compile = gate.query;
    gate.query = () => (compiled++, compile());
    const plain = await extractFile(ts, SOURCES[0]![1]);
    expect(compiled).toBe(0);
    expect(plain.symbols.map((s) => s.name)).toEqual(['f', 's']);
    const cjs = await extractFile(ts, SOURCES[1]![1]);
    expect(compiled).toBe(1);
    expect(cjs.symbols.map((s) => s.name)).toContain('read');
    expect(cjs.exports.map((e) => e.name)).toEqual(expect.arrayContaining(['read', 'size']));
    expect(cjs.imports.map((i) => i.source)).toEqual(expect.arrayContaining(['fs', 'path']));
  });
});
