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
 *   reviews) all carry the day the log was made, at midnight UTC: so every machine that seeds it that day
 *   seeds the same log, and no entry says it was logged before the log existed. Only the demo's seed
 *   (`datedSeed`, a made-up history under the demo's banner) carries each review's own date, or its owner
 *   reply's when later, at midnight UTC (never after `now`).
 * - Jobs (issue 42): a job whose commitment is not its locator's latest `job` entry is logged (a job
 *   edited after it was logged is logged again; the first entry stays). In the demo's seed, a job carries its
 *   completion date, so a job completed before its review is logged before it. At one time, jobs come
 *   first, so a review's entry only ever names a job entry before it; a job counts as logged before its
 *   review only when its time is earlier (core/log/job-summary.ts), never when both came in one publish.
 * - A review tied to a job carries the job entry's index (`job`); a live review whose tie changed, and
 *   nothing else, is updated with `change: "job"`.
 * - Within one append, entries are ordered by time, then jobs before reviews, then locator or review id.
 */
import type { CorrectionReason, WithdrawReason } from './reasons.ts';
import type { JobLogEntry, LogEntry, ReviewLogEntry, ReviewLogState, UpdateChange } from './entry.ts';
import { compareText } from '../text/text-rules.ts';

/**
 * `changed`: the review's own latest day (its date, or its reply's when later), which dates a seed entry.
 * `direct`: the owner collected it (no other platform), so its changes are the owner's own.
 * `parts`: its digestReviewParts, asked only of the reviews that changed.
 */
export type PublishedForLog = {
  id: string;
  date: string;
  rating: number;
  digest: string;
  changed: string;
  direct: boolean;
  parts: () => { words: string; reply: string };
  /** The locator of its job (core/log/job.ts), when the content ties it to one. */
  job?: string | undefined;
};

/** A job of the content, as its entry would say it (core/log/job.ts), with its completion date. */
export type JobForLog = Omit<JobLogEntry, 'action' | 'time'> & { completed: string };

/** Where each job stands in the log: its locator's latest entry. */
export type JobLogState = { index: number; commitment: string };

export function replayJobs(entries: readonly LogEntry[]): Map<string, JobLogState> {
  const jobs = new Map<string, JobLogState>();
  entries.forEach((e, index) => e.action === 'job' && jobs.set(e.locator, { index, commitment: e.commitment }));
  return jobs;
}


export function planLogAppend(input: {
  /** Where each review stands in the log so far (replayLog of its entries); empty for a new log. */
  state: ReadonlyMap<string, ReviewLogState>;
  published: readonly PublishedForLog[];
  reasons: ReadonlyMap<string, WithdrawReason>;
  /** corrections.json: why the owner changed a review's rating. */
  corrections?: ReadonlyMap<string, CorrectionReason>;
  /** The content's jobs, and where the log's jobs stand (replayJobs). */
  jobs?: readonly JobForLog[];
  jobState?: ReadonlyMap<string, JobLogState>;
  /** Entries in the log so far: 0 for a new log, which is seeded; where the new job entries begin. */
  size: number;
  /** RFC 3339 UTC, no fraction. */
  now: string;
  /** The demo's seed: each entry dated by its review or job, not by the day the log was made. */
  datedSeed?: boolean;
}): LogEntry[] {
  const { state, published, reasons, now } = input;
  const corrections = input.corrections ?? new Map<string, CorrectionReason>();
  const jobState = input.jobState ?? new Map<string, JobLogState>();
  const seeding = input.size === 0;
  const seedTime = `${now.slice(0, 10)}T00:00:00Z`;
  const timeOf = (day: string) => (!seeding ? now : input.datedSeed ? minTime(`${day}T00:00:00Z`, now) : seedTime);

  const jobsAdded: JobLogEntry[] = [];
  for (const { completed, ...job } of input.jobs ?? []) {
    if (jobState.get(job.locator)?.commitment === job.commitment) continue;
    jobsAdded.push({ action: 'job', time: timeOf(completed), week: job.week, service: job.service, ...(job.area === undefined ? {} : { area: job.area }), locator: job.locator, commitment: job.commitment });
  }
  const relogged = new Set(jobsAdded.map((j) => j.locator));

  // Review entries, each with the locator of its job until the positions are known.
  const added: { entry: ReviewLogEntry; job?: string | undefined }[] = [];
  const publishing = new Set<string>();
  for (const review of published) {
    publishing.add(review.id);
    const latest = state.get(review.id)?.latest;
    const live = latest !== undefined && latest.action !== 'withdraw';
    const sameJob = live && (review.job === undefined ? latest.job === undefined : !relogged.has(review.job) && jobState.get(review.job)?.index === latest.job);
    if (live && latest.digest === review.digest && sameJob) continue;
    const time = timeOf(review.changed);
    const base = { review_id: review.id, time, date: review.date, rating: review.rating, digest: review.digest, ...review.parts() };
    if (!live || latest.date !== review.date) {
      // A review's date never changes in the log (npm run verify holds every update to it): a new date is
      // the old review withdrawn and the review published again.
      if (live) added.push({ entry: { action: 'withdraw', review_id: review.id, time, date: latest.date, rating: latest.rating, reason: reasons.get(review.id) ?? 'other' } });
      added.push({ entry: { action: 'publish', ...base }, job: review.job });
      continue;
    }
    const ratingChanged = latest.rating !== review.rating;
    const replyOnly = !ratingChanged && latest.words === base.words && latest.reply !== undefined && latest.reply !== base.reply;
    const jobOnly = latest.digest === review.digest;
    const change: UpdateChange = jobOnly ? 'job' : replyOnly ? 'reply' : corrections.has(review.id) || review.direct ? 'correction' : 'at_source';
    added.push({
      entry: {
        action: 'update',
        ...base,
        change,
        ...(ratingChanged ? { previous_rating: latest.rating } : {}),
        ...(ratingChanged && change === 'correction' ? { reason: corrections.get(review.id) ?? 'other' } : {}),
      },
      job: review.job,
    });
  }
  for (const [id, { latest }] of state) {
    if (latest.action === 'withdraw' || publishing.has(id)) continue;
    added.push({ entry: { action: 'withdraw', review_id: id, time: now, date: latest.date, rating: latest.rating, reason: reasons.get(id) ?? 'other' } });
  }

  const all: { entry: LogEntry; job?: string | undefined }[] = [...jobsAdded.map((entry) => ({ entry })), ...added];
  const keyOf = (e: LogEntry) => (e.action === 'job' ? e.locator : e.review_id);
  const rank = (e: LogEntry) => (e.action === 'job' ? 0 : 1);
  all.sort((a, b) => compareText(a.entry.time, b.entry.time) || rank(a.entry) - rank(b.entry) || compareText(keyOf(a.entry), keyOf(b.entry)));
  // The job entries' positions, new ones after the log so far; then each review's tie.
  const jobIndex = new Map([...jobState].map(([locator, j]) => [locator, j.index]));
  all.forEach(({ entry }, i) => entry.action === 'job' && jobIndex.set(entry.locator, input.size + i));
  return all.map(({ entry, job }) => {
    const index = job === undefined ? undefined : jobIndex.get(job);
    return index === undefined || entry.action === 'job' || entry.action === 'withdraw' ? entry : { ...entry, job: index };
  });
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
    if (entry.action === 'job') continue;
    if (entry.action === 'withdraw') times.delete(entry.review_id);
    else times.set(entry.review_id, entry.time);
  }
  return times;
}

/** `Date` → `2026-11-27T10:00:00Z`: one zone, no fraction, so times compare as strings. */
export function formatLogTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
