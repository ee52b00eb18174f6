/**
 * Where a search's `query` matched a review (issue 43 item 3): `translation` when only a translation the
 * source gave holds it, so a reader knows the customer did not write those words; nothing otherwise, so
 * the answers for reviews without a translation keep their bytes. The same matching as the index
 * (text-index.ts): String.prototype.toLowerCase, then a substring.
 */
import type { PublishedReview } from '../schemas/published.ts';

export type MatchedIn = 'translation';

export function findMatchedIn(review: Pick<PublishedReview, 'text' | 'title' | 'translation'>, query: string | undefined): MatchedIn | undefined {
  if (query === undefined || review.translation === undefined) return undefined;
  const needle = query.toLowerCase();
  if (needle === '') return undefined;
  if (review.text.toLowerCase().includes(needle) || (review.title?.toLowerCase().includes(needle) ?? false)) return undefined;
  return 'translation';
}
