/**
 * The corrected counts (core/insights/count-estimate.ts, aspect-accuracy.ts): the estimator undoes a
 * known confusion, stays within what is possible, gives the same bytes for the same input, and its 95%
 * range holds the truth about 95% of the time on simulated businesses whose analyser errs as measured.
 */
import { describe, expect, it } from 'vitest';
import { createCountCorrector, DEFAULT_ASPECT_ACCURACY, describeAccuracy, listConfusionPriors } from '../../core/insights/aspect-accuracy.ts';
import { createCountEstimator, type CountEstimator } from '../../core/insights/count-estimate.ts';
import { createRandom } from '../../core/insights/seeded-random.ts';
import { loadCorpusSplit } from '../../tools/insights-corpus/load-corpus.ts';

// A confusion known exactly (huge counts): 80% of mentions found, 5% of the others flagged.
const EXACT = [
  [95_000, 4_000, 0, 1_000],
  [20_000, 78_000, 1_000, 1_000],
  [20_000, 10_000, 60_000, 10_000],
  [20_000, 2_000, 0, 78_000],
];

type SimulatedRun = { observed: number[]; estimate: ReturnType<CountEstimator> };

/**
 * 200 simulated groups with the true class counts `truth` (not mentioned, positive, neutral, negative):
 * in each, a confusion is drawn from what was measured for `aspect`, every review is classified by it,
 * and the found counts are estimated.
 */
function simulateBusinesses(aspect: string, truth: readonly number[], seed: string): SimulatedRun[] {
  const rows = listConfusionPriors(DEFAULT_ASPECT_ACCURACY).get(aspect)!;
  const estimator = createCountEstimator(rows, `confusion:${aspect}`);
  const random = createRandom(seed);
  const reviews = truth.reduce((sum, n) => sum + n, 0);
  return Array.from({ length: 200 }, (_, run) => {
    const confusion = rows.map((row) => random.dirichlet(row));
    const observed = [0, 0, 0, 0];
    truth.forEach((n, i) => random.multinomial(n, confusion[i]!).forEach((k, j) => (observed[j]! += k)));
    const found = { mentions: reviews - observed[0]!, positive: observed[1]!, neutral: observed[2]!, negative: observed[3]! };
    return { observed, estimate: estimator(found, reviews, `run ${run}`) };
  });
}

describe('createCountEstimator', () => {
  it('recovers the true counts from what an analyser with a known confusion would report', () => {
    // 1,000 reviews: 700 without the aspect, 200 positive, 0 neutral, 100 negative.
    const truth = [700, 200, 0, 100];
    const expected = [0, 1, 2, 3].map((j) => truth.reduce((sum, n, i) => sum + (n * EXACT[i]![j]!) / 100_000, 0));
    const observed = { mentions: 1000 - expected[0]!, positive: expected[1]!, neutral: expected[2]!, negative: expected[3]! };
    const estimate = createCountEstimator(EXACT, 'exact')(observed, 1000, 'case');
    expect(estimate.mentions.value).toBe(300);
    expect(estimate.positive.value).toBe(200);
    expect(estimate.negative.value).toBe(100);
    // Raw counts would have said 300 − 60 + 35 mentions: the correction is not a no-op.
    expect(observed.mentions).toBeCloseTo(275, 0);
  });

  it('clips to what is possible: no count below 0 or above the reviews, the value inside its range', () => {
    const estimate = createCountEstimator(EXACT, 'exact');
    for (const observed of [
      { mentions: 0, positive: 0, neutral: 0, negative: 0 },
      { mentions: 50, positive: 50, neutral: 0, negative: 0 },
      { mentions: 50, positive: 0, neutral: 0, negative: 50 },
    ]) {
      for (const part of Object.values(estimate(observed, 50, 'edge'))) {
        expect(part.low).toBeGreaterThanOrEqual(0);
        expect(part.high).toBeLessThanOrEqual(50);
        expect(part.low).toBeLessThanOrEqual(part.value);
        expect(part.value).toBeLessThanOrEqual(part.high);
      }
    }
  });

  it('gives the same range for the same input, whatever was estimated before', () => {
    const rows = listConfusionPriors(DEFAULT_ASPECT_ACCURACY).get('price')!;
    const observed = { mentions: 120, positive: 89, neutral: 5, negative: 26 };
    const first = createCountEstimator(rows, 'confusion:price')(observed, 480, 'aspect:price');
    const other = createCountEstimator(rows, 'confusion:price');
    other({ mentions: 3, positive: 3, neutral: 0, negative: 0 }, 40, 'something else');
    expect(other(observed, 480, 'aspect:price')).toEqual(first);
  });

  it('holds the true count in its 95% range about 95% of the time when the analyser errs as measured', () => {
    // Scheduling: the aspect with the lowest recall.
    const runs = simulateBusinesses('scheduling', [400, 60, 0, 40], 'simulated businesses');
    const held = runs.filter(({ estimate }) => estimate.mentions.low <= 100 && 100 <= estimate.mentions.high).length;
    expect(held / runs.length).toBeGreaterThanOrEqual(0.9);
    expect(held / runs.length).toBeLessThanOrEqual(0.995);
  });

  it('follows a group unlike the corpus (a technician with many complaints) closer than the raw counts', () => {
    // 40 reviews, 15 of them negative on punctuality, where the corpus has a few per hundred: an estimator
    // that leans on the corpus's mix would pull this group back to it (docs/insights.md).
    const runs = simulateBusinesses('punctuality', [22, 3, 0, 15], 'a technician with a problem');
    const held = runs.filter(({ estimate }) => estimate.negative.low <= 15 && 15 <= estimate.negative.high).length;
    const error = (pick: (run: SimulatedRun) => number) => runs.reduce((sum, run) => sum + Math.abs(pick(run) - 15), 0);
    expect(held / runs.length).toBeGreaterThanOrEqual(0.9);
    expect(error((run) => run.estimate.negative.value)).toBeLessThan(error((run) => run.observed[3]!));
  });
});

describe('createCountCorrector', () => {
  const corrector = createCountCorrector(DEFAULT_ASPECT_ACCURACY);

  it('estimates nothing for fewer than 20 reviews or an aspect without measured accuracy', () => {
    const counts = { mentions: 5, positive: 4, neutral: 0, negative: 1 };
    expect(corrector.estimate('price', counts, 19, 'k')).toBeNull();
    expect(corrector.estimate('price', counts, 20, 'k')).not.toBeNull();
    expect(corrector.estimate('warranty', counts, 500, 'k')).toBeNull();
    expect(corrector.accuracy('warranty')).toBeNull();
  });
});

describe('the shipped accuracy table', () => {
  it('is measured on the whole dev split and the whole train split, every labelled review counted once per aspect', () => {
    const labelled = [...loadCorpusSplit('dev'), ...loadCorpusSplit('train')];
    expect(DEFAULT_ASPECT_ACCURACY.split).toBe('dev+train-cross-fitted-5');
    expect(DEFAULT_ASPECT_ACCURACY.reviews).toBe(labelled.length);
    for (const [aspect, confusion] of Object.entries(DEFAULT_ASPECT_ACCURACY.aspects)) {
      const accuracy = describeAccuracy(confusion);
      expect(accuracy.detection.n, aspect).toBe(labelled.length);
      expect(accuracy.detection.mentions, aspect).toBe(labelled.filter((r) => r.labels.some((l) => l.aspect === aspect)).length);
    }
  });

  it('publishes recall, false-alarm rate and polarity accuracy as the confusion says', () => {
    const accuracy = describeAccuracy([
      [90, 8, 0, 2],
      [5, 14, 0, 1],
      [0, 0, 0, 0],
      [5, 0, 0, 5],
    ]);
    expect(accuracy).toEqual({
      detection: { recall: 0.6667, false_alarm_rate: 0.1, n: 130, mentions: 30 },
      polarity: { accuracy: 0.95, n: 20 },
    });
  });
});
