/**
 * Builds a content folder with the real build pipeline, once per distinct site and test run.
 *
 * A full build takes a minute on a busy 2-core machine, and most suites only read what it makes. So a
 * build into a fresh folder (no build and no log key there yet) is made once per run for each distinct
 * site, and each caller gets its own copy: the build folder, activated as its `dist` link, and the data
 * folder holding the review log's key. A site is what the build's own source fingerprint
 * (scripts/lib/source-fingerprint.ts) names: the content folder's bytes, the public URL, the demo flag
 * and the build code. A build into a folder that already holds a build or a key (a publish, a second
 * build) always runs for real, as it would for the owner.
 *
 * The run's shared builds live in the folder tests/global-setup.ts provides (`siteBuilds`); the first
 * test process that needs a site builds it there, under a lock, and the others wait for it. Without the
 * global set-up (a file run on its own outside vitest's projects) every call builds.
 */
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildSite } from '../../scripts/build.ts';
import { computeSourceFingerprint } from '../../scripts/lib/source-fingerprint.ts';
import { activateBuild, buildsDirOf, distDirKeyOf } from '../../core/publishing/build-folders-fs.ts';
import { MANIFEST_FILE, renderManifest, type Manifest } from '../../core/publishing/manifest.ts';

export const SMALL_CONTENT = path.resolve('tests/fixtures/content-small');
export const DEMO_CONTENT = path.resolve('examples/demo');

export type BuildTestSiteOptions = {
  contentDir?: string;
  publicUrl?: string;
  outDir?: string;
  dataDir?: string;
  /** A build of its own, never a copy of the shared one: for a test of the build itself (determinism). */
  own?: boolean;
  /** The clock of a build of its own (a new log carries the day it was made, docs/log.md). */
  now?: () => Date;
};
export type BuiltTestSite = { distDir: string; manifest: Manifest };

/**
 * `dataDir` holds the review log's key, so every build into one folder (and the service and publishes beside
 * it, as DATA_DIR) must share it: by default `data/` beside the build folder, as the service helpers use.
 */
export async function buildTestSite(options: BuildTestSiteOptions = {}): Promise<BuiltTestSite> {
  const outDir = path.resolve(options.outDir ?? path.join(await mkdtemp(path.join(tmpdir(), 'reviews-build-')), 'dist'));
  const site = {
    contentDir: path.resolve(options.contentDir ?? SMALL_CONTENT),
    publicUrl: options.publicUrl ?? 'https://reviews.example.com',
    outDir,
    dataDir: path.resolve(options.dataDir ?? path.join(path.dirname(outDir), 'data')),
  };
  const shared = sharedBuildsDir();
  if (shared && !options.own && !options.now && (await isFresh(site.outDir, site.dataDir))) return copySharedSite(shared, site);
  return buildOwnSite(site, options.now);
}

type SiteOptions = Required<Omit<BuildTestSiteOptions, 'own' | 'now'>>;

async function buildOwnSite(site: SiteOptions, now?: () => Date): Promise<BuiltTestSite> {
  const result = await buildSite({ ...site, ...(now && { now }) });
  if (!result.ok) throw new Error(result.message);
  return { distDir: site.outDir, manifest: result.manifest as Manifest };
}

function sharedBuildsDir(): string | undefined {
  try {
    return inject('siteBuilds');
  } catch {
    return undefined; // outside a vitest worker
  }
}

/** No build in the folder yet, and no key in the data folder: a copy is what a build would make. */
async function isFresh(outDir: string, dataDir: string): Promise<boolean> {
  const exists = (p: string) => lstat(p).then(() => true, () => false);
  if ((await exists(outDir)) || (await exists(buildsDirOf(outDir)))) return false;
  return (await readdir(dataDir).catch(() => [])).length === 0;
}

/** The shared build of this site (made now when it is the first), copied into `site`'s folders. */
async function copySharedSite(shared: string, site: SiteOptions): Promise<BuiltTestSite> {
  const source = await computeSourceFingerprint(site);
  if (!source.ok) return buildOwnSite(site); // the build reports the refusal itself
  const entry = path.join(shared, source.fingerprint);
  const manifest = await sharedSite(entry, site);
  const buildName = (await readdir(path.join(entry, 'builds'))).find((name) => name.startsWith('build-'))!;
  const buildDir = path.join(buildsDirOf(site.outDir), buildName);
  await mkdir(path.dirname(buildDir), { recursive: true });
  await cp(path.join(entry, 'builds', buildName), buildDir, { recursive: true, verbatimSymlinks: true });
  // A build that wrote no key (the demo) leaves no data folder: the copy then has none either.
  const exists = await lstat(path.join(entry, 'data')).then(() => true, () => false);
  if (exists) await cp(path.join(entry, 'data'), site.dataDir, { recursive: true });
  // The manifest names the DIST_DIR a build was made for, and a service serves only its own folder's
  // builds: the copy is stamped with the folder it now belongs to, as a build there would have been.
  const own: Manifest = { ...manifest, dist_dir: distDirKeyOf(site.outDir) };
  await writeFile(path.join(buildDir, MANIFEST_FILE), renderManifest(own));
  await activateBuild(buildDir, site.outDir);
  return { distDir: site.outDir, manifest: own };
}

/**
 * The manifest of the shared build in `entry`: built by the first caller of the run (which takes the
 * folder `entry/lock` as its lock), awaited by the others. `entry/manifest.json` appears, by a rename,
 * once the build is complete; `entry/failed.txt` when it failed, with the build's message.
 */
async function sharedSite(entry: string, site: SiteOptions): Promise<Manifest> {
  await mkdir(entry, { recursive: true });
  const builder = await mkdir(path.join(entry, 'lock')).then(() => true, (error) => {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  });
  if (builder) {
    await writeFile(path.join(entry, 'lock', 'pid'), String(process.pid));
    const outDir = path.join(entry, 'site', 'dist');
    const result = await buildSite({ ...site, outDir, dataDir: path.join(entry, 'data') }).catch((error: Error) => ({ ok: false as const, message: error.message }));
    if (!result.ok) {
      await writeFile(path.join(entry, 'failed.txt'), result.message);
      throw new Error(result.message);
    }
    await rename(buildsDirOf(outDir), path.join(entry, 'builds'));
    await writeFile(path.join(entry, 'manifest.tmp'), JSON.stringify(result.manifest));
    await rename(path.join(entry, 'manifest.tmp'), path.join(entry, 'manifest.json'));
    return result.manifest as Manifest;
  }
  return waitForSharedSite(entry);
}

/** Waits for the builder's result: a file appearing in `entry` (fs.watch), or the builder's process gone. */
async function waitForSharedSite(entry: string): Promise<Manifest> {
  const outcome = async (): Promise<{ manifest: Manifest } | { failed: string } | undefined> => {
    const manifest = await readFile(path.join(entry, 'manifest.json'), 'utf8').catch(() => undefined);
    if (manifest !== undefined) return { manifest: JSON.parse(manifest) as Manifest };
    const failed = await readFile(path.join(entry, 'failed.txt'), 'utf8').catch(() => undefined);
    if (failed !== undefined) return { failed };
    const pid = Number(await readFile(path.join(entry, 'lock', 'pid'), 'utf8').catch(() => '0'));
    if (pid > 0 && !isAlive(pid)) return { failed: `the test process ${pid} that was building this site ended before it finished` };
    return undefined;
  };
  const result = await new Promise<Awaited<ReturnType<typeof outcome>>>((resolve, reject) => {
    let settled = false;
    const check = () => {
      outcome().then((found) => {
        if (found && !settled) {
          settled = true;
          watcher.close();
          clearInterval(liveness);
          resolve(found);
        }
      }, reject);
    };
    const watcher = watch(entry, check);
    // The builder's process could end without writing anything: look at it now and then.
    const liveness = setInterval(check, 200);
    check();
  });
  if (!result || 'failed' in result) throw new Error(`The shared build of ${entry} failed: ${result?.failed}`);
  return result.manifest;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
