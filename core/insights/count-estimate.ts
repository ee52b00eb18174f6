/**
 * Corrects an aspect's counts for the analyser's measured error, with a 95% range.
 *
 * Each review falls in one of four classes for an aspect: not mentioned, positive, neutral, negative.
 * The analyser's confusion on labelled reviews gives C[i][j] = P(analyser says j | truth is i). What we
 * observe is the analyser's count of each class, q; in expectation q = Cᵀp for the true counts p, so
 * the estimate solves that system (adjusted classify-and-count, multiclass: Forman 2008). When the
 * solution leaves what is possible (a negative count), it is clipped at zero and the rest rescaled, so
 * the counts always sum to the number of reviews (Forman's clipping).
 *
 * The range is a parametric bootstrap of exactly that estimator: each replicate draws a plausible
 * true confusion from the Dirichlet posterior of every row (the labelled counts plus the prior of
 * aspect-accuracy.ts), lets it classify the estimated true counts (each class a multinomial draw), and
 * solves those simulated counts with the measured confusion, as the estimate did; the 2.5th and 97.5th
 * percentiles of the replicates are the range. It so holds both the uncertainty of the measured rates
 * and the chance in which reviews the analyser gets wrong. The draws are seeded by `key`, so the same
 * input gives the same range.
 */
import type { CountEstimate } from '../schemas/insights.ts';
import { createRandom } from './seeded-random.ts';

type CountRange = NonNullable<CountEstimate>['mentions'];

/** Class order of the confusion rows and columns, and of the counts. */
export const COUNT_CLASSES = ['none', 'positive', 'neutral', 'negative'] as const;

const REPLICATES = 400;

export type CountEstimator = (
  observed: { mentions: number; positive: number; neutral: number; negative: number },
  reviews: number,
  key: string,
) => NonNullable<CountEstimate>;

/**
 * The estimator of one aspect. `rows` are the Dirichlet parameters of each row of its confusion
 * (labelled counts plus prior, all > 0). The plausible confusions of the bootstrap are drawn once per
 * aspect, seeded by the aspect, and shared by every group estimated with it; each group's
 * classification draws are seeded by its own `key`.
 */
export function createCountEstimator(rows: readonly (readonly number[])[], aspectKey: string): CountEstimator {
  const solve = createCountSolver(rows);
  const confusionRandom = createRandom(aspectKey);
  const confusions = Array.from({ length: REPLICATES }, () => rows.map((row) => confusionRandom.dirichlet(row)));
  return (observed, reviews, key) => {
    const q = [reviews - observed.mentions, observed.positive, observed.neutral, observed.negative];
    const point = solve(q);
    const random = createRandom(key);
    const truth = point.map((x) => Math.round(x));
    const replicates = confusions.map((confusion) => {
      const simulated = [0, 0, 0, 0];
      confusion.forEach((row, i) => {
        random.multinomial(truth[i]!, row).forEach((n, j) => (simulated[j]! += n));
      });
      return solve(simulated);
    });
    const range = (pick: (p: number[]) => number): CountRange => {
      const values = Float64Array.from(replicates, pick).sort();
      const value = Math.round(pick(point));
      // Rounded replicates can stray a review past what is possible: the bounds stay within 0..reviews.
      const low = Math.max(0, Math.min(value, Math.round(values[Math.floor(0.025 * (REPLICATES - 1))]!)));
      const high = Math.min(reviews, Math.max(value, Math.round(values[Math.ceil(0.975 * (REPLICATES - 1))]!)));
      return { value, low, high };
    };
    return {
      mentions: range((p) => p[1]! + p[2]! + p[3]!),
      positive: range((p) => p[1]!),
      negative: range((p) => p[3]!),
    };
  };
}

/**
 * The point estimate alone: the true counts p that explain the found counts q = Cᵀp for the mean
 * confusion of `rows`, clipped to what is possible.
 */
export function createCountSolver(rows: readonly (readonly number[])[]): (q: readonly number[]) => number[] {
  const inverse = invert(transpose(rows.map((row) => normalize(row))));
  return (q) => clipCounts(inverse === null ? [...q] : multiply(inverse, q), q);
}

/** The unconstrained solution clipped at zero and rescaled to the number of reviews (Forman's clipping). */
function clipCounts(solution: readonly number[], q: readonly number[]): number[] {
  const total = q.reduce((sum, x) => sum + x, 0);
  if (solution.every((x) => x >= 0)) return [...solution];
  const clipped = solution.map((x) => Math.max(0, x));
  const kept = clipped.reduce((sum, x) => sum + x, 0);
  return kept === 0 ? [...q] : clipped.map((x) => (x * total) / kept);
}

function multiply(m: readonly (readonly number[])[], v: readonly number[]): number[] {
  return m.map((row) => row.reduce((sum, x, j) => sum + x * v[j]!, 0));
}

function normalize(row: readonly number[]): number[] {
  const total = row.reduce((sum, x) => sum + x, 0);
  return row.map((x) => x / total);
}

function transpose(m: readonly (readonly number[])[]): number[][] {
  return m[0]!.map((_, j) => m.map((row) => row[j]!));
}

/** Gauss–Jordan with partial pivoting; null when the matrix is singular. */
function invert(matrix: readonly (readonly number[])[]): number[][] | null {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const scale = a[col]![col]!;
    for (let c = 0; c < 2 * n; c++) a[col]![c]! /= scale;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r]![col]!;
      for (let c = 0; c < 2 * n; c++) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return a.map((row) => row.slice(n));
}
