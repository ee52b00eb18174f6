/** The `instructions` of the initialize result: what the data is and which tool answers what. */
import type { LiveData } from '../../core/dataset/live-data.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from '../../core/schemas/search.ts';
import type { ToolSpec } from './tool.ts';

/** The instructions, their "Which tool when" list written from the tools' own `whenToUse`, in their order. */
export function writeInstructions(live: LiveData, tools: readonly ToolSpec[]): string {
  const { business, aggregate_rating: rating } = live.dataset;
  return [
    `Verified customer reviews of ${business.name}, a local service business, with sentiment insights derived from them.`,
    `${rating.review_count} reviews, mean ${rating.rating_value} of 5. Read-only: nothing here changes data.`,
    '',
    'Which tool when:',
    ...tools.map((tool) => `- ${tool.name}: ${tool.whenToUse}`),
    '',
    `Lists are paged: at most \`limit\` reviews (1-${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}) per call, \`total\` tells how many match; repeat the call with the same filters and cursor=next_cursor until next_cursor is null. Nothing is ever cut silently.`,
    'A bad argument returns isError with one line per argument saying what it must be; correct it and call again.',
    `Cite reviews by id and date; each review has a public url. The same data is served over HTTP at ${live.urls.reviewsJson}.`,
    `To follow one technician, service or kind of complaint rather than ask again, point the user to its Atom or JSON Feed, pushed by WebSub: every feed is listed at ${live.urls.feedsIndex}.`,
  ].join('\n');
}
