import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../project/project.js';

/**
 * The names an existing_pattern says the project has: what would make "stripped by the
 * stripBodyForHead middleware, as in lib/head.js" true is a stripBodyForHead and a lib/head.js in
 * the project (red team adv65 had it accepted beside one real name). Plain words cannot be told from
 * English and are left out; a name is code-shaped: camelCase, snake_case, `$`/`#`, a call `x()`, a
 * file with an extension, or anything in backticks.
 */
export function codeNamesIn(pattern: string): string[] {
  const out = new Set<string>();
  const text = pattern.normalize('NFKC');
  // (a call with arguments is code too: `checkrange(status)` — red team adv69)
  for (const m of text.matchAll(/`([^`\n]+)`|([\p{L}\p{N}_$#./-]+)(\()?/gu)) {
    // a name said to be absent is no claim that it exists: "the project has no validateStatus helper" (adv69's friction)
    if (ABSENT_BEFORE.test(text.slice(Math.max(0, m.index! - 40), m.index!))) continue;
    const coded = m[1] !== undefined || m[3] !== undefined;
    // (names joined by a slash are two names, not a path: "onRequestHookRunner/preHandlerHookRunner" — agent trial tr149)
    const tokens = (m[1] !== undefined ? m[1].match(/[\p{L}\p{N}_$#./-]+/gu) ?? [] : [m[2]!]).flatMap((t) => (FILE_LIKE.test(t.replace(/^\.\//, '')) ? [t] : t.split('/')));
    for (const raw of tokens) {
      const t = raw.replace(/^\.\//, '').replace(/[.\-/]+$/, '');
      if (t.length < 2) continue;
      if (FILE_LIKE.test(t)) {
        out.add(t);
        continue;
      }
      // (each part of a chain written as code: `rangecheck.redirect()` names a rangecheck — adv69; the receiver words name nothing)
      const parts = t.split('.').filter((x) => x.length >= 2 && !RECEIVERS.has(x));
      for (const x of parts) if (CODE_SHAPED.test(x) || (coded && /^[\p{L}_$#][\p{L}\p{N}_$]*$/u.test(x))) out.add(x.replace(/^#/, ''));
    }
  }
  return [...out];
}

/** Words that say what follows is not there: no, not, never, without, lacks, n't, there is no … */
// (only a negation that governs the name: "none other than X", "no fewer than X()", "never skips X()", "not only calls X()",
// "cannot … without X()" claim X — red teams adv71, adv72; "neither X() nor Y()", "no helper named X" do not)
export const ABSENT_BEFORE = /(?:^|[^\p{L}])(?:no|lacks?|lacking|neither|nor)\s+(?:such\s+|an?\s+|any\s+)?(?:[\p{L}-]+\s+(?:named|called)\s+)?$|(?:(?:^|[^\p{L}])(?:not|never)|n['’]t)\s+(?:call|use|have|has|invoke|define|contain|check|read|do|does|run|exist|include)s?\s+(?:an?\s+|the\s+|any\s+|such\s+)?$/iu;
/** Words a chain starts with that name no declaration: `this.x()`, `self.x`. */
const RECEIVERS = new Set(['this', 'self', 'super', 'cls', 'window', 'globalThis']);
/** A file named with a source or text extension (lib/head.js, `index.ts`). */
const FILE_LIKE = /^[\p{L}\p{N}_$.\/-]*[\p{L}\p{N}_$-]\.(?:[cm]?[jt]sx?|py|pyi|go|java|kt|rs|rb|php|cs|c|h|cc|cpp|hpp|swift|vue|svelte|json|ya?ml|toml|md)$/u;
/** A word written as code: a lower letter before an upper one (camelCase), `_`, `$`, `#`. */
const CODE_SHAPED = /\p{Ll}\p{Lu}|[_$#]/u;

/** How long a pattern's names may be looked for in files' text before the rest count as found. */
const TEXT_BUDGET_MS = 2_000;
const FILE_MAX_BYTES = 2_000_000;

/**
 * The names that are nowhere in the project: no symbol, reference, import or file of that name,
 * and not in any code file's text (a comment that says Node.js) — looked for within a
 * time budget; past it a name counts as found (a slow disk must not refuse an honest claim).
 */
export function namesNotInProject(p: Project, names: string[]): string[] {
  const db = p.db;
  const byName = db.prepare(`SELECT 1 FROM symbols WHERE name = @n UNION ALL SELECT 1 FROM refs WHERE name = @n
    UNION ALL SELECT 1 FROM imports WHERE local_name = @n OR imported = @n LIMIT 1`);
  // (a name like a file may be a member: `res.json`)
  let left = names.filter((n) => !(FILE_LIKE.test(n) ? projectFile(p, n) ?? (n.includes('/') ? undefined : byName.get({ n: n.split('.').pop()! })) : byName.get({ n })));
  if (left.length === 0) return [];
  const t0 = performance.now();
  // (in code only — a comment counts —, not in a README, a changelog or the /code prompt init installs:
  // red team adv69 had "isFinished", named only in History.md, and "revert_to_exploration" pass)
  for (const { path: rel } of db.prepare('SELECT path FROM files WHERE language IS NOT NULL ORDER BY path').iterate() as Iterable<{ path: string }>) {
    if (performance.now() - t0 > TEXT_BUDGET_MS) return [];
    let text: string;
    try {
      const file = path.join(p.root, rel);
      if (fs.statSync(file).size > FILE_MAX_BYTES) continue;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    left = left.filter((n) => !wordIn(text, n));
    if (left.length === 0) return [];
  }
  return left;
}

/** The project's file at a path, or at the shortest path ending with it (`x.ts` in some folder, `src/x.ts` of `packages/a/src/x.ts`). */
export function projectFile(p: Project, rel: string): string | undefined {
  const row = p.db.prepare("SELECT path FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\' ORDER BY length(path) LIMIT 1")
    .get(rel, `%/${rel.replace(/[\\%_]/g, (c) => `\\${c}`)}`) as { path: string } | undefined;
  return row?.path;
}

/** Does a text hold a name as a whole word (stripBodyForHead is not in stripBodyForHeader)? */
function wordIn(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + name.length] ?? ' ';
    if (!/[\p{L}\p{N}_$]/u.test(before) && !/[\p{L}\p{N}_$]/u.test(after)) return true;
  }
  return false;
}
