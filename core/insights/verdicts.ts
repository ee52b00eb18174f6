/**
 * The honest-number rules, each written once and used by /insights.json, the pages, the widget
 * frame, the feeds, the images and the MCP tools alike:
 * - a strength or a concern needs at least MIN_VERDICT_MENTIONS mentions and a clear majority, judged
 *   by the Wilson score lower bound (95 %) of its share rather than the raw share, so 7 of 10 is not yet
 *   "clearly most" while 74 of 100 is;
 * - a figure from fewer than SMALL_SAMPLE reviews says how few;
 * - a trend needs MIN_TREND_POINTS periods with data;
 * - "the most frequent complaint" is the aspect with the most complaints.
 */
import { createTranslator, type Translator } from '../i18n/translator.ts';

/** Mentions below which an aspect is neither a strength nor a concern. */
export const MIN_VERDICT_MENTIONS = 5;
/** The Wilson lower bound of the share that makes a clear majority. */
export const CLEAR_MAJORITY = 0.5;
/** Below this many reviews a figure is labelled as a small sample. */
export const SMALL_SAMPLE = 5;
/** A trend line needs this many periods with data; fewer draw no line. */
export const MIN_TREND_POINTS = 3;

const Z_95 = 1.959964;

/** The lower bound of the Wilson score interval (95 %) for `successes` of `trials`; 0 without trials. */
export function computeWilsonLowerBound(successes: number, trials: number): number {
  if (trials === 0) return 0;
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = p + z2 / (2 * trials);
  const margin = Z_95 * Math.sqrt((p * (1 - p) + z2 / (4 * trials)) / trials);
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

type Polarities = { mentions: number; positive: number; negative: number };

/** `strength` or `concern` when the mentions show a clear majority one way, else null. */
export function judgeAspect({ mentions, positive, negative }: Polarities): 'strength' | 'concern' | null {
  if (mentions < MIN_VERDICT_MENTIONS) return null;
  if (computeWilsonLowerBound(positive, mentions) >= CLEAR_MAJORITY) return 'strength';
  if (computeWilsonLowerBound(negative, mentions) >= CLEAR_MAJORITY) return 'concern';
  return null;
}

/** The aspects that are strengths (or concerns), the most certain first. */
export function selectVerdicts<T extends Polarities>(aspects: readonly T[], verdict: 'strength' | 'concern'): T[] {
  const key = verdict === 'strength' ? 'positive' : 'negative';
  return aspects
    .filter((a) => judgeAspect(a) === verdict)
    .map((a) => ({ a, bound: computeWilsonLowerBound(a[key], a.mentions) }))
    .sort((x, y) => y.bound - x.bound || y.a.mentions - x.a.mentions)
    .map(({ a }) => a);
}

/** The aspect with the most complaints (ties: the larger share of complaints), or undefined without any. */
export function findMostComplained<T extends Polarities>(aspects: readonly T[]): T | undefined {
  return aspects
    .filter((a) => a.negative > 0)
    .sort((a, b) => b.negative - a.negative || b.negative / b.mentions - a.negative / a.mentions)[0];
}

export function isSmallSample(reviews: number): boolean {
  return reviews < SMALL_SAMPLE;
}

/** "24 reviews", or "only 3 reviews" below the small-sample size: how a figure names its basis. */
export function describeReviewCount(reviews: number, t: Translator = createTranslator()): string {
  const counted = t.plural(t.m.units.review, reviews);
  return isSmallSample(reviews) ? t.fill(t.m.insights.onlyReviews, { reviews: counted }) : counted;
}

/** Whether a series has enough periods with data to draw a trend line. */
export function hasTrend(values: readonly (number | null)[]): boolean {
  return values.filter((v) => v !== null).length >= MIN_TREND_POINTS;
}



