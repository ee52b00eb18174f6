/**
 * `npm run build`: validate content, build the static site into a fresh folder, precompress it,
 * write the manifest, then make it the output folder in one atomic step (core/publishing/build-folders-fs.ts). Invalid content stops here with
 * every problem listed, and the previous build stays untouched.
 */
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from '../core/content/load-content.ts';
import { deriveReviewTimes } from '../core/content/review-history.ts';
import { readContentHistory } from './lib/content-history.ts';
import { buildPublication } from '../core/dataset/build-dataset.ts';
import { compactChangeLog, createChangeLogWithoutHistory, renderChangeLog } from '../core/dataset/change-log.ts';
import { getNewestChange } from '../core/review-changes.ts';
import { renderReviewsDataset } from '../core/dataset/render-json.ts';
import { formatContentProblem, formatContentProblems, type ContentProblem } from '../core/content/problems.ts';
import { CHANGE_LOG_FILE, SERVER_DIR, type Manifest } from '../core/publishing/manifest.ts';
import { createServiceUrls, type ServiceUrls } from '../core/urls.ts';
import type { Config } from '../core/config.ts';
import { describeDemo, isDemoContent, readConfigOrExit, readEnvironment, resolveContent } from '../sidecar/read-config.ts';
import { runAstroBuild } from './lib/run-astro-build.ts';
import { finalizeBuild } from './lib/finalize-build.ts';
import { activateBuild, buildsDirOf, newBuildId, readPreviousManifest, removeStaleBuildFolders } from '../core/publishing/build-folders-fs.ts';
import { computeSourceFingerprint } from './lib/source-fingerprint.ts';
import { copyPublishedPhotos, encodeContentPhotos } from './lib/media/encode-photos.ts';
import { mediaFileOf, type MediaCatalog } from '../core/media/media-variants.ts';

/** Inside the project, so the prerendered chunks Astro writes there resolve the project's packages. */
const BUILD_CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/reviews-build/', import.meta.url));
/** The content's replayed git history, kept between builds (scripts/lib/content-history-cache.ts). */
const HISTORY_CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/reviews-history/', import.meta.url));
/** Encoded photos by the hash of their source, kept across builds (scripts/lib/media/encode-photos.ts). */
export const MEDIA_CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/reviews-media/', import.meta.url));

export type BuildOptions = {
  contentDir: string;
  publicUrl: string;
  outDir: string;
  verbose?: boolean;
  /** Where encoded photos are cached; MEDIA_CACHE_DIR by default. */
  mediaCacheDir?: string;
};
export type BuildResult =
  | {
      ok: true;
      manifest: Manifest;
      previous: Manifest | undefined;
      maxRssBytes: number;
      ms: number;
      /** Photos encoded by this build, and photos taken from the cache unchanged. */
      photos: { encoded: number; cached: number; ms: number };
      /** What the owner should know and the build went on despite (an original that carries a location), one line each. */
      warnings: string[];
    }
  | { ok: false; message: string };

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const urls = createServiceUrls(options.publicUrl);
  const outDir = path.resolve(options.outDir);
  const buildsDir = buildsDirOf(outDir);
  const id = newBuildId();
  const staging = path.join(buildsDir, `staging-${id}`);
  const cacheDir = path.join(BUILD_CACHE_DIR, id);
  await removeStaleBuildFolders(outDir, BUILD_CACHE_DIR);
  try {
    // First: a content folder with a FIFO or a link out of it is refused before anything reads it.
    const source = await computeSourceFingerprint(options);
    if (!source.ok) return source;
    const publicationFile = path.join(cacheDir, 'publication.json');
    const mediaCacheDir = options.mediaCacheDir ?? MEDIA_CACHE_DIR;
    const prepared = await preparePublication(options.contentDir, urls, publicationFile, mediaCacheDir);
    if (!prepared.ok) return prepared;
    const { dataDate, changeLog, photos } = prepared;
    const { maxRssBytes } = await runAstroBuild({
      contentDir: options.contentDir,
      publicUrl: options.publicUrl,
      publicationFile,
      outDir: staging,
      cacheDir,
      demo: isDemoContent(options.contentDir),
      verbose: options.verbose,
    });
    // astro.config.mjs builds the on-demand code in the cache folder (see there); it is self-contained.
    await cp(path.join(cacheDir, 'server'), path.join(staging, SERVER_DIR), { recursive: true });
    await writeFile(path.join(staging, CHANGE_LOG_FILE), changeLog);
    const copyStarted = performance.now();
    await copyPublishedPhotos({ catalog: photos.catalog, files: photos.published, cacheDir: mediaCacheDir, outDir: staging });
    photos.ms += performance.now() - copyStarted;
    const previous = await readPreviousManifest(outDir);
    const manifest = await finalizeBuild(staging, {
      urls,
      dataDate,
      previous,
      source: source.fingerprint,
    });
    const buildDir = path.join(buildsDir, `build-${id}`);
    await rename(staging, buildDir);
    await activateBuild(buildDir, outDir);
    await removeStaleBuildFolders(outDir);
    const { encoded, cached, ms } = photos;
    const warnings = photos.warnings.map((w) => `Warning: ${formatContentProblem(w)}`);
    return { ok: true, manifest, previous, maxRssBytes, ms: performance.now() - started, photos: { encoded, cached, ms }, warnings };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/**
 * The build's one load of the content: validated (every problem listed), each review published and
 * analysed once, the insights counted from those analyses (core/dataset/build-dataset.ts). The result
 * goes to the Astro build in a file (site/lib/build-data.ts reads it: the dataset as /reviews.json
 * renders it, and the insights); only the newest data date and the change log (core/dataset/change-log.ts,
 * rendered) stay here, so the content and the publication are freed while Astro renders.
 */
async function preparePublication(
  contentDir: string,
  urls: ServiceUrls,
  file: string,
  mediaCacheDir: string,
): Promise<
  | { ok: true; dataDate: string | undefined; changeLog: string; photos: { catalog: MediaCatalog; published: Set<string>; encoded: number; cached: number; ms: number; warnings: ContentProblem[] } }
  | { ok: false; message: string }
> {
  const content = await loadContent(contentDir);
  if (!content.ok) return { ok: false, message: formatContentProblems(content.problems) };
  const photosStarted = performance.now();
  const encoded = await encodeContentPhotos({ contentDir, cacheDir: mediaCacheDir, reviews: content.value.reviews });
  if (!encoded.ok) return { ok: false, message: formatContentProblems(encoded.problems) };
  const published = new Set(content.value.reviews.filter((r) => r.verified).flatMap((r) => (r.media ?? []).map(mediaFileOf)));
  const photos = { catalog: encoded.catalog, published, encoded: encoded.encoded, cached: encoded.cached, ms: performance.now() - photosStarted, warnings: encoded.warnings };
  const history = await readContentHistory(contentDir, content.value.reviews, { cacheDir: HISTORY_CACHE_DIR });
  const times = history && deriveReviewTimes(history);
  const { dataset, insights } = buildPublication(content.value, urls, times?.updated, encoded.catalog);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `{"dataset":${renderReviewsDataset(dataset)},"insights":${JSON.stringify(insights)}}`);
  const changeLog = history && times ? compactChangeLog(times.changes, history.map((v) => v.key)) : createChangeLogWithoutHistory(dataset.reviews);
  return { ok: true, dataDate: getNewestChange(dataset.reviews), changeLog: renderChangeLog(changeLog), photos };
}

/** What a build takes from the configuration. */
export function buildOptionsFor(config: Pick<Config, 'contentDir' | 'publicUrl' | 'distDir'>): BuildOptions {
  return { contentDir: config.contentDir, publicUrl: config.publicUrl, outDir: config.distDir };
}

if (import.meta.main) {
  const env = readEnvironment();
  const { config, demo } = resolveContent(readConfigOrExit(env), env);
  if (demo) console.log(describeDemo());
  const options = buildOptionsFor(config);
  const result = await buildSite({ ...options, verbose: process.argv.includes('--verbose') });
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
  for (const warning of result.warnings) console.warn(warning);
  const count = Object.keys(result.manifest.files).length;
  console.log(`Built ${count} files into ${options.outDir}/ in ${(result.ms / 1000).toFixed(1)} s (build ${result.manifest.build_id}).`);
}
