/**
 * Byte-exact JSON rendering of the datasets. The static build and the live sidecar both render
 * through these functions, so a since snapshot and a live since answer are the same bytes (and so
 * the same ETag). Reviews are serialised once each and joined, which keeps large lists cheap.
 */
import type { PublishedReview, ReviewsDataset } from '../schemas/published.ts';

export type ReviewJsonCache = { json(index: number): string; readonly reviews: readonly PublishedReview[] };

export function createReviewJsonCache(reviews: readonly PublishedReview[]): ReviewJsonCache {
  const cache: (string | undefined)[] = new Array(reviews.length);
  return {
    reviews,
    json(index) {
      return (cache[index] ??= JSON.stringify(reviews[index]));
    },
  };
}

function joinReviews(cache: ReviewJsonCache, from: number, to: number): string {
  const parts: string[] = new Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) parts[i - from] = cache.json(i);
  return parts.join(',');
}

/** `/reviews.json`: `{ business, aggregate_rating, reviews }`. */
export function renderReviewsDataset(dataset: ReviewsDataset, cache = createReviewJsonCache(dataset.reviews)): string {
  return `{"business":${JSON.stringify(dataset.business)},"aggregate_rating":${JSON.stringify(dataset.aggregate_rating)},"reviews":[${joinReviews(cache, 0, cache.reviews.length)}]}`;
}

/**
 * `/api/reviews/since/{date}`: the reviews dated on or after the date. They are the first `count`
 * reviews of the newest-first list, so the body depends on `count` alone.
 */
export function renderSinceBody(cache: ReviewJsonCache, count: number): string {
  return `{"reviews":[${joinReviews(cache, 0, count)}],"count":${count},"total":${count}}`;
}
