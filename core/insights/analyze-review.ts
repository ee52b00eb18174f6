/**
 * Per-review aspect sentiment: what a published review's `aspects` field holds.
 * Deterministic and allocation-light: one tokenization and one phrase-index pass per sentence.
 */
import type { Polarity, ReviewAspect } from '../schemas/aspects.ts';
import type { AspectModel } from './aspect-model.ts';
import { scoreSentence } from './score-sentence.ts';
import type { SentenceScore } from './score-sentence.ts';
import { tokenizeText } from './tokenize.ts';

export type ReviewAnalysis = {
  /** One entry per aspect mentioned, in the aspect set's order. */
  aspects: ReviewAspect[];
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
 * used as a prior that the words of a mention can overturn. Without it (a bare sentence) only the
 * words decide.
 */
export function analyzeReview(text: string, model: AspectModel, rating?: number | null): ReviewAspect[] {
  return analyzeReviewDetailed(text, model, rating).aspects;
}

export function analyzeReviewDetailed(text: string, model: AspectModel, rating?: number | null): ReviewAnalysis {
  const sentences = tokenizeText(text).map((sentence) => scoreSentence(sentence, model));
  const totals = new Map<number, number>();
  for (const sentence of sentences) {
    for (const { aspect, raw } of sentence.aspects) totals.set(aspect, (totals.get(aspect) ?? 0) + raw);
  }
  const aspects = [...totals]
    .sort((a, b) => a[0] - b[0])
    .map(([aspect, raw]) => {
      const score = normalizeScore(raw);
      return { aspect: model.aspects[aspect]?.id ?? String(aspect), polarity: toPolarity(score), score };
    });
  return { aspects, sentences };
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
