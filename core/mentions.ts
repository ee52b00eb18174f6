/**
 * Mention detection (CONTRACT.md "Published shapes"): a review mentions an entity when its text
 * contains one of the entity's terms (name, alias, or id) as a whole word, case-insensitively.
 * "Whole word" means the match is not preceded or followed by a letter or digit, so "Al" does
 * not match inside "Allen" and "A/C" still matches in "the A/C died".
 */
import { compareText } from './text/text-rules.ts';

export type MentionEntity = { key: string; terms: readonly string[] };

export type MentionMatcher = {
  /** Keys of every entity named in `text`, in the order the entities were given. */
  findIn(text: string): string[];
  /** The entity key a single term (name, alias or id) stands for, case-insensitively. */
  resolve(term: string): string | undefined;
};

const WORD_CHAR = String.raw`[\p{L}\p{N}]`;

function normalizeTerm(term: string): string {
  return term.trim().replace(/\s+/g, ' ').toLowerCase();
}

function escapeRegExp(text: string): string {
  // Only syntax characters: under the `u` flag an identity escape such as `\-` is an error.
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Terms must be unambiguous: callers check `findTermConflicts` first and report them as content errors. */
export function createMentionMatcher(entities: readonly MentionEntity[]): MentionMatcher {
  const byTerm = new Map<string, string>();
  const order = new Map<string, number>();
  entities.forEach((entity, i) => {
    order.set(entity.key, i);
    for (const term of entity.terms) {
      const normal = normalizeTerm(term);
      if (normal && !byTerm.has(normal)) byTerm.set(normal, entity.key);
    }
  });
  // Longest first, so "Mike Reyes" wins over "Mike" at the same position.
  const terms = [...byTerm.keys()].sort((a, b) => b.length - a.length || compareText(a, b));
  const pattern =
    terms.length === 0
      ? null
      : new RegExp(
          `(?<!${WORD_CHAR})(?:${terms.map((t) => escapeRegExp(t).replace(/ /g, String.raw`\s+`)).join('|')})(?!${WORD_CHAR})`,
          'giu',
        );

  const resolve = (term: string) => byTerm.get(normalizeTerm(term));

  return {
    resolve,
    findIn(text) {
      if (!pattern) return [];
      const found = new Set<string>();
      for (const match of text.matchAll(pattern)) {
        const key = resolve(match[0]) ?? resolveByFolding(match[0]);
        if (key !== undefined) found.add(key);
      }
      return [...found].sort((a, b) => order.get(a)! - order.get(b)!);
    },
  };

  // Case-insensitive regex matching folds a few characters that toLowerCase maps differently
  // (e.g. U+017F LONG S matches "s"); fall back to testing each term on its own.
  function resolveByFolding(matched: string): string | undefined {
    for (const [term, key] of byTerm) {
      if (new RegExp(`^${escapeRegExp(term).replace(/ /g, String.raw`\s+`)}$`, 'iu').test(matched)) return key;
    }
    return undefined;
  }
}

/** Terms that stand for two different entities (case-insensitively): each is a content error. */
export function findTermConflicts(entities: readonly MentionEntity[]): { term: string; keys: [string, string] }[] {
  const seen = new Map<string, string>();
  const conflicts: { term: string; keys: [string, string] }[] = [];
  for (const entity of entities) {
    for (const term of new Set(entity.terms.map(normalizeTerm))) {
      const owner = seen.get(term);
      if (owner === undefined) seen.set(term, entity.key);
      else if (owner !== entity.key) conflicts.push({ term, keys: [owner, entity.key] });
    }
  }
  return conflicts;
}
