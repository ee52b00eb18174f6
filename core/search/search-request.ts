/**
 * A search as a query string, with its paging: what the human search page (`/search/`) runs. The
 * filters go through the same path as `GET /api/reviews/search` (parseSearchParams, then
 * resolveSearchQuery, then searchReviews), so the page and REST cannot disagree. `cursor` is the
 * opaque paging cursor of core/paging.ts, fingerprinted over the resolved filters without `limit`,
 * exactly as the MCP tool `search_reviews` issues it, so a cursor means the same page everywhere.
 */
import { z } from 'zod';
import { CURSOR_PARAMETER, nextCursorOf, resolvePage } from '../paging.ts';
import type { ErrorIssue } from '../schemas/errors.ts';
import { SearchFiltersShape } from '../schemas/search.ts';
import { listParametersFor, parseSearchParams } from './parse-search-params.ts';
import { resolveSearchQuery, type ResolvedSearchQuery } from './resolve-search-query.ts';
import type { ReviewIndex } from './review-index.ts';
import { searchReviews, type SearchPage } from './search-reviews.ts';

export { CURSOR_PARAMETER };
/** The search parameters plus the cursor, which parseSearchParams then reads like any other (given once). */
const SEARCH_REQUEST_SHAPE = { ...SearchFiltersShape, [CURSOR_PARAMETER]: z.string() };
const listParameters = listParametersFor(SEARCH_REQUEST_SHAPE);

export type SearchRequest =
  | { ok: true; query: ResolvedSearchQuery; page: SearchPage; nextCursor: string | null }
  | { ok: false; issues: ErrorIssue[] };

/** A search given as a query string: REST and the search page. */
export function runSearchRequest(index: ReviewIndex, params: URLSearchParams): SearchRequest {
  const { input, issues } = parseSearchParams(params, SEARCH_REQUEST_SHAPE, listParameters(index.business));
  return runSearch(index, input, issues);
}

/**
 * The one search and paging path (REST, the search page and MCP search_reviews): filters resolved and
 * judged by resolveSearchQuery, the cursor by resolvePage over the resolved filters without `limit`
 * (it may change between pages), then one page of searchReviews. `earlierIssues` are the caller's own
 * (a repeated query parameter), reported with the rest.
 */
export function runSearch(index: ReviewIndex, input: Readonly<Record<string, unknown>>, earlierIssues: ErrorIssue[] = []): SearchRequest {
  const { [CURSOR_PARAMETER]: cursor, ...filters } = input;
  const resolved = resolveSearchQuery(filters, index, earlierIssues);
  const { limit: _limit, ...pagedFilters } = resolved.ok ? resolved.query : {};
  const paging = resolvePage(cursor, resolved.ok ? pagedFilters : undefined);
  if (!resolved.ok || !paging.ok) return { ok: false, issues: [...(resolved.ok ? [] : resolved.issues), ...(paging.ok ? [] : paging.issues)] };
  const page = searchReviews(index, resolved.query, { offset: paging.page.offset });
  return { ok: true, query: resolved.query, page, nextCursor: nextCursorOf(paging.page, page) };
}
