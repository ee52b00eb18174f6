/**
 * Small, deterministic arithmetic and formatting shared by the insights modules. Numbers in text are
 * formatted here by hand rather than with Intl, whose output depends on the machine's locale data.
 */
import type { Polarity } from '../schemas/aspects.ts';
import type { AspectStats } from '../schemas/insights.ts';

export type PolarityCounter = { mentions: number; positive: number; neutral: number; negative: number };

export function createCounter(): PolarityCounter {
  return { mentions: 0, positive: 0, neutral: 0, negative: 0 };
}

export function countPolarity(counter: PolarityCounter, polarity: Polarity): void {
  counter.mentions++;
  counter[polarity]++;
}

export function toStats(counter: PolarityCounter): AspectStats {
  const { mentions, positive, neutral, negative } = counter;
  return { mentions, positive, neutral, negative, net_score: computeNetScore(counter) };
}

export function computeNetScore({ mentions, positive, negative }: PolarityCounter): number | null {
  return mentions === 0 ? null : Math.round((100 * (positive - negative)) / mentions);
}

/** `2025-05-14` → `2025-Q2`. */
export function getQuarter(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
}

/** Every quarter from the one of `first` to the one of `last`, both included. */
export function listQuarters(first: string | null, last: string | null): string[] {
  if (first === null || last === null) return [];
  const quarters: string[] = [];
  let year = Number(first.slice(0, 4));
  let quarter = Number(getQuarter(first).slice(-1));
  const end = getQuarter(last);
  for (;;) {
    const key = `${year}-Q${quarter}`;
    quarters.push(key);
    if (key >= end) return quarters;
    quarter = quarter === 4 ? 1 : quarter + 1;
    if (quarter === 1) year++;
  }
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}

export function computeMean(sum: number, count: number): number | null {
  return count === 0 ? null : roundTo(sum / count, 2);
}

/** Whole percent of `part` in `whole` (0 when whole is 0). */




/** Splits a per-quarter series into its last four quarters and everything before, each summed. */
export function splitRecentYear(trend: readonly PolarityCounter[]): { recent: PolarityCounter; before: PolarityCounter } {
  const sum = (points: readonly PolarityCounter[]) =>
    points.reduce(
      (acc, p) => ({
        mentions: acc.mentions + p.mentions,
        positive: acc.positive + p.positive,
        neutral: acc.neutral + p.neutral,
        negative: acc.negative + p.negative,
      }),
      createCounter(),
    );
  return { recent: sum(trend.slice(-4)), before: sum(trend.slice(0, -4)) };
}

export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
