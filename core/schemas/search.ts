/**
 * The search filters, shared by `GET /api/reviews/search` and the MCP tool `search_reviews`
 * (interface.md "GET /api/reviews/search"). REST query strings are converted to these typed values
 * strictly (see core/search/parse-search-params.ts) and then parsed by this one schema.
 */
import { z } from 'zod';
import { PolaritySchema } from './aspects.ts';
import { checkDateRange, IsoDateSchema } from './content.ts';
import { ReviewListSchema, ReviewWithLogEntrySchema } from './published.ts';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** Result orders: `newest` (the default) is `date` descending then `id`; the others order by rating first. */
export const SearchSortSchema = z.enum(['newest', 'highest', 'lowest'], { error: 'must be one of newest, highest, lowest' });

export const SearchFiltersShape = {
  rating: z
    .int({ error: 'must be an integer from 1 to 5' })
    .min(1, 'must be an integer from 1 to 5')
    .max(5, 'must be an integer from 1 to 5')
    .optional()
    .meta({ description: 'Exact star rating.' }),
  min_rating: z
    .number({ error: 'must be a number from 1 to 5' })
    .min(1, 'must be a number from 1 to 5')
    .max(5, 'must be a number from 1 to 5')
    .optional()
    .meta({ description: 'Minimum star rating, inclusive.' }),
  since: IsoDateSchema.optional().meta({ description: 'Only reviews dated on or after this date.' }),
  until: IsoDateSchema.optional().meta({ description: 'Only reviews dated on or before this date.' }),
  query: z
    .string()
    .max(SEARCH_QUERY_MAX_LENGTH, `must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`)
    .optional()
    .meta({ description: 'Case-insensitive substring of the review text or title.' }),
  mentions_technician: z
    .string()
    .min(1, 'must not be empty')
    .max(200)
    .optional()
    .meta({ description: 'Technician name or alias, case-insensitive; only reviews that mention them.' }),
  mentions_service: z
    .string()
    .min(1, 'must not be empty')
    .max(200)
    .optional()
    .meta({ description: 'Service id; only reviews that mention the service.' }),
  location: z.string().min(1, 'must not be empty').max(200).optional().meta({ description: 'Location id, exact; only the reviews of that location.' }),
  aspect: z
    .string()
    .min(1, 'must not be empty')
    .max(100)
    .optional()
    .meta({
      description:
        'Aspect id (`punctuality`, `price`, … in /insights.json `aspects[].id`): only reviews that mention it.',
    }),
  aspect_sentiment: z
    .enum(PolaritySchema.options, { error: `must be one of ${PolaritySchema.options.join(', ')}` })
    .optional()
    .meta({
      description:
        'Only reviews of this opinion on `aspect`, or on any aspect without `aspect` (`negative`: every complaint).',
    }),
  has_response: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .meta({ description: 'true: only reviews with an owner reply; false: only reviews without one.' }),
  has_media: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .meta({ description: "true: only reviews with customers' photos or videos (`media`); false: only reviews without." }),
  sort: SearchSortSchema.optional().meta({
    description:
      'Order: `newest` (default: `date` descending, then `id`), or `highest` / `lowest` rating first, then newest.',
  }),
  limit: z
    .int({ error: `must be an integer from 1 to ${SEARCH_LIMIT_MAX}` })
    .min(1, `must be an integer from 1 to ${SEARCH_LIMIT_MAX}`)
    .max(SEARCH_LIMIT_MAX, `must be an integer from 1 to ${SEARCH_LIMIT_MAX}`)
    .default(SEARCH_LIMIT_DEFAULT)
    .meta({ description: 'Maximum number of reviews returned.' }),
};

/** Every filter combines with AND. */
export const SearchQuerySchema = z
  .strictObject(SearchFiltersShape)
  .superRefine(checkDateRange);

export const SearchResultSchema = ReviewListSchema.extend({
  limit: z.int().min(1).max(SEARCH_LIMIT_MAX).meta({ description: 'The limit that was applied.' }),
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Pass as `cursor` (with the same filters) to get the next page; null when this is the last page. Opaque.' }),
}).meta({ id: 'SearchResult' });

/** The body of GET /api/reviews/search: a SearchResult whose reviews carry their log_entry (RestReviewListSchema says why). */
export const RestSearchResultSchema = SearchResultSchema.extend({
  reviews: z
    .array(
      ReviewWithLogEntrySchema.extend({
        matched_in: z
          .enum(['translation'])
          .optional()
          .meta({ description: '`translation` when `query` matched only the translation the source gave, not the customer\'s own words; absent otherwise.' }),
      }).meta({ id: 'SearchedReview' }),
    )
    .meta({ description: 'Newest first unless `sort` says otherwise.' }),
});

export type SearchQuery = z.output<typeof SearchQuerySchema>;
export type SearchQueryInput = z.input<typeof SearchQuerySchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type RestSearchResult = z.infer<typeof RestSearchResultSchema>;
