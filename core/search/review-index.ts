/**
 * The in-memory search index over the published reviews. The reviews array is kept as given (newest
 * first: date descending, then id ascending), and everything else refers to positions in it, so the
 * position order is the result order:
 * - a date range is a contiguous run of positions, found by binary search;
 * - ratings, technicians, services and aspects (aspect-lists.ts) have ascending posting lists;
 * - text and titles have a trigram index (text-index.ts), and popular needles an exact cache
 *   (needle-cache.ts).
 */
import { compareNewestFirst, countAfter, countSince } from '../order.ts';
import type { PublishedBusiness, PublishedReview } from '../schemas/published.ts';
import { buildBusinessTerms, type BusinessTerms } from './business-terms.ts';
import { listAspectKeys, listReviewAspects } from './aspect-lists.ts';
import { createNeedleCache, type NeedleCache, type NeedleCacheOptions } from './needle-cache.ts';
import { buildPostingLists, EMPTY_LIST } from './posting-lists.ts';
import { buildTextIndex } from './build-text-index.ts';
import type { TextIndex } from './text-index.ts';

export type ReviewIndex = {
  readonly reviews: readonly PublishedReview[];
  readonly business: PublishedBusiness;
  /** How technicians and services may be named in a search. */
  readonly terms: BusinessTerms;
  readonly ratings: Uint8Array;
  /** Index r holds the positions rated r (index 0 is empty). */
  readonly byRating: readonly Int32Array[];
  /** Canonical technician name → positions. */
  readonly byTechnician: ReadonlyMap<string, Int32Array>;
  /** Service id → positions. */
  readonly byService: ReadonlyMap<string, Int32Array>;
  /** Location id → positions (issue 43); empty for a business without locations. */
  readonly byLocation: ReadonlyMap<string, Int32Array>;
  /** The aspect ids the `aspect` filter accepts. */
  readonly aspects: readonly string[];
  /** aspectListKey(aspect, polarity) → positions. */
  readonly byAspect: ReadonlyMap<string, Int32Array>;
  /** The positions with an owner reply (`has_response=true`) and without one (`false`). */
  readonly byResponse: { readonly true: Int32Array; readonly false: Int32Array };
  /** The positions with photos or videos (`has_media=true`) and without (`false`). */
  readonly byMedia: { readonly true: Int32Array; readonly false: Int32Array };
  readonly text: TextIndex;
  /** Exact answers of popular `query` needles, filled by searches. */
  readonly needles: NeedleCache;
};

export type ReviewIndexOptions = {
  /** Tuning of the popular-needle cache; the defaults suit production (tests shrink them). */
  needleCache?: NeedleCacheOptions;
  /** The aspect set (its ids, in order); by default the aspects the reviews carry. */
  aspects?: readonly string[];
};

/** `reviews` must already be newest first (the order every dataset publishes); anything else is a bug upstream. */
export function createReviewIndex(
  reviews: PublishedReview[],
  business: PublishedBusiness,
  options: ReviewIndexOptions = {},
): ReviewIndex {
  const n = reviews.length;
  const ratings = new Uint8Array(n);
  const ratingLists: number[][] = [[], [], [], [], [], []];
  const replied: number[] = [];
  const unreplied: number[] = [];
  const withMedia: number[] = [];
  const withoutMedia: number[] = [];
  for (let pos = 0; pos < n; pos++) {
    const review = reviews[pos]!;
    if (pos > 0 && compareNewestFirst(reviews[pos - 1]!, review) >= 0) {
      throw new Error(`createReviewIndex: reviews are not newest first at position ${pos} (id ${review.id})`);
    }
    ratings[pos] = review.rating;
    ratingLists[review.rating]?.push(pos);
    (review.response ? replied : unreplied).push(pos);
    (review.media.length > 0 ? withMedia : withoutMedia).push(pos);
  }
  return {
    reviews,
    business,
    terms: buildBusinessTerms(business),
    ratings,
    byRating: ratingLists.map((list) => (list.length === 0 ? EMPTY_LIST : Int32Array.from(list))),
    byTechnician: buildPostingLists(n, (pos) => reviews[pos]!.technicians),
    byService: buildPostingLists(n, (pos) => reviews[pos]!.services),
    byLocation: buildPostingLists(n, (pos) => (reviews[pos]!.location === undefined ? [] : [reviews[pos]!.location!])),
    aspects: options.aspects ?? listReviewAspects(reviews),
    byAspect: buildPostingLists(n, (pos) => listAspectKeys(reviews[pos]!)),
    byResponse: { true: Int32Array.from(replied), false: Int32Array.from(unreplied) },
    byMedia: { true: Int32Array.from(withMedia), false: Int32Array.from(withoutMedia) },
    text: buildTextIndex(reviews),
    needles: createNeedleCache(options.needleCache),
  };
}

/** Positions [lo, hi) of the reviews dated within since..until, both inclusive and optional. */
export function findDateRange(index: ReviewIndex, since?: string, until?: string): { lo: number; hi: number } {
  const lo = until === undefined ? 0 : countAfter(index.reviews, until);
  const hi = since === undefined ? index.reviews.length : countSince(index.reviews, since);
  return { lo, hi: Math.max(lo, hi) };
}
