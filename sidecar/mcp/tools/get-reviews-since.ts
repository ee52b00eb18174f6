/** `get_reviews_since`: the MCP twin of GET /api/reviews/since/{date}, paged. */
import { z } from 'zod';
import { countSince } from '../../../core/order.ts';
import { nextCursorOf, resolvePage } from '../../../core/paging.ts';
import { IsoDateSchema } from '../../../core/schemas/content.ts';
import { ReviewListSchema } from '../../../core/schemas/published.ts';
import { SearchFiltersShape } from '../../../core/schemas/search.ts';
import { defineTool } from '../tool.ts';
import { CompactReviewSchema, toCompactReview } from './compact-review.ts';
import { CursorArgumentSchema, NextCursorSchema } from './paging-arguments.ts';

export const getReviewsSinceTool = defineTool(
  {
    name: 'get_reviews_since',
    title: 'Get reviews since a date',
    description: 'Verified reviews dated on or after `date`, newest first: to catch up. With filters: search_reviews `since`.',
    whenToUse: 'everything dated on or after a date (catching up).',
    inputSchema: z.strictObject({
      date: IsoDateSchema.meta({ description: 'Only reviews dated on or after this date.' }),
      limit: SearchFiltersShape.limit,
      cursor: CursorArgumentSchema,
    }),
    outputSchema: ReviewListSchema.extend({
      reviews: z.array(CompactReviewSchema).meta({ description: 'Newest first.' }),
      newest_review_date: IsoDateSchema.nullable().meta({ description: 'Date of the newest published review; null when there is none.' }),
      message: z.string().optional().meta({ description: 'When nothing matches: a sentence naming the newest review\'s date.' }),
      limit: SearchFiltersShape.limit.unwrap().meta({ description: 'The limit that was applied.' }),
      next_cursor: NextCursorSchema,
    }),
  },
  (args, deps) => {
    const { date, limit, cursor } = args;
    const paging = resolvePage(cursor, { date });
    if (!paging.ok) return paging;
    const { page } = paging;
    const { dataset, index } = deps.getLive();
    // Reviews are newest first, so those on or after `date` are a prefix of the dataset.
    const total = countSince(index.reviews, date);
    const reviews = dataset.reviews.slice(Math.min(page.offset, total), Math.min(page.offset + limit, total)).map((r) => toCompactReview(r));
    const result = { reviews, count: reviews.length, total, limit };
    const newest = dataset.reviews[0]?.date ?? null;
    const message =
      total > 0 ? undefined : newest === null ? 'No review is published yet.' : `No review is dated on or after ${date}; the newest review is from ${newest}.`;
    return { ok: true, value: { ...result, newest_review_date: newest, ...(message === undefined ? {} : { message }), next_cursor: nextCursorOf(page, result) } };
  },
);
