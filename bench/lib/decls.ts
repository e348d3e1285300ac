/**
 * Declarations of a TypeScript file, read with the TypeScript compiler's own parser (independent
 * of code-intel's extractor): the things an agent names when it says which code it will change.
 *
 *   function   function declarations, and module-level `const f = () => …` / `= function …`
 *   class, interface, type, enum
 *   method     class methods, constructors, accessors; methods (and function-valued properties)
 *              of an object literal that initialises a module-level variable (container: the variable)
 *   property   class fields
 *   constant / variable   other module-level variables (`const` / `let`, `var`)
 *
 * Interface and type members, enum members and locals are not declarations of their own here: a
 * change inside them belongs to the interface, type, enum or function around them. Namespaces
 * (and `declare module`) only name a container. The span of a declaration starts at its JSDoc
 * comment when it has one and ends at its last character.
 */
import ts from 'typescript';

export interface Decl {
  name: string;
  container: string | null;
  kind: string;
  /** line of the name (1-based) */
  line: number;
  /** first line of the span (the JSDoc when there is one) */
  start: number;
  end: number;
}

const unwrap = (e: ts.Expression | undefined): ts.Expression | undefined => {
  while (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e) || ts.isTypeAssertionExpression(e))) e = e.expression;
  return e;
};
const isFn = (e: ts.Expression | undefined) => !!e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));

function nameOf(n: ts.PropertyName | ts.BindingName | ts.ModuleName | undefined): string | undefined {
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return undefined; // computed names, destructuring
}

export function declarations(fileName: string, text: string): Decl[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Decl[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const startOf = (node: ts.Node) => {
    const docs = (node as { jsDoc?: ts.Node[] }).jsDoc;
    return lineOf(docs?.length ? docs[0]!.getStart(sf) : node.getStart(sf));
  };
  const add = (name: string | undefined, container: string | null, kind: string, nameNode: ts.Node, span: ts.Node, end: ts.Node = span) => {
    if (!name) return;
    out.push({ name, container, kind, line: lineOf(nameNode.getStart(sf)), start: startOf(span), end: lineOf(end.getEnd()) });
  };

  const classMembers = (cls: ts.ClassLikeDeclaration, container: string) => {
    for (const m of cls.members) {
      if (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) add(nameOf(m.name), container, 'method', m.name, m);
      else if (ts.isConstructorDeclaration(m)) {
        const kw = m.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) ?? m;
        add('constructor', container, 'method', kw, m);
      } else if (ts.isPropertyDeclaration(m)) add(nameOf(m.name), container, isFn(unwrap(m.initializer)) ? 'method' : 'property', m.name, m);
    }
  };

  const objectMembers = (obj: ts.ObjectLiteralExpression, container: string) => {
    for (const p of obj.properties) {
      if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) add(nameOf(p.name), container, 'method', p.name, p);
      else if (ts.isPropertyAssignment(p) && isFn(unwrap(p.initializer))) add(nameOf(p.name), container, 'method', p.name, p);
    }
  };

  const statements = (list: ts.NodeArray<ts.Statement>, container: string | null) => {
    for (const s of list) {
      if (ts.isFunctionDeclaration(s)) add(s.name?.text, container, 'function', s.name ?? s, s);
      else if (ts.isClassDeclaration(s)) {
        if (s.name) {
          add(s.name.text, container, 'class', s.name, s);
          classMembers(s, s.name.text);
        }
      } else if (ts.isInterfaceDeclaration(s)) add(s.name.text, container, 'interface', s.name, s);
      else if (ts.isTypeAliasDeclaration(s)) add(s.name.text, container, 'type', s.name, s);
      else if (ts.isEnumDeclaration(s)) add(s.name.text, container, 'enum', s.name, s);
      else if (ts.isModuleDeclaration(s)) {
        let body = s.body;
        let name = nameOf(s.name) ?? container;
        while (body && ts.isModuleDeclaration(body)) {
          name = nameOf(body.name) ?? name;
          body = body.body;
        }
        if (body && ts.isModuleBlock(body)) statements(body.statements, name);
      } else if (ts.isVariableStatement(s)) {
        const isConst = (s.declarationList.flags & ts.NodeFlags.Const) !== 0;
        const single = s.declarationList.declarations.length === 1;
        for (const d of s.declarationList.declarations) {
          const name = nameOf(d.name);
          if (!name || !ts.isIdentifier(d.name)) continue;
          const init = unwrap(d.initializer);
          // the JSDoc sits on the statement: a single declaration spans the whole statement
          const span: ts.Node = single ? s : d;
          if (isFn(init)) add(name, container, 'function', d.name, span);
          else {
            add(name, container, isConst ? 'constant' : 'variable', d.name, span);
            if (init && ts.isObjectLiteralExpression(init)) objectMembers(init, name);
            if (init && ts.isClassExpression(init)) classMembers(init, name);
          }
        }
      }
    }
  };
  statements(sf.statements, null);
  return out;
}

/** The innermost declaration containing a line (the smallest span; the later one on ties). */
export function innermost(decls: readonly Decl[], line: number): Decl | undefined {
  let best: Decl | undefined;
  for (const d of decls) {
    if (d.start > line || d.end < line) continue;
    if (!best || d.end - d.start < best.end - best.start || (d.end - d.start === best.end - best.start && d.start >= best.start)) best = d;
  }
  return best;
}

/** The innermost declaration that strictly contains the gap after `line` (an insertion point). */
export function innermostAround(decls: readonly Decl[], line: number): Decl | undefined {
  let best: Decl | undefined;
  for (const d of decls) {
    if (d.start > line || d.end < line + 1) continue;
    if (!best || d.end - d.start < best.end - best.start) best = d;
  }
  return best;
}

export const qualifiedName = (d: { name: string; container: string | null }) => (d.container ? `${d.container}.${d.name}` : d.name);

/** Test, documentation, playground and declaration files: not "source" for this benchmark. */
export function isSourceTs(file: string): boolean {
  if (!file.endsWith('.ts') || file.endsWith('.d.ts')) return false;
  if (/(^|\/)(__tests__|__test__|tests?|__mocks__|mocks?|e2e|specs?|fixtures?|__fixtures__|test-dts|dts-test|types-tests?|docs?|playgrounds?|examples?|benchmarks?|bench|scripts|node_modules)\//.test(file)) return false;
  if (/\.(test|spec|bench|test-d|spec-d)\.ts$/.test(file)) return false;
  return true;
}

export function isTestTs(file: string): boolean {
  return /(^|\/)(__tests__|__test__|tests?|__mocks__|e2e|specs?|fixtures?|__fixtures__|test-dts|dts-test|types-tests?)\//.test(file) || /\.(test|spec|bench|test-d|spec-d)\.ts$/.test(file);
}
