/**
 * One index over every word and phrase the analyzer knows — general valences, valence shifters,
 * aspect terms, aspect opinions and general terms — so a sentence is matched in a single pass:
 * at each token the longest known phrase wins, and what it means is read from its merged entry.
 *
 * Phrase tokens match exactly, or by prefix when the term ended with `*`. An object pronoun inside a
 * phrase is skipped ("called back" matches "called me back").
 */
import type { Token } from './tokenize.ts';

export type Shifter =
  | { kind: 'negator' }
  | { kind: 'intensity'; factor: number }
  | { kind: 'adversative' }
  | { kind: 'concessive' }
  | { kind: 'inert' };

export type PatternToken = { text: string; prefix: boolean };

export type IndexEntry = {
  pattern: PatternToken[];
  /** Aspects (by index) this phrase mentions; weak terms mention only when an opinion attaches. */
  terms: { aspect: number; weak: boolean }[];
  /** Aspect-specific valences, by aspect index. */
  opinions: Map<number, number>;
  /** Domain valence when set, else the general lexicon's. */
  valence: number | undefined;
  /** A general term: takes opinions away from aspects. */
  anchor: boolean;
  shifter: Shifter | undefined;
};

export type PhraseMatch = { entry: IndexEntry; start: number; end: number };

const SKIPPABLE = new Set(['me', 'us', 'him', 'her', 'them', 'it']);
const NEGATOR_ENTRY: IndexEntry = {
  pattern: [],
  terms: [],
  opinions: new Map(),
  valence: undefined,
  anchor: false,
  shifter: { kind: 'negator' },
};

export type PhraseIndex = {
  entry(pattern: PatternToken[]): IndexEntry;
  /** Call once all entries are in: gives exact phrases what prefix terms covering them mean. */
  finalize(): void;
  matchAt(tokens: Token[], position: number): PhraseMatch | undefined;
};

export function createPhraseIndex(): PhraseIndex {
  const byKey = new Map<string, IndexEntry>();
  const byFirstToken = new Map<string, IndexEntry[]>();
  const byFirstPrefix: IndexEntry[] = [];
  const candidatesCache = new Map<string, IndexEntry[]>();

  function entry(pattern: PatternToken[]): IndexEntry {
    const key = pattern.map((token) => token.text + (token.prefix ? '*' : '')).join(' ');
    let found = byKey.get(key);
    if (found === undefined) {
      found = { pattern, terms: [], opinions: new Map(), valence: undefined, anchor: false, shifter: undefined };
      byKey.set(key, found);
      candidatesCache.clear();
      const first = pattern[0] ?? { text: '', prefix: true };
      if (first.prefix) {
        byFirstPrefix.push(found);
      } else {
        const list = byFirstToken.get(first.text) ?? [];
        list.push(found);
        byFirstToken.set(first.text, list);
      }
    }
    return found;
  }

  // Vocabulary is bounded, so candidate lists are computed once per distinct token.
  function candidatesFor(text: string): IndexEntry[] {
    let list = candidatesCache.get(text);
    if (list === undefined) {
      list = [...(byFirstToken.get(text) ?? []), ...byFirstPrefix.filter((e) => matchesToken(e.pattern[0], text))];
      list.sort((a, b) => b.pattern.length - a.pattern.length);
      candidatesCache.set(text, list);
    }
    return list;
  }

  function matchAt(tokens: Token[], position: number): PhraseMatch | undefined {
    const text = tokens[position]?.text ?? '';
    let best: PhraseMatch | undefined;
    for (const candidate of candidatesFor(text)) {
      const end = matchPattern(candidate.pattern, tokens, position);
      if (end > 0 && (best === undefined || end > best.end)) best = { entry: candidate, start: position, end };
    }
    if (best === undefined && text.endsWith("n't")) best = { entry: NEGATOR_ENTRY, start: position, end: position + 1 };
    return best;
  }

  // Without this, an exact entry ("explained": an opinion) would hide the prefix term that also
  // matches it ("explain*": a term), since a match takes one entry.
  function finalize() {
    const prefixed = [...byKey.values()].filter((e) => e.pattern.some((t) => t.prefix));
    for (const exact of byKey.values()) {
      if (exact.pattern.some((t) => t.prefix)) continue;
      for (const wide of prefixed) {
        if (wide.pattern.length !== exact.pattern.length) continue;
        if (!wide.pattern.every((t, i) => matchesToken(t, exact.pattern[i]?.text ?? ''))) continue;
        for (const term of wide.terms) if (!exact.terms.some((t) => t.aspect === term.aspect)) exact.terms.push(term);
        for (const [aspect, valence] of wide.opinions) if (!exact.opinions.has(aspect)) exact.opinions.set(aspect, valence);
        exact.valence ??= wide.valence;
        exact.anchor ||= wide.anchor;
      }
    }
    candidatesCache.clear();
  }

  return { entry, finalize, matchAt };
}

/** Returns the index after the match, or 0 when the pattern does not match at `position`. */
function matchPattern(pattern: PatternToken[], tokens: Token[], position: number): number {
  let at = position;
  for (const [k, expected] of pattern.entries()) {
    let token = tokens[at];
    if (k > 0 && token !== undefined && !matchesToken(expected, token.text) && SKIPPABLE.has(token.text)) {
      token = tokens[++at];
    }
    if (token === undefined || token.pause || !matchesToken(expected, token.text)) return 0;
    at++;
  }
  return at;
}

function matchesToken(pattern: PatternToken | undefined, text: string): boolean {
  if (pattern === undefined) return false;
  return pattern.prefix ? text.startsWith(pattern.text) : text === pattern.text;
}
