/**
 * A search as a query string, with its paging: what the human search page (`/search/`) runs. The
 * filters go through the same path as `GET /api/reviews/search` (parseSearchParams, then
 * resolveSearchQuery, then searchReviews), so the page and REST cannot disagree. `cursor` is the
 * opaque paging cursor of core/paging.ts, fingerprinted over the resolved filters without `limit`,
 * exactly as the MCP tool `search_reviews` issues it, so a cursor means the same page everywhere.
 */
import { z } from 'zod';
import { decodeCursor, encodeNextCursor, fingerprintFilters } from '../paging.ts';
import type { ErrorIssue } from '../schemas/errors.ts';
import { SearchFiltersShape } from '../schemas/search.ts';
import { parseSearchParams } from './parse-search-params.ts';
import { resolveSearchQuery, type ResolvedSearchQuery } from './resolve-search-query.ts';
import type { ReviewIndex } from './review-index.ts';
import { searchReviews, type SearchPage } from './search-reviews.ts';

export const CURSOR_PARAMETER = 'cursor';
/** The search parameters plus the cursor, which parseSearchParams then reads like any other (given once). */
const SEARCH_REQUEST_SHAPE = { ...SearchFiltersShape, [CURSOR_PARAMETER]: z.string() };

export type SearchRequest =
  | { ok: true; query: ResolvedSearchQuery; page: SearchPage; nextCursor: string | null }
  | { ok: false; issues: ErrorIssue[] };

/** The fingerprint a cursor carries: the resolved filters, `limit` left out (it may change between pages). */
function fingerprintOf(query: ResolvedSearchQuery): string {
  const { limit: _limit, ...filters } = query;
  return fingerprintFilters(filters);
}

export function runSearchRequest(index: ReviewIndex, params: URLSearchParams): SearchRequest {
  const { input, issues } = parseSearchParams(params, SEARCH_REQUEST_SHAPE);
  const { [CURSOR_PARAMETER]: cursor, ...filters } = input;
  const resolved = resolveSearchQuery(filters, index, issues);
  if (!resolved.ok) return { ok: false, issues: resolved.issues };

  const fingerprint = fingerprintOf(resolved.query);
  let offset = 0;
  if (typeof cursor === 'string') {
    const decoded = decodeCursor(cursor, fingerprint);
    if (!decoded.ok) return { ok: false, issues: [{ path: [CURSOR_PARAMETER], message: decoded.message, code: 'invalid_cursor' }] };
    offset = decoded.offset;
  }
  const page = searchReviews(index, resolved.query, { offset });
  return { ok: true, query: resolved.query, page, nextCursor: encodeNextCursor(page, fingerprint) };
}
