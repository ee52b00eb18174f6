/**
 * The change log (issue 23 item 4), replayed: random sequences of imports, edits, replies, hides,
 * unhides, removals and moves between files, each committed to a real git repository (some with a
 * clock that runs backwards), the published reviews built after each commit as the build builds them
 * (core/dataset/build-dataset.ts, `updated` from the history). A mirror that starts empty and only
 * follows the change log, a few entries a page, ends byte-identical to the reviews of `/reviews.json`
 * after every step.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { deriveReviewTimes } from '../../core/content/review-history.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { compactChangeLog, createChangeLogWithoutHistory, readChangePage, type ChangeLog } from '../../core/dataset/change-log.ts';
import { createReviewJsonCache, renderReviewsDataset } from '../../core/dataset/render-json.ts';
import { compareNewestFirst } from '../../core/order.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { readContentHistory } from '../../scripts/lib/content-history.ts';
import { createRandom } from '../../tools/fixtures/search/random.ts';
import { createContentRepo, createRandomHistory, type ContentReview } from './content-repo.ts';

const urls = createServiceUrls('https://reviews.example.com');
/** Many commits and builds of the content on a machine shared with other work. */
const TIMEOUT = 240_000;

/** What the build publishes for the content folder now: the reviews of /reviews.json as bytes, and the change log. */
async function publish(contentDir: string, retentionDays?: number): Promise<{ reviewsJson: string; reviews: Map<string, PublishedReview>; log: ChangeLog }> {
  const content = await loadContent(contentDir);
  if (!content.ok) throw new Error(JSON.stringify(content.problems));
  const history = await readContentHistory(contentDir, content.value.reviews);
  const times = deriveReviewTimes(history!);
  const dataset = buildReviewsDataset(content.value, urls, times.updated);
  return {
    reviewsJson: reviewsArrayOf(renderReviewsDataset(dataset, createReviewJsonCache(dataset.reviews))),
    reviews: new Map(dataset.reviews.map((r) => [r.id, r])),
    log: compactChangeLog(times.changes, history!.map((v) => v.key), retentionDays),
  };
}

const reviewsArrayOf = (datasetJson: string) => JSON.stringify((JSON.parse(datasetJson) as { reviews: unknown[] }).reviews);

/** A page of what `publish` gave, after `since`. */
const pageOf = (published: Awaited<ReturnType<typeof publish>>, since: string | undefined, limit: number) => readChangePage(published.log, published.reviews, since, limit);

/** A copy kept only from the change log, `limit` entries a page, from `token` on. */
function follow(mirror: Map<string, PublishedReview>, token: string | undefined, published: Awaited<ReturnType<typeof publish>>, limit: number) {
  for (;;) {
    const page = readChangePage(published.log, published.reviews, token, limit);
    if (!page.ok) throw new Error(page.message);
    for (const change of page.changes) {
      if (change.kind === 'removed') mirror.delete(change.id);
      else mirror.set(change.id, change.review);
    }
    token = page.next_token ?? undefined;
    if (!page.has_more) return token;
  }
}

describe('a mirror fed only by the change log', () => {
  it.each([11, 23, 47])('equals /reviews.json after every step of random history %i', async (seed) => {
    const repo = await createContentRepo();
    const history = createRandomHistory(repo, createRandom(seed), seed);
    const mirror = new Map<string, PublishedReview>();
    let token: string | undefined;

    for (let step = 0; step < 14; step++) {
      const op = await history.step();
      const published = await publish(repo.contentDir);
      token = follow(mirror, token, published, 3);
      const mirrored = JSON.stringify([...mirror.values()].sort(compareNewestFirst));
      expect(mirrored, `step ${step} (${op})`).toBe(published.reviewsJson);
    }
  }, TIMEOUT);

  it('refuses a token it did not issue, and one older than the tombstones it keeps', async () => {
    const repo = await createContentRepo();
    const write = async (reviews: ContentReview[], time: string) => {
      await writeFile(path.join(repo.contentDir, 'reviews', '2025-01.json'), JSON.stringify(reviews));
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '-m', time], time);
    };
    const a = { id: 'a', rating: 5, date: '2025-01-02', text: 'Good.', author: 'Kim', verified: true };
    const b = { ...a, id: 'b' };
    await write([a, b], '2025-01-03T00:00:00Z');
    const early = pageOf(await publish(repo.contentDir), undefined, 1);
    expect(early.ok && early.has_more).toBe(true);
    await write([a], '2025-03-01T00:00:00Z');
    await write([a, { ...b, id: 'c' }], '2025-06-30T00:00:00Z');

    const published = await publish(repo.contentDir);
    expect(published.log.expiredBefore).toBe('2025-04-01T00:00:00Z');
    expect(published.log.entries.map((e) => `${e.id} ${e.kind}`)).toEqual(['a added', 'c added']);
    const expired = readChangePage(published.log, published.reviews, early.ok ? early.next_token! : '', 10);
    expect(expired).toMatchObject({ ok: false, reason: 'expired_token' });
    expect(!expired.ok && expired.message).toContain('/reviews.json');
    expect(readChangePage(published.log, published.reviews, 'not-a-token', 10)).toMatchObject({ ok: false, reason: 'invalid_token' });
    // Within the 90 days, the removal is a tombstone: id and time, nothing else.
    const kept = await publish(repo.contentDir, 365);
    const all = readChangePage(kept.log, kept.reviews, undefined, 10);
    expect(all.ok && all.changes.find((c) => c.id === 'b')).toEqual({ id: 'b', time: '2025-03-01T00:00:00Z', kind: 'removed' });
  }, TIMEOUT);

  it('refuses a token from a rewritten history, and one for uncommitted changes once they are committed', async () => {
    const repo = await createContentRepo();
    const file = path.join(repo.contentDir, 'reviews', '2025-01.json');
    const a = { id: 'a', rating: 5, date: '2025-01-02', text: 'Good.', author: 'Kim', verified: true };
    await writeFile(file, JSON.stringify([a]));
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'a'], '2025-01-03T00:00:00Z');
    const tokenOf = async () => {
      const page = pageOf(await publish(repo.contentDir), undefined, 10);
      return page.ok ? page.next_token! : '';
    };
    const committed = await tokenOf();
    expect(pageOf(await publish(repo.contentDir), committed, 10)).toMatchObject({ ok: true, changes: [] });
    repo.git(['commit', '-q', '--amend', '-m', 'a, reworded'], '2025-01-03T00:00:00Z');
    expect(pageOf(await publish(repo.contentDir), committed, 10)).toMatchObject({ ok: false, reason: 'expired_token' });

    await writeFile(file, JSON.stringify([{ ...a, text: 'Very good.' }]));
    const uncommitted = await tokenOf();
    repo.git(['commit', '-q', '-am', 'edit'], '2025-01-04T00:00:00Z');
    expect(pageOf(await publish(repo.contentDir), uncommitted, 10)).toMatchObject({ ok: false, reason: 'expired_token' });
  }, TIMEOUT);
});

describe('the change log of content outside git', () => {
  const review = (id: string, text: string) => ({ id, text, updated: '2025-01-02T00:00:00Z' }) as PublishedReview;

  it('lists every review as added, and expires every token when anything changes', () => {
    const reviews = [review('b', 'x'), review('a', 'y')];
    const first = readChangePage(createChangeLogWithoutHistory(reviews), new Map(reviews.map((r) => [r.id, r])), undefined, 10);
    expect(first.ok && first.changes.map((c) => `${c.id} ${c.kind} ${c.time}`)).toEqual(['a added 2025-01-02T00:00:00Z', 'b added 2025-01-02T00:00:00Z']);
    const token = first.ok ? first.next_token! : '';
    expect(readChangePage(createChangeLogWithoutHistory([review('b', 'x'), review('a', 'y')]), new Map(), token, 10)).toMatchObject({ ok: true, changes: [], next_token: token });
    expect(readChangePage(createChangeLogWithoutHistory([review('a', 'y')]), new Map(), token, 10)).toMatchObject({ ok: false, reason: 'expired_token' });
  });
});
