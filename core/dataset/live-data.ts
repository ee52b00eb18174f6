/**
 * What the live routes (REST search/since, MCP) answer from: the published dataset of the current
 * build plus the indexes built over it. A new build swaps in a new LiveData as a whole, so a request
 * never sees half of one build and half of another.
 */
import { createChangeLogWithoutHistory, type ChangeLog } from './change-log.ts';
import type { Insights } from '../schemas/insights.ts';
import type { PublishedReview, ReviewsDataset } from '../schemas/published.ts';
import { createReviewIndex, type ReviewIndex } from '../search/index.ts';
import type { ServiceUrls } from '../urls.ts';

export type LiveData = {
  dataset: ReviewsDataset;
  index: ReviewIndex;
  byId: ReadonlyMap<string, PublishedReview>;
  /** The /insights.json of the same build. */
  insights: Insights;
  /** The change log of the same build (`GET /api/reviews/changes`, `get_changes`). */
  changes: ChangeLog;
  urls: ServiceUrls;
};

/** Without `changes` (content outside git, a build from before the change log), the log is the reviews as they are now. */
export function createLiveData(input: { dataset: ReviewsDataset; insights: Insights; urls: ServiceUrls; changes?: ChangeLog }): LiveData {
  const { dataset } = input;
  return {
    dataset,
    // The `aspect` filter accepts every aspect of the set, which /insights.json lists, mentioned or not.
    index: createReviewIndex(dataset.reviews, dataset.business, { aspects: input.insights.aspects.map((a) => a.id) }),
    byId: new Map(dataset.reviews.map((r) => [r.id, r])),
    insights: input.insights,
    changes: input.changes ?? createChangeLogWithoutHistory(dataset.reviews),
    urls: input.urls,
  };
}
