/**
 * What each `update` entry says it is (issue 40 item 1): planLogAppend tells a reply from a correction and
 * an edit at the source by the digests of the review's last entry, carries the rating it replaced, asks
 * the owner's reason for a corrected rating, and never changes a review's date in an update. Every entry
 * it writes is one the log's schema accepts and the entry-history rules find nothing wrong with.
 */
import { describe, expect, it } from 'vitest';
import { checkEntryHistory } from '../../core/log/entry-history.ts';
import { decodeLogEntry, digestReview, digestReviewParts, encodeLogEntry, planLogAppend, replayJobs, replayLog, type LogEntry, type PublishedForLog, type ReviewLogEntry } from '../../core/log/index.ts';
import { demoJobKey, jobForLog } from '../../scripts/lib/job-key.ts';

const T0 = '2026-01-01T00:00:00Z';
const NOW = '2026-02-01T00:00:00Z';
const base = { id: 'r-1', rating: 2, date: '2025-03-01', text: 'Late.', title: null, author: 'Robin', source: 'google', verified: true, service_area: null, response: { text: 'Sorry.', date: '2025-03-02' } };
type Review = typeof base & Record<string, unknown>;

const forLog = (r: Review): PublishedForLog => ({ id: r.id, date: r.date, rating: r.rating, digest: digestReview(r), changed: r.date, direct: r.source === 'direct', parts: () => digestReviewParts(r) });
const publishOf = (r: Review): LogEntry => ({ action: 'publish', review_id: r.id, time: T0, date: r.date, rating: r.rating, digest: digestReview(r), ...digestReviewParts(r) });

function append(before: Review, after: Review, corrections = new Map<string, 'customer_request' | 'entry_error' | 'other'>()) {
  const first = [publishOf(before), publishOf({ ...base, id: 'r-0' })];
  const added = planLogAppend({ state: replayLog(first), published: [forLog({ ...base, id: 'r-0' }), forLog(after)], reasons: new Map(), corrections, size: first.length, now: NOW });
  for (const entry of added) expect(decodeLogEntry(encodeLogEntry(entry))).toEqual({ ok: true, value: entry });
  expect(checkEntryHistory([...first, ...added])).toEqual([]);
  return added;
}

describe('planLogAppend: what an update says', () => {
  it.each([
    ['a reply added, changed or removed', { ...base, response: null }, { change: 'reply' }],
    ['the words edited at the source', { ...base, text: 'Late, but fixed it.' }, { change: 'at_source' }],
    ['the rating changed at the source', { ...base, rating: 4 }, { change: 'at_source', previous_rating: 2 }],
    ['the rating corrected by the owner of a review collected directly', { ...base, source: 'direct', rating: 5 }, { change: 'correction', previous_rating: 2, reason: 'other' }],
  ] as const)('%s', (_name, after, said) => {
    const before = after.source === 'direct' ? { ...base, source: 'direct' } : base;
    const [update] = append(before, after as Review);
    expect(update).toEqual({ action: 'update', review_id: 'r-1', time: NOW, date: base.date, rating: after.rating, digest: digestReview(after), ...digestReviewParts(after), ...said });
  });

  it('records the reason the owner gives in corrections.json, and calls a listed review\'s change a correction', () => {
    const [update] = append(base, { ...base, rating: 5, text: 'Great!' }, new Map([['r-1', 'customer_request']]));
    expect(update).toMatchObject({ change: 'correction', previous_rating: 2, reason: 'customer_request' });
  });

  it('withdraws and publishes again a review whose date changed, rather than update its date', () => {
    const added = append(base, { ...base, date: '2024-03-01' });
    expect(added.map((e) => [e.action, (e as ReviewLogEntry).date])).toEqual([['withdraw', '2025-03-01'], ['publish', '2024-03-01']]);
  });
});

describe('a job corrected after it was logged (docs/log.md "Jobs")', () => {
  it('is logged again under its locator, its first entry kept, and the review tied to it follows with change "job"', () => {
    const key = demoJobKey('reviews.example.com/log');
    const job = { id: 'J-7', completed: '2025-01-02', service: 'water-heater', area: 'Knoxville' };
    const review = { ...base, id: 'r-7' };
    const first = planLogAppend({ state: new Map(), published: [{ ...forLog(review), job: jobForLog(key, job).locator }], reasons: new Map(), jobs: [jobForLog(key, job)], size: 0, now: NOW });
    expect(first.map((e) => e.action)).toEqual(['job', 'publish']);
    const corrected = jobForLog(key, { ...job, area: 'Alcoa' });
    const again = planLogAppend({ state: replayLog(first), published: [{ ...forLog(review), job: corrected.locator }], reasons: new Map(), jobs: [corrected], jobState: replayJobs(first), size: first.length, now: NOW });
    expect(again).toMatchObject([
      { action: 'job', locator: corrected.locator, area: 'Alcoa' },
      { action: 'update', review_id: 'r-7', change: 'job', job: 2 },
    ]);
    expect(checkEntryHistory([...first, ...again])).toEqual([]);
    // Unchanged, nothing more is logged.
    const all = [...first, ...again];
    expect(planLogAppend({ state: replayLog(all), published: [{ ...forLog(review), job: corrected.locator }], reasons: new Map(), jobs: [corrected], jobState: replayJobs(all), size: all.length, now: NOW })).toEqual([]);
  });
});
