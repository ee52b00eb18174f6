/**
 * How a corrected count reads, in one place for the FAQ, the summary and the pages: "about 48
 * reviews (40–57)" when the count has an estimate, the plain count when it has none (too few reviews,
 * or an aspect without measured accuracy).
 */
import type { CountEstimate } from '../schemas/insights.ts';
import { formatCount, plural } from '../text/text-rules.ts';

export type CountRange = NonNullable<CountEstimate>['mentions'];

/** "about 48 reviews (40–57)", or "48 reviews" without an estimate. */
export function describeEstimatedCount(raw: number, range: CountRange | null | undefined, noun: string): string {
  if (range === null || range === undefined) return plural(raw, noun);
  return `about ${plural(range.value, noun)} (${describeRange(range)})`;
}

/** "40–57", or "48" when the range is a single number. */
export function describeRange(range: CountRange): string {
  return range.low === range.high ? formatCount(range.low) : `${formatCount(range.low)}–${formatCount(range.high)}`;
}

/** The estimate's value, or the raw count without one. */
export function pickEstimate(raw: number, range: CountRange | null | undefined): number {
  return range?.value ?? raw;
}
