/**
 * SEMANTIC and VERIFICATION: when exploration fell short, semantic_search and hypotheses with a
 * reason that matches what was missing; then each hypothesis checked by a call made after it, about
 * what it names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { credits, type Missing, type Shown } from '../../machines/session.js';
import { type SessionCore, SessionError } from './core.js';
import { contentUnits, stem } from './queryframe.js';
import { normalize } from '../util/words.js';
import type { LedgerEntry } from './store.js';
import type { SymbolRow } from '../query/symbols.js';
import { toolNamed } from '../tools/catalog.js';
import { describeMissing, reasonAllowed, SEMANTIC_REASONS } from './understanding.js';
import { quote } from '../util/paths.js';
import { GENERIC_EN, translationsOf } from '../embeddings/text.js';
import { ABSENT_BEFORE, codeNamesIn, namesNotInProject, projectFile } from './pattern-names.js';
import { blocksOf, caseHoldsAt, type CodeSpan, effectClaims, guardsOf, inFinally, wrongDeedCase, wrongEffect, wrongReturnCase } from './code-effects.js';

/**
 * A use of a name the index could only guess (no declaration bound): not one bound to a package's
 * import (red team adv85: express's `send(req, path)`, the `send` package, was taken for res.send).
 */
const GUESSED = "(r.symbol_id IS NULL AND r.target_kind <> 'import')";

export class SemanticPhase {
  constructor(private readonly core: SessionCore) {}

  semanticAllowedReasons(): string[] {
    const s = this.core.require();
    return allowedReasons(s.actor.getSnapshot().context.missing);
  }

  /** Called after semantic_search ran inside a session. */
  semanticSearched(): void {
    const s = this.core.active();
    if (s && this.core.phaseOf(s) === 'SEMANTIC') this.core.send(s, { type: 'SEMANTIC_SEARCHED' });
  }

  submitSemantic(args: { hypotheses: { text: string; confidence: 'high' | 'medium' | 'low' }[]; semantic_reason: string; search_queries: string[] }): Record<string, unknown> {
    const s = this.core.gate('submit_semantic', args)!;
    const ctx = s.actor.getSnapshot().context;
    const ledger = this.core.store.ledger(s.row.id);
    const enteredAt = [...ledger].reverse().find((e) => e.tool === 'submit_understanding' && e.outcome === 'ok')?.seq ?? 0;
    const searches = ledger.filter((e) => e.seq > enteredAt && e.tool === 'semantic_search' && e.outcome === 'ok').map((e) => normalize(String(e.args.query)));
    const problems: string[] = [];
    if (!ctx.semanticSearched || searches.length === 0) problems.push('semantic_search has not been called in this SEMANTIC phase');
    if (!reasonAllowed(args.semantic_reason, ctx.missing))
      problems.push(`semantic_reason '${args.semantic_reason}' is not allowed for what is missing (${describeMissing(ctx.missing) || 'nothing'}); allowed: ${allowedReasons(ctx.missing).join(', ')}`);
    for (const q of args.search_queries) if (!searches.includes(normalize(q))) problems.push(`search query '${quote(q, 200)}' was never run with semantic_search in this phase`);
    if (args.hypotheses.length === 0) problems.push('at least one hypothesis is required');
    const ev = this.core.evidence(s);
    const names = [...ev.exploredFiles, ...(ev.matchedFiles ?? [])].map((f) => f.split('/').pop()!.replace(/\.[^.]+$/, ''));
    const sources = [this.core.request(s), translationsOf(this.core.request(s)).join(' '), ...ev.symbolsSeen, ...names];
    for (const h of args.hypotheses) {
      if (!hypothesisNamesSomething(h.text, sources))
        problems.push(`hypothesis '${quote(h.text, 200)}' names nothing of the request or of the code this session saw: say which symbol, file or part of the request it is about, so that a call can check it`);
    }
    if (problems.length > 0) {
      this.core.record('submit_semantic', args, undefined, 'refused');
      throw new SessionError('semantic_refused', problems.join('; '), {
        missing_requirements: ctx.missing,
        hint: 'Choose a semantic_reason that matches why exploration fell short, and list only queries you ran.',
      });
    }
    const to = this.core.store.transaction(() => {
      const seq = this.core.record('submit_semantic', args, undefined)!;
      return this.core.send(this.core.require(), { type: 'SUBMIT_SEMANTIC', hypotheses: args.hypotheses, mark: seq });
    });
    const hyps = this.core.require().actor.getSnapshot().context.hypotheses.filter((h) => h.status === 'pending');
    return {
      success: true,
      next_phase: to,
      hypotheses: hyps.map((h) => ({ id: h.id, text: h.text, confidence: h.confidence, slot_source: 'HYPOTHESIS' })),
      next_step: this.core.nextStep(to),
    };
  }

  /** Does the project hold a file at this path, or at a path ending with it? */
  private holdsPath = (rel: string): boolean => projectFile(this.core.project, rel) !== undefined;

  /**
   * A declaration the hypothesis places in a file the index does not declare it in: "TimeoutError is
   * declared in source/utils/merge.ts" was confirmed by a find_definitions that showed it in
   * source/errors/TimeoutError.ts (red team adv36). The places are read by placedNear; a name the
   * index does not know is left to the other checks.
   */
  private misplaced(text: string): { name: string; file: string; actual: string[]; denied?: boolean } | undefined {
    // "N is a private method of the C class": N's container must be C (red team adv48 placed a module function in a class)
    for (const m of [...text.matchAll(OWNED_BY), ...text.matchAll(BELONGS_TO)]) {
      const [name, owner] = [m[1]!, m[2]!];
      const defs = this.defsNamed(name);
      if (defs.length === 0 || this.core.definitionsOf(owner).length === 0 || /\bnot\b|n['’]t\b/i.test(m[0])) continue;
      // (a member the class inherits is its member too: get_redirect_target of Session, from its mixin — red team adv50's friction)
      const owners = this.withAncestors(owner);
      if (!defs.some((d) => owners.has((d.container_name ?? '').split('.').pop()!))) return { name, file: `a member of ${owner}`, actual: [...new Set(defs.map((d) => (d.container_name ? `${d.path} (in ${d.container_name})` : `${d.path} (at the top level)`)))] };
    }
    for (const c of this.placedNear(text)) {
      const file = c.file.replace(/^\.\//, '');
      const defs = this.defsNamed(c.name);
      if (defs.length === 0) continue;
      // (as the hypothesis writes it: "LIB/CONTEXT.JS" names lib/context.js — red team adv42)
      const lower = file.toLowerCase();
      const declares = (p: string) => p.toLowerCase() === lower || p.toLowerCase().endsWith(`/${lower}`);
      // a loose wording ("N is a method of F", "F has N") may mean a use: wrong only where F neither declares nor uses N
      const there = defs.some((d) => declares(d.path)) || (!c.strong && !c.denied && this.usesName(file, bare(c.name), defs.map((d) => d.id)));
      // "N is not defined in F" where the index declares it in F (red team adv40) is as wrong as the other way
      if (there === c.denied) return { name: c.name, file, actual: [...new Set(defs.map((d) => d.path))], ...(c.denied ? { denied: true } : {}) };
    }
    return undefined;
  }

  /**
   * "A throws X", "A raises an X", "X is thrown by A": X (an error's name) must be written in A's code
   * (red team adv74: "res.redirect raises RangeError …" was FACT; RangeError is written only in
   * res.status). Said with a negation, or of an A the index does not know, it is left alone.
   */
  private wrongThrow(sentence: string): string | undefined {
    for (const m of sentence.matchAll(THROWS)) {
      const [a, x] = m[1] ? [m[1], m[2]!] : [m[4]!, m[3]!];
      if (deniedAt(sentence, m.index!, m[0])) continue;
      const defs = this.defsNamed(a).filter((d) => !d.local);
      if (defs.length === 0) continue;
      // in A's code, or in the code A calls one step down (a helper that throws for it) when the
      // sentence names that helper: TypeError written in res.status, for a claim about res.redirect's
      // url, made "res.redirect throws a TypeError when the url is not a string" FACT (red team adv76)
      const found = this.writtenIn(defs, (code) => raisable(code, x));
      // (the error's own class is no helper that throws it: A tests `instanceof ForceRetryError` and
      // ForceRetryError's declaration names itself — red team adv93)
      const [own, helpers] = [found.own, found.helpers.filter((h) => h !== x)];
      if (own) continue;
      if (helpers.some((h) => namesHelper(sentence, h))) continue;
      if (helpers.length > 0) return `${a} throws ${x}, and ${x} is written not in ${a}'s code but in ${helpers.slice(0, 3).join(', ')}, which it calls: say which (${a} throws ${x} through ${helpers[0]}), and check that it throws it in the case you state`;
      return `${a} throws ${x}, and ${x} is written nowhere in ${a}'s code nor in the code it calls, other than where it is caught or tested (an \`except ${x}\` whose block does not raise swallows it)`;
    }
    return undefined;
  }

  /** Whether a pattern is written in the code (not its comments) of these declarations, or else in which of the declarations they call, one step down. */
  private writtenIn(defs: readonly SymbolRow[], holds: RegExp | ((code: string) => boolean)): { own: boolean; helpers: string[] } {
    const test = typeof holds === 'function' ? holds : (code: string) => holds.test(code);
    const writes = (d: { path: string; line: number; end_line: number }) => {
      // (the project's cached lines; a file the server cannot read now gives nothing to judge by)
      const all = this.core.project.lines(d.path);
      return all.length === 0 || test(withoutCommentLines(all.slice(d.line - 1, Math.min(d.end_line, d.line + 2000))).join('\n'));
    };
    if (defs.some(writes)) return { own: true, helpers: [] };
    const callees = this.core.project.db.prepare(`SELECT DISTINCT c.name, f.path, c.line, c.end_line FROM refs r JOIN symbols s ON s.id = ? JOIN symbols c ON c.id = r.symbol_id JOIN files f ON f.id = c.file_id
      WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line LIMIT 50`);
    return { own: false, helpers: [...new Set(defs.flatMap((d) => callees.all(d.id) as { name: string; path: string; line: number; end_line: number }[]).filter(writes).map((c) => c.name))] };
  }

  /**
   * A number a hypothesis says of a declaration's code ("res.redirect uses status 301 by default")
   * that is written neither in its code nor in the code it calls, nor in the user's request (red team
   * adv76: the default is 302, and the claim was FACT). After a negation, it is left alone.
   */
  private wrongNumber(sentence: string): string | undefined {
    const plain = sentence.replace(/`[^`\n]*`/g, ' ').replace(/[\w@$.\/-]+\.[A-Za-z]\w{0,5}:\d+(?::\d+)?/g, ' ');
    // (a negation before the number says it is not there: "does not use 301")
    // (one digit only as a status or code: "uses status 3" — red team adv79; "called 2 times" counts)
    const numbers = [...new Set([...plain.matchAll(/(?<![\w.$-])(\d{2,})(?![\w.$]|-\d)|(?<=(?:^|[^\w.$])(?:status|code)(?:\s+code)?\s+)(\d)(?![\w.$])/gi)]
      .filter((m) => !/\b(?:not|never|no|without|instead|rather)\b|n['’]t\b|不|没/i.test(plain.slice(0, m.index!)) && !/ない|ません/u.test(plain.slice(m.index!, m.index! + 16))).map((m) => (m[1] ?? m[2])!))];
    // a value written as one (a quoted word, a media type) is a value of the code too: "falls back to
    // '/index.html'", "sets the Content-Type to application/json" (red team adv83: both FACT)
    const values = [...new Set([...plain.matchAll(/(?<![\w$])(['"])([^\s'"]{2,80})\1(?![\w$])|(?<![\w$/.-])((?:application|text|image|audio|video|multipart|font)\/[a-z0-9][\w.+-]*)(?![\w/])|(?<![\w$/.:-])(\/[\w.-]+(?:\/[\w.-]+)*)(?![\w/])/gi)]
      .filter((m) => !/\b(?:not|never|no|without|instead|rather)\b|n['’]t\b|不|没/i.test(plain.slice(0, m.index!)) && !/ない|ません/u.test(plain.slice(m.index!, m.index! + 24))).map((m) => (m[2] ?? m[3] ?? m[4])!))];
    if (numbers.length === 0 && values.length === 0) return undefined;
    const request = this.core.active()?.row.query ?? '';
    // (a name written as a plain word is the subject where the sentence opens with it and a verb: "redirect sets status 301" — red team adv83)
    const opening = SUBJECT_FIRST.exec(plain)?.[1] ?? CJK_SUBJECT.exec(plain)?.[1];
    const subject = [...plain.matchAll(CODE_NAME)].map((m) => m[0]).find((n) => this.defsNamed(n).some((d) => !d.local))
      ?? (opening && this.defsNamed(opening).some((d) => !d.local) ? opening : undefined);
    if (!subject) return undefined;
    const defs = this.defsNamed(subject).filter((d) => !d.local);
    for (const n of numbers) {
      if (new RegExp(`(?<!\\d)${n}(?!\\d)`).test(request)) continue;
      const { own, helpers } = this.writtenIn(defs, new RegExp(`(?<![\\w.])${n}(?![\\w])`));
      if (!own && helpers.length === 0) return `${subject} and ${n}: ${n} is written nowhere in ${subject}'s code nor in the code it calls`;
    }
    for (const v of values) {
      if (request.toLowerCase().includes(v.toLowerCase())) continue;
      const { own, helpers } = this.writtenIn(defs, (code) => code.toLowerCase().includes(v.toLowerCase()));
      if (!own && helpers.length === 0) return `${subject} and '${v}': '${v}' is written nowhere in ${subject}'s code nor in the code it calls`;
    }
    return undefined;
  }

  /**
   * "A returns X" where no code of A returns a value (red team adv79: "res.redirect returns the
   * Location header value" was FACT; it returns nothing). An async function, a generator and an arrow
   * with an expression body return without the word; a declaration without a body is left alone.
   */
  private wrongReturn(sentence: string): string | undefined {
    for (const m of sentence.matchAll(RETURNS)) {
      if (/(?:\b(?:not|never|no\s+longer)|n['’]t)\s*$/i.test(sentence.slice(0, m.index!))) continue;
      // "A returns X when C": X returned only in a block that does not hold in case C
      const named = this.defsNamed(m[1]!).filter((d) => !d.local);
      const inCase = /^`?([A-Za-z_$][\w$.]*)`?(?:\(\))?\s+(?:only\s+)?(?:when|whenever|if|once)\s+(.+)$/.exec(m[2]!.trim());
      if (inCase) {
        const own = named.slice(0, 16).map((d) => ({ path: d.path, start: d.line, lines: this.codeLinesOf(d) }));
        const wrong = wrongReturnCase(m[1]!, inCase[1]!.split('.').pop()!, inCase[2]!, own);
        if (wrong) return wrong;
      }
      // (languages where a value is returned only by `return`: a Rust tail expression, Go's named results, a Python docstring — red team adv81)
      const defs = named.filter((d) => /^(?:function|method)$/.test(d.kind) && /\.(?:[cm]?[jt]sx?|java)$/.test(d.path));
      if (defs.length === 0) continue;
      const returnsNothing = (d: SymbolRow) => {
        const code = this.codeLinesOf(d).join('\n');
        if (!code || !/[{:]\s*$/m.test(code.split('\n').slice(0, 5).join('\n'))) return false;
        if (/\b(?:async|yield)\b|function\s*\*|\*\s*\[?Symbol/.test(code) || ownExpressionArrow(code)) return false;
        return !/\breturn\s+(?![;}\s])|\breturn\s*\(/.test(code);
      };
      if (defs.every(returnsNothing)) return `${m[1]} returns ${m[2]!.trim().slice(0, 60)}, and its code returns no value`;
    }
    return undefined;
  }

  /**
   * "A calls B before C" (or after): the order of the first uses of B and C in A's code, where the
   * index holds both (red team adv79: "res.redirect calls res.status before it calls res.location" was
   * FACT; res.location comes first). Said with a negation, or of names it does not find there, it is left alone.
   */
  private wrongOrder(sentence: string): string | undefined {
    for (const m of orderedCalls(sentence)) {
      if (deniedAt(sentence, m.index, m.text)) continue;
      const { a, b, when, c } = m;
      const defs = this.defsNamed(a).filter((d) => !d.local);
      if (defs.length === 0) continue;
      // (a use resolved to another declaration of the name is not B's: res.send's `this.get` is no `app.get` — red team adv81)
      const first = this.core.project.db.prepare(`SELECT MIN(r.line * 100000 + r.col) AS at FROM refs r JOIN symbols s ON s.id = ? WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line AND r.name IN (?, ?)
        AND (${GUESSED} OR r.symbol_id IN (SELECT value FROM json_each(?)))`);
      const idsOf = (n: string) => JSON.stringify(this.defsNamed(n).map((x) => x.id));
      for (const d of defs) {
        // (a private `#name` is referred to with its `#`: red team adv93's order of ky's #-methods went unchecked)
        const [atB, atC] = [b, c].map((n) => (first.get(d.id, bare(n), `#${bare(n)}`, idsOf(n)) as { at: number | null }).at);
        if (atB == null || atC == null || atB === atC) continue;
        if ((when === 'before') !== (atB < atC)) return `${a} calls ${bare(b)} ${when} ${bare(c)}, and its code uses ${bare(atB < atC ? b : c)} first (line ${Math.floor(Math.min(atB, atC) / 100000)})`;
      }
    }
    return undefined;
  }

  /** A declaration's code, comments and docstrings blanked. */
  private codeLinesOf(d: { path: string; line: number; end_line: number }): string[] {
    return withoutCommentLines(this.core.project.lines(d.path).slice(d.line - 1, Math.min(d.end_line, d.line + 2000)));
  }

  /**
   * "A passes shell=True to B": where A's code passes that keyword only with another value (red team
   * adv89: `shell=False` in _pipepager's Popen call). Said with a negation, left alone.
   */
  private wrongKeyword(sentence: string): string | undefined {
    const m = /(?<![\w$.])([A-Za-z_$][\w$.]*)\s+(?:passes|sets|calls\s+[\w$.]+\s+with)\s+`?([A-Za-z_]\w*)\s*=\s*([\w."'-]+?)`?(?=[\s,.;)]|$)/.exec(sentence);
    if (!m || deniedAt(sentence, m.index, m[0])) return undefined;
    const [, a, key, value] = m;
    const defs = this.defsNamed(a!).filter((d) => !d.local);
    if (defs.length === 0) return undefined;
    const given = new RegExp(String.raw`(?<![\w$.])${key}\s*=(?!=)\s*([^,)\n]+)`, 'g');
    const values = defs.flatMap((d) => this.codeLinesOf(d).flatMap((l) => [...l.matchAll(given)].map((g) => g[1]!.trim())));
    const norm = (v: string) => v.replace(/^['"]|['"]$/g, '').toLowerCase();
    if (values.length === 0 || values.some((v) => norm(v) === norm(value!))) return undefined;
    return `${a} passes ${key}=${value}, and its code gives ${key} only as ${[...new Set(values)].slice(0, 3).join(', ')}`;
  }

  /**
   * A call said of A's code as code ("A returns Path(cmd).resolve()", "resolves symlinks with
   * Path.resolve"): each method or function it calls must be called in A's code or in the code A
   * calls one step down ("A calls B" is wrongRelation's, through the index and a few calls deep) (red team adv89: `.resolve(` stands nowhere in _resolve_pager_command, which
   * returns `Path(cmd_filepath).absolute()`; the word "resolving" stands only in a comment).
   */
  private wrongCallForm(sentence: string): string | undefined {
    const plain = sentence.replace(/`[^`\n]*`/g, ' ');
    const m = CALL_FORM_SUBJECT.exec(plain);
    if (!m || deniedAt(plain, m.index, m[0])) return undefined;
    const defs = this.defsNamed(m[1]!).filter((d) => !d.local && /^(?:function|method)$/.test(d.kind));
    if (defs.length === 0) return undefined;
    const rest = plain.slice(m.index + m[0].length);
    const called = [
      // an expression written with its calls: Path(cmd).resolve(), shutil.which(name)
      ...[...rest.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\([^()]{0,60}\)(?:\.[A-Za-z_$][\w$]*\([^()]{0,60}\))*/g)]
        .flatMap((x) => [...x[0].matchAll(/([A-Za-z_$][\w$]*)\(/g)].map((c) => c[1]!)),
      // a dotted name it does it "with" or "using": Path.resolve
      ...[...rest.matchAll(/\b(?:with|using|via|through|by\s+calling)\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?![\w$(])/g)].map((x) => x[1]!.split('.').pop()!),
    ].filter((n) => n.length > 1 && !/^(?:if|for|while|return|print|len|str|int|list|dict|set|tuple|bool|String|Number|Array|Object|Boolean)$/.test(n));
    for (const name of [...new Set(called)]) {
      const { own, helpers } = this.writtenIn(defs, new RegExp(String.raw`(?<![\w$])${name.replace(/[$]/g, '\\$')}\s*\(`));
      if (!own && helpers.length === 0) return `the claim has ${m[1]}'s code call ${name}(…) ("${m[2]} … ${name}"), and ${name}( is called nowhere in ${m[1]}'s code nor in the code it calls`;
    }
    return undefined;
  }

  /**
   * "A closes / flushes / terminates / unlinks …": a deed whose code is a call that says it (close(),
   * end(), destroy(), a `with` block for closing) in A's code — its own name on its definition line
   * left out — or in the code it calls (red team adv89: "_PagerWriter.close closes the underlying
   * stream", whose code only flushes it).
   */
  private wrongDeed(sentence: string): string | undefined {
    const m = DEED.exec(sentence);
    // (denied before the deed, not in the case after it: "… when abortController is not given")
    if (!m || deniedAt(sentence, m.index, m[0].slice(0, m[0].length - m[3]!.length))) return undefined;
    const defs = this.defsNamed(m[1]!).filter((d) => !d.local && /^(?:function|method)$/.test(d.kind));
    if (defs.length === 0) return undefined;
    const deed = DEEDS.find(([verb]) => verb.test(m[2]!));
    if (!deed) return undefined;
    const own = new RegExp(String.raw`(?<![\w$.])${bare(m[1]!).replace(/[$]/g, '\\$')}\s*\(`);
    const { own: mine, helpers } = this.writtenIn(defs, (code) => deed[1].test(code.replace(own, '(')));
    // in a case: the lines of A's own code that do it must run in that case (red team adv93: abort() under `if (abortController)`)
    const when = /^\s*(?:[^,]*?\s)?(?:only\s+)?(?:when|whenever|if|once)\s+(.+)$/i.exec(m[3]!);
    if (mine && when) {
      const spans = defs.map((d) => ({ path: d.path, start: d.line, lines: this.codeLinesOf(d).map((l, i) => (i === 0 ? l.replace(own, '(') : l)) }));
      return wrongDeedCase(m[1]!, m[2]!.toLowerCase(), deed[1], when[1]!, spans);
    }
    if (mine || helpers.length > 0) return undefined;
    return `${m[1]} ${m[2]!.toLowerCase()} ${m[3]!.trim().slice(0, 60)}, and neither its code nor the code it calls makes such a call (${deed[2]})`;
  }

  /** "A is decorated with D": the decorators written right above A's definition (red team adv89). */
  private wrongDecorator(sentence: string): string | undefined {
    const m = /(?<![\w$.])([A-Za-z_$][\w$.]*)\s+is\s+(?:decorated|wrapped)\s+(?:with|by)\s+@?([A-Za-z_$][\w$.]*)/.exec(sentence);
    if (!m || deniedAt(sentence, m.index, m[0])) return undefined;
    const defs = this.defsNamed(m[1]!).filter((d) => !d.local);
    if (defs.length === 0) return undefined;
    const named = m[2]!.replace(/\.+$/, '');
    const last = named.split('.').pop()!;
    for (const d of defs) {
      const all = this.core.project.lines(d.path);
      for (let i = d.line - 1; i >= 0 && i < all.length; i--) {
        const l = all[i]!.trim();
        if (i === d.line - 1 && !l.startsWith('@')) continue; // the definition's own line
        if (!l.startsWith('@')) break;
        if (new RegExp(String.raw`^@(?:[\w$]+\.)*${last}(?![\w$])`).test(l)) return undefined;
      }
    }
    return `${m[1]} is decorated with ${named}, and no such decorator stands above its definition`;
  }

  /**
   * "A does not call B", "B is never called by A", said without a condition, where A's own code
   * holds a call the index resolved to B (red team adv83: "redirect is not called by back" was FACT;
   * back calls it twice). A denial with a condition ("when the origin differs", "unless …",
   * "directly … only") is left alone: it may be true of the case it names.
   */
  private wrongDenial(sentence: string): string | undefined {
    // "… when C": a call that runs whatever holds refutes it — one with no condition on the way, and,
    // for a case of an exception, one in a finally block (red team adv89: "_tempfilepager does not
    // call os.unlink when an exception is raised", its unlink in `finally:`). Any other restriction
    // ("only", "directly", "twice") may make a denial true: left alone.
    const when = WHEN_CASE.exec(sentence);
    const rest = when ? sentence.slice(0, when.index) : sentence;
    if (CONDITIONED.test(rest)) return undefined;
    const exceptional = when !== null && EXCEPTIONAL.test(when[1]!);
    // (or, for a case of a thing there or not, in a block whose test says the case holds: abort() under
    // `if (abortController)` for "… when abortController is given" — red team adv93)
    let under: string | undefined;
    const runs = (lines: string[], at: number): boolean => {
      under = undefined;
      if (!when || (guardsOf(lines, at).length === 0 && (!exceptional || inFinally(lines, at)))) return true;
      // (an error's case too, where the block tests for that error by name: `instanceof ForceRetryError`)
      under = caseHoldsAt(blocksOf(lines, at), when[1]!);
      return under !== undefined;
    };
    const how0 = !when ? '' : exceptional ? ' in a finally block, which runs whether an exception is raised or not' : ' with no condition on the way: it runs in that case too';
    const how = () => (under && when ? ` under '${under.slice(0, 80)}', which holds in that case` : how0);
    const said = (a: string, b: string) => `${a} does not call ${b}${when ? ` ${when[0].trim()}` : ''}`;
    for (const m of [...rest.matchAll(DENIED_CALL), ...rest.matchAll(DENIED_CALLED)]) {
      const [a, b] = m.groups!.a ? [m.groups!.a, m.groups!.b!] : [m.groups!.a2!, m.groups!.b2!];
      const from = this.defsNamed(a).filter((d) => !d.local);
      const to = this.defsNamed(b);
      if (from.length === 0) continue;
      if (to.length === 0) {
        // a function of a library or the language (c.terminate(), os.unlink()): its call written in A's code (red team adv89)
        const written = new RegExp(String.raw`(?<![\w$])${b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\s*\(|\.${bare(b).replace(/[$]/g, '\\$')}\s*\(`);
        for (const d of from) {
          const lines = this.codeLinesOf(d);
          const at = lines.findIndex((l, i) => written.test(codeOfLine(l)) && runs(lines, i));
          if (at >= 0) return `${said(a, b)}, and its code calls it at ${d.path}:${d.line + at}${how()}`;
        }
        continue;
      }
      const call = this.core.project.db.prepare(`SELECT r.line FROM refs r JOIN symbols s ON s.id = ? WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line
        AND r.role = 'call' AND r.symbol_id IN (SELECT value FROM json_each(?)) LIMIT 16`);
      const ids = JSON.stringify(to.map((d) => d.id));
      for (const d of from) {
        const lines = when ? this.codeLinesOf(d) : [];
        const hit = (call.all(d.id, ids) as { line: number }[]).find((h) => runs(lines, h.line - d.line));
        if (hit) return `${said(a, bare(b))}, and its code calls it at ${d.path}:${hit.line}${how()}`;
      }
    }
    return undefined;
  }

  /**
   * What a sentence says a declaration's code does to a header, a field or a value (sets, removes,
   * checks it; in a case, only in a case, before or after something else), against that code
   * (code-effects.ts; red team adv85: twelve such claims were FACT).
   */
  private wrongEffectOf(sentence: string): string | undefined {
    for (const c of effectClaims(sentence)) {
      const defs = this.defsNamed(c.subject).filter((d) => !d.local).slice(0, 16);
      if (defs.length === 0) continue;
      const span = (d: { path: string; line: number; end_line: number }): CodeSpan => ({
        path: d.path, start: d.line, lines: this.codeLinesOf(d),
      });
      const own = defs.map(span).filter((s) => s.lines.length > 0);
      if (own.length === 0) continue;
      const callees = this.core.project.db.prepare(`SELECT DISTINCT f.path, c.line, c.end_line FROM refs r JOIN symbols s ON s.id = ? JOIN symbols c ON c.id = r.symbol_id JOIN files f ON f.id = c.file_id
        WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line AND c.id <> s.id LIMIT 50`);
      const helpers = defs.flatMap((d) => callees.all(d.id) as { path: string; line: number; end_line: number }[]).map(span);
      const wrong = wrongEffect(c, own, helpers);
      if (wrong) return wrong;
    }
    return undefined;
  }

  /**
   * "A is async", "A is an asynchronous function": A's code must say so
   * (`async`, a Promise, `await`, `.then(`, a Future or a Task) — red team adv83: "back is an async
   * function that returns a Promise" was FACT for a synchronous back.
   */
  private wrongAsync(sentence: string): string | undefined {
    for (const m of sentence.matchAll(ASYNC_CLAIM)) {
      if (deniedAt(sentence, m.index!, m[0])) continue;
      const defs = this.defsNamed(m[1]!).filter((d) => !d.local && /^(?:function|method)$/.test(d.kind));
      if (defs.length === 0) continue;
      const { own } = this.writtenIn(defs, (code) => /\b(?:async|await|Promise|Future|Task|CompletableFuture|goroutine)\b|\.then\(|\bgo\s+func/.test(code));
      if (!own) return `${m[1]} is asynchronous, and its code has no async, await or Promise`;
    }
    return undefined;
  }

  /**
   * "N is declared at F:L", "N is defined on line L of F", 「N は F の L 行目で宣言されている」: a
   * declaration of N in F must span line L (red team adv83: "redirect is declared at
   * lib/response.js:420" was FACT; it is at 302). Of a name the index does not know, or of a file it
   * does not declare N in (the placement check's business), nothing is said.
   */
  private wrongLine(sentence: string): string | undefined {
    for (const m of [...sentence.matchAll(DECLARED_AT), ...sentence.matchAll(DECLARED_ON_LINE), ...sentence.matchAll(DECLARED_AT_JA)]) {
      const g = m.groups!;
      if (/(?:\b(?:not|never)|n['’]t)\b/i.test(m[0]) || /ない|ません/u.test(m[0])) continue;
      const [name, file, line] = [g.name!, g.file!.toLowerCase(), Number(g.line ?? g.line2)];
      const inFile = this.defsNamed(name).filter((d) => d.path.toLowerCase() === file || d.path.toLowerCase().endsWith(`/${file}`));
      if (inFile.length === 0 || inFile.some((d) => d.line <= line && line <= d.end_line)) continue;
      return `${name} is declared at ${g.file}:${line}, and the index has it at ${inFile.map((d) => `${d.path}:${d.line}`).slice(0, 3).join(', ')}`;
    }
    return undefined;
  }

  /**
   * Where a hypothesis places declarations: each name the index declares goes with each file written
   * in its sentence where the words between the two (an aside left out) say a place ("N is declared in F",
   * "the N helper is defined in F", "N (declared in F)", "F contains N", "F is where N is written",
   * "N is in F", "N: F" — red teams adv36–adv42 found each wording) and none says a use ("N, declared
   * in F, throws …" places N; "F calls N" does not). A negation between them, or just before the
   * file, denies that place ("declared in A, not B").
   */
  private placedNear(text: string): { name: string; file: string; denied: boolean; strong: boolean }[] {
    const out: { name: string; file: string; denied: boolean; strong: boolean }[] = [];
    for (const sentence of text.split(/[;!?]|\.\s/)) {
      const files = [...this.filesNamed(sentence)];
      if (files.length === 0) continue;
      for (const m of sentence.matchAll(/[A-Za-z_$][\w$]*(?:(?:\.|#)[A-Za-z_$][\w$]*)*/g)) {
        const name = m[0];
        if (files.some((f) => m.index! >= f.at && m.index! < f.at + f.text.length) || name.length < 3 || PROSE.has(name.toLowerCase())) continue;
        if (this.core.definitionsOf(bare(name)).length === 0 || USES_OF.test(sentence.slice(Math.max(0, m.index! - 40), m.index!))) continue;
        // every file of the sentence, not only the nearest: a decoy nearer the name ("F1 mentions N,
        // which is declared in F2") placed nothing, and F2 went unchecked (red team adv43)
        for (const f of files) {
          const [from, to] = f.at > m.index! ? [m.index! + name.length, f.at] : [f.at + f.text.length, m.index!];
          // an aside between them says nothing of the place: "N, which axios uses for every request, is declared in F", "N (see … F1) is declared in F2"
          // (any aside between commas: "N, used for timeouts, is declared in F" — red team adv45)
          const between = sentence.slice(from, to).replace(/\([^()]*\)/g, ' ').replace(/,[^,]*,/g, ' ');
          // ("N — F", "N → F": red team adv48)
          const adjacent = /^[\s:(\[\-—–→>]*$/.test(between);
          // a few words with no use and no other clause say some tie of N to F ("N's home: F" — adv48)
          const loose = LOOSELY_PLACING.test(between) || APPOSITIVE.test(sentence.slice(from, to)) || SHORT_TIE.test(between.trim()) && !NOT_A_TIE.test(between);
          // "N is a (private) method of the C class in F": a member, so declared there (adv48)
          const member = MEMBER_OF.test(between);
          // a use between them says the file uses N — unless a place is said first, with no other file
          // between ("N is declared in — and called from — F" still places N in F: red team adv46)
          const useAt = between.search(USING), declAt = between.search(DECLARES);
          const placesFirst = declAt >= 0 && declAt < useAt && !files.some((o) => o !== f && o.at > from && o.at < to);
          if ((useAt >= 0 && !placesFirst) || (!adjacent && !DECLARING.test(between) && !loose)) continue;
          // a negation denies the file it stands before, not one named after another file ("not declared
          // in A but in B" places N in B — red team adv44): the words from the last other file on
          const others = files.filter((o) => o !== f && o.at > from && o.at < to).map((o) => o.at + o.text.length);
          const own = others.length > 0 ? sentence.slice(Math.max(...others), to) : between;
          // (or a negation just before the name: "pLimit, not limitFunction, is declared in F" — red team adv46)
          const denied = DENYING.test(own) || DENYING.test(sentence.slice(Math.max(0, f.at - 14), f.at)) || /\b(?:not|never)\s+$/i.test(sentence.slice(Math.max(0, m.index! - 10), m.index!));
          // (the wordings read as places before adv44 stay strict; the looser ones are wrong only where F has nothing of N)
          out.push({ name, file: f.file, denied, strong: adjacent || member || DECLARING.test(between) });
        }
      }
    }
    return out;
  }

  /**
   * The files a sentence names: paths with an extension, and paths without one that name a file of
   * the project by its stem ("the lib/helpers/combineURLs module": red team adv40).
   */
  private *filesNamed(sentence: string): Generator<{ file: string; text: string; at: number }> {
    const seen: [number, number][] = [];
    for (const m of sentence.matchAll(FILE_NAMED_AT)) {
      seen.push([m.index!, m.index! + m[0].length]);
      yield { file: m[0], text: m[0], at: m.index! };
    }
    for (const m of sentence.matchAll(STEM_NAMED_AT)) {
      if (seen.some(([a, b]) => m.index! >= a && m.index! < b)) continue;
      const stem = m[0].replace(/^\.\//, '').replace(/[\\%_]/g, (c) => `\\${c}`);
      const row = this.core.project.db.prepare("SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' LIMIT 1").get(`${stem}.%`, `%/${stem}.%`) as { path: string } | undefined;
      if (row) yield { file: row.path, text: m[0], at: m.index! };
    }
    // a module written dotted, as Python names it: "the requests.adapters module" (red team adv50)
    for (const m of sentence.matchAll(DOTTED_MODULE)) {
      if (seen.some(([a, b]) => m.index! >= a && m.index! < b)) continue;
      const stem = m[1]!.replace(/\./g, '/').replace(/[\\%_]/g, (c) => `\\${c}`);
      const row = this.core.project.db.prepare("SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' LIMIT 1")
        .get(`${stem}.%`, `%/${stem}.%`, `${stem}/__init__.%`, `%/${stem}/__init__.%`) as { path: string } | undefined;
      if (row) yield { file: row.path, text: m[1]!, at: m.index! };
    }
  }

  /**
   * Does a file (by path or a path ending with it) use a name: a reference the index holds there,
   * resolved to one of `ids` or to nothing (a qualified HTTPAdapter.close is not Response.close's use — red team adv50)
   */
  private usesName(file: string, name: string, ids: readonly number[]): boolean {
    const lower = file.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    return !!this.core.project.db.prepare(`SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ? AND (lower(f.path) = ? OR lower(f.path) LIKE ? ESCAPE '\\')
      AND (${GUESSED} OR r.symbol_id IN (${ids.map(() => '?').join(',') || 'NULL'})) LIMIT 1`).get(name, file.toLowerCase(), `%/${lower}`, ...ids);
  }

  /**
   * A call or an override the hypothesis states between two declarations the index knows, which the
   * index does not hold: "A calls B" where no code of A names B, "A overrides B" where A's class does
   * not extend B's (red team adv50: "HTTPAdapter.build_response calls Session.send and overrides it"
   * was confirmed). Said with a negation, or of names the index does not know, it is left alone.
   */
  private wrongRelation(text: string): string | undefined {
    for (const sentence of text.split(/[;!?。！？；]|\.\s/)) {
      // (a Japanese or Chinese claim is checked as its English form: red team adv83's 「attachment が redirect を呼ぶ」 passed)
      for (const said of [sentence, ...cjkClaims(sentence)]) {
        const wrong = this.wrongInSentence(said);
        if (wrong) return wrong;
      }
    }
    return undefined;
  }

  private wrongInSentence(sentence: string): string | undefined {
    const db = this.core.project.db;
    const thrown = this.wrongThrow(sentence) ?? this.wrongNumber(sentence) ?? this.wrongOrder(sentence) ?? this.wrongReturn(sentence) ?? this.wrongLine(sentence) ?? this.wrongAsync(sentence) ?? this.wrongDenial(sentence) ?? this.wrongEffectOf(sentence)
      ?? this.wrongKeyword(sentence) ?? this.wrongDecorator(sentence) ?? this.wrongCallForm(sentence) ?? this.wrongDeed(sentence);
    if (thrown) return thrown;
    for (const m of sentence.matchAll(RELATION)) {
      if (deniedAt(sentence, m.index!, m[0])) continue;
      const verb0 = m[2]!.toLowerCase().replace(/\s+/g, ' ');
      // "B is called by A": A calls B
      const passive = /^is (?:called|invoked|triggered|run|used)/.test(verb0);
      // ("A runs B and then calls C": the subject of "calls C" is A — red team adv67 had C taken as called by "and")
      const subject = CONJUNCTION.test(m[1]!) ? this.subjectBefore(sentence.slice(0, m.index!)) : m[1]!;
      if (subject === undefined) continue;
      const [a, b] = passive ? [m[3]!, subject] : [subject, m[3]!];
      const claims = [passive ? 'calls' : verb0, ...[...(m[4] ?? '').matchAll(/(calls|invokes|overrides)/gi)].map((x) => x[1]!.toLowerCase())];
      const from = this.defsNamed(a);
      const to = this.defsNamed(b);
      if (from.length === 0 || to.length === 0) continue;
      for (const verb of claims) {
        if (/^(?:extends|inherits from|derives from|subclasses|is a subclass of)$/.test(verb)) {
          // B among the classes A extends, as the index linked them
          const above = new Set(from.flatMap((d) => [...this.withAncestors(d.name)].filter((n) => n !== d.name)));
          if (!to.some((d) => above.has(d.name))) return `${a} ${verb} ${b}, and the index links no such base`;
        } else if (verb !== 'overrides') {
          // a use of B's name in A's code: resolved to B, or a call the index could only guess
          // (or a call of what B overrides, which runs B: Session.send's adapter.send() is BaseAdapter.send)
          const names = [...new Set(to.map((d) => d.name))];
          const ids = to.map((d) => d.id);
          const bases = [...new Set(to.flatMap((d) => (d.container_name ? [...this.withAncestors(d.container_name.split('.').pop()!)] : [])))];
          const usesB = db.prepare(`SELECT r.symbol_id AS sid, r.name AS name, r.line AS line, r.col AS col, f.path AS path FROM refs r JOIN symbols s ON s.id = ? JOIN files f ON f.id = r.file_id
            LEFT JOIN symbols t ON t.id = r.symbol_id WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line
            AND r.name IN (${names.map(() => '?').join(',')}) AND (${GUESSED} OR r.symbol_id IN (${ids.map(() => '?').join(',')}) OR t.container_name IN (${bases.map(() => '?').join(',') || 'NULL'})) LIMIT 64`);
          // (a call the index could only guess counts in A's own code; further down, the receiver is
          // seldom known: red team adv89's "get_pager_file calls _PagerWriter.close" was taken from a
          // pipe's close() two calls down)
          const useOfB = (u: { sid: number | null; name: string; line: number; col: number; path: string }, depth: number) => u.sid !== null || (depth === 0 && this.guessedMayBe(u, to));
          // (through the code it calls, a few calls deep: "Session.request calls HTTPAdapter.send" by way of Session.send;
          // a call of a class runs its initialiser, not every method it holds — adv89: _PagerWriter(…) is no call of its close)
          const callees = db.prepare(`SELECT DISTINCT COALESCE(i.id, r.symbol_id) AS id FROM refs r JOIN symbols s ON s.id = ? JOIN symbols t ON t.id = r.symbol_id
            LEFT JOIN symbols i ON t.kind IN ('class', 'struct') AND i.container_id = t.id AND i.name IN ('constructor', '__init__', '__new__', 'initialize')
            WHERE r.file_id = s.file_id AND r.line BETWEEN s.line AND s.end_line AND (t.kind NOT IN ('class', 'struct') OR i.id IS NOT NULL) LIMIT 200`);
          let frontier = from.map((d) => d.id);
          const seen = new Set(frontier);
          let uses = false;
          for (let depth = 0; depth < 3 && frontier.length > 0 && !uses && seen.size < 2000; depth++) {
            uses = frontier.some((id) => (usesB.all(id, ...names, ...ids, ...bases) as Parameters<typeof useOfB>[0][]).some((u) => useOfB(u, depth)));
            frontier = frontier.flatMap((id) => (callees.all(id) as { id: number }[]).map((x) => x.id)).filter((id) => !seen.has(id) && (seen.add(id), true));
          }
          if (!uses) return `${a} ${verb} ${b}, and the index holds no use of ${b} in ${a}'s code`;
        } else {
          // B's class among the classes A's class extends, and the same name
          const extendsB = from.some((f) => {
            const own = (f.container_name ?? '').split('.').pop()!;
            const above = new Set([...this.withAncestors(own)].filter((o) => o !== own));
            return to.some((d) => d.name === f.name && above.has((d.container_name ?? '').split('.').pop()!));
          });
          if (!extendsB) return `${a} overrides ${b}, and ${a}'s class does not extend one that declares ${b}`;
        }
      }
    }
    return undefined;
  }

  /**
   * A piece of code a hypothesis quotes in backquotes that is not where it says: near the line of a
   * `file:line` it gives (a few lines either side), else in a file it or its evidence names, else in
   * a file of the project. A quote of one name is a name (the other checks); blanks are compared loosely.
   */
  private misquoted(text: string, evidenceFiles: readonly string[]): { fragment: string; where: string } | undefined {
    const quoted = [...text.matchAll(/`([^`\n]+)`/g)].filter((m) => !ABSENT_BEFORE.test(text.slice(Math.max(0, m.index! - 40), m.index!))).map((m) => m[1]!.trim());
    // code written after a cited line without backquotes: "at lib/response.js:834: if (status < 300) throw …" (red team adv69)
    const after = [...text.matchAll(/[\w@$.\/-]+\.[A-Za-z][\w]{0,5}:\d+(?::|\s+(?:reads|says|has|holds|contains|does))\s+([^`\n]*?[(){}=;<>|&][^`\n]*)$/gm)].map((m) => m[1]!.trim());
    const fragments = [...quoted, ...after].filter((f) => !/^[#\w$.]+(?:\(\))?$/.test(f));
    if (fragments.length === 0) return undefined;
    // (only code: a changelog line quoted as `res.redirect(url, status)` says what a release changed,
    // not what the code does — red team adv77 had it FACT)
    // (configuration — package.json, a YAML file — decides behaviour, and may be quoted)
    const isCode = (file: string) => !DOCUMENT_FILE.test(file);
    const notCode: string[] = [];
    const lines = (rel: string): { path: string; lines: string[] } | undefined => {
      const file = projectFile(this.core.project, rel);
      if (file === undefined) return undefined;
      if (!isCode(file)) {
        if (!notCode.includes(file)) notCode.push(file);
        return undefined;
      }
      try {
        return { path: file, lines: fs.readFileSync(path.join(this.core.project.root, file), 'utf8').split('\n') };
      } catch {
        return undefined;
      }
    };
    // a cited line's window: a few lines either side, and the declaration that starts there or holds it (adv69's friction: a quote 6 lines into res.status)
    const around = this.core.project.db.prepare('SELECT s.line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.line <= ? AND s.end_line >= ? ORDER BY s.end_line - s.line LIMIT 1');
    const window = (file: string, line: number): string | undefined => {
      const f = lines(file);
      if (!f) return undefined;
      const d = around.get(f.path, line, line) as { line: number; end_line: number } | undefined;
      const [a, b] = d && d.end_line - d.line <= QUOTE_DECLARATION_MAX ? [Math.min(line - QUOTE_SLACK, d.line), Math.max(line + QUOTE_SLACK, d.end_line)] : [line - QUOTE_SLACK, line + QUOTE_SLACK];
      return f.lines.slice(Math.max(0, a - 1), b).join('\n');
    };
    const at = [...text.matchAll(/((?:\.\/)?[\w@$.\/-]+\.[A-Za-z][\w]{0,5}):(\d+)/g)].map((m) => ({ file: m[1]!.replace(/^\.\//, ''), line: Number(m[2]) }));
    const named = [...new Set([...[...text.matchAll(FILE_PATH)].map((m) => m[0].replace(/^\.\//, '')), ...evidenceFiles])];
    // the declarations the hypothesis names: a quote it gives them is inside one of them (adv69 gave
    // res.redirect a line of sendFile's)
    const owners = [...new Set([...text.replace(/`[^`\n]*`/g, ' ').matchAll(CODE_NAME)].map((m) => m[0]))].flatMap((n) => this.defsNamed(n)).slice(0, 20);
    for (const fragment of fragments) {
      // (a quote from a comment is no code: a JSDoc example made "301 by default" FACT — red team adv76)
      const holds = (t: string) => holdsInOrder(fragment, withoutCommentLines(t.split('\n')).join('\n'));
      if (at.length > 0) {
        if (!at.some(({ file, line }) => holds(window(file, line) ?? ''))) return { fragment, where: at.map((x) => `${x.file}:${x.line}`).join(', ') + (notCode.length > 0 ? ` (${notCode.slice(0, 2).join(', ')} is no code: quote the code itself)` : '') };
      // (a quote that names one of them is a use of it, wherever it stands: "formatPrice is called as `formatPrice(…)`")
      } else if (owners.length > 0 && !owners.some((d) => fragment.includes(d.name))) {
        if (!owners.some((d) => holds(lines(d.path)?.lines.slice(d.line - 1, d.end_line).join('\n') ?? ''))) return { fragment, where: `the code of ${[...new Set(owners.map((d) => (d.container_name ? `${d.container_name}.${d.name}` : d.name)))].slice(0, 3).join(', ')}` };
      } else if (named.length > 0 && !named.some((f) => holds(lines(f)?.lines.join('\n') ?? ''))) return { fragment, where: named.join(', ') + (notCode.length > 0 ? ` (${notCode.slice(0, 2).join(', ')} is no code: quote the code itself)` : '') };
    }
    return undefined;
  }

  /** The first name of a clause's words that the index declares: the subject a conjunction ("and then calls") goes on from. */
  private subjectBefore(words: string): string | undefined {
    // (the clause's own subject, after an aside: "Like redirect, res.location sets … and then calls format"
    // is location's claim — red team adv69 had it read as redirect's)
    for (const part of words.split(',').reverse()) for (const m of part.matchAll(new RegExp(REL_NAME, 'g'))) if (this.defsNamed(m[1]!).length > 0) return m[1]!;
    return undefined;
  }

  /**
   * May a call the index could only guess by its name be a call of one of `to`? Not where its
   * receiver names another owner of that name and none of theirs: res.json's `app.get('json escape')`
   * is no call of `req.get` (red team adv86). A receiver such as `this`, or none, may be any.
   */
  private guessedMayBe(u: { name: string; line: number; col: number; path: string }, to: SymbolRow[]): boolean {
    const before = (this.core.project.lines(u.path)[u.line - 1] ?? '').slice(0, Math.max(0, u.col - 1));
    const receiver = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\??\.\s*$/.exec(before)?.[1] ?? /\.\s*([A-Za-z_$][\w$]*)\s*\??\.\s*$/.exec(before)?.[1];
    if (!receiver || /^(?:this|self|that|_this|me|vm)$/.test(receiver)) return true;
    const fits = (owner: string | null) => {
      const [r, o] = [receiver.toLowerCase(), (owner ?? '').split('.').filter((x) => x !== 'prototype').pop()?.toLowerCase() ?? ''];
      return o !== '' && (r === o || o.includes(r) || r.includes(o));
    };
    if (to.some((d) => fits(d.container_name))) return true;
    const own = new Set(to.map((d) => d.id));
    return !this.core.definitionsOf(u.name).some((d) => !own.has(d.id) && fits(d.container_name));
  }

  /** The declarations a name written in a hypothesis means: `HTTPAdapter.send` is the send of HTTPAdapter, not every send (red team adv50). */
  private defsNamed(name: string): SymbolRow[] {
    // (a private `#name` is declared under that name: `calculateRetryDelay` and `#calculateRetryDelay` find it —
    // red team adv93 had every claim about ky's #-methods pass unchecked)
    const plain = this.core.definitionsOf(bare(name));
    const defs = plain.length > 0 ? plain : this.core.definitionsOf(`#${bare(name)}`);
    const parts = name.replace(/\(.*$/, '').split(/\.|::|#/).filter(Boolean);
    if (parts.length < 2) return defs;
    const owner = parts[parts.length - 2]!;
    // (a receiver that is no declaration — this, self, ctx, res — names no owner: `this.back()` is back,
    // which red team adv67 had pass every check as "this.back", a name with no declaration)
    if (this.core.definitionsOf(owner).length === 0) return defs;
    const owners = this.withAncestors(owner);
    return defs.filter((d) => owners.has((d.container_name ?? '').split('.').pop()!));
  }

  /** A class's name and those of the classes it extends (the bases the index linked), a few levels up. */
  private withAncestors(owner: string): Set<string> {
    const db = this.core.project.db;
    const out = new Set([owner]);
    let frontier = this.core.definitionsOf(owner).map((d) => d.id);
    for (let depth = 0; depth < 5 && frontier.length > 0; depth++) {
      const up = frontier.flatMap((id) => db.prepare('SELECT s.id, s.name FROM bases b JOIN symbols s ON s.id = b.base_symbol_id WHERE b.symbol_id = ? AND b.is_union = 0').all(id) as { id: number; name: string }[]);
      frontier = up.filter((u) => !out.has(u.name)).map((u) => (out.add(u.name), u.id));
    }
    return out;
  }

  /** Does the project hold a file by this path (or, for a bare name, by this name in some folder)? */
  private isFile = (name: string): boolean =>
    name.includes('/') ? !!this.core.project.db.prepare('SELECT 1 FROM files WHERE path = ? LIMIT 1').get(name) : this.holdsPath(name);

  /**
   * The cited files that hold nothing of the symbol the hypothesis names as code by the call's
   * target: find_definitions('total') lists Cart.total and report.ts's total, and report.ts is no
   * evidence for a hypothesis about Cart.total. A file counts when it holds the symbol's definition
   * or a use of the name the index did not resolve elsewhere. Undefined when all count, or when the
   * hypothesis names nothing as code that the index tells apart.
   */
  private filesNotAbout(hypothesis: string, target: string, files: string[]): { named: string; files: string[] } | undefined {
    const last = (x: string) => x.replace(/#|::/g, '.').replace(/\(.*$/, '').split('.').pop()!;
    const t = last(target.trim());
    let named = [...new Set([...hypothesis.matchAll(CODE_NAME)].map((m) => m[0].replace(/#|::/g, '.')))].filter((n) => last(n) === t);
    let defs = named.flatMap((n) => this.core.definitionsOf(n));
    if (named.length === 0 && /^[A-Za-z_$][\w$]*$/.test(t)) {
      // said in prose ("the total of the cart"): of the declarations of that name, the ones whose
      // container or file the hypothesis names (Cart.total, not report.ts's total)
      const words = wordStems(hypothesis);
      const all = this.core.definitionsOf(t);
      defs = all.filter((d) => [d.container_name ?? '', d.path.split('/').pop()!.replace(/\.[^.]+$/, '')].some((n) => n !== '' && [...wordStems(n)].every((w) => words.has(w))));
      if (defs.length === 0 || defs.length === all.length) return undefined;
      named = [...new Set(defs.map((d) => (d.container_name ? `${d.container_name}.${d.name}` : `${d.name} of ${d.path}`)))];
    }
    if (defs.length === 0) return undefined;
    const ids = defs.map((d) => d.id);
    const db = this.core.project.db;
    const holds = (file: string) => defs.some((d) => d.path === file) || !!db.prepare(
      `SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.name = ? AND (r.symbol_id IS NULL OR r.confidence = 'name_match' OR r.symbol_id IN (${ids.map(() => '?').join(',')})) LIMIT 1`,
    ).get(file, t, ...ids);
    const off = files.filter((f) => !holds(f));
    return off.length > 0 ? { named: named.join(', '), files: off } : undefined;
  }

  /**
   * The symbols of the index a hypothesis names as code (Cart.total, backoffLimit, a private
   * #calculateDelay), and those of them the verifying call's result showed (a definition, an
   * outline row, a reference or match on it: the ledger's record of the call). What a cited file
   * merely holds is not what the call showed: red team adv19 verified "Ky.#calculateDelay ignores
   * backoffLimit" by get_symbols of delay.ts, and adv20 named three methods beside the one a search
   * showed, and counted all four.
   */
  private namedShown(hypothesis: string, call: LedgerEntry, also: readonly string[] = []): { known: string[]; shown: string[] } {
    const names = new Set<string>(also);
    for (const m of hypothesis.matchAll(CODE_NAME)) names.add(bare(m[0]));
    for (const m of hypothesis.matchAll(/#([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
    const known = [...names].filter((n) => n && (this.core.definitionsOf(n).length > 0 || this.core.definitionsOf(`#${n}`).length > 0));
    const showed = new Set(call.symbols.map(bare));
    // a Read shows the code of the lines it returned, uses as well as declarations; so does any call
    // that showed lines (a body, a matching line: red team adv83's `url.host === this.ctx.host`,
    // shown by find_definitions' body, "showed none of host")
    const read = call.tool === READ_RECORD || call.lines ? this.readText(call) : '';
    return { known, shown: known.filter((n) => showed.has(n) || (read && new RegExp(`(?<![\\w$])${n.replace(/[$]/g, '\\$')}(?![\\w$])`).test(read))) };
  }

  /** The lines a recorded Read showed, as the file reads now (bounded: the first 2,000 lines shown). */
  private readText(call: LedgerEntry): string {
    const out: string[] = [];
    for (const [file, ranges] of Object.entries(call.lines ?? {})) {
      let text: string[];
      try {
        text = fs.readFileSync(path.join(this.core.project.root, file), 'utf8').split('\n');
      } catch {
        continue;
      }
      // (a comment shows no code: red team adv84's "compares url.origin" passed on "// … the same origin")
      for (const [a, b] of ranges) out.push(...withoutCommentLines(text.slice(a - 1, Math.min(b, a - 1 + 2000))));
    }
    return out.join('\n');
  }

  /** Why calls of a tool the agent did make do not count as evidence: before submit_semantic, or not answered (a Read that showed no code). */
  private uncounted(tool: string, session: string, mark: number): string {
    const all = this.core.store.ledger(session).filter((e) => e.tool === tool || (isReadTool(tool) && e.tool === READ_RECORD));
    const late = all.filter((e) => e.seq > mark && e.outcome !== 'ok');
    if (late.length > 0) {
      const e = late[0]!;
      const why = e.outcome === 'pending' ? 'the client\'s transcript does not show it yet' : e.summary ? quote(e.summary, 300) : `its outcome was ${e.outcome}`;
      return ` (the ${quote(tool, 60)} call made after it did not count: ${why}${isReadTool(tool) ? '; a Read counts when it shows code, not only comments or imports' : ''})`;
    }
    if (all.some((e) => e.seq <= mark)) return ` (it was called before submit_semantic; evidence comes from calls made after it)`;
    return '';
  }

  submitVerification(verified: { hypothesis: string; status: 'confirmed' | 'rejected'; evidence: { tool: string; target: string; result: string; files: string[] } }[]): Record<string, unknown> {
    const args = { verified };
    const s = this.core.gate('submit_verification', args)!;
    const ctx = s.actor.getSnapshot().context;
    const ledger = this.core.store.ledger(s.row.id).filter((e) => e.seq > ctx.semanticMark && e.outcome === 'ok');
    const pending = ctx.hypotheses.filter((h) => h.status === 'pending');
    const problems: string[] = [];
    const results: { id: number; status: 'confirmed' | 'rejected' }[] = [];
    // what the confirmations' evidence showed: it must make up what exploration lacked (machines/session.ts evidenceCovers)
    const explored = new Set(this.core.evidence(s).exploredFiles);
    const shown: Shown = { files: [], symbols: [], calls: [] };
    /** the call that confirmed each hypothesis so far (tool + arguments): one call confirms one */
    const confirmedBy = new Map<string, number>();
    for (const v of verified) {
      const h = pending.find((p) => normalize(p.text) === normalize(v.hypothesis) || v.hypothesis.trim() === `#${p.id}`);
      if (!h) {
        problems.push(`'${quote(v.hypothesis, 200)}' is not a pending hypothesis`);
        continue;
      }
      // one verdict per hypothesis: listed twice, confirmed then rejected, it counted as a
      // confirmation for moving on and ended rejected (red team adv19)
      if (verified.filter((w) => w !== v && (normalize(w.hypothesis) === normalize(h.text) || w.hypothesis.trim() === `#${h.id}`)).length > 0) {
        if (!problems.some((p) => p.startsWith(`hypothesis #${h.id} `))) problems.push(`hypothesis #${h.id} '${quote(h.text, 200)}' is listed more than once: give one verdict for it`);
        continue;
      }
      const match = matchEvidence(v.evidence, ledger);
      if (!match.ok) {
        problems.push(`evidence for '${quote(h.text, 200)}': ${match.why}${this.uncounted(v.evidence.tool, s.row.id, ctx.semanticMark)}`);
        continue;
      }
      if (!aboutHypothesis(v.evidence.target, h.text, this.isFile)) {
        problems.push(`evidence for '${quote(h.text, 200)}': ${quote(v.evidence.tool, 60)}('${quote(v.evidence.target, 200)}') is not about what the hypothesis names; check it with a call on a symbol, file or word the hypothesis mentions`);
        continue;
      }
      const elsewhere = this.filesNotAbout(h.text, v.evidence.target, v.evidence.files.map((f) => f.replace(/^\.\//, '')));
      if (elsewhere) {
        problems.push(`evidence for '${quote(h.text, 200)}': ${quote(elsewhere.files.join(', '), 300)} ${elsewhere.files.length === 1 ? 'holds' : 'hold'} another '${quote(v.evidence.target, 100)}', not ${quote(elsewhere.named, 100)} (neither its definition nor a use of it): cite the file of the result about ${quote(elsewhere.named, 100)}`);
        continue;
      }
      const files = v.evidence.files.map((f) => f.replace(/^\.\//, ''));
      // a hypothesis that names symbols as code is verified by a call that showed one of them; only
      // those it showed count toward what exploration lacked (below) — the prose itself is the
      // agent's word, which no call can confirm (README: SEMANTIC/VERIFICATION)
      const named = this.namedShown(h.text, match.call);
      if (named.known.length > 0 && named.shown.length === 0) {
        problems.push(`evidence for '${quote(h.text, 200)}': ${quote(v.evidence.tool, 60)}('${quote(v.evidence.target, 200)}') showed none of ${quote(named.known.join(', '), 200)}, which the hypothesis names: cite a call whose result shows ${named.known.length === 1 ? 'it' : 'them'}`);
        continue;
      }
      // a file the hypothesis places code in must exist: "RetryPolicy.computeBackoff in
      // source/core/RetryPolicy.ts" was confirmed by a call on a word it also names (red team adv33)
      const absent = v.status === 'confirmed' ? [...h.text.matchAll(FILE_PATH)].map((m) => m[0]).find((f) => !this.holdsPath(f.replace(/^\.\//, ''))) : undefined;
      if (absent) {
        problems.push(`'${quote(h.text, 200)}' places code in ${quote(absent, 200)}, which is no file of the project: a hypothesis confirmed as FACT names what exists`);
        continue;
      }
      // code it names must exist, and code it quotes must read so: "redirect calls validateRedirectCount"
      // (no such function) and "line 310 reads `… = 301`" (it reads 302) were FACT (red team adv67)
      const unknown = v.status === 'confirmed' ? namesNotInProject(this.core.project, codeNamesIn(h.text).slice(0, 12)) : [];
      if (unknown.length > 0) {
        problems.push(`'${quote(h.text, 200)}' names ${quote(unknown.join(', '), 200)}, which the project does not have (no symbol, identifier, file or text of that name): a hypothesis confirmed as FACT names what exists`);
        continue;
      }
      const misquote = v.status === 'confirmed' ? this.misquoted(h.text, files) : undefined;
      if (misquote) {
        problems.push(`'${quote(h.text, 200)}' quotes \`${quote(misquote.fragment, 200)}\`, which ${quote(misquote.where, 200)} does not read: a hypothesis confirmed as FACT quotes the code as it is`);
        continue;
      }
      const misplaced = v.status === 'confirmed' ? this.misplaced(h.text) : undefined;
      if (misplaced) {
        problems.push(`'${quote(h.text, 200)}' says ${quote(misplaced.name, 100)} is ${misplaced.denied ? 'not ' : ''}declared in ${quote(misplaced.file, 200)}; the index declares it in ${quote(misplaced.actual.slice(0, 3).join(', '), 300)}: a hypothesis confirmed as FACT says where code is as the code does`);
        continue;
      }
      const unrelated = v.status === 'confirmed' ? this.wrongRelation(h.text) : undefined;
      if (unrelated) {
        problems.push(`'${quote(h.text, 200)}' says ${unrelated}: a hypothesis confirmed as FACT says how code is linked as the index links it`);
        continue;
      }
      // one call confirms one hypothesis: one get_symbols of a file had confirmed two claims about it,
      // both untrue (red team adv35)
      const call = `call:${match.call.tool}\0${canonicalJson(match.call.args)}`;
      const other = v.status === 'confirmed' ? confirmedBy.get(call) : undefined;
      if (other !== undefined) {
        problems.push(`evidence for '${quote(h.text, 200)}': ${quote(v.evidence.tool, 60)}('${quote(v.evidence.target, 200)}') already confirms hypothesis #${other}: one call confirms one hypothesis — check this one with a call of its own about what it says`);
        continue;
      }
      if (v.status === 'confirmed') confirmedBy.set(call, h.id);
      results.push({ id: h.id, status: v.status });
      if (v.status === 'confirmed') {
        // what this evidence showed: explored files, named symbols (the machine leaves out what the understanding listed itself)
        for (const f of files) if (explored.has(f)) shown.files.push(f);
        const target = this.namedShown('', match.call, [bare(v.evidence.target)]).shown;
        shown.symbols.push(...named.shown, ...target);
        // a call stands for an entry point or a pattern only when it showed code the hypothesis is
        // about: a symbol it names, or the symbol the call was made on (red team adv24: two prose
        // hypotheses, each verified by a search of the README for one of its words, made up both);
        // a call is the ledger's record, not how the evidence spells its target (adv23)
        // (the same call made again is the same call: one find_references run twice had stood for
        // both an entry point and a pattern — red team adv33)
        if (named.shown.length + target.length > 0) shown.calls.push(call);
      }
    }
    for (const h of pending) if (!results.some((r) => r.id === h.id) && !problems.some((p) => p.includes(h.text))) problems.push(`hypothesis '${quote(h.text, 200)}' was not addressed`);
    if (problems.length > 0) {
      this.core.record('submit_verification', args, undefined, 'refused');
      throw new SessionError('verification_refused', problems.join('; '), {
        pending_hypotheses: pending.map((h) => ({ id: h.id, text: h.text })),
        hint: 'Check each hypothesis with an exploration tool after submit_semantic, then cite that call: evidence.tool and evidence.target as you called it, evidence.files from its result.',
      });
    }
    const to = this.core.store.transaction(() => {
      this.core.record('submit_verification', args, undefined);
      return this.core.send(this.core.require(), { type: 'SUBMIT_VERIFICATION', results, shown });
    });
    const after = this.core.require().actor.getSnapshot().context;
    const confirmed = results.filter((r) => r.status === 'confirmed').length;
    // confirmed, yet back to SEMANTIC: say what the evidence fell short of
    const credit = after.shown ? credits(after.missing, after.shown, after.listed) : undefined;
    const short = to === 'SEMANTIC' && confirmed > 0 && credit ? after.missing.map((m) => ({
      requirement: m.requirement, have: m.have, need: m.need, shown_by_evidence: credit.get(m.requirement) ?? 0,
    })).filter((m) => m.have + m.shown_by_evidence < m.need) : [];
    return {
      success: true,
      next_phase: to,
      confirmed,
      rejected: results.length - confirmed,
      slot_sources: 'confirmed hypotheses are now FACT',
      ...(short.length > 0 ? {
        evidence_short_of: short,
        hint: 'The confirmed hypotheses stand, but what their calls showed does not make up what exploration lacked: files count when a verifying call cites files you explored, symbols when a hypothesis names them and the call shows them, entry points and patterns by distinct verifying calls. Explore more, state hypotheses about what you find, and verify each with a call whose result shows it.',
      } : {}),
      next_step: this.core.nextStep(to),
    };
  }
}

/** A symbol's own name, as results and claims spell it apart: Ky.#calculateDelay, #calculateDelay, calculateDelay() → calculateDelay. */
export const bare = (name: string): string => name.trim().replace(/\(.*$/, '').split(/\.|::|(?<=[\w$])#/).pop()!.replace(/^#/, '');

/** A name written as code: qualified (Cart.total, Cart#total, a::b), camelCase or snake_case, or called (total()). */
const CODE_NAME = /[A-Za-z_$][\w$]*(?:(?:\.|#|::)[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$]*(?=\()|\b[A-Za-z]+[a-z\d][A-Z][\w$]*|\b[\w$]*_[\w$]+/g;

export function allowedReasons(missing: readonly Missing[]): string[] {
  return SEMANTIC_REASONS.filter((r) => reasonAllowed(r, missing));
}

/** The main argument a tool was called with, as an agent would name it in evidence (the tool's record says which). */
export function targetOf(e: LedgerEntry): string[] {
  // a Read the client's hook recorded: its file, as the agent passed it and as the project names it
  if (e.tool === READ_RECORD) return [...e.files, ...(typeof e.args.file_path === 'string' ? [e.args.file_path] : [])];
  return toolNamed(e.tool)?.target?.(e.args) ?? [];
}
/** How the ledger records a Read (the PostToolUse hook), and the names an agent gives it in evidence. */
const READ_RECORD = 'hook:Read';
const isReadTool = (tool: string) => tool === 'Read' || tool === READ_RECORD;

/** Words that fit any code ("the code works", 処理がある): a hypothesis must name more than these. */
const GENERIC_CJK = /処理|機能|仕組み|コード|システム|部分|实现|功能|代码|系统/gu;

/**
 * Does a hypothesis name something a call can check: a word of the request (or of its translation),
 * a symbol this session saw, a file it was shown? Generic words (code, system, 処理) do not count:
 * "the code works" was verified by search_text('code') and let a session on to VALIDATION.
 */
export function hypothesisNamesSomething(hypothesis: string, sources: readonly string[]): boolean {
  const h = hypothesis.replace(GENERIC_CJK, ' ').split(/([^\p{L}\p{N}_$]+)/u).map((w) => (GENERIC_EN.has(w.toLowerCase()) ? ' ' : w)).join('');
  // the hypothesis's words once, not once per source: 100 hypotheses of 8 KB against 5,000 seen names took 29 s
  const [units, parts] = [contentUnits(h), wordStems(h)];
  return sources.slice(0, 5000).some((src) => sharesWords(src, units, parts));
}

/** Does a call's target share a content unit or a word (identifiers split) with a hypothesis's? */
function sharesWords(target: string, units: ReadonlySet<string>, parts: ReadonlySet<string>): boolean {
  for (const u of contentUnits(target.replace(/\.[A-Za-z]{1,5}(:\d+)*$/, ''))) if (units.has(u)) return true;
  // content words only: "the" or "with" ties a call to every hypothesis
  for (const w of wordStems(target)) if (parts.has(w)) return true;
  return false;
}

/** The content words of a text as stems, identifiers split (Cart.total → cart, total). */
function wordStems(text: string): Set<string> {
  return new Set(text.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && contentUnits(w).size > 0).map(stem));
}

/** The file paths a text names (src/util/format.ts, format.ts). */
const FILE_NAMED = /(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,5}\b/g;

/**
 * Does a call's target concern the hypothesis: a word, identifier (or its parts) or file the
 * hypothesis names? A target that is a file is about a hypothesis that names files only when it is
 * one of them (src/other/format.ts is not src/util/format.ts, though both are "format").
 */
export function aboutHypothesis(target: string, hypothesis: string, isFile: (name: string) => boolean = () => false): boolean {
  const path = target.trim().replace(/^\.\//, '').replace(/(:\d+)+$/, '');
  // a name is a file when the project has one by it (Cart.total is a symbol, format.ts a file)
  const files = [...hypothesis.matchAll(FILE_NAMED)].map((m) => m[0].replace(/^\.\//, '')).filter(isFile);
  if (files.length > 0 && isFile(path)) {
    return files.some((f) => (f.includes('/') ? f === path : f === path.split('/').pop()));
  }
  // (a Japanese or Chinese hypothesis says its words through the glossary: ホスト is `host` — red team adv84)
  const rendered = translationsOf(hypothesis).filter((w) => /^[a-z][a-z\d]{2,}$/i.test(w)).map((w) => stem(w.toLowerCase()));
  return sharesWords(target, contentUnits(hypothesis), new Set([...wordStems(hypothesis), ...rendered]));
}

export function matchEvidence(ev: { tool: string; target: string; files: string[] }, ledger: readonly LedgerEntry[]): { ok: true; call: LedgerEntry } | { ok: false; why: string } {
  // (a Read is cited as the agent called it, "Read", or as the ledger holds it: agent red team adv74 was told none was made)
  const calls = ledger.filter((e) => e.tool === ev.tool || (isReadTool(ev.tool) && e.tool === READ_RECORD));
  if (calls.length === 0) return { ok: false, why: `no ${quote(ev.tool, 60)} call made after submit_semantic counts` };
  // names are compared as the tool compared them: exactly, except a case-insensitive text search
  const same = (e: LedgerEntry, t: string) => (e.tool === 'search_text' && e.args.case_sensitive === false ? normalize(t) === normalize(ev.target) : t.trim() === ev.target.trim());
  const sameTarget = calls.filter((e) => targetOf(e).some((t) => same(e, t)));
  if (sameTarget.length === 0) return { ok: false, why: `no ${quote(ev.tool, 60)} call with target '${quote(ev.target, 200)}' was made after submit_semantic` };
  if (ev.files.length === 0) return { ok: false, why: 'evidence.files is empty: name the files the call returned' };
  const files = ev.files.map((f) => f.replace(/^\.\//, ''));
  const call = sameTarget.find((e) => files.every((f) => e.files.includes(f) || !!e.named?.includes(f)));
  if (!call) return { ok: false, why: `files [${quote(files.join(', '), 300)}] are not among the results of ${quote(ev.tool, 60)}('${quote(ev.target, 200)}')` };
  return { ok: true, call };
}

/** Prose about the code (a changelog, a README, docs): what it says is no quote of the code. */
const DOCUMENT_FILE = /(?:\.(?:md|mdx|markdown|txt|rst|adoc|asciidoc|org|textile)|(?:^|\/)(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASES?|AUTHORS|CONTRIBUTORS)(?:\.[\w-]+)?)$/i;

/** Words that place a declaration, and words that say a use (a sentence with one says where code is used, not where it is). */
const DECLARING = /\b(?:declar|defin|resid|implement|locat|lives?\b|written|kept|sits|found|contain|holds|export|originat|provid|ship|stored|coded|appear|owns?\b|lack|absent|missing)\w*|\bset\s+up\b|\bcomes?\s+from\b|\bbelongs?\s+to\b|\bis\s+part\s+of\b|\bis\s+where\b|\b(?:is|are)\s+(?:\w+\s+){0,2}(?:in|inside|within|at|from)\b/i;
/** The words that declare outright (a use may follow them: "declared in — and called from — F"). */
const DECLARES = /\b(?:declar|defin|resid|implement|locat|lives?\b|written|coded|stored|originat)\w*/i;
/** Looser wordings of a place (red team adv44): "N is a method of F", "N is one of the methods in F", "F has N". */
const LOOSELY_PLACING = /\b(?:is|are)\s+(?:[\w-]+\s+){0,5}(?:in|inside|within|at|from|of)\b|\b(?:has|have|holds?|carries|includes?)\b/i;
/** "N, the proto method in F, …": an apposition that places N. */
const APPOSITIVE = /^\s*,\s*(?:the|a|an|one)\b[^,;]*\b(?:in|of|from|inside)\s*$/i;
/** Words that deny a place ("not in F", "no longer in F", "absent from F", "F lacks N"). */
/** A name in a relation, in backticks or not, `#private` and qualified ones too. */
/** "A throws/raises (an) XError", "XError is thrown/raised by A" (A as REL_NAME reads it). */
// (a bare `Error` too: "back throws an Error when …" passed unchecked — red team adv83)
const ERROR_NAME = String.raw`((?:[A-Z][\w$]*)?(?:Error|Exception))`;
// (with a modal or in a relative clause too: "A will throw X", "A can raise X", "A calls B, which throws X"
// is said of B; "X will be thrown by A" — red team adv77)
const MODAL = String.raw`(?:will|would|can|could|may|might|should|must|does|do|is\s+going\s+to|then)`;
const THROWS_LAZY = () => String.raw`${REL_NAME}(?:,?\s+(?:which|that))?\s+(?:(?:\w+ly|already|also|then|now|in\s+turn)\s+)?(?:${MODAL}\s+(?:(?:\w+ly|also|then)\s+)?)?(?:(?:re-?)?(?:throws|raises|throw|raise)|propagates|propagate)\s+(?:an?\s+|the\s+)?(?:new\s+)?${ERROR_NAME}|${ERROR_NAME}\s+(?:is|gets|(?:will|would|can|could|may|might|should|must)\s+be)\s+(?:(?:re-?)?thrown|(?:re-?)?raised|propagated)\s+(?:by|from|in|inside)\s+${REL_NAME}`;
const REL_NAME = String.raw`\`?([#A-Za-z_$][\w$#]*(?:\.[#A-Za-z_$][\w$]*)*)(?:\(\))?\`?`;
/**
 * Whether code could throw the error named X: X written as a value (`new X(…)`, `throw X`, `raise X`,
 * `errors.X`, a string that is its name alone: `err.name = 'X'`), not only tested for or caught
 * (`instanceof X`, `catch (X e)`, `except X:`) or mentioned in a message (red team adv81: "A throws
 * X" passed where A only checked `err instanceof X`). A test for X beside a `throw`/`raise` may rethrow it.
 */
function raisable(code: string, x: string): boolean {
  const name = new RegExp(`(?<![\\w$])${x}(?![\\w$])`);
  if (!name.test(code)) return false;
  const exact = new RegExp(`^(['"\`])${x}\\1$`);
  const checked = new RegExp(`\\binstanceof\\s+(?:[\\w$]+\\.)*${x}(?![\\w$])|\\bcatch\\s*\\([^)]*\\)|\\bexcept\\b[^:\\n]*:`, 'g');
  const rest = code.replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, (str) => (exact.test(str) ? str : ' ')).replace(checked, ' ');
  if (name.test(rest)) return true;
  // (a Python `except X:` re-raises only where its own block raises: `except BrokenPipeError: pass`
  // swallows it, whatever another clause raises — red team adv89)
  const lines = code.split('\n');
  const excepts = lines.flatMap((l, i) => (new RegExp(`^\\s*except\\b[^:\\n]*\\b${x}\\b`).test(l) ? [i] : []));
  if (excepts.length > 0) {
    const indent = (l: string) => /^\s*/.exec(l)![0].length;
    return excepts.some((i) => {
      for (let j = i + 1; j < lines.length && (!lines[j]!.trim() || indent(lines[j]!) > indent(lines[i]!)); j++) if (/\braise\b/.test(lines[j]!)) return true;
      return false;
    });
  }
  // a test for X that throws in its own block (`if (e instanceof X) throw e`): the catch re-throws X; one
  // that returns (`if (e instanceof ForceRetryError) { return … }`) throws nothing — red team adv93
  const tested = new RegExp(`\\binstanceof\\s+(?:[\\w$]+\\.)*${x}(?![\\w$])|\\bisinstance\\([^)]*\\b${x}\\b`);
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  return lines.some((l, i) => {
    const at = l.search(tested);
    if (at < 0) return false;
    if (/\b(?:throw|raise)\b/.test(l.slice(at))) return true;
    for (let j = i + 1; j < lines.length && (!lines[j]!.trim() || indent(lines[j]!) > indent(l)); j++) if (/^\s*(?:throw|raise)\b/.test(lines[j]!)) return true;
    return false;
  });
}

/**
 * Whether a declaration's code is an arrow with an expression body (`(a) => a + 1`, `() => ({…})`):
 * its first `=>`, before any block opens (an arrow nested in a body returns for itself, not for
 * the declaration: red team adv81's "A returns X" passed on a callback's `x => x * 2`).
 */
function ownExpressionArrow(code: string): boolean {
  const arrow = code.indexOf('=>');
  if (arrow < 0) return false;
  const head = code.slice(0, arrow);
  let depth = 0;
  for (const ch of head) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
  return depth === 0 && !/^\s*\{/.test(code.slice(arrow + 2));
}

/** "A closes …": the subject, the deed, what it is done to ("closes over" is a closure's, not a deed) */
const DEED = new RegExp(String.raw`(?<![\w$.#])\`?(#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*)(?:\(\))?\`?\s+(?:(?:\w+ly|also|then|first|always|itself)\s+)?(closes|flushes|terminates|kills|unlinks)\b(?!\s+over\b)([^.;\n]{0,80})`, 'i');
/** each deed, the calls that do it, and how a refusal names them */
const DEEDS: [RegExp, RegExp, string][] = [
  [/^closes$/i, /(?<![\w$])#?(?:close|closed|end|destroy|dispose|shutdown|disconnect|release|terminate|kill|abort)\w*\s*\(|^\s*(?:async\s+)?with\s|\busing\s*\(|\btry\s*\(/im, 'close(), end(), destroy(), dispose() or a with block'],
  [/^flushes$/i, /(?<![\w$])#?(?:flush|fsync|sync|drain)\w*\s*\(|(?<![\w$])(?:close|end)\s*\(/i, 'flush(), sync(), close() or end()'],
  // (a call whose name starts with the deed: throwIfAborted( is no abort — red team adv93)
  [/^(?:terminates|kills)$/i, /(?<![\w$])#?(?:terminate|kill|abort|cancel|destroy|exit|stop|close)\w*\s*\(/i, 'terminate(), kill(), abort(), cancel(), destroy() or exit()'],
  [/^unlinks$/i, /(?<![\w$])#?(?:unlink|remove|rm|delete)\w*\s*\(/i, 'unlink(), remove(), rm() or delete()'],
];
/** "A returns X" (not "returns nothing", "returns early"). */
/** the subject and verb of a claim that says what A's code calls: "A returns …", "A resolves symlinks with …" */
const CALL_FORM_SUBJECT = new RegExp(String.raw`(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?\s+(?:(?:\w+ly|also|then|first|always)\s+)?(returns|uses|resolves|builds|creates|wraps|passes|computes|normalizes|normalises|converts|gets|reads|checks)\b`);
const RETURNS = new RegExp(String.raw`${REL_NAME}\s+(?:(?:\w+ly|also|then|now)\s+)?(?:returns|will\s+return|gives\s+back)\s+(?!nothing|undefined|void|early|immediately|without|no(?![\w]))([\w\`'"].{0,80})`, 'g');
/** "A calls B before it calls C", "A invokes B after calling C" (A, B and C as REL_NAME reads them). */
const ORDERED_CALLS = new RegExp(String.raw`${REL_NAME}\s+(?:(?:first|always|then)\s+)?(?:calls|invokes|runs)\s+${REL_NAME}\s+(before|after)\s+(?:it\s+)?(?:(?:calls?|calling|invokes?|invoking|runs?|running)\s+)?${REL_NAME}`, 'g');
/** "A does not call B", "A never invokes B" */
const DENIED_CALL = new RegExp(String.raw`${REL_NAME.replace('(', '(?<a>')}\s+(?:does\s+not|doesn['’]t|never)\s+(?:call|invoke|run)s?\s+${REL_NAME.replace('(', '(?<b>')}`, 'g');
/** "B is not called by A", "B is never invoked from A" */
const DENIED_CALLED = new RegExp(String.raw`${REL_NAME.replace('(', '(?<b2>')}\s+is\s+(?:not|never)\s+(?:called|invoked|run)\s+(?:by|from|in|inside)\s+${REL_NAME.replace('(', '(?<a2>')}`, 'g');
/** A case a denial is said of, to the end of the sentence: "when an exception is raised". */
const WHEN_CASE = /\s*,?\s*(?:even\s+)?(?:when|whenever|if|in\s+case)\s+(.+)$/i;
/** a case of an error: only a finally block runs in it whatever happens */
const EXCEPTIONAL = /\b(?:exceptions?|errors?|raise[sd]?|throws?|thrown|fails?|failed|failures?|aborts?|interrupted)\b|例外|エラー|异常|错误|失败/i;
/** A condition or a restriction that may make a denial true of its case. */
const CONDITIONED = /\b(?:when|whenever|if|unless|only|except|while|once|until|before|after|then|followed|first|twice|again|directly|anymore|any\s+more|otherwise|in\s+case|for\s+\w+\s+(?:urls?|requests?|values?|strings?))\b/i;
/** Whether a claim found at `index` is said with a negation: "does not …" before it, or "not"/"never" inside it. */
function deniedAt(sentence: string, index: number, claim: string): boolean {
  return /(?:\b(?:not|never|no\s+longer)|n['’]t)\s*$/i.test(sentence.slice(0, index)) || /\b(?:not|never)\b|n['’]t\b/i.test(claim);
}

/** "A is async", "A is an asynchronous function" (group 1: A) */
// (not "returns a Promise": `return this.request(url)` may return one without saying so)
const ASYNC_CLAIM = new RegExp(String.raw`${REL_NAME}\s+is\s+(?:an?\s+)?(?:async|asynchronous)\b`, 'g');
/** A Japanese or Chinese sentence that opens with a name and its particle (group 1): 「redirect は…」「back 默认…」 */
const CJK_SUBJECT = /^\s*`?([A-Za-z_$][\w$]*)(?:\(\))?`?\s*(?:は|が|会|是|在|默认|把|的|(?=\p{Script=Han}))/u;
/** A sentence that opens with a name and a verb (group 1): "redirect sets …", "the `back` helper uses …". */
const SUBJECT_FIRST = /^\s*(?:the\s+)?`?([A-Za-z_$][\w$]*)(?:\(\))?`?\s+(?:(?:\w+ly|also|then|always)\s+)?(?:sets|uses|returns|gives|sends|responds|answers|defaults|writes|assigns|passes|checks|compares|redirects|falls|reads|renders|serves|replies)\b/i;
const BQ = '`';
const FILE_LINE = String.raw`${BQ}?(?<file>[\w@$./-]+\.[A-Za-z]\w{0,5}):(?<line>\d+)${BQ}?`;
/** "N is declared at F:L" (defined, written, implemented; at, in, on) */
const DECLARED_AT = new RegExp(String.raw`${BQ}?(?<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?${BQ}?\s+(?:is|was)\s+(?:declared|defined|written|implemented)\s+(?:at|in|on)\s+${FILE_LINE}`, 'g');
/** "N is declared on line L of F" */
const DECLARED_ON_LINE = new RegExp(String.raw`${BQ}?(?<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?${BQ}?\s+(?:is|was)\s+(?:declared|defined|written|implemented)\s+(?:at|on)\s+line\s+(?<line>\d+)\s+(?:of|in)\s+${BQ}?(?<file>[\w@$./-]+\.[A-Za-z]\w{0,5})${BQ}?`, 'g');
/** 「N は F の L 行目で宣言/定義されている」「N は F:L で定義」 */
const DECLARED_AT_JA = new RegExp(String.raw`${BQ}?(?<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?${BQ}?\s*(?:は|が)\s*${BQ}?(?<file>[\w@$./-]+\.[A-Za-z]\w{0,5})(?:\s*の\s*(?<line>\d+)\s*行目|:(?<line2>\d+))${BQ}?\s*(?:で|に)\s*(?:宣言|定義|実装)`, 'gu');

const CJK_NAME = String.raw`${BQ}?([#A-Za-z_$][\w$#]*(?:\.[#A-Za-z_$][\w$]*)*)(?:\([^()]{0,40}\))?${BQ}?`;
/** 「A が B を呼ぶ」「A は B を呼び出す」 (not 呼ばない), 「A 调用 B」 */
const CJK_CALLS = new RegExp(String.raw`${CJK_NAME}\s*(?:が|は|会|会先)?\s*${CJK_NAME}\s*を\s*(?:呼び出|呼ん|呼ぶ|呼び|実行|使用|使う|使っ|使い)(?![^。、！？\s]{0,4}?(?:ない|ません|ず|なかっ))|${CJK_NAME}\s*(?:会|先|还会|也会)?\s*调用(?:了)?\s*${CJK_NAME}`, 'gu');
/** 「B は A から呼ばれる」「B が A によって呼び出される」 */
const CJK_CALLED = new RegExp(String.raw`${CJK_NAME}\s*(?:が|は)\s*${CJK_NAME}\s*(?:から|に|によって)\s*(?:呼び出され|呼ばれ)(?![^。、！？\s]{0,2}?(?:ない|ません|ず|なかっ))|${CJK_NAME}\s*(?:由|被)\s*${CJK_NAME}\s*调用`, 'gu');
/** 「A は … X を投げる」「A が X をスローする」「A 抛出 X」 */
const CJK_THROWS = new RegExp(String.raw`${CJK_NAME}\s*(?:が|は)\s*[^。！？]{0,40}?${ERROR_NAME}\s*(?:を|が)\s*(?:投げ|スロー|送出|発生さ|throw)(?![^。、！？\s]{0,3}?(?:ない|ません|ず|なかっ))|${CJK_NAME}\s*[^。！？]{0,30}?(?<!不)(?<!不会)抛出\s*${ERROR_NAME}`, 'gu');

/** 「A は非同期関数である」「A 是异步函数」 (not 非同期ではない, 不是异步) */
const CJK_ASYNC = new RegExp(String.raw`${CJK_NAME}\s*(?:は|が|是)\s*(?:非同期|异步)(?![^。！？]{0,8}?(?:ではない|じゃない|でない|ありません))`, 'gu');

/** The English claims a Japanese or Chinese sentence makes about calls and errors, for the checks that read English. */
function cjkClaims(sentence: string): string[] {
  if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sentence)) return [];
  const out: string[] = [];
  for (const m of sentence.matchAll(CJK_CALLS)) out.push(m[1] ? `${m[1]} calls ${m[2]}` : `${m[3]} calls ${m[4]}`);
  for (const m of sentence.matchAll(CJK_CALLED)) out.push(m[1] ? `${m[2]} calls ${m[1]}` : `${m[4]} calls ${m[3]}`);
  for (const m of sentence.matchAll(CJK_THROWS)) out.push(m[1] ? `${m[1]} throws ${m[2]}` : `${m[3]} throws ${m[4]}`);
  for (const m of sentence.matchAll(CJK_ASYNC)) out.push(`${m[1]} is async`);
  return out;
}

/** "A calls B and then C", "A first calls B, then calls C", "A calls B, followed by C" (red team adv81) */
const THEN_CALLS = new RegExp(String.raw`${REL_NAME}\s+(?:(?:first|always)\s+)?(?:calls|invokes|runs)\s+${REL_NAME}(?:,\s*|\s+)(?:and\s+)?(?:then|afterwards|after\s+that|followed\s+by)\s+(?:(?:it\s+)?(?:calls?|invokes?|runs?)\s+)?${REL_NAME}`, 'g');
/** "B is called before C in A", "in A, B is called after C" (the passive: red team adv81) */
const PASSIVE_ORDER = new RegExp(String.raw`${REL_NAME}\s+is\s+(?:called|invoked|run)\s+(before|after)\s+${REL_NAME}\s+(?:in|inside|within|by)\s+${REL_NAME}`, 'g');
const PASSIVE_ORDER_FIRST = new RegExp(String.raw`\b(?:in|inside|within)\s+${REL_NAME},?\s+${REL_NAME}\s+is\s+(?:called|invoked|run)\s+(before|after)\s+${REL_NAME}`, 'gi');

/** Every "A calls B before/after C" a sentence says, in any of its wordings. */
function orderedCalls(sentence: string): { a: string; b: string; when: string; c: string; index: number; text: string }[] {
  const at = (m: RegExpMatchArray) => ({ index: m.index!, text: m[0] });
  return [
    ...[...sentence.matchAll(ORDERED_CALLS)].map((m) => ({ a: m[1]!, b: m[2]!, when: m[3]!.toLowerCase(), c: m[4]!, ...at(m) })),
    ...[...sentence.matchAll(THEN_CALLS)].map((m) => ({ a: m[1]!, b: m[2]!, when: 'before', c: m[3]!, ...at(m) })),
    ...[...sentence.matchAll(PASSIVE_ORDER)].map((m) => ({ a: m[4]!, b: m[1]!, when: m[2]!.toLowerCase(), c: m[3]!, ...at(m) })),
    ...[...sentence.matchAll(PASSIVE_ORDER_FIRST)].map((m) => ({ a: m[1]!, b: m[2]!, when: m[3]!.toLowerCase(), c: m[4]!, ...at(m) })),
  ];
}
const THROWS = new RegExp(THROWS_LAZY(), 'g');
/**
 * Does a text hold a quoted fragment, blanks aside? A quote cut short with … holds each piece it
 * keeps, in order (red team adv69 took `[0]` from the line before `address = arguments`).
 */
function holdsInOrder(fragment: string, text: string): boolean {
  const squash = (t: string) => t.replace(/\s+/g, '');
  const x = squash(text);
  let from = 0;
  for (const piece of fragment.split(/…|\.\.\.(?![\w$])/).map(squash).filter(Boolean)) {
    const k = x.indexOf(piece, from);
    if (k < 0) return false;
    from = k + piece.length;
  }
  return true;
}

/** Lines either side of a cited line where the code it quotes may stand. */
const QUOTE_SLACK = 3;
/** A declaration around a cited line whose whole code a quote may come from, up to this many lines. */
const QUOTE_DECLARATION_MAX = 300;
/** Words a relation's subject may be that stand for one named before: "… and then calls C", "…, which calls C". */
const CONJUNCTION = /^(?:and|or|but|then|also|which|that|it|they|this|and\s+then)$/i;
/**
 * "A calls B", "A first/directly/… calls the B helper", "A uses B", "A calls B and overrides it",
 * "B is called by A", "B is invoked from A", "A extends B", "A inherits from B": group 1 A, 2 the
 * verb, 3 B, 4 more verbs of B (red teams adv50, adv51).
 */
// ("A in turn calls B", "A ends up calling B": red team adv72 had "turn" taken for the caller)
const RELATION = new RegExp(String.raw`${REL_NAME}\s+(?:(?:\w+ly|first|also|then|only|always|later|in\s+turn|eventually|finally|itself)\s+)?(calls(?:\s+into)?|ends\s+up\s+calling|invokes|runs|executes|triggers|uses|delegates\s+to|relies\s+on|depends\s+on|forwards\s+to|dispatches\s+to|hands\s+(?:off|over)\s+to|falls\s+back\s+to|defers\s+to|overrides|extends|inherits\s+from|derives\s+from|subclasses|is\s+a\s+subclass\s+of|is\s+called\s+(?:by|from|inside|within)|is\s+invoked\s+(?:by|from|inside|within)|is\s+triggered\s+(?:by|from)|is\s+run\s+(?:by|from)|is\s+used\s+by)\s+(?:(?:the|a|an)\s+)?${REL_NAME}((?:\s+and\s+(?:also\s+)?(?:calls|invokes|overrides)\s+(?:it|them))*)`, 'gi');
/** A dotted module name said to be one: "requests.adapters module". */
const DOTTED_MODULE = /(?<![\w$./])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?=\s+(?:module|package)\b)/g;
/** "N is a (private) method of/on/in (the) (class) C": group 1 N, group 2 C. */
const OWNED_BY = /([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s+(?:is|are)\s+(?:not\s+)?(?:a|an|the|one\s+of\s+the)\s+(?:[\w-]+\s+){0,2}(?:method|member|property|field|getter|setter|accessor|attribute)s?\s+(?:of|on|in|from)\s+(?:the\s+)?(?:(?:class|type|struct|interface|trait|object)\s+)?([A-Za-z_$][\w$]*)/gi;
/** "N belongs to (the) (class) C (class)": group 1 N, group 2 C (a file there is placedNear's). */
const BELONGS_TO = /([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s+(?:belongs|belong)\s+to\s+(?:the\s+)?(?:(?:class|type|struct|interface|trait|object)\s+)?([A-Za-z_$][\w$]*)(?![\w$./])/gi;
/** At most three words between a name and a file: "N's home:", "N at", "N →". */
const SHORT_TIE = /^(?:[^\s]+\s+){0,2}[^\s]*$/;
/** Words that start another clause or set two things apart: "N and F", "N than F" tie nothing. */
const NOT_A_TIE = /\b(?:and|or|but|nor|then|while|whereas|also|than|versus|vs|before|after|because|so|if|when|unlike)\b/i;
/** "a method of", "the only function in", "a static member of": a member or a declaration of what follows. */
const MEMBER_OF = /\b(?:method|function|member|property|field|getter|setter|class|interface|enum|constant|constructor|accessor|type\s+alias)s?\s+(?:of|in|inside|within)\b/i;
const DENYING = /\b(?:not|never|isn['’]t|aren['’]t|no\s+longer|absent|missing|lacks?)\b/i;
// (whole words: "readily" or "users" says no use — red team adv45)
const USING = /\b(?:call(?:s|ed|ing|ers?)?|delegat\w*|forward(?:s|ed|ing)?|prox(?:y|ies|ied|ying)|expos(?:e|es|ed|ing)|run(?:s|ning)?|execut\w*|us(?:e|es|ed|ing)|import(?:s|ed|ing)?|invok\w*|referenc\w*|pass(?:es|ed|ing)?|read(?:s|ing)?|wrap(?:s|ped|ping)?|return(?:s|ed|ing)?|throw(?:s|n|ing)?|emit(?:s|ted|ting)?|extend(?:s|ed|ing)?|subclass\w*|instantiat\w*|creat(?:e|es|ed|ing))\b/i;
/** English words that are no code name however the index names things (`is`, `in`, `the file` …). */
const PROSE = new Set('the and that this with from file files which where what when declared defined declaration definition resides lives located written kept sits module class function method type interface is are was were its their there here test tests spec specs'.split(' '));
/** Words before a name that make the sentence about its uses: "the tests of N are in F", "F holds the examples for N" (red team adv74). */
const USES_OF = /\b(?:tests?|specs?|examples?|usages?|uses|callers?|calls|mocks?|stubs?|fixtures?|docs?|documentation)\s+(?:of|for|to|on)\s+(?:the\s+)?$/i;
/** A path without an extension (`lib/helpers/combineURLs`): a file of the project where one has that stem. */
const STEM_NAMED_AT = /(?<![\w@$./-])(?:\.\/)?(?:[\w@$-]+\/)+[\w@$-]+(?![\w@$./-])/g;
const FILE_NAMED_AT = /(?:\.\/)?(?:[\w@$-]+\/)*[\w@$-][\w@$.-]*\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|vue|svelte|d\.ts)\b/gi;

/** A relative path to a code file, as a hypothesis may name one (`source/core/Ky.ts`, `./lib/x.js`). */
const FILE_PATH = /(?<![\p{L}\p{N}_$./-])(?:\.\/)?(?:[\w@$-]+\/)+[\w@$.-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|vue|svelte)(?![\p{L}\p{N}_$])/gu;

/** JSON with object keys sorted: one call's arguments however they were ordered. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** A line's code without its string literals and a trailing comment (a call named in a string is no call). */
const codeOfLine = (l: string) => l.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/\s(?:\/\/|#).*$/, '');

/** The lines of code that are not whole comment lines (//, #, /*, a JSDoc line's *): what a quote or a name must be written in. */
export function withoutCommentLines(lines: readonly string[]): string[] {
  // (a Python docstring is prose too: its ``LESS=-R`` is no assignment — red team adv89; so is the
  // inside of a multi-line string, whose opening and closing lines stay as code)
  let closing: string | undefined;
  let keepClose = false;
  const count = (l: string, q: string) => l.split(q).length - 1;
  return lines.map((l) => {
    if (closing) {
      if (!l.includes(closing)) return '';
      closing = undefined;
      return keepClose ? l : '';
    }
    const doc = /^\s*(?:[rRuUbBfF]{1,2})?("""|''')/.exec(l);
    if (doc) {
      if (count(l, doc[1]!) < 2) (closing = doc[1]), (keepClose = false);
      return '';
    }
    for (const q of ['"""', "'''"]) {
      if (count(l, q) % 2 === 1) {
        closing = q;
        keepClose = true;
        return l;
      }
    }
    return /^\s*(?:\/\/|#(?![!\[])|\/\*|\*(?!\*?\s*[=;)]))/.test(l) ? '' : l;
  });
}

/**
 * Does a sentence name a helper as code? A name that is also an English word ("status", "send") only
 * as code is written (res.status, status(), `status`): "whatever the status" names no helper (red team adv77).
 */
function namesHelper(sentence: string, helper: string): boolean {
  const h = helper.replace(/[$]/g, '\\$');
  if (/[A-Z_$\d]/.test(helper.slice(1))) return new RegExp(`(?<![\\w$])${h}(?![\\w$])`).test(sentence);
  return new RegExp(`(?:[.#\`]${h}(?![\\w$]))|(?<![\\w$])${h}\\s*[(\`]`).test(sentence);
}
