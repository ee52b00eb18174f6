/**
 * What `npm run verify` tells the reader about the log's changes (docs/verification.md step 4): every
 * update since the reader's last visit, each with its rating before and after and whether the words
 * changed (told from the review's own earlier entries, core/log/entry-history.ts), and every withdrawal.
 */
import type { LogEntry } from '../../core/log/entry.ts';
import { summarizeUpdates, type UpdateSummary } from '../../core/log/entry-history.ts';
import { countRatings as count, meanRating as mean, summarizeJobs } from '../../core/log/job-summary.ts';

const CHANGE_WORDS = { reply: "the owner's reply", at_source: 'changed at its source, says the owner', correction: "the owner's correction", job: 'tied to a job' } as const;

const yesNo = (changed: boolean | null, what: string) => (changed === null ? `${what} changed: unknown (an entry from before the log recorded it)` : `${what} ${changed ? 'changed' : 'unchanged'}`);

function describeUpdate(u: UpdateSummary): string {
  const rating = u.previous_rating === u.rating ? `rating ${u.rating} (unchanged)` : `rating ${u.previous_rating} → ${u.rating}`;
  const kind = u.change === null ? 'kind not recorded' : `${CHANGE_WORDS[u.change]}${u.reason === null ? '' : `, reason: ${u.reason}`}`;
  return `  entry ${u.entry}, ${u.time}: review ${u.review_id} of ${u.date}, ${rating}, ${yesNo(u.words_changed, 'words')}, ${yesNo(u.reply_changed, 'reply')}; ${kind}`;
}

/** The lines about updates: those at `from` and after (the reader's last visit); all without it. */
export function reportUpdates(entries: readonly (LogEntry | undefined)[], from: number | undefined): string[] {
  const known = entries.filter((e): e is LogEntry => e !== undefined);
  // An entry that is not an entry leaves a gap; the updates are told from the ones that are.
  const updates = known.length === entries.length ? summarizeUpdates(known, from ?? 0) : [];
  const ratings = updates.filter((u) => u.previous_rating !== u.rating).length;
  const since = from === undefined ? 'in the whole log' : from === entries.length ? 'since your last visit' : `since your last visit (entries ${from}–${entries.length - 1})`;
  return [`Updates ${since}: ${updates.length}, ${ratings} of them changing a rating.`, ...updates.map(describeUpdate)];
}

export function reportWithdrawals(entries: readonly (LogEntry | undefined)[]): string[] {
  const withdrawals = entries.flatMap((e, i) => (e?.action === 'withdraw' ? [{ entry: i, ...e }] : []));
  return [`Withdrawals: ${withdrawals.length}.`, ...withdrawals.map((w) => `  entry ${w.entry}, ${w.time}: a ${w.rating}-star review of ${w.date}, reason: ${w.reason}`)];
}

/** Jobs logged and the reviews tied to them (core/log/job-summary.ts), computed here from the entries. */
export function reportJobs(entries: readonly LogEntry[]): string[] {
  const jobs = summarizeJobs(entries);
  if (jobs.jobs === 0) return ['Jobs: none logged.'];
  return [
    `Jobs: ${jobs.jobs} logged, ${jobs.reviewed} with a published review (${((jobs.share ?? 0) * 100).toFixed(1)}%).`,
    `  reviews tied to a job: ${count(jobs.tied)} (average ${mean(jobs.tied)}), ${jobs.tied_before} of them to a job logged before the review; tied to none: ${count(jobs.untied)} (average ${mean(jobs.untied)})`,
  ];
}
