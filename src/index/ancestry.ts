/**
 * Ancestors of tree-sitter nodes found by byte range. A tree-sitter node has no parent pointer:
 * `.parent` descends from the root each time (depth × siblings steps in wasm), and the extractor
 * asks it for most of a file's nodes. Its walks stop at nodes of a known set (scopes, declarations), so
 * those are kept here sorted by range: a node with a range of its own (not empty) is inside exactly
 * the nodes of the set whose range holds it. Where a range cannot tell (an empty node, a node of the
 * set with the same range as the node or as another one), the answer is undefined and the caller
 * walks the tree as before.
 */
import type { Node } from 'web-tree-sitter';

export class NodeRanges {
  private readonly nodes: Node[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** index of the innermost node strictly around each one (-1: none) */
  private readonly outer: number[] = [];
  /** a node whose range another one shares: which of the two holds the other is not in the ranges */
  private readonly tied: boolean[] = [];
  private readonly indexOf = new Map<number, number>();

  /** `nodes`: nodes of one tree (not of trees parsed again with other ranges). */
  constructor(nodes: Iterable<Node>) {
    const sorted = [...nodes]
      .map((node) => ({ node, start: node.startIndex, end: node.endIndex }))
      .filter((s) => s.end > s.start) // an empty node holds no node with a range
      .sort((a, b) => a.start - b.start || b.end - a.end);
    const open: number[] = []; // the nodes around the current one, innermost last
    for (const s of sorted) {
      const i = this.nodes.length;
      while (open.length > 0 && this.ends[open[open.length - 1]!]! <= s.start) open.pop();
      const around = open.length > 0 ? open[open.length - 1]! : -1;
      const same = around >= 0 && this.starts[around] === s.start && this.ends[around] === s.end;
      this.nodes.push(s.node);
      this.starts.push(s.start);
      this.ends.push(s.end);
      this.outer.push(around);
      this.tied.push(same);
      if (same) this.tied[around] = true;
      this.indexOf.set(s.node.id, i);
      open.push(i);
    }
  }

  /** The innermost node whose range holds [start, end] (maybe equal to it), or -1. */
  private innermost(start: number, end: number): number {
    let lo = 0, hi = this.starts.length - 1, last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= start) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // (the nodes nest: those that hold the range are around the last one that starts before it)
    let i = last;
    while (i >= 0 && this.ends[i]! < end) i = this.outer[i]!;
    return i;
  }

  /** A node of the set that is a proper ancestor of `n`: one whose range is wider than n's. */
  around(n: Node): Node | undefined {
    const start = n.startIndex, end = n.endIndex;
    if (end <= start) return undefined;
    let i = this.innermost(start, end);
    while (i >= 0 && this.starts[i] === start && this.ends[i] === end) i = this.outer[i]!;
    return i >= 0 ? this.nodes[i] : undefined;
  }

  /**
   * The nearest node of the set that is a proper ancestor of `n` (null: none), or undefined when
   * the ranges cannot tell.
   */
  nearest(n: Node): Node | null | undefined {
    const own = this.indexOf.get(n.id);
    let i: number;
    if (own !== undefined) {
      if (this.tied[own]) return undefined;
      i = this.outer[own]!;
    } else {
      const start = n.startIndex, end = n.endIndex;
      if (end <= start) return undefined;
      i = this.innermost(start, end);
      // a node of n's own range is n's parent or its child: the ranges do not say which
      if (i >= 0 && this.starts[i] === start && this.ends[i] === end) return undefined;
    }
    if (i < 0) return null;
    return this.tied[i] ? undefined : this.nodes[i]!;
  }
}
