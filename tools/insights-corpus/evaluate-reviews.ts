/**
 * Measures aspect sentiment on the whole labelled reviews of this corpus (`npm run eval`), beside the
 * star baseline: every detected aspect given the review's star polarity (4–5 positive, 3 neutral,
 * 1–2 negative).
 *
 * - Aspect detection: precision and recall of (review, aspect) pairs.
 * - Polarity: accuracy, macro-F1 and the confusion matrix over the pairs both labelled and detected, so
 *   detection errors do not count twice; the baseline is scored on exactly the same pairs.
 * - Exact reviews: the share of reviews whose detected aspects are exactly the labelled ones, each with
 *   the labelled polarity (a review with no label and nothing detected counts as right).
 */
import { z } from 'zod';
import { PolaritySchema, type Polarity } from '../../core/schemas/aspects.ts';
import { compareLabels, harmonic, measureByTag, measurePolarity, ratio } from '../insights-eval/evaluate.ts';
import type { PolarityMetrics } from '../insights-eval/evaluate.ts';

export const LabelledReviewSchema = z.strictObject({
  id: z.string().regex(/^rc-\d{4}$/),
  rating: z.int().min(1).max(5),
  source: z.enum(['google', 'yelp', 'angi', 'facebook', 'direct']),
  title: z.string().min(1).nullable(),
  text: z.string().min(1),
  labels: z.array(z.strictObject({ aspect: z.string().min(1), polarity: PolaritySchema })),
  tags: z.array(z.string()),
});
export const LabelledBatchSchema = z.array(LabelledReviewSchema);

export type LabelledReview = z.infer<typeof LabelledReviewSchema>;

/** What an analyzer under test returns for one review. */
export type AspectPrediction = { aspect: string; polarity: Polarity };

export type ReviewEvalError = {
  id: string;
  aspect: string;
  expected: Polarity | 'not mentioned';
  predicted: Polarity | 'not detected';
};

export type DetectionMetrics = { precision: number; recall: number; f1: number; true_positives: number; detected: number; labels: number };

export type ReviewEvalReport = {
  reviews: number;
  labels: number;
  detection: DetectionMetrics;
  by_aspect: ({ aspect: string } & DetectionMetrics & { polarity_accuracy: number })[];
  system: PolarityMetrics;
  star_baseline: PolarityMetrics;
  /** Share of reviews with every aspect found, none extra, and every polarity right. */
  exact_reviews: number;
  /** Of the reviews with a negative label, the share given at least one negative aspect (any). */
  complaints_flagged: number;
  by_tag: { tag: string; pairs: number; system_accuracy: number; baseline_accuracy: number }[];
  errors: ReviewEvalError[];
};

export function getStarPolarity(rating: number): Polarity {
  if (rating >= 4) return 'positive';
  if (rating === 3) return 'neutral';
  return 'negative';
}

export function evaluateReviews(
  reviews: readonly LabelledReview[],
  analyze: (review: LabelledReview) => readonly AspectPrediction[],
): ReviewEvalReport {
  type Pair = { aspect: string; expected: Polarity; system: Polarity; baseline: Polarity; tags: string[] };
  const pairs: Pair[] = [];
  const errors: ReviewEvalError[] = [];
  const detectedBy = new Map<string, number>();
  const labelledBy = new Map<string, number>();
  let exact = 0;
  let complaints = 0;
  let flagged = 0;
  for (const review of reviews) {
    const predicted = new Map(analyze(review).map((m) => [m.aspect, m.polarity]));
    if (review.labels.some((l) => l.polarity === 'negative')) {
      complaints++;
      if ([...predicted.values()].includes('negative')) flagged++;
    }
    const star = getStarPolarity(review.rating);
    for (const aspect of predicted.keys()) detectedBy.set(aspect, (detectedBy.get(aspect) ?? 0) + 1);
    for (const label of review.labels) labelledBy.set(label.aspect, (labelledBy.get(label.aspect) ?? 0) + 1);
    const compared = compareLabels(review.labels, predicted);
    pairs.push(...compared.found.map((f) => ({ ...f, baseline: star, tags: review.tags })));
    errors.push(...compared.errors.map((e) => ({ id: review.id, ...e })));
    if (compared.errors.length === 0) exact++;
  }
  const labels = reviews.reduce((sum, r) => sum + r.labels.length, 0);
  const detected = [...detectedBy.values()].reduce((sum, n) => sum + n, 0);
  const aspects = [...new Set([...detectedBy.keys(), ...labelledBy.keys()])].sort();
  return {
    reviews: reviews.length,
    labels,
    detection: measureDetection(pairs.length, detected, labels),
    by_aspect: aspects.map((aspect) => {
      const found = pairs.filter((p) => p.aspect === aspect);
      return {
        aspect,
        ...measureDetection(found.length, detectedBy.get(aspect) ?? 0, labelledBy.get(aspect) ?? 0),
        polarity_accuracy: ratio(found.filter((p) => p.system === p.expected).length, found.length),
      };
    }),
    system: measurePolarity(pairs.map((p) => [p.expected, p.system])),
    star_baseline: measurePolarity(pairs.map((p) => [p.expected, p.baseline])),
    exact_reviews: ratio(exact, reviews.length),
    complaints_flagged: ratio(flagged, complaints),
    by_tag: measureByTag(pairs),
    errors,
  };
}

function measureDetection(truePositives: number, detected: number, labels: number): DetectionMetrics {
  const precision = ratio(truePositives, detected);
  const recall = ratio(truePositives, labels);
  return { precision, recall, f1: harmonic(precision, recall), true_positives: truePositives, detected, labels };
}
