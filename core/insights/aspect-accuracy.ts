/**
 * The analyser's measured error per aspect, as data the build reads: for each aspect, the confusion of
 * the analyser against the labels of the realistic corpus (tools/insights-corpus/: its dev split, and
 * its train split cross-fitted, as measure-accuracy.ts says),
 * rows labelled and columns found, in the class order of count-estimate.ts (not mentioned, positive,
 * neutral, negative). `npm run eval` and `npm run train` rewrite aspect-accuracy.json; a test fails
 * while it is stale. An aspect it does not list (one an owner added) gets neither an estimate nor an
 * accuracy.
 */
import { z } from 'zod';
import defaultAccuracy from './aspect-accuracy.json' with { type: 'json' };
import type { AspectAccuracy, CountEstimate } from '../schemas/insights.ts';
import { createCountEstimator } from './count-estimate.ts';
import type { PolarityCounter } from './figures.ts';

const CountRowSchema = z.tuple([z.int().min(0), z.int().min(0), z.int().min(0), z.int().min(0)]);

export const AspectAccuracyTableSchema = z.strictObject({
  $comment: z.string(),
  split: z.string(),
  reviews: z.int().min(0),
  aspects: z.record(z.string(), z.tuple([CountRowSchema, CountRowSchema, CountRowSchema, CountRowSchema])),
});

export type AspectAccuracyTable = z.infer<typeof AspectAccuracyTableSchema>;
type Confusion = AspectAccuracyTable['aspects'][string];

/** The shipped table (npm run eval). */
export const DEFAULT_ASPECT_ACCURACY: AspectAccuracyTable = AspectAccuracyTableSchema.parse(defaultAccuracy);

/**
 * How many labelled reviews the prior of each confusion row weighs: the row of all aspects pooled,
 * scaled to this many, so a row with few labels leans on the pooled one and a row with hundreds keeps
 * its own rates.
 */
const PRIOR_REVIEWS = 4;
const NEUTRAL = 2;

/**
 * Each aspect's Dirichlet parameters for estimateCounts: its counts plus the pooled prior. The neutral
 * row is the pooled one for every aspect: neutral labels are too rare for a row per aspect (none at
 * all for several), and a row known that poorly lets positive and neutral trade places freely, which
 * blows the range up.
 */
export function listConfusionPriors(table: AspectAccuracyTable): Map<string, number[][]> {
  const confusions = Object.values(table.aspects);
  const pooled = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => confusions.reduce((sum, c) => sum + c[i]![j]!, 0) + 0.5));
  const prior = pooled.map((row) => {
    const total = row.reduce((sum, x) => sum + x, 0);
    return row.map((x) => (PRIOR_REVIEWS * x) / total);
  });
  return new Map(
    Object.entries(table.aspects).map(([id, c]) => [id, c.map((row, i) => (i === NEUTRAL ? pooled[i]! : row.map((n, j) => n + prior[i]![j]!)))]),
  );
}

/** The published figures of one confusion: detection recall and false-alarm rate, polarity accuracy. */
export function describeAccuracy(confusion: Confusion): AspectAccuracy {
  const [none, ...labelled] = confusion;
  const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
  const mentions = sum(labelled.map(sum));
  const found = sum(labelled.map((row) => sum(row.slice(1))));
  const right = labelled.reduce((s, row, i) => s + row[i + 1]!, 0);
  const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((10000 * a) / b) / 10000);
  return {
    detection: {
      recall: ratio(found, mentions),
      false_alarm_rate: ratio(sum(none.slice(1)), sum(none)),
      n: sum(none) + mentions,
      mentions,
    },
    polarity: { accuracy: ratio(right, found), n: found },
  };
}

/** Below this many reviews a group's counts are shown raw: the range would span most of the group. */
export const MIN_REVIEWS_FOR_ESTIMATE = 20;

export type CountCorrector = {
  /** The corrected counts of `aspect` among `reviews` reviews; null when not measured or too few reviews. */
  estimate(aspect: string, counts: PolarityCounter, reviews: number, key: string): CountEstimate;
  accuracy(aspect: string): AspectAccuracy | null;
};

export function createCountCorrector(table: AspectAccuracyTable): CountCorrector {
  const estimators = new Map([...listConfusionPriors(table)].map(([aspect, rows]) => [aspect, createCountEstimator(rows, `confusion:${aspect}`)]));
  return {
    estimate(aspect, counts, reviews, key) {
      const estimator = estimators.get(aspect);
      return estimator === undefined || reviews < MIN_REVIEWS_FOR_ESTIMATE ? null : estimator(counts, reviews, key);
    },
    accuracy(aspect) {
      const confusion = table.aspects[aspect];
      return confusion === undefined ? null : describeAccuracy(confusion);
    },
  };
}
