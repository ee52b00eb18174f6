/** `get_reviews_since`: the MCP twin of GET /api/reviews/since/{date}, paged. */
import { z } from 'zod';
import { countSince } from '../../../core/order.ts';
import { nextCursorOf, resolvePage } from '../../../core/paging.ts';
import { IsoDateSchema } from '../../../core/schemas/content.ts';
import { ReviewListSchema } from '../../../core/schemas/published.ts';
import { SearchFiltersShape } from '../../../core/schemas/search.ts';
import { defineTool } from '../tool.ts';
import { CursorArgumentSchema, NextCursorSchema } from './paging-arguments.ts';

export const getReviewsSinceTool = defineTool(
  {
    name: 'get_reviews_since',
    title: 'Get reviews since a date',
    description: [
      'List every verified review dated on or after `date` (YYYY-MM-DD), newest first: use it to catch up',
      'on what changed since a previous visit. `total` counts them all; page with `cursor` = `next_cursor`',
      'until `next_cursor` is null. To filter by rating, text, technician or service use search_reviews with `since`.',
    ].join(' '),
    whenToUse: 'everything dated on or after a date (catching up).',
    inputSchema: z.strictObject({
      date: IsoDateSchema.meta({ description: 'Only reviews dated on or after this date (YYYY-MM-DD).' }),
      limit: SearchFiltersShape.limit,
      cursor: CursorArgumentSchema,
    }),
    outputSchema: ReviewListSchema.extend({
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
    const reviews = dataset.reviews.slice(Math.min(page.offset, total), Math.min(page.offset + limit, total));
    const result = { reviews, count: reviews.length, total, limit };
    return { ok: true, value: { ...result, next_cursor: nextCursorOf(page, result) } };
  },
);
