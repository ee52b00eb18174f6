/**
 * Turns content/aspects.json into the model the analyzer runs on: the aspect list plus one phrase
 * index over the general lexicon, the valence shifters and the owner's domain lexicon, in that order
 * of precedence (later layers override earlier ones for the same phrase).
 */
import type { ErrorIssue } from '../schemas/errors.ts';
import { parseWithIssues } from '../schemas/issues.ts';
import { AspectConfigSchema } from '../schemas/aspect-config.ts';
import type { AspectConfig } from '../schemas/aspect-config.ts';
import {
  ADVERSATIVES,
  CONCESSIVES,
  GENERAL_LEXICON,
  INERT_PHRASES,
  INTENSIFIERS,
  NEGATORS,
} from './lexicon.ts';
import type { LearnedWeights } from './learned-model.ts';
import learnedWeights from './learned-weights.json' with { type: 'json' };
import { createPhraseIndex } from './phrase-index.ts';
import type { PatternToken, PhraseIndex, Shifter } from './phrase-index.ts';
import { tokenizeTerm } from './tokenize.ts';
import type { Locale } from '../i18n/locales.ts';

export type AspectInfo = {
  id: string;
  label: string;
  description: string | null;
  question: string | null;
  /** The label, description and question aspects.json gives in other languages (localizeAspect). */
  translations: NonNullable<AspectConfig['aspects'][number]['translations']>;
};

/** An aspect's label, description and question in `locale`: its translation where aspects.json gives one, else its own. */
export function localizeAspect(aspect: AspectInfo, locale: Locale): Pick<AspectInfo, 'id' | 'label' | 'description' | 'question'> {
  const own = aspect.translations[locale];
  return { id: aspect.id, label: own?.label ?? aspect.label, description: own?.description ?? aspect.description, question: own?.question ?? aspect.question };
}

export type AspectModel = {
  aspects: AspectInfo[];
  index: PhraseIndex;
  /** The learned layer stacked on the rules; null runs the rules alone. */
  learned: LearnedWeights | null;
  /** The business's technicians, as lowercase words of their names and aliases (withTechnicians). */
  technicians: ReadonlySet<string>;
};

/**
 * The model, knowing the business's technicians (business.json names and aliases): a review that
 * praises or blames "Kevin" is judging a person, which the learned layer reads as the cue
 * `c:technician`.
 */
export function withTechnicians(model: AspectModel, technicians: readonly { name: string; aliases?: readonly string[] }[]): AspectModel {
  const words = technicians
    .flatMap((t) => [t.name, ...(t.aliases ?? [])])
    .flatMap((name) => tokenizeTerm(name))
    .filter((word) => /^\p{L}{2,}$/u.test(word) && !TITLES.has(word));
  return { ...model, technicians: new Set(words) };
}

const TITLES = new Set(['mr', 'mrs', 'ms', 'dr', 'miss']);

/**
 * The shipped learned layer (npm run train). Not parsed at import: it is the trainer's typed output,
 * reproduced byte for byte by tests/insights/train.test.ts and checked against LearnedWeightsSchema by
 * tests/insights/analyze-review.test.ts; parsing its 1.5 MB cost every build about 0.15 s of CPU.
 */
export const DEFAULT_LEARNED_WEIGHTS = learnedWeights as unknown as LearnedWeights;

export type ParseAspectModelResult = { ok: true; model: AspectModel } | { ok: false; issues: ErrorIssue[] };

/** Validates the parsed JSON of an aspects file and compiles it; reports every problem with its path. */
export function parseAspectModel(raw: unknown): ParseAspectModelResult {
  const parsed = parseWithIssues(AspectConfigSchema, raw);
  if (!parsed.ok) return parsed;
  const issues = findUntokenizableTerms(parsed.value);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, model: compileAspectModel(parsed.value) };
}

export function compileAspectModel(config: AspectConfig, learned: LearnedWeights | null = DEFAULT_LEARNED_WEIGHTS): AspectModel {
  const index = createPhraseIndex();
  for (const [word, valence] of Object.entries(GENERAL_LEXICON)) {
    for (const pattern of patternsOf(word)) index.entry(pattern).valence = valence;
  }
  const shifters: [readonly string[], Shifter][] = [
    [NEGATORS, { kind: 'negator' }],
    [ADVERSATIVES, { kind: 'adversative' }],
    [CONCESSIVES, { kind: 'concessive' }],
    [INERT_PHRASES, { kind: 'inert' }],
  ];
  for (const [words, shifter] of shifters) {
    for (const word of words) for (const pattern of patternsOf(word)) index.entry(pattern).shifter = shifter;
  }
  for (const [word, factor] of Object.entries(INTENSIFIERS)) {
    for (const pattern of patternsOf(word)) index.entry(pattern).shifter = { kind: 'intensity', factor };
  }
  for (const [term, valence] of Object.entries(config.lexicon)) {
    for (const pattern of patternsOf(term)) index.entry(pattern).valence = valence;
  }
  for (const term of config.general_terms) {
    for (const pattern of patternsOf(term)) index.entry(pattern).anchor = true;
  }
  config.aspects.forEach((aspect, aspectIndex) => {
    const addTerms = (terms: string[], weak: boolean) => {
      for (const term of terms) {
        for (const pattern of patternsOf(term)) {
          const entry = index.entry(pattern);
          if (!entry.terms.some((t) => t.aspect === aspectIndex)) entry.terms.push({ aspect: aspectIndex, weak });
        }
      }
    };
    addTerms(aspect.terms, false);
    addTerms(aspect.weak_terms, true);
    for (const [term, valence] of Object.entries(aspect.opinions)) {
      for (const pattern of patternsOf(term)) index.entry(pattern).opinions.set(aspectIndex, valence);
    }
    // An opinion phrase that contains one of the aspect's terms ("fairly priced") mentions the aspect:
    // otherwise matching the longer phrase would swallow the term.
    const singleTerms = aspect.terms.flatMap(patternsOf).flatMap((p) => (p.length === 1 ? p : []));
    for (const term of Object.keys(aspect.opinions)) {
      for (const pattern of patternsOf(term)) {
        if (pattern.length < 2) continue;
        const containsTerm = pattern.some((token) =>
          singleTerms.some((t) => (t.prefix ? token.text.startsWith(t.text) : token.text === t.text)),
        );
        const entry = index.entry(pattern);
        if (containsTerm && !entry.terms.some((t) => t.aspect === aspectIndex)) {
          entry.terms.push({ aspect: aspectIndex, weak: false });
        }
      }
    }
  });
  index.finalize();
  return {
    aspects: config.aspects.map((a) => ({
      id: a.id,
      label: a.label,
      description: a.description ?? null,
      question: a.question ?? null,
      translations: a.translations ?? {},
    })),
    index,
    learned,
    technicians: new Set(),
  };
}

/** The token pattern of a term, plus its spaced form when it is hyphenated ("no-show" → "no show"). */
function patternsOf(term: string): PatternToken[][] {
  const prefix = term.endsWith('*');
  const words = tokenizeTerm(prefix ? term.slice(0, -1) : term).filter((w) => w !== ',');
  if (words.length === 0) return [];
  const toPattern = (list: string[]) =>
    list.map((text, i) => ({ text, prefix: prefix && i === list.length - 1 }));
  const patterns = [toPattern(words)];
  const spaced = words.flatMap((w) => (/^[\p{L}]+(-[\p{L}]+)+$/u.test(w) ? w.split('-') : [w]));
  if (spaced.length !== words.length) patterns.push(toPattern(spaced));
  return patterns;
}

function findUntokenizableTerms(config: AspectConfig): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const check = (term: string, path: (string | number)[]) => {
    if (patternsOf(term).length === 0) {
      issues.push({ path, message: 'must contain at least one letter or digit', code: 'custom' });
    }
  };
  config.general_terms.forEach((term, i) => check(term, ['general_terms', i]));
  for (const term of Object.keys(config.lexicon)) check(term, ['lexicon', term]);
  config.aspects.forEach((aspect, a) => {
    aspect.terms.forEach((term, i) => check(term, ['aspects', a, 'terms', i]));
    aspect.weak_terms.forEach((term, i) => check(term, ['aspects', a, 'weak_terms', i]));
    for (const term of Object.keys(aspect.opinions)) check(term, ['aspects', a, 'opinions', term]);
  });
  return issues;
}
