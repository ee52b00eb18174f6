/**
 * The one order of published reviews, newest first (`date` descending, then `id` ascending), and what
 * it implies: the reviews dated on or after a date are a prefix of the list, so "since" is a count. The
 * static since snapshots and the live since and search answers all count with `countSince`, which is
 * why a live answer has the same bytes, and ETag, as its snapshot.
 */
import { compareText } from './text/text-rules.ts';

type Dated = { date: string };

export function compareNewestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  return compareText(b.date, a.date) || compareText(a.id, b.id);
}

/** How many reviews of a newest-first list are dated on or after `date` (YYYY-MM-DD): they come first. */
export function countSince(reviews: readonly Dated[], date: string): number {
  return countLeading(reviews, (d) => d >= date);
}

/** How many reviews of a newest-first list are dated after `date`: the ones an `until` filter skips. */
export function countAfter(reviews: readonly Dated[], date: string): number {
  return countLeading(reviews, (d) => d > date);
}

/** Binary search for the end of the prefix whose dates pass `test` (true for a prefix, then false). */
function countLeading(reviews: readonly Dated[], test: (date: string) => boolean): number {
  let lo = 0;
  let hi = reviews.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(reviews[mid]!.date)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
