/**
 * After Astro has written a build: precompress every compressible file (brotli and gzip), give
 * every variant its own strong ETag, and write the manifest and the `_headers` file.
 *
 * A file whose bytes the previous build already served takes that build's variants (each checked
 * against its ETag) instead of compressing again: most of a publish's files are unchanged, and
 * compression is most of the time left after Astro.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { availableParallelism } from 'node:os';
import { brotliCompress, constants, gzip } from 'node:zlib';
import {
  CHANGE_LOG_FILE,
  computeBuildId,
  HEADERS_FILE,
  lastModifiedFor,
  MANIFEST_FILE,
  renderManifest,
  SEARCH_PAGE_SHELL_FILE,
  strongEtag,
  urlPathOfFile,
  type Encoding,
  type Manifest,
  type ManifestEntry,
} from '../../core/publishing/manifest.ts';
import { contentTypeOf, isCompressible, renderHostHeadersFile } from '../../core/publishing/headers.ts';
import { LANGUAGE_FILE } from '../../core/publishing/site-language.ts';
import { PATHS, type ServiceUrls } from '../../core/urls.ts';
import { createConcurrencyLimiter } from '../../core/concurrency-limiter.ts';

/** The build being replaced: its folder and manifest (core/publishing/build-folders-fs.ts readPreviousBuild). */
export type PreviousBuild = { dir: string; manifest: Manifest };

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const MIN_COMPRESS_BYTES = 256;

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, rel)));
    else if (entry.isFile() && !/\.(br|gz)$/.test(rel) && rel !== MANIFEST_FILE && rel !== HEADERS_FILE && rel !== CHANGE_LOG_FILE && rel !== SEARCH_PAGE_SHELL_FILE && rel !== LANGUAGE_FILE) files.push(rel);
  }
  return files.sort();
}

/**
 * Brotli's level by size. Quality 11 costs about 1.3 s per megabyte here and 10 a third of that for
 * 2 % more bytes (measured on a build's files: 1.92 MB in 8.9 s against 1.95 MB in 3.6 s), so no file
 * gets 11; large files get faster levels still.
 */
function brotliQuality(size: number): number {
  return size <= 1 << 20 ? 10 : size <= 8 << 20 ? 7 : 5;
}

async function compressVariants(bytes: Buffer): Promise<Partial<Record<Encoding, Buffer>>> {
  const [br, gzip] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length),
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: bytes.length <= 8 << 20 ? 9 : 6 }),
  ]);
  return { br, gzip };
}

/** The previous build's variants of the same bytes, each as its ETag says; undefined if one is not. */
async function previousVariants(previous: PreviousBuild | undefined, urlPath: string, etag: string): Promise<Partial<Record<Encoding, Buffer>> | undefined> {
  const entry = previous?.manifest.files[urlPath];
  if (!previous || entry?.etag !== etag) return undefined;
  const variants = Object.entries(entry.encodings) as [Encoding, { file: string; etag: string }][];
  if (variants.length === 0) return undefined;
  const found: Partial<Record<Encoding, Buffer>> = {};
  for (const [encoding, variant] of variants) {
    const bytes = await readFile(path.join(previous.dir, variant.file)).catch(() => undefined);
    if (!bytes || strongEtag(bytes) !== variant.etag) return undefined;
    found[encoding] = bytes;
  }
  return found;
}

const VARIANT_SUFFIX: Record<Encoding, string> = { br: 'br', gzip: 'gz' };

export async function finalizeBuild(
  dir: string,
  options: { urls: ServiceUrls; dataDate: string | undefined; previous: PreviousBuild | undefined; source: string; distDir: string },
): Promise<Manifest> {
  const files: Manifest['files'] = {};
  // A few files at a time: each compression holds its input and a native encoder, and starting all of
  // them at once took the build process past 2 GB at 100k reviews.
  const parallel = availableParallelism();
  const limiter = createConcurrencyLimiter({ overall: parallel, perKey: parallel });
  const finalizeFile = async (file: string) => {
    const urlPath = urlPathOfFile(file);
    const bytes = await readFile(path.join(dir, file));
    const type = contentTypeOf(urlPath);
    const etag = strongEtag(bytes);
    const entry: ManifestEntry = {
      file,
      type,
      etag,
      size: bytes.length,
      last_modified: lastModifiedFor({ dataDate: options.dataDate, etag, previous: options.previous?.manifest.files[urlPath] }),
      encodings: {},
    };
    // A review's proof is mostly base64 and changes with every checkpoint: one per review, compressing
    // them would cost a publish at 100k reviews minutes for a quarter of their bytes.
    if (isCompressible(type) && bytes.length >= MIN_COMPRESS_BYTES && !urlPath.startsWith(PATHS.logProofPrefix)) {
      const variants = (await previousVariants(options.previous, urlPath, etag)) ?? (await compressVariants(bytes));
      for (const [encoding, variant] of Object.entries(variants) as [Encoding, Buffer][]) {
        if (variant.length >= bytes.length) continue;
        const variantFile = `${file}.${VARIANT_SUFFIX[encoding]}`;
        await writeFile(path.join(dir, variantFile), variant);
        entry.encodings[encoding] = { file: variantFile, etag: strongEtag(variant), size: variant.length };
      }
    }
    files[urlPath] = entry;
  };
  await Promise.all((await listFiles(dir)).map((file) => limiter.run('files', () => finalizeFile(file))));
  const manifest: Manifest = { build_id: computeBuildId(files), source: options.source, public_url: options.urls.base, dist_dir: options.distDir, files };
  await writeFile(path.join(dir, MANIFEST_FILE), renderManifest(manifest));
  await writeFile(path.join(dir, HEADERS_FILE), renderHostHeadersFile(Object.keys(files), options.urls));
  return manifest;
}
