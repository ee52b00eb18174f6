/**
 * The service's own `/reviews.json` (moving to another instance, or restoring from a backup). Its
 * reviews keep their ids, so their URLs do not move. Everything in it was published, so every review
 * is verified; its technician and service tags (which include the mentions the build found in the
 * text), its service area and its location become the review's tags when it is added, and must exist in the target's
 * business.json. Unlike the platform formats, a re-import leaves those tags as the owner has them.
 */
import { z } from 'zod';
import { BusinessContentSchema, type BusinessContent } from '../../core/schemas/content.ts';
import { PublishedReviewSchema, type PublishedMedia } from '../../core/schemas/published.ts';
import path from 'node:path';
import type { RemoteMedia } from './media-download.ts';
import { defineJsonFormat } from './import-format.ts';
import { parseItem, toImportedReview, withoutUndefined, type FileFailure, type MapOptions, type MappedExport, type ReviewField } from './record.ts';

const ItemSchema = PublishedReviewSchema.pick({
  id: true,
  rating: true,
  date: true,
  text: true,
  title: true,
  author: true,
  source: true,
  source_url: true,
  technicians: true,
  services: true,
  service_area: true,
  location: true,
  response: true,
  media: true,
}).partial({ title: true, technicians: true, services: true, service_area: true, response: true, media: true });

/**
 * `source` is set when a review is added but not updated: the dataset writes `direct` for a review
 * that has none, and a review's source does not change.
 */
const SUPPLIED: readonly ReviewField[] = ['id', 'rating', 'date', 'text', 'title', 'author', 'source_url', 'response'];

/** The published business, keys the content model does not have left out. */
const BusinessSchema = z.object(BusinessContentSchema.shape);

/** `business` is the dataset's business, for a content folder that has no business.json yet. */
export function mapServiceExport(
  data: unknown,
  file: string,
  options: Pick<MapOptions, 'verified'>,
): (MappedExport & { business?: BusinessContent }) | FileFailure {
  const items = data !== null && typeof data === 'object' && 'reviews' in data && Array.isArray(data.reviews) ? (data.reviews as unknown[]) : undefined;
  if (!items) return { ok: false, file, message: "is not the service's /reviews.json: expected an object with a reviews array" };
  const mapped: MappedExport & { business?: BusinessContent } = { reviews: [], skipped: [], listedIds: [] };
  const business = BusinessSchema.safeParse((data as { business?: unknown }).business);
  if (business.success) mapped.business = business.data;
  items.forEach((item, index) => {
    const rawId = (item as { id?: unknown } | null)?.id;
    const origin = { file, review: typeof rawId === 'string' && rawId !== '' ? rawId : `#${index + 1}` };
    if (typeof rawId === 'string') mapped.listedIds.push(rawId);
    const parsed = parseItem(ItemSchema, item, origin);
    if (!parsed.ok) return void mapped.skipped.push(parsed.skip);
    const r = parsed.value;
    const candidate = withoutUndefined({
      id: r.id,
      rating: r.rating,
      date: r.date,
      text: r.text,
      author: r.author,
      verified: options.verified,
      title: r.title ?? undefined,
      source: r.source,
      source_url: r.source_url,
      technicians: r.technicians?.length ? r.technicians : undefined,
      services: r.services?.length ? r.services : undefined,
      service_area: r.service_area ?? undefined,
      location: r.location,
      response: r.response ?? undefined,
    });
    const result = toImportedReview(candidate, { origin, supplied: SUPPLIED, fieldNames: {} });
    if (!result.ok) return void mapped.skipped.push(result.skip);
    if (r.media !== undefined && r.media.length > 0) result.value.remoteMedia = r.media.map((m) => toRemoteMedia(m, file));
    mapped.reviews.push(result.value);
  });
  return mapped;
}

/**
 * A published photo as something to fetch: its full-size JPEG (a video's poster), from the instance, or
 * from `media/` beside the file when the file is a copy of a build (a backup), which needs no network.
 */
function toRemoteMedia(media: PublishedMedia, file: string): RemoteMedia {
  const localCopy = path.join(path.dirname(file), 'media', media.url.slice(media.url.lastIndexOf('/') + 1));
  const alt = media.alt === null ? {} : { alt: media.alt };
  return media.video_url === null
    ? { kind: 'photo', url: media.url, localCopy, ...alt }
    : { kind: 'video', url: media.video_url, posterUrl: media.url, localCopy, ...alt };
}

export const jsonFormat = defineJsonFormat({
  name: 'json',
  summary: "the service's own /reviews.json (another instance, or a backup)",
  map: mapServiceExport,
  // A backup of the whole /reviews.json never lists the unpublished reviews: every published one is in scope.
  pruneScope: (review) => review.verified === true,
});
