/**
 * Loads a finished build (its manifest and every file it lists) into memory, together with the
 * live data the search, since and MCP routes answer from. A build is loaded whole or not at all, and
 * from one folder: the `dist` link is resolved once, first, so a swap during the load cannot mix two
 * builds, and the build's page code is imported from its own folder (load-pages.ts).
 */
import { readFile, realpath } from 'node:fs/promises';
import type { z } from 'zod';
import path from 'node:path';
import { parseChangeLog, type ChangeLog } from '../../core/dataset/change-log.ts';
import { createLiveData, type LiveData } from '../../core/dataset/live-data.ts';
import { createReviewJsonCache, type ReviewJsonCache } from '../../core/dataset/render-json.ts';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import { CHANGE_LOG_FILE, MANIFEST_FILE, type Encoding, type Manifest } from '../../core/publishing/manifest.ts';
import { staticHeadersOf } from '../../core/publishing/headers.ts';
import { InsightsSchema, type Insights } from '../../core/schemas/insights.ts';
import { formatIssue, parseWithIssues } from '../../core/schemas/issues.ts';
import { ReviewsDatasetSchema, type ReviewsDataset } from '../../core/schemas/published.ts';
import { PATHS, createServiceUrls } from '../../core/urls.ts';
import { prepareRepresentation, type Body, type Representation } from '../http/send-representation.ts';
import { loadPageRenderer, type PageRenderer } from './load-pages.ts';

export type LoadedBuild = {
  id: string;
  /** The build's own real folder (`.builds/build-<id>`), never the `dist` link. */
  dir: string;
  manifest: Manifest;
  /** URL path → representation. */
  resources: ReadonlyMap<string, Representation>;
  /** A directory page's path without its trailing slash → its one canonical path, with it. */
  redirects: ReadonlyMap<string, string>;
  live: LiveData;
  reviewJson: ReviewJsonCache;
  /** Last-Modified of the dataset, used for live answers derived from it. */
  dataLastModifiedMs: number;
  /** Renders the build's on-demand pages (the search page); undefined for a build without them. */
  pages: PageRenderer | undefined;
};

/** Loads the build `distDir` is or links to; throws, naming what is wrong, when it is not a complete build. */
export async function loadBuild(distDir: string, publicUrl: string): Promise<LoadedBuild> {
  const dir = await realpath(distDir);
  const manifest = await readManifest(dir);
  if (!manifest) throw new Error(`${dir} has no readable ${MANIFEST_FILE}: not a complete build`);
  const urls = createServiceUrls(publicUrl);
  const resources = new Map<string, Representation>();
  const redirects = new Map<string, string>();
  const bodies = new Map<string, Buffer>();
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    const identity = await readFile(path.join(dir, entry.file));
    bodies.set(urlPath, identity);
    const variants: Partial<Record<Encoding, Body>> = {};
    for (const [coding, variant] of Object.entries(entry.encodings) as [Encoding, { file: string; etag: string }][]) {
      variants[coding] = { body: await readFile(path.join(dir, variant.file)), etag: variant.etag };
    }
    const representation: Representation = {
      headers: staticHeadersOf(urlPath, urls),
      lastModifiedMs: Date.parse(entry.last_modified),
      identity: { body: identity, etag: entry.etag },
      variants,
    };
    resources.set(urlPath, prepareRepresentation(representation));
    if (urlPath.length > 1 && urlPath.endsWith('/')) redirects.set(urlPath.slice(0, -1), urlPath);
  }
  const dataset: ReviewsDataset = parseDataFile(dir, PATHS.reviewsJson, bodies, ReviewsDatasetSchema);
  const insights: Insights = parseDataFile(dir, PATHS.insightsJson, bodies, InsightsSchema);
  const live = createLiveData({ dataset, insights, publicUrl, changes: await readChangeLog(dir, dataset) });
  return {
    id: manifest.build_id,
    dir,
    manifest,
    resources,
    redirects,
    live,
    reviewJson: createReviewJsonCache(dataset.reviews),
    dataLastModifiedMs: Date.parse(manifest.files[PATHS.reviewsJson]!.last_modified),
    pages: await loadPageRenderer(dir),
  };
}

/** The build's change log, checked against its reviews; undefined for a build made before there was one. */
async function readChangeLog(dir: string, dataset: ReviewsDataset): Promise<ChangeLog | undefined> {
  const text = await readFile(path.join(dir, CHANGE_LOG_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  const parsed = parseChangeLog(text, new Map(dataset.reviews.map((r) => [r.id, r])));
  if (!parsed.ok) throw new Error(`${dir}/${CHANGE_LOG_FILE} ${parsed.message}`);
  return parsed.log;
}

/**
 * The build's data files are parsed here, once, into typed values; everything downstream trusts the
 * types. The parsed JSON itself is kept (the schema only checks it), so a live answer re-serialises
 * exactly the bytes and key order of the file, and an answer and its snapshot stay byte-identical.
 */
function parseDataFile<T>(distDir: string, urlPath: string, bodies: ReadonlyMap<string, Buffer>, schema: z.ZodType<T>): T {
  const body = bodies.get(urlPath);
  if (!body) throw new Error(`${distDir} has no ${urlPath}: not a complete build`);
  const json: unknown = JSON.parse(body.toString('utf8'));
  const checked = parseWithIssues(schema, json);
  if (!checked.ok) throw new Error(`${distDir}${urlPath} does not match its schema:\n${checked.issues.map(formatIssue).join('\n')}`);
  return json as T;
}
