/**
 * Customers' photos as the site publishes them (issue 22): each source photo becomes a few widths in
 * WebP and in JPEG (the fallback), named by the hash of the source so a name never changes meaning and
 * an unchanged photo is never encoded twice. The encoding itself is I/O (scripts/lib/media/); what is
 * here is pure: which widths, which names, and a review's `media` as published.
 */
import { z } from 'zod';
import type { MediaContent } from '../schemas/content.ts';
import type { PublishedMedia } from '../schemas/published.ts';
import type { ServiceUrls } from '../urls.ts';

/** Limits a source photo must keep, checked before it is decoded. */
export const MEDIA_LIMITS = {
  /** Bytes of one source file. */
  maxBytes: 15 * 1024 * 1024,
  /** Pixels of one decoded source (a 50-megapixel camera); bigger is refused before decoding. */
  maxPixels: 50_000_000,
} as const;

/** Widths a photo is published at; a narrower source is published at its own width, never enlarged. */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;

export const VariantFormatSchema = z.enum(['webp', 'jpeg']);
export type VariantFormat = z.infer<typeof VariantFormatSchema>;

const EXTENSION: Record<VariantFormat, string> = { webp: 'webp', jpeg: 'jpg' };
const MIME_TYPE = { webp: 'image/webp', jpeg: 'image/jpeg' } as const;

/** One encoded file, as the encoder records it (and its cache stores it). */
export const EncodedVariantSchema = z.strictObject({
  name: z.string().regex(/^[a-f0-9]{16}-\d+\.(webp|jpg)$/),
  format: VariantFormatSchema,
  width: z.int().min(1),
  height: z.int().min(1),
  size: z.int().min(1),
});

/** A source photo once encoded: its hash, its upright size, and its variants narrowest first (WebP before JPEG). */
export const EncodedPhotoSchema = z.strictObject({
  hash: z.string().regex(/^[a-f0-9]{16}$/),
  width: z.int().min(1),
  height: z.int().min(1),
  variants: z.array(EncodedVariantSchema).min(2),
});
export type EncodedPhoto = z.infer<typeof EncodedPhotoSchema>;

/** Every encoded photo of a build, by its path in the content folder (`media/r-1/kitchen.jpg`). */
export type MediaCatalog = ReadonlyMap<string, EncodedPhoto>;

/** The widths to publish for a source `width` wide: the standard ones below it, and at least one. */
export function planVariantWidths(width: number): number[] {
  const widths: number[] = VARIANT_WIDTHS.filter((w) => w < width);
  if (width <= VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!) widths.push(width);
  return widths;
}

/** The published file name of one variant: `<hash>-<width>.<ext>`. */
export function variantName(hash: string, width: number, format: VariantFormat): string {
  return `${hash}-${width}.${EXTENSION[format]}`;
}

/** The content files a review's media use: each photo's file, each video's poster. */
export function mediaFileOf(item: MediaContent): string {
  return 'file' in item ? item.file : item.poster;
}

/** A review's `media` as published. Throws when a file is missing from the catalog: the build checks them all first. */
export function publishMedia(items: readonly MediaContent[], catalog: MediaCatalog, urls: ServiceUrls): PublishedMedia[] {
  return items.map((item) => {
    const file = mediaFileOf(item);
    const photo = catalog.get(file);
    if (photo === undefined) throw new Error(`media file ${file} was not encoded`);
    const jpegs = photo.variants.filter((v) => v.format === 'jpeg');
    const full = jpegs[jpegs.length - 1]!;
    return {
      type: 'file' in item ? 'photo' : 'video',
      alt: item.alt === undefined || item.alt === '' ? null : item.alt,
      url: urls.media(full.name),
      width: full.width,
      height: full.height,
      size_in_bytes: full.size,
      thumbnail_url: urls.media(jpegs[0]!.name),
      variants: photo.variants.map((v) => ({ url: urls.media(v.name), width: v.width, height: v.height, mime_type: MIME_TYPE[v.format], size_in_bytes: v.size })),
      video_url: 'video_url' in item ? item.video_url : null,
    };
  });
}
