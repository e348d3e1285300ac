/**
 * Relevance of a code symbol to the user's target feature, behind an interface so the embeddings
 * layer can replace the lexical scorer. The three tiers mean the same for every backend:
 *   > 0.6  FACT       the symbol's own name (or container) names most of the feature's concepts
 *   0.3–0.6 accepted, risk raised to HIGH: partial — only some concepts, only in its path or
 *          signature, or linked to the feature through verified code evidence
 *   < 0.3  rejected   no connection the scorer can see
 */
import fs from 'node:fs';
import path from 'node:path';
import { splitWords } from '../query/lexical.js';
import { PACKAGE_ROOT } from '../util/paths.js';
import { normalize } from './queryframe.js';

export interface SymbolProfile {
  name: string;
  container: string | null;
  file: string;
  signature: string;
}

export interface RelevanceScorer {
  readonly backend: string;
  /** `evidence`: code text the server verified (from the agent's code_evidence), if any */
  score(target: string, symbol: SymbolProfile, evidence?: string): number;
}

export const TIER = { fact: 0.6, accept: 0.3 } as const;
export type Tier = 'FACT' | 'ACCEPTED_HIGH_RISK' | 'REJECTED';
export function tierOf(score: number): Tier {
  return score > TIER.fact ? 'FACT' : score >= TIER.accept ? 'ACCEPTED_HIGH_RISK' : 'REJECTED';
}

interface Glossary {
  generic: string[];
  terms: Record<string, string[]>;
}

let glossary: Glossary | undefined;
function loadGlossary(): Glossary {
  glossary ??= JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'data', 'glossary.json'), 'utf8')) as Glossary;
  return glossary;
}

const GENERIC_EN = new Set(['feature', 'function', 'functionality', 'system', 'logic', 'code', 'process', 'processing', 'handling', 'part', 'thing', 'stuff', 'implementation']);
const STOP_EN = new Set('a an the of to in on for and or is are be by with from at as it this that when if then not no do does should would can could add fix make please'.split(' '));

/** A target feature as concepts; each concept is a set of English words any of which expresses it. */
export function concepts(target: string): string[][] {
  const g = loadGlossary();
  const out: string[][] = [];
  let rest = normalize(target);
  // glossary terms, longest first, so 状態遷移 wins over 状態
  const keys = Object.keys(g.terms).sort((a, b) => b.length - a.length);
  for (const k of keys) {
    const nk = normalize(k);
    if (!rest.includes(nk)) continue;
    out.push(g.terms[k]!);
    rest = rest.split(nk).join(' ');
  }
  for (const gen of g.generic) rest = rest.split(normalize(gen)).join(' ');
  for (const w of splitWords(rest)) {
    if (/[^\x00-\x7f]/.test(w) || STOP_EN.has(w) || GENERIC_EN.has(w) || w.length < 2) continue;
    out.push([w]);
  }
  return out;
}

/** Word match with light stemming: equal, or one a prefix (4+ chars) of the other: auth ~ authentication. */
function wordMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short);
}

const any = (concept: string[], words: string[]) => concept.some((c) => words.some((w) => wordMatch(c, w)));

export class LexicalRelevanceScorer implements RelevanceScorer {
  readonly backend = 'lexical';

  score(target: string, s: SymbolProfile, evidence?: string): number {
    const cs = concepts(target);
    if (cs.length === 0) return 0;
    const nameWords = [...splitWords(s.name), ...splitWords(s.container ?? '')];
    const pathWords = splitWords(s.file.replace(/\.[^./]+$/, ''));
    const sigWords = splitWords(s.signature);
    const evidenceWords = evidence ? splitWords(evidence) : [];
    let total = 0;
    for (const c of cs) {
      total += any(c, nameWords) ? 1 : any(c, pathWords) ? 0.6 : any(c, sigWords) ? 0.4 : any(c, evidenceWords) ? 0.45 : 0;
    }
    return Math.round((total / cs.length) * 1000) / 1000;
  }
}
