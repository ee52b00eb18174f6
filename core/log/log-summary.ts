/**
 * The review log in plain numbers, for people (the /log/ page, each review's "in the public log since
 * entry N") and agents (MCP `get_review`'s `log_entry`): computed once per build from the entries.
 */
import { z } from 'zod';
import { WithdrawReasonSchema, WITHDRAW_REASONS } from './reasons.ts';
import { replayLog, UpdateChangeSchema, type LogEntry } from './entry.ts';
import { summarizeUpdates } from './entry-history.ts';
import { JobFiguresSchema, summarizeJobs } from './job-summary.ts';

export const LogWithdrawalSchema = z.object({
  entry: z.int().min(0).meta({ description: 'The withdrawal\'s position in the log.' }),
  time: z.string().meta({ description: 'When the withdrawal was published.' }),
  date: z.string().meta({ description: 'The withdrawn review\'s own date.' }),
  rating: z.int().min(1).max(5),
  reason: WithdrawReasonSchema,
});

export const LogRatingChangeSchema = z.object({
  entry: z.int().min(0).meta({ description: 'The update\'s position in the log.' }),
  review_id: z.string(),
  time: z.string().meta({ description: 'When the change was published.' }),
  date: z.string().meta({ description: 'The review\'s own date.' }),
  previous_rating: z.int().min(1).max(5),
  rating: z.int().min(1).max(5),
  change: UpdateChangeSchema.nullable().meta({ description: 'What the update says it is; null for an update from before the log recorded it.' }),
  reason: z.string().nullable().meta({ description: 'The owner\'s reason for a correction of the rating.' }),
  words_changed: z.boolean().nullable().meta({ description: 'Whether the review\'s words changed too; null when the log cannot tell.' }),
});

export const LogSummarySchema = z.object({
  size: z.int().min(0).meta({ description: 'Entries in the log.' }),
  first_time: z.string().nullable().meta({ description: 'When the first entry was published; null for an empty log.' }),
  published: z.int().min(0).meta({ description: 'Reviews ever published through the log.' }),
  withdrawn: z.int().min(0).meta({ description: 'Reviews whose latest entry is a withdrawal.' }),
  by_reason: z.record(WithdrawReasonSchema, z.int().min(0)).meta({ description: 'Withdrawn reviews by the reason of their withdrawal.' }),
  withdrawals: z.array(LogWithdrawalSchema).meta({ description: 'Every withdrawal entry, in log order.' }),
  changes: z.int().min(0).meta({ description: 'Update entries: changes of a published review.' }),
  by_change: z.record(z.enum([...UpdateChangeSchema.options, 'unrecorded']), z.int().min(0)).meta({ description: 'Updates by their kind of change; `unrecorded` for those from before the log recorded it.' }),
  rating_changes: z.array(LogRatingChangeSchema).meta({ description: 'Every update that changed a rating, in log order.' }),
  first_entry: z.record(z.string(), z.int().min(0)).meta({ description: 'For each review in the log, the position of its first entry: in the public log since then.' }),
  first_logged: z.record(z.string(), z.string()).meta({ description: 'For each review in the log, when its first entry was published (RFC 3339).' }),
  latest_entry: z.record(z.string(), z.int().min(0)).meta({ description: 'For each review in the log, the position of its latest entry: its log_entry\'s index.' }),
  jobs: JobFiguresSchema.meta({ description: 'Jobs logged and the reviews tied to them (core/log/job-summary.ts).' }),
});
export type LogSummary = z.infer<typeof LogSummarySchema>;

export function summarizeLog(entries: readonly LogEntry[]): LogSummary {
  const state = replayLog(entries);
  const byReason = Object.fromEntries(WITHDRAW_REASONS.map((r) => [r, 0])) as LogSummary['by_reason'];
  let withdrawn = 0;
  for (const { latest } of state.values()) {
    if (latest.action !== 'withdraw') continue;
    withdrawn += 1;
    byReason[latest.reason] += 1;
  }
  const updates = summarizeUpdates(entries);
  const byChange: LogSummary['by_change'] = { reply: 0, at_source: 0, correction: 0, job: 0, unrecorded: 0 };
  for (const u of updates) byChange[u.change ?? 'unrecorded'] += 1;
  const withdrawals = entries.flatMap((e, entry) => (e.action === 'withdraw' ? [{ entry, time: e.time, date: e.date, rating: e.rating, reason: e.reason }] : []));
  return {
    size: entries.length,
    first_time: entries[0]?.time ?? null,
    published: state.size,
    withdrawn,
    by_reason: byReason,
    withdrawals,
    changes: updates.length,
    by_change: byChange,
    rating_changes: updates.flatMap(({ entry, review_id, time, date, previous_rating, rating, change, reason, words_changed }) =>
      previous_rating === rating ? [] : [{ entry, review_id, time, date, previous_rating, rating, change, reason, words_changed }],
    ),
    first_entry: Object.fromEntries([...state].map(([id, s]) => [id, s.first_index])),
    first_logged: Object.fromEntries([...state].map(([id, s]) => [id, entries[s.first_index]!.time])),
    latest_entry: Object.fromEntries([...state].map(([id, s]) => [id, s.index])),
    jobs: summarizeJobs(entries),
  };
}
