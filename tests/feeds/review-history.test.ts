/**
 * Every review knows when it changed (issue 23 item 3): `updated` is derived from the git history of
 * the content folder (scripts/lib/content-history.ts read by core/content/review-history.ts), in a real
 * repository with commits at chosen times. The same history gives the same times in another clone; an
 * edit that changes nothing published changes no time; times never run backwards; outside git there is
 * no history and a review is dated by its own date or its reply's.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveReviewTimes, resolveUpdated, type ReviewTimes } from '../../core/content/review-history.ts';
import { readContentHistory } from '../../scripts/lib/content-history.ts';

type Review = { id: string; rating: number; date: string; text: string; author: string; verified: boolean; response?: { text: string; date: string } };

const review = (id: string, text: string, extra: Partial<Review> = {}): Review => ({ id, rating: 5, date: '2025-01-10', text, author: 'Ann', verified: true, ...extra });

async function createRepo() {
  const root = await mkdtemp(path.join(tmpdir(), 'review-history-'));
  const contentDir = path.join(root, 'content');
  await mkdir(path.join(contentDir, 'reviews'), { recursive: true });
  const git = (args: string[], time?: string) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', ...(time ? { GIT_COMMITTER_DATE: time, GIT_AUTHOR_DATE: time } : {}) },
    });
  git(['init', '-q', '-b', 'main']);
  const files = new Map<string, Review[]>();
  return {
    root,
    contentDir,
    git,
    /** Writes the files (JSON as `npm run generate` writes it), then commits them all at `time`. */
    async commit(time: string, change: Record<string, Review[] | null>, format = (reviews: Review[]) => `${JSON.stringify(reviews, null, 2)}\n`) {
      for (const [name, reviews] of Object.entries(change)) {
        const file = path.join(contentDir, 'reviews', name);
        if (reviews === null) {
          await rm(file);
          files.delete(name);
        } else {
          await writeFile(file, format(reviews));
          files.set(name, reviews);
        }
      }
      git(['add', '-A']);
      git(['commit', '-q', '--allow-empty', '-m', `at ${time}`], time);
    },
    current: () => [...files.values()].flat(),
  };
}

async function timesOf(contentDir: string, current: Review[]): Promise<ReviewTimes> {
  const history = await readContentHistory(contentDir, current);
  expect(history).toBeDefined();
  return deriveReviewTimes(history!);
}

describe('updated, from the content folder\'s git history', () => {
  it('dates each review by the commit that last changed it; removals and hides are changes with a time', async () => {
    const repo = await createRepo();
    await repo.commit('2025-02-01T10:00:00Z', { '2025-01.json': [review('a', 'Great.'), review('b', 'Fine.')] });
    await repo.commit('2025-02-02T10:00:00Z', { '2025-01.json': [review('a', 'Great.'), review('b', 'Fine, in the end.')] });
    // Reformatted, keys reordered: nothing published changed.
    await repo.commit('2025-02-03T10:00:00Z', { '2025-01.json': [review('a', 'Great.'), review('b', 'Fine, in the end.')] }, (reviews) =>
      JSON.stringify(reviews.map((r) => Object.fromEntries(Object.entries(r).reverse()))),
    );
    // b moves to another file unchanged; c is added there; a gets a reply.
    await repo.commit('2025-02-04T10:00:00Z', {
      '2025-01.json': [review('a', 'Great.', { response: { text: 'Thanks!', date: '2025-02-04' } })],
      'imported.json': [review('b', 'Fine, in the end.'), review('c', 'Late.', { rating: 2 })],
    });
    // Committed with a clock that runs backwards: the times do not.
    await repo.commit('2025-01-01T00:00:00Z', { 'imported.json': [review('b', 'Fine, in the end.'), review('c', 'Late.', { rating: 2, verified: false })] });
    await repo.commit('2025-02-06T10:00:00Z', { 'imported.json': null, '2025-01.json': [review('a', 'Great.', { response: { text: 'Thanks!', date: '2025-02-04' } }), review('b', 'Fine, in the end.')] });

    const times = await timesOf(repo.contentDir, repo.current());
    expect(Object.fromEntries(times.updated)).toEqual({ a: '2025-02-04T10:00:00Z', b: '2025-02-02T10:00:00Z' });
    expect(times.changes).toEqual([
      { id: 'a', time: '2025-02-01T10:00:00Z', kind: 'added', version: 0 },
      { id: 'b', time: '2025-02-01T10:00:00Z', kind: 'added', version: 0 },
      { id: 'b', time: '2025-02-02T10:00:00Z', kind: 'changed', version: 1 },
      { id: 'a', time: '2025-02-04T10:00:00Z', kind: 'changed', version: 3 },
      { id: 'c', time: '2025-02-04T10:00:00Z', kind: 'added', version: 3 },
      { id: 'c', time: '2025-02-04T10:00:00Z', kind: 'removed', version: 4 },
    ]);

    // Another clone of the same history: the same times.
    const clone = await mkdtemp(path.join(tmpdir(), 'review-history-clone-'));
    execFileSync('git', ['clone', '-q', repo.root, clone]);
    expect(await timesOf(path.join(clone, 'content'), repo.current())).toEqual(times);
  });

  it('dates an uncommitted edit by HEAD, and an unedited working tree changes nothing', async () => {
    const repo = await createRepo();
    await repo.commit('2025-03-01T08:00:00Z', { 'r.json': [review('a', 'Good.'), review('b', 'Good too.')] });
    await repo.commit('2025-03-02T08:00:00+02:00', { 'other.json': [] });
    const clean = await timesOf(repo.contentDir, repo.current());
    expect(Object.fromEntries(clean.updated)).toEqual({ a: '2025-03-01T08:00:00Z', b: '2025-03-01T08:00:00Z' });
    const edited = await timesOf(repo.contentDir, [review('a', 'Good, edited.'), review('b', 'Good too.')]);
    expect(Object.fromEntries(edited.updated)).toEqual({ a: '2025-03-02T06:00:00Z', b: '2025-03-01T08:00:00Z' });
  });

  it('has no history outside git, where a review is dated by its own date or its later reply', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'no-git-'));
    await mkdir(path.join(dir, 'reviews'));
    expect(await readContentHistory(dir, [review('a', 'x')])).toBeUndefined();
    expect(resolveUpdated(review('a', 'x'), undefined)).toBe('2025-01-10T00:00:00Z');
    expect(resolveUpdated(review('a', 'x', { response: { text: 'y', date: '2025-01-12' } }), undefined)).toBe('2025-01-12T00:00:00Z');
    // A commit older than the review's own date does not date it before itself.
    expect(resolveUpdated(review('a', 'x'), '2024-12-01T00:00:00Z')).toBe('2025-01-10T00:00:00Z');
    expect(resolveUpdated(review('a', 'x'), '2025-02-01T09:00:00Z')).toBe('2025-02-01T09:00:00Z');
  });

  it('gives the same history from its cache, reading only new commits, and replays everything after a rewrite', async () => {
    const repo = await createRepo();
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'history-cache-'));
    const both = async () => {
      const cached = await readContentHistory(repo.contentDir, repo.current(), { cacheDir });
      expect(cached).toEqual(await readContentHistory(repo.contentDir, repo.current()));
      return cached!;
    };
    await repo.commit('2025-02-01T10:00:00Z', { 'a.json': [review('a', 'Great.'), review('b', 'Fine.')] });
    expect(await both()).toHaveLength(2);
    await repo.commit('2025-02-02T10:00:00Z', { 'a.json': [review('a', 'Great.'), review('b', 'Fine, then not.', { verified: false })] });
    await repo.commit('2025-02-03T10:00:00Z', { 'b.json': [review('c', 'New.')] });
    const [cacheFile] = await readdir(cacheDir);
    const stored = JSON.parse(await readFile(path.join(cacheDir, cacheFile!), 'utf8')) as { head: string };
    expect(stored.head).toBe(repo.git(['rev-parse', 'HEAD~2']).trim());
    expect(await both()).toHaveLength(4);
    // A rewritten history (the cached head is gone from the branch): replayed from the start.
    repo.git(['reset', '-q', '--hard', 'HEAD~2']);
    await repo.commit('2025-02-04T10:00:00Z', { 'a.json': [review('a', 'Great!'), review('b', 'Fine.')] });
    expect((await both()).map((v) => v.time)).toEqual(['2025-02-01T10:00:00+00:00', '2025-02-04T10:00:00+00:00', '2025-02-04T10:00:00+00:00']);
  });
});
