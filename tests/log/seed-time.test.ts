/**
 * A new log's first entries, its seed (docs/log.md "Entries"): a business that already has reviews and
 * jobs logs them all the day it makes the log, and its entries say that day, not the dates of the reviews
 * and jobs. So no entry says it was logged before the log existed, and a job seeded with its review is not
 * "logged before" it. Only the demo's seed is dated by its content: a made-up history under its banner.
 */
import { describe, expect, it } from 'vitest';
import { digestReview, digestReviewParts, planLogAppend, type PublishedForLog } from '../../core/log/index.ts';
import { readJobTies } from '../../core/log/job-summary.ts';
import { demoJobKey, jobForLog } from '../../scripts/lib/job-key.ts';

const NOW = '2026-12-01T09:30:15Z';
const review = { id: 'r-1', rating: 5, date: '2025-03-10', text: 'On time.', title: null, author: 'Robin', source: 'direct', verified: true, service_area: null, response: null };
const key = demoJobKey('reviews.example.com/log');
const job = jobForLog(key, { id: 'J-1', completed: '2025-03-04', service: 'water-heater' });
const published: PublishedForLog[] = [{ id: review.id, date: review.date, rating: review.rating, digest: digestReview(review), changed: review.date, direct: true, parts: () => digestReviewParts(review), job: job.locator }];
const seed = (datedSeed?: boolean) => planLogAppend({ state: new Map(), published, reasons: new Map(), jobs: [job], size: 0, now: NOW, ...(datedSeed === undefined ? {} : { datedSeed }) });

describe("a new log's seed", () => {
  it('carries the day the log was made, at midnight UTC, in every entry', () => {
    expect(seed().map((e) => [e.action, e.time])).toEqual([
      ['job', '2026-12-01T00:00:00Z'],
      ['publish', '2026-12-01T00:00:00Z'],
    ]);
  });

  it('does not count a job seeded with its review as logged before it', () => {
    expect(readJobTies(seed()).get('r-1')).toMatchObject({ entry: 0, logged_before_review: false });
  });

  it("is dated by the content only for the demo's made-up history", () => {
    const entries = seed(true);
    expect(entries.map((e) => e.time)).toEqual(['2025-03-04T00:00:00Z', '2025-03-10T00:00:00Z']);
    expect(readJobTies(entries).get('r-1')).toMatchObject({ logged_before_review: true });
  });
});
