/** Builds a content folder into a fresh temporary dist with the real build pipeline. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSite } from '../../scripts/build.ts';
import type { Manifest } from '../../core/publishing/manifest.ts';

export const SMALL_CONTENT = path.resolve('tests/fixtures/content-small');
export const DEMO_CONTENT = path.resolve('examples/demo');

/**
 * `dataDir` holds the review log's key, so every build into one folder (and the service and publishes beside
 * it, as DATA_DIR) must share it: by default `data/` beside the build folder, as the service helpers use.
 */
export async function buildTestSite(options: { contentDir?: string; publicUrl?: string; outDir?: string; dataDir?: string } = {}) {
  const outDir = options.outDir ?? path.join(await mkdtemp(path.join(tmpdir(), 'reviews-build-')), 'dist');
  const result = await buildSite({
    contentDir: options.contentDir ?? SMALL_CONTENT,
    publicUrl: options.publicUrl ?? 'https://reviews.example.com',
    outDir,
    dataDir: options.dataDir ?? path.join(path.dirname(outDir), 'data'),
  });
  if (!result.ok) throw new Error(result.message);
  return { distDir: outDir, manifest: result.manifest as Manifest };
}
