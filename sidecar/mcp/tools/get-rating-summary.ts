/** `get_rating_summary`: rating statistics, so an agent never pages through reviews to count stars. */
import { z } from 'zod';
import { RatingPeriodSchema, RatingSummarySchema, summarizeRatings } from '../../../core/rating-summary.ts';
import { checkDateRange, IsoDateSchema } from '../../../core/schemas/content.ts';
import { resolveLocationFilter } from '../../../core/search/resolve-search-query.ts';
import { defineTool } from '../tool.ts';
import { chooseLocationSpec, LocationArgumentSchema } from './location-argument.ts';

function defineSpec<Input extends z.ZodObject>(inputSchema: Input, whenToUse: string) {
  return {
    name: 'get_rating_summary',
    title: 'Get rating summary',
    description: 'Star-rating counts and means: overall, per month or year, per technician and service, within dates if given.',
    whenToUse,
    inputSchema,
    outputSchema: RatingSummarySchema,
  };
}

const FILTERS = {
  period: RatingPeriodSchema.default('month').meta({ description: 'Group `by_period` by month or year.' }),
  since: IsoDateSchema.optional().meta({ description: 'Only count reviews on or after this date.' }),
  until: IsoDateSchema.optional().meta({ description: 'Only count reviews on or before this date.' }),
};
const WHEN = 'star distribution, counts and means per month or year, per technician, per service';
const PREFER = 'Prefer it to counting reviews yourself.';
const WITH_LOCATION = defineSpec(z.strictObject({ ...FILTERS, location: LocationArgumentSchema }).superRefine(checkDateRange), `${WHEN}, of one location when given. ${PREFER}`);
const WITHOUT_LOCATION = defineSpec(z.strictObject(FILTERS).superRefine(checkDateRange), `${WHEN}. ${PREFER}`);

export const getRatingSummaryTool = defineTool(
  WITH_LOCATION,
  (args, deps) => {
    const { dataset, index } = deps.getLive();
    const filter = resolveLocationFilter(index, args.location);
    if (!filter.ok) return filter;
    const { location } = filter;
    const summary = summarizeRatings(dataset.reviews, dataset.business, { ...args, location });
    // The location counted is echoed, left out of the output schema (as get_business's `jobs`): tools/list has no bytes to spare.
    return { ok: true, value: location === undefined ? summary : { ...summary, location } };
  },
  chooseLocationSpec(WITH_LOCATION, WITHOUT_LOCATION),
);
