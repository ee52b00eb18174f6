/** `get_rating_summary`: rating statistics, so an agent never pages through reviews to count stars. */
import { z } from 'zod';
import { RatingPeriodSchema, RatingSummarySchema, summarizeRatings } from '../../../core/rating-summary.ts';
import { IsoDateSchema } from '../../../core/schemas/content.ts';
import type { McpServerDeps } from '../deps.ts';
import { parseArguments, type ToolRegistry, type ToolSpec } from '../tool.ts';

export const getRatingSummaryTool = {
  name: 'get_rating_summary',
  title: 'Get rating summary',
  description: [
    'Star-rating counts, distribution and mean: overall, per month or year (the trend), per technician and',
    'per service, optionally within dates. For "how are ratings trending".',
  ].join(' '),
  inputSchema: z
    .strictObject({
      period: RatingPeriodSchema.default('month').meta({ description: 'Group `by_period` by `month` (default) or `year`.' }),
      since: IsoDateSchema.optional().meta({ description: 'Only count reviews on or after this date (YYYY-MM-DD).' }),
      until: IsoDateSchema.optional().meta({ description: 'Only count reviews on or before this date (YYYY-MM-DD).' }),
    })
    .refine((a) => a.since === undefined || a.until === undefined || a.since <= a.until, {
      path: ['since'],
      message: 'must not be after until',
    }),
  outputSchema: RatingSummarySchema,
} satisfies ToolSpec;

export function registerGetRatingSummaryTool(tools: ToolRegistry, deps: McpServerDeps): void {
  tools.register(getRatingSummaryTool, (args) => {
    const parsed = parseArguments(getRatingSummaryTool.inputSchema, args);
    if (!parsed.ok) return parsed;
    const { dataset } = deps.getLive();
    return { ok: true, value: summarizeRatings(dataset.reviews, dataset.business, parsed.value) };
  });
}
