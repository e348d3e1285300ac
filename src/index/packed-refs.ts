/**
 * A file's references as they cross from a worker to the indexing thread: one string and one
 * Int32Array instead of two objects per reference. Copying a quarter of a million small objects
 * between threads (structured clone) cost the indexing thread ≈ 0.3 s on effect — the thread that
 * also writes every file and links; packed, the copy is a memcpy and the objects are built again in
 * a few tens of ms. Unpacking gives back the same facts.
 */
import type { RefFact, RefTarget } from './facts.js';
import type { ParseResult } from './parse-job.js';

/** What a worker posts for a batch of files: the results, with each file's references packed apart. */
export interface WorkerBatch {
  results: ParseResult[];
  /** per result: its facts' references (the facts hold none), or null */
  refs: (PackedRefs | null)[];
}

export interface PackedRefs {
  count: number;
  /** the names, one after the other (their lengths are in `ints`) */
  names: string;
  /** FIELDS numbers per reference: name length, line, column, end column, role, target kind,
   * target index, access, enclosing, args (-1: none) */
  ints: Int32Array;
  /** the roles, target kinds and accesses the codes in `ints` stand for */
  words: string[];
}

const FIELDS = 10;

/** Packs references (in a worker, before posting them). */
export function packRefs(refs: RefFact[]): PackedRefs {
  const ints = new Int32Array(refs.length * FIELDS);
  const words: string[] = [];
  const codes = new Map<string, number>();
  const code = (w: string): number => {
    let c = codes.get(w);
    if (c === undefined) codes.set(w, (c = words.push(w) - 1));
    return c;
  };
  const names: string[] = [];
  refs.forEach((r, i) => {
    const t = r.target;
    const o = i * FIELDS;
    names.push(r.name);
    ints[o] = r.name.length;
    ints[o + 1] = r.line;
    ints[o + 2] = r.column;
    ints[o + 3] = r.endColumn;
    ints[o + 4] = code(r.role);
    ints[o + 5] = code(t.kind);
    ints[o + 6] = 'symbol' in t ? t.symbol : 'importIndex' in t ? t.importIndex : -1;
    ints[o + 7] = t.kind === 'member_of_import' && t.access !== undefined ? code(t.access) : -1;
    ints[o + 8] = r.enclosing ?? -1;
    ints[o + 9] = r.args ?? -1;
  });
  return { count: refs.length, names: names.join(''), ints, words };
}

/** The references packRefs packed, as objects again (in the indexing thread). */
export function unpackRefs(p: PackedRefs): RefFact[] {
  const out: RefFact[] = new Array<RefFact>(p.count);
  const ints = p.ints;
  let at = 0;
  for (let i = 0; i < p.count; i++) {
    const o = i * FIELDS;
    const name = p.names.slice(at, (at += ints[o]!));
    const kind = p.words[ints[o + 5]!] as RefTarget['kind'];
    const index = ints[o + 6]!, access = ints[o + 7]!, enclosing = ints[o + 8]!, args = ints[o + 9]!;
    const target = (kind === 'symbol' || kind === 'member_of_symbol' ? { kind, symbol: index }
      : kind === 'import' ? { kind, importIndex: index }
      : kind === 'member_of_import' ? (access >= 0 ? { kind, importIndex: index, access: p.words[access] } : { kind, importIndex: index })
      : { kind }) as RefTarget;
    out[i] = {
      name, line: ints[o + 1]!, column: ints[o + 2]!, endColumn: ints[o + 3]!, role: p.words[ints[o + 4]!] as RefFact['role'],
      target, enclosing: enclosing < 0 ? null : enclosing, ...(args >= 0 ? { args } : {}),
    };
  }
  return out;
}

/** A batch's results with their references packed apart (the facts are left without them). */
export function packBatch(results: ParseResult[]): WorkerBatch {
  const refs = results.map((r) => {
    if (r.status !== 'parsed' || !r.facts) return null;
    const packed = packRefs(r.facts.refs);
    r.facts.refs = [];
    return packed;
  });
  return { results, refs };
}

/** The results of a batch, each with its references again. */
export function unpackBatch(batch: WorkerBatch): ParseResult[] {
  batch.results.forEach((r, i) => {
    const packed = batch.refs[i];
    if (packed && r.status === 'parsed' && r.facts) r.facts.refs = unpackRefs(packed);
  });
  return batch.results;
}
