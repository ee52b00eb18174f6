/**
 * When each review last changed (issue 27 item 3): its latest entry in the review log (core/log/,
 * docs/log.md), the one history, read the same on every machine, in git or not.
 */
import { getLatestChange } from '../dates/latest-change.ts';

/**
 * A review's `updated`: the time of its latest publish or update entry in the review log, never earlier
 * than the midnight (UTC) of its own date or its owner reply's; without an entry, that midnight.
 */
export function resolveUpdated(review: { date: string; response?: { date: string } | null }, changedAt: string | undefined): string {
  const floor = `${getLatestChange(review)}T00:00:00Z`;
  return changedAt !== undefined && changedAt > floor ? changedAt : floor;
}
