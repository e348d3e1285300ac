/** Ground truth from the TypeScript LanguageService over a package's src/**\/*.ts files. */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Loc {
  file: string; // relative to the root, `/`-separated
  line: number; // 1-based
  column: number; // 1-based, UTF-16 units
}

export const key = (l: Loc): string => `${l.file}:${l.line}:${l.column}`;
export const parseKey = (k: string): Loc => {
  const m = /^(.*):(\d+):(\d+)$/.exec(k)!;
  return { file: m[1]!, line: Number(m[2]), column: Number(m[3]) };
};

/** SyntaxKind name, preferring the real name over the First/Last range markers that share its value. */
export function kindName(k: ts.SyntaxKind): string {
  let best: string | undefined;
  for (const [name, v] of Object.entries(ts.SyntaxKind)) {
    if (v !== k) continue;
    if (!/^(First|Last)/.test(name)) return name;
    best ??= name;
  }
  return best ?? String(k);
}

export class Truth {
  readonly ls: ts.LanguageService;
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  readonly optionsSource: string;
  readonly optionDiagnostics: string[];
  private texts = new Map<string, string | undefined>();

  constructor(readonly root: string, readonly files: string[], readonly inScope: (rel: string) => boolean) {
    const { options, source } = compilerOptions(root);
    this.optionsSource = source;
    const abs = files.map((f) => path.join(root, f));
    const read = (f: string): string | undefined => {
      if (!this.texts.has(f)) this.texts.set(f, ts.sys.readFile(f));
      return this.texts.get(f);
    };
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => abs,
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) => {
        const t = read(f);
        return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (f) => ts.sys.fileExists(f),
      readFile: (f) => read(f),
      readDirectory: (...a) => ts.sys.readDirectory(...a),
      directoryExists: (d) => ts.sys.directoryExists(d),
      getDirectories: (d) => ts.sys.getDirectories(d),
    };
    this.ls = ts.createLanguageService(host, ts.createDocumentRegistry());
    this.program = this.ls.getProgram()!;
    this.checker = this.program.getTypeChecker();
    this.optionDiagnostics = [...this.program.getOptionsDiagnostics(), ...this.program.getGlobalDiagnostics()].map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
  }

  abs(rel: string): string {
    return path.join(this.root, rel);
  }

  rel(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join('/');
  }

  sourceFile(rel: string): ts.SourceFile | undefined {
    return this.program.getSourceFile(this.abs(rel));
  }

  position(l: Loc): number | undefined {
    const sf = this.sourceFile(l.file);
    if (!sf) return undefined;
    const starts = sf.getLineStarts();
    const start = starts[l.line - 1];
    if (start === undefined) return undefined;
    return start + l.column - 1;
  }

  loc(fileName: string, pos: number): Loc | undefined {
    const rel = this.rel(fileName);
    const sf = this.program.getSourceFile(fileName);
    if (!sf) return undefined;
    const lc = sf.getLineAndCharacterOfPosition(pos);
    return { file: rel, line: lc.line + 1, column: lc.character + 1 };
  }

  /** The identifier-like token starting at a position (JSDoc included), or undefined. */
  tokenAt(l: Loc): ts.Node | undefined {
    const sf = this.sourceFile(l.file);
    const pos = this.position(l);
    if (!sf || pos === undefined) return undefined;
    const nameLike = (c: ts.Node) =>
      ts.isIdentifier(c) || ts.isPrivateIdentifier(c) || ts.isStringLiteral(c) || ts.isNumericLiteral(c) ||
      c.kind === ts.SyntaxKind.ThisKeyword || c.kind === ts.SyntaxKind.SuperKeyword;
    const visit = (n: ts.Node): ts.Node | undefined => {
      for (const c of n.getChildren(sf)) {
        if (pos < c.pos || pos >= c.end) continue;
        if (nameLike(c) && c.getStart(sf) === pos) return c;
        const r = visit(c);
        if (r) return r;
      }
      return undefined;
    };
    return visit(sf);
  }

  /** Where the declarations of the symbol named at `l` write their names (overloads, merges). */
  declarationNames(l: Loc): Loc[] {
    const tok = this.tokenAt(l);
    if (!tok) return [];
    const sym = this.checker.getSymbolAtLocation(tok);
    const out: Loc[] = [];
    for (const d of sym?.declarations ?? []) {
      const n = ts.getNameOfDeclaration(d) ?? d;
      const sf = d.getSourceFile();
      const loc = this.loc(sf.fileName, n.getStart(sf));
      if (loc) out.push(loc);
    }
    return out;
  }

  /** References (not declarations) to the symbol named at `l`, in scope files only. */
  references(l: Loc): { refs: Loc[]; groups: number; error?: string } {
    const pos = this.position(l);
    if (pos === undefined) return { refs: [], groups: 0, error: 'no such position' };
    let groups: ts.ReferencedSymbol[] | undefined;
    try {
      groups = this.ls.findReferences(this.abs(l.file), pos);
    } catch (e) {
      return { refs: [], groups: 0, error: (e as Error).message };
    }
    const decl = new Set(this.declarationNames(l).map(key));
    decl.add(key(l));
    const out = new Map<string, Loc>();
    for (const g of groups ?? []) {
      for (const r of g.references) {
        if (r.isDefinition) continue;
        const loc = this.loc(r.fileName, r.textSpan.start);
        if (!loc || !this.inScope(loc.file) || decl.has(key(loc))) continue;
        out.set(key(loc), loc);
      }
    }
    return { refs: [...out.values()], groups: groups?.length ?? 0 };
  }

  /** Definitions of whatever is used at `l` (file + name line), in scope files only. */
  definitions(l: Loc): Loc[] {
    const pos = this.position(l);
    if (pos === undefined) return [];
    let defs: readonly ts.DefinitionInfo[] | undefined;
    try {
      defs = this.ls.getDefinitionAtPosition(this.abs(l.file), pos);
    } catch {
      return [];
    }
    const out: Loc[] = [];
    for (const d of defs ?? []) {
      const loc = this.loc(d.fileName, d.textSpan.start);
      if (loc && this.inScope(loc.file)) out.push(loc);
    }
    return out;
  }

  /** True when the token at `l` sits inside a JSDoc comment. */
  inJSDoc(l: Loc): boolean {
    for (let n: ts.Node | undefined = this.tokenAt(l); n; n = n.parent) {
      if (n.kind >= ts.SyntaxKind.FirstJSDocNode && n.kind <= ts.SyntaxKind.LastJSDocNode) return true;
    }
    return false;
  }

  /**
   * Why a TS "reference" is not a use in code, or undefined when it is one: a JSDoc mention, the
   * `this`/`super` keyword, or the name of another declaration that TS relates to the symbol
   * (an override or implementation, an object-literal member typed by the interface, a
   * destructured binding, an import/export alias, a parameter property).
   */
  notACodeUse(l: Loc): string | undefined {
    const tok = this.tokenAt(l);
    if (!tok) return 'no identifier';
    if (this.inJSDoc(l)) return 'JSDoc';
    if (tok.kind === ts.SyntaxKind.ThisKeyword || tok.kind === ts.SyntaxKind.SuperKeyword) return 'this/super keyword';
    const p = tok.parent;
    if (!p) return undefined;
    if (ts.isShorthandPropertyAssignment(p)) return 'related declaration';
    if (ts.isBindingElement(p) && !p.propertyName && p.name === tok) return 'related declaration';
    if ((ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && p.propertyName && p.name === tok) return 'related declaration';
    if (ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p) || ts.isBindingElement(p)) return undefined;
    if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) return undefined;
    const named = (ts as unknown as { isNamedDeclaration?: (n: ts.Node) => boolean }).isNamedDeclaration;
    if ((named ? named(p) : 'name' in p) && ts.getNameOfDeclaration(p as ts.Declaration) === tok) return 'related declaration';
    return undefined;
  }

  /** A short name for the syntactic context of the token at `l`, for grouping misses. */
  context(l: Loc): string {
    const tok = this.tokenAt(l);
    if (!tok) return 'no identifier at position';
    if (tok.kind === ts.SyntaxKind.ThisKeyword || tok.kind === ts.SyntaxKind.SuperKeyword) return `${kindName(tok.kind)} (TS counts it as a use of the class)`;
    const inDoc = this.inJSDoc(l);
    const p = tok.parent;
    if (!p) return kindName(tok.kind);
    let c = kindName(p.kind);
    if (ts.isPropertyAccessExpression(p)) c += p.name === tok ? `.name (receiver: ${this.receiver(p, tok)})` : '.expression';
    else if (ts.isQualifiedName(p)) c += p.right === tok ? '.right' : '.left';
    else if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) c += p.propertyName === tok ? '.propertyName' : p.propertyName ? '.name (alias)' : '.name';
    else if (ts.isPropertyAssignment(p) && p.name === tok) c += '.name';
    else if (ts.isBindingElement(p)) c += p.propertyName === tok ? '.propertyName' : '.name';
    else if (ts.isParameter(p) && p.name === tok && ts.getCombinedModifierFlags(p) & ts.ModifierFlags.ParameterPropertyModifier) c += ' (parameter property)';
    const gp = p.parent;
    if (gp && (ts.isTypeReferenceNode(p) || ts.isExpressionWithTypeArguments(p) || ts.isTypeQueryNode(p))) c += ` < ${kindName(gp.kind)}`;
    return inDoc ? `JSDoc: ${c}` : c;
  }

  /** What kind of expression a member access is made on, and whether its type is written down. */
  private receiver(pa: ts.PropertyAccessExpression, name: ts.Node): string {
    const e = pa.expression;
    if (e.kind === ts.SyntaxKind.ThisKeyword) {
      const site = this.enclosingClass(pa);
      const decl = this.checker.getSymbolAtLocation(name)?.declarations?.[0];
      const owner = decl ? this.enclosingClass(decl) : undefined;
      if (!site) return 'this outside a class';
      return owner === site ? 'this, own member' : owner ? 'this, inherited member' : 'this, member of an interface';
    }
    if (e.kind === ts.SyntaxKind.SuperKeyword) return 'super';
    if (ts.isIdentifier(e)) {
      const sym = this.checker.getSymbolAtLocation(e);
      const d = sym?.valueDeclaration ?? sym?.declarations?.[0];
      if (!d) return 'identifier, unknown';
      if (sym && sym.flags & ts.SymbolFlags.Alias) return 'imported value';
      if (ts.isClassDeclaration(d) || ts.isEnumDeclaration(d) || ts.isModuleDeclaration(d)) return 'class/enum/namespace name';
      const typed = (ts.isParameter(d) || ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)) && d.type;
      if (typed) return ts.isTypeReferenceNode(d.type) ? 'identifier with a declared type' : 'identifier with a declared non-reference type';
      if (ts.isParameter(d)) return 'untyped parameter (contextually typed)';
      if (ts.isVariableDeclaration(d) && d.initializer) {
        const init = d.initializer;
        if (ts.isNewExpression(init)) return 'variable = new X()';
        if (ts.isObjectLiteralExpression(init)) return 'variable = object literal';
        return 'variable, inferred type';
      }
      return `identifier (${kindName(d.kind)})`;
    }
    if (ts.isPropertyAccessExpression(e)) return e.expression.kind === ts.SyntaxKind.ThisKeyword ? 'this.field' : 'a.b chain';
    if (ts.isCallExpression(e)) return 'call result';
    if (ts.isNonNullExpression(e) || ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) return 'cast / non-null / parens';
    return kindName(e.kind);
  }

  private enclosingClass(n: ts.Node): ts.Node | undefined {
    for (let p: ts.Node | undefined = n.parent; p; p = p.parent) if (ts.isClassLike(p)) return p;
    return undefined;
  }

  /** Human-readable description of what TS says the name at `l` is (first definition). */
  describe(l: Loc): string {
    const defs = this.definitionsAny(l);
    if (defs.length === 0) return 'TS: no definition';
    return 'TS: ' + defs.slice(0, 2).join(', ') + (defs.length > 2 ? ` (+${defs.length - 2})` : '');
  }

  private definitionsAny(l: Loc): string[] {
    const pos = this.position(l);
    if (pos === undefined) return [];
    try {
      return (this.ls.getDefinitionAtPosition(this.abs(l.file), pos) ?? []).map((d) => {
        const loc = this.loc(d.fileName, d.textSpan.start);
        const where = loc && this.inScope(loc.file) ? `${loc.file}:${loc.line}` : path.basename(d.fileName);
        const container = d.containerName && !d.containerName.startsWith('"') ? d.containerName + '.' : '';
        return `${container}${d.name} (${d.kind}) @ ${where}`;
      });
    } catch {
      return [];
    }
  }
}

/** The package's tsconfig compilerOptions when usable, else sensible defaults. */
function compilerOptions(root: string): { options: ts.CompilerOptions; source: string } {
  const defaults: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: false,
    allowJs: false,
    skipLibCheck: true,
    noEmit: true,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
  };
  const file = path.join(root, 'tsconfig.json');
  if (!fs.existsSync(file)) return { options: defaults, source: 'defaults (no tsconfig.json)' };
  const cfg = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
  if (cfg.error) return { options: defaults, source: `defaults (tsconfig.json unreadable)` };
  const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, root, undefined, file);
  const fatal = parsed.errors.filter((e) => e.category === ts.DiagnosticCategory.Error && e.code !== 18003 /* no inputs */);
  if (fatal.length > 0) return { options: defaults, source: `defaults (tsconfig.json: ${ts.flattenDiagnosticMessageText(fatal[0]!.messageText, ' ')})` };
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, skipLibCheck: true };
  delete options.incremental;
  delete options.tsBuildInfoFile;
  delete options.composite;
  delete options.noLib;
  return { options, source: 'tsconfig.json' };
}
