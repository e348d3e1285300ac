/**
 * NodeRanges (src/index/ancestry.ts) answers "the nearest scope around this node" by byte range
 * instead of walking `.parent`: every answer it gives must be the walk's, and where the ranges
 * cannot tell (empty nodes, scopes sharing a range) it must give none.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { NodeRanges } from '../src/index/ancestry.js';
import { languageFor } from '../src/index/languages.js';
import { loadLanguage } from '../src/index/parser.js';
import { REPO_ROOT } from './helpers/project.js';

/** every node of a tree, parents before children */
function allNodes(root: Node): Node[] {
  const out: Node[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (const c of n.children) if (c) stack.push(c);
  }
  return out;
}

/** The nearest proper ancestor of `n` among `scopes`, by walking `.parent`. */
function walked(n: Node, scopes: Set<number>): Node | null {
  for (let p = n.parent; p; p = p.parent) if (scopes.has(p.id)) return p;
  return null;
}

async function check(file: string, source: string, isScope: (n: Node) => boolean): Promise<{ answered: number; asked: number }> {
  const { parser } = await loadLanguage(languageFor(file)!);
  const tree = parser.parse(source)!;
  try {
    const nodes = allNodes(tree.rootNode);
    const scopes = nodes.filter((n) => n.id === tree.rootNode.id || isScope(n));
    const ids = new Set(scopes.map((n) => n.id));
    const ranges = new NodeRanges(scopes);
    let answered = 0;
    for (const n of nodes) {
      const near = ranges.nearest(n);
      if (near === undefined) continue;
      answered++;
      expect(near?.id ?? null, `${n.type} at ${n.startIndex}`).toBe(walked(n, ids)?.id ?? null);
      const around = ranges.around(n);
      if (around) expect(walked(n, new Set([around.id]))?.id, `${n.type} at ${n.startIndex}`).toBe(around.id);
    }
    return { answered, asked: nodes.length };
  } finally {
    tree.delete();
  }
}

describe('NodeRanges', () => {
  it('finds the walk’s nearest scope for the nodes of a TypeScript file', async () => {
    const file = path.join(REPO_ROOT, 'src', 'index', 'extract', 'types.ts');
    const types = new Set(['statement_block', 'arrow_function', 'function_declaration', 'class_body', 'for_statement', 'program']);
    const r = await check(file, fs.readFileSync(file, 'utf8'), (n) => types.has(n.type));
    expect(r.answered).toBeGreaterThan(r.asked * 0.9);
  });

  it('gives no answer where scopes or nodes share a range', async () => {
    // `x` alone: program, expression_statement and identifier all span the same bytes
    const r = await check('a.ts', 'x', (n) => n.type === 'expression_statement');
    expect(r.answered).toBe(0);
    // an arrow body that is a block: scopes nested with distinct ranges
    await check('a.ts', 'const f = () => { return () => { g() } }\n', (n) => n.type === 'statement_block' || n.type === 'arrow_function');
  });

  it('finds the walk’s nearest scope in a Python file (class and function scopes)', async () => {
    const src = 'class A:\n    def f(self, x=1):\n        def g():\n            return x\n        return g\n\nv = A()\n';
    await check('a.py', src, (n) => n.type === 'block' || n.type === 'function_definition' || n.type === 'class_definition');
  });
});
