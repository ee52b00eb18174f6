/**
 * Issue 44's check of the corrected counts on the held-out test split (the rates were measured on dev
 * and on the train split, cross-fitted):
 * the split taken as one business, each aspect figure with at least 10 true reviews. Aggregates only.
 * docs/insights.md "Corrected counts" has the figures; `npm run eval` prints them per aspect.
 */
import { describe, expect, it } from 'vitest';
import { analyzePublishedReview } from '../../core/insights/analyze-review.ts';
import { DEFAULT_ASPECT_ACCURACY } from '../../core/insights/aspect-accuracy.ts';
import { evaluateCounts } from '../../tools/insights-corpus/evaluate-counts.ts';
import { loadCorpusSplit } from '../../tools/insights-corpus/load-corpus.ts';
import { loadDefaultModel } from './load-fixtures.ts';

const model = loadDefaultModel();
const { summary } = evaluateCounts(loadCorpusSplit('test'), (review) => analyzePublishedReview(review, model), DEFAULT_ASPECT_ACCURACY);

describe('corrected counts on the held-out test split', () => {
  it('judges every aspect and its positive and negative parts', () => {
    expect(summary.figures).toBeGreaterThanOrEqual(28);
  });

  it('holds the true count in the 95% range for at least 90% of the figures', () => {
    expect(summary.range_holds / summary.figures).toBeGreaterThanOrEqual(0.9);
  });

  // Not met when last measured: the issue asks every estimate within 10% (or 3 reviews), which a sample
  // of 629 reviews does not allow at this analyser's error rates even with exactly known rates
  // (docs/insights.md, "Corrected counts"). This floor guards what is reached (24 of 30, 23 before issue
  // 44 item 6's cues; raw counts 19 of 30), one below it since a retrain moves a figure or two by chance,
  // and the mean error no worse than raw's.
  it('keeps the estimates as close as reached, on average no further off than the raw counts', () => {
    expect(summary.estimate_close).toBeGreaterThanOrEqual(23);
    expect(summary.estimate_mean_abs_error).toBeLessThanOrEqual(summary.raw_mean_abs_error + 0.01);
  });
});
