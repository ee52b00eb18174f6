/**
 * `node tools/insights-corpus/simulate-counts.ts`: how close corrected counts can come on a business
 * the size of the test split (629 reviews), whatever the test split holds. Reads no review: the
 * analyser is assumed to err exactly as core/insights/aspect-accuracy.json measured, each aspect's
 * class shares are those of the labelled reviews behind that table, and each simulated business is
 * classified review by review (multinomial draws), then corrected as the build corrects it.
 *
 * Printed: how many of the (about 30) figures with at least 10 true reviews fall within 10% (or 3
 * reviews), on average over the businesses, and in how many businesses all of them do; first with
 * the rates measured on 609 or 2,471 labelled reviews, then known exactly, then known exactly for an
 * analyser with a half, a quarter or a tenth of the measured errors.
 */
import { DEFAULT_ASPECT_ACCURACY, listConfusionPriors } from '../../core/insights/aspect-accuracy.ts';
import type { AspectAccuracyTable } from '../../core/insights/aspect-accuracy.ts';
import { createCountSolver } from '../../core/insights/count-estimate.ts';
import { createRandom } from '../../core/insights/seeded-random.ts';
import { isClose, MIN_TRUTH } from './evaluate-counts.ts';

const BUSINESS_REVIEWS = 629;
const BUSINESSES = 1000;

const random = createRandom('simulate-counts');
const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const normalize = (row: readonly number[]) => row.map((x) => x / sum(row));
const truthRows = listConfusionPriors(DEFAULT_ASPECT_ACCURACY);
const shares = new Map(Object.entries(DEFAULT_ASPECT_ACCURACY.aspects).map(([id, c]) => [id, normalize(c.map(sum))]));

/** The analyser's confusion with its errors (off the diagonal) scaled by `scale`. */
function scaleErrors(rows: number[][], scale: number): number[][] {
  return rows.map((row, i) => {
    const p = normalize(row).map((x, j) => (i === j ? 0 : x * scale));
    p[i] = 1 - sum(p);
    return p;
  });
}

function simulate(label: string, measuredOn: number | null, errorScale = 1) {
  let close = 0;
  let figures = 0;
  let allClose = 0;
  for (let b = 0; b < BUSINESSES; b++) {
    const truth = new Map([...truthRows].map(([id, rows]) => [id, scaleErrors(rows, errorScale)]));
    // The rates as a labelled set of `measuredOn` reviews would measure them, or exactly.
    let solverRows: Map<string, number[][]> = truth;
    if (measuredOn !== null) {
      const table: AspectAccuracyTable = { $comment: '', split: 'simulated', reviews: measuredOn, aspects: {} };
      for (const [id, rows] of truth) {
        const perRow = random.multinomial(measuredOn, shares.get(id)!);
        table.aspects[id] = rows.map((row, i) => random.multinomial(perRow[i]!, row)) as AspectAccuracyTable['aspects'][string];
      }
      solverRows = listConfusionPriors(table);
    }
    let businessClose = 0;
    let businessFigures = 0;
    for (const [id, rows] of truth) {
      const p = random.multinomial(BUSINESS_REVIEWS, shares.get(id)!);
      const q = [0, 0, 0, 0];
      rows.forEach((row, i) => random.multinomial(p[i]!, row).forEach((n, j) => (q[j]! += n)));
      const e = createCountSolver(solverRows.get(id)!)(q);
      const parts: [number, number][] = [
        [p[1]! + p[2]! + p[3]!, e[1]! + e[2]! + e[3]!],
        [p[1]!, e[1]!],
        [p[3]!, e[3]!],
      ];
      for (const [t, estimate] of parts) {
        if (t < MIN_TRUTH) continue;
        businessFigures++;
        if (isClose(Math.round(estimate), t)) businessClose++;
      }
    }
    close += businessClose;
    figures += businessFigures;
    if (businessClose === businessFigures) allClose++;
  }
  console.log(
    `${label.padEnd(52)} ${(close / BUSINESSES).toFixed(1).padStart(5)} of ${(figures / BUSINESSES).toFixed(1)} within 10%; all within in ${allClose} of ${BUSINESSES} businesses`,
  );
}

console.log(`${BUSINESSES} simulated businesses of ${BUSINESS_REVIEWS} reviews, the analyser erring as measured on ${DEFAULT_ASPECT_ACCURACY.reviews} reviews:`);
simulate('rates measured on 609 labelled reviews', 609);
simulate('rates measured on 2,471 labelled reviews', 2471);
simulate('rates known exactly', null);
for (const scale of [0.5, 0.25, 0.1]) simulate(`rates known exactly, analyser with ${scale}× the errors`, null, scale);
