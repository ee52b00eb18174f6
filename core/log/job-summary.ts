/**
 * Jobs and the reviews tied to them, computed from the review log alone (issue 42 items 4–5): each live
 * review's tie (its job entry, the job's week and service, and whether the job was logged before the
 * review's first entry), and the figures that make review gating visible: jobs logged, jobs with a
 * review, the share, and the ratings of tied and untied reviews, overall and per month. Anyone holding the
 * log's entries computes the same (`npm run verify`, /log/, /insights.json, MCP, /about/reviews/).
 *
 * A job counts once however often it was logged (by its `locator`). A job counts as logged before a review
 * when its entry's time is earlier than the review's first entry's (`isLoggedBefore`). Its month is that of the Thursday of
 * its ISO week (the ISO rule for a week's year); a review's month is that of its own date.
 */
import { z } from 'zod';
import { replayLog, type LogEntry } from './entry.ts';
import { datesOfIsoWeek } from './job.ts';
import { compareText } from '../text/text-rules.ts';

export const JobTieSchema = z
  .object({
    entry: z.int().min(0).meta({ description: 'The job\'s entry in the review log.' }),
    week: z.string().meta({ description: 'ISO week the job was completed, `2026-W11`.' }),
    service: z.string().meta({ description: 'The job\'s service id.' }),
    logged_before_review: z.boolean().meta({ description: 'Whether the job entered the log before the review did (an earlier time).' }),
  })
  .meta({ id: 'JobTie' });
export type JobTie = z.infer<typeof JobTieSchema>;

const Ratings = z.object({ '1': z.int().min(0), '2': z.int().min(0), '3': z.int().min(0), '4': z.int().min(0), '5': z.int().min(0) });
type Ratings = z.infer<typeof Ratings>;

const figures = {
  jobs: z.int().min(0).meta({ description: 'Jobs logged.' }),
  reviewed: z.int().min(0).meta({ description: 'Of those, jobs a published review is tied to.' }),
  share: z.number().nullable().meta({ description: '`reviewed` / `jobs`, 3 decimals; null without jobs.' }),
  tied: Ratings.meta({ description: 'Ratings of the published reviews tied to a job.' }),
  untied: Ratings.meta({ description: 'Ratings of the published reviews tied to none.' }),
};

export const JobFiguresSchema = z
  .object({
    ...figures,
    tied_before: z.int().min(0).meta({ description: 'Tied reviews whose job was logged before them.' }),
    by_month: z.array(z.object({ month: z.string().meta({ description: '`YYYY-MM`.' }), ...figures })).meta({ description: 'The same per month (a job by its week, a review by its date), oldest first.' }),
  })
  .meta({ id: 'JobFigures' });
export type JobFigures = z.infer<typeof JobFiguresSchema>;

/**
 * Whether a job was logged before a review: its entry's time is earlier than the review's first entry's.
 * A job and a review logged in one publish share a time, so neither counts as before the other.
 */
export const isLoggedBefore = (jobTime: string, reviewFirstTime: string) => Date.parse(jobTime) < Date.parse(reviewFirstTime);

/** Each live review's tie to a job, by review id. */
export function readJobTies(entries: readonly LogEntry[]): Map<string, JobTie> {
  const ties = new Map<string, JobTie>();
  for (const [id, { latest, first_index }] of replayLog(entries)) {
    if (latest.action === 'withdraw' || latest.job === undefined) continue;
    const job = entries[latest.job];
    if (job?.action !== 'job') continue;
    ties.set(id, { entry: latest.job, week: job.week, service: job.service, logged_before_review: isLoggedBefore(job.time, entries[first_index]!.time) });
  }
  return ties;
}

const noRatings = (): Ratings => ({ '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 });

/** How many reviews a rating distribution counts, and their mean rating to 2 decimals ('-' for none). */
export const countRatings = (r: Readonly<Record<string, number>>) => Object.values(r).reduce((a, b) => a + b, 0);
export const meanRating = (r: Readonly<Record<string, number>>) => {
  const n = countRatings(r);
  return n === 0 ? '-' : (Object.entries(r).reduce((sum, [stars, k]) => sum + Number(stars) * k, 0) / n).toFixed(2);
};
const monthOfWeek = (week: string) => datesOfIsoWeek(week)[3]?.slice(0, 7) ?? week.slice(0, 4);

export function summarizeJobs(entries: readonly LogEntry[]): JobFigures {
  // Each job by its locator, with the month of its latest entry's week.
  const jobMonth = new Map<string, string>();
  const locatorAt = new Map<number, string>();
  entries.forEach((e, i) => {
    if (e.action !== 'job') return;
    jobMonth.set(e.locator, monthOfWeek(e.week));
    locatorAt.set(i, e.locator);
  });
  const months = new Map<string, ReturnType<typeof emptyFigures>>();
  const month = (m: string) => months.get(m) ?? months.set(m, emptyFigures()).get(m)!;
  const all = emptyFigures();
  for (const m of jobMonth.values()) {
    all.jobs += 1;
    month(m).jobs += 1;
  }
  const reviewedJobs = new Set<string>();
  let tiedBefore = 0;
  const ties = readJobTies(entries);
  for (const [id, { latest }] of replayLog(entries)) {
    if (latest.action === 'withdraw') continue;
    const tie = ties.get(id);
    const rating = String(latest.rating) as keyof Ratings;
    const side = tie ? 'tied' : 'untied';
    all[side][rating] += 1;
    month(latest.date.slice(0, 7))[side][rating] += 1;
    if (!tie) continue;
    if (tie.logged_before_review) tiedBefore += 1;
    const locator = locatorAt.get(tie.entry)!;
    if (reviewedJobs.has(locator)) continue;
    reviewedJobs.add(locator);
    all.reviewed += 1;
    month(jobMonth.get(locator)!).reviewed += 1;
  }
  return {
    ...withShare(all),
    tied_before: tiedBefore,
    by_month: [...months].sort(([a], [b]) => compareText(a, b)).map(([m, f]) => ({ month: m, ...withShare(f) })),
  };
}

function emptyFigures() {
  return { jobs: 0, reviewed: 0, tied: noRatings(), untied: noRatings() };
}

function withShare(f: ReturnType<typeof emptyFigures>) {
  return { jobs: f.jobs, reviewed: f.reviewed, share: f.jobs === 0 ? null : Math.round((f.reviewed / f.jobs) * 1000) / 1000, tied: f.tied, untied: f.untied };
}
