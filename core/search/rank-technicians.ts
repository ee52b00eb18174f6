/**
 * "Which technician is best for water heaters?" in one call: the reviews a search with the same
 * filters finds, grouped by technician, with count, mean rating and positive share (positive on the
 * aspect when one is given, else rated 4–5). Ranked by the Wilson lower bound of the positive share,
 * the rule of core/insights/verdicts.ts, so 3 of 3 does not beat 40 of 44; below SMALL_SAMPLE reviews
 * a technician is listed, unranked. REST (GET /api/technicians/rank) and MCP (rank_technicians) call this.
 */
import { computeMean, roundTo } from '../insights/figures.ts';
import { computeWilsonLowerBound, isSmallSample } from '../insights/verdicts.ts';
import type { ErrorIssue } from '../schemas/errors.ts';
import type { PublishedReview } from '../schemas/published.ts';
import { RankFiltersShape, type TechnicianRanking } from '../schemas/ranking.ts';
import { SEARCH_LIMIT_MAX } from '../schemas/search.ts';
import { listParametersFor, parseSearchParams } from './parse-search-params.ts';
import { resolveSearchQuery } from './resolve-search-query.ts';
import type { ReviewIndex } from './review-index.ts';
import { searchReviews } from './search-reviews.ts';
import { compareText } from '../text/text-rules.ts';

export type RankResult = { ok: true; ranking: TechnicianRanking } | { ok: false; issues: ErrorIssue[] };

const listParameters = listParametersFor(RankFiltersShape);

/** A ranking given as a query string (GET /api/technicians/rank): unknown and repeated names reported with the rest. */
export function rankTechniciansFromParams(index: ReviewIndex, params: URLSearchParams): RankResult {
  const { input, issues } = parseSearchParams(params, RankFiltersShape, listParameters(index.business));
  return rankTechnicians(index, input, issues);
}

/** `input`: the ranking filters (RankFiltersShape), already checked for unknown names by the caller. */
export function rankTechnicians(index: ReviewIndex, input: Record<string, unknown>, earlierIssues: readonly ErrorIssue[] = []): RankResult {
  const resolved = resolveSearchQuery({ ...input, limit: SEARCH_LIMIT_MAX }, index, earlierIssues);
  if (!resolved.ok) return resolved;
  const { limit: _limit, ...filters } = resolved.query;
  const reviews: PublishedReview[] = [];
  for (let offset = 0; ; offset += SEARCH_LIMIT_MAX) {
    const page = searchReviews(index, resolved.query, { offset });
    reviews.push(...page.reviews);
    if (page.count === 0 || offset + page.count >= page.total) break;
  }
  const aspect = filters.aspect;
  const isPositive = (review: PublishedReview) =>
    aspect === undefined ? review.rating >= 4 : review.aspects.some((a) => a.aspect === aspect && a.polarity === 'positive');
  const byTechnician = new Map<string, { reviews: number; ratingSum: number; positive: number }>();
  for (const review of reviews) {
    for (const name of new Set(review.technicians)) {
      const entry = byTechnician.get(name) ?? { reviews: 0, ratingSum: 0, positive: 0 };
      entry.reviews++;
      entry.ratingSum += review.rating;
      if (isPositive(review)) entry.positive++;
      byTechnician.set(name, entry);
    }
  }
  const filterStrings = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)]));
  const rows = [...byTechnician].map(([technician, e]) => ({
    technician,
    reviews: e.reviews,
    mean_rating: computeMean(e.ratingSum, e.reviews) ?? 0,
    positive: e.positive,
    positive_share: roundTo(e.positive / e.reviews, 3),
    small_sample: isSmallSample(e.reviews),
    bound: computeWilsonLowerBound(e.positive, e.reviews),
    filter: { ...filterStrings, mentions_technician: technician },
  }));
  rows.sort(
    (a, b) =>
      Number(a.small_sample) - Number(b.small_sample) ||
      b.bound - a.bound ||
      b.mean_rating - a.mean_rating ||
      b.reviews - a.reviews ||
      compareText(a.technician, b.technician),
  );
  let rank = 0;
  return {
    ok: true,
    ranking: {
      filters: filterStrings,
      positive_means: aspect === undefined ? 'rated_4_or_5' : 'positive_on_aspect',
      reviews: reviews.length,
      technicians: rows.map(({ bound: _bound, ...row }) => ({ ...row, rank: row.small_sample ? null : ++rank })),
    },
  };
}
