/** `get_reviews_since`: the MCP twin of GET /api/reviews/since/{date}, paged, optionally of one location. */
import { z } from 'zod';
import { countSince } from '../../../core/order.ts';
import { nextCursorOf, resolvePage } from '../../../core/paging.ts';
import { IsoDateSchema } from '../../../core/schemas/content.ts';
import { ReviewListSchema } from '../../../core/schemas/published.ts';
import { SearchFiltersShape } from '../../../core/schemas/search.ts';
import type { ReviewIndex } from '../../../core/search/review-index.ts';
import { resolveLocationFilter } from '../../../core/search/resolve-search-query.ts';
import { listSincePositions } from '../../../core/search/since-request.ts';
import { defineTool } from '../tool.ts';
import { CompactReviewSchema, toCompactReview } from './compact-review.ts';
import { chooseLocationSpec, LocationArgumentSchema } from './location-argument.ts';
import { CursorArgumentSchema, NextCursorSchema } from './paging-arguments.ts';

const OUTPUT = ReviewListSchema.extend({
  reviews: z.array(CompactReviewSchema).meta({ description: 'Newest first.' }),
  newest_review_date: IsoDateSchema.nullable().meta({ description: 'Date of the newest published review; null when there is none.' }),
  message: z.string().optional().meta({ description: 'When nothing matches: a sentence naming the newest review\'s date.' }),
  limit: SearchFiltersShape.limit.unwrap().meta({ description: 'The limit that was applied.' }),
  next_cursor: NextCursorSchema,
});

function defineSpec<Location extends z.ZodRawShape>(location: Location, whenToUse: string) {
  return {
    name: 'get_reviews_since',
    title: 'Get reviews since a date',
    description: 'Verified reviews dated on or after `date`, newest first: to catch up. With filters: search_reviews `since`.',
    whenToUse,
    inputSchema: z.strictObject({
      date: IsoDateSchema.meta({ description: 'Only reviews dated on or after this date.' }),
      ...location,
      limit: SearchFiltersShape.limit,
      cursor: CursorArgumentSchema,
    }),
    outputSchema: OUTPUT,
  };
}

const WITH_LOCATION = defineSpec({ location: LocationArgumentSchema }, 'everything dated on or after a date (catching up), of one location when given.');
const WITHOUT_LOCATION = defineSpec({}, 'everything dated on or after a date (catching up).');

export const getReviewsSinceTool = defineTool(
  WITH_LOCATION,
  (args, deps) => {
    const { date, location, limit, cursor } = args;
    const { index } = deps.getLive();
    const resolved = resolveLocationFilter(index, location);
    // The cursor binds the date and the location, as a search cursor binds its filters.
    const paging = resolvePage(cursor, resolved.ok ? { date, location: resolved.location } : undefined);
    if (!resolved.ok || !paging.ok) return { ok: false, issues: [...(resolved.ok ? [] : resolved.issues), ...(paging.ok ? [] : paging.issues)] };
    const { page } = paging;
    // Reviews are newest first, so those on or after `date` are a prefix of the dataset, and a location's a prefix of its own.
    const positions = resolved.location === undefined ? undefined : listSincePositions(index, date, resolved.location);
    const total = positions?.length ?? countSince(index.reviews, date);
    const from = Math.min(page.offset, total);
    const to = Math.min(page.offset + limit, total);
    const listed = positions === undefined ? index.reviews.slice(from, to) : Array.from(positions.subarray(from, to), (pos) => index.reviews[pos]!);
    const reviews = listed.map((r) => toCompactReview(r));
    const result = { reviews, count: reviews.length, total, limit };
    const message = total > 0 ? undefined : describeNothingSince(index, date, resolved.location);
    return { ok: true, value: { ...result, newest_review_date: index.reviews[0]?.date ?? null, ...(message === undefined ? {} : { message }), next_cursor: nextCursorOf(page, result) } };
  },
  chooseLocationSpec(WITH_LOCATION, WITHOUT_LOCATION),
);

/** Why nothing is listed, naming the newest review's date: the location's, when one is given. */
function describeNothingSince(index: ReviewIndex, date: string, location: string | undefined): string {
  if (location === undefined) {
    const newest = index.reviews[0]?.date;
    return newest === undefined ? 'No review is published yet.' : `No review is dated on or after ${date}; the newest review is from ${newest}.`;
  }
  const first = index.byLocation.get(location)?.[0];
  return first === undefined
    ? `No review of location ${location} is published yet.`
    : `No review of location ${location} is dated on or after ${date}; its newest review is from ${index.reviews[first]!.date}.`;
}
