/**
 * The heavy half of loading a build, run in a worker thread (load-worker.ts): every file the manifest
 * lists, read; `/reviews.json`, `/insights.json` and `_changes.json` parsed and checked against their
 * schemas; the search index built. Nothing here touches the serving thread, so a publish at 10k reviews
 * costs the requests in flight only the hand-over (load-build.ts), not the 100–400 ms this took on the
 * event loop (issue 32 item 2).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { parseChangeLog, type ChangeLog } from '../../core/dataset/change-log.ts';
import { createLiveData, type LiveData } from '../../core/dataset/live-data.ts';
import { CHANGE_LOG_FILE, MANIFEST_FILE, SEARCH_PAGE_SHELL_FILE, type Encoding, type Manifest, type ManifestEntry } from '../../core/publishing/manifest.ts';
import { InsightsSchema, type Insights } from '../../core/schemas/insights.ts';
import { formatIssue, parseWithIssues } from '../../core/schemas/issues.ts';
import { ReviewsDatasetSchema, type ReviewsDataset } from '../../core/schemas/published.ts';
import { ENGLISH, LANGUAGE_FILE, SiteLanguageSchema, type SiteLanguage } from '../../core/publishing/site-language.ts';
import { PATHS, isTopicPath, type ServiceUrls } from '../../core/urls.ts';

/**
 * One built file: its bytes and those of each precompressed variant, with their ETags. A WebSub topic's
 * bytes are in shared memory with their SHA-256 (hex), hashed here: the hub compares and stores them on
 * other threads (websub/store/sqlite/threaded-store.ts), and 9 MB copied or hashed on the serving thread is 50 ms.
 */
export type FileRead = {
  urlPath: string;
  lastModified: string;
  identity: { body: Uint8Array; etag: string; sha256?: string };
  variants: [Encoding, { body: Uint8Array; etag: string }][];
};

/**
 * `kept`: the URL paths of files the build in service holds with the same bytes (`servedFiles`), which are
 * not read into `files`. `searchShell`: the search page's shell (core/pages/search-page.ts), undefined for a
 * build made before there was one. `language`: the site's language (core/publishing/site-language.ts), English
 * for a build without `_language.json`.
 */
export type BuildRead = { manifest: Manifest; files: FileRead[]; kept: string[]; live: LiveData; searchShell: string | undefined; language: SiteLanguage };

/**
 * What a manifest entry says of the bytes served at its path: two entries with the same key are served
 * alike. Each ETag is the SHA-256 of its bytes (manifest.ts), so the same ETags are the same bytes.
 */
export function servedKey(entry: ManifestEntry): string {
  const variants = (Object.entries(entry.encodings) as [Encoding, { etag: string }][]).map(([coding, v]) => `${coding}=${v.etag}`).sort();
  return [entry.type, entry.etag, entry.last_modified, ...variants].join(' ');
}

/** The data files read whatever else is kept: the live routes are made from them. */
const DATA_FILES = new Set<string>([PATHS.reviewsJson, PATHS.insightsJson]);

/**
 * Reads the build in `dir` (its own real folder), whose manifest (readManifest) is `manifest`; throws, naming what is wrong, when it is not a complete build.
 * `servedFiles` (URL path → `servedKey`) are the files of the build in service: a file with the same key, of
 * the size its entry says, is listed in `kept` instead of read (a publish changes a few files; the serving
 * thread then takes the rest from the build it holds, issue 32).
 */
export async function readBuild(dir: string, manifest: Manifest | undefined, urls: ServiceUrls, servedFiles?: ReadonlyMap<string, string>): Promise<BuildRead> {
  if (!manifest) throw new Error(`${dir} has no readable ${MANIFEST_FILE}: not a complete build`);
  const files: FileRead[] = [];
  const kept: string[] = [];
  const bodies = new Map<string, Uint8Array>();
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    if (servedFiles?.get(urlPath) === servedKey(entry) && (await sizesMatch(dir, entry))) {
      kept.push(urlPath);
      if (DATA_FILES.has(urlPath)) bodies.set(urlPath, await readFile(path.join(dir, entry.file)));
      continue;
    }
    const read = await readFile(path.join(dir, entry.file));
    const identity = isTopicPath(urlPath) ? inSharedMemory(read) : read;
    bodies.set(urlPath, identity);
    const variants: FileRead['variants'] = [];
    for (const [coding, variant] of Object.entries(entry.encodings) as [Encoding, { file: string; etag: string }][]) {
      variants.push([coding, { body: await readFile(path.join(dir, variant.file)), etag: variant.etag }]);
    }
    const sha256 = isTopicPath(urlPath) ? createHash('sha256').update(identity).digest('hex') : undefined;
    files.push({ urlPath, lastModified: entry.last_modified, identity: { body: identity, etag: entry.etag, ...(sha256 && { sha256 }) }, variants });
  }
  const dataset: ReviewsDataset = parseDataFile(dir, PATHS.reviewsJson, bodies, ReviewsDatasetSchema);
  const insights: Insights = parseDataFile(dir, PATHS.insightsJson, bodies, InsightsSchema);
  const live = createLiveData({ dataset, insights, urls, changes: await readChangeLog(dir, dataset) });
  return { manifest, files, kept, live, searchShell: await readOptional(path.join(dir, SEARCH_PAGE_SHELL_FILE)), language: await readLanguage(dir) };
}

/** The site's language, checked against its schema; English when the build has no `_language.json`. */
async function readLanguage(dir: string): Promise<SiteLanguage> {
  const text = await readOptional(path.join(dir, LANGUAGE_FILE));
  if (text === undefined) return ENGLISH;
  const checked = parseWithIssues(SiteLanguageSchema, JSON.parse(text));
  if (!checked.ok) throw new Error(`${dir}/${LANGUAGE_FILE} does not match its schema:\n${checked.issues.map(formatIssue).join('\n')}`);
  return checked.value;
}

/** The file and its variants are there, each of the size its entry says: a kept file is checked, not read. */
async function sizesMatch(dir: string, entry: ManifestEntry): Promise<boolean> {
  const parts = [{ file: entry.file, size: entry.size }, ...Object.values(entry.encodings)];
  for (const part of parts) {
    const found = await stat(path.join(dir, part.file)).catch(() => undefined);
    if (found?.size !== part.size) return false;
  }
  return true;
}

/** The build's change log, checked against its reviews; undefined for a build made before there was one. */
async function readChangeLog(dir: string, dataset: ReviewsDataset): Promise<ChangeLog | undefined> {
  const text = await readOptional(path.join(dir, CHANGE_LOG_FILE));
  if (text === undefined) return undefined;
  const parsed = parseChangeLog(text, new Map(dataset.reviews.map((r) => [r.id, r])));
  if (!parsed.ok) throw new Error(`${dir}/${CHANGE_LOG_FILE} ${parsed.message}`);
  return parsed.log;
}

/** A file of the build that older builds lack: its text, or undefined when there is none. */
async function readOptional(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * The build's data files are parsed here, once, into typed values; everything downstream trusts the
 * types. The parsed JSON itself is kept (the schema only checks it), so a live answer re-serialises
 * exactly the bytes and key order of the file, and an answer and its snapshot stay byte-identical.
 */
function parseDataFile<T>(distDir: string, urlPath: string, bodies: ReadonlyMap<string, Uint8Array>, schema: z.ZodType<T>): T {
  const body = bodies.get(urlPath);
  if (!body) throw new Error(`${distDir} has no ${urlPath}: not a complete build`);
  const json: unknown = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  const checked = parseWithIssues(schema, json);
  if (!checked.ok) throw new Error(`${distDir}${urlPath} does not match its schema:\n${checked.issues.map(formatIssue).join('\n')}`);
  return json as T;
}

/** The bytes in a SharedArrayBuffer of their own: passed between threads without a copy. */
function inSharedMemory(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}
