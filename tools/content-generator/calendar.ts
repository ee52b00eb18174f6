/**
 * Which months the reviews fall in and how many each gets. The span is the 45 calendar months up to
 * and including the end date's month (3.7 years), the business grows steadily (the last year has
 * about twice the reviews of the first), and HVAC work peaks in summer and winter. Counts are
 * apportioned with the largest-remainder method, so they always add up to exactly the total asked.
 */

export const SPAN_MONTHS = 45;

export type Month = {
  /** "2024-03" */
  key: string;
  year: number;
  /** 1-12 */
  month: number;
  /** Last day reviews may fall on: the month's length, or the end date's day in the last month. */
  lastDay: number;
  /** 0 for the first month of the span, 1 for the last. */
  progress: number;
  weight: number;
};

const SEASON = [1.1, 1, 0.85, 0.85, 1, 1.2, 1.35, 1.3, 1, 0.85, 0.9, 1.05];
const GROWTH = 2.3;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function listMonths(end: string): Month[] {
  const [endYear, endMonth, endDay] = end.split('-').map(Number) as [number, number, number];
  const months: Month[] = [];
  for (let i = 0; i < SPAN_MONTHS; i++) {
    const index = endYear * 12 + (endMonth - 1) - (SPAN_MONTHS - 1 - i);
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    const length = daysInMonth(year, month);
    const lastDay = i === SPAN_MONTHS - 1 ? endDay : length;
    const progress = i / (SPAN_MONTHS - 1);
    const weight = GROWTH ** progress * SEASON[month - 1]! * (lastDay / length);
    months.push({ key: `${year}-${String(month).padStart(2, '0')}`, year, month, lastDay, progress, weight });
  }
  return months;
}

/** Splits `total` into integers proportional to `weights`. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i]!++;
  }
  return counts;
}
