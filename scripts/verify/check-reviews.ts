/**
 * The served reviews against the log (docs/verification.md step 3): each review in /reviews.json must
 * match the digest of its latest entry, and that entry's digests of its words and reply (when it has
 * them) must be the review's too; a review served without an entry, served after its withdrawal, or
 * logged as published but not served, is named.
 */
import type { LogEntry } from '../../core/log/entry.ts';
import { digestReview, digestReviewParts } from '../../core/log/review-digest.ts';

export type ServedReview = { id: string } & Record<string, unknown>;

export function checkReviews(reviews: readonly ServedReview[], entries: readonly (LogEntry | undefined)[], problems: string[]): void {
  const latest = new Map<string, number>();
  entries.forEach((entry, i) => entry && latest.set(entry.review_id, i));
  const served = new Set<string>();
  for (const review of reviews) {
    served.add(review.id);
    const i = latest.get(review.id);
    const entry = i === undefined ? undefined : entries[i]!;
    if (i === undefined || !entry) problems.push(`review ${review.id} is served but has no entry in the log: a missing entry`);
    else if (entry.action === 'withdraw') problems.push(`review ${review.id} is served but entry ${i} withdrew it`);
    else if (entry.digest !== digestReview(review)) problems.push(`review ${review.id} does not match its latest entry (${i}): it changed behind the log's back`);
    else if (entry.words !== undefined) {
      const parts = digestReviewParts(review);
      if (parts.words !== entry.words || parts.reply !== entry.reply) problems.push(`entry ${i}'s digests of review ${review.id}'s words and reply are not the review's`);
    }
  }
  for (const [id, i] of latest) {
    if (entries[i]!.action !== 'withdraw' && !served.has(id)) problems.push(`review ${id} is published by entry ${i} but not served, and no entry withdrew it`);
  }
}

/** `/reviews.json`'s reviews; a problem when the file is not that. */
export function parseServedReviews(bytes: Buffer, problems: string[]): ServedReview[] {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    problems.push('/reviews.json is not JSON');
    return [];
  }
  const reviews = (json as { reviews?: unknown } | null)?.reviews;
  if (!Array.isArray(reviews) || !reviews.every((r) => typeof r === 'object' && r !== null && typeof r.id === 'string')) {
    problems.push('/reviews.json has no list of reviews, each with an id');
    return [];
  }
  return reviews as ServedReview[];
}
