/** `search_reviews`: the MCP twin of GET /api/reviews/search, same parameters, same core function. */
import { z } from 'zod';
import { resolveSearchQuery, searchReviews } from '../../../core/search/index.ts';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { SearchFiltersShape, SearchResultSchema } from '../../../core/schemas/search.ts';
import type { McpServerDeps } from '../deps.ts';
import type { ToolRegistry, ToolSpec } from '../tool.ts';
import { CursorArgumentSchema, NextCursorSchema, nextCursorOf, resolvePage } from './paging-arguments.ts';

export const searchReviewsTool = {
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
  inputSchema: z.strictObject({ ...SearchFiltersShape, cursor: CursorArgumentSchema }),
  outputSchema: SearchResultSchema.extend({ next_cursor: NextCursorSchema }),
} satisfies ToolSpec;

const ARGUMENT_NAMES = Object.keys(searchReviewsTool.inputSchema.shape).join(', ');

/** The shared search issues speak of REST parameters; here they are arguments, cursor included. */
function describeArgument(issue: ErrorIssue): ErrorIssue {
  return issue.code === 'unrecognized_parameter' ? { ...issue, message: `is not an argument of search_reviews; the arguments are ${ARGUMENT_NAMES}` } : issue;
}

export function registerSearchReviewsTool(tools: ToolRegistry, deps: McpServerDeps): void {
  tools.register(searchReviewsTool, (args) => {
    const { cursor, ...filters } = args;
    const { index } = deps.getLive();
    const resolved = resolveSearchQuery(filters, index);
    const cursorText = typeof cursor === 'string' ? cursor : undefined;
    const { limit: _limit, ...pagedFilters } = resolved.ok ? resolved.query : {};
    const { page, issues } = resolvePage(cursorText, pagedFilters);
    if (cursor !== undefined && cursorText === undefined) issues.push({ path: ['cursor'], message: 'must be a string' });
    if (!resolved.ok || issues.length > 0) {
      return { ok: false, issues: [...(resolved.ok ? [] : resolved.issues.map(describeArgument)), ...issues] };
    }
    const result = searchReviews(index, resolved.query, { offset: page.offset });
    return {
      ok: true,
      value: {
        reviews: result.reviews,
        count: result.count,
        total: result.total,
        limit: result.limit,
        next_cursor: nextCursorOf(page, result),
      },
    };
  });
}
