/**
 * grammars/languages.json is checked at load (#14): a misspelt flag or a value of the wrong kind
 * fails with the language and the field named, instead of a language that silently lacks the flag.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, parseLanguages } from '../src/index/languages.js';
import { REPO_ROOT } from './helpers/project.js';

const shipped = (): { languages: Record<string, unknown>[] } =>
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'grammars', 'languages.json'), 'utf8'));

describe('languages.json', () => {
  it('loads the shipped rows', () => {
    expect(LANGUAGES.map((r) => r.id)).toEqual(shipped().languages.map((r) => r.id));
    expect(LANGUAGES.find((r) => r.id === 'java')?.overloadsByArity).toBe(true);
  });

  it('rejects a misspelt flag, naming the language and the key', () => {
    const json = shipped();
    const java = json.languages.find((r) => r.id === 'java')!;
    delete java.overloadsByArity;
    java.overloadByArity = true;
    expect(() => parseLanguages(json)).toThrow(/languages\[\d+\] \(java\): Unrecognized key: "overloadByArity"/);
  });

  it('rejects a value of the wrong kind, naming the field', () => {
    const json = shipped();
    json.languages.find((r) => r.id === 'go')!.packageScope = 'folder';
    expect(() => parseLanguages(json)).toThrow(/languages\[\d+\] \(go\)\.packageScope: /);
    const noQueries = shipped();
    delete noQueries.languages[0]!.queries;
    expect(() => parseLanguages(noQueries)).toThrow(/\(typescript\)\.queries: /);
  });
});
