/**
 * A content folder in a real git repository, and random histories of it (issue 23's replay tests):
 * imports, edits, replies, hides, unhides, removals, moves between files and rewrites, each step one
 * commit, some with a clock that runs backwards.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Random } from '../../tools/fixtures/search/random.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

export type ContentReview = { id: string; rating: number; date: string; text: string; author: string; verified: boolean; response?: { text: string; date: string } };

const FILES = ['2025-01.json', 'imported.json'];

export type Operation = 'random' | 'import' | 'edit' | 'reply' | 'hide' | 'unhide' | 'remove' | 'move' | 'rewrite';

export async function createContentRepo() {
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
  return { root, contentDir, git };
}

export type ContentRepo = Awaited<ReturnType<typeof createContentRepo>>;

/**
 * One random history of a content folder: `step()` makes one random change, writes the files and
 * commits them (most commits an hour apart, some with a clock set back a day), and says what it did.
 */
export function createRandomHistory(repo: ContentRepo, random: Random, seed: number) {
  const files = new Map<string, ContentReview[]>(FILES.map((f) => [f, []]));
  const all = () => [...files.entries()].flatMap(([file, reviews]) => reviews.map((review) => ({ file, review })));
  let serial = 0;
  let clock = Date.parse('2025-03-01T00:00:00Z');
  let steps = 0;
  return {
    /** `op`: this change rather than a random one. */
    async step(op: Operation = 'random'): Promise<string> {
      const step = steps++;
      const existing = all();
      if (existing.length === 0) op = 'import';
      else if (op === 'random') op = random.pick(['import', 'import', 'edit', 'reply', 'hide', 'unhide', 'remove', 'move', 'rewrite']);
      if (op === 'import') {
        for (let n = random.int(1, 3); n > 0; n--) {
          const day = String(random.int(1, 28)).padStart(2, '0');
          random.pick([...files.values()]).push({ id: `r-${seed}-${serial++}`, rating: random.int(1, 5), date: `2025-02-${day}`, text: `Visit ${serial}, all fine.`, author: 'Kim', verified: true });
        }
      } else {
        // Unhide a hidden review when there is one, hide a visible one.
        const candidates = op === 'unhide' ? existing.filter((e) => !e.review.verified) : op === 'hide' ? existing.filter((e) => e.review.verified) : [];
        const { file, review } = random.pick(candidates.length > 0 ? candidates : existing);
        const list = files.get(file)!;
        if (op === 'edit') review.text = `${review.text} Edited at step ${step}.`;
        if (op === 'reply') review.response = { text: `Thanks, step ${step}.`, date: '2025-02-28' };
        if (op === 'hide') review.verified = false;
        if (op === 'unhide') review.verified = true;
        if (op === 'remove' || op === 'move') list.splice(list.indexOf(review), 1);
        if (op === 'move') files.get(FILES.find((f) => f !== file)!)!.push(review);
      }
      for (const [file, reviews] of files) await writeFile(path.join(repo.contentDir, 'reviews', file), `${JSON.stringify(reviews, null, 2)}\n`);
      clock += random.chance(0.2) ? -86_400_000 : 3_600_000;
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--allow-empty', '-m', `step ${step}: ${op}`], new Date(clock).toISOString());
      return op;
    },
  };
}
