/**
 * What the live routes (REST search/since, MCP) answer from: the published dataset of the current
 * build plus the indexes built over it. A new build swaps in a new LiveData as a whole, so a request
 * never sees half of one build and half of another.
 */
import { z } from 'zod';
import type { PublishedReview, ReviewsDataset } from '../schemas/published.ts';
import { createReviewIndex, type ReviewIndex } from '../search/index.ts';
import { createServiceUrls, type ServiceUrls } from '../urls.ts';

export type LiveData = {
  dataset: ReviewsDataset;
  index: ReviewIndex;
  byId: ReadonlyMap<string, PublishedReview>;
  /** The parsed /insights.json of the same build. */
  insights: unknown;
  urls: ServiceUrls;
};

export function createLiveData(input: { dataset: ReviewsDataset; insights: unknown; publicUrl: string }): LiveData {
  const { dataset } = input;
  return {
    dataset,
    index: createReviewIndex(dataset.reviews, dataset.business, { aspects: readAspectSet(input.insights) }),
    byId: new Map(dataset.reviews.map((r) => [r.id, r])),
    insights: input.insights,
    urls: createServiceUrls(input.publicUrl),
  };
}

const AspectSetSchema = z.object({ aspects: z.array(z.object({ id: z.string() })) });

/**
 * The aspect set the `aspect` search filter accepts: the ids of /insights.json, which lists every
 * aspect, mentioned or not. Without a usable insights document the index falls back to the aspects
 * the reviews carry.
 */
function readAspectSet(insights: unknown): string[] | undefined {
  const parsed = AspectSetSchema.safeParse(insights);
  return parsed.success ? parsed.data.aspects.map((a) => a.id) : undefined;
}
