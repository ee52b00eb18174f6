/**
 * The since list of one location (issue 43): what `GET /api/reviews/since/{date}?location=<id>` and MCP
 * `get_reviews_since` with `location` list. Reviews are newest first, so those dated on or after a date are
 * a prefix of the list (core/order.ts), and a location's among them are a prefix of its posting list.
 *
 * `location` is the one query parameter the since path reads. Any other is ignored, as every parameter
 * always was: a prerendered snapshot cannot see the query, so the path never refused one. A snapshot is
 * unfiltered, so a request that names a location is answered live (`namesSinceLocation`, the static
 * handler's one check); a static host or CDN serving the build alone cannot filter.
 */
import { countSince } from '../order.ts';
import { SearchFiltersShape } from '../schemas/search.ts';
import { PATHS } from '../urls.ts';
import { parseSearchParams } from './parse-search-params.ts';
import { EMPTY_LIST, restrictToRange } from './posting-lists.ts';
import { resolveLocationFilter, type LocationFilter } from './resolve-search-query.ts';
import type { ReviewIndex } from './review-index.ts';

export const SINCE_LOCATION_PARAMETER = 'location';
const SINCE_QUERY_SHAPE = { [SINCE_LOCATION_PARAMETER]: SearchFiltersShape.location };

/** Whether a request for `path` with the query `search` (`?…`, or '') is a since request naming a location. */
export function namesSinceLocation(path: string, search: string): boolean {
  return search.length > 1 && path.startsWith(PATHS.sincePrefix) && new URLSearchParams(search).has(SINCE_LOCATION_PARAMETER);
}

/** The `location` of a since query string: given at most once, judged as the search judges it. */
export function readSinceLocation(index: ReviewIndex, params: URLSearchParams): LocationFilter {
  const given = new URLSearchParams(params.getAll(SINCE_LOCATION_PARAMETER).map((value) => [SINCE_LOCATION_PARAMETER, value]));
  const { input, issues } = parseSearchParams(given, SINCE_QUERY_SHAPE);
  return resolveLocationFilter(index, input[SINCE_LOCATION_PARAMETER], issues);
}

/** The positions in `index.reviews` of the reviews of `location` dated on or after `date`, newest first. */
export function listSincePositions(index: ReviewIndex, date: string, location: string): Int32Array {
  return restrictToRange(index.byLocation.get(location) ?? EMPTY_LIST, 0, countSince(index.reviews, date));
}
