/**
 * The first phase: a language's query captures (grammars/README.md), sorted into the context's
 * tables. Nothing is resolved here; later phases read the tables.
 */
import type { Node } from 'web-tree-sitter';
import type { FileContext, Match } from './context.js';
import { DEFINITION_RULES } from './rules.js';

export function readCaptures(ctx: FileContext, matches: Match[]): void {
  const {
    parents, macroRootIds, stopNodes, scopes, classScopes, declaredOutside, outerNodes, moduleRefs, macroRefs, selfTypes, superCalls,
    importGroups, exportList, docComments, objectKeys, ignore, ignoredTrees, declaredTypes, declaredResults, receivers,
    declaredElements, baseClasses, implementers, plainRefs, memberPattern, memberRefs, inScopeToo, defsByName, importMatches, exportMatches,
  } = ctx;
  for (const m of matches) {
    // most matches are one plain name (`@reference`, every identifier): taken without the table
    // of captures by name that the others need (a dictionary object per match, its keys listed)
    if (m.captures.length === 1 && m.captures[0]!.name === 'reference') {
      const node = m.captures[0]!.node;
      plainRefs.set(node.id, node);
      continue;
    }
    const caps: Record<string, Node> = {};
    for (const c of m.captures) caps[c.name] = c.node;
    const access = caps['member.access'];
    if (access && caps['reference.member'] && caps['member.object']) {
      parents.set(caps['reference.member'].id, access);
      parents.set(caps['member.object'].id, access);
    }
    for (const c of m.captures) {
      const n = c.name;
      if (macroRootIds.has(c.node.id) && n.startsWith('scope')) continue; // the file's root is the scope
      if (n.startsWith('scope')) stopNodes.set(c.node.id, c.node);
      if (n === 'scope') scopes.set(c.node.id, scopes.get(c.node.id) ?? false);
      else if (n === 'scope.function') scopes.set(c.node.id, true);
      else if (n === 'scope.class') {
        // names assigned in a class body bind there, but the functions inside it do not see them
        scopes.set(c.node.id, true);
        classScopes.add(c.node.id);
      } else if (n === 'binding.global' || n === 'binding.nonlocal') declaredOutside.push({ node: c.node, global: n === 'binding.global' });
      else if (n === 'scope.outer') outerNodes.add(c.node.id);
      else if (n === 'reference.module') moduleRefs.add(c.node.id);
      else if (n === 'reference.macro') macroRefs.add(c.node.id);
      else if (n === 'receiver.self') selfTypes.add(c.node.id);
      else if (n === 'receiver.super') superCalls.add(c.node.id);
      else if (n === 'import.group' && caps['import.prefix']) importGroups.set(c.node.id, caps['import.prefix']);
      else if (n === 'export.list') exportList.add(c.node.text);
      else if (n === 'doc.comment') docComments.push(c.node);
      else if (n === 'object.key') objectKeys.push(c.node);
      else if (n === 'ignore') {
        ignore.add(c.node.id);
        if (c.node.namedChildCount > 0) ignoredTrees.push(c.node);
      } else if (n === 'package') ctx.packageName = c.node.text;
      else if (n === 'declared.type' && caps['name']) {
        if (!declaredTypes.has(caps['name'].id)) declaredTypes.set(caps['name'].id, c.node);
      } else if (n === 'declared.result' && caps['name']) {
        if (!declaredResults.has(caps['name'].id)) declaredResults.set(caps['name'].id, c.node);
      } else if (n === 'narrowed.scope' && caps['narrowed.name'] && caps['narrowed.type']) {
        ctx.narrowings.push({ name: caps['narrowed.name'], type: caps['narrowed.type'], scope: c.node });
      } else if (n === 'member.of' && caps['name']) receivers.set(caps['name'].id, c.node);
      else if (n === 'declared.element' && caps['name']) declaredElements.set(caps['name'].id, c.node);
      else if (n === 'class.extends' && caps['class.derived']) baseClasses.push({ derived: caps['class.derived'], base: c.node });
      else if (n === 'class.extends' && caps['class.implementer']) implementers.push({ derived: caps['class.implementer'], base: c.node });
      else if (n === 'reference') plainRefs.set(c.node.id, c.node);
      else if (n === 'reference.member.computed' && caps['member.object'] && c.node.parent) ctx.computedRefs.push({ key: c.node, object: caps['member.object'], access: c.node.parent });
      else if (n === 'reference.member' && caps['member.object']) {
        // as for definitions, the earliest pattern that captures a property wins
        if ((memberPattern.get(c.node.id) ?? Infinity) > m.patternIndex) {
          memberRefs.set(c.node.id, { prop: c.node, object: caps['member.object'] });
          memberPattern.set(c.node.id, m.patternIndex);
        }
        if (caps['member.in_scope']) inScopeToo.add(c.node.id);
      }
      else if (n.startsWith('definition.')) {
        const rule = DEFINITION_RULES[n.slice('definition.'.length)];
        const name = caps['name'];
        if (!rule || !name) continue;
        const key = `${name.id}:${rule.binding === 'member' ? 'm' : 'l'}`;
        const prev = defsByName.get(key);
        if (!prev || prev.pattern > m.patternIndex)
          defsByName.set(key, { node: c.node, name, rule, pattern: m.patternIndex, scope: null, symbol: null });
      }
    }
    if (caps['import.source'] || ((caps['import.name'] || caps['import.self'] || caps['import.wildcard']) && !caps['import.group'])) importMatches.push(caps);
    else if (m.captures.some((c) => c.name.startsWith('export.') || c.name.startsWith('reexport.'))) exportMatches.push(caps);
  }
}

/** `@ignore` covers everything inside the node: the path in `import a.b.C;` names no symbol */
export function ignoreSubtrees(ctx: FileContext): void {
  const { ignore } = ctx;
  for (const stack = ctx.ignoredTrees; stack.length > 0; ) {
    const n = stack.pop()!;
    for (const c of n.namedChildren) {
      if (!c) continue;
      ignore.add(c.id);
      stack.push(c);
    }
  }
}

/**
 * A name captured both as a member and as a plain definition (a method is also a `def`/`fn`) is
 * the member; a parameter that declares a property (`constructor(private x)`) stays both.
 */
export function preferMembers(ctx: FileContext): void {
  const { defsByName } = ctx;
  for (const [key, d] of defsByName) {
    if (key.endsWith(':l') && d.rule.kind !== 'parameter' && defsByName.has(`${d.name.id}:m`)) defsByName.delete(key);
  }
}
