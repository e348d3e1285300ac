/**
 * VALIDATION: validate_symbol_relevance offers the symbols to judge (the agent's and the index's
 * best matches), confirm_symbol_relevance judges each claim from evidence the server holds — its
 * words (the hybrid score), its rank among the project's declarations, its links through the code
 * graph — and moves the machine (docs/relevance.md).
 */
import path from 'node:path';
import { changesCode, type Intent, minAccepted } from '../../machines/session.js';
import { NEXT_STEP } from '../../machines/policy.js';
import { type Legs, SemanticEngine } from '../embeddings/engine.js';
import { namedScore } from '../embeddings/named.js';
import { conceptsOf, translationsOf } from '../embeddings/text.js';
import { qualifiedName, type SymbolRow, valueIdentity } from '../query/symbols.js';
import { type SessionCore, SessionError } from './core.js';
import { isCallable, type LinkDirection, linkDirection, linkedScore, linkToSeeds, linkWords, MAX_CHAIN, MAX_UP_CHAIN, personalizedRank, linksOnward, neighbourhoodOf, PROPAGATED_SCORE, usesNamed, propagationCutoff, rankAnchors, rankCutoff, rankedScore, seedsBeside, sharedFieldsAt, symbolLabel, within } from './graph-relevance.js';
import { contentUnits, isGrounded, keptOutRemoved, ruledOut, stem } from './queryframe.js';
import { normalize } from '../util/words.js';
import { codeNamesWritten, extendsNamedCode, factCap, namedCodeOnly, ownWords, sharesNamedCode, targetSaysWordOf, tierOf } from './relevance.js';
import { type Evidence, linesShown } from './evidence.js';
import { siblingSaying, targetMeansAnother, wordsNamingSibling } from './which-definition.js';
import { isDeclarationFile, quote } from '../util/paths.js';

export class ValidationPhase {
  constructor(private readonly core: SessionCore) {}

  /**
   * What the target itself reaches, whatever the agent claims: the project's best matches at FACT
   * level and its best ranked declarations with a specific neighbourhood. Computed once per confirm
   * (it ranks the whole index); the accepted symbols are added to it as they come (seedsWith).
   */
  private async targetSeeds(target: string, said: string): Promise<Seeds> {
    const ids = new Map<number, number>();
    const labels = new Set<string>();
    // each suggestion is the one definition it ranked — not every one of its name — and not one whose
    // name the target says of another definition (the memory driver's getKeys, not every getKeys)
    const facts: number[] = [];
    const declared = (name: string) => this.core.symbolExists(name);
    for (const x of await this.suggest(target, 5)) {
      if (targetMeansAnother(this.core.project.db, said, x.name, x.file, x.container)) continue;
      const capped = Math.min(x.similarity, factCap(target, x.name, declared));
      if (x.similarity <= 0.6) continue;
      const rows = this.addSeed(ids, labels, x.symbol, x.similarity, `${x.file}:${x.line}`);
      if (capped > 0.6) facts.push(...rows.map((r) => r.id));
    }
    // (a target that is only code the project declares names its declarations: the best ranked by
    // their words seed nothing — red team adv92's `deduplicate`, ranked #3 for `combineURLs()` by a
    // local `combined`, linked a release script's getReleaseInfo in)
    const named = namedCodeOnly(target, declared);
    const anchors = [...rankAnchors(this.core.project.db, this.core.engine.textRanking(target))].filter(([id]) => !named || usesNamed(this.core.project.db, id, named));
    for (const [id, score] of anchors) {
      if ((ids.get(id) ?? 0) < score) ids.set(id, score);
      labels.add(symbolLabel(this.core.project.db, id));
    }
    return { ids, labels, facts };
  }

  /**
   * How many symbols the code the target names can stand with, where that is fewer than the intent's
   * minimum: the declarations its words make a FACT and what they link to directly. A change to one
   * method nothing in the project calls, holding nothing (express's req.acceptsCharsets: its holder
   * `req` and itself) cannot name three relevant symbols truthfully —
   * red team adv91's honest run had to pad. Undefined where the target's words make no FACT: then
   * nothing shows the change is that small.
   */
  private neighbourhoodHolds(facts: readonly number[], need: number, request: string): { holds: number; names: string[]; ids: Set<number> } | undefined {
    if (facts.length === 0 || ASKS_TO_ADD.test(request)) return undefined;
    const db = this.core.project.db;
    const near = neighbourhoodOf(db, facts, need);
    if (near.size >= need) return undefined;
    // the request names other code the project declares (not to keep it out): the change reaches it too
    // (red team adv92: "… across mergeConfig, Axios.request and the adapters …, the way deprecatedMethod() does",
    // target deprecatedMethod(), READY on that one symbol)
    for (const name of codeNamesWritten(request)) {
      const last = name.split('.').pop()!;
      if (last === '' || !this.core.symbolExists(last) || keptOutOfRequest(request, last, name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : null)) continue;
      if (!this.core.definitionsOf(last).some((r) => near.has(r.id))) return undefined;
    }
    return { holds: near.size, names: [...new Set([...near].map((id) => symbolLabel(db, id)))], ids: near };
  }

  /** The seeds of the graph: the symbols accepted now or earlier in this session, then what the target reaches. */
  /** An acceptance that stands only because earlier sessions confirmed the symbol. */
  private carriedByHistory(legs: unknown): boolean {
    const l = legs as Legs | undefined;
    return typeof l?.history === 'number' && l.history > 0 && typeof l.keyword === 'number' && this.core.engine.withoutHistory(l) < 0.3
      && !['graph', 'propagation', 'rank', 'request_named'].some((k) => (l as unknown as Record<string, unknown>)[k] !== undefined);
  }

  private seedsWith(target: Seeds, accepted: { symbol: string; similarity?: number; evidence?: unknown; backend?: unknown; link_direction?: unknown; link_depth?: unknown; legs?: unknown }[]): Seeds {
    const ids = new Map<number, number>();
    const labels = new Set<string>();
    const linked = new Set<number>();
    const linkedWay = new Map<number, LinkDirection>();
    const linkedDepth = new Map<number, number>();
    for (const a of accepted) {
      if (typeof a.similarity !== 'number' || a.similarity < 0.3) continue;
      // the propagation accepts what lies near the seeds over every path: it vouches for nothing more
      // (red team adv30: in a later pass it seeded links of its own, in any direction)
      if (typeof a.backend === 'string' && a.backend.endsWith('+propagation')) continue;
      // nor does an acceptance earlier sessions' matches carried: what agents said is no link of the
      // code (red team adv87: response.get, accepted by history, linked lastModified and append in)
      if (this.carriedByHistory(a.legs)) continue;
      const rows = this.addSeed(ids, labels, a.symbol, a.similarity, a.evidence);
      if (typeof a.backend === 'string' && a.backend.endsWith('+graph')) {
        // (an acceptance recorded before directions or depths were: it turns nowhere)
        const way = typeof a.link_direction === 'string' ? a.link_direction as LinkDirection : 'other';
        const depth = typeof a.link_depth === 'number' ? a.link_depth : 2;
        rows.forEach((r) => (linked.add(r.id), linkedWay.set(r.id, way), linkedDepth.set(r.id, depth)));
      }
    }
    for (const [id, score] of target.ids) {
      if ((ids.get(id) ?? 0) < score) ids.set(id, score);
      linked.delete(id); // the target reaches it itself
    }
    for (const l of target.labels) labels.add(l);
    return { ids, labels, linked, linkedWay, linkedDepth };
  }

  private addSeed(ids: Map<number, number>, labels: Set<string>, symbol: string, score: number, where?: unknown): SymbolRow[] {
    const rows = this.definitionsFor(symbol, where).slice(0, 5);
    for (const r of rows) if ((ids.get(r.id) ?? 0) < score) ids.set(r.id, score);
    if (rows.length) labels.add(symbol);
    return rows;
  }

  /**
   * A seed that holds a symbol vouches for it only as a FACT the words or the target reach: one
   * accepted only through a link (a module's `default` object, for the method of it the target
   * names: red team adv16 had every method of `module.exports = {…}` come in through `default`), or
   * a class accepted at risk HIGH (adv34: ky's `Ky`, ranked fourth for 'TimeoutError', let in all
   * its private methods, by a link and by the propagation) does not make all it holds relevant: a
   * member comes in by links of its own. A function's own closures stay its code.
   */
  private holdsWithoutVouching(seeds: Seeds, seed: number, id: number): boolean {
    const db = this.core.project.db;
    return (seeds.linked?.has(seed) || ((seeds.ids.get(seed) ?? 0) <= 0.6 && !isCallable(db, seed))) && within(db, id, seed);
  }

  /** The pending claims among the project's declarations closest to the seeds (personalized PageRank), as acceptances. */
  private propagate(pending: Low[], seeds: Seeds, total: number): Record<string, unknown>[] {
    const k = propagationCutoff(total);
    // (from the seeds the words, the rank or the target reach: one accepted only through a link vouches for nothing more)
    const restart = new Map([...seeds.ids].filter(([id]) => !seeds.linked?.has(id)));
    const closest = personalizedRank(this.core.project.db, restart).slice(0, k);
    const out: Record<string, unknown>[] = [];
    for (const l of pending) {
      const ids = new Set(this.definitionsFor(l.symbol, l.where).slice(0, 10).map((r) => r.id));
      const at = closest.findIndex((c) => ids.has(c.id) && ![...seeds.ids.keys()].some((seed) => this.holdsWithoutVouching(seeds, seed, c.id)));
      if (at < 0) continue;
      out.push({
        symbol: l.symbol, similarity: PROPAGATED_SCORE, tier: 'ACCEPTED_HIGH_RISK', backend: `${l.scored.backend}+propagation`, legs: { ...l.scored.legs, propagation: at + 1 },
        evidence: l.where, file: l.file,
        via: `close to ${[...seeds.labels].slice(0, 3).join(', ')} through the code: #${at + 1} of the project's declarations by personalized PageRank from the symbols the target reaches (the best ${k} are accepted)`,
      });
    }
    return out;
  }

  /** A link from a symbol to a seed through the code graph, worth at least the accepted tier, or undefined. */
  private graphLink(symbol: string, seeds: Seeds, where?: string, traces = false, target?: string): { score: number; why: string; direction: LinkDirection; depth: number } | undefined {
    if (seeds.ids.size === 0) return undefined;
    const db = this.core.project.db;
    const rows = this.definitionsFor(symbol, where).slice(0, 10); // overloads: the implementation is often last
    const own = new Set(rows.map((r) => r.id));
    let best: { score: number; why: string; direction: LinkDirection; depth: number } | undefined;
    for (const r of rows) {
      // a seed a link accepted down a call path does not turn back up to the callers of it elsewhere
      // (graph-relevance.ts linksOnward); a chain the agent traced down (or up) a path stays whole —
      // and, where the session only asks (INVESTIGATE, QUESTION), grows by each hop the agent cites:
      // its evidence is the line where this symbol uses the seed, or the seed uses it (agent trial tr106: ExecuteC → Find)
      const seedIds = new Set([...seeds.ids.keys()].filter((id) => !own.has(id) && (!seeds.linked?.has(id) || linksOnward(db, id, seeds.linkedWay?.get(id), r.id, seeds.linkedDepth?.get(id))
        || (traces && (this.citesUse(r.id, id, where) || this.citesUse(id, r.id, where)))) && !this.holdsWithoutVouching(seeds, id, r.id)));
      const beside = seedsBeside(db, r.id, seedIds);
      if (beside.length === 0) continue;
      // the seed the evidence cites a use with (the link the agent saw), else the best scored (tr116 was
      // told "res.set → res.links" for the use in res.attachment it cited)
      const worth = (id: number) => linkedScore(seeds.ids.get(id)!, 1);
      const cited = beside.find((id) => worth(id) >= 0.3 && (this.citesUse(r.id, id, where) || this.citesUse(id, r.id, where)));
      const seed = cited ?? beside.reduce((a, b) => (worth(b) > worth(a) ? b : a));
      const score = worth(seed);
      if (score >= 0.3 && (!best || score > best.score)) {
        // how many links from a seed the words, the rank or the target reach (a turn is allowed only at the first)
        const depth = seeds.linked?.has(seed) ? (seeds.linkedDepth?.get(seed) ?? 2) + 1 : 1;
        const direction = linkDirection(db, seed, r.id);
        best = { score, why: `linked through the code: ${linkWords(db, seed, r.id, direction)}`, direction, depth };
      }
    }
    if (!best && target !== undefined) for (const r of rows) best ??= this.sharedState(r.id, seeds, where, target);
    return best;
  }

  /**
   * A state the cited line shares with a seed the words or the target reach, through a field of one
   * class that the target names (sharedFieldsAt): koa's callback cites `this.ctxStorage.run(…)`
   * for 'AsyncLocalStorage used by app.currentContext', and currentContext reads ctxStorage too
   * (agent trial tr165 had callback refused). Worth a link of one step from a FACT; a seed below
   * FACT, one accepted only through a link, or a holder that vouches for nothing it holds, shares nothing.
   */
  private sharedState(id: number, seeds: Seeds, where: string | undefined, target: string): { score: number; why: string; direction: LinkDirection; depth: number } | undefined {
    const m = where ? /^(.*):(\d+)$/.exec(where) : null;
    if (!m) return undefined;
    const db = this.core.project.db;
    // (a seed that is a FACT: the constructor, accepted because the request names it, writes every
    // field — red team adv90 had createContext linked through `this.context`, the word of `currentContext`)
    const worth = (seed: number) => (seeds.linked?.has(seed) || this.holdsWithoutVouching(seeds, seed, id) || (seeds.ids.get(seed) ?? 0) <= 0.6 ? 0 : linkedScore(seeds.ids.get(seed)!, 1));
    for (const f of sharedFieldsAt(db, id, m[1]!, Number(m[2]))) {
      if (!targetSaysWordOf(target, f.name)) continue;
      const seed = f.partners.filter((p) => seeds.ids.has(p)).sort((a, b) => worth(b) - worth(a))[0];
      if (seed === undefined || worth(seed) < 0.3) continue;
      return { score: worth(seed), why: `linked through the code: ${symbolLabel(db, id)} uses the field \`${f.name}\` (the target names it) that ${symbolLabel(db, seed)} uses too`, direction: 'shared', depth: 1 };
    }
    return undefined;
  }

  /**
   * An accepted symbol (of `ids`, the declarations accepted) this one links to directly, where only
   * the bound on a chain of links kept it out (its label), else undefined; `holder` where the bound
   * is a holder accepted on its own that vouches for nothing it holds (holdsWithoutVouching).
   */
  private chainBound(symbol: string, ids: ReadonlySet<number>, seeds: Seeds, where?: string): { label: string; holder: boolean } | undefined {
    const db = this.core.project.db;
    for (const r of this.definitionsFor(symbol, where).slice(0, 10)) {
      const link = linkToSeeds(db, r.id, new Set([...ids].filter((id) => id !== r.id)), 1);
      if (link && link.hops > 0) return { label: symbolLabel(db, link.seed), holder: !seeds.linked?.has(link.seed) && this.holdsWithoutVouching(seeds, link.seed, r.id) };
    }
    return undefined;
  }

  /** Is the evidence line a use, inside declaration `outer`, of declaration `used` (a resolved reference)? */
  private citesUse(outer: number, used: number, where?: string): boolean {
    const m = where ? /^(.*):(\d+)$/.exec(where) : null;
    if (!m) return false;
    return this.core.project.db.prepare(`SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ? AND r.enclosing_id = ? AND r.symbol_id = ?
      AND r.confidence IS NOT NULL AND r.confidence != 'name_match' LIMIT 1`).get(m[1]!, Number(m[2]), outer, used) !== undefined;
  }

  /**
   * Evidence concerns a symbol when it is the symbol's definition (a line inside one of its
   * declarations), or a line that uses it together with a concept of the target feature.
   */
  private evidenceConcerns(symbol: string, verified: Verified, target: string, accepted: ReadonlySet<string> = new Set()): boolean {
    const word = nameWord(symbol);
    const m = /^(.*):(\d+)$/.exec(verified.where);
    if (m) {
      // a fragment over several lines concerns the symbol when one of its lines does, by the same rule
      const [file, from] = [m[1]!, Number(m[2])];
      for (let line = from; line <= Math.min(verified.to ?? from, from + MAX_SPAN); line++) if (this.lineConcerns(symbol, word, file, line, target, accepted)) return true;
      return false;
    }
    // no line to judge (an older record): the symbol must be named in its code, not in a comment or string
    return verified.text.split('\n').some((l) => word.test(codeOf(l)));
  }

  /** One line of evidence concerns a symbol: inside its definition, or a use of it with a target concept or inside the feature's code. */
  private lineConcerns(symbol: string, word: RegExp, file: string, line: number, target: string, accepted: ReadonlySet<string>): boolean {
    if (this.core.definitionsOf(symbol).some((d) => d.path === file && d.line <= line && line <= d.end_line)) return true;
    const text = this.core.project.lines(file)[line - 1] ?? '';
    // a use is code: the name in a comment or a string of another declaration is not one
    if (!word.test(codeOf(text))) return false;
    if (!this.referenceOf(symbol, file, line)) return false;
    // used together with a concept of the target: one of its (translated) words, or a shared CJK unit
    const words = new Set(conceptsOf(target).flatMap((c) => c.words).map((w) => stem(w)));
    const lineWords = text.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(stem);
    const units = contentUnits(text);
    if (lineWords.some((w) => words.has(w)) || [...contentUnits(target)].some((u) => units.has(u))) return true;
    // or used inside the feature's own code: a declaration the target names, or one accepted in this
    // session, or a file the target names (`radix` for lib/rules/radix.js: one feature per file)
    // (a local counts only once accepted: a local named like the target inside unrelated code is not the feature)
    return this.namesFile(target, file) || this.core.declarationsAround(file, line).some((d) =>
      (!d.local && namedScore(target, d.name, d.container_name) > 0) || accepted.has(d.name) || (d.container_name !== null && accepted.has(`${d.container_name}.${d.name}`)));
  }

  private namesFile(target: string, file: string): boolean {
    const base = path.basename(file).replace(/\.[^.]*$/, '');
    // a kebab-case file name the target writes whole ("no-var's autofix" names lib/rules/no-var.js: red team adv10)
    if (base.includes('-') && new RegExp(`(?<![\\p{L}\\p{N}_$-])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_$-])`, 'iu').test(target)) return true;
    return namedScore(target, base, null) > 0;
  }

  /**
   * The innermost declaration around a line of evidence, when it is neither the symbol itself nor
   * sent in this confirm nor accepted: the piece of the feature the agent left out (agent trial
   * tr97 cited the call of composeSignals inside the fetch adapter, sent without the adapter).
   */
  private unsentHolder(symbol: string, where: string, accepted: ReadonlySet<string>, mapped: readonly { symbol: string }[]): string | undefined {
    const m = /^(.*):(\d+)$/.exec(where);
    const around = m ? this.core.declarationsAround(m[1]!, Number(m[2])) : [];
    const namesOf = (x: { name: string; container_name: string | null }) => [x.name, x.container_name ? `${x.container_name}.${x.name}` : undefined].filter((n): n is string => !!n);
    // (inside the symbol itself, a member of it included: `KyInstance.get` holds a line of KyInstance — agent trial tr101)
    if (around.some((x) => namesOf(x).includes(symbol) || (x.name === symbol.split('.').pop() && !x.container_name))) return undefined;
    const d = around.find((x) => !x.local);
    if (!d) return undefined;
    const names = namesOf(d);
    if (names.some((n) => accepted.has(n) || mapped.some((x) => x.symbol === n))) return undefined;
    return names[names.length - 1];
  }

  /** Why a line of evidence does not concern a symbol, for the rejection (agent trial tr33 was told a line calling the symbol was "not about" it). */
  private unconcernedWhy(symbol: string, verified: Verified, target: string): string {
    const m = /^(.*):(\d+)$/.exec(verified.where);
    const uses = m && this.referenceOf(symbol, m[1]!, Number(m[2]));
    if (!m || !uses) return `code_evidence (${verified.where}) is neither inside ${quote(symbol, 200)}'s definition nor a use of it the index resolved (a comment, a string or another symbol of that name)`;
    const around = this.core.declarationsAround(m[1]!, Number(m[2])).map((d) => (d.container_name ? `${d.container_name}.${d.name}` : d.name));
    return `code_evidence (${verified.where}) uses ${quote(symbol, 200)}, but ${around.length ? `inside ${quote(around.slice(0, 3).join(' / '), 200)}, which is` : 'at the top level of a file'} neither named by nor accepted for '${quote(target, 200)}', and the line carries none of its words: a use is evidence only inside the feature's code. Cite a line inside ${quote(symbol, 200)}'s definition, or confirm it together with the symbol that contains this line`;
  }

  /**
   * The part of verified evidence that is about the symbol, for its score: the lines of the
   * fragment (or of the window around a cited line) inside the symbol's definition, else the cited
   * lines alone. A fragment that starts in writeLog and runs into the next function's "cart total"
   * lifted writeLog to 0.45 for カートの合計 with words that are not its own.
   */
  private evidenceAbout(symbol: string, row: SymbolRow, verified: Verified, shown: ReadonlyMap<string, [number, number][]>): string {
    const m = /^(.*):(\d+)$/.exec(verified.where);
    if (!m) return verified.text;
    const [file, from] = [m[1]!, Number(m[2])];
    const to = verified.to ?? from;
    // the lines around it the session was shown, and no others (red team adv9)
    const ls = seenLines(this.core.project.lines(file), shown.get(file));
    if (file === row.path) {
      const [a, b] = [Math.max(row.line, from - 2), Math.min(row.end_line, to + 2)];
      if (a <= b) return ls.slice(a - 1, b).join('\n');
    }
    // outside its definition, only the lines of the fragment that use the symbol, without their
    // comments: a fragment lent the symbol every word it held (red team adv90: app.use accepted by
    // the test lines around its call, createContext by the comment of the getter below it)
    const word = nameWord(symbol);
    const out: string[] = [];
    for (let line = from; line <= Math.min(to, from + MAX_SPAN); line++) {
      const code = codeOf(ls[line - 1] ?? '', false);
      if (code.includes(UNSEEN)) continue;
      if (to === from || (word.test(codeOf(code)) && this.referenceOf(symbol, file, line))) out.push(code);
    }
    return out.join('\n');
  }

  /**
   * Is the name on this line a reference to the symbol, as the index read the file? A parameter or
   * a local of the same name (checkout(formatPrice) in main.ts) is recorded as no reference there,
   * and a name the index resolved to another declaration is that one. A file the index recorded no
   * reference in at all (a language it does not link) is not judged so.
   */
  private referenceOf(symbol: string, file: string, line: number): boolean {
    const db = this.core.project.db;
    const linked = db.prepare('SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? LIMIT 1').get(file);
    if (!linked) return true;
    const defs = this.core.definitionsOf(symbol);
    const own = new Set(defs.map((d) => d.id));
    // (a use under an import alias names the symbol too: `_SupportsRead` of `SupportsRead as _SupportsRead` — agent trial tr102)
    const aliased = own.size > 0 && db.prepare(`SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ? AND r.symbol_id IN (${[...own].map(() => '?').join(',')}) LIMIT 1`)
      .get(file, line, ...own) !== undefined;
    if (aliased) return true;
    const refs = db.prepare('SELECT r.symbol_id AS id, r.confidence, r.col FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ? AND r.name = ?')
      .all(file, line, symbol.split('.').pop()!) as { id: number | null; confidence: string | null; col: number }[];
    if (refs.length === 0) return false;
    const holders = new Set(['this', 'self', ...defs.flatMap((d) => (d.container_name ? [d.container_name.split('.').pop()!] : []))]);
    return refs.some((r) => ((r.id === null || r.confidence === 'name_match') && !this.foreignChain(file, line, r.col, holders)) || (r.id !== null && own.has(r.id)));
  }

  /**
   * Whether a member named at (line, col) is called at the end of a chain of calls that starts from
   * something other than the symbol's holder (`request(app).get('/').set(…)`): a guess by name there
   * is no use of the project's method (red team adv91: supertest's request builder's
   * `.set('Accept-Charset', …)` was taken for express's res.set, and lent its words). A fluent chain
   * from `this` or the holder (`res.status(404).send(…)`) stays a use.
   */
  private foreignChain(file: string, line: number, col: number, holders: ReadonlySet<string>): boolean {
    const ls = this.core.project.lines(file);
    let text = (ls[line - 1] ?? '').slice(0, Math.max(0, col - 1));
    // (a chain continued from the lines above: `request(app)\n  .get('/')\n  .set(…)`)
    for (let i = line - 2; i >= Math.max(0, line - 5) && /^\s*\??\./.test(text); i--) text = `${ls[i] ?? ''}\n${text}`;
    let rest = text.replace(/\s*\??\.\s*$/, '');
    if (!/[)\]]\s*$/.test(rest)) return false; // not on a call's or an index's result
    // strip the chain back to its head: calls, indexes and member steps
    for (let k = 0; k < 12; k++) {
      const next = rest.replace(/\s*(?:\([^()]*\)|\[[^[\]]*\])\s*$/, '').replace(/\s*\??\.\s*[A-Za-z_$][\w$]*\s*$/, '');
      if (next === rest) break;
      rest = next;
    }
    const head = /([A-Za-z_$][\w$]*)\s*$/.exec(rest)?.[1];
    return head === undefined || !holders.has(head);
  }

  /**
   * The definitions a claimed name stands for, the one its evidence points into first: `delete`
   * cited at a line of ObservableSet is ObservableSet.delete, not the first `delete` of the index.
   * When the evidence lies inside one of them, that one alone; when it is a line that uses the
   * name, the definition that use resolves to first.
   */
  private definitionsFor(name: string, where?: unknown): SymbolRow[] {
    return this.definitionChoice(name, where).rows;
  }

  /**
   * Whether the evidence pins which definition of a shared name was judged (it lies inside one, or
   * its line uses one the index resolved), rather than the nearest being taken: only a pinned one
   * may teach the cache (red team adv87: `this.ctx.get('Referrer')` in response.js taught response.get,
   * though it calls request.get).
   */
  pinned(name: string, where?: unknown): boolean {
    return this.definitionChoice(name, where).how !== 'nearest';
  }

  private definitionChoice(name: string, where?: unknown): { rows: SymbolRow[]; how: 'one' | 'inside' | 'resolved' | 'nearest' } {
    const rows = this.core.definitionsOf(name);
    const m = typeof where === 'string' ? /^(.*?)(?::(\d+))?$/.exec(where) : null;
    if (rows.length < 2) return { rows, how: 'one' };
    if (!m) return { rows, how: 'nearest' };
    const [file, line] = [m[1]!, m[2] ? Number(m[2]) : undefined];
    const inside = rows.filter((r) => r.path === file && line !== undefined && r.line <= line && line <= r.end_line);
    if (inside.length > 0) {
      // the innermost, with its overloads: references point at the first signature, evidence often at the body
      const hit = inside.sort((a, b) => b.line - a.line)[0]!;
      return { rows: [hit, ...rows.filter((r) => r !== hit && r.path === hit.path && r.container_name === hit.container_name && r.kind === hit.kind)], how: 'inside' };
    }
    // cited where it is used: the definition that use resolves to (warn called in apiInject.ts is
    // the warn its import names, not the first of four by name)
    const used = line === undefined ? undefined : (this.core.project.db
      .prepare(`SELECT r.symbol_id AS id FROM refs r JOIN files f ON f.id = r.file_id
        WHERE f.path = ? AND r.line = ? AND r.name = ? AND r.symbol_id IS NOT NULL AND coalesce(r.confidence, '') <> 'name_match'`)
      .all(file, line, name.split(/::|[.#]/).pop()!) as { id: number }[]);
    // (a reference is recorded under the member's own name: `AxiosError.from(…)` is a use of `from` — agent trial tr97 had the .d.ts taken)
    const hit = used && rows.find((r) => used.some((u) => u.id === r.id));
    if (hit) return { rows: [hit, ...rows.filter((r) => r !== hit)], how: 'resolved' };
    return { rows: [...rows.filter((r) => r.path === file), ...rows.filter((r) => r.path !== file)], how: 'nearest' };
  }

  private symbolProfile(name: string, where?: unknown): SymbolRow | undefined {
    return this.definitionsFor(name, where)[0];
  }

  /** Which of the definitions a name has was judged: several share `serialize_f64` (tr24). */
  private judgedAs(name: string, row: SymbolRow): string {
    const n = this.definitionsFor(name).length;
    const label = `${qualifiedName(this.core.project, row)} at ${row.path}:${row.name_line}`;
    return n > 1 ? `judged as ${label}, the one of its ${n} definitions nearest the code_evidence; name another as Container.name or cite a line inside it` : `judged as ${label}`;
  }

  /**
   * The understanding's mapped terms (nl_term → symbol) that this pass judged true: a part of the
   * target feature the symbol was accepted for (カート of カートの合計), quoted from the request, that
   * the symbol answers by itself (accepted tier). Only these teach the cache (service.learn): the
   * symbol was judged against the whole target, and formatPrice answers カートの合計, not カート.
   */
  private async judgeMappedTerms(understanding: string | null, accepted: Record<string, unknown>[], request: string): Promise<void> {
    const mapped = understanding ? ((JSON.parse(understanding) as { mapped_symbols?: { nl_term: string; symbol: string }[] }).mapped_symbols ?? []) : [];
    for (const a of accepted) {
      const terms: string[] = [];
      for (const m of mapped) {
        const term = normalize(m.nl_term);
        if (m.symbol.trim() !== a.symbol || !term || terms.includes(m.nl_term) || !normalize(request).includes(term) || !normalize(String(a.target)).includes(term)) continue;
        const row = this.symbolProfile(String(a.symbol), a.evidence);
        if (!row) continue;
        const [scored] = await this.core.engine.scoreSymbols(m.nl_term, [{ name: row.name, container: row.container_name, file: row.path, signature: row.signature }]);
        if (scored && tierOf(scored.score) !== 'REJECTED' && this.core.engine.learnable(scored.legs)) terms.push(m.nl_term);
      }
      a.terms = terms;
    }
  }

  async validateRelevance(target: string, symbols: string[]): Promise<Record<string, unknown>> {
    const args = { target_feature: target, symbols };
    const s = this.core.gate('validate_symbol_relevance', args)!;
    const frame = s.row.query_frame ? (JSON.parse(s.row.query_frame) as { target_feature?: string; quotes?: Record<string, string> }) : {};
    const ok = frame.target_feature
      ? [frame.target_feature, frame.quotes?.target_feature ?? ''].some((t) => normalize(t) === normalize(target))
      : isGrounded(target, this.core.request(s), translateCjk);
    if (!ok) {
      this.core.record('validate_symbol_relevance', args, undefined, 'target mismatch');
      throw new SessionError('target_mismatch', `target_feature '${quote(target, 200)}' is not the QueryFrame's target feature${frame.target_feature ? ` ('${frame.target_feature}')` : ''}.`, {
        hint: 'Pass the target_feature value (or quote) you set with set_query_frame.',
      });
    }
    const unknown = symbols.filter((x) => !this.core.symbolExists(x));
    if (unknown.length > 0) {
      this.core.record('validate_symbol_relevance', args, undefined, 'unknown symbols');
      throw new SessionError('unknown_symbols', `Not in the index: ${quote(unknown.join(', '), 500)}`, { hint: 'Use symbol names as find_definitions returns them.' });
    }
    // the agent's list must come from what this session was shown: validating an unseen symbol
    // would put it before the agent as if a result had named it
    const seen = this.core.evidence(s).symbolsSeen;
    const unseen = symbols.filter((x) => !seen.has(x));
    if (unseen.length > 0) {
      this.core.record('validate_symbol_relevance', args, undefined, 'unseen symbols');
      throw new SessionError('unseen_symbols', `Never shown by a tool result in this session: ${quote(unseen.join(', '), 500)}`, {
        hint: 'List the symbols of your understanding (each one a result named); look others up with find_definitions in EXPLORATION first (revert_to_exploration).',
      });
    }
    const suggestions = await this.suggest(target, 10);
    // what earlier successful sessions confirmed for this term, strongest first, still in the index
    // (in the file it was confirmed in: an entry whose definition was renamed or moved names nothing — red team adv87)
    const cached = this.core.engine.cache.match(target, this.core.engine.corpus().lex, (sym, file) => this.core.definitionsOf(sym).some((d) => !file || d.path === file));
    const result = {
      validation_prompt:
        `For each symbol, decide whether it is part of '${quote(target, 200)}' in this codebase: it implements it, directly supports it, or ${changesCode(s.row.intent as Intent) ? 'is directly affected by the requested change (a caller that inherits the behaviour)' : 'is part of the behaviour asked about (a step of the chain that produces it)'}. ` +
        'Answer with confirm_symbol_relevance. approved=true requires code_evidence that points at code you saw in this session: ' +
        '"path/to/file.ts:LINE" or a code fragment copied from that file (e.g. `AuthService.login(user)` in src/auth.ts).',
      target_feature: target,
      symbols,
      cached_matches: cached.slice(0, 10),
      embedding_suggestions: suggestions.map(({ name: _n, container: _c, ...x }) => x),
      backend: this.core.engine.backendName(),
      schema: { mapped_symbols: [{ symbol: 'string (symbol name)', approved: 'boolean (relevant?)', code_evidence: 'string (required when approved=true)' }] },
    };
    this.core.store.transaction(() => {
      // what the server showed (its suggestions and cached matches) is seen; the agent's own list is not shown by being echoed
      this.core.record('validate_symbol_relevance', args, { symbols: [...suggestions.map((x) => x.symbol), ...cached.map((x) => x.symbol)].map((n) => ({ name: n })) });
      this.core.send(this.core.require(), { type: 'RELEVANCE_REQUESTED' });
    });
    return result;
  }

  /** The top symbols of the whole index for a target feature (hybrid ranking over code chunks). */
  async suggest(target: string, limit: number): Promise<{ symbol: string; name: string; container: string | null; file: string; line: number; similarity: number; rank: number; backend: string }[]> {
    const r = await this.core.engine.rank(target, { kinds: (k) => k !== 'section', budgetMs: 2000 });
    // the best of the search's order, shown in the order of the gate's own score: a list whose
    // "similarity" goes down and up again reads as unsorted (agent trial tr147)
    return r.items
      .filter((x) => x.score > 0 && x.score >= Math.min(this.core.engine.config.minConfidence, 0.3))
      .slice(0, limit)
      .sort((a, b) => b.score - a.score)
      .map((x, i) => ({
        symbol: x.chunk.container ? `${x.chunk.container}.${x.chunk.name}` : x.chunk.name, name: x.chunk.name, container: x.chunk.container ?? null, file: x.chunk.path, line: x.chunk.name_line,
        similarity: x.score, rank: i + 1, backend: SemanticEngine.backendOf(x.legs),
      }));
  }

  async confirmRelevance(mapped: { symbol: string; approved: boolean; code_evidence?: string }[]): Promise<Record<string, unknown>> {
    const args = { mapped_symbols: mapped };
    const s = this.core.gate('confirm_symbol_relevance', args)!;
    const ledger = this.core.store.ledger(s.row.id);
    const request = [...ledger].reverse().find((e) => e.tool === 'validate_symbol_relevance' && e.outcome === 'ok');
    if (!request || !s.actor.getSnapshot().context.relevanceRequested) {
      throw new SessionError('validation_required', 'Call validate_symbol_relevance first.', { next_step: NEXT_STEP.VALIDATION });
    }
    const target = String(request.args.target_feature);
    const evidence = this.core.evidence(s);
    const listed = Array.isArray(request.args.symbols) ? (request.args.symbols as string[]) : [];
    const offered = new Set([...request.symbols, ...listed]);
    const unaddressed = listed.filter((x) => !mapped.some((m) => m.symbol === x));
    if (unaddressed.length > 0) {
      this.core.record('confirm_symbol_relevance', args, undefined, 'not all addressed');
      throw new SessionError('not_addressed', `Every symbol you sent to validate_symbol_relevance must be confirmed (approved: true, with code_evidence) or dismissed (approved: false): missing ${unaddressed.join(', ')}.`, {
        symbols: listed,
      });
    }
    // one verdict per symbol: approved and dismissed at once says nothing, and a claim repeated 100
    // times was stored 100 times (each taught the cache)
    const names = mapped.map((m) => m.symbol.trim());
    const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    if (repeated.length > 0) {
      this.core.record('confirm_symbol_relevance', args, undefined, 'repeated symbols');
      throw new SessionError('repeated_symbols', `Each symbol gets one verdict: ${quote(repeated.join(', '), 300)} ${repeated.length === 1 ? 'is' : 'are'} in mapped_symbols more than once.`, {
        hint: 'Send each symbol once, approved (with code_evidence) or dismissed.',
      });
    }
    if (!mapped.some((m) => m.approved)) {
      this.core.record('confirm_symbol_relevance', args, undefined, 'nothing approved');
      throw new SessionError('nothing_approved', 'At least one symbol must be approved with code_evidence.', {
        hint: 'If none is relevant, revert_to_exploration and look for the right code.',
      });
    }
    const accepted: Record<string, unknown>[] = [];
    const rejected: Record<string, unknown>[] = [];
    const dismissed: string[] = [];
    let raiseRisk = false;
    // what earlier passes of this session accepted: it stays accepted (a return to EXPLORATION keeps its facts)
    const before = s.row.mapped_symbols ? (JSON.parse(s.row.mapped_symbols) as Record<string, unknown>[]) : [];
    const wasAccepted = (b: Record<string, unknown>) => typeof b.similarity === 'number' && b.similarity >= 0.3;
    // the same definition, not only the same name: a name accepted once and cited again inside another
    // definition of it is that other one (red team adv31 carried pLimit's `run` over to Benchmarker.run)
    const earlierOf = (symbol: string, id: number) => before.find((b) => b.symbol === symbol && wasAccepted(b) && this.symbolProfile(String(b.symbol), b.evidence)?.id === id);
    const acceptedBefore = new Set(before.filter(wasAccepted).map((b) => String(b.symbol)));
    const ranking = this.core.engine.textRanking(target);
    const cutoff = rankCutoff(ranking.total);
    const userRequest = this.core.request(s);
    // the user's own words for the target: a name they wrote as code there is the thing itself,
    // however the agent rendered the value it passes (agent trial tr34: `Map` in the quote, Map in the value)
    const frame = s.row.query_frame ? (JSON.parse(s.row.query_frame) as { target_feature?: string; quotes?: Record<string, string> }) : {};
    // (a name the quote keeps out of the change is no credit: "… do not change HTTPAdapter.send" — red team adv50)
    const targetQuote = frame.quotes?.target_feature ? [keptOutRemoved(frame.quotes.target_feature)] : [];
    // what the target says, value and quote: a value that leaves out a qualifier its quote has (red
    // team adv9) still means the same definition of a name (which-definition.ts)
    const said = [target, ...targetQuote].join(' ');
    // words first, then the rank leg: its words cover little of the target, but its code answers
    // it better than nearly everything else in the project
    const declared = (name: string) => this.core.symbolExists(name);
    // (a target that is only code the project declares: the rank leg takes only code that uses it, not code whose words rank)
    const codeOnly = namedCodeOnly(target, declared);
    const judge = async (m: { symbol: string }, verified: Verified) => {
      const row = this.symbolProfile(m.symbol, verified.where);
      // the request names it as code only to keep it out of the change ("keep req.acceptsEncodings()
      // as it is"): not part of the feature by any leg (red team adv91 had it accepted on its words)
      const kept = row && keptOutOfRequest(userRequest, row.name, row.container_name);
      if (kept) {
        rejected.push({
          symbol: m.symbol, similarity: null,
          guidance: {
            reason: `the request names '${quote(m.symbol, 200)}' only to keep it out of the change ('${quote(kept, 80)}'): it is not part of '${quote(target, 200)}'`,
            next_actions: ['Send the code the change touches; what the user keeps as it is stays out of the symbols'],
          },
        });
        return;
      }
      const scored = row
        ? (await this.core.engine.scoreSymbols(target, [{
          name: row.name, container: row.container_name, file: row.path, signature: row.signature, evidence: this.evidenceAbout(m.symbol, row, verified, evidence.shownLines),
          namesAnother: targetMeansAnother(this.core.project.db, said, row.name, row.path, row.container_name),
        }], { namedIn: targetQuote, siblingOf: (file, missing, matched) => siblingSaying(this.core.project.db, file, missing, matched) }))[0]!
        : { score: 0, backend: this.core.engine.backendName(), legs: { keyword: 0 } };
      const score = row ? Math.min(scored.score, factCap(target, row.name, declared)) : scored.score;
      const tier = tierOf(score);
      const rank = row ? this.core.engine.textRankOf(target, row.path, row.name, row.name_line) : undefined;
      const ranked = rankedScore(rank, ranking.total);
      // the user wrote its name as code (`$dispose`, when(), parseConfig) somewhere in the request,
      // outside the target feature: part of the request, accepted with risk HIGH
      // — not where the request rules it out ("do not change `AdminService`" names it to keep it out)
      const owners = row !== undefined ? ownersOf(this.core.definitionsOf(row.name)) : 0;
      const requestNames = row !== undefined && requestNamesAsCode(userRequest, row.name, row.container_name, owners);
      if (tier === 'REJECTED' && ranked < 0.3 && requestNames) {
        raiseRisk = true;
        accepted.push({
          symbol: m.symbol, similarity: REQUEST_NAMED_SCORE, tier: 'ACCEPTED_HIGH_RISK', backend: `${scored.backend}+request`, legs: { ...scored.legs, request_named: REQUEST_NAMED_SCORE },
          evidence: verified.where, file: row?.path, via: `the request names it as code ('${quote(row!.name, 80)}'), outside the target feature`,
        });
      } else if (tier === 'REJECTED' && ranked >= 0.3 && (!codeOnly || (row !== undefined && usesNamed(this.core.project.db, row.id, codeOnly))) && !('sibling' in scored.legs && scored.legs.sibling) && !(row && (extendsNamedCode(target, row.name) || sharesNamedCode(target, row.name, declared)))) {
        // (not where the words found that the target means the one beside it: NetworkError's
        // constructor ranked #5 for "HTTPError's constructor()" — red team adv32)
        raiseRisk = true;
        accepted.push({
          symbol: m.symbol, similarity: ranked, tier: 'ACCEPTED_HIGH_RISK', backend: `${scored.backend}+rank`, legs: { ...scored.legs, rank },
          evidence: verified.where, file: row?.path, via: `its code ranks #${rank} of the project's ${ranking.total} declarations for '${quote(target, 200)}' (the best ${cutoff} are accepted)`,
        });
      } else if (tier === 'REJECTED') {
        const l = { symbol: m.symbol, score, scored, where: verified.where, file: row?.path, rank, judged: row && this.judgedAs(m.symbol, row) };
        // accepted in an earlier pass of this session: a fact that stays (the evidence is verified again above)
        const earlier = row ? earlierOf(l.symbol, row.id) : undefined;
        if (earlier) {
          if (earlier.tier !== 'FACT') raiseRisk = true;
          accepted.push({ ...earlier, evidence: l.where });
        } else pending.push(l);
      } else {
        if (tier === 'ACCEPTED_HIGH_RISK') raiseRisk = true;
        // (a name that says more than the feature is at most accepted: `fact_cap` says so)
        const capped = score < scored.score;
        const legs = capped ? { ...scored.legs, fact_cap: score } : scored.legs;
        accepted.push({
          symbol: m.symbol, similarity: score, tier, backend: scored.backend, legs, evidence: verified.where, file: row?.path,
          // (an agent saw keyword 0.722 capped at 0.6 and no reason: tr119)
          ...(capped && row ? { capped_because: `its name says more than the target feature (${ownWords(target, row.name).slice(0, 4).join(', ')}): a FACT is a name that says the feature and nothing more; this one is accepted with risk HIGH` } : {}),
        });
      }
    };
    let pending: Low[] = [];
    // evidence that is a use of the symbol inside another declaration concerns it once that
    // declaration is accepted — in an earlier pass or in this one (a call inside a method this same
    // confirm accepts): such claims wait for the rest of the pass
    let waiting: { m: { symbol: string }; verified: Verified }[] = [];
    const acceptedNames = () => new Set([...acceptedBefore, ...accepted.map((a) => String(a.symbol))]);
    for (const m of mapped) {
      if (!offered.has(m.symbol)) {
        rejected.push({ symbol: m.symbol, similarity: 0, guidance: { reason: `'${quote(m.symbol, 200)}' was not part of validate_symbol_relevance (neither listed nor suggested)`, next_actions: ['Call validate_symbol_relevance again with this symbol.'] } });
        continue;
      }
      if (!m.approved) {
        dismissed.push(m.symbol);
        continue;
      }
      // (of the places the evidence points at, the first about the symbol, else the first)
      const places = [...codeEvidenceCandidates(m.code_evidence ?? '', evidence.exploredFiles, evidence.shownLines, (f) => this.core.project.lines(f))].slice(0, 8);
      const verified = places.find((v) => this.evidenceConcerns(m.symbol, v, target, acceptedBefore)) ?? places[0];
      if (!verified) {
        rejected.push({
          symbol: m.symbol, similarity: null,
          guidance: {
            reason: `code_evidence does not point at code this session has seen: give "file:line" of a line you were shown in an explored file, or a fragment copied from one${unseenWhy(m.code_evidence ?? '', evidence)}`,
            next_actions: ['Read the code you mean (the lines of the symbol), then cite a line of it.'],
          },
        });
        continue;
      }
      if (this.evidenceConcerns(m.symbol, verified, target, acceptedBefore)) await judge(m, verified);
      else waiting.push({ m, verified });
    }
    // the words of the request do not reach these: the code graph may (they call, are called by,
    // contain or sit in a symbol the request does reach). Links through the code, to a fixed point:
    // a symbol linked to one that a link accepted in this same pass would be accepted by the next
    // pass anyway — the agent is spared the round trip
    const reached = await this.targetSeeds(target, said);
    // a symbol the agent dismissed seeds no link (red team adv92: getReleaseInfo came in linked to a
    // rank anchor the agent had itself dismissed)
    for (const name of dismissed) for (const r of this.definitionsFor(name).slice(0, 5)) reached.ids.delete(r.id);
    const seedsNow = () => this.seedsWith(reached, [...accepted, ...before] as { symbol: string; similarity?: number; evidence?: unknown }[]);
    let seeds = seedsNow();
    for (let round = 0; round < 6 && (pending.length > 0 || waiting.length > 0); round++) {
      const progress = accepted.length;
      const names = acceptedNames();
      const still: typeof waiting = [];
      for (const w of waiting) {
        if (this.evidenceConcerns(w.m.symbol, w.verified, target, names)) await judge(w.m, w.verified);
        else still.push(w);
      }
      waiting = still;
      if (accepted.length > progress) seeds = seedsNow();
      const left: Low[] = [];
      for (const l of pending) {
        const link = this.graphLink(l.symbol, seeds, l.where, !changesCode(s.row.intent as Intent), target);
        if (!link) {
          left.push(l);
          continue;
        }
        raiseRisk = true;
        accepted.push({
          symbol: l.symbol, similarity: link.score, tier: 'ACCEPTED_HIGH_RISK', backend: `${l.scored.backend}+graph`, legs: { ...l.scored.legs, graph: link.score },
          evidence: l.where, file: l.file, via: link.why, link_direction: link.direction, link_depth: link.depth,
        });
      }
      pending = left;
      if (accepted.length === progress) break;
      seeds = seedsNow();
    }
    // what one step does not reach may still be among the code closest to the seeds over every
    // path of the graph (personalized PageRank): the best few of the project are accepted
    if (pending.length > 0 && seeds.ids.size > 0) {
      const propagated = this.propagate(pending, seeds, ranking.total);
      if (propagated.length > 0) raiseRisk = true;
      accepted.push(...propagated);
      pending = pending.filter((l) => !propagated.some((a) => a.symbol === l.symbol));
    }
    for (const { m, verified } of waiting) {
      rejected.push({
        symbol: m.symbol, similarity: null,
        guidance: {
          reason: this.unconcernedWhy(m.symbol, verified, target),
          next_actions: [`find_definitions ${quote(m.symbol, 200)}, then cite "file:line" inside it`],
        },
      });
    }
    // (the declarations accepted, looked up once for every refusal below)
    const acceptedIds = new Set(accepted.flatMap((a) => this.definitionsFor(String(a.symbol), a.evidence).slice(0, 5).map((r) => r.id)));
    for (const l of pending) {
      const t = l.scored.terms;
      const sibling = l.scored.legs.sibling;
      const words = (t ? `; of the target's words it carries ${t.matched.length ? t.matched.join(', ') : 'none'}, not ${t.missing.join(', ') || '—'}` : '')
        + (sibling ? `; ${t ? wordsNamingSibling(sibling, t.missing).join(', ') || t.missing.join(', ') : 'the rest'} is what ${quote(sibling, 200)} beside its file is named for: the target's words point there, not at this file, and the word they share names their family` : '');
      const holder = this.unsentHolder(l.symbol, l.where, acceptedNames(), mapped);
      // linked to an accepted symbol, but past the bound on a chain of links: say so, not "no link"
      const found = this.chainBound(l.symbol, acceptedIds, seeds, l.where);
      const bound = found?.label;
      const traces = !changesCode(s.row.intent as Intent);
      // (agent trial tr165 was told a class accepted by its name "was accepted only through a link")
      const links = found?.holder
        ? `it lies in ${quote(found.label, 200)}, accepted, but a holder (an object, a class) accepted at risk HIGH does not make all it holds relevant: a member comes in by a link of its own (it calls, is called by, or shares a field the target names with a symbol the target's words reach; cite that line as its code_evidence)`
        : bound
        ? `it links to ${quote(bound, 200)}, accepted, but ${quote(bound, 200)} was itself accepted only through a link, by closeness or by earlier sessions' matches, and a chain from the symbols the target's words reach goes no further here: it runs at most ${MAX_CHAIN} links (${MAX_UP_CHAIN} of them up to callers), does not turn from a helper reached down a call path back up to callers outside the helper's file, and a holder (an object, a class) accepted through a link does not vouch for the rest of what it holds${traces ? ` (cite the line where it uses ${quote(bound, 200)}, or where ${quote(bound, 200)} uses it, as its code_evidence: a hop the session traced counts)` : ''}`
        : `it does not call, is not called by, does not contain and is not contained in a symbol accepted in this session or one of the project's best matches for the target, which the server looks up itself (${[...seeds.labels].slice(0, 6).join(', ') || 'none'})`
          // (agent trial tr158 read "not called by an accepted symbol" as circular when none was)
          + (acceptedNames().size === 0 ? `; no symbol is accepted yet, so the links start from the declaration the target's words name: if none of yours is it, find it (find_definitions, query for '${quote(target, 200)}') and send it too` : '');
      rejected.push({
        symbol: l.symbol, similarity: l.score, backend: l.scored.backend, legs: l.scored.legs, ...(t ? { terms: t } : {}), ...(l.judged ? { judged_as: l.judged } : {}),
        guidance: {
          reason: `'${quote(target, 200)}' and '${quote(l.symbol, 200)}'${l.judged ? ` (${l.judged})` : ''} are too dissimilar (${l.score} < 0.3${words}), its code ranks ${l.rank ? `#${l.rank}` : 'nowhere'} among the project's declarations for it (the best ${cutoff} are accepted), ${links}, and it is not among the ${propagationCutoff(ranking.total)} declarations closest to them through the code`
            + (holder ? `. Its code_evidence (${l.where}) lies inside ${quote(holder, 200)}, which was not sent for validation` : ''),
          next_actions: [
            ...(holder ? [`if ${quote(holder, 200)} is part of '${quote(target, 200)}', send it too (validate_symbol_relevance, then confirm it with a line of its own): what it contains or calls is then linked to it`] : []),
            `if it really is part of '${quote(target, 200)}', show how: confirm it together with the symbol it connects to (find_references shows callers and callees)`,
            `search_text or query for other symbols related to '${quote(target, 200)}'`,
          ],
        },
      });
    }
    // symbols accepted in an earlier pass stay accepted (a return to EXPLORATION keeps its facts)
    const kept = before.filter((b) => !accepted.some((a) => a.symbol === b.symbol) && !rejected.some((r) => r.symbol === b.symbol) && !dismissed.includes(String(b.symbol)));
    // each acceptance keeps the target feature (its quote) it was judged against: an earlier pass
    // may have judged another one, and only that one may teach the cache (service.learn)
    const judgedAgainst = frame.quotes?.target_feature ?? target;
    for (const a of accepted) if (typeof a.target !== 'string') a.target = judgedAgainst;
    await this.judgeMappedTerms(s.row.understanding, accepted, userRequest);
    // one symbol counts once however it is spelled (Cart.total and total), one function however it is named (res.set = res.header = …)
    const standing = [...kept, ...accepted];
    const identity = (a: Record<string, unknown>) => {
      const row = this.symbolProfile(String(a.symbol), a.evidence);
      return row ? valueIdentity(row) : String(a.symbol);
    };
    // at most one of them stands by closeness alone (the propagation leg): red team adv90 reached
    // READY with one FACT and three of the declarations nearest it by PageRank, none of them about
    // the target (on the real-commit bench, counting one at most moved no figure, tune or eval)
    const near = (a: Record<string, unknown>) => typeof a.backend === 'string' && a.backend.endsWith('+propagation');
    const own = new Set(standing.filter((a) => !near(a)).map(identity));
    const close = new Set(standing.filter(near).map(identity).filter((x) => !own.has(x)));
    const distinct = own.size + Math.min(1, close.size);
    // the intent's minimum, no more than the project holds: a library of one function has no three
    // symbols to accept (agent trial tr76 could not reach READY honestly)
    const most = Math.min(minAccepted(s.row.intent as Intent), Math.max(1, this.core.projectHolds().symbols));
    // (only once the code the target names stands itself: the agent found it)
    const profileIds = new Map<Record<string, unknown>, number>();
    const idOf = (a: Record<string, unknown>) => profileIds.get(a) ?? profileIds.set(a, this.symbolProfile(String(a.symbol), a.evidence)?.id ?? -1).get(a)!;
    // the code the target names, as the server judged it: its best matches at FACT level, and the
    // symbols this confirm accepted as FACT because the target writes their name (koa's response.is,
    // `default.is` in the index, ranks below FACT among the suggestions — agent trial tr172's probe)
    const named = (a: Record<string, unknown>) => a.tier === 'FACT' && typeof (a.legs as { named?: unknown } | undefined)?.named === 'number' && ((a.legs as { named: number }).named >= NAMED_AS_CODE);
    const facts = [...new Set([...reached.facts ?? [], ...standing.filter(named).map(idOf).filter((id) => id >= 0)])];
    const namedStands = standing.some((a) => facts.includes(idOf(a)));
    const small = namedStands && s.row.intent === 'MODIFY' ? this.neighbourhoodHolds(facts, most, userRequest) : undefined;
    // a lowered need is met only by the symbols it was counted from (red team adv92 met it with
    // isAbsoluteURL, mergeConfig, getReleaseInfo: linked elsewhere, close by PageRank, or through a seed
    // it dismissed)
    const inside = small ? new Set(standing.filter((a) => small.ids.has(idOf(a))).map(identity)).size : 0;
    const lowered = small !== undefined && inside >= Math.max(1, small.holds) && distinct < most;
    const need = lowered ? Math.max(1, small.holds) : most;
    const short = !lowered && distinct < most;
    const to = this.core.store.transaction(() => {
      this.core.store.update(s.row.id, { mapped_symbols: JSON.stringify(standing) });
      this.core.record('confirm_symbol_relevance', args, { symbols: accepted.map((a) => ({ name: a.symbol })) });
      const why = [rejected.length ? `${rejected.length} rejected` : '', short ? `${distinct}/${need} accepted` : ''].filter(Boolean).join(', ');
      return this.core.send(this.core.require(), { type: 'RELEVANCE_CONFIRMED', rejected: rejected.length, raiseRisk, accepted: distinct, need }, why || null);
    });
    return {
      // enough backed symbols stand: the session goes on; rejected claims are simply not credited
      success: !short,
      next_phase: to,
      // (stored as `target`, the quote: what the cache may learn. Shown as what the pass judged: the
      // target_feature value, its quote beside it — agents read `target` as the value (tr118, tr119), and
      // a quote alone as the whole sentence being judged (tr135, tr137); an earlier pass's, as stored)
      accepted: accepted.map(({ target: judged, ...a }) => ({
        ...a, judged_against: judged === judgedAgainst ? target : judged, ...(judged === judgedAgainst && judged !== target ? { its_quote: judged } : {}),
      })),
      rejected,
      dismissed,
      accepted_total: {
        have: distinct, need,
        // (why fewer than the intent's minimum: the agent should not go looking for more)
        ...(small ? { need_because: `the code '${quote(target, 200)}' names links to no more than ${small.holds} declaration(s) of the project (${small.names.slice(0, 5).join(', ')}): a change this small needs ${Math.max(1, small.holds)} of them, or ${most} symbols of any kind` } : {}),
      },
      risk_level: this.core.require().actor.getSnapshot().context.risk,
      ...(to === 'EXPLORATION' && this.core.require().actor.getSnapshot().context.risk === 'HIGH'
        ? { risk_note: 'risk_level is HIGH now: the next submit_understanding needs mapped_symbols (nl_term quoted from the request → a symbol of symbols_identified)' }
        : raiseRisk && this.core.require().actor.getSnapshot().context.risk === 'HIGH'
          // (agents asked why the risk rose when every symbol was accepted: tr61, tr63)
          ? { risk_note: 'risk_level is HIGH: some symbols were accepted below FACT (score 0.3–0.6: their code does not state the target feature in its own words, or they are accepted through a link). It is recorded in the session; it asks nothing more of you now (a return to EXPLORATION would need mapped_symbols).' }
          : {}),
      next_step: !short ? this.core.nextStep(to) : rejected.length ? REJECTED_NEXT.en : SHORT_NEXT(distinct, need, dismissed),
      ...(short && close.size > 1
        ? { closeness_note: `${close.size} of the symbols stand only by closeness through the code (PageRank from the symbols the target reaches); one of them counts toward the ${need} this request needs. For the others, show how each connects: a line where it calls, is called by or uses an accepted symbol, as its code_evidence` }
        : {}),
      ...(!short && rejected.length
        ? { rejected_note: `${rejected.length} claim(s) were not backed and are not credited (each rejection says why). The session goes on with the ${distinct} symbols that stand.` }
        : {}),
    };
  }
}

/** Verified code_evidence: where it starts ("file:line"), to which line a fragment runs, and its code. */
type Verified = { where: string; text: string; to?: number };
/** The most lines of a fragment judged line by line. */
const MAX_SPAN = 200;

/**
 * How many owners share a name, for requestNamesAsCode's homonyms: a declaration file's twin of the
 * code's own class is the same name (agent trial tr123: enablePositionalOptions in lib/command.js and
 * typings/index.d.ts); one under another class is another owner (red team adv56: typings'
 * Option.description beside Command.description).
 */
function ownersOf(defs: readonly SymbolRow[]): number {
  const code = defs.filter((d) => !isDeclarationFile(d.path));
  const owners = new Set(code.map((d) => d.container_name ?? `\0${d.path}`));
  for (const d of defs) if (isDeclarationFile(d.path) && (d.container_name !== null || code.length === 0)) owners.add(d.container_name ?? `\0${d.path}`);
  return owners.size;
}

/** namedScore of a name the writer marked as code (`x`, x(), a $, camelCase, snake_case, digits) */
const NAMED_AS_CODE = 0.7;
/** a symbol the request names as code outside the target feature: accepted, never FACT */
export const REQUEST_NAMED_SCORE = 0.45;

/** The user wrote the symbol's name as code in the request (`$dispose`, when(), parseConfig), not to rule it out ("do not change `AdminService`"). */
export function requestNamesAsCode(userRequest: string, name: string, container: string | null, homonyms = 1): boolean {
  const req = normalize(userRequest).replace(/[`'"“”‘’「」]/g, '');
  // (written with its container where the request keeps it out: "do not change HTTPAdapter.send" beside "Session.send" — red team adv50)
  const owner = container?.split('.').pop();
  if (namedScore(userRequest, name, container) < NAMED_AS_CODE || ruledOut(req, normalize(name)) || (owner && req.includes(normalize(`${owner}.${name}`)) && ruledOut(req, normalize(`${owner}.${name}`)))) return false;
  // (and with its code marks: "do not change `A` and `X`" lists X among the kept things, which the text without backticks does not show)
  if (namedScore(keptOutRemoved(userRequest), name, container) < NAMED_AS_CODE) return false;
  // a name several definitions share names one of them only with its container: "HTTPError's
  // constructor()" is not every class's constructor (red team adv31 had five accepted)
  if (homonyms <= 1) return true;
  if (!container) return false;
  const word = new RegExp(`(^|[^\\p{L}\\p{N}_$])${container.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}\\p{N}_$]|$)`, 'u');
  return word.test(userRequest);
}

/**
 * The words that keep a symbol out of the change, where the request names it as code only there
 * ("keep `req.acceptsEncodings()` as it is", "do not change AdminService"), else undefined.
 */
export function keptOutOfRequest(userRequest: string, name: string, container: string | null): string | undefined {
  if (namedScore(userRequest, name, container) < NAMED_AS_CODE || namedScore(keptOutRemoved(userRequest), name, container) >= NAMED_AS_CODE) return undefined;
  const req = normalize(userRequest);
  const owner = container?.split('.').pop();
  return (owner ? ruledOut(req, normalize(`${owner}.${name}`)) : undefined) ?? ruledOut(req, normalize(name)) ?? 'kept as it is';
}

/** A request that asks for something new: its size is not the size of the code it names (red team adv92: retries for the fetch adapter, target combineURLs()). */
const ASKS_TO_ADD = /\b(?:add|adds|adding|implement|implements|create|creates|introduce|introduces|support|supports|new)\b|追加|実装|新し|新規|作成|対応|添加|新增|增加|实现|支持|创建/i;

/** The graph's seeds: declaration id → seed score, and how they are named in reasons. */
/** The seeds of the graph; `linked`: those accepted only through a link, whose contents they do not vouch for. */
type Seeds = {
  ids: Map<number, number>; labels: Set<string>; linked?: Set<number>; linkedWay?: Map<number, LinkDirection>; linkedDepth?: Map<number, number>;
  /** the target's own: the declarations its words make a FACT (neighbourhoodHolds) */
  facts?: number[];
};

/** A claim the words and the rank do not accept: the graph may still link it. */
type Low = { symbol: string; score: number; scored: { score: number; backend: string; legs: object & { sibling?: string }; terms?: { matched: string[]; missing: string[] } }; where: string; file?: string; rank?: number; judged?: string };

/** Fewer symbols stand than the intent needs: dismissing is not a way through, finding more is. */
const SHORT_NEXT = (have: number, need: number, dismissed: string[]) =>
  `Only ${have} of the ${need} symbols this request needs are accepted${dismissed.length ? ` (dismissed: ${dismissed.slice(0, 5).join(', ')})` : ''}. ` +
  'The session is back in EXPLORATION: explore again for the code the change touches and the code linked to it (find_references on the accepted symbols shows their callers and callees; symbols accepted now stay accepted), then submit_understanding, validate_symbol_relevance and confirm_symbol_relevance again.';

/** What to do when too few stand after a rejection, in both languages (localize() picks). */
export const REJECTED_NEXT = {
  en: 'Too few symbols stand: some were rejected (each rejection says why). The session is back in EXPLORATION: explore again following its guidance (symbols accepted now stay accepted), then submit_understanding, validate_symbol_relevance and confirm_symbol_relevance again.',
  ja: '受理されたシンボルが足りません（却下の理由はそれぞれに記載）。セッションは EXPLORATION に戻りました。ガイダンスに従って再度探索し（受理済みのシンボルは保持されます）、submit_understanding、validate_symbol_relevance、confirm_symbol_relevance をもう一度呼んでください。',
};

/** The English words the JA/ZH→EN glossary gives for a text's terms (QueryFrame grounding across languages). */
export function translateCjk(text: string): string[] {
  return translationsOf(text);
}

/**
 * The code of a line without its comments (//, /* *\/, a doc comment's leading *, # followed by a
 * space) and, with `strings`, without the text of its string literals: a name there is not a use.
 */
export function codeOf(line: string, strings = true): string {
  let code = line.replace(/\/\*.*?(\*\/|$)/g, ' ').replace(/^\s*\*.*$/, '').replace(/(^|\s)#(\s|!|$).*$/, '$1');
  if (strings) code = code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  // a // that is not inside a string (a URL in a string stays a string)
  const at = code.search(/(^|[^:])\/\//);
  return at < 0 ? code : code.slice(0, at + (code[at] === '/' ? 0 : 1));
}

/** A claimed name's last part as a whole word of code (`res.set` → set, not `reset`). */
function nameWord(symbol: string): RegExp {
  return new RegExp(`(^|[^\\w$])${symbol.split('.').pop()!.replace(/[$]/g, '\\$')}([^\\w$]|$)`);
}

/** Why a "file:line" citation was not taken: the file not explored, or the line never shown of it. */
function unseenWhy(evidence: string, ev: Evidence): string {
  const m = /([\w@./-]+\.[A-Za-z]{1,5}):(\d+)/.exec(evidence);
  if (!m) return '';
  const file = m[1]!.replace(/^\.\//, '');
  if (!ev.exploredFiles.has(file)) return ` (${quote(file, 200)} is not explored in this session)`;
  const rs = ev.shownLines.get(file) ?? [];
  const line = Number(m[2]);
  // shown, but no code: a comment, a blank line, a lone brace (red team adv12 was told "never shown")
  if (rs.some(([a, b]) => a <= line && line <= b)) return ` (line ${line} of ${quote(file, 200)} holds no code: a comment, a blank line or a brace; cite a line of the symbol's code)`;
  const list = rs.slice(0, 8).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
  return ` (line ${m[2]} of ${quote(file, 200)} was never shown in this session${list ? `; lines shown: ${list}${rs.length > 8 ? ', …' : ''}` : ''})`;
}

/** Stands for a line the session was not shown: no fragment holds it, and no fragment spans it. */
const UNSEEN = '\u0000';
const seenViews = new WeakMap<string[], { shown: readonly [number, number][] | undefined; view: string[] }>();
/** A file's lines with every line the session was not shown replaced by UNSEEN (numbering kept; cached per file and ranges). */
function seenLines(ls: string[], shown: readonly [number, number][] | undefined): string[] {
  const hit = seenViews.get(ls);
  if (hit && hit.shown === shown) return hit.view;
  const view = ls.map((l, i) => (linesShown(shown, i + 1) ? l : UNSEEN));
  seenViews.set(ls, { shown, view });
  return view;
}

/** Whitespace folded: a fragment copied across lines matches however it was wrapped. */
const fold = (x: string) => x.replace(/\s+/g, ' ').trim();

/** A file's text folded, kept with its (cached) lines. */
const folds = new WeakMap<string[], string>();
function foldedFile(ls: string[]): string {
  let f = folds.get(ls);
  if (f === undefined) folds.set(ls, (f = fold(ls.join('\n'))));
  return f;
}

/**
 * The lines (1-based, inclusive) a fragment over several lines occupies in a file, compared with
 * whitespace folded: the first line where the text up to it holds the fragment, and the last start
 * from which it still does. Binary searches: a few folds of the file, not one per line.
 */
function fragmentSpan(ls: string[], f: string): [number, number] | undefined {
  const has = (from: number, to: number) => fold(ls.slice(from, to).join('\n')).includes(f);
  if (!has(0, ls.length)) return undefined;
  let [lo, hi] = [1, ls.length]; // the fewest lines from the top that hold it
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (has(0, mid)) hi = mid;
    else lo = mid + 1;
  }
  const end = lo;
  let [a, b] = [0, end - 1]; // the latest start that still holds it
  while (a < b) {
    const mid = (a + b + 1) >> 1;
    if (has(mid, end)) a = mid;
    else b = mid - 1;
  }
  return [a + 1, end];
}

/**
 * Accepts "path:line" of an explored file, or a code fragment (in backticks, or the whole text)
 * that really occurs in an explored file. Returns the verified code text around it.
 */
export function verifyCodeEvidence(
  evidence: string, explored: ReadonlySet<string>, shown: ReadonlyMap<string, [number, number][]>, fileLines: (file: string) => string[],
): Verified | undefined {
  for (const v of codeEvidenceCandidates(evidence, explored, shown, fileLines)) return v;
  return undefined;
}

/**
 * Every place the evidence points at that verifyCodeEvidence accepts, cited lines first, then
 * fragments: evidence that quotes a symbol's own code and cites where another reads its data holds
 * both (agent trial tr141: `v.defaults[…] = …` read at viper.go:1314 was judged by the line alone).
 */
export function* codeEvidenceCandidates(
  evidence: string, explored: ReadonlySet<string>, shown: ReadonlyMap<string, [number, number][]>, fileLines: (file: string) => string[],
): Generator<Verified> {
  const text = evidence.trim();
  // no code holds a control character (a NUL would match the lines never shown: red team adv9)
  if (!text || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return;
  // the file as the session saw it: a line never shown (by a Read's range, a row) is no line of it
  const lines = (file: string) => seenLines(fileLines(file), shown.get(file));
  for (const m of text.matchAll(/([\w@./-]+\.[A-Za-z]{1,5}):(\d+)/g)) {
    const file = m[1]!.replace(/^\.\//, '');
    const line = Number(m[2]);
    if (!explored.has(file) || !linesShown(shown.get(file), line)) continue;
    const ls = lines(file);
    // a blank line, a brace or a comment shows no code: it says nothing of a symbol
    if (line >= 1 && line <= ls.length && !/[\p{L}\p{N}_$]/u.test(codeOf(ls[line - 1]!, false))) continue;
    if (line >= 1 && line <= ls.length) yield { where: `${file}:${line}`, text: ls.slice(Math.max(0, line - 3), line + 2).join('\n') };
  }
  const fragments = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  if (fragments.length === 0) fragments.push(text);
  for (const frag of fragments) {
    const f = fold(frag);
    if (f.replace(/\s/g, '').length < 10) continue; // `export` is in every file: a fragment must say something
    for (const file of explored) {
      const ls = lines(file);
      // most files do not hold it: one look at the whole file (folded once while its lines are cached)
      // spares the line-by-line search — 100 claims × 8 KB fragments over every explored file took seconds
      if (!foldedFile(ls).includes(f)) continue;
      const idx = ls.findIndex((l) => fold(l).includes(f));
      if (idx >= 0) {
        yield { where: `${file}:${idx + 1}`, text: ls.slice(Math.max(0, idx - 2), idx + 3).join('\n') };
        break;
      }
      const span = fragmentSpan(ls, f);
      if (span && linesShown(shown.get(file), span[0], span[1])) {
        yield { where: `${file}:${span[0]}`, to: span[1], text: f };
        break;
      }
    }
  }
}
