/**
 * The live JSON endpoints: search (the HTTP twin of the MCP tool `search_reviews`), the incremental
 * `since` endpoint (with its one filter, `location`), the technician ranking and the change log. Query parameters are generated from the one filter schema, SearchFiltersShape, so
 * their types, ranges, defaults and descriptions match what the server enforces.
 */
import { z } from 'zod';
import { ChangesQueryShape } from '../schemas/changes.ts';
import { IsoDateSchema } from '../schemas/content.ts';
import { RankFiltersShape } from '../schemas/ranking.ts';
import { SEARCH_LIMIT_MAX, SearchFiltersShape } from '../schemas/search.ts';
import { PATHS } from '../urls.ts';
import type { OpenApiExamples } from './examples.ts';
import { ref, type OpenApiObject } from './http-components.ts';
import { buildReadOperations } from './read-operations.ts';

/** Where a review's log_entry is given (the REST lists here, MCP `get_review`), it is the same. */
const LOG_ENTRY_SENTENCE =
  'Each review carries `log_entry` (`index`, `checkpoint_url`, `proof_url`): its latest entry in the review log (/log/) and the URL of its C2SP tlog-proof, as MCP `get_review` gives it; absent for a review not in the log.';

/** A zod schema as a standalone OpenAPI Schema Object: the input side (defaults apply to omitted values). */
function toParameterSchema(schema: z.ZodType): { description?: string; schema: OpenApiObject } {
  const { $schema: _dialect, description, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as OpenApiObject;
  return { ...(typeof description === 'string' ? { description } : {}), schema: rest };
}

function buildQueryParameters(shape: Readonly<Record<string, z.ZodType>>): OpenApiObject[] {
  return Object.entries(shape).map(([name, schema]) => {
    const { description, schema: jsonSchema } = toParameterSchema(schema);
    return { name, in: 'query', required: false, description, schema: jsonSchema };
  });
}

function buildSearchParameters(): OpenApiObject[] {
  const filters = buildQueryParameters(SearchFiltersShape);
  const cursor = {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'The `next_cursor` of the previous page, sent with the same filters (`limit` may change). Opaque; a cursor issued for other filters gives 400.',
    schema: { type: 'string' },
  };
  return [...filters, cursor];
}

const SEARCH_DESCRIPTION = [
  'Every parameter is optional. Filters combine with AND; with none, every review matches.',
  'Results are newest first (`date` descending, then `id` ascending) unless `sort` says `highest` or `lowest`, which order by rating first and then newest first; `limit` caps how many are returned and `total` counts every match.',
  '`has_response=true` keeps the reviews the owner replied to, `has_response=false` those without a reply.',
  '`has_media=true` keeps the reviews with customers\' photos or videos, `has_media=false` those without.',
  '`query` is a case-insensitive substring of the text or the title; `mentions_technician` matches a canonical name or alias, case-insensitively; `mentions_service` a service id.',
  '`aspect` takes an aspect id of /insights.json (`price`, `punctuality`, …) and matches the reviews whose `aspects` mention it; `aspect_sentiment` (`positive`, `neutral`, `negative`) keeps those whose opinion of that aspect has that polarity, or, without `aspect`, those with that polarity on any aspect. An unknown technician, service or aspect gives 400 with the known ones listed.',
  `400 with an \`issues\` array for an unknown parameter, a repeated parameter, a malformed or out-of-range value (\`limit\` is 1 to ${SEARCH_LIMIT_MAX}), \`since\` after \`until\`, \`has_response\` or \`has_media\` other than \`true\`/\`false\`, or an unknown \`sort\`.`,
  'More than `limit` matches: the answer\'s `next_cursor` (also in a `Link: rel="next"` header) gives the next page when sent as `cursor` with the same filters; it is null on the last page. The cursor is the one the MCP tool issues.',
  LOG_ENTRY_SENTENCE,
  'The HTTP equivalent of the MCP tool `search_reviews`, which takes the same arguments. Answers carry an ETag, so a repeated search can be revalidated.',
].join('\n\n');

const RANK_DESCRIPTION = [
  'Technicians compared on the reviews a search with the same filters finds: "which technician is best for water heaters?" is `?mentions_service=water-heater`, "…for punctuality?" is `?aspect=punctuality`, "…at the Springfield shop?" adds `&location=springfield` (a location id of `business.locations`, for a business that lists them).',
  'For each technician: matching reviews, mean rating and positive share (positive on `aspect` when given, else rated 4 or 5). Ranked by the Wilson lower bound (95%) of the positive share, so a few perfect reviews do not outrank many good ones; technicians with fewer than 5 matching reviews are listed after the others with `rank: null`.',
  'Each entry\'s `filter` lists its reviews on /api/reviews/search. Unknown parameters, an unknown service, aspect or location, or a bad date give 400 with `issues`. The HTTP equivalent of the MCP tool `rank_technicians`.',
].join('\n\n');

const SINCE_DESCRIPTION = [
  'Every review dated on or after `date`, newest first. Recent dates are served from prebuilt snapshots and older ones computed live, with the same bytes and ETag either way. A malformed or impossible date (e.g. `2024-02-30`) gives 400.',
  '`location` (a location id of `business.locations`, for a business that lists them) keeps only that location\'s reviews, in the same body, order and caching. It is a live filter of the service: the snapshots are unfiltered, so a static host or CDN serving the built files alone cannot apply it. An unknown, empty or repeated `location` gives 400 with `issues`. Any other query parameter is ignored, as it always was.',
  LOG_ENTRY_SENTENCE,
].join('\n\n');

/** The since path's one query parameter (core/search/since-request.ts). */
function buildSinceLocationParameter(): OpenApiObject {
  const { description, schema } = toParameterSchema(SearchFiltersShape.location);
  return { name: 'location', in: 'query', required: false, description: `${description} Applied by the service, not by a static host serving the build.`, schema };
}

const CHANGES_DESCRIPTION = [
  'Every review added, changed or removed since `since`, oldest first: what a copy needs to stay equal to /reviews.json without downloading it again. One entry per review, its last change, read from the review log (/log/): `added` and `changed` carry the review as /reviews.json holds it now, `removed` (deleted, or hidden with `verified: false`) is a tombstone with the id, the time and the owner\'s reason only. Each carries `entry`, its position in the review log.',
  'Without `since` the log is read from its beginning, which lists every published review. Send the answer\'s `next_token` as `since` next time (also in a `Link: rel="next"` header while `has_more` is true); when nothing is new, the same token comes back.',
  'Times are those of the review log, which only grows: no tombstone is ever dropped, so a token this service issued never expires. A token it did not issue, or one altered, gives 400 `invalid_parameters` (issue code `invalid_cursor`), like a bad search cursor; only a token of the change log from before the review log gives 410 `token_expired`: start again from /reviews.json, then read this log from its beginning.',
  'The HTTP equivalent of the MCP tool `get_changes`. Answers carry an ETag, so polling with `If-None-Match` costs a 304.',
].join('\n\n');

export function buildApiPaths(examples: OpenApiExamples): Record<string, OpenApiObject> {
  return {
    [PATHS.search]: buildReadOperations({
      name: 'SearchReviews',
      tag: 'Search',
      summary: 'Search reviews',
      description: SEARCH_DESCRIPTION,
      parameters: buildSearchParameters(),
      mediaType: 'application/json',
      schema: ref('schemas', 'SearchResult'),
      example: examples.searchResult,
      compressed: true,
      paged: true,
      errors: { '400': ref('responses', 'BadRequest') },
    }),
    [PATHS.technicianRank]: buildReadOperations({
      name: 'TechnicianRanking',
      tag: 'Search',
      summary: 'Rank technicians for a service or an aspect',
      description: RANK_DESCRIPTION,
      parameters: buildQueryParameters(RankFiltersShape),
      mediaType: 'application/json',
      schema: ref('schemas', 'TechnicianRanking'),
      errors: { '400': ref('responses', 'BadRequest') },
    }),
    [PATHS.changes]: buildReadOperations({
      name: 'ReviewChanges',
      tag: 'Search',
      summary: 'Reviews added, changed or removed since a token',
      description: CHANGES_DESCRIPTION,
      parameters: buildQueryParameters(ChangesQueryShape),
      mediaType: 'application/json',
      schema: ref('schemas', 'Changes'),
      compressed: true,
      paged: true,
      errors: {
        '400': ref('responses', 'BadRequest'),
        '410': {
          description: 'The token is older than the tombstones the log keeps, or the content\'s history was rewritten: start again from /reviews.json.',
          content: { 'application/json': { schema: ref('schemas', 'Error') } },
        },
      },
    }),
    [`${PATHS.sincePrefix}{date}`]: buildReadOperations({
      name: 'ReviewsSince',
      tag: 'Search',
      summary: 'Reviews dated on or after a date',
      description: SINCE_DESCRIPTION,
      parameters: [{ name: 'date', in: 'path', required: true, ...toParameterSchema(IsoDateSchema), description: 'Calendar date, YYYY-MM-DD.' }, buildSinceLocationParameter()],
      mediaType: 'application/json',
      schema: ref('schemas', 'ReviewList'),
      example: examples.reviewList,
      compressed: true,
      errors: {
        '400': {
          description: 'The date is malformed or not a real calendar date (`invalid_date`), or `location` is not a location id of the business (`invalid_parameters`, issue code `unknown_location`, the message naming the known ids).',
          content: { 'application/json': { schema: ref('schemas', 'Error'), example: examples.badDate } },
        },
      },
    }),
  };
}
