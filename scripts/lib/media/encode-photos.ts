/**
 * The build's photos (issue 22 "Safe and small"): every photo and video poster the reviews name is
 * checked (present, under the size limit, a JPEG, PNG, WebP or AVIF that decodes) and encoded with sharp
 * into the widths of core/media/media-variants.ts, in WebP and JPEG. Encoding turns the picture upright
 * (EXIF orientation) and writes no metadata at all: no EXIF, so no GPS location, no camera, no ICC
 * profile (pixels are converted to sRGB first). The same source gives the same bytes, and the encoded
 * files are cached by the hash of the source (and of the encoder settings), so a photo that did not change
 * is never encoded again.
 */
import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { z } from 'zod';
import { createConcurrencyLimiter } from '../../../core/concurrency-limiter.ts';
import type { ContentProblem } from '../../../core/content/problems.ts';
import { readContentFile } from '../../../core/read-content-file.ts';
import {
  EncodedPhotoSchema,
  MEDIA_LIMITS,
  mediaFileOf,
  planVariantWidths,
  variantName,
  type EncodedPhoto,
  type MediaCatalog,
  type VariantFormat,
} from '../../../core/media/media-variants.ts';
import type { ReviewContent } from '../../../core/schemas/content.ts';
import { sniffImageExtension } from './image-format.ts';
import { findPrivateMetadata, PRIVACY_RULES } from './strip-metadata.ts';
import { compareText } from '../../../core/text/text-rules.ts';

const SUPPORTED = new Set(['jpeg', 'png', 'webp', 'heif']);
const ENCODE = {
  webp: { quality: 75, effort: 4, smartSubsample: true },
  jpeg: { quality: 78, mozjpeg: true },
} as const;
/** Part of every cache key: a new sharp or new settings encode everything again. */
const ENCODER_KEY = createHash('sha256')
  .update(JSON.stringify({ sharp: sharp.versions, ENCODE, limits: MEDIA_LIMITS, v: 1 }))
  .digest('hex')
  .slice(0, 12);

export type EncodePhotosResult =
  /** `warnings`: originals that still carry a location or a name (strip-metadata.ts), one per file. */
  | { ok: true; catalog: MediaCatalog; encoded: number; cached: number; warnings: ContentProblem[] }
  | { ok: false; problems: ContentProblem[] };

type Use = { review: string; field: string };

/**
 * Checks and encodes every media file of `reviews` (published or not: a broken file is a broken
 * content folder either way). Every problem is reported, each naming the review, the file and why.
 */
export async function encodeContentPhotos(options: { contentDir: string; cacheDir: string; reviews: readonly ReviewContent[] }): Promise<EncodePhotosResult> {
  const uses = new Map<string, Use[]>();
  for (const review of options.reviews) {
    review.media?.forEach((item, i) => {
      const file = mediaFileOf(item);
      const field = `media.${i}.${'file' in item ? 'file' : 'poster'}`;
      uses.set(file, [...(uses.get(file) ?? []), { review: review.id, field }]);
    });
  }
  const cacheRoot = path.join(options.cacheDir, ENCODER_KEY);
  const catalog = new Map<string, EncodedPhoto>();
  const problems: ContentProblem[] = [];
  const warnings: ContentProblem[] = [];
  let encoded = 0;
  // Reading, hashing and the cache lookup are I/O: many at once. sharp spreads one image over libvips'
  // threads already, so two encodings at a time keep both cores busy.
  const limiter = createConcurrencyLimiter({ overall: 32, perKey: 32 });
  const encoder = createConcurrencyLimiter({ overall: 2, perKey: 2 });
  await Promise.all(
    [...uses.keys()].sort().map((file) =>
      limiter.run('photos', async () => {
        const result = await encodeOne(options.contentDir, file, cacheRoot, (task) => encoder.run('encode', task));
        if (!result.ok) {
          for (const use of uses.get(file)!) problems.push({ file, review: use.review, field: use.field, message: result.reason });
          return;
        }
        if (result.encoded) encoded++;
        catalog.set(file, result.photo);
        if (result.privacy.length > 0) {
          const use = uses.get(file)![0]!;
          warnings.push({ file, review: use.review, field: use.field, message: `the original still carries ${result.privacy.join(' and ')} (published copies never do); npm run photos:strip removes it` });
        }
      }),
    ),
  );
  const byFile = (a: ContentProblem, b: ContentProblem) => compareText(a.file, b.file);
  if (problems.length > 0) return { ok: false, problems: problems.sort(byFile) };
  return { ok: true, catalog, encoded, cached: catalog.size - encoded, warnings: warnings.sort(byFile) };
}

type Encoded = { ok: true; photo: EncodedPhoto; encoded: boolean } | { ok: false; reason: string };
type EncodeOne = (Extract<Encoded, { ok: true }> & { privacy: string[] }) | Extract<Encoded, { ok: false }>;

async function encodeOne(contentDir: string, file: string, cacheRoot: string, inEncoderSlot: <T>(task: () => Promise<T>) => Promise<T>): Promise<EncodeOne> {
  // The content folder is untrusted: a FIFO, a device or a link out of the folder is refused, never read.
  const read = await readContentFile(contentDir, file, MEDIA_LIMITS.maxBytes);
  if (!read.ok) return { ok: false, reason: read.reason };
  const bytes = read.bytes;
  if (bytes.length === 0) return { ok: false, reason: 'is empty' };
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const dir = path.join(cacheRoot, hash);
  const cached = await readCached(dir);
  const result: Encoded = cached ? { ok: true, photo: cached.photo, encoded: false } : await inEncoderSlot(() => encodeNew(bytes, hash, dir));
  if (!result.ok) return result;
  return { ...result, privacy: cached?.privacy ?? (await keepPrivacy(dir, await findPrivateMetadata(bytes))) };
}

async function encodeNew(bytes: Buffer, hash: string, dir: string): Promise<Encoded> {
  const input = () => sharp(bytes, { limitInputPixels: MEDIA_LIMITS.maxPixels, failOn: 'error' });
  let upright: { width: number; height: number };
  try {
    // The header only, without the pixel limit, so a decompression bomb is reported with its size;
    // nothing is decoded until the limit is checked below.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!SUPPORTED.has(meta.format ?? '') || (meta.format === 'heif' && meta.compression !== 'av1')) {
      return { ok: false, reason: `unsupported image format ${meta.format ?? 'unknown'} (use JPEG, PNG, WebP or AVIF)` };
    }
    if (meta.width * meta.height > MEDIA_LIMITS.maxPixels) {
      return { ok: false, reason: `is ${meta.width}×${meta.height} pixels, over the ${MEDIA_LIMITS.maxPixels / 1e6}-megapixel limit` };
    }
    upright = meta.autoOrient;
  } catch (error) {
    return { ok: false, reason: `not a readable image (${describeSharpError(error, bytes)})` };
  }

  const staging = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await mkdir(staging, { recursive: true });
  try {
    const variants: EncodedPhoto['variants'] = [];
    for (const width of planVariantWidths(upright.width)) {
      for (const format of ['webp', 'jpeg'] as const) {
        const { data, info } = await encodeVariant(input(), width, format);
        const name = variantName(hash, info.width, format);
        await writeFile(path.join(staging, name), data);
        variants.push({ name, format, width: info.width, height: info.height, size: data.length });
      }
    }
    const photo: EncodedPhoto = { hash, width: upright.width, height: upright.height, variants };
    await writeFile(path.join(staging, 'photo.json'), JSON.stringify(photo));
    // Another build may have encoded the same photo meanwhile: either copy is the same bytes.
    await rename(staging, dir).catch(async () => rm(staging, { recursive: true, force: true }));
    return { ok: true, photo, encoded: true };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    return { ok: false, reason: `not a readable image (${describeSharpError(error, bytes)})` };
  }
}

function encodeVariant(image: Sharp, width: number, format: VariantFormat) {
  // autoOrient applies the EXIF orientation; sharp writes no metadata unless asked (keepMetadata).
  const pipeline = image.autoOrient().resize({ width, withoutEnlargement: true });
  return (format === 'webp' ? pipeline.webp(ENCODE.webp) : pipeline.jpeg(ENCODE.jpeg)).toBuffer({ resolveWithObject: true });
}

/**
 * The encodings kept for a source, and what its original still says about a person when that was kept
 * too. The folder's listing says both which variants are there and whether the privacy answer is: reading
 * every original's metadata again cost a 2,000-photo rebuild half a second, and the one listing replaces a
 * `stat` per variant.
 */
async function readCached(dir: string): Promise<{ photo: EncodedPhoto; privacy: string[] | undefined } | undefined> {
  try {
    const names = new Set(await readdir(dir));
    const photo = EncodedPhotoSchema.parse(JSON.parse(await readFile(path.join(dir, 'photo.json'), 'utf8')));
    if (!photo.variants.every((v) => names.has(v.name))) return undefined;
    return { photo, privacy: await readKeptPrivacy(dir, names) };
  } catch {
    return undefined;
  }
}

/**
 * The privacy answer (strip-metadata.ts) depends on the original's bytes, which the folder is named by, and
 * on the rules, whose version the file name carries: `privacy-<rules>.none` when the original says
 * nothing, `privacy-<rules>.json` with the findings when it does.
 */
const PRIVACY_NONE = `privacy-${PRIVACY_RULES}.none`;
const PRIVACY_FOUND = `privacy-${PRIVACY_RULES}.json`;

async function readKeptPrivacy(dir: string, names: ReadonlySet<string>): Promise<string[] | undefined> {
  if (names.has(PRIVACY_NONE)) return [];
  if (!names.has(PRIVACY_FOUND)) return undefined;
  return z.array(z.string()).parse(JSON.parse(await readFile(path.join(dir, PRIVACY_FOUND), 'utf8')));
}

/** Keeps the answer beside the encodings; keeping it is only a saving, so a failure to write costs nothing. */
async function keepPrivacy(dir: string, found: string[]): Promise<string[]> {
  const file = path.join(dir, found.length === 0 ? PRIVACY_NONE : PRIVACY_FOUND);
  const staging = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(staging, found.length === 0 ? '' : JSON.stringify(found))
    .then(() => rename(staging, file))
    .catch(() => rm(staging, { force: true }));
  return found;
}

/** Copies the encoded files of `files` (content paths) into `outDir`/media/. */
export async function copyPublishedPhotos(options: { catalog: MediaCatalog; files: Iterable<string>; cacheDir: string; outDir: string }): Promise<number> {
  const target = path.join(options.outDir, 'media');
  await mkdir(target, { recursive: true });
  const cacheRoot = path.join(options.cacheDir, ENCODER_KEY);
  const names = new Map<string, string>();
  for (const file of options.files) {
    const photo = options.catalog.get(file);
    if (photo === undefined) continue;
    for (const v of photo.variants) names.set(v.name, path.join(cacheRoot, photo.hash, v.name));
  }
  const limiter = createConcurrencyLimiter({ overall: 16, perKey: 16 });
  // A hard link costs no bytes and a third of a copy's time; across file systems it is a copy.
  const place = (from: string, to: string) => link(from, to).catch(() => copyFile(from, to));
  await Promise.all([...names].map(([name, from]) => limiter.run('copy', () => place(from, path.join(target, name)))));
  return names.size;
}

/**
 * sharp's messages carry libvips' own lines; the first says what went wrong. libvips keeps one error
 * buffer for all its threads, so when several photos fail at once a message can be lost ("Unknown
 * error"): the file's own structure then says what it can.
 */
function describeSharpError(error: unknown, bytes: Buffer): string {
  const message = String((error as Error).message ?? error).split('\n')[0]!.trim();
  if (message !== '' && message !== 'Unknown error') return message;
  return describeDamage(bytes) ?? 'the decoder gave no reason; the file is probably damaged';
}

/** A truncated JPEG has no end-of-image marker; a truncated PNG no IEND chunk. */
function describeDamage(bytes: Buffer): string | undefined {
  const format = sniffImageExtension(bytes);
  const tail = bytes.subarray(-16);
  if (format === 'jpg' && !tail.includes(Buffer.from([0xff, 0xd9]))) return 'the JPEG is truncated: it ends before its end-of-image marker';
  if (format === 'png' && !tail.includes(Buffer.from('IEND', 'latin1'))) return 'the PNG is truncated: it ends before its IEND chunk';
  return undefined;
}
