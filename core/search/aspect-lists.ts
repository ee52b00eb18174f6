/**
 * Posting-list keys of the `aspect` and `aspect_sentiment` filters. A review whose `aspects` hold
 * `price` negative is listed under `price` (it mentions price), `price:negative` (that polarity on
 * price) and `:negative` (that polarity on some aspect), so every combination of the two filters is
 * one list. Aspect ids are slugs, so `:` cannot occur in them.
 */
import type { Polarity } from '../schemas/aspects.ts';
import type { PublishedReview } from '../schemas/published.ts';

export function aspectListKey(aspect: string | undefined, polarity: Polarity | undefined): string | undefined {
  if (aspect === undefined) return polarity === undefined ? undefined : `:${polarity}`;
  return polarity === undefined ? aspect : `${aspect}:${polarity}`;
}

export function listAspectKeys(review: PublishedReview): string[] {
  // A build made before reviews carried aspects has none (the dist is read without validation).
  return (review.aspects ?? []).flatMap(({ aspect, polarity }) => [aspect, `${aspect}:${polarity}`, `:${polarity}`]);
}

/** The aspect ids the reviews carry, sorted: the aspect set to accept when none is given. */
export function listReviewAspects(reviews: readonly PublishedReview[]): string[] {
  const ids = new Set<string>();
  for (const review of reviews) for (const { aspect } of review.aspects ?? []) ids.add(aspect);
  return [...ids].sort();
}
