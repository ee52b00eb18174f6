/**
 * `npm run build`: validate content, build the static site into a fresh folder, precompress it,
 * write the manifest, then make it the output folder in one atomic step (core/publishing/build-folders-fs.ts). Invalid content stops here with
 * every problem listed, and the previous build stays untouched.
 */
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from '../core/content/load-content.ts';
import { resolveUpdated } from '../core/content/review-history.ts';
import { readCorrectionReasons, readWithdrawnReasons } from '../core/content/read-withdrawn.ts';
import { buildPublication } from '../core/dataset/build-dataset.ts';
import { createChangeLog, renderChangeLog } from '../core/dataset/change-log.ts';
import { summarizeLog } from '../core/log/log-summary.ts';
import { LOG_DIR, prepareReviewLog, type ReviewLogStep } from './lib/review-log.ts';
import { cosignForPublish, writeSitePolicy } from './lib/witness-cosignatures.ts';
import { getNewestChange } from '../core/dates/latest-change.ts';
import { renderReviewsDataset } from '../core/dataset/render-json.ts';
import { formatContentProblem, formatContentProblems, type ContentProblem } from '../core/content/problems.ts';
import { CHANGE_LOG_FILE, SEARCH_PAGE_SHELL_FILE, type Manifest } from '../core/publishing/manifest.ts';
import { LANGUAGE_FILE, renderSiteLanguage } from '../core/publishing/site-language.ts';
import { createServiceUrls, type ServiceUrls } from '../core/urls.ts';
import type { Config } from '../core/config.ts';
import { describeDemo, isDemoContent, readEntryConfig } from './lib/entry-config.ts';
import { runAstroBuild } from './lib/run-astro-build.ts';
import { finalizeBuild } from './lib/finalize-build.ts';
import { analyzeInThreads } from './lib/analyze-in-threads.ts';
import { activateBuild, buildsDirOf, distDirKeyOf, distTagOf, newBuildFolderName, readPreviousBuild, removeStaleBuildFolders } from '../core/publishing/build-folders-fs.ts';
import { computeSourceFingerprint } from './lib/source-fingerprint.ts';
import { checkRunningService } from './lib/running-service.ts';
import { takeHeldLock } from './lib/held-lock.ts';
import { copyPublishedPhotos, encodeContentPhotos } from './lib/media/encode-photos.ts';
import { mediaFileOf, type MediaCatalog } from '../core/media/media-variants.ts';
import { lowerProcessPriority } from '../sidecar/thread-priority.ts';

/** Each build's cache folder (its Vite cache), named by the build's stamp. */
const BUILD_CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/reviews-build/', import.meta.url));
/**
 * Astro's working folder for one DIST_DIR, where it writes the pages' code and imports it from: inside the
 * project, so that code resolves the project's packages. The same path at every build of that DIST_DIR
 * (whose builds hold its lock, so none share it), never one named by the build's stamp: Node's compile
 * cache (scripts/lib/compile-cache.ts) keys a module by its path, so the code of unchanged pages is read
 * from it and a publish adds nothing to it (with a new path each time, each build added 69 files, 0.76 MB,
 * never read again).
 */
const astroWorkDirOf = (outDir: string) => fileURLToPath(new URL(`../node_modules/.cache/reviews-astro/d${distTagOf(outDir)}/`, import.meta.url));
/** Encoded photos by the hash of their source, kept across builds (scripts/lib/media/encode-photos.ts). */
export const MEDIA_CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/reviews-media/', import.meta.url));

export type BuildOptions = {
  contentDir: string;
  publicUrl: string;
  outDir: string;
  verbose?: boolean;
  /** Where encoded photos are cached; MEDIA_CACHE_DIR by default. */
  mediaCacheDir?: string;
  /** DATA_DIR, where the review log's key is kept (docs/log.md); `.data` beside outDir by default. */
  dataDir?: string;
  /** LOG_SIGNING_KEY: the review log's key, which then takes precedence over the key file. */
  logSigningKey?: string | undefined;
  /** LOG_JOBS_KEY: the job key, which then takes precedence over the key file. */
  logJobsKey?: string | undefined;
  /** The clock the review log's new entries read. */
  now?: () => Date;
  /** Where the build says what the owner must know (a new log key to back up); console.log by default. */
  report?: (line: string) => void;
  /** LOG_WITNESSES: witnesses asked to cosign the log's new checkpoint. */
  logWitnesses?: readonly { url: string; key: string }[];
  /** `--new-log`: the owner says no review log was ever published at PUBLIC_URL (docs/log.md). */
  newLog?: boolean;
  /** How long a publish waits for them, and how often each may be asked (Config.logWitnessing). */
  logWitnessing?: { timeoutMs: number; qpd: number };
};

const DEFAULT_WITNESSING = { timeoutMs: 10_000, qpd: 24 };
const dataDirOf = (options: BuildOptions) => options.dataDir ?? path.join(path.dirname(path.resolve(options.outDir)), '.data');
export type BuildResult =
  | {
      ok: true;
      manifest: Manifest;
      previous: Manifest | undefined;
      maxRssBytes: number;
      ms: number;
      /**
       * Photos encoded by this build, and photos taken from the cache unchanged; `ms` is what the photos
       * add to the build: checking and encoding them, and any wait for the copy made beside Astro's render.
       */
      photos: { encoded: number; cached: number; ms: number };
      /** What the owner should know and the build went on despite (an original that carries a location), one line each. */
      warnings: string[];
      /** The review log: its size, the entries this build appended, and the time it spent on the log. */
      log: { size: number; added: number; ms: number };
    }
  | { ok: false; message: string };

/**
 * Builds `options.contentDir` into `options.outDir`. `urls` are the ones the entry point built from its
 * configuration (start, build, publish pass theirs); a caller without them (tests, tools) gets them here.
 */
export async function buildSite(options: BuildOptions, urls: ServiceUrls = createServiceUrls(options.publicUrl)): Promise<BuildResult> {
  // One build at a time per DIST_DIR, taken before anything is written (scripts/lib/held-lock.ts).
  const outDir = path.resolve(options.outDir);
  await mkdir(buildsDirOf(outDir), { recursive: true });
  const lock = await takeHeldLock(path.join(buildsDirOf(outDir), `lock-${encodeURIComponent(path.basename(outDir))}`));
  if (!lock.ok) return { ok: false, message: `Not built: another build${lock.pid ? ` (process ${lock.pid})` : ''} is writing ${outDir}/; wait for it to finish, then build again.` };
  try {
    return await buildSiteLocked(options, urls);
  } finally {
    await lock.release();
  }
}

async function buildSiteLocked(options: BuildOptions, urls: ServiceUrls): Promise<BuildResult> {
  const started = performance.now();
  const outDir = path.resolve(options.outDir);
  const buildsDir = buildsDirOf(outDir);
  // The folder stamp names this build's staging and cache folders; the build id is the manifest's content hash.
  const stamp = newBuildFolderName(outDir);
  const staging = path.join(buildsDir, `staging-${stamp}`);
  const photoStaging = `${staging}-media`;
  let copied: Promise<number> | undefined;
  const cacheDir = path.join(BUILD_CACHE_DIR, stamp);
  await removeStaleBuildFolders(outDir, stamp, BUILD_CACHE_DIR);
  const astroWorkDir = astroWorkDirOf(outDir);
  try {
    // First: a content folder with a FIFO or a link out of it is refused before anything reads it.
    const source = await computeSourceFingerprint(options);
    if (!source.ok) return source;
    // In Astro's working folder, as its path is a constant of the pages' code (astro.config.mjs).
    const publicationFile = path.join(astroWorkDir, 'publication.json');
    const mediaCacheDir = options.mediaCacheDir ?? MEDIA_CACHE_DIR;
    const prepared = await preparePublication(options, urls, publicationFile, mediaCacheDir);
    if (!prepared.ok) return prepared;
    const { dataDate, changeLog, photos, reviewLog, language } = prepared;
    // The photos are placed beside Astro's render, which leaves this process idle, and moved in after it.
    copied = copyPublishedPhotos({ catalog: photos.catalog, files: photos.published, cacheDir: mediaCacheDir, outDir: photoStaging });
    copied.catch(() => {}); // awaited below, or in `finally` when Astro fails first
    const { maxRssBytes } = await runAstroBuild({
      contentDir: options.contentDir,
      publicUrl: options.publicUrl,
      publicationFile,
      outDir: staging,
      cacheDir,
      workDir: astroWorkDir,
      demo: isDemoContent(options.contentDir),
      verbose: options.verbose,
    });
    // The search page Astro wrote is the shell the service fills (core/pages/search-page.ts): set aside, never served.
    await rename(path.join(staging, 'search', 'index.html'), path.join(staging, SEARCH_PAGE_SHELL_FILE));
    await rmdir(path.join(staging, 'search'));
    await writeFile(path.join(staging, CHANGE_LOG_FILE), changeLog);
    if (language !== undefined) await writeFile(path.join(staging, LANGUAGE_FILE), language);
    const logWriteStarted = performance.now();
    // The witnesses' round trip, in parallel and bounded (LOG_WITNESS_TIMEOUT_SECONDS), before the proofs are written.
    const witnessing = { witnesses: options.logWitnesses ?? [], ...(options.logWitnessing ?? DEFAULT_WITNESSING), dataDir: dataDirOf(options), report: options.report ?? console.log };
    await reviewLog.step.write(staging, (note, tree) => cosignForPublish({ note, tree, ...witnessing }));
    reviewLog.ms += performance.now() - logWriteStarted;
    await writeSitePolicy(path.join(staging, LOG_DIR), witnessing.witnesses);
    // What the photos add to the build: the wait for the copy, if Astro was faster, and the move.
    const copyWaitStarted = performance.now();
    await copied;
    await rename(path.join(photoStaging, 'media'), path.join(staging, 'media'));
    photos.ms += performance.now() - copyWaitStarted;
    const previousBuild = await readPreviousBuild(outDir);
    const previous = previousBuild?.manifest;
    const manifest = await finalizeBuild(staging, {
      urls,
      dataDate,
      previous: previousBuild,
      source: source.fingerprint,
      distDir: distDirKeyOf(outDir),
    });
    const buildDir = path.join(buildsDir, `build-${stamp}`);
    await rename(staging, buildDir);
    await activateBuild(buildDir, outDir);
    await removeStaleBuildFolders(outDir, stamp);
    const notice = await reviewLog.step.commit();
    if (notice) (options.report ?? console.log)(notice);
    const { encoded, cached, ms } = photos;
    const warnings = photos.warnings.map((w) => `Warning: ${formatContentProblem(w)}`);
    const log = { size: reviewLog.step.entries.length, added: reviewLog.step.added, ms: reviewLog.ms };
    return { ok: true, manifest, previous, maxRssBytes, ms: performance.now() - started, photos: { encoded, cached, ms }, warnings, log };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await copied?.catch(() => {});
    await rm(photoStaging, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
    await rm(astroWorkDir, { recursive: true, force: true });
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
  options: BuildOptions,
  urls: ServiceUrls,
  file: string,
  mediaCacheDir: string,
): Promise<
  | {
      ok: true;
      dataDate: string | undefined;
      changeLog: string;
      photos: { catalog: MediaCatalog; published: Set<string>; encoded: number; cached: number; ms: number; warnings: ContentProblem[] };
      reviewLog: { step: Extract<ReviewLogStep, { ok: true }>; ms: number };
      /** `_language.json` (core/publishing/site-language.ts), for a site not in English. */
      language: string | undefined;
    }
  | { ok: false; message: string }
> {
  const { contentDir } = options;
  const content = await loadContent(contentDir);
  if (!content.ok) return { ok: false, message: formatContentProblems(content.problems) };
  const photosStarted = performance.now();
  const encoded = await encodeContentPhotos({ contentDir, cacheDir: mediaCacheDir, reviews: content.value.reviews });
  if (!encoded.ok) return { ok: false, message: formatContentProblems(encoded.problems) };
  const published = new Set(content.value.reviews.filter((r) => r.verified).flatMap((r) => (r.media ?? []).map(mediaFileOf)));
  const photos = { catalog: encoded.catalog, published, encoded: encoded.encoded, cached: encoded.cached, ms: performance.now() - photosStarted, warnings: encoded.warnings };
  const reasons = await readWithdrawnReasons(contentDir);
  if (!reasons.ok) return { ok: false, message: formatContentProblems(reasons.problems) };
  const corrections = await readCorrectionReasons(contentDir);
  if (!corrections.ok) return { ok: false, message: formatContentProblems(corrections.problems) };
  // Not beside the photo encoding: both want every core.
  const analyses = await analyzeInThreads(content.value);
  const { dataset, insights, pageText } = buildPublication(content.value, urls, undefined, encoded.catalog, analyses);
  // The review log's digests cover only what the content says (core/log/entry.ts), so `updated`, which the
  // log decides, is set after it.
  const logStarted = performance.now();
  const step = await prepareReviewLog(dataset.reviews, reasons.value, {
    publicUrl: options.publicUrl,
    outDir: path.resolve(options.outDir),
    dataDir: dataDirOf(options),
    signingKey: options.logSigningKey,
    jobsKey: options.logJobsKey,
    demo: isDemoContent(contentDir),
    now: options.now,
    newLog: options.newLog,
    corrections: corrections.value,
    jobs: content.value.jobs,
    reviewJobs: new Map(content.value.reviews.flatMap((r) => (r.job === undefined ? [] : [[r.id, r.job]]))),
  });
  if (!step.ok) return step;
  for (const review of dataset.reviews) {
    review.updated = resolveUpdated(review, step.times.get(review.id));
    const tie = step.ties.get(review.id);
    if (tie) review.job = tie;
  }
  const changeLog = renderChangeLog(createChangeLog(step.entries, step.bytes));
  const logMs = performance.now() - logStarted;
  await mkdir(path.dirname(file), { recursive: true });
  const summary = summarizeLog(step.entries);
  insights.jobs = summary.jobs;
  await writeFile(file, `{"dataset":${renderReviewsDataset(dataset)},"insights":${JSON.stringify(insights)},"pageText":${JSON.stringify(pageText)},"log":${JSON.stringify(summary)}}`);
  const language = renderSiteLanguage(pageText.locale, pageText.aspects);
  return { ok: true, dataDate: getNewestChange(dataset.reviews), changeLog, photos, reviewLog: { step, ms: logMs }, language };
}

/** What a build takes from the configuration. */
export function buildOptionsFor(config: Pick<Config, 'contentDir' | 'publicUrl' | 'distDir' | 'dataDir' | 'logSigningKey' | 'logJobsKey' | 'logWitnesses' | 'logWitnessing'>): BuildOptions {
  return {
    contentDir: config.contentDir,
    publicUrl: config.publicUrl,
    outDir: config.distDir,
    dataDir: config.dataDir,
    logSigningKey: config.logSigningKey,
    logJobsKey: config.logJobsKey,
    logWitnesses: config.logWitnesses,
    logWitnessing: config.logWitnessing,
  };
}

if (import.meta.main) {
  // A build gives way to a service on the same machine, and so do the processes and threads it starts.
  lowerProcessPriority();
  const { config, demo, urls } = readEntryConfig({ demoFallback: true });
  if (demo) console.log(describeDemo());
  const running = await checkRunningService(config, 'Not built');
  if (!running.ok) {
    console.error(running.message);
    process.exit(1);
  }
  const options = buildOptionsFor(config);
  const result = await buildSite({ ...options, verbose: process.argv.includes('--verbose'), newLog: process.argv.includes('--new-log') }, urls);
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
  for (const warning of result.warnings) console.warn(warning);
  const count = Object.keys(result.manifest.files).length;
  console.log(`Built ${count} files into ${options.outDir}/ in ${(result.ms / 1000).toFixed(1)} s (build ${result.manifest.build_id}).`);
}
