/**
 * What the build appends to the review log (issue 27 items 2–3, issue 40 item 1): the changes between the
 * set the log says is published and the set this build publishes, in one order any machine reproduces.
 *
 * - A review the log does not hold as published is `publish`ed; one whose digest changed is `update`d;
 *   one the log holds that this build does not publish is `withdraw`n, keeping its date and rating, with
 *   the reason the owner gave in the content (withdrawn.json) or `other`.
 * - An update says what kind of change it is (core/log/entry.ts): `reply` when only the owner's reply
 *   changed (its words and rating as before, by the digests of its last entry); else `correction` when
 *   the owner lists it in corrections.json or it was collected directly; else `at_source` (a review from
 *   another platform: its source changed it, or so the owner says by not listing it). A changed rating is
 *   always said, with the rating it replaced, and a correction of it with the owner's reason or `other`.
 * - A review whose date changed is withdrawn (its old date and rating) and published again: no update
 *   changes a date. Within one review, the withdrawal comes first.
 * - New entries carry `now`. The first entries of a new log (the seed of a business that already has
 *   reviews) carry each review's own date, or its owner reply's when later, at midnight UTC (never after
 *   `now`), so every machine seeds the same log without reading git.
 * - Within one append, entries are ordered by time, then review id.
 */
import type { CorrectionReason, WithdrawReason } from './reasons.ts';
import type { LogEntry, ReviewLogState, UpdateChange } from './entry.ts';
import { compareText } from '../text/text-rules.ts';

/**
 * `changed`: the review's own latest day (its date, or its reply's when later), which dates a seed entry.
 * `direct`: the owner collected it (no other platform), so its changes are the owner's own.
 * `parts`: its digestReviewParts, asked only of the reviews that changed.
 */
export type PublishedForLog = { id: string; date: string; rating: number; digest: string; changed: string; direct: boolean; parts: () => { words: string; reply: string } };


export function planLogAppend(input: {
  /** Where each review stands in the log so far (replayLog of its entries); empty for a new log. */
  state: ReadonlyMap<string, ReviewLogState>;
  published: readonly PublishedForLog[];
  reasons: ReadonlyMap<string, WithdrawReason>;
  /** corrections.json: why the owner changed a review's rating. */
  corrections?: ReadonlyMap<string, CorrectionReason>;
  /** RFC 3339 UTC, no fraction. */
  now: string;
}): LogEntry[] {
  const { state, published, reasons, now } = input;
  const corrections = input.corrections ?? new Map<string, CorrectionReason>();
  const seeding = state.size === 0;
  const added: LogEntry[] = [];
  const publishing = new Set<string>();
  for (const review of published) {
    publishing.add(review.id);
    const latest = state.get(review.id)?.latest;
    const live = latest !== undefined && latest.action !== 'withdraw';
    if (live && latest.digest === review.digest) continue;
    const time = seeding ? minTime(`${review.changed}T00:00:00Z`, now) : now;
    const base = { review_id: review.id, time, date: review.date, rating: review.rating, digest: review.digest, ...review.parts() };
    if (!live || latest.date !== review.date) {
      // A review's date never changes in the log (npm run verify holds every update to it): a new date is
      // the old review withdrawn and the review published again.
      if (live) added.push({ action: 'withdraw', review_id: review.id, time, date: latest.date, rating: latest.rating, reason: reasons.get(review.id) ?? 'other' });
      added.push({ action: 'publish', ...base });
      continue;
    }
    const ratingChanged = latest.rating !== review.rating;
    const replyOnly = !ratingChanged && latest.words === base.words && latest.reply !== undefined && latest.reply !== base.reply;
    const change: UpdateChange = replyOnly ? 'reply' : corrections.has(review.id) || review.direct ? 'correction' : 'at_source';
    added.push({
      action: 'update',
      ...base,
      change,
      ...(ratingChanged ? { previous_rating: latest.rating } : {}),
      ...(ratingChanged && change === 'correction' ? { reason: corrections.get(review.id) ?? 'other' } : {}),
    });
  }
  for (const [id, { latest }] of state) {
    if (latest.action === 'withdraw' || publishing.has(id)) continue;
    added.push({ action: 'withdraw', review_id: id, time: now, date: latest.date, rating: latest.rating, reason: reasons.get(id) ?? 'other' });
  }
  return added.sort((a, b) => compareText(a.time, b.time) || compareText(a.review_id, b.review_id));
}

const minTime = (a: string, b: string) => (a < b ? a : b);

/**
 * Each published review's time in the log: its latest publish or update (its `updated`, before the
 * floor), after the log so far (`state`) and the entries `added` to it.
 */
export function readLogTimes(state: ReadonlyMap<string, ReviewLogState>, added: readonly LogEntry[] = []): Map<string, string> {
  const times = new Map<string, string>();
  for (const [id, { latest }] of state) if (latest.action !== 'withdraw') times.set(id, latest.time);
  for (const entry of added) {
    if (entry.action === 'withdraw') times.delete(entry.review_id);
    else times.set(entry.review_id, entry.time);
  }
  return times;
}

/** `Date` → `2026-11-27T10:00:00Z`: one zone, no fraction, so times compare as strings. */
export function formatLogTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
