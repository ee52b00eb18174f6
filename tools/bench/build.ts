/** Build time and peak memory of the static build at 1k, 10k and 100k reviews (target: 100k < 60 s, < 2 GB). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSite } from '../../scripts/build.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const count of [1_000, 10_000, 100_000]) {
    const contentDir = await ensureBenchContent(count);
    const work = await mkdtemp(path.join(tmpdir(), 'bench-build-'));
    const result = await buildSite({ contentDir, publicUrl: 'https://reviews.example.com', outDir: path.join(work, 'dist') });
    if (!result.ok) throw new Error(result.message);
    const label = `${count / 1000}k reviews`;
    const seconds = result.ms / 1000;
    const mb = result.maxRssBytes / 2 ** 20;
    const big = count === 100_000;
    rows.push({ name: `build ${label}: wall time`, value: seconds, unit: 's', ...(big ? { target: '< 60', ok: seconds < 60 } : {}) });
    rows.push({ name: `build ${label}: peak memory (astro process)`, value: mb, unit: 'MB', ...(big ? { target: '< 2048', ok: mb < 2048 } : {}) });
    // The content is loaded and analysed in this process before the Astro child starts, and the output
    // precompressed after it ends. maxRSS only grows, so it is the peak of every build so far: the
    // largest one dominates.
    const parentMb = (process.resourceUsage().maxRSS * 1024) / 2 ** 20;
    rows.push({ name: `build ${label}: peak memory (build process: loading, analysis, precompression)`, value: parentMb, unit: 'MB', ...(big ? { target: '< 2048', ok: parentMb < 2048 } : {}) });
    const files = Object.values(result.manifest.files);
    const reviewsBytes = result.manifest.files['/reviews.json']!.size;
    const sinceBytes = Object.entries(result.manifest.files).filter(([p]) => p.startsWith('/api/reviews/since/')).reduce((s, [, f]) => s + f.size, 0);
    rows.push({ name: `build ${label}: since snapshots / reviews.json bytes`, value: sinceBytes / reviewsBytes, unit: '×', target: '<= 2', ok: sinceBytes <= 2 * reviewsBytes });
    rows.push({ name: `build ${label}: files`, value: files.length, unit: 'files' });
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) console.table(await run());
