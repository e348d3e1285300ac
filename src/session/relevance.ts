/**
 * Relevance of a code symbol to the user's target feature, behind an interface so the embeddings
 * layer can replace the lexical scorer. The three tiers mean the same for every backend:
 *   > 0.6  FACT       the symbol's own name (or container) names most of the feature's concepts
 *   0.3–0.6 accepted, risk raised to HIGH: partial — only some concepts, only in its path or
 *          signature, or linked to the feature through verified code evidence
 *   < 0.3  rejected   no connection the scorer can see
 */
import { coverageOf, keywordDoc } from '../embeddings/keyword.js';
import { conceptsOf } from '../embeddings/text.js';

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

/** A target feature as concepts; each concept is a set of English words any of which expresses it. */
export function concepts(target: string): string[][] {
  return conceptsOf(target).map((c) => c.words);
}

/**
 * The lexical backend on its own (no project corpus: every concept weighs the same). The session
 * uses the hybrid engine (src/embeddings/engine.ts), whose keyword leg is this same coverage with
 * project IDF weights, doc comments and body words.
 */
export class LexicalRelevanceScorer implements RelevanceScorer {
  readonly backend = 'lexical';

  score(target: string, s: SymbolProfile, evidence?: string): number {
    return coverageOf(conceptsOf(target), keywordDoc({ name: s.name, container: s.container, path: s.file, signature: s.signature, evidence })).coverage;
  }
}
