/**
 * Loads a finished build (its manifest and every file it lists) into memory, together with the
 * live data the search, since and MCP routes answer from. A build is loaded whole or not at all, and
 * from one folder: the `dist` link is resolved once, first, so a swap during the load cannot mix two
 * builds.
 *
 * The reading, parsing, checking and indexing happen in a worker thread (load-worker.ts, read-build.ts);
 * this thread only takes the pieces it sends, one message at a time, so requests keep being answered
 * between them while a new build loads (issue 32 item 2). The manifest never comes here: at 10k reviews
 * it lists some 25,000 files, and its parse and the comparison with the build in service's held the
 * serving thread for 50–60 ms (issue 46); the worker checks whom the build is for and which files the
 * build in service already serves.
 */
import { realpath } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { ChangeLog } from '../../core/dataset/change-log.ts';
import type { LiveData } from '../../core/dataset/live-data.ts';
import { createReviewJsonCache, type ReviewJsonCache } from '../../core/dataset/render-json.ts';
import { staticHeadersOf } from '../../core/publishing/headers.ts';
import type { Insights } from '../../core/schemas/insights.ts';
import type { PublishedReview, ReviewsDataset } from '../../core/schemas/published.ts';
import { createNeedleCache } from '../../core/search/needle-cache.ts';
import type { ReviewIndex } from '../../core/search/review-index.ts';
import type { TextIndex } from '../../core/search/text-index.ts';
import { PATHS, type ServiceUrls } from '../../core/urls.ts';
import { prepareRepresentation, type Body, type Representation } from '../http/send-representation.ts';
import type { FileRead } from './read-build.ts';
import type { SiteLanguage } from '../../core/publishing/site-language.ts';

export type LoadedBuild = {
  id: string;
  /** The build's own real folder (`.builds/build-<stamp>`), never the `dist` link. */
  dir: string;
  /** URL path → representation. */
  resources: ReadonlyMap<string, Representation>;
  /** A WebSub topic's URL path → the SHA-256 (hex) of its bytes, hashed by the loading thread (read-build.ts). */
  topicHashes: ReadonlyMap<string, string>;
  /** A directory page's path without its trailing slash → its one canonical path, with it. */
  redirects: ReadonlyMap<string, string>;
  live: LiveData;
  reviewJson: ReviewJsonCache;
  /** Last-Modified of the dataset, used for live answers derived from it. */
  dataLastModifiedMs: number;
  /** The search page's shell (core/pages/search-page.ts); undefined for a build made before there was one. */
  searchShell: string | undefined;
  /** The site's language, which the search page is written in (core/publishing/site-language.ts). */
  language: SiteLanguage;
};

/** What the worker sends, in this order: kept files, files, reviews, change log entries, then the rest (or an error). */
export type WorkerMessage =
  /** Files the build in service serves with the same bytes (read-build.ts): its representations are taken as they are. */
  | { kind: 'kept'; urlPaths: string[] }
  | { kind: 'files'; files: FileRead[] }
  /** The next reviews in order, each with its lowercased text and title (the search index's). */
  | { kind: 'reviews'; reviews: PublishedReview[]; lowerTexts: string[]; lowerTitles: (string | null)[] }
  /** The next change log entries, in order. */
  | { kind: 'changes'; entries: ChangeLog['entries'] }
  | {
      kind: 'done';
      buildId: string;
      /** The dataset's Last-Modified, as its manifest entry says. */
      dataLastModified: string;
      dataset: Omit<ReviewsDataset, 'reviews'>;
      insights: Insights;
      changes: ChangeLog;
      index: Omit<ReviewIndex, 'reviews' | 'needles' | 'text'> & { text: Omit<TextIndex, 'lowerTexts' | 'lowerTitles'> };
      searchShell: string | undefined;
      language: SiteLanguage;
    }
  | { kind: 'error'; message: string }
  /** The build was made for another PUBLIC_URL or DIST_DIR than `target` (build-target.ts). */
  | { kind: 'refused'; reason: string; buildId: string | undefined };

/** A build not loaded because it was made for another address or folder; `reason` says which. */
export class BuildRefusedError extends Error {
  readonly reason: string;
  readonly buildId: string | undefined;
  constructor(reason: string, buildId: string | undefined) {
    super(`not swapped in: ${reason}`);
    this.reason = reason;
    this.buildId = buildId;
  }
}

/**
 * Loads the build `distDir` is or links to; throws, naming what is wrong, when it is not a complete build,
 * and a BuildRefusedError when `target` is given and the build was made for another (build-target.ts).
 * `previous` (the build in service) lends the files the new build holds unchanged (read-build.ts).
 */
export async function loadBuild(distDir: string, urls: ServiceUrls, previous?: LoadedBuild, target?: { distDir: string }): Promise<LoadedBuild> {
  const dir = await realpath(distDir);
  const resources = new Map<string, Representation>();
  const topicHashes = new Map<string, string>();
  const redirects = new Map<string, string>();
  const reviews: PublishedReview[] = [];
  const lowerTexts: string[] = [];
  const lowerTitles: (string | null)[] = [];
  const byId = new Map<string, PublishedReview>();
  const entries: ChangeLog['entries'] = [];
  const addPath = (urlPath: string, representation: Representation, sha256: string | undefined) => {
    resources.set(urlPath, representation);
    if (sha256 !== undefined) topicHashes.set(urlPath, sha256);
    if (urlPath.length > 1 && urlPath.endsWith('/')) redirects.set(urlPath.slice(0, -1), urlPath);
  };

  const done = await new Promise<Extract<WorkerMessage, { kind: 'done' }>>((resolve, reject) => {
    // The build in service's folder: its files the worker need not send again (read-build.ts).
    const workerData = { dir, publicUrl: urls.base, targetDistDir: target?.distDir, previousDir: previous?.dir };
    const worker = new Worker(new URL('./load-worker.ts', import.meta.url), { workerData });
    // A stop while a build loads does not wait for it.
    worker.unref();
    let settled = false;
    worker.on('message', (message: WorkerMessage) => {
      // The next piece once this one is taken and the event loop has turned (load-worker.ts).
      if (message.kind !== 'done' && message.kind !== 'error') setImmediate(() => worker.postMessage('next'));
      if (message.kind === 'kept') {
        for (const urlPath of message.urlPaths) addPath(urlPath, previous!.resources.get(urlPath)!, previous!.topicHashes.get(urlPath));
      } else if (message.kind === 'files') {
        for (const file of message.files) {
          addPath(file.urlPath, prepareRepresentation(representationOf(file, staticHeadersOf(file.urlPath, urls))), file.identity.sha256);
        }
      } else if (message.kind === 'reviews') {
        for (const review of message.reviews) {
          reviews.push(review);
          byId.set(review.id, review);
        }
        lowerTexts.push(...message.lowerTexts);
        lowerTitles.push(...message.lowerTitles);
      } else if (message.kind === 'changes') {
        entries.push(...message.entries);
      } else {
        settled = true;
        // Its work is handed over: the thread and its port would otherwise keep a command (publish) alive.
        worker.removeAllListeners('message');
        void worker.terminate();
        if (message.kind === 'error') reject(new Error(message.message));
        else if (message.kind === 'refused') reject(new BuildRefusedError(message.reason, message.buildId));
        else resolve(message);
      }
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the worker loading ${dir} stopped (exit code ${code}) before it finished`));
    });
  });

  const dataset: ReviewsDataset = { ...done.dataset, reviews } as ReviewsDataset;
  const index: ReviewIndex = { ...done.index, reviews, text: { ...done.index.text, lowerTexts, lowerTitles }, needles: createNeedleCache() };
  const live: LiveData = { dataset, index, byId, insights: done.insights, changes: { ...done.changes, entries }, urls };
  return {
    id: done.buildId,
    dir,
    resources,
    topicHashes,
    redirects,
    live,
    reviewJson: createReviewJsonCache(dataset.reviews),
    dataLastModifiedMs: Date.parse(done.dataLastModified),
    searchShell: done.searchShell,
    language: done.language,
  };
}

function representationOf(file: FileRead, headers: Record<string, string>): Representation {
  const variants: Representation['variants'] = {};
  for (const [coding, variant] of file.variants) variants[coding] = bodyOf(variant);
  return { headers, lastModifiedMs: Date.parse(file.lastModified), identity: bodyOf(file.identity), variants };
}

/** A transferred Uint8Array back as the Buffer the HTTP layer sends. */
function bodyOf(part: { body: Uint8Array; etag: string }): Body {
  return { body: Buffer.from(part.body.buffer, part.body.byteOffset, part.body.byteLength), etag: part.etag };
}
