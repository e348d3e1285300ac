/**
 * The module graph has no cycles: a layer imports only downward (text primitives → index → query →
 * embeddings → session → server). Value imports count; `import type` is erased at compile time and
 * a dynamic `import()` loads on first use, so neither can close a cycle at load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The relative modules a file imports for their values. */
function valueImports(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const st of sf.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c?.isTypeOnly) continue;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      if (c && !c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)) continue;
      spec = st.moduleSpecifier;
    } else if (ts.isExportDeclaration(st) && !st.isTypeOnly) spec = st.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) out.push(path.resolve(path.dirname(file), spec.text.replace(/\.js$/, '.ts')));
  }
  return out;
}

/** Strongly connected components with more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('module graph', () => {
  it('has no import cycle in src/ and machines/', () => {
    const files = [...sources(path.join(REPO, 'src')), ...sources(path.join(REPO, 'machines'))];
    const graph = new Map(files.map((f) => [f, valueImports(f).filter((d) => fs.existsSync(d))]));
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph).map((c) => c.map((f) => path.relative(REPO, f)).sort().join(' ↔ '))).toEqual([]);
  });

  it('sees a cycle when there is one, and not through type-only imports', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-intel-imports-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b();\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a.js';\nimport type { C } from './c.js';\nexport const b = () => a();\nexport type B = C;\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import { type B } from './b.js';\nexport type C = B | 1;\n");
      const files = ['a.ts', 'b.ts', 'c.ts'].map((f) => path.join(dir, f));
      const found = cycles(new Map(files.map((f) => [f, valueImports(f)])));
      expect(found.map((c) => c.map((f) => path.basename(f)).sort())).toEqual([['a.ts', 'b.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
