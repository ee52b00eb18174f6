/**
 * The change log (issue 23 item 4, issue 27 item 3), replayed: random sequences of imports, edits,
 * replies, hides, unhides, removals and moves between files, the published reviews built after each step
 * as the build builds them (core/dataset/build-dataset.ts) and the review log appended by the build's own
 * log step (scripts/lib/review-log.ts), `updated` and the change log read from it. A mirror that starts
 * empty and only follows the change log, a few entries a page, ends byte-identical to the reviews of
 * `/reviews.json` after every step.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { readWithdrawnReasons } from '../../core/content/read-withdrawn.ts';
import { resolveUpdated } from '../../core/content/review-history.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { createChangeLog, createChangeLogWithoutHistory, readChangePage, type ChangeLog } from '../../core/dataset/change-log.ts';
import { createReviewJsonCache, renderReviewsDataset } from '../../core/dataset/render-json.ts';
import { encodeLogEntry } from '../../core/log/index.ts';
import { compareNewestFirst } from '../../core/order.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { prepareReviewLog } from '../../scripts/lib/review-log.ts';
import { createRandom } from '../../tools/fixtures/search/random.ts';
import { createContentRepo, createRandomHistory, type ContentReview } from './content-repo.ts';

const PUBLIC_URL = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC_URL);
/** Many steps and builds of the content on a machine shared with other work. */
const TIMEOUT = 240_000;

type Published = { reviewsJson: string; reviews: Map<string, PublishedReview>; log: ChangeLog };

/**
 * What the build publishes for the content folder now, its review log kept in `outDir/log/` between
 * calls (as the build in service keeps it): the reviews of /reviews.json as bytes, and the change log.
 */
async function publish(contentDir: string, outDir: string, time = '2026-01-01T00:00:00Z'): Promise<Published> {
  const content = await loadContent(contentDir);
  if (!content.ok) throw new Error(JSON.stringify(content.problems));
  const reasons = await readWithdrawnReasons(contentDir);
  if (!reasons.ok) throw new Error(JSON.stringify(reasons.problems));
  const dataset = buildReviewsDataset(content.value, urls);
  const step = await prepareReviewLog(dataset.reviews, reasons.value, {
    publicUrl: PUBLIC_URL,
    outDir,
    dataDir: path.join(outDir, '..', 'data'),
    demo: false,
    now: () => new Date(time),
  });
  if (!step.ok) throw new Error(step.message);
  await rm(path.join(outDir, 'log'), { recursive: true, force: true });
  await step.write(outDir);
  await step.commit();
  for (const review of dataset.reviews) review.updated = resolveUpdated(review, step.times.get(review.id));
  return {
    reviewsJson: reviewsArrayOf(renderReviewsDataset(dataset, createReviewJsonCache(dataset.reviews))),
    reviews: new Map(dataset.reviews.map((r) => [r.id, r])),
    log: createChangeLog(step.entries, step.entries.map(encodeLogEntry)),
  };
}

const reviewsArrayOf = (datasetJson: string) => JSON.stringify((JSON.parse(datasetJson) as { reviews: unknown[] }).reviews);

/** A page of what `publish` gave, after `since`. */
const pageOf = (published: Published, since: string | undefined, limit: number) => readChangePage(published.log, published.reviews, since, limit);

/** A copy kept only from the change log, `limit` entries a page, from `token` on. */
function follow(mirror: Map<string, PublishedReview>, token: string | undefined, published: Published, limit: number) {
  for (;;) {
    const page = readChangePage(published.log, published.reviews, token, limit);
    if (!page.ok) throw new Error(page.message);
    for (const change of page.changes) {
      if (change.kind === 'removed') mirror.delete(change.id);
      else mirror.set(change.id, change.review!);
    }
    token = page.next_token ?? undefined;
    if (!page.has_more) return token;
  }
}

const newOutDir = async () => path.join(await mkdtemp(path.join(tmpdir(), 'change-log-')), 'dist');

describe('a mirror fed only by the change log', () => {
  it.each([11, 23, 47])('equals /reviews.json after every step of random history %i', async (seed) => {
    const repo = await createContentRepo();
    const history = createRandomHistory(repo, createRandom(seed), seed);
    const mirror = new Map<string, PublishedReview>();
    const outDir = await newOutDir();
    let token: string | undefined;

    for (let step = 0; step < 14; step++) {
      const op = await history.step();
      const published = await publish(repo.contentDir, outDir, `2026-01-${String(step + 1).padStart(2, '0')}T00:00:00Z`);
      token = follow(mirror, token, published, 3);
      const mirrored = JSON.stringify([...mirror.values()].sort(compareNewestFirst));
      expect(mirrored, `step ${step} (${op})`).toBe(published.reviewsJson);
    }
  }, TIMEOUT);

  it('keeps every withdrawal with its reason, refuses a token it did not issue or one altered, and expires only a token from before the review log', async () => {
    const repo = await createContentRepo();
    const outDir = await newOutDir();
    const write = (reviews: ContentReview[]) => writeFile(path.join(repo.contentDir, 'reviews', '2025-01.json'), JSON.stringify(reviews));
    const a = { id: 'a', rating: 5, date: '2025-01-02', text: 'Good.', author: 'Kim', verified: true };
    const b = { ...a, id: 'b', rating: 1 };
    await write([a, b]);
    const early = pageOf(await publish(repo.contentDir, outDir, '2025-01-03T00:00:00Z'), undefined, 1);
    expect(early.ok && early.has_more).toBe(true);
    await write([a, { ...b, verified: false }]);
    await writeFile(path.join(repo.contentDir, 'withdrawn.json'), JSON.stringify({ b: 'customer_request' }));
    await publish(repo.contentDir, outDir, '2025-03-01T00:00:00Z');
    await write([a, { ...b, id: 'c' }]);
    const published = await publish(repo.contentDir, outDir, '2026-06-30T00:00:00Z');

    expect(published.log.entries.map((e) => `${e.id} ${e.kind}`)).toEqual(['a added', 'b removed', 'c added']);
    const all = readChangePage(published.log, published.reviews, undefined, 10);
    expect(all.ok && all.changes.find((c) => c.id === 'b')).toEqual({ id: 'b', time: '2025-03-01T00:00:00Z', kind: 'removed', entry: 2, reason: 'customer_request' });
    // A year later, the first token still reads on.
    const resumed = readChangePage(published.log, published.reviews, early.ok ? early.next_token! : '', 10);
    expect(resumed.ok && resumed.changes.map((c) => c.id)).toEqual(['b', 'c']);

    const token = early.ok ? early.next_token! : '';
    const [position, check] = token.split('.') as [string, string];
    for (const forged of ['not-a-token', `${Number(position) + 1}.${check}`, `${position}.${check.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))}`, `${position}.${'x'.repeat(5000)}`]) {
      const page = readChangePage(published.log, published.reviews, forged, 10);
      expect(page).toMatchObject({ ok: false, reason: 'invalid_token' });
      expect(!page.ok && page.message.length).toBeLessThan(100);
    }
    const old = Buffer.from(JSON.stringify([3, 'a', '2025-01-03T00:00:00Z', '0123456789ab'])).toString('base64url');
    expect(readChangePage(published.log, published.reviews, old, 10)).toMatchObject({ ok: false, reason: 'expired_token' });
  }, TIMEOUT);

  it('holds no entry the owner did not publish, and gives the same log whatever the folder is', async () => {
    const repo = await createContentRepo();
    const a = { id: 'a', rating: 4, date: '2025-01-02', text: 'Good.', author: 'Kim', verified: true };
    await writeFile(path.join(repo.contentDir, 'reviews', '2025-01.json'), JSON.stringify([a]));
    const first = await publish(repo.contentDir, await newOutDir());
    const page = pageOf(first, undefined, 100);
    // Added the day the log was made (the publish's, 2026-01-01), not on the review's own date.
    expect(page.ok && page.changes.map((c) => `${c.id} ${c.kind} ${c.time}`)).toEqual(['a added 2026-01-01T00:00:00Z']);
    // The same content in a folder without .git gives the same reviews and the same change log.
    await rm(path.join(repo.contentDir, '..', '.git'), { recursive: true, force: true });
    const again = await publish(repo.contentDir, await newOutDir());
    expect(again.reviewsJson).toBe(first.reviewsJson);
    expect(again.log.entries).toEqual(first.log.entries);
  }, TIMEOUT);
});

describe('the change log of a build from before the review log', () => {
  const review = (id: string, text: string) => ({ id, text, updated: '2025-01-02T00:00:00Z' }) as PublishedReview;

  it('lists every review as added', () => {
    const reviews = [review('b', 'x'), review('a', 'y')];
    const first = readChangePage(createChangeLogWithoutHistory(reviews), new Map(reviews.map((r) => [r.id, r])), undefined, 10);
    expect(first.ok && first.changes.map((c) => `${c.id} ${c.kind} ${c.time}`)).toEqual(['b added 2025-01-02T00:00:00Z', 'a added 2025-01-02T00:00:00Z']);
  });

  it('takes back the tokens it gives, so a client pages through it', () => {
    const reviews = [review('c', 'x'), review('b', 'y'), review('a', 'z')];
    const log = createChangeLogWithoutHistory(reviews);
    const byId = new Map(reviews.map((r) => [r.id, r]));
    const first = readChangePage(log, byId, undefined, 2);
    const next = first.ok ? first.next_token! : '';
    const second = readChangePage(log, byId, next, 2);
    expect(second.ok && second.changes.map((c) => c.id)).toEqual(['a']);
    expect(readChangePage(log, byId, `${next}AAAAAAAA`, 2)).toMatchObject({ ok: false, reason: 'invalid_token' });
  });
});
