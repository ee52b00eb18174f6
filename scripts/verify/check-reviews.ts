/**
 * The served reviews against the log (docs/verification.md step 3): each review in /reviews.json must
 * match the digest of its latest entry, and that entry's digests of its words and reply (when it has
 * them) must be the review's too; a review served without an entry, served after its withdrawal, or
 * logged as published but not served, is named. A review served as tied to a job (`job`) must be tied to
 * that job entry by its latest entry, with the job's week and service, and say truly whether the job was
 * logged before the review's first entry.
 */
import type { LogEntry, ReviewLogEntry } from '../../core/log/entry.ts';
import { digestReview, digestReviewParts } from '../../core/log/review-digest.ts';
import { isLoggedBefore } from '../../core/log/job-summary.ts';

export type ServedReview = { id: string } & Record<string, unknown>;

export function checkReviews(reviews: readonly ServedReview[], entries: readonly (LogEntry | undefined)[], problems: string[]): void {
  const latest = new Map<string, number>();
  const first = new Map<string, number>();
  entries.forEach((entry, i) => {
    if (!entry || entry.action === 'job') return;
    latest.set(entry.review_id, i);
    if (!first.has(entry.review_id)) first.set(entry.review_id, i);
  });
  const served = new Set<string>();
  for (const review of reviews) {
    served.add(review.id);
    const i = latest.get(review.id);
    const entry = i === undefined ? undefined : (entries[i] as ReviewLogEntry | undefined);
    if (i === undefined || !entry) problems.push(`review ${review.id} is served but has no entry in the log: a missing entry`);
    else if (entry.action === 'withdraw') problems.push(`review ${review.id} is served but entry ${i} withdrew it`);
    else if (entry.digest !== digestReview(review)) problems.push(`review ${review.id} does not match its latest entry (${i}): it changed behind the log's back`);
    else {
      if (entry.words !== undefined) {
        const parts = digestReviewParts(review);
        if (parts.words !== entry.words || parts.reply !== entry.reply) problems.push(`entry ${i}'s digests of review ${review.id}'s words and reply are not the review's`);
      }
      const problem = checkJobTie(review, entry.job, first.get(review.id)!, entries);
      if (problem) problems.push(`review ${review.id} ${problem}`);
    }
  }
  for (const [id, i] of latest) {
    if (entries[i]!.action !== 'withdraw' && !served.has(id)) problems.push(`review ${id} is published by entry ${i} but not served, and no entry withdrew it`);
  }
}

/** What is wrong with a served review's `job` against its latest entry's tie (`tie`), if anything. */
function checkJobTie(review: ServedReview, tie: number | undefined, firstIndex: number, entries: readonly (LogEntry | undefined)[]): string | undefined {
  const served = review.job as { entry?: unknown; week?: unknown; service?: unknown; logged_before_review?: unknown } | null | undefined;
  if (served === undefined || served === null) return tie === undefined ? undefined : `is served without the job its entry ties it to (entry ${tie})`;
  if (tie === undefined || served.entry !== tie) return `is served as the review of the job of entry ${String(served.entry)}, but its latest entry ${tie === undefined ? 'ties it to no job' : `ties it to entry ${tie}`}`;
  const job = entries[tie];
  if (job?.action !== 'job') return `is tied to entry ${tie}, which is not a job`;
  if (served.week !== job.week || served.service !== job.service) return `is served with the job's week and service as ${String(served.week)}, ${String(served.service)}, but entry ${tie} says ${job.week}, ${job.service}`;
  const first = entries[firstIndex]!;
  if (served.logged_before_review !== isLoggedBefore(job.time, first.time)) return `says its job was logged ${served.logged_before_review ? 'before' : 'after'} it, but the job's entry ${tie} is of ${job.time} and the review's first entry ${firstIndex} of ${first.time}`;
  return undefined;
}

/** `/reviews.json`'s reviews; a problem when the file is not that. */
export function parseServedReviews(bytes: Buffer, problems: string[]): ServedReview[] {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    problems.push('reviews.json is not JSON');
    return [];
  }
  const reviews = (json as { reviews?: unknown } | null)?.reviews;
  if (!Array.isArray(reviews) || !reviews.every((r) => typeof r === 'object' && r !== null && typeof r.id === 'string')) {
    problems.push('reviews.json has no list of reviews, each with an id');
    return [];
  }
  return reviews as ServedReview[];
}
