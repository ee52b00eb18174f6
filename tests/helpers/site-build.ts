/** Builds a content folder into a fresh temporary dist with the real build pipeline. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSite } from '../../scripts/build.ts';
import type { Manifest } from '../../core/publishing/manifest.ts';

export const SMALL_CONTENT = path.resolve('tests/fixtures/content-small');
export const DEMO_CONTENT = path.resolve('examples/demo');

/** `dataDir` holds the review log's key: give the one the service and later publishes use (DATA_DIR). */
export async function buildTestSite(options: { contentDir?: string; publicUrl?: string; outDir?: string; dataDir?: string } = {}) {
  const outDir = options.outDir ?? path.join(await mkdtemp(path.join(tmpdir(), 'reviews-build-')), 'dist');
  const result = await buildSite({
    contentDir: options.contentDir ?? SMALL_CONTENT,
    publicUrl: options.publicUrl ?? 'https://reviews.example.com',
    outDir,
    dataDir: options.dataDir,
  });
  if (!result.ok) throw new Error(result.message);
  return { distDir: outDir, manifest: result.manifest as Manifest };
}
