/** Pagination shared by every list result: an agent's context is precious, so every list is capped. */
export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
  next_offset: number | null;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export function paginate<T>(all: T[], offset = 0, limit = DEFAULT_LIMIT): Page<T> {
  const lim = Math.max(1, Math.min(limit, MAX_LIMIT));
  const off = Math.max(0, offset);
  const items = all.slice(off, off + lim);
  return { items, total: all.length, offset: off, limit: lim, next_offset: off + items.length < all.length ? off + items.length : null };
}
