/** `search_reviews`: the MCP twin of GET /api/reviews/search, same parameters, same core function. */
import { z } from 'zod';
import { resolveSearchQuery, searchReviews } from '../../../core/search/index.ts';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { SearchFiltersShape, SearchResultSchema } from '../../../core/schemas/search.ts';
import type { McpServerDeps } from '../deps.ts';
import type { ToolRegistry, ToolSpec } from '../tool.ts';
import { CompactReviewSchema, EvidenceArgumentSchema, toCompactReview } from './compact-review.ts';
import { CursorArgumentSchema, NextCursorSchema, nextCursorOf, resolvePage } from './paging-arguments.ts';

export const searchReviewsTool = {
  name: 'search_reviews',
  title: 'Search reviews',
  description: [
    'Find verified reviews. Filters (same as GET /api/reviews/search) combine with AND; newest first, or by rating with `sort`.',
    '`mentions_technician` takes a name or alias and `mentions_service` a service id (see get_business);',
    '`aspect` an aspect id (see get_insights) with `aspect_sentiment` for praise or complaints.',
    'Reviews are compact (aspect polarities, no evidence offsets) unless `evidence` is true.',
    'When `next_cursor` is not null, call again with the same filters and that `cursor`.',
    'For statistics use get_rating_summary; to compare technicians use rank_technicians.',
  ].join(' '),
  inputSchema: z.strictObject({ ...SearchFiltersShape, evidence: EvidenceArgumentSchema, cursor: CursorArgumentSchema }),
  outputSchema: SearchResultSchema.extend({
    reviews: z.array(CompactReviewSchema).meta({ description: 'Newest first unless `sort` says otherwise.' }),
    next_cursor: NextCursorSchema,
  }),
} satisfies ToolSpec;

const ARGUMENT_NAMES = Object.keys(searchReviewsTool.inputSchema.shape).join(', ');

/** The shared search issues speak of REST parameters; here they are arguments, cursor included. */
function describeArgument(issue: ErrorIssue): ErrorIssue {
  return issue.code === 'unrecognized_parameter' ? { ...issue, message: `is not an argument of search_reviews; the arguments are ${ARGUMENT_NAMES}` } : issue;
}

export function registerSearchReviewsTool(tools: ToolRegistry, deps: McpServerDeps): void {
  tools.register(searchReviewsTool, (args) => {
    const { cursor, evidence, ...filters } = args;
    const { index } = deps.getLive();
    const resolved = resolveSearchQuery(filters, index);
    const cursorText = typeof cursor === 'string' ? cursor : undefined;
    const { limit: _limit, ...pagedFilters } = resolved.ok ? resolved.query : {};
    const { page, issues } = resolvePage(cursorText, pagedFilters);
    if (cursor !== undefined && cursorText === undefined) issues.push({ path: ['cursor'], message: 'must be a string' });
    const withEvidence = EvidenceArgumentSchema.safeParse(evidence);
    if (!withEvidence.success) issues.push({ path: ['evidence'], message: 'must be true or false' });
    if (!resolved.ok || issues.length > 0) {
      return { ok: false, issues: [...(resolved.ok ? [] : resolved.issues.map(describeArgument)), ...issues] };
    }
    const result = searchReviews(index, resolved.query, { offset: page.offset });
    return {
      ok: true,
      value: {
        reviews: result.reviews.map((review) => toCompactReview(review, withEvidence.data === true)),
        count: result.count,
        total: result.total,
        limit: result.limit,
        next_cursor: nextCursorOf(page, result),
      },
    };
  });
}
