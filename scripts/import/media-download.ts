/**
 * Customers' photos fetched by an import (issue 22 item 2) and stored in the content folder under
 * `media/<review id>/<content hash>.<ext>`, never kept as a platform's link (those expire).
 *
 * Downloads go through the service's outbound client (sidecar/outbound/): HTTPS only, every
 * address the host resolves to checked by the address rules (no cloud-metadata address ever, no
 * loopback or private one unless allowed), the socket pinned to the checked address, a time limit, and at
 * most MEDIA_LIMITS.maxBytes read. Redirects are followed here, at most MAX_REDIRECTS, each hop checked
 * the same way. A file is named by the hash of its bytes: the same photo imported again is the same
 * name, found on disk, and nothing is written. What is written is the photo without its metadata
 * (scripts/lib/media/strip-metadata.ts: no location, no name; the orientation kept).
 */
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createOutboundClient } from '../../sidecar/outbound/outbound-client.ts';
import { MEDIA_LIMITS } from '../../core/media/media-variants.ts';
import type { MediaContent } from '../../core/schemas/content.ts';
import { sniffImageExtension } from '../lib/media/image-format.ts';
import { stripPhotoMetadata } from '../lib/media/strip-metadata.ts';

export const MAX_REDIRECTS = 3;
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * A photo or video an export lists by URL, still to be downloaded. `localCopy`: where the picture may
 * already be on disk (a backup of a build keeps `media/` beside `reviews.json`); read from there when it is.
 */
export type RemoteMedia = ({ kind: 'photo'; url: string } | { kind: 'video'; url: string; posterUrl: string }) & {
  alt?: string;
  localCopy?: string;
  /** A file named by path (a CSV's photos column): never fetched over the network. */
  localOnly?: boolean;
};

export type DownloadResult = { ok: true; bytes: Buffer } | { ok: false; message: string };
export type MediaDownloader = { download(url: string): Promise<DownloadResult>; close(): void };

export function createMediaDownloader(options: { allowPrivate: boolean; ca?: string }): MediaDownloader {
  const client = createOutboundClient({
    subject: { noun: 'the photo', refusal: 'which imports do not fetch' },
    allowPrivate: options.allowPrivate,
    ca: options.ca,
    maxResponseBytes: MEDIA_LIMITS.maxBytes + 1,
    connectTimeoutMs: 10_000,
    responseTimeoutMs: DOWNLOAD_TIMEOUT_MS,
    maxConcurrencyPerHost: 4,
    userAgent: 'reviews-service-import/1.0',
  });
  async function download(url: string): Promise<DownloadResult> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const result = await client.send({ method: 'GET', url: current });
      if (!result.ok) return { ok: false, message: result.message };
      const { status, body, truncated, location } = result.response;
      if (status >= 300 && status < 400 && location !== undefined) {
        current = new URL(location, current).href;
        continue;
      }
      if (status !== 200) return { ok: false, message: `the photo's server answered ${status}` };
      if (truncated) return { ok: false, message: `the photo is over the ${MEDIA_LIMITS.maxBytes / (1024 * 1024)} MB limit` };
      if (body.length === 0) return { ok: false, message: 'the photo is empty' };
      return { ok: true, bytes: body };
    }
    return { ok: false, message: `more than ${MAX_REDIRECTS} redirects` };
  }
  return { download, close: () => client.close() };
}

export type StoredMedia = { media: MediaContent[]; failures: string[]; written: number };

/**
 * Downloads a review's media into `contentDir`/media/<review id>/ and returns the content entries of the
 * ones that worked; each one that did not is a failure message (the review keeps the others).
 */
export async function storeRemoteMedia(contentDir: string, reviewId: string, items: readonly RemoteMedia[], downloader: MediaDownloader): Promise<StoredMedia> {
  const out: StoredMedia = { media: [], failures: [], written: 0 };
  const fetched = await Promise.all(
    items.map(
      (item) =>
        readLocalCopy(item.localCopy) ??
        (item.localOnly ? Promise.resolve<DownloadResult>({ ok: false, message: 'file not found' }) : downloader.download(item.kind === 'photo' ? item.url : item.posterUrl)),
    ),
  );
  for (const [i, item] of items.entries()) {
    // Each refused file by name (the path as the export wrote it, or the URL), not only its position.
    const what = `${item.kind} ${i + 1} of ${items.length} (${item.kind === 'photo' ? item.url : item.posterUrl})`;
    const result = fetched[i]!;
    if (!result.ok) {
      out.failures.push(`${what}: ${result.message}`);
      continue;
    }
    const extension = sniffImageExtension(result.bytes);
    if (extension === undefined) {
      out.failures.push(`${what}: not a JPEG, PNG, WebP or AVIF image`);
      continue;
    }
    // Named by the downloaded bytes, stored without their metadata (a customer's location, a name): the
    // same photo imported again finds its file, and the content repository never holds the metadata.
    const file = `media/${reviewId}/${createHash('sha256').update(result.bytes).digest('hex').slice(0, 16)}.${extension}`;
    if (await writeIfMissing(path.join(contentDir, file), () => stripPhotoMetadata(result.bytes))) out.written++;
    // The cut may split a surrogate pair: its lone first half goes too.
    const alt = item.alt === undefined || item.alt.trim() === '' ? {} : { alt: item.alt.trim().slice(0, 1000).replace(/[\uD800-\uDBFF]$/, '') };
    out.media.push(item.kind === 'photo' ? { file, ...alt } : { video_url: item.url, poster: file, ...alt });
  }
  return out;
}

function readLocalCopy(file: string | undefined): Promise<DownloadResult> | undefined {
  if (file === undefined || !existsSync(file)) return undefined;
  return stat(file).then(async (info): Promise<DownloadResult> =>
    info.size > MEDIA_LIMITS.maxBytes ? { ok: false, message: `${file} is over the ${MEDIA_LIMITS.maxBytes / (1024 * 1024)} MB limit` } : { ok: true, bytes: await readFile(file) },
  );
}

async function writeIfMissing(target: string, content: () => Promise<Buffer>): Promise<boolean> {
  const exists = await stat(target).then(() => true, () => false);
  if (exists) return false;
  const bytes = await content();
  await mkdir(path.dirname(target), { recursive: true });
  await replaceFile(target, bytes);
  return true;
}
