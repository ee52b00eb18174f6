/**
 * Per-review aspect sentiment: what a published review's `aspects` field holds.
 * Deterministic and allocation-light: one tokenization and one phrase-index pass per sentence.
 */
import type { EvidenceSpan, Polarity, ReviewAspect } from '../schemas/aspects.ts';
import type { AspectModel } from './aspect-model.ts';
import {
  choosePolarity,
  compileWeights,
  listAspectFeatures,
  listPolarityFeatures,
  listReviewFeatures,
  scoreDetection,
  scorePolarity,
  toFeatureIds,
} from './learned-model.ts';
import { extractFeatures } from './review-features.ts';
import type { FeatureSpans, SentenceFeatures } from './review-features.ts';
import { scoreSentence } from './score-sentence.ts';
import type { SentenceScore } from './score-sentence.ts';
import { tokenizeText } from './tokenize.ts';
import { compareText } from '../text/text-rules.ts';
import { isUnreadable, readAsEnglish, type ReadableReview } from './read-as-english.ts';

/** An aspect entry as the analysis finds it; the published one adds `evidence` (analyzePublishedReview). */
export type AspectVerdict = Omit<ReviewAspect, 'evidence'>;

export type ReviewAnalysis = {
  /** One entry per aspect mentioned, in the aspect set's order. */
  aspects: AspectVerdict[];
  /**
   * For each entry of `aspects`, the character spans (into the analysed text) of the words that
   * decided it: the aspect's terms and the opinions attached to them, else the words and cues the
   * learned layer weighed most.
   */
  evidence: [number, number][][];
  /** Per sentence: offsets into the analysed text, aspects (model indexes) with raw scores, overall tone. */
  sentences: SentenceScore[];
};

/** A polarity needs |score| of at least this; below it the mention is neutral. */
export const POLARITY_THRESHOLD = 0.1;

/** The text a review is analysed as: its title (when any) as a sentence of its own, then its text. */
export function getAnalysisText(review: { title?: string | null; text: string }): string {
  return review.title ? `${review.title}\n${review.text}` : review.text;
}

/**
 * `rating` (1–5) is the review's star rating: strong evidence about every aspect the review raises,
 * which the learned layer weighs against the words of each mention. Without it (a bare sentence) only
 * the words decide.
 */
export function analyzeReview(text: string, model: AspectModel, rating?: number | null): ReviewAspect[] {
  return analyzePublishedReview({ title: null, text, rating }, model);
}

/**
 * A review's published `aspects`: the analysis of its title and text (getAnalysisText), with each
 * evidence span moved to the field it lies in, offsets into that field.
 */
export function analyzePublishedReview(
  review: { title?: string | null; text: string; rating?: number | null },
  model: AspectModel,
): ReviewAspect[] {
  return toPublishedAspects(review, analyzeReviewDetailed(getAnalysisText(review), model, review.rating));
}

/** The published `aspects` of a review from its analysis (of getAnalysisText(review)), so a build analyses each review once. */
export function toPublishedAspects(review: { title?: string | null }, analysis: ReviewAnalysis): ReviewAspect[] {
  const titleEnd = review.title ? review.title.length : -1;
  return analysis.aspects.map((verdict, i) => ({
    ...verdict,
    evidence: (analysis.evidence[i] ?? []).flatMap(([start, end]): EvidenceSpan[] => {
      if (start < titleEnd) return [{ field: 'title', start, end: Math.min(end, titleEnd) }];
      const shift = titleEnd + 1;
      return start >= shift ? [{ field: 'text', start: start - shift, end: end - shift }] : [];
    }),
  }));
}

/** What the rules and the feature extraction find in a text, before any learned decision. */
export type PreparedReview = {
  sentences: SentenceScore[];
  /** By aspect index. */
  rules: { mentioned: boolean; raw: number; spans: [number, number][] }[];
  features: SentenceFeatures[];
  reviewFeatures: FeatureSpans;
};

export function prepareReview(text: string, model: AspectModel, withFeatures = true): PreparedReview {
  const tokenized = tokenizeText(text);
  const sentences = tokenized.map((sentence) => scoreSentence(sentence, model));
  const rules = model.aspects.map(() => ({ mentioned: false, raw: 0, spans: [] as [number, number][] }));
  for (const sentence of sentences) {
    for (const { aspect, raw, spans } of sentence.aspects) {
      const rule = rules[aspect];
      if (rule === undefined) continue;
      rule.mentioned = true;
      rule.raw += raw;
      rule.spans.push(...spans);
    }
  }
  const features = withFeatures && model.learned !== null ? extractFeatures(text, tokenized, model.technicians) : [];
  return { sentences, rules, features, reviewFeatures: mergeFeatures(features) };
}

/** The features of the sentences that hold the spans (all sentences when none does). */
export function selectContext(features: readonly SentenceFeatures[], spans: readonly [number, number][]): FeatureSpans {
  const context = features.filter((f) => spans.some(([start]) => start >= f.start && start < f.end));
  return mergeFeatures(context.length > 0 ? context : features);
}

/** The features of the clauses where the rules found an aspect, for its detection; none when they did not. */
export function selectRuleContext(features: readonly SentenceFeatures[], rule: PreparedReview['rules'][number]): FeatureSpans | undefined {
  return rule.mentioned ? selectContext(features, rule.spans) : undefined;
}

/** The analysis of a review the analyser cannot read (read-as-english.ts `isUnreadable`): it finds nothing in it. */
export const NO_ANALYSIS: ReviewAnalysis = { aspects: [], evidence: [], sentences: [] };

/**
 * What the analyser reads of a review (read-as-english.ts), as one text (getAnalysisText): its own words, or
 * its English translation's; undefined when it can read neither, and then the review is not analysed.
 */
export function readAnalysisText(review: ReadableReview): { text: string; translated: boolean } | undefined {
  if (isUnreadable(review)) return undefined;
  const readable = readAsEnglish(review);
  return { text: getAnalysisText(readable.translated ? readable : review), translated: readable.translated };
}

export function analyzeReviewDetailed(text: string, model: AspectModel, rating?: number | null): ReviewAnalysis {
  const rated = rating !== undefined && rating !== null;
  const { sentences, rules, features, reviewFeatures } = prepareReview(text, model, rated);
  // The learned layer is trained on rated reviews: a bare sentence (no rating) is left to the rules.
  const learned = rating === undefined || rating === null ? null : model.learned;
  const aspects: AspectVerdict[] = [];
  const evidence: [number, number][][] = [];
  const stars = rating ?? null;
  const weights = learned === null ? null : compileWeights(learned);
  const shared = weights === null ? [] : toFeatureIds(weights, listReviewFeatures(reviewFeatures));
  model.aspects.forEach((info, a) => {
    const rule = rules[a]!;
    const detector = weights?.detection.get(info.id);
    if (learned === null || weights === null || detector === undefined) {
      if (!rule.mentioned) return;
      const score = normalizeScore(rule.raw);
      aspects.push({ aspect: info.id, polarity: toPolarity(score), score });
      evidence.push(sortSpans(rule.spans));
      return;
    }
    if (scoreDetection(detector, shared, toFeatureIds(weights, listAspectFeatures(rule, stars, selectRuleContext(features, rule)))) < learned.detection_threshold) return;
    const spans = rule.mentioned ? rule.spans : findStrongestSpans(reviewFeatures, (name) => detector.weights[weights.ids.get(name) ?? -1] ?? 0);
    const context = selectContext(features, spans);
    const probabilities = scorePolarity(weights.polarity, toFeatureIds(weights, listPolarityFeatures(context, rule, stars, info.id)));
    const polarity = choosePolarity(probabilities, learned.neutral_threshold);
    aspects.push({ aspect: info.id, polarity, score: toBandedScore(probabilities[0] - probabilities[2], polarity) });
    evidence.push(sortSpans(spans));
  });
  return { aspects, evidence, sentences };
}

/** P(positive) − P(negative), kept inside the band of the chosen polarity so `score` and `polarity` agree. */
function toBandedScore(value: number, polarity: Polarity): number {
  const bounded =
    polarity === 'positive'
      ? Math.max(POLARITY_THRESHOLD, value)
      : polarity === 'negative'
        ? Math.min(-POLARITY_THRESHOLD, value)
        : Math.max(-0.099, Math.min(0.099, value));
  const rounded = Math.round(bounded * 1000) / 1000;
  return rounded === 0 ? 0 : rounded;
}

function mergeFeatures(sentences: readonly SentenceFeatures[]): FeatureSpans {
  const merged: FeatureSpans = new Map();
  for (const sentence of sentences) {
    for (const [name, spans] of sentence.features) {
      const list = merged.get(name);
      if (list === undefined) merged.set(name, [...spans]);
      else list.push(...spans);
    }
  }
  return merged;
}

/**
 * The spans of the (at most two) present features that weigh most for the aspect, leaving out
 * function words, which carry weight for a model but explain nothing to a reader.
 */
export function findStrongestSpans(features: FeatureSpans, weightOf: (name: string) => number): [number, number][] {
  const ranked = [...features.keys()]
    .filter((name) => !name.startsWith('n:') && !FUNCTION_WORDS.has(name.slice(2)) && weightOf(name) > 0)
    .sort((x, y) => weightOf(y) - weightOf(x) || compareText(x, y));
  return ranked.slice(0, 2).flatMap((name) => (features.get(name) ?? []).slice(0, 2));
}

const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'so', 'to', 'of', 'in', 'on', 'at', 'for', 'with', 'from', 'by', 'it', 'its', 'was',
  'is', 'are', 'were', 'be', 'been', 'he', 'she', 'they', 'we', 'i', 'me', 'my', 'our', 'us', 'you', 'your', 'his', 'her',
  'their', 'them', 'that', 'this', 'had', 'has', 'have', 'did', 'do', 'just', 'up', 'out', 'all', 'as', 'if', 'then',
]);

function sortSpans(spans: [number, number][]): [number, number][] {
  const unique = new Map(spans.map((span) => [`${span[0]}:${span[1]}`, span]));
  return [...unique.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** Maps an unbounded sum of valences into (-1, 1), as VADER's compound score does, at 3 decimals. */
export function normalizeScore(raw: number): number {
  const value = raw / Math.sqrt(raw * raw + 4);
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? 0 : rounded;
}

export function toPolarity(score: number): Polarity {
  if (score >= POLARITY_THRESHOLD) return 'positive';
  if (score <= -POLARITY_THRESHOLD) return 'negative';
  return 'neutral';
}
