/**
 * The change log (issue 23 item 4), replayed: random sequences of imports, edits, replies, hides,
 * unhides, removals and moves between files, each committed to a real git repository (some with a
 * clock that runs backwards), the published reviews built after each commit as the build builds them
 * (core/dataset/build-dataset.ts, `updated` from the history). A mirror that starts empty and only
 * follows the change log, a few entries a page, ends byte-identical to the reviews of `/reviews.json`
 * after every step.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { deriveReviewTimes } from '../../core/content/review-history.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { compactChangeLog, readChangePage, type ChangeLog } from '../../core/dataset/change-log.ts';
import { createReviewJsonCache, renderReviewsDataset } from '../../core/dataset/render-json.ts';
import { compareNewestFirst } from '../../core/order.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { readContentHistory } from '../../scripts/lib/content-history.ts';
import { createRandom } from '../../tools/fixtures/search/random.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

const urls = createServiceUrls('https://reviews.example.com');
const FILES = ['2025-01.json', 'imported.json'];
/** Many commits and builds of the content on a machine shared with other work. */
const TIMEOUT = 240_000;

type Review = { id: string; rating: number; date: string; text: string; author: string; verified: boolean; response?: { text: string; date: string } };

async function createRepo() {
  const root = await mkdtemp(path.join(tmpdir(), 'change-log-'));
  const contentDir = path.join(root, 'content');
  await mkdir(path.join(contentDir, 'reviews'), { recursive: true });
  await copyFile(path.join(SMALL_CONTENT, 'business.json'), path.join(contentDir, 'business.json'));
  const git = (args: string[], time?: string) =>
    execFileSync('git', args, {
      cwd: root,
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', ...(time ? { GIT_COMMITTER_DATE: time, GIT_AUTHOR_DATE: time } : {}) },
    });
  git(['init', '-q', '-b', 'main']);
  return { contentDir, git };
}

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
    log: compactChangeLog(times.changes, retentionDays),
  };
}

const reviewsArrayOf = (datasetJson: string) => JSON.stringify((JSON.parse(datasetJson) as { reviews: unknown[] }).reviews);

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
    const random = createRandom(seed);
    const repo = await createRepo();
    const files = new Map<string, Review[]>(FILES.map((f) => [f, []]));
    const all = () => [...files.entries()].flatMap(([file, reviews]) => reviews.map((review) => ({ file, review })));
    let serial = 0;
    let clock = Date.parse('2025-03-01T00:00:00Z');
    const mirror = new Map<string, PublishedReview>();
    let token: string | undefined;

    for (let step = 0; step < 14; step++) {
      const existing = all();
      const op = existing.length === 0 ? 'import' : random.pick(['import', 'import', 'edit', 'reply', 'hide', 'unhide', 'remove', 'move', 'rewrite']);
      if (op === 'import') {
        for (let n = random.int(1, 3); n > 0; n--) {
          const day = String(random.int(1, 28)).padStart(2, '0');
          random.pick([...files.values()]).push({ id: `r-${seed}-${serial++}`, rating: random.int(1, 5), date: `2025-02-${day}`, text: `Visit ${serial}, all fine.`, author: 'Kim', verified: true });
        }
      } else {
        const { file, review } = random.pick(existing);
        const list = files.get(file)!;
        if (op === 'edit') review.text = `${review.text} Edited at step ${step}.`;
        if (op === 'reply') review.response = { text: `Thanks, step ${step}.`, date: '2025-02-28' };
        if (op === 'hide') review.verified = false;
        if (op === 'unhide') review.verified = true;
        if (op === 'remove' || op === 'move') list.splice(list.indexOf(review), 1);
        if (op === 'move') files.get(FILES.find((f) => f !== file)!)!.push(review);
      }
      for (const [file, reviews] of files) await writeFile(path.join(repo.contentDir, 'reviews', file), `${JSON.stringify(reviews, null, 2)}\n`);
      // Most commits an hour apart, some with a clock set back a day.
      clock += random.chance(0.2) ? -86_400_000 : 3_600_000;
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--allow-empty', '-m', `step ${step}: ${op}`], new Date(clock).toISOString());

      const published = await publish(repo.contentDir);
      token = follow(mirror, token, published, 3);
      const mirrored = JSON.stringify([...mirror.values()].sort(compareNewestFirst));
      expect(mirrored, `step ${step} (${op})`).toBe(published.reviewsJson);
    }
  }, TIMEOUT);

  it('refuses a token it did not issue, and one older than the tombstones it keeps', async () => {
    const repo = await createRepo();
    const write = async (reviews: Review[], time: string) => {
      await writeFile(path.join(repo.contentDir, 'reviews', '2025-01.json'), JSON.stringify(reviews));
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '-m', time], time);
    };
    const a = { id: 'a', rating: 5, date: '2025-01-02', text: 'Good.', author: 'Kim', verified: true };
    const b = { ...a, id: 'b' };
    await write([a, b], '2025-01-03T00:00:00Z');
    const early = readChangePage((await publish(repo.contentDir)).log, new Map(), undefined, 1);
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
});
