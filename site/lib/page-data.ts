/**
 * What the layout and the review card need, read from the build's own data (build-data.ts,
 * site-model.ts). Every page is prerendered: the search page too is a shell the service fills
 * (core/pages/search-page.ts).
 */
import type { ReviewLinks } from '../../core/pages/review-card.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import type { ServiceUrls } from '../../core/urls.ts';
import type { Translator } from '../../core/i18n/translator.ts';
import type { LogSummary } from '../../core/log/log-summary.ts';
import { getBuildData } from './build-data.ts';
import { getSiteModel } from './site-model.ts';

export type PageData = { urls: ServiceUrls; dataset: ReviewsDataset; t: Translator };

export async function getPageData(): Promise<PageData> {
  return getBuildData();
}

/** Names of services and pages of technicians, as site-model.ts lists them. */
export async function getReviewLinks(): Promise<ReviewLinks> {
  return getSiteModel();
}

/** Whether the business logs its jobs (core/log/job-summary.ts): its reviews then say whether they are tied to one. */
export async function getJobsLogged(): Promise<boolean> {
  return ((await getBuildData()).log?.jobs.jobs ?? 0) > 0;
}

/** Each review's changes of rating in the review log, in log order (core/log/log-summary.ts); made once per build. */
export async function getRatingChanges(): Promise<ReadonlyMap<string, LogSummary['rating_changes']>> {
  const log = (await getBuildData()).log;
  if (log === undefined) return new Map();
  let byReview = ratingChangesOf.get(log);
  if (byReview === undefined) {
    byReview = Map.groupBy(log.rating_changes, (c) => c.review_id);
    ratingChangesOf.set(log, byReview);
  }
  return byReview;
}
const ratingChangesOf = new WeakMap<object, ReadonlyMap<string, LogSummary['rating_changes']>>();

/** When each review's first entry in the review log was published (core/log/log-summary.ts). */
export async function getLogEntries(): Promise<Readonly<Record<string, string>> | undefined> {
  return (await getBuildData()).log?.first_logged;
}
