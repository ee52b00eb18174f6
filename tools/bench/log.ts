/**
 * The review log's cost (issue 27, docs/log.md), on the build's own log step (scripts/lib/review-log.ts):
 * - a one-review publish at 10,000 reviews: open the last log from disk, check it, append, write the
 *   new log's files (target: under 0.5 s);
 * - the log of 100,000 reviews with 100,000 changes (100k publishes, then 100k updates and withdrawals):
 *   its static files (checkpoint, tiles, entry bundles) against /reviews.json of the same 100,000 reviews
 *   (target: no larger); beside them, the reviews' proofs (issue 40: each carries its review, so together
 *   they are about twice /reviews.json, docs/verification.md).
 */
import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContent } from '../../core/content/load-content.ts';
import { buildPublication } from '../../core/dataset/build-dataset.ts';
import { renderReviewsDataset } from '../../core/dataset/render-json.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { prepareReviewLog } from '../../scripts/lib/review-log.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';

const PUBLIC_URL = 'https://reviews.example.com';

async function publishedReviews(count: number): Promise<{ reviews: PublishedReview[]; json: number }> {
  const content = await loadContent(await ensureBenchContent(count));
  if (!content.ok) throw new Error('bench content is invalid');
  const { dataset } = buildPublication(content.value, createServiceUrls(PUBLIC_URL));
  return { reviews: dataset.reviews, json: Buffer.byteLength(renderReviewsDataset(dataset)) };
}

/**
 * One log step over `reviews`, as the build takes it: the log of the build in service (`dir`) opened and
 * continued, the new log written into a new folder; that folder then takes `dir`'s place, untimed.
 */
async function logStep(reviews: readonly PublishedReview[], dir: string, dataDir: string, time: string) {
  const started = performance.now();
  const step = await prepareReviewLog(reviews, new Map(), { publicUrl: PUBLIC_URL, outDir: dir, dataDir, demo: false, now: () => new Date(time), fetch: async () => new Response(null, { status: 404 }) });
  if (!step.ok) throw new Error(step.message);
  const staging = `${dir}.next`;
  await step.write(staging);
  await step.commit();
  const seconds = (performance.now() - started) / 1000;
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  return { seconds, size: step.entries.length };
}

/** The bytes of the files under `dir`, those under `dir/proof/` apart. */
async function sizesOf(dir: string): Promise<{ log: number; proofs: number }> {
  const total = { log: 0, proofs: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const size = (await stat(path.join(entry.parentPath, entry.name))).size;
    if (path.relative(dir, entry.parentPath).split(path.sep)[0] === 'proof') total.proofs += size;
    else total.log += size;
  }
  return total;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const work = await mkdtemp(path.join(tmpdir(), 'bench-log-'));
  try {
    const small = await publishedReviews(10_000);
    const dir = path.join(work, 'small');
    await logStep(small.reviews, dir, path.join(work, 'data'), '2026-01-01T00:00:00Z');
    const edited = small.reviews.map((r, i) => (i === 17 ? { ...r, text: `${r.text} (edited)` } : r));
    const one = await logStep(edited, dir, path.join(work, 'data'), '2026-01-02T00:00:00Z');
    rows.push({ name: 'log: one-review publish at 10k reviews (open, check, append, write)', value: one.seconds, unit: 's', target: '< 0.5', ok: one.seconds < 0.5 });

    const big = await publishedReviews(100_000);
    const bigDir = path.join(work, 'big');
    await logStep(big.reviews, bigDir, path.join(work, 'data'), '2026-01-01T00:00:00Z');
    // 100k changes: 90k edits and 10k withdrawals.
    const changed = big.reviews.filter((_, i) => i % 10 !== 0).map((r) => ({ ...r, text: `${r.text} (edited)` }));
    const last = await logStep(changed, bigDir, path.join(work, 'data'), '2026-01-02T00:00:00Z');
    const bytes = await sizesOf(path.join(bigDir, 'log'));
    rows.push({ name: `log: entries after 100k reviews and 100k changes`, value: last.size, unit: 'entries' });
    rows.push({ name: 'log: static files of that log / reviews.json of 100k reviews', value: bytes.log / big.json, unit: '×', target: '<= 1', ok: bytes.log <= big.json });
    rows.push({ name: 'log: static files of that log', value: bytes.log / 2 ** 20, unit: 'MB' });
    rows.push({ name: 'log: the 90,000 served reviews\' proofs', value: bytes.proofs / 2 ** 20, unit: 'MB' });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) console.table(await run());
