/**
 * Where builds live on disk, and the one atomic step that publishes one (issue 10 item 6).
 *
 * Every finished build is a folder `.builds/build-<stamp>` beside the output folder, and the output folder
 * (`dist/`) is a symbolic link to the current one. Publishing replaces the link with `rename(2)` of a
 * new link over it: one atomic step, so a publish killed at any moment leaves `dist/` pointing at the old
 * build or at the new one, never at nothing (two renames of folders had a window with no `dist/`).
 * A `dist/` that is still a real folder (made before this layout) is moved into `.builds/` once.
 *
 * If `dist/` is missing anyway (deleted by hand, or killed during that one-time move), the newest
 * complete build in `.builds/` is linked again: `npm start` and the sidecar then serve the last good
 * build without needing valid content, and the next build compares with it, so `Last-Modified` never
 * moves backwards. Folders a killed build left behind (`staging-*`, and `retired-*` from the old
 * layout) are removed by the next build of the same DIST_DIR, or once the process that made them is
 * gone; the three newest builds are kept (the
 * running sidecars may still be loading the previous one).
 *
 * `.builds/` is shared by every DIST_DIR in the same parent folder, so each build's manifest names the
 * DIST_DIR it was made for (`dist_dir`, `distDirKeyOf`), and recovery and pruning count only their own
 * folder's builds. A build whose manifest names no DIST_DIR (made by an older version) belongs to
 * nobody known: neither recovered nor pruned, so it is never taken from another site.
 */
import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, ManifestSchema, type Manifest } from './manifest.ts';

export const BUILDS_KEPT = 3;

export function buildsDirOf(outDir: string): string {
  return path.join(path.dirname(path.resolve(outDir)), '.builds');
}

/**
 * The DIST_DIR as a build's manifest records it: its absolute path, through the real path of its parent
 * (so `/tmp/x` and a link to it agree), the link itself being the DIST_DIR.
 */
export function distDirKeyOf(outDir: string): string {
  const out = path.resolve(outDir);
  let parent = path.dirname(out);
  try {
    parent = realpathSync(parent);
  } catch {
    // No parent folder yet: nothing was built there, and the plain path is the key.
  }
  return path.join(parent, path.basename(out));
}

/**
 * A folder stamp (not the build id, which is the manifest's content hash): it names a build's folders in
 * `.builds/`, sorts by time, and names the DIST_DIR it builds (`-d<tag>`, given `outDir`) and the process
 * that makes it (`-p<pid>`), for stale-folder cleanup.
 */
export function newBuildFolderName(outDir?: string): string {
  const dist = outDir === undefined ? '' : `-d${distTagOf(outDir)}`;
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}${dist}-p${process.pid}`;
}

/** A short name for a DIST_DIR (its key's hash), which its build folders and Astro's working folder carry. */
export function distTagOf(outDir: string): string {
  return createHash('sha256').update(distDirKeyOf(outDir)).digest('hex').slice(0, 8);
}

/** Makes `buildDir` (inside `.builds/`) the current build: one rename of a new symbolic link over `outDir`. */
export async function activateBuild(buildDir: string, outDir: string): Promise<void> {
  const out = path.resolve(outDir);
  const buildsDir = buildsDirOf(out);
  const current = await lstat(out).catch(() => undefined);
  if (current?.isDirectory()) {
    // The old layout: keep that build as the previous one, then link.
    // Named without a pid: it belongs to no process, so it is pruned like any other old build.
    await rename(out, path.join(buildsDir, `build-moved-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`));
  }
  const link = path.join(buildsDir, `link-${newBuildFolderName()}`);
  await symlink(path.relative(path.dirname(out), buildDir), link);
  try {
    await rename(link, out);
  } catch (error) {
    await unlink(link).catch(() => {});
    throw error;
  }
}

/** The newest complete build of `outDir` in `.builds/` (its manifest parses and names `outDir`), by when its manifest was written. */
export async function findLastGoodBuild(outDir: string): Promise<{ dir: string; manifest: Manifest } | undefined> {
  const buildsDir = buildsDirOf(outDir);
  const key = distDirKeyOf(outDir);
  const names = (await readdir(buildsDir).catch(() => [] as string[])).filter((n) => n.startsWith('build-'));
  let best: { dir: string; manifest: Manifest; at: number } | undefined;
  for (const name of names) {
    const dir = path.join(buildsDir, name);
    const manifest = await readManifest(dir);
    if (manifest?.dist_dir !== key) continue;
    const at = (await stat(path.join(dir, MANIFEST_FILE))).mtimeMs;
    if (!best || at > best.at) best = { dir, manifest, at };
  }
  return best && { dir: best.dir, manifest: best.manifest };
}

/** When `outDir` is missing, links the last good build back into place; returns the build id it restored. */
export async function recoverBuild(outDir: string): Promise<string | undefined> {
  if (await stat(path.join(outDir, MANIFEST_FILE)).catch(() => undefined)) return undefined;
  if (await lstat(outDir).catch(() => undefined)) {
    // A link to a build that is gone, or an empty folder: replaced below only if it holds nothing.
    const entries = await readdir(outDir).catch(() => [] as string[]);
    if (entries.length > 0) return undefined;
  }
  const last = await findLastGoodBuild(outDir);
  if (!last) return undefined;
  await rm(outDir, { recursive: true, force: true });
  await activateBuild(last.dir, outDir);
  return last.manifest.build_id;
}

/**
 * The current build (its real folder, so a publish that swaps `outDir` meanwhile does not move it), or
 * the last good one when `outDir` is missing.
 */
export async function readPreviousBuild(outDir: string): Promise<{ dir: string; manifest: Manifest } | undefined> {
  const dir = await realTarget(outDir);
  const manifest = dir && (await readManifest(dir));
  return manifest ? { dir, manifest } : await findLastGoodBuild(outDir);
}

/**
 * Removes what killed builds left (`staging-*`, `retired-*`, `link-*` of this DIST_DIR's builds other than
 * the running one, `stamp`, or of processes that are gone, and the same under `cacheDir`), and builds of
 * `outDir` beyond the newest `BUILDS_KEPT` other than the current one. Another DIST_DIR's complete builds,
 * and those that name none, are left alone.
 */
export async function removeStaleBuildFolders(outDir: string, stamp: string, cacheDir?: string): Promise<void> {
  const buildsDir = buildsDirOf(outDir);
  await mkdir(buildsDir, { recursive: true });
  // The caller holds this DIST_DIR's build lock (scripts/build.ts): a folder of this DIST_DIR's builds
  // other than the running one's is a killed build's, whatever its pid (in a container the next build
  // often has the killed one's). Another DIST_DIR's, or an older layout's, is stale once its process is gone.
  const ours = `-d${distTagOf(outDir)}-`;
  const isStale = (name: string) => (name.includes(ours) ? !name.includes(stamp) : !isOwnerAlive(name));
  for (const [dir, prefixes] of [[buildsDir, ['staging-', 'retired-', 'link-']], [cacheDir, ['']]] as const) {
    if (!dir) continue;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!prefixes.some((p) => name.startsWith(p)) || !isStale(name)) continue;
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
  const current = await realTarget(outDir);
  const key = distDirKeyOf(outDir);
  const builds: { dir: string; at: number }[] = [];
  for (const name of (await readdir(buildsDir)).filter((n) => n.startsWith('build-'))) {
    const dir = path.join(buildsDir, name);
    const at = (await stat(path.join(dir, MANIFEST_FILE)).catch(() => undefined))?.mtimeMs;
    if (at === undefined) {
      if (isStale(name)) await rm(dir, { recursive: true, force: true });
      continue;
    }
    if ((await readManifest(dir))?.dist_dir !== key) continue;
    builds.push({ dir, at });
  }
  builds.sort((a, b) => b.at - a.at);
  for (const { dir } of builds.slice(BUILDS_KEPT)) if (dir !== current) await rm(dir, { recursive: true, force: true });
}

/** The manifest of the build in `dir`, or undefined when it is missing or does not parse: the one manifest reader. */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    return ManifestSchema.parse(JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')));
  } catch {
    return undefined;
  }
}

async function realTarget(outDir: string): Promise<string | undefined> {
  return realpath(outDir).catch(() => undefined);
}

/**
 * Whether the process a folder's name gives (`-p<pid>`, as `newBuildFolderName` writes it) is still
 * running; a name without one (an older layout) is stale.
 */
export function isOwnerAlive(name: string): boolean {
  const match = /-p(\d+)(?:$|-)/.exec(name);
  if (!match) return false;
  return isProcessAlive(Number(match[1]));
}

/** Whether a process runs with this pid (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
