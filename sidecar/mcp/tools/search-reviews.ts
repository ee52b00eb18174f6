/** `search_reviews`: the MCP twin of GET /api/reviews/search, same parameters, same search and paging path. */
import { z } from 'zod';
import { runSearch } from '../../../core/search/index.ts';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { SearchFiltersShape, SearchResultSchema } from '../../../core/schemas/search.ts';
import { defineSelfCheckingTool } from '../tool.ts';
import { CursorArgumentSchema, NextCursorSchema } from './paging-arguments.ts';

/** Every search argument but `limit` (the instructions' paging line speaks of it), from the one filter definition. */
const SEARCH_FILTERS = Object.keys(SearchFiltersShape).filter((name) => name !== 'limit');
const inputSchema = z.strictObject({ ...SearchFiltersShape, cursor: CursorArgumentSchema });
const ARGUMENT_NAMES = Object.keys(inputSchema.shape).join(', ');

/** The shared search issues speak of REST parameters; here they are arguments, cursor included. */
function describeArgument(issue: ErrorIssue): ErrorIssue {
  return issue.code === 'unrecognized_parameter' ? { ...issue, message: `is not an argument of search_reviews; the arguments are ${ARGUMENT_NAMES}` } : issue;
}

export const searchReviewsTool = defineSelfCheckingTool(
  {
    name: 'search_reviews',
    title: 'Search reviews',
    description: [
      'Find verified customer reviews by star rating, date range, text, technician or service.',
      'Filters combine with AND; results are newest first (date descending, then id), or by rating with `sort` highest or lowest.',
      '`has_response` true or false keeps the reviews with or without an owner reply.',
      'Use `mentions_technician` with a technician name or alias and `mentions_service` with a service id',
      '(both listed by get_business). Use `aspect` (e.g. punctuality, price; the ids are in get_insights) and',
      '`aspect_sentiment` (positive, neutral, negative) to find what customers praise or complain about.',
      '`total` is the number of matches; when it exceeds the reviews returned,',
      'call again with the same filters and `cursor` set to `next_cursor` until `next_cursor` is null.',
      'For rating statistics use get_rating_summary instead of paging through every review.',
    ].join(' '),
    whenToUse: `reviews by ${SEARCH_FILTERS.join(', ')} (each described in the tool's input schema; dates are YYYY-MM-DD, technicians a name or alias, services and aspects an id). Filters combine with AND; newest first unless sort says otherwise.`,
    inputSchema,
    outputSchema: SearchResultSchema.extend({ next_cursor: NextCursorSchema }),
  },
  // Judged by the one search path (core/search/search-request.ts), like REST and the search page.
  (args, deps) => {
    const result = runSearch(deps.getLive().index, args);
    if (!result.ok) return { ok: false, issues: result.issues.map(describeArgument) };
    const { reviews, count, total, limit } = result.page;
    return { ok: true, value: { reviews, count, total, limit, next_cursor: result.nextCursor } };
  },
);
