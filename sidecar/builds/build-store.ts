/**
 * Holds the build being served and swaps in a newer one when `refresh` finds that the build on disk
 * changed. Three things call `refresh`: a publish ping (through the hub's topic source), a file watch
 * on the folder that holds the `dist` link, and a cheap check every `BUILD_CHECK_INTERVAL_MS` in case
 * the watch misses an event (network file systems, a link swapped by another machine). So a build
 * swapped in is served within that interval even when nobody pings, and every instance that shares
 * the build folder serves it.
 *
 * Loading happens off to the side, from the build's own real folder (load-build.ts); the swap is one
 * assignment, so every request sees exactly one build. A build that cannot be loaded is remembered as
 * the failure `/readyz` names until another build replaces it on disk; it is not retried meanwhile.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { readManifest, recoverBuild } from '../../core/publishing/build-folders-fs.ts';
import { MANIFEST_FILE } from '../../core/publishing/manifest.ts';
import type { ServiceUrls } from '../../core/urls.ts';
import type { Logger } from '../logger.ts';
import { BuildRefusedError, loadBuild, type LoadedBuild } from './load-build.ts';

/** A build on disk that could not be loaded: its folder, its id when its manifest says it, and why. */
export type BuildFailure = { dir: string; id: string | undefined; message: string };

export type BuildStore = {
  current(): LoadedBuild;
  /** The build on disk that could not be loaded, while it is still the one on disk. */
  failure(): BuildFailure | undefined;
  /** Loads the build on disk if it differs from the one served; true when it swapped. */
  refresh(): Promise<boolean>;
  /**
   * Checks the disk every `intervalMs` and on file events, and calls `onSwap` after every swap (the
   * hub records the new build's topics there). Stopped by `close()`.
   */
  watch(options: { intervalMs: number; onSwap: (build: LoadedBuild) => void }): void;
  close(): void;
};

/**
 * What is on disk, cheaply: the real folder `dist` points to, and its manifest file's identity. A
 * swapped-in build is a new folder, so an unchanged signature means an unchanged build.
 */
async function readSignature(distDir: string): Promise<{ dir: string; key: string } | undefined> {
  try {
    const dir = await realpath(distDir);
    const s = await stat(path.join(dir, MANIFEST_FILE));
    return { dir, key: `${dir}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}` };
  } catch {
    return undefined;
  }
}

/** The build at DIST_DIR could not be served at start; the message says what is wrong and what to run. */
export class BuildUnloadableError extends Error {}

export async function createBuildStore(options: { distDir: string; urls: ServiceUrls; log?: Logger }): Promise<BuildStore> {
  const { distDir, urls, log } = options;
  const recovered = await recoverBuild(distDir);
  if (recovered) log?.warn('build_recovered', { build: recovered, dist_dir: distDir });
  let signature = (await readSignature(distDir))?.key;
  let current = await loadBuild(distDir, urls).catch((error: unknown) => {
    throw new BuildUnloadableError(describeUnloadable(distDir, error));
  });
  let failure: (BuildFailure & { key: string }) | undefined;
  let inFlight: Promise<boolean> | undefined;
  let onSwap: ((build: LoadedBuild) => void) | undefined;
  const stops: (() => void)[] = [];

  async function check(): Promise<boolean> {
    const seen = await readSignature(distDir);
    // Nothing there (a link being replaced, a folder deleted by hand): keep serving, look again later.
    if (seen === undefined || seen.key === signature || seen.key === failure?.key) return false;
    if (seen.dir === current.dir) {
      signature = seen.key;
      failure = undefined;
      return false;
    }
    let next: LoadedBuild;
    try {
      // The loading thread refuses a build made for another address or folder (build-target.ts).
      next = await loadBuild(seen.dir, urls, current, { distDir });
    } catch (error) {
      if (error instanceof BuildRefusedError) {
        failure = { dir: seen.dir, id: error.buildId, message: error.message, key: seen.key };
        log?.error('build_refused', { dir: seen.dir, build: error.buildId, why: error.reason, serving: current.id });
        return false;
      }
      const id = (await readManifest(seen.dir))?.build_id;
      failure = { dir: seen.dir, id, message: (error as Error).message, key: seen.key };
      log?.error('build_reload_failed', { dir: seen.dir, build: failure.id, error: failure.message, serving: current.id });
      return false;
    }
    const previous = current.id;
    current = next;
    signature = seen.key;
    failure = undefined;
    log?.info('build_swapped', { from: previous, to: next.id });
    onSwap?.(next);
    return true;
  }

  const refresh = () => {
    inFlight ??= check().finally(() => (inFlight = undefined));
    return inFlight;
  };

  return {
    current: () => current,
    failure: () => failure && { dir: failure.dir, id: failure.id, message: failure.message },
    refresh,
    watch(watchOptions) {
      onSwap = watchOptions.onSwap;
      const timer = setInterval(() => void refresh(), watchOptions.intervalMs);
      timer.unref();
      stops.push(() => clearInterval(timer));
      // The link is replaced by a rename in the folder that holds it: an event there is the sooner signal.
      let watcher: FSWatcher | undefined;
      try {
        // Only events that name the link (or name nothing): the folder may hold files written all the time,
        // such as a log, and each check reads the disk.
        const link = path.basename(path.resolve(distDir));
        watcher = watch(path.dirname(path.resolve(distDir)), { persistent: false }, (_event, name) => {
          if (name === null || name === link) void refresh();
        });
        watcher.on('error', () => watcher?.close());
      } catch {
        // No file watch here (some network file systems): the timer alone notices new builds.
      }
      stops.push(() => watcher?.close());
    },
    close() {
      for (const stop of stops.splice(0)) stop();
      onSwap = undefined;
    },
  };
}

/** One line for the person starting the service: what is wrong with the build at `distDir`, and what to run. */
function describeUnloadable(distDir: string, error: unknown): string {
  const fix = 'Run npm run build (npm start builds when needed), then start again.';
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (error as NodeJS.ErrnoException).path === distDir) {
    return `No build at ${path.resolve(distDir)} (DIST_DIR). ${fix}`;
  }
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return `The build at ${path.resolve(distDir)} (DIST_DIR) cannot be served: ${reason}. ${fix}`;
}
