/**
 * Each review's entries read together (issue 40 items 1–2): what each update changed, told from the
 * review's own earlier entries rather than taken from the update's word, and what a signed entry may not
 * say about a review's past.
 *
 * The rules (docs/log.md): a review is published only when it is not live (never published, or
 * withdrawn); it is updated or withdrawn only while live; an update or a withdrawal keeps the review's
 * date; a withdrawal states the rating last published; an update's `previous_rating` is that rating, and
 * is there exactly when the rating changed; times never go back.
 */
import type { LogEntry, ReviewLogEntry, UpdateChange } from './entry.ts';

/** One update, told from the review's entry before it. */
export type UpdateSummary = {
  entry: number;
  review_id: string;
  time: string;
  date: string;
  previous_rating: number;
  rating: number;
  /** What the update says it is; null for an update written before issue 40. */
  change: UpdateChange | null;
  reason: string | null;
  /** Whether the words (text, title) changed; null when an entry before issue 40 cannot tell. */
  words_changed: boolean | null;
  reply_changed: boolean | null;
};

type Published = Extract<ReviewLogEntry, { action: 'publish' | 'update' }>;

function compareParts(before: Published, after: Published, part: 'words' | 'reply'): boolean | null {
  return before[part] === undefined || after[part] === undefined ? null : before[part] !== after[part];
}

/** Every update of `entries` (at positions `from` and later, counting the earlier ones as history). */
export function summarizeUpdates(entries: readonly LogEntry[], from = 0): UpdateSummary[] {
  const live = new Map<string, Published>();
  const updates: UpdateSummary[] = [];
  entries.forEach((e, index) => {
    if (e.action === 'job') return;
    const before = live.get(e.review_id);
    if (e.action === 'withdraw') return void live.delete(e.review_id);
    live.set(e.review_id, e);
    if (e.action !== 'update' || before === undefined || index < from) return;
    updates.push({
      entry: index,
      review_id: e.review_id,
      time: e.time,
      date: e.date,
      previous_rating: before.rating,
      rating: e.rating,
      change: e.change ?? null,
      reason: e.reason ?? null,
      words_changed: compareParts(before, e, 'words'),
      reply_changed: compareParts(before, e, 'reply'),
    });
  });
  return updates;
}

/** What the entries say that the review's earlier entries contradict, each naming the entry. */
export function checkEntryHistory(entries: readonly LogEntry[]): string[] {
  const problems: string[] = [];
  const live = new Map<string, Published>();
  // Which live review each job is the job of (one job, at most one review).
  const reviewOfJob = new Map<number, string>();
  let lastTime = Number.NEGATIVE_INFINITY;
  entries.forEach((e, i) => {
    const time = Date.parse(e.time);
    if (time < lastTime) problems.push(`entry ${i} (${e.action === 'job' ? 'a job' : `${e.action} of ${e.review_id}`}) is dated ${e.time}, before the entry ahead of it: times went back`);
    lastTime = Math.max(lastTime, time);
    if (e.action === 'job') return;
    const before = live.get(e.review_id);
    if (before?.job !== undefined && reviewOfJob.get(before.job) === e.review_id) reviewOfJob.delete(before.job);
    if (e.action !== 'withdraw' && e.job !== undefined) {
      const other = reviewOfJob.get(e.job);
      if (e.job >= i || entries[e.job]?.action !== 'job') problems.push(`entry ${i} ties review ${e.review_id} to entry ${e.job}, which is not a job logged before it`);
      else if (other !== undefined && other !== e.review_id) problems.push(`entry ${i} ties review ${e.review_id} to the job of entry ${e.job}, already the job of review ${other}`);
      else reviewOfJob.set(e.job, e.review_id);
    }
    if (e.action === 'publish') {
      if (before) problems.push(`entry ${i} publishes review ${e.review_id} a second time, with no withdrawal since the first`);
      live.set(e.review_id, e);
      return;
    }
    if (!before) {
      problems.push(`entry ${i} ${e.action === 'update' ? 'updates' : 'withdraws'} review ${e.review_id}, which is not published at that point`);
      return;
    }
    if (e.date !== before.date) problems.push(`entry ${i} says review ${e.review_id} is of ${e.date}, but it was published as a review of ${before.date}`);
    if (e.action === 'withdraw') {
      if (e.rating !== before.rating) problems.push(`entry ${i} withdraws review ${e.review_id} as a ${e.rating}-star review, but its last published rating was ${before.rating}`);
      live.delete(e.review_id);
      return;
    }
    const changed = e.rating !== before.rating;
    if (e.change !== undefined && (e.previous_rating ?? before.rating) !== before.rating) {
      problems.push(`entry ${i} says review ${e.review_id} was rated ${e.previous_rating} before, but its last published rating was ${before.rating}`);
    } else if (e.change !== undefined && changed && e.previous_rating === undefined) {
      problems.push(`entry ${i} changes review ${e.review_id}'s rating from ${before.rating} to ${e.rating} without saying so`);
    }
    if (e.change === 'reply' && (before.words === undefined || before.words !== e.words || before.reply === e.reply)) {
      problems.push(`entry ${i} calls its change of review ${e.review_id} a reply, but more than the reply changed`);
    }
    if (e.change === 'job' && (changed || before.digest !== e.digest || before.job === e.job)) {
      problems.push(`entry ${i} calls its change of review ${e.review_id} a tie to a job, but ${before.job === e.job ? 'the job is the same' : 'the review changed too'}`);
    }
    live.set(e.review_id, e);
  });
  return problems;
}
