/**
 * Holds the build being served and swaps in a newer one when `refresh` finds that the build folder
 * changed (after `npm run publish`, or a hub publish ping). Loading happens off to the side; the
 * swap is one assignment, so every request sees exactly one build.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE } from '../../core/publishing/manifest.ts';
import type { Logger } from '../logger.ts';
import { recoverBuild } from '../../core/publishing/build-folders-fs.ts';
import { loadBuild, readBuildId, type LoadedBuild } from './load-build.ts';

export type BuildStore = {
  current(): LoadedBuild;
  /** Loads the build on disk if it differs from the one served; true when it swapped. */
  refresh(): Promise<boolean>;
};

/**
 * A cheap signature of the manifest file: a swapped-in build is a new file (new inode), so an
 * unchanged signature means an unchanged build and costs one stat, however many pings arrive.
 */
async function manifestSignature(distDir: string): Promise<string | undefined> {
  try {
    const s = await stat(path.join(distDir, MANIFEST_FILE));
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

export async function createBuildStore(options: { distDir: string; publicUrl: string; log?: Logger }): Promise<BuildStore> {
  const recovered = await recoverBuild(options.distDir);
  if (recovered) options.log?.warn('build_recovered', { build: recovered, dist_dir: options.distDir });
  let signature = await manifestSignature(options.distDir);
  let current = await loadBuild(options.distDir, options.publicUrl);
  let inFlight: Promise<boolean> | undefined;

  async function check(): Promise<boolean> {
    const seen = await manifestSignature(options.distDir);
    if (seen === undefined || seen === signature) return false;
    const id = await readBuildId(options.distDir);
    if (id === undefined) return false;
    if (id === current.id) {
      signature = seen;
      return false;
    }
    try {
      const next = await loadBuild(options.distDir, options.publicUrl);
      const previous = current.id;
      current = next;
      signature = seen;
      options.log?.info('build_swapped', { from: previous, to: next.id });
      return true;
    } catch (error) {
      // A build being swapped in may be briefly absent or incomplete: keep serving the current one.
      options.log?.warn('build_reload_failed', { error: (error as Error).message });
      return false;
    }
  }

  return {
    current: () => current,
    refresh() {
      inFlight ??= check().finally(() => (inFlight = undefined));
      return inFlight;
    },
  };
}
