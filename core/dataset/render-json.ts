/**
 * Byte-exact JSON rendering of the datasets. The static build and the live sidecar both render
 * through these functions, so a since snapshot and a live since answer are the same bytes (and so
 * the same ETag). Reviews are serialised once each and joined, which keeps large lists cheap.
 */
import type { PublishedReview, ReviewsDataset } from '../schemas/published.ts';

export type ReviewJsonCache = {
  json(index: number): string;
  /**
   * The same bytes in UTF-8, made once per review: an answer is put together from them (`joinReviewBytes`)
   * without first making a string as large as itself.
   */
  utf8(index: number): Buffer;
  /** `utf8(index)` if it was made, without making it. */
  madeUtf8(index: number): Buffer | undefined;
  readonly reviews: readonly PublishedReview[];
};

/**
 * `carried`: a cache of an earlier list and, per review of this one, its position there (-1 for none): the
 * review is the same object, so its bytes made there are taken as they are (a publish keeps most reviews).
 */
export function createReviewJsonCache(
  reviews: readonly PublishedReview[],
  carried?: { cache: ReviewJsonCache; positions: readonly number[] },
): ReviewJsonCache {
  const cache: (string | undefined)[] = new Array(reviews.length);
  const bytes: (Buffer | undefined)[] = new Array(reviews.length);
  if (carried) {
    for (const [index, at] of carried.positions.entries()) {
      if (at !== -1 && carried.cache.reviews[at] === reviews[index]) bytes[index] = carried.cache.madeUtf8(at);
    }
  }
  return {
    reviews,
    json(index) {
      return (cache[index] ??= JSON.stringify(reviews[index]));
    },
    utf8(index) {
      return (bytes[index] ??= Buffer.from(cache[index] ?? JSON.stringify(reviews[index])));
    },
    madeUtf8: (index) => bytes[index],
  };
}

/**
 * `head`, the reviews at `positions` joined by commas, then `tail`, in one buffer: the bytes of
 * `${head}${positions.map(json).join(',')}${tail}`.
 */
export function joinReviewBytes(cache: ReviewJsonCache, positions: readonly number[], head: string, tail: string): Buffer {
  const parts = positions.map((pos) => cache.utf8(pos));
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.length;
  const out = Buffer.allocUnsafe(length);
  let at = out.write(head);
  for (const [i, part] of parts.entries()) {
    if (i > 0) out[at++] = 0x2c;
    at += part.copy(out, at);
  }
  out.write(tail, at);
  return out;
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
