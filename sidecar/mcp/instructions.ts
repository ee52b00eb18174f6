/** The `instructions` of the initialize result: what the data is and which tool answers what. */
import type { LiveData } from '../../core/dataset/live-data.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SearchFiltersShape } from '../../core/schemas/search.ts';

/** Every search argument but `limit` (the paging line speaks of it), from the one filter definition. */
const SEARCH_FILTERS = Object.keys(SearchFiltersShape).filter((name) => name !== 'limit');

export function writeInstructions(live: LiveData): string {
  const { business, aggregate_rating: rating } = live.dataset;
  return [
    `Verified customer reviews of ${business.name}, a local service business, with sentiment insights derived from them.`,
    `${rating.review_count} reviews, mean ${rating.rating_value} of 5. Read-only: nothing here changes data.`,
    '',
    'Which tool when:',
    '- get_business first: services (ids), technicians (names, aliases), service areas, aggregate rating.',
    `- search_reviews: reviews by ${SEARCH_FILTERS.join(', ')} (each described in the tool's input schema; dates are YYYY-MM-DD, technicians a name or alias, services and aspects an id). Filters combine with AND; newest first unless sort says otherwise.`,
    '- get_reviews_since: everything dated on or after a date (catching up).',
    '- get_review: one review by id.',
    '- get_rating_summary: star distribution, counts and means per month or year, per technician, per service. Prefer it to counting reviews yourself.',
    '- get_insights: aspects, entities, topics, FAQ and summary; pass section to get one part.',
    '',
    `Lists are paged: at most \`limit\` reviews (1-${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}) per call, \`total\` tells how many match; repeat the call with the same filters and cursor=next_cursor until next_cursor is null. Nothing is ever cut silently.`,
    'A bad argument returns isError with one line per argument saying what it must be; correct it and call again.',
    `Cite reviews by id and date; each review has a public url. The same data is served over HTTP at ${live.urls.reviewsJson}.`,
    `To follow one technician, service or kind of complaint rather than ask again, point the user to its Atom or JSON Feed, pushed by WebSub: every feed is listed at ${live.urls.feedsIndex}.`,
  ].join('\n');
}
