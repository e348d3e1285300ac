/**
 * Cross-file binding: resolves every import through the module graph (re-exports, `export *`,
 * default and namespace exports) to the symbol it names, then points the references that go
 * through those imports at that symbol. Runs after every index update: on whole tables in memory
 * after a cold index, or on the rows of the files a change can reach (indexer.ts, link/affected.ts).
 * The phases are in link/.
 */
import type { DB } from '../store/db.js';
import { LinkContext } from './link/context.js';
import { attachImportedContainers, pointBasesAtImports, resetLinks, resolveImportedTypes } from './link/declarations.js';
import { storeImportStatus } from './link/imports.js';
import { readPackages, readWildcards } from './link/packages.js';
import { pickOverloads, pointImportRefs, readMemberRefs, resolveInheritedNames, resolveMemberRefs, splitMergedMeanings } from './link/references.js';

/** `files`: the files whose rows were resolved; the import counts are theirs */
export interface LinkStats { files: number; imports: number; resolved: number; external: number; unresolved: number; ms: number }

/**
 * `only`: resolve only these files' rows — their facts are new, and nothing any other file's
 * answers depend on changed (their link interface is the same, their symbols kept their ids).
 */
export function linkProject(db: DB, root: string, only?: ReadonlySet<number>): LinkStats {
  const t0 = performance.now();
  const ctx = new LinkContext(db, root, only);
  readPackages(ctx);
  readWildcards(ctx);
  const memberRefs = readMemberRefs(ctx);

  const counts = db.transaction(() => {
    // the files re-linked answer as if new (a cold index's first pass), not from what the last
    // link found through a version of the changed files that is gone
    if (only) resetLinks(ctx);
    // containers, bases and declared results in other files: before anything looks members up through them
    attachImportedContainers(ctx);
    resolveImportedTypes(ctx);
    // what was resolved so far did not see those: resolve again
    ctx.importTargets.clear();
    ctx.scopeVia.clear();
    ctx.memberCache.clear();
    const counts = storeImportStatus(ctx);
    pointImportRefs(ctx);
    splitMergedMeanings(ctx);
    pointBasesAtImports(ctx);
    // (after the merged declarations)
    pickOverloads(ctx);
    resolveMemberRefs(ctx, memberRefs);
    resolveInheritedNames(ctx);
    return counts;
  })();
  const { resolved, external, unresolved } = counts;
  return { files: only?.size ?? ctx.files.length, imports: resolved + external + unresolved, resolved, external, unresolved, ms: performance.now() - t0 };
}
