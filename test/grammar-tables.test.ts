/**
 * The node tables in grammars/ are checked at load (#14): a misspelt role or a value of the wrong
 * shape fails with the file and the key named, and every node type a table names is one its
 * grammars have (a table naming a type no grammar of its rows has is stale data).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grammarTables, mergeTables, parseTablesFile } from '../src/index/grammar-tables.js';
import { LANGUAGES } from '../src/index/languages.js';
import { loadLanguage } from '../src/index/parser.js';
import { REPO_ROOT } from './helpers/project.js';

const read = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'grammars', file), 'utf8'));

describe('grammar node tables', () => {
  it('loads the shipped files of every row', () => {
    const ts = grammarTables(LANGUAGES.find((r) => r.id === 'typescript')!.tables);
    expect(ts.memberAccess.get('member_expression')).toBe('property');
    expect(ts.typeWrappers.get('type_annotation')).toEqual([]);
    expect(grammarTables(LANGUAGES.find((r) => r.id === 'go')!.tables).elementTypes.get('map_type')).toBe('value');
  });

  it('rejects a misspelt role, naming the file and the key', () => {
    const json = { ...read('go/nodes.json'), memberPaths: ['block'] };
    expect(() => parseTablesFile(json, 'go/nodes.json')).toThrow(/grammars\/go\/nodes\.json is not valid:\n.*Unrecognized key: "memberPaths"/);
  });

  it('rejects a value of the wrong shape, naming the key', () => {
    const json = { ...read('java/nodes.json'), memberAccess: ['field_access'] };
    expect(() => parseTablesFile(json, 'java/nodes.json')).toThrow(/grammars\/java\/nodes\.json is not valid:\n {2}memberAccess: /);
    const field = { ...read('rust/nodes.json'), qualifiedTypes: { generic_type: 'second' } };
    expect(() => parseTablesFile(field, 'rust/nodes.json')).toThrow(/qualifiedTypes\.generic_type: /);
  });

  it('rejects a node type given two values by two files of one row', () => {
    const a = parseTablesFile({ callees: { call: 'function' } }, 'a.json');
    const b = parseTablesFile({ callees: { call: 'callee' } }, 'b.json');
    expect(() => mergeTables([{ file: 'a.json', tables: a }, { file: 'b.json', tables: b }])).toThrow(/grammars\/b\.json: callees\.call is given already in grammars\/a\.json/);
  });

  it('names only node types the grammars of its rows have', async () => {
    const stale: string[] = [];
    const files = new Set(LANGUAGES.flatMap((r) => r.tables).filter((f) => f.includes('/')));
    for (const file of files) {
      const rows = LANGUAGES.filter((r) => r.tables.includes(file));
      const languages = await Promise.all(rows.map(async (r) => (await loadLanguage(r)).language));
      for (const [role, value] of Object.entries(read(file))) {
        if (role === '$comment') continue;
        for (const type of Array.isArray(value) ? (value as string[]) : Object.keys(value as object)) {
          if (!languages.some((l) => l.idForNodeType(type, true) != null)) stale.push(`${file}: ${role}.${type}`);
        }
      }
    }
    expect(stale).toEqual([]);
  });
});
