/**
 * Issue 11's accuracy targets on the held-out test split of the realistic corpus, scored here and by
 * `npm run eval` only (never looked at review by review, never tuned on). Aggregates only.
 */
import { describe, expect, it } from 'vitest';
import { analyzePublishedReview } from '../../core/insights/analyze-review.ts';
import { evaluateReviews } from '../../core/insights/evaluate-reviews.ts';
import { loadCorpusSplit } from '../fixtures/insights-corpus/load-corpus.ts';
import { CORPUS_SPLITS } from '../fixtures/insights-corpus/split.ts';
import { CORPUS_TARGETS } from '../fixtures/insights-corpus/targets.ts';
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
    expect(report.system.macro_f1).toBeGreaterThanOrEqual(CORPUS_TARGETS.macro_f1);
  });

  it('gets every aspect and polarity right on at least half of the reviews', () => {
    expect(report.exact_reviews).toBeGreaterThanOrEqual(CORPUS_TARGETS.exact_reviews);
  });

  // The detection target (recall >= 85% at precision >= 90%) is NOT met: the README reports the
  // real figures (precision 87%, recall 76% when measured). This guards what is reached against regressions.
  it('detects aspects with precision >= 85% and recall >= 74% (below the issue target, see the README)', () => {
    expect(report.detection.precision).toBeGreaterThanOrEqual(0.85);
    expect(report.detection.recall).toBeGreaterThanOrEqual(0.74);
  });
});
