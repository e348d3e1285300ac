/** Copies a tree of TypeScript/JavaScript sources with every comment removed (the TypeScript printer). */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;

function kindOf(file: string): ts.ScriptKind {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Returns how many files were written; other files are not copied. */
export function stripComments(srcDir: string, outDir: string): number {
  const printer = ts.createPrinter({ removeComments: true });
  let n = 0;
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(srcDir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else if (CODE.test(e.name)) {
        const text = fs.readFileSync(path.join(srcDir, r), 'utf8');
        const sf = ts.createSourceFile(r, text, ts.ScriptTarget.Latest, true, kindOf(e.name));
        fs.mkdirSync(path.dirname(path.join(outDir, r)), { recursive: true });
        fs.writeFileSync(path.join(outDir, r), printer.printFile(sf));
        n++;
      }
    }
  };
  walk('');
  return n;
}
