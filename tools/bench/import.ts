/**
 * `npm run bench -- import`: 100,000 Google reviews (a Takeout-shaped export made from the generated
 * 100k bench content) imported into a content folder with no reviews, then the same export again
 * (nothing may change), then a newer export with 1% of the reviews edited. Each run is the import
 * CLI's own code in a child process (import-child.ts); the wall time includes starting Node, and the
 * CPU time (user + system) shows the work apart from waiting for a core on a busy machine.
 * Targets (issue 13): each run < 10 s, peak memory < 1 GB.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReviewContent } from '../../core/schemas/content.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COUNT = 100_000;
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];

export async function run(): Promise<BenchRow[]> {
  const source = await ensureBenchContent(COUNT);
  const work = await mkdtemp(path.join(tmpdir(), 'bench-import-'));
  try {
    const reviews = await readGeneratedReviews(source);
    const takeout = path.join(work, 'takeout.json');
    const later = path.join(work, 'takeout-later.json');
    await writeFile(takeout, JSON.stringify({ reviews: reviews.map((r) => toGoogleReview(r, false)) }));
    await writeFile(later, JSON.stringify({ reviews: reviews.map((r, i) => toGoogleReview(r, i % 100 === 0)) }));
    const contentDir = path.join(work, 'content');
    await mkdir(contentDir);
    await copyFile(path.join(source, 'business.json'), path.join(contentDir, 'business.json'));

    const rows: BenchRow[] = [];
    const runs = [
      { label: 'first import into an empty folder', file: takeout, expect: `${COUNT} added, 0 updated, 0 unchanged` },
      { label: 'same export again', file: takeout, expect: `0 added, 0 updated, ${COUNT} unchanged` },
      { label: 'newer export, 1% edited', file: later, expect: `0 added, ${COUNT / 100} updated, ${COUNT - COUNT / 100} unchanged` },
    ];
    for (const { label, file, expect } of runs) {
      const result = await runChild(contentDir, file);
      if (!result.summary.includes(expect)) throw new Error(`import bench, ${label}: expected "${expect}", got "${result.summary}"`);
      const seconds = result.ms / 1000;
      const mb = result.maxRssBytes / 2 ** 20;
      const timed = label !== 'newer export, 1% edited';
      rows.push({ name: `import 100k Google reviews, ${label}: wall time`, value: seconds, unit: 's', ...(timed ? { target: '< 10', ok: seconds < 10 } : {}) });
      rows.push({ name: `import 100k Google reviews, ${label}: CPU time`, value: result.cpuMs / 1000, unit: 's' });
      rows.push({ name: `import 100k Google reviews, ${label}: peak memory`, value: mb, unit: 'MB', ...(timed ? { target: '< 1024', ok: mb < 1024 } : {}) });
    }
    return rows;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function readGeneratedReviews(dir: string): Promise<ReviewContent[]> {
  const reviews: ReviewContent[] = [];
  for (const name of (await readdir(path.join(dir, 'reviews'))).sort()) {
    reviews.push(...(JSON.parse(await readFile(path.join(dir, 'reviews', name), 'utf8')) as ReviewContent[]));
  }
  if (reviews.length < COUNT) throw new Error(`bench content has ${reviews.length} reviews, expected ${COUNT}`);
  return reviews.slice(0, COUNT);
}

/** A Review object as the Business Profile API and Takeout write it. */
function toGoogleReview(review: ReviewContent, edited: boolean) {
  const reviewId = `AbFvOq${Buffer.from(review.id).toString('base64url')}`;
  return {
    name: `accounts/108234567890123456789/locations/4512345678901234567/reviews/${reviewId}`,
    reviewId,
    reviewer: { profilePhotoUrl: 'https://lh3.googleusercontent.com/a-/ALV-UjXk3p9QfZ1', displayName: review.author },
    starRating: STARS[review.rating - 1],
    comment: edited ? `${review.text} Update: still working fine a month later.` : review.text,
    createTime: `${review.date}T15:04:05.123456Z`,
    updateTime: `${review.date}T${edited ? '18' : '15'}:04:05.123456Z`,
    ...(review.response && { reviewReply: { comment: review.response.text, updateTime: `${review.response.date}T16:00:00Z` } }),
  };
}

function runChild(contentDir: string, file: string): Promise<{ ms: number; cpuMs: number; maxRssBytes: number; summary: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/bench/import-child.ts'), 'google', file], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_DIR: contentDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`import child exited ${code}: ${stdout}`));
      const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as { maxRssBytes: number; cpuMs: number; summary: string };
      resolve({ ms, ...report });
    }),
  );
}

if (import.meta.main) console.table(await run());
