/**
 * Corrects an aspect's counts for the analyser's measured error, with a 95% range.
 *
 * Each review falls in one of four classes for an aspect: not mentioned, positive, neutral, negative.
 * The analyser's confusion on labelled reviews gives C[i][j] = P(analyser says j | truth is i). What we
 * observe is the analyser's count of each class, q; in expectation q = Cᵀp for the true counts p, so
 * the estimate solves that system (adjusted classify-and-count, multiclass: Forman 2008). When the
 * solution leaves what is possible (a negative count), the maximum-likelihood counts on the boundary
 * are taken instead, by the EM of Saerens et al. (2002) with C held fixed; the counts always sum to
 * the number of reviews.
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

/**
 * `observed` holds the analyser's counts (mentions and their polarities) among `reviews` reviews;
 * `rows` the Dirichlet parameters of each row of the confusion (labelled counts plus prior, all > 0).
 */
export function estimateCounts(
  observed: { mentions: number; positive: number; neutral: number; negative: number },
  reviews: number,
  rows: readonly (readonly number[])[],
  key: string,
): NonNullable<CountEstimate> {
  const q = [reviews - observed.mentions, observed.positive, observed.neutral, observed.negative];
  const means = rows.map((row) => normalize(row));
  const point = solveCounts(means, q);
  const random = createRandom(key);
  const truth = point.map((x) => Math.round(x));
  const replicates = Array.from({ length: REPLICATES }, () => {
    const simulated = [0, 0, 0, 0];
    rows.forEach((row, i) => {
      random.multinomial(truth[i]!, random.dirichlet(row)).forEach((n, j) => (simulated[j]! += n));
    });
    return solveCounts(means, simulated);
  });
  const range = (pick: (p: number[]) => number): CountRange => {
    const values = replicates.map(pick).sort((a, b) => a - b);
    const value = Math.round(pick(point));
    const low = Math.min(value, Math.round(values[Math.floor(0.025 * (REPLICATES - 1))]!));
    const high = Math.max(value, Math.round(values[Math.ceil(0.975 * (REPLICATES - 1))]!));
    return { value, low, high };
  };
  return {
    mentions: range((p) => reviews - p[0]!),
    positive: range((p) => p[1]!),
    negative: range((p) => p[3]!),
  };
}

/** The true counts p ≥ 0 with Σp = Σq that best explain q = Cᵀp. */
export function solveCounts(confusion: readonly (readonly number[])[], q: readonly number[]): number[] {
  const total = q.reduce((sum, x) => sum + x, 0);
  if (total === 0) return q.map(() => 0);
  const exact = solveLinear(transpose(confusion), q);
  if (exact !== null && exact.every((x) => x >= 0)) return exact;
  // EM for the mixing proportions with known components: converges to the maximum-likelihood p.
  let p = q.map((x) => (x + 1) / (total + q.length));
  for (let round = 0; round < 500; round++) {
    const expected = q.map((_, j) => p.reduce((sum, pi, i) => sum + pi * confusion[i]![j]!, 0));
    const next = p.map((pi, i) => q.reduce((sum, qj, j) => (expected[j]! > 0 ? sum + (qj / total) * ((pi * confusion[i]![j]!) / expected[j]!) : sum), 0));
    const change = next.reduce((sum, x, i) => sum + Math.abs(x - p[i]!), 0);
    p = next;
    if (change < 1e-9) break;
  }
  return p.map((share) => share * total);
}

function normalize(row: readonly number[]): number[] {
  const total = row.reduce((sum, x) => sum + x, 0);
  return row.map((x) => x / total);
}

function transpose(m: readonly (readonly number[])[]): number[][] {
  return m[0]!.map((_, j) => m.map((row) => row[j]!));
}

/** Gaussian elimination with partial pivoting; null when the system is singular. */
function solveLinear(matrix: readonly (readonly number[])[], b: readonly number[]): number[] | null {
  const n = b.length;
  const a = matrix.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= n; c++) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}
