/**
 * Customers' photos on the pages. The published `media` carries absolute URLs (under PUBLIC_URL); the
 * pages link with root-relative site paths like every other link (core/urls.ts `prefixRootRelativeUrls`
 * adds a base path), so each URL is turned back into its `/media/…` path by its file name.
 */
import type { PublishedMedia, PublishedReview } from '../schemas/published.ts';
import { mediaPath } from '../urls.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

/** `https://…/media/3f9a…-640.jpg` → `/media/3f9a…-640.jpg`. */
export function toMediaPath(url: string): string {
  return mediaPath(url.slice(url.lastIndexOf('/') + 1));
}

/** The `srcset` of one format: every width of it, narrowest first. */
export function mediaSrcset(media: PublishedMedia, mimeType: 'image/webp' | 'image/jpeg'): string {
  return media.variants
    .filter((v) => v.mime_type === mimeType)
    .map((v) => `${toMediaPath(v.url)} ${v.width}w`)
    .join(', ');
}

/** Alt text for a picture: the customer's own, else what it is and whose (an image link needs a name). */
export function describeMedia(media: PublishedMedia, author: string, index: number, count: number, t: Translator = createTranslator()): string {
  const number = count > 1 ? t.fill(t.m.card.mediaNumber, { index: index + 1, count }) : '';
  return media.alt ?? t.fill(media.type === 'video' ? t.m.card.videoOf : t.m.card.photo, { number, author });
}

export type CustomerPhoto = { review: PublishedReview; media: PublishedMedia; index: number };

/** The pictures of `reviews` (newest first), at most `limit`, newest review first. */
export function listCustomerPhotos(reviews: readonly PublishedReview[], limit: number): CustomerPhoto[] {
  const photos: CustomerPhoto[] = [];
  for (const review of reviews) {
    for (const [index, media] of review.media.entries()) {
      if (photos.length >= limit) return photos;
      photos.push({ review, media, index });
    }
  }
  return photos;
}
