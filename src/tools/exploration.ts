/** The read-only exploration tools: definitions, references, text search, outlines, structure, query. */
import { z } from 'zod';
import { findDefinitions } from '../query/definitions.js';
import { queryHybrid } from '../query/hybrid-query.js';
import { getSymbols } from '../query/outline.js';
import { findReferences } from '../query/references.js';
import { searchTextGuarded } from '../query/search-pool.js';
import { enclosingDeclaration } from '../query/symbols.js';
import { analyzeStructure } from '../query/structure.js';
import { definitionRows, outlineRows, rankingRows, referenceRows, structureRows, textMatchRows } from '../session/evidence.js';
import { LIMITS, list, MAX_POSITION, pathArg, text } from '../server/limits.js';
import { answer, confidence, count, definitionRow, line, matchRow, paging } from './answers.js';
import { stringArgs, tool } from './record.js';
import type { Project } from '../project/project.js';

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const page = {
  limit: z.number().int().min(1).max(500).optional().describe('page size (default 50; max 500)'),
  offset: z.number().int().min(0).max(MAX_POSITION).optional().describe('skip this many results (use next_offset from the previous page)'),
};
const position = {
  line: z.number().int().min(1).max(MAX_POSITION).describe('1-based line'),
  column: z.number().int().min(1).max(MAX_POSITION).describe('1-based column (UTF-16 code units)'),
};
const filePath = pathArg('file', 1).describe('file path relative to the project root');
const symbolName = text(LIMITS.name, 'name').min(1);
const kindArg = text(64, 'kind');

/** The most lines of one definition's body, and of all bodies of a page: a class of 3,000 lines is not a page. */
const BODY_LINES = 200;
const BODY_TOTAL = 600;

/** Each definition with its code (`body`, lines `line`..`end_line`), cut at BODY_LINES and BODY_TOTAL (`body_truncated`). */
function withBodies<T extends { file: string; line: number; end_line?: number; kind: string }>(project: Project, items: T[]): T[] {
  let left = BODY_TOTAL;
  return items.map((d) => {
    if (d.kind === 'module' || !d.end_line || d.end_line < d.line || left <= 0) return d;
    const want = d.end_line - d.line + 1;
    const take = Math.min(want, BODY_LINES, left);
    left -= take;
    const body = project.lines(d.file).slice(d.line - 1, d.line - 1 + take).join('\n');
    return { ...d, body, ...(take < want ? { body_truncated: true } : {}) };
  });
}

export const findDefinitionsTool = tool({
  name: 'find_definitions',
  title: 'Find definitions',
  description:
    'Where a symbol is defined, from the syntax tree. By `name` (or `Container.member`): every definition of that name. ' +
    'With `from` (the file, line and column of a usage): the one definition that usage resolves to through scopes and imports. ' +
    'Each result has `confidence`: resolved / imported are facts, name_match is a guess (a member whose object type is unknown).',
  input: {
    name: symbolName.optional().describe('symbol name, e.g. "parseConfig" or "Server.start"'),
    from: z.object({ file: filePath, ...position }).optional().describe('a usage site to resolve'),
    kind: kindArg.optional().describe('only this kind: function, class, method, interface, type, enum, variable, constant, property, namespace'),
    include_body: z.boolean().optional().describe(`with the code of each definition (\`body\`, from its name's line to its end; at most ${BODY_LINES} lines, ${BODY_TOTAL} per page): code a session was shown can be cited as evidence`),
    ...page,
  },
  output: answer({ items: z.array(definitionRow), ...paging, resolution: z.string().optional() }),
  annotations: { title: 'Find definitions', ...READ_ONLY },
  role: 'explore',
  proves: definitionRows,
  target(args) {
    const from = args.from as { file?: string; line?: number; column?: number } | undefined;
    const site = from?.file ? [`${from.file}:${from.line}`, `${from.file}:${from.line}:${from.column}`, from.file] : [];
    return [...stringArgs(args, ['name']), ...site];
  },
  run: ({ project, inside }, args) => {
    const from = args.from ? { ...args.from, file: inside(args.from.file) } : undefined;
    const found = findDefinitions(project, { ...args, from });
    return args.include_body ? { ...found, items: withBodies(project, found.items) } : { ...found };
  },
});

export const findReferencesTool = tool({
  name: 'find_references',
  title: 'Find references',
  description:
    'Every place a symbol is used (calls, reads, writes, types, imports, re-exports), resolved through scopes and the module graph; ' +
    'never plain words in comments or strings (a doc comment\'s `{@link X}` / `@see X` tag is resolved like code: kind `doc`). ' +
    'For a method or field, the members that override or implement it (or that it overrides) are included with their uses; their declarations have kind `override` / `overridden`. ' +
    'Pick one of several same-named symbols with `file` + `line` (+ `column`) of its definition. ' +
    'Results carry `confidence`: resolved (same file, by scope), imported (through imports), name_match (a guess: same member name, type unknown); facts come first.',
  input: {
    name: symbolName.optional().describe('symbol name, or Container.member'),
    file: filePath.optional().describe('file of the definition (with line/column) to pick one symbol'),
    line: position.line.optional(),
    column: position.column.optional(),
    include_guesses: z.boolean().optional().describe('include name_match guesses (default true)'),
    ...page,
  },
  output: answer({
    items: z.array(matchRow.extend({ name: z.string().optional(), kind: z.string(), container: z.string().nullable().optional(), confidence: confidence.optional() }).loose()),
    ...paging,
    definitions: z.array(definitionRow).optional(),
    counts: z.record(z.string(), count).optional(),
    note: z.string().optional(),
  }),
  annotations: { title: 'Find references', ...READ_ONLY },
  role: 'explore',
  proves: referenceRows,
  target: (args) => stringArgs(args, ['name', 'file']),
  run: ({ project, inside }, args) => ({ ...findReferences(project, { ...args, file: args.file ? inside(args.file) : undefined }) }),
});

export const searchTextTool = tool({
  name: 'search_text',
  title: 'Search text',
  description:
    'ripgrep-style search of the project\'s text files (.gitignore honoured); each match names the declaration it sits in (`container`). Literal by default; `regex: true` for a JavaScript regular expression ' +
    '(with `regex` left out, a pattern that matches nothing as text but is a regular expression, e.g. `\\$onAction` or `a|b`, is searched as one: `interpreted_as: "regex"`). ' +
    'Filter with `path` (a directory or file) and `glob` (e.g. "*.ts", "src/**/*.tsx", "!**/*.test.ts"). ' +
    'A search that runs out of time answers with what it found so far (total_is_lower_bound); a regex that cannot finish in time is stopped (budget_exceeded).',
  input: {
    pattern: text(LIMITS.pattern, 'pattern').min(1).describe('text, or a regex with regex: true'),
    regex: z.boolean().optional(),
    case_sensitive: z.boolean().optional().describe('default true'),
    glob: z.union([text(LIMITS.glob, 'glob'), list(text(LIMITS.glob, 'glob'), 32, 'glob')]).optional(),
    path: pathArg().optional().describe('directory or file relative to the project root'),
    ...page,
  },
  output: answer({ items: z.array(matchRow), ...paging, total_is_lower_bound: z.boolean().optional(), files_searched: count.optional() }),
  annotations: { title: 'Search text', ...READ_ONLY },
  role: 'explore',
  proves: textMatchRows,
  target: (args) => stringArgs(args, ['pattern', 'path']),
  run: async ({ project, inside, deadline }, args) => {
    const r = await searchTextGuarded(project, { ...args, path: args.path ? inside(args.path) : undefined }, deadline);
    return { ...r, items: r.items.map((m) => ({ ...m, container: containerOf(project, m.file, m.line) })) };
  },
});

/** The declaration a text match sits in (as a reference row's container), when the file is indexed. */
function containerOf(project: Project, file: string, line: number): string | null {
  const id = project.fileId(file);
  return id === undefined ? null : enclosingDeclaration(project, id, line);
}

export const getSymbolsTool = tool({
  name: 'get_symbols',
  title: 'File outline',
  description: 'The symbols of one file, nested (classes with their methods and properties), with kind, line and signature.',
  input: {
    file: filePath,
    depth: z.number().int().min(1).max(10).optional().describe('nesting depth to show (default 3)'),
    ...page,
  },
  output: answer({
    file: z.string(),
    language: z.string().nullable().optional(),
    items: z.array(z.object({ name: z.string(), kind: z.string(), line, signature: z.string().optional(), children: z.array(z.unknown()).optional() }).loose()),
    ...paging,
    symbol_count: count.optional(),
  }),
  annotations: { title: 'File outline', ...READ_ONLY },
  role: 'explore',
  proves: outlineRows,
  target: (args) => stringArgs(args, ['file']),
  run: ({ project, inside }, args) => ({ ...getSymbols(project, { ...args, file: inside(args.file) }) }),
});

export const analyzeStructureTool = tool({
  name: 'analyze_structure',
  title: 'Analyze structure',
  description:
    'A file: its imports (resolved to project files or external), exports, top-level declarations and calls (caller → callee, resolved target). ' +
    'A directory ("." for the root): its modules and the import edges between them, plus external dependencies.',
  input: { path: pathArg().describe('file or directory relative to the project root'), ...page },
  output: answer({
    type: z.enum(['file', 'directory']),
    file: z.string().optional().describe('type file: the file, with imports, exports, declarations and calls'),
    directory: z.string().optional().describe('type directory: the directory, with modules, edges and external_dependencies'),
    imports: z.array(z.object({ source: z.string(), resolved_file: z.string().nullable(), status: z.string() }).loose()).optional(),
    exports: z.array(z.object({ name: z.string(), kind: z.string() }).loose()).optional(),
    declarations: z.array(z.object({ name: z.string(), kind: z.string(), line }).loose()).optional(),
    calls: z.array(z.object({ caller: z.string().nullable(), callee: z.string(), line, target: z.string().nullable() }).loose()).optional(),
    modules: z.array(z.object({ file: z.string() }).loose()).optional(),
    edges: z.array(z.object({ from: z.string(), to: z.string() }).loose()).optional(),
    truncated: z.array(z.string()).optional(),
  }),
  annotations: { title: 'Analyze structure', ...READ_ONLY },
  role: 'explore',
  proves: structureRows,
  target: (args) => stringArgs(args, ['path']),
  run: ({ project, inside }, args) => ({ ...analyzeStructure(project, { ...args, path: inside(args.path || '.') }) }),
});

export const queryTool = tool({
  name: 'query',
  title: 'Query',
  description:
    'A starting point from natural language or keywords, in English, Japanese or Chinese ("session lock", "parse config file", "設定ファイルを読む"): ' +
    'ranks symbols and files on the same engine as semantic_search (code text, doc comments, the model when installed) fused with the name index ' +
    '(every declaration; a symbol named exactly comes first). Follow up with find_definitions / find_references.',
  input: {
    text: text(LIMITS.query, 'text').min(1).describe('what you are looking for'),
    kind: kindArg.optional().describe('only this symbol kind'),
    ...page,
  },
  output: answer({
    terms: z.array(z.string()),
    symbols: z.array(z.object({ name: z.string(), kind: z.string(), container: z.string().nullable().optional(), file: z.string(), line, score: z.number() }).loose()),
    files: z.array(z.object({ file: z.string(), score: z.number() }).loose()).optional(),
    ...paging,
    backend: z.string().optional(),
    engine: z.string().optional().describe('set when the code-text ranking was left out (still being built): the next query includes it'),
  }),
  annotations: { title: 'Query', ...READ_ONLY },
  role: 'explore',
  proves: rankingRows,
  target: (args) => stringArgs(args, ['text']),
  run: async ({ project }, args) => ({ ...(await queryHybrid(project, args)) }),
});

export const EXPLORATION_TOOLS = [findDefinitionsTool, findReferencesTool, searchTextTool, getSymbolsTool, analyzeStructureTool, queryTool];
