/** `get_rating_summary`: rating statistics, so an agent never pages through reviews to count stars. */
import { z } from 'zod';
import { RatingPeriodSchema, RatingSummarySchema, summarizeRatings } from '../../../core/rating-summary.ts';
import { checkDateRange, IsoDateSchema } from '../../../core/schemas/content.ts';
import { defineTool } from '../tool.ts';

export const getRatingSummaryTool = defineTool(
  {
    name: 'get_rating_summary',
    title: 'Get rating summary',
    description: 'Star-rating counts and mean: overall, per month or year (the trend), per technician and service, optionally within dates.',
    whenToUse: 'star distribution, counts and means per month or year, per technician, per service. Prefer it to counting reviews yourself.',
    inputSchema: z
      .strictObject({
        period: RatingPeriodSchema.default('month').meta({ description: 'Group `by_period` by month or year.' }),
        since: IsoDateSchema.optional().meta({ description: 'Only count reviews on or after this date.' }),
        until: IsoDateSchema.optional().meta({ description: 'Only count reviews on or before this date.' }),
      })
      .superRefine(checkDateRange),
    outputSchema: RatingSummarySchema,
  },
  (args, deps) => {
    const { dataset } = deps.getLive();
    return { ok: true, value: summarizeRatings(dataset.reviews, dataset.business, args) };
  },
);
