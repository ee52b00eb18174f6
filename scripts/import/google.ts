/**
 * Google Business Profile reviews: the `Review` object of the Business Profile API v4
 * (`accounts.locations.reviews.list`) and of Google Takeout's Business Profile export, which share it:
 * `reviewId` (or the `name` …/reviews/{id}), `reviewer.displayName` / `isAnonymous`, `starRating`
 * ONE…FIVE, `comment`, `createTime`, `updateTime`, `reviewReply.comment` / `updateTime`.
 *
 * A file may hold one API page or Takeout file (`{ "reviews": [...] }`), an array of such pages, or an
 * array of reviews. Pure: the caller reads the file and passes the parsed JSON.
 *
 * What Google sends is untrusted (issue 43 item 5): every text of a review (the comment, the reviewer's
 * name, the reply, a photo's description) loses its control characters and unpaired surrogates here,
 * before anything else reads it, so none reaches the content or the published files.
 */
import { z } from 'zod';
import { formatIssue, parseWithIssues } from '../../core/schemas/issues.ts';
import {
  applyAuthorStyle,
  deriveReviewId,
  parseItem,
  toImportedReview,
  withoutUndefined,
  type FileFailure,
  type MapOptions,
  type MappedExport,
  type ReviewField,
  isImportedFrom,
} from './record.ts';
import { defineJsonFormat } from './import-format.ts';
import { dateOfTimestamp } from './values.ts';
import { removeControlCharacters as clean } from '../../core/text/printable.ts';
import type { RemoteMedia } from './media-download.ts';
import { detectLanguage, UNDETERMINED } from '../../core/text/detect-language.ts';
import type { ReviewContent } from '../../core/schemas/content.ts';

export const GOOGLE_SOURCE = 'google';

const STARS = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 } as const;

/** One of `reviewMediaItems` (Business Profile API, since April 2026): the picture, its thumbnail, its kind. */
const GoogleMediaItemSchema = z.looseObject({
  googleUrl: z.url({ protocol: /^https?$/ }),
  thumbnailUrl: z.url({ protocol: /^https?$/ }).optional(),
  mediaFormat: z.enum(['PHOTO', 'VIDEO'], { error: 'must be PHOTO or VIDEO' }).optional(),
  description: z.string().optional(),
});

/**
 * Exports carry more fields than these (profile photos): they are ignored. The `name`
 * (`accounts/{account}/locations/{location}/reviews/{review}`) says the review's location as well as its id.
 */
const GoogleReviewSchema = z
  .looseObject({
    name: z.string().optional(),
    reviewId: z.string().min(1).optional(),
    reviewer: z.looseObject({ displayName: z.string().optional(), isAnonymous: z.boolean().optional() }).optional(),
    starRating: z.enum(['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'], { error: 'must be ONE, TWO, THREE, FOUR or FIVE' }),
    comment: z.string().optional(),
    createTime: z.string(),
    updateTime: z.string().optional(),
    reviewReply: z.looseObject({ comment: z.string(), updateTime: z.string().optional() }).optional(),
    // Each item is read on its own (readRemoteMedia): a bad one loses that photo, never the review.
    reviewMediaItems: z.array(z.unknown()).optional(),
  })
  .refine((r) => r.reviewId !== undefined || r.name?.includes('/reviews/'), { error: 'has neither a reviewId nor a name ending in /reviews/{id}', path: ['reviewId'] });

/** Fields a Google export supplies; title and the owner's tags are left to the content folder. */
const SUPPLIED: readonly ReviewField[] = ['id', 'rating', 'date', 'text', 'author', 'source', 'response'];

/**
 * A translated review's also supplies its translation and its language; an untranslated one's leaves both as the
 * content has them (an owner's own `language` stays), and a review Google stopped translating keeps its last one.
 */
const SUPPLIED_TRANSLATED: readonly ReviewField[] = [...SUPPLIED, 'language', 'translation'];

/** Google's translation beside the customer's words, and their language when the detector is sure. */
function translatedFields(original: string, translation: string | undefined): { language?: string; translation?: ReviewContent['translation'] } {
  if (translation === undefined) return {};
  const language = detectLanguage(original);
  return {
    ...(language === UNDETERMINED ? {} : { language }),
    translation: { text: translation, language: GOOGLE_TRANSLATION_LANGUAGE, by: GOOGLE_SOURCE },
  };
}

const FIELD_NAMES: Partial<Record<ReviewField, string>> = {
  id: 'reviewId',
  rating: 'starRating',
  date: 'createTime',
  text: 'comment',
  author: 'reviewer.displayName',
  response: 'reviewReply',
};

const ANONYMOUS = 'Anonymous';

/** The keys of a `reviews.list` page besides `reviews`. */
const PAGE_KEYS = ['averageRating', 'totalReviewCount', 'nextPageToken'];

export type GoogleOptions = MapOptions & { timeZone: string };

export function mapGoogleExport(data: unknown, file: string, options: GoogleOptions): MappedExport | FileFailure {
  const items = listReviewItems(data);
  if (items === undefined) {
    return { ok: false, file, message: 'is not a Google reviews export: expected { "reviews": [...] }, an array of such pages, or an array of reviews' };
  }
  const mapped: MappedExport = { reviews: [], skipped: [], listedIds: [] };
  items.forEach((item, index) => {
    const rawId = (item as { reviewId?: unknown } | null)?.reviewId;
    const origin = { file, review: typeof rawId === 'string' && rawId !== '' ? rawId : `#${index + 1}` };
    const parsed = parseItem(GoogleReviewSchema, item, origin);
    if (!parsed.ok) return void mapped.skipped.push(parsed.skip);
    const g = parsed.value;
    const sourceId = g.reviewId ?? g.name!.slice(g.name!.lastIndexOf('/reviews/') + '/reviews/'.length);
    origin.review = sourceId;
    const id = deriveReviewId(GOOGLE_SOURCE, sourceId);
    mapped.listedIds.push(id);

    const { original: text, translation } = splitGoogleTranslation(clean(g.comment ?? ''));
    if (text === '') {
      mapped.skipped.push({ origin, reason: 'no-text', message: 'a rating without text: the content model requires text' });
      return;
    }
    const date = dateOfTimestamp(g.createTime, options.timeZone);
    if (!date.ok) return void mapped.skipped.push({ origin, reason: 'invalid', field: 'createTime', message: date.message });
    let response: { text: string; date: string } | undefined;
    const reply = g.reviewReply && keepOriginalText(clean(g.reviewReply.comment));
    if (g.reviewReply && reply) {
      const replied = dateOfTimestamp(g.reviewReply.updateTime ?? g.createTime, options.timeZone);
      if (!replied.ok) return void mapped.skipped.push({ origin, reason: 'invalid', field: 'reviewReply.updateTime', message: replied.message });
      // A reply cannot precede its review; the dates can only cross through time-zone rounding.
      response = { text: reply, date: replied.value < date.value ? date.value : replied.value };
    }
    const named = !g.reviewer?.isAnonymous && clean(g.reviewer?.displayName ?? '').trim();
    const candidate = withoutUndefined({
      id,
      rating: STARS[g.starRating],
      date: date.value,
      text,
      author: named ? applyAuthorStyle(named, options.authorStyle) : ANONYMOUS,
      verified: options.verified,
      source: GOOGLE_SOURCE,
      response,
      ...translatedFields(text, translation),
    });
    const result = toImportedReview(candidate, { origin, supplied: translation === undefined ? SUPPLIED : SUPPLIED_TRANSLATED, fieldNames: FIELD_NAMES, version: g.updateTime ?? g.createTime });
    if (!result.ok) return void mapped.skipped.push(result.skip);
    const location = g.name?.slice(0, g.name.lastIndexOf('/reviews/'));
    if (location) result.value.sourceLocation = location;
    if (g.reviewMediaItems !== undefined && g.reviewMediaItems.length > 0) {
      const { media, problems } = readRemoteMedia(g.reviewMediaItems);
      result.value.remoteMedia = media;
      if (problems.length > 0) result.value.mediaProblems = problems;
    }
    mapped.reviews.push(result.value);
  });
  return mapped;
}

function readRemoteMedia(items: readonly unknown[]): { media: RemoteMedia[]; problems: string[] } {
  const media: RemoteMedia[] = [];
  const problems: string[] = [];
  items.forEach((item, i) => {
    const parsed = parseWithIssues(GoogleMediaItemSchema, item);
    if (!parsed.ok) return void problems.push(...parsed.issues.map((issue) => formatIssue({ ...issue, path: ['reviewMediaItems', i, ...issue.path] })));
    const { googleUrl, thumbnailUrl, mediaFormat, description } = parsed.value;
    const alt = description === undefined ? {} : { alt: clean(description) };
    if (mediaFormat !== 'VIDEO') return void media.push({ kind: 'photo', url: googleUrl, ...alt });
    // A video is kept as a link with its thumbnail as the poster.
    if (thumbnailUrl === undefined) return void problems.push(`reviewMediaItems.${i}: a video without a thumbnailUrl has no poster to show`);
    media.push({ kind: 'video', url: googleUrl, posterUrl: thumbnailUrl, ...alt });
  });
  return { media, problems };
}

function listReviewItems(data: unknown): unknown[] | undefined {
  const reviewsOf = (page: unknown) =>
    page !== null && typeof page === 'object' && !Array.isArray(page) && 'reviews' in page && Array.isArray(page.reviews) ? (page.reviews as unknown[]) : undefined;
  // An API page with no reviews omits the key: `{}` or `{ "totalReviewCount": 0 }`.
  const isEmptyPage = (page: unknown) =>
    page !== null && typeof page === 'object' && !Array.isArray(page) && Object.keys(page).every((k) => PAGE_KEYS.includes(k));
  const single = reviewsOf(data);
  if (single) return single;
  if (isEmptyPage(data)) return [];
  if (!Array.isArray(data)) return undefined;
  if (data.every((page) => reviewsOf(page) || isEmptyPage(page))) return data.flatMap((page) => reviewsOf(page) ?? []);
  return data;
}

/**
 * Google shows a review written in another language as `(Translated by Google) <translation>
 * (Original) <original>`, or as `<original> (Translated by Google) <translation>`: the customer's own
 * words are the review, in either layout.
 */
export function keepOriginalText(comment: string): string {
  return splitGoogleTranslation(comment).original;
}

const TRANSLATED = '(Translated by Google)';
const ORIGINAL = '(Original)';

/**
 * The customer's words and Google's translation of them, apart (issue 43 item 3): `translation` is
 * undefined for a comment Google did not translate, or whose translation is empty.
 */
export function splitGoogleTranslation(comment: string): { original: string; translation?: string } {
  const translated = comment.indexOf(TRANSLATED);
  if (translated < 0) return { original: comment.trim() };
  const original = comment.indexOf(ORIGINAL, translated);
  const parts =
    original >= 0
      ? { original: comment.slice(original + ORIGINAL.length), translation: comment.slice(translated + TRANSLATED.length, original) }
      : translated > 0
        ? { original: comment.slice(0, translated), translation: comment.slice(translated + TRANSLATED.length) }
        : { original: comment.slice(TRANSLATED.length), translation: '' };
  const translation = parts.translation.trim();
  return translation === '' ? { original: parts.original.trim() } : { original: parts.original.trim(), translation };
}

/**
 * The language Google translates into: the Business Profile account's, which the API does not say; the
 * project's pages are English, so `en` (docs/import.md).
 */
export const GOOGLE_TRANSLATION_LANGUAGE = 'en';

export const googleFormat = defineJsonFormat({
  name: 'google',
  summary: 'Google Business Profile reviews: a Takeout reviews file or Business Profile API pages',
  map: mapGoogleExport,
  pruneScope: isImportedFrom(GOOGLE_SOURCE),
});
