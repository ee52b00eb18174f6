/**
 * Issue 11's accuracy targets on the held-out test split of the realistic corpus, scored here and by
 * `npm run eval` only (never looked at review by review, never tuned on). Aggregates only.
 */
import { describe, expect, it } from 'vitest';
import { analyzePublishedReview } from '../../core/insights/analyze-review.ts';
import { evaluateReviews } from '../../tools/insights-corpus/evaluate-reviews.ts';
import { loadCorpusSplit } from '../../tools/insights-corpus/load-corpus.ts';
import { CORPUS_SPLITS } from '../../tools/insights-corpus/split.ts';
import { CORPUS_TARGETS } from '../../tools/insights-corpus/targets.ts';
import { loadDefaultModel } from './load-fixtures.ts';

const model = loadDefaultModel();
const report = evaluateReviews(loadCorpusSplit('test'), (review) => analyzePublishedReview(review, model));

describe('the analyzer on the held-out test split', () => {
  it('is scored on at least 250 reviews, a fifth of a corpus of at least 1,500', () => {
    const total = CORPUS_SPLITS.reduce((n, split) => n + loadCorpusSplit(split).length, 0);
    expect(total).toBeGreaterThanOrEqual(1500);
    expect(report.reviews).toBeGreaterThanOrEqual(250);
  });

  it('gets polarity right on detected aspects, well ahead of the star baseline on the same pairs', () => {
    expect(report.system.accuracy).toBeGreaterThanOrEqual(CORPUS_TARGETS.polarity_accuracy);
    expect(report.system.accuracy - report.star_baseline.accuracy).toBeGreaterThanOrEqual(CORPUS_TARGETS.margin_over_star_baseline);
  });

  it('reaches macro-F1 >= 0.75 over positive, neutral and negative', () => {
    expect(report.system.macro_f1).toBeGreaterThanOrEqual(CORPUS_TARGETS.macro_f1);
  });

  // Below are the targets NOT met when last measured (docs/insights.md "Measured accuracy" has the figures):
  // these floors guard what is reached against regressions; they are not the targets, which
  // `npm run eval` keeps printing as NOT MET until they are.
  it('gets every aspect and polarity right on at least 46% of the reviews (target 50%)', () => {
    expect(report.exact_reviews).toBeGreaterThanOrEqual(0.46);
  });

  it('detects aspects with precision >= 81% and recall >= 79% (target: recall 85% at precision 90%)', () => {
    expect(report.detection.precision).toBeGreaterThanOrEqual(0.81);
    expect(report.detection.recall).toBeGreaterThanOrEqual(0.79);
  });
});
