/** `get_business`: who the reviews are about, and the vocabulary every other tool filters by. */
import { z } from 'zod';
import { AggregateRatingSchema, PublishedBusinessSchema } from '../../../core/schemas/published.ts';
import { defineTool } from '../tool.ts';

export const getBusinessTool = defineTool(
  {
    name: 'get_business',
    title: 'Get business information',
    description: 'The business: contact, services (ids), technicians (names, aliases), areas, rating, jobs logged vs reviewed. Call it first: the other tools filter by these.',
    whenToUse: 'call it first; services (ids), technicians (names, aliases), service areas, aggregate rating.',
    inputSchema: z.strictObject({}),
    outputSchema: z.object({
      business: PublishedBusinessSchema,
      aggregate_rating: AggregateRatingSchema,
      links: z
        .object({ reviews_json: z.url(), insights_json: z.url(), feed_json: z.url(), openapi: z.url() })
        .meta({ description: 'The same data over plain HTTP.' }),
    }),
  },
  (_args, deps) => {
    const { dataset, insights, urls } = deps.getLive();
    // `jobs` (jobs logged and the reviews tied to them, from the review log: /insights.json `jobs`) is left out
    // of the schema, as get_review's `log_entry` is: tools/list has no bytes to spare. Months as
    // [month, jobs, reviewed] rows; each month's ratings are in /insights.json.
    const jobs = insights.jobs && { ...insights.jobs, by_month: insights.jobs.by_month.map((m) => [m.month, m.jobs, m.reviewed]) };
    return {
      ok: true,
      value: {
        business: dataset.business,
        aggregate_rating: dataset.aggregate_rating,
        links: { reviews_json: urls.reviewsJson, insights_json: urls.insightsJson, feed_json: urls.feedJson, openapi: urls.openapi },
        ...(jobs ? { jobs } : {}),
      },
    };
  },
);
