/** `search_reviews`: the MCP twin of GET /api/reviews/search, same parameters, same search and paging path. */
import { z } from 'zod';
import { findMatchedIn, runSearch } from '../../../core/search/index.ts';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { SearchFiltersShape, SearchResultSchema } from '../../../core/schemas/search.ts';
import { defineSelfCheckingTool } from '../tool.ts';
import { CompactReviewSchema, EvidenceArgumentSchema, toCompactReview } from './compact-review.ts';
import { chooseLocationSpec } from './location-argument.ts';
import { CursorArgumentSchema, NextCursorSchema } from './paging-arguments.ts';
import { resolveNamedArguments } from './resolve-names.ts';
import { LocationArgumentSchema } from './location-argument.ts';

/**
 * The spec for a filter shape: every search argument but `limit` (the instructions' paging line speaks of
 * it) in `whenToUse`, from the one filter definition. `location` is listed only for a business with
 * locations (location-argument.ts); the search judges it either way.
 */
function defineSpec(filters: Partial<typeof SearchFiltersShape>) {
  const names = Object.keys(filters).filter((name) => name !== 'limit');
  return {
    name: 'search_reviews',
    title: 'Search reviews',
    description: [
      'Find verified reviews; filters combine with AND (as GET /api/reviews/search). Technicians and services by',
      'name, alias or id (get_business), aspects by id (get_insights). Compact unless `evidence` is true.',
      'Statistics: get_rating_summary; comparing technicians: rank_technicians.',
    ].join(' '),
    whenToUse: `reviews by ${names.join(', ')} (each described in the tool's input schema; dates are YYYY-MM-DD, technicians and services a name, alias or id, aspects an id). Filters combine with AND; newest first unless sort says otherwise.`,
    inputSchema: z.strictObject({ ...filters, evidence: EvidenceArgumentSchema, cursor: CursorArgumentSchema }),
    outputSchema: SearchResultSchema.extend({
      reviews: z.array(CompactReviewSchema).meta({ description: 'Newest first unless `sort` says otherwise.' }),
      next_cursor: NextCursorSchema,
    }),
  };
}

const { location: _, ...filtersWithoutLocation } = SearchFiltersShape;
// The search judges `location` (resolveSearchQuery), so the listed argument is the short one of the other tools.
const WITH_LOCATION = defineSpec({ ...SearchFiltersShape, location: LocationArgumentSchema });
const WITHOUT_LOCATION = defineSpec(filtersWithoutLocation);
const hasLocations = (business: { locations?: readonly unknown[] }) => business.locations !== undefined;
const argumentNames = (business: { locations?: readonly unknown[] }) => Object.keys((hasLocations(business) ? WITH_LOCATION : WITHOUT_LOCATION).inputSchema.shape).join(', ');

/** The shared search issues speak of REST parameters; here they are arguments, cursor included. */
function describeArgument(issue: ErrorIssue, names: string): ErrorIssue {
  return issue.code === 'unrecognized_parameter' ? { ...issue, message: `is not an argument of search_reviews; the arguments are ${names}` } : issue;
}

export const searchReviewsTool = defineSelfCheckingTool(
  WITH_LOCATION,
  // Judged by the one search path (core/search/search-request.ts), like REST and the search page.
  (args, deps) => {
    const { evidence, ...filters } = args;
    const withEvidence = EvidenceArgumentSchema.safeParse(evidence);
    const { index } = deps.getLive();
    const result = runSearch(index, resolveNamedArguments(index.business, filters));
    const evidenceIssues = withEvidence.success ? [] : [{ path: ['evidence'], message: 'must be true or false', code: 'invalid_type' }];
    if (!result.ok || evidenceIssues.length > 0) return { ok: false, issues: [...(result.ok ? [] : result.issues.map((issue) => describeArgument(issue, argumentNames(index.business)))), ...evidenceIssues] };
    const { reviews, count, total, limit } = result.page;
    // A review found only through a translation says so, as REST does (left out of the schema, like `translation`).
    const shown = reviews.map((review) => {
      const matchedIn = findMatchedIn(review, result.query.query);
      return { ...toCompactReview(review, withEvidence.data === true), ...(matchedIn === undefined ? {} : { matched_in: matchedIn }) };
    });
    return { ok: true, value: { reviews: shown, count, total, limit, next_cursor: result.nextCursor } };
  },
  chooseLocationSpec(WITH_LOCATION, WITHOUT_LOCATION),
);
