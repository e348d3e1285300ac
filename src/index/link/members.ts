/**
 * Members across files: a member of a class or interface, or of what it extends.
 */
import type { LinkContext } from './context.js';

/**
 * A member of a class or interface, or of what it extends (across files). `external` when the
 * chain reaches a base outside the project: the member is then most likely defined there. For a
 * call, a method is preferred to a field of the same name (Java allows both); with `args`, the
 * overload that takes that many arguments (several do: null, a guess).
 */
export function findMember(ctx: LinkContext, owner: number, name: string, call = false, args: number | null = null, fieldsOnly = false, access: string | null = null): number | 'external' | null {
  const key = `${owner}\0${name}\0${call ? 1 : 0}\0${args ?? ''}\0${fieldsOnly ? 1 : 0}\0${access ?? ''}`;
  let hit = ctx.memberCache.get(key);
  if (hit === undefined) ctx.memberCache.set(key, (hit = lookupMember(ctx, owner, name, call, args, fieldsOnly, access)));
  return hit;
}

function lookupMember(ctx: LinkContext, owner: number, name: string, call: boolean, args: number | null, fieldsOnly: boolean, access: string | null): number | 'external' | null {
  const queue = [owner];
  const seen = new Set<number>();
  let external = false;
  while (queue.length > 0 && seen.size < 64) {
    const o = queue.shift()!;
    if (seen.has(o)) continue;
    seen.add(o);
    let same = (ctx.memberOf.all(o, name, call ? 1 : 0) as { id: number; kind: string; arity: number | null; variadic: number; is_static: number }[])
      .filter((m) => !fieldsOnly || m.kind !== 'method');
    // a static and an instance member of one name: the one the access reaches
    if (access && same.some((m) => m.is_static) && same.some((m) => !m.is_static)) same = same.filter((m) => (m.is_static === 1) === (access === 'static'));
    const methods = call && args != null ? same.filter((m) => m.kind === 'method' && m.arity != null) : [];
    if (methods.length > 0) {
      // none takes this many arguments: an overload inherited from a base
      const fitting = methods.filter((m) => m.arity === args || (m.variadic === 1 && args! >= m.arity! - 1));
      if (fitting.length === 1) return fitting[0]!.id;
      if (fitting.length > 1) return null;
    } else if (same[0]) return same[0].id;
    for (const b of ctx.basesOf.all(o) as { base: number | null; status: string | null }[]) {
      if (b.base != null) queue.push(b.base);
      else if (b.status === 'external') external = true;
    }
  }
  return external ? 'external' : null;
}

/** `name` in each member type of a union alias (nested unions flattened), distinct */
export function unionMemberSymbols(ctx: LinkContext, alias: number, name: string, call: boolean, args: number | null, depth = 0): number[] {
  const out: number[] = [];
  for (const { id } of ctx.unionParts.all(alias) as { id: number }[]) {
    const nested = depth < 4 ? unionMemberSymbols(ctx, id, name, call, args, depth + 1) : [];
    const found = nested.length > 0 ? nested : [findMember(ctx, id, name, call, args)];
    for (const m of found) if (typeof m === 'number' && !out.includes(m)) out.push(m);
  }
  return out;
}
