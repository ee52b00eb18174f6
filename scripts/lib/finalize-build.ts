/**
 * After Astro has written a build: precompress every compressible file (brotli and gzip), give
 * every variant its own strong ETag, and write the manifest and the `_headers` file.
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
  SERVER_DIR,
  strongEtag,
  urlPathOfFile,
  type Manifest,
  type ManifestEntry,
} from '../../core/publishing/manifest.ts';
import { contentTypeOf, isCompressible, renderHostHeadersFile } from '../../core/publishing/headers.ts';
import type { ServiceUrls } from '../../core/urls.ts';
import { createConcurrencyLimiter } from '../../core/concurrency-limiter.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const MIN_COMPRESS_BYTES = 256;

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (rel === SERVER_DIR) continue;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, rel)));
    else if (entry.isFile() && !/\.(br|gz)$/.test(rel) && rel !== MANIFEST_FILE && rel !== HEADERS_FILE && rel !== CHANGE_LOG_FILE) files.push(rel);
  }
  return files.sort();
}

/** Large files get a faster brotli level: quality 11 costs about a second per megabyte. */
function brotliQuality(size: number): number {
  return size <= 1 << 20 ? 11 : size <= 8 << 20 ? 7 : 5;
}

export async function finalizeBuild(
  dir: string,
  options: { urls: ServiceUrls; dataDate: string | undefined; previous: Manifest | undefined; source: string },
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
      last_modified: lastModifiedFor({ dataDate: options.dataDate, etag, previous: options.previous?.files[urlPath] }),
      encodings: {},
    };
    if (isCompressible(type) && bytes.length >= MIN_COMPRESS_BYTES) {
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length),
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: bytes.length <= 8 << 20 ? 9 : 6 }),
      ]);
      if (br.length < bytes.length) {
        await writeFile(path.join(dir, `${file}.br`), br);
        entry.encodings.br = { file: `${file}.br`, etag: strongEtag(br), size: br.length };
      }
      if (gz.length < bytes.length) {
        await writeFile(path.join(dir, `${file}.gz`), gz);
        entry.encodings.gzip = { file: `${file}.gz`, etag: strongEtag(gz), size: gz.length };
      }
    }
    files[urlPath] = entry;
  };
  await Promise.all((await listFiles(dir)).map((file) => limiter.run('files', () => finalizeFile(file))));
  const manifest: Manifest = { build_id: computeBuildId(files), source: options.source, files };
  await writeFile(path.join(dir, MANIFEST_FILE), renderManifest(manifest));
  await writeFile(path.join(dir, HEADERS_FILE), renderHostHeadersFile(Object.keys(files), options.urls));
  return manifest;
}
