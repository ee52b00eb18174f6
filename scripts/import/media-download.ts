/**
 * Customers' photos fetched by an import (issue 22 item 2) and stored in the content folder under
 * `media/<review id>/<content hash>.<ext>`, never kept as a platform's link (those expire).
 *
 * Downloads go through the service's outbound client (sidecar/outbound/): HTTPS only, every
 * address the host resolves to checked by the address rules (no cloud-metadata address ever, no
 * loopback or private one unless allowed), the socket pinned to the checked address, a time limit, and at
 * most MEDIA_LIMITS.maxBytes read. Redirects are followed here, at most MAX_REDIRECTS, each hop checked
 * the same way. A file is named by the hash of its bytes: the same photo imported again is the same
 * name, found on disk, and nothing is written.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createOutboundClient } from '../../sidecar/outbound/outbound-client.ts';
import { MEDIA_LIMITS } from '../../core/media/media-variants.ts';
import type { MediaContent } from '../../core/schemas/content.ts';

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

/** The extension of an image by its first bytes, or undefined for anything the build does not take. */
export function sniffImageExtension(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]$/.test(bytes.subarray(8, 12).toString('latin1'))) return 'avif';
  return undefined;
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
        (item.localOnly ? Promise.resolve<DownloadResult>({ ok: false, message: `${item.url}: file not found` }) : downloader.download(item.kind === 'photo' ? item.url : item.posterUrl)),
    ),
  );
  for (const [i, item] of items.entries()) {
    const what = `${item.kind} ${i + 1} of ${items.length}`;
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
    const file = `media/${reviewId}/${createHash('sha256').update(result.bytes).digest('hex').slice(0, 16)}.${extension}`;
    if (await writeIfMissing(path.join(contentDir, file), result.bytes)) out.written++;
    const alt = item.alt === undefined || item.alt.trim() === '' ? {} : { alt: item.alt.trim().slice(0, 1000) };
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

async function writeIfMissing(target: string, bytes: Buffer): Promise<boolean> {
  const exists = await stat(target).then(() => true, () => false);
  if (exists) return false;
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  return true;
}
