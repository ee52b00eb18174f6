/**
 * Holds the build being served and swaps in a newer one when `refresh` finds that the build folder
 * changed (after `npm run publish`, or a hub publish ping). Loading happens off to the side; the
 * swap is one assignment, so every request sees exactly one build.
 */
import { loadBuild, readBuildId, type LoadedBuild } from './load-build.ts';

export type BuildStore = {
  current(): LoadedBuild;
  /** Loads the build on disk if it differs from the one served; true when it swapped. */
  refresh(): Promise<boolean>;
};

export type BuildStoreLog = (event: string, fields: Record<string, unknown>) => void;

/** At most one disk check per interval, however many publish pings arrive. */
const CHECK_INTERVAL_MS = 500;

export async function createBuildStore(options: { distDir: string; publicUrl: string; log?: BuildStoreLog }): Promise<BuildStore> {
  let current = await loadBuild(options.distDir, options.publicUrl);
  let inFlight: Promise<boolean> | undefined;
  let lastCheck = 0;

  async function check(): Promise<boolean> {
    lastCheck = Date.now();
    const id = await readBuildId(options.distDir);
    if (id === undefined || id === current.id) return false;
    try {
      const next = await loadBuild(options.distDir, options.publicUrl);
      const previous = current.id;
      current = next;
      options.log?.('build_swapped', { from: previous, to: next.id });
      return true;
    } catch (error) {
      // A build being swapped in may be briefly absent or incomplete: keep serving the current one.
      options.log?.('build_reload_failed', { error: (error as Error).message });
      return false;
    }
  }

  return {
    current: () => current,
    refresh() {
      if (inFlight) return inFlight;
      const wait = Math.max(0, lastCheck + CHECK_INTERVAL_MS - Date.now());
      inFlight = new Promise<void>((resolve) => setTimeout(resolve, wait))
        .then(check)
        .finally(() => (inFlight = undefined));
      return inFlight;
    },
  };
}
