export { createReviewIndex, type ReviewIndex, type ReviewIndexOptions } from './review-index.ts';
export { parseSearchParams, type SearchParams } from './parse-search-params.ts';
export { resolveSearchQuery, type ResolvedSearchQuery, type SearchResolution } from './resolve-search-query.ts';
export { searchReviews, type SearchPage } from './search-reviews.ts';
export { SEARCH_PARAMETERS } from './search-issues.ts';
export { CURSOR_PARAMETER, runSearch, runSearchRequest, type SearchRequest } from './search-request.ts';
export { findMatchedIn, type MatchedIn } from './matched-in.ts';
