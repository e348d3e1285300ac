/**
 * What a member is looked up in, and how an owner becomes a fact of the file.
 */
import type { Bound } from './context.js';

/** how a member is reached: through its class (`C.x`: a static member) or an instance (`this.x`, `v.x`) */
export type Access = 'static' | 'instance';

/** what a member is looked up in: a symbol of this file, an import (finished at link time), or
 * the members of a union type (`A | B`: `x.m` is A's m and B's m) */
export type Owner = { type: 'symbol'; index: number; access?: Access } | { type: 'import'; index: number; access?: Access } | { type: 'union'; parts: Owner[] };

/** The same owner, reached through a value of its type (members are the instance's). */
export const instance = <T extends Owner | undefined>(o: T): T => (o && o.type !== 'union' ? { ...o, access: 'instance' } : o);
/** An owner as a fact of the file (a union by its first member: what a single answer can say). */
export const ownerFact = (o: Owner): { symbol: number } | { importIndex: number } =>
  o.type === 'symbol' ? { symbol: o.index } : o.type === 'import' ? { importIndex: o.index } : ownerFact(o.parts[0]!);
export const asOwner = (b: Bound | undefined): Exclude<Owner, { type: 'union' }> | undefined => (b && b.type !== 'local' ? b : undefined);
