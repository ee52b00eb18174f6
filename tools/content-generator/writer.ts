/**
 * Writes a content folder: business.json and reviews/YYYY-MM.json, one file per month that has
 * reviews, as 2-space indented JSON with a trailing newline. Stale reviews/*.json files are removed
 * first; nothing else in the folder (aspects.json, the FAQ...) is touched. Months are generated and
 * written one at a time, so memory stays flat whatever the count.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUSINESS } from './business.ts';
import { apportion, listMonths } from './calendar.ts';
import { generateMonthReviews, type ReviewFacts } from './reviews.ts';
import { generateMonthJobs } from './jobs.ts';
import { attachDemoMedia } from './demo-media.ts';
import { DEMO_BUSINESS } from './locations.ts';

export type GenerateOptions = {
  outDir: string;
  /** Total reviews, verified and not. */
  count: number;
  seed: string;
  /** Last review date, YYYY-MM-DD. */
  end: string;
  /**
   * false: the demo as it was before its locations and Spanish reviews (issue 43 item 6), byte for byte,
   * for tests/site/search-page-html.test.ts, which compares with search pages captured before them.
   */
  locationsAndLanguages?: boolean;
};

export type GenerateSummary = { files: number; reviews: number; verified: number; first: string; last: string };

/** 12 unverified reviews in the default 492, the same share at any count. */
export const UNVERIFIED_SHARE = 12 / 492;

export const DEFAULT_OPTIONS: GenerateOptions = { outDir: 'examples/demo', count: 492, seed: 'riverbend', end: '2026-11-15' };

export function generateContent(options: GenerateOptions): GenerateSummary {
  const reviewsDir = join(options.outDir, 'reviews');
  const jobsDir = join(options.outDir, 'jobs');
  for (const dir of [reviewsDir, jobsDir]) {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (name.endsWith('.json')) rmSync(join(dir, name));
    }
  }
  const demo = options.seed === DEFAULT_OPTIONS.seed && options.count === DEFAULT_OPTIONS.count && options.end === DEFAULT_OPTIONS.end;
  // The demo's locations and Spanish reviews, like its jobs and photos, are the demo's only: benchmark
  // content stays what it was, so its figures stay comparable.
  const places = demo && options.locationsAndLanguages !== false;
  writeJson(join(options.outDir, 'business.json'), places ? DEMO_BUSINESS : BUSINESS);

  const months = listMonths(options.end);
  const weights = months.map((m) => m.weight);
  const counts = apportion(options.count, weights);
  const unverified = apportion(Math.round(options.count * UNVERIFIED_SHARE), weights);
  const idWidth = Math.max(4, String(Math.max(...counts)).length);

  const summary: GenerateSummary = { files: 0, reviews: 0, verified: 0, first: '', last: '' };
  let firstIndex = 0;
  let jobNumber = 1001;
  months.forEach((month, i) => {
    const count = counts[i]!;
    if (count === 0) return;
    const facts = new Map<string, ReviewFacts>();
    const reviews = generateMonthReviews({
      month,
      count,
      unverified: Math.min(unverified[i]!, count),
      firstIndex,
      idWidth,
      seed: options.seed,
      end: options.end,
      demo: places,
    }, facts);
    firstIndex += count;
    // The demo's jobs (benchmark content has none, so its figures stay comparable).
    if (demo) {
      const jobs = generateMonthJobs(month.key, reviews, facts, options.seed, jobNumber);
      jobNumber += jobs.length;
      writeJson(join(jobsDir, `${month.key}.json`), jobs);
    }
    writeJson(join(reviewsDir, `${month.key}.json`), demo ? attachDemoMedia(reviews) : reviews);
    summary.files++;
    summary.reviews += reviews.length;
    summary.verified += reviews.filter((r) => r.verified).length;
    summary.first ||= reviews[0]!.date;
    summary.last = reviews.at(-1)!.date;
  });
  return summary;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
