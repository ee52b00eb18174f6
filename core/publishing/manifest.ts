/**
 * The build manifest: every served file with its content hash (the strong ETag), type, size,
 * Last-Modified and precompressed variants. The sidecar serves from it; a CDN gets `_headers`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const MANIFEST_FILE = '_manifest.json';
export const HEADERS_FILE = '_headers';
/**
 * The search page's shell (site/pages/search/index.astro), which the sidecar fills for each query
 * (core/pages/search-page.ts): never served as a file and never listed in the manifest.
 */
export const SEARCH_PAGE_SHELL_FILE = '_search-page.html';
/**
 * The build's change log (core/dataset/change-log.ts), beside its files: the sidecar answers
 * `GET /api/reviews/changes` from it; never served as a file and never listed in the manifest.
 */
export const CHANGE_LOG_FILE = '_changes.json';

export const EncodingSchema = z.enum(['br', 'gzip']);
export type Encoding = z.infer<typeof EncodingSchema>;

const VariantSchema = z.object({ file: z.string(), etag: z.string(), size: z.int().min(0) });

export const ManifestEntrySchema = z.object({
  /** Path of the file inside the build folder. */
  file: z.string(),
  type: z.string(),
  etag: z.string(),
  size: z.int().min(0),
  /** ISO date-time; see lastModifiedFor. */
  last_modified: z.string(),
  encodings: z.partialRecord(EncodingSchema, VariantSchema),
});

export const ManifestSchema = z.object({
  /** Hash of every entry: equal builds have equal ids. */
  build_id: z.string(),
  /** Fingerprint of what the build was made from (content, PUBLIC_URL, build code): `npm start` rebuilds when it differs. */
  source: z.string().optional(),
  /**
   * The PUBLIC_URL and the DIST_DIR (its absolute path) the build was made for: a service swaps in only a
   * build made for its own address and folder, and pruning and recovery in `.builds/` touch only their
   * own folder's builds (sidecar/builds/build-target.ts, build-folders-fs.ts). Absent in older builds.
   */
  public_url: z.string().optional(),
  dist_dir: z.string().optional(),
  /** URL path → entry. */
  files: z.record(z.string(), ManifestEntrySchema),
});

export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;
export type Manifest = z.infer<typeof ManifestSchema>;

/** A strong entity tag (RFC 9110 §8.8.3) from the bytes themselves. */
export function strongEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/** The URL path a built file answers at: `x/index.html` at `/x/`, everything else at its own path. */
export function urlPathOfFile(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file}`;
}

/**
 * Last-Modified comes from the data (the newest review or reply date), so rebuilding unchanged
 * content keeps it. When a file's bytes change but that date does not move (an edited review, a
 * code change), the previous value plus one second is used, so If-Modified-Since never hides a change.
 */
export function lastModifiedFor(input: { dataDate: string | undefined; etag: string; previous?: ManifestEntry }): string {
  const base = input.dataDate ? `${input.dataDate}T00:00:00.000Z` : '1970-01-01T00:00:00.000Z';
  const previous = input.previous;
  if (!previous) return base;
  if (previous.etag === input.etag) return previous.last_modified;
  const bumped = new Date(Date.parse(previous.last_modified) + 1000).toISOString();
  return bumped > base ? bumped : base;
}

export function computeBuildId(files: Manifest['files']): string {
  const hash = createHash('sha256');
  for (const path of Object.keys(files).sort()) hash.update(`${path}\0${files[path]!.etag}\0${files[path]!.last_modified}\n`);
  return hash.digest('base64url').slice(0, 16);
}

/** Deterministic serialisation: keys sorted, so equal builds write equal manifests. */
export function renderManifest(manifest: Manifest): string {
  const files = Object.fromEntries(Object.keys(manifest.files).sort().map((k) => [k, manifest.files[k]!]));
  const { build_id, source, public_url, dist_dir } = manifest;
  return `${JSON.stringify({ build_id, source, public_url, dist_dir, files }, null, 1)}\n`;
}
