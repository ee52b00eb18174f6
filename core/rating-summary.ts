/**
 * Rating summaries for the MCP tool `get_rating_summary`: the star distribution, count and mean of a
 * set of reviews (within dates, of one location), overall and grouped by calendar month or year, by
 * technician and by service. Pure: it takes the published reviews and business and returns plain data
 * described by `RatingSummarySchema`.
 */
import { z } from 'zod';
import { IsoDateSchema } from './schemas/content.ts';
import { RatingDistributionSchema } from './schemas/published.ts';

export const RatingStatsSchema = z.object({
  count: z.int().min(0).meta({ description: 'Number of reviews.' }),
  mean: z.number().nullable().meta({ description: 'Mean star rating rounded to 2 decimals; null when count is 0.' }),
  distribution: RatingDistributionSchema.meta({ description: 'Number of reviews per star rating.' }),
});

export const RatingPeriodSchema = z.enum(['month', 'year']);

export const RatingSummarySchema = z.object({
  period: RatingPeriodSchema.meta({ description: 'How `by_period` is grouped.' }),
  since: IsoDateSchema.nullable().meta({ description: 'Lower date bound applied, or null.' }),
  until: IsoDateSchema.nullable().meta({ description: 'Upper date bound applied, or null.' }),
  overall: RatingStatsSchema,
  by_period: z
    .array(RatingStatsSchema.extend({ period: z.string().meta({ description: '`YYYY-MM` or `YYYY`.' }) }))
    .meta({ description: 'Oldest first, empty periods included.' }),
  by_technician: z
    .array(RatingStatsSchema.extend({ technician: z.string().meta({ description: 'Canonical technician name.' }) }))
    .meta({ description: 'Every technician, counting the reviews that mention them.' }),
  by_service: z
    .array(RatingStatsSchema.extend({ service_id: z.string(), service_name: z.string() }))
    .meta({ description: 'Every service, counting the reviews that mention it.' }),
});

export type RatingPeriod = z.infer<typeof RatingPeriodSchema>;
export type RatingStats = z.infer<typeof RatingStatsSchema>;
export type RatingSummary = z.infer<typeof RatingSummarySchema>;

type SummarisedReview = { rating: number; date: string; technicians: readonly string[]; services: readonly string[]; location?: string | undefined };
type SummarisedBusiness = { technicians: readonly { name: string }[]; services: readonly { id: string; name: string }[] };

export function summarizeRatings(
  reviews: readonly SummarisedReview[],
  business: SummarisedBusiness,
  /** `location`: count only the reviews of that location (a known id: the caller judged it). */
  options: { period: RatingPeriod; since?: string | undefined; until?: string | undefined; location?: string | undefined },
): RatingSummary {
  const { period, since, until, location } = options;
  const periodOf = (date: string) => (period === 'month' ? date.slice(0, 7) : date.slice(0, 4));
  const overall = createTally();
  const byPeriod = new Map<string, Tally>();
  const byTechnician = new Map(business.technicians.map((t) => [t.name, createTally()]));
  const byService = new Map(business.services.map((s) => [s.id, createTally()]));

  for (const review of reviews) {
    if ((since !== undefined && review.date < since) || (until !== undefined && review.date > until)) continue;
    if (location !== undefined && review.location !== location) continue;
    addRating(overall, review.rating);
    const key = periodOf(review.date);
    let tally = byPeriod.get(key);
    if (tally === undefined) byPeriod.set(key, (tally = createTally()));
    addRating(tally, review.rating);
    for (const name of review.technicians) {
      const t = byTechnician.get(name);
      if (t !== undefined) addRating(t, review.rating);
    }
    for (const id of review.services) {
      const s = byService.get(id);
      if (s !== undefined) addRating(s, review.rating);
    }
  }

  return {
    period,
    since: since ?? null,
    until: until ?? null,
    overall: toStats(overall),
    by_period: listPeriods([...byPeriod.keys()], period).map((key) => ({ period: key, ...toStats(byPeriod.get(key)) })),
    by_technician: business.technicians.map((t) => ({ technician: t.name, ...toStats(byTechnician.get(t.name)) })),
    by_service: business.services.map((s) => ({ service_id: s.id, service_name: s.name, ...toStats(byService.get(s.id)) })),
  };
}

/** Every month (`YYYY-MM`) or year (`YYYY`) from the earliest to the latest key, ascending. */
export function listPeriods(keys: readonly string[], period: RatingPeriod): string[] {
  if (keys.length === 0) return [];
  const sorted = [...keys].sort();
  const toIndex = (key: string) => (period === 'month' ? Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1 : Number(key));
  const fromIndex = (i: number) =>
    period === 'month' ? `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}` : String(i).padStart(4, '0');
  const out: string[] = [];
  for (let i = toIndex(sorted[0]!); i <= toIndex(sorted[sorted.length - 1]!); i++) out.push(fromIndex(i));
  return out;
}

type Tally = { count: number; sum: number; distribution: RatingStats['distribution'] };

function createTally(): Tally {
  return { count: 0, sum: 0, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } };
}

function addRating(tally: Tally, rating: number): void {
  tally.count += 1;
  tally.sum += rating;
  tally.distribution[String(rating) as keyof Tally['distribution']] += 1;
}

function toStats(tally: Tally = createTally()): RatingStats {
  return {
    count: tally.count,
    // Same rounding as aggregate_rating.rating_value, so the overall mean equals it for the whole dataset.
    mean: tally.count === 0 ? null : Math.round((tally.sum / tally.count + Number.EPSILON) * 100) / 100,
    distribution: { ...tally.distribution },
  };
}
