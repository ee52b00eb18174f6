/**
 * Checks the corrected counts (core/insights/count-estimate.ts) on labelled reviews the accuracy table
 * was not measured on: the split is treated as one business's reviews, and for each aspect and for its
 * positive and negative parts, the analyser's raw count and the estimate are compared with the
 * labelled (true) count, and the 95% range is checked for holding it. Aggregates only: no review is
 * shown, so the test split can be scored without being read.
 */
import type { AspectAccuracyTable } from '../../core/insights/aspect-accuracy.ts';
import { createCountCorrector, listConfusionPriors } from '../../core/insights/aspect-accuracy.ts';
import type { AspectPrediction, LabelledReview } from './evaluate-reviews.ts';

export type CountFigure = {
  aspect: string;
  part: 'mentions' | 'positive' | 'negative';
  truth: number;
  raw: number;
  estimate: number;
  low: number;
  high: number;
};

export type CountEvalReport = {
  reviews: number;
  figures: CountFigure[];
  /** Over figures with at least MIN_TRUTH true reviews: within 10% or 3 reviews, range holds the truth. */
  summary: { figures: number; raw_close: number; estimate_close: number; range_holds: number; raw_mean_abs_error: number; estimate_mean_abs_error: number };
};

export const MIN_TRUTH = 10;

/** Within 10% of the true count, or within 3 reviews for small counts. */
export function isClose(value: number, truth: number): boolean {
  return Math.abs(value - truth) <= Math.max(3, 0.1 * truth);
}

export function evaluateCounts(
  reviews: readonly LabelledReview[],
  analyze: (review: LabelledReview) => readonly AspectPrediction[],
  table: AspectAccuracyTable,
): CountEvalReport {
  return evaluateFoundCounts(
    reviews.map((review) => ({ labels: review.labels, found: analyze(review) })),
    table,
  );
}

/** The same check from each review's labels and what the analyser found in it, however it was classified. */
export function evaluateFoundCounts(
  reviews: readonly { labels: readonly AspectPrediction[]; found: readonly AspectPrediction[] }[],
  table: AspectAccuracyTable,
): CountEvalReport {
  const corrector = createCountCorrector(table);
  const aspects = [...listConfusionPriors(table).keys()];
  const zero = () => ({ mentions: 0, positive: 0, neutral: 0, negative: 0 });
  const raw = new Map(aspects.map((a) => [a, zero()]));
  const truth = new Map(aspects.map((a) => [a, zero()]));
  for (const review of reviews) {
    for (const m of review.found) count(raw.get(m.aspect), m.polarity);
    for (const l of review.labels) count(truth.get(l.aspect), l.polarity);
  }
  const figures: CountFigure[] = aspects.flatMap((aspect) => {
    const estimate = corrector.estimate(aspect, raw.get(aspect)!, reviews.length, `eval:${aspect}`)!;
    return (['mentions', 'positive', 'negative'] as const).map((part) => ({
      aspect,
      part,
      truth: truth.get(aspect)![part],
      raw: raw.get(aspect)![part],
      estimate: estimate[part].value,
      low: estimate[part].low,
      high: estimate[part].high,
    }));
  });
  const judged = figures.filter((f) => f.truth >= MIN_TRUTH);
  const share = (test: (f: CountFigure) => boolean) => judged.filter(test).length;
  const mean = (pick: (f: CountFigure) => number) => (judged.length === 0 ? 0 : judged.reduce((s, f) => s + Math.abs(pick(f) - f.truth) / f.truth, 0) / judged.length);
  return {
    reviews: reviews.length,
    figures,
    summary: {
      figures: judged.length,
      raw_close: share((f) => isClose(f.raw, f.truth)),
      estimate_close: share((f) => isClose(f.estimate, f.truth)),
      range_holds: share((f) => f.low <= f.truth && f.truth <= f.high),
      raw_mean_abs_error: mean((f) => f.raw),
      estimate_mean_abs_error: mean((f) => f.estimate),
    },
  };
}

function count(counter: { mentions: number; positive: number; neutral: number; negative: number } | undefined, polarity: 'positive' | 'neutral' | 'negative') {
  if (counter === undefined) return;
  counter.mentions++;
  counter[polarity]++;
}
