/**
 * Whether a build on disk was made for this service: its manifest names the PUBLIC_URL and the DIST_DIR
 * it was made for (core/publishing/manifest.ts), and a build for another address would put that address
 * in every feed, link and log line, and a build of another folder is another site's. The one place the
 * build store asks before it swaps a build in. A build that names neither (an older version's) is taken.
 */
import { distDirKeyOf } from '../../core/publishing/build-folders-fs.ts';
import type { Manifest } from '../../core/publishing/manifest.ts';

export function checkBuildTarget(
  manifest: Pick<Manifest, 'public_url' | 'dist_dir'> | undefined,
  service: { publicUrl: string; distDir: string },
): { ok: true } | { ok: false; reason: string } {
  if (manifest?.public_url !== undefined && manifest.public_url !== service.publicUrl) {
    return { ok: false, reason: `the build was made for PUBLIC_URL ${manifest.public_url}, but this service runs with ${service.publicUrl}` };
  }
  const distDir = distDirKeyOf(service.distDir);
  if (manifest?.dist_dir !== undefined && manifest.dist_dir !== distDir) {
    return { ok: false, reason: `the build was made for DIST_DIR ${manifest.dist_dir}, but this service serves ${distDir}` };
  }
  return { ok: true };
}
