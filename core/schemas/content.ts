/**
 * Shapes of the content folder, the business's source of truth (CONTRACT.md "Content folder").
 * Objects are strict: an unknown key is almost always a typo, and a typo must fail the build
 * rather than silently drop a field.
 */
import { z } from 'zod';
import { CorrectionReasonSchema, WithdrawReasonSchema } from '../log/reasons.ts';
import { LOCALES } from '../i18n/locales.ts';

/** A calendar date `YYYY-MM-DD`; impossible dates such as 2024-02-30 are rejected. */
export const IsoDateSchema = z.iso.date().meta({ description: 'Calendar date, YYYY-MM-DD.', example: '2025-06-01' });

/**
 * The one date-range rule (search, the search page and get_rating_summary): `since` is on or before
 * `until`. Its issue, on `since`, names the until date and carries the code `since_after_until`.
 */
export function checkDateRange(range: { since?: string | undefined; until?: string | undefined }, ctx: z.RefinementCtx): void {
  if (range.since === undefined || range.until === undefined || range.since <= range.until) return;
  ctx.addIssue({ code: 'custom', path: ['since'], message: `must not be after until (${range.until})`, params: { code: 'since_after_until' } });
}

/** Lowercase slug used for review and service ids. */
export const SlugSchema = z.string().regex(/^[a-z0-9-]+$/, 'must match [a-z0-9-]+').max(200);

const NonEmptyTextSchema = z.string().trim().min(1, 'must not be empty');

// The reasons are the review log's own (core/log/reasons.ts), so `npm run verify` reads them without this file.
export { CORRECTION_REASONS, CorrectionReasonSchema, WITHDRAW_REASONS, WithdrawReasonSchema, type CorrectionReason, type WithdrawReason } from '../log/reasons.ts';

/**
 * `withdrawn.json` (optional): why each review the owner hid (`verified: false`) or deleted left the
 * published set, by review id. The review log records the reason when the review leaves; a review not
 * listed is withdrawn for `other`. Listing a review does not hide it.
 */
export const WithdrawnContentSchema = z.record(SlugSchema, WithdrawReasonSchema);

/**
 * `corrections.json` (optional): why the owner changed each review's rating, by review id. The review log
 * records the reason with the change; a rating changed by the owner and not listed is recorded as `other`.
 * Listing a review changes nothing else.
 */
export const CorrectionsContentSchema = z.record(SlugSchema, CorrectionReasonSchema);

export const AddressSchema = z.strictObject({
  street: NonEmptyTextSchema,
  locality: NonEmptyTextSchema,
  region: NonEmptyTextSchema,
  postal_code: NonEmptyTextSchema,
  country: NonEmptyTextSchema,
});

export const ServiceSchema = z.strictObject({
  /** Stable id used in review files and in the `mentions_service` filter. */
  id: SlugSchema,
  name: NonEmptyTextSchema,
  /** Other words customers use for the service, matched as whole words in review text. */
  aliases: z.array(NonEmptyTextSchema).default([]),
});

export const TechnicianSchema = z.strictObject({
  /** Canonical display name; published reviews always use this spelling. */
  name: NonEmptyTextSchema,
  /** Nicknames or short forms customers write ("Mike" for "Michael Reyes"). */
  aliases: z.array(NonEmptyTextSchema).default([]),
});

/** A Business Profile location's resource name: `accounts/{account}/locations/{location}` (or `locations/{location}`). */
export const GoogleLocationNameSchema = z
  .string()
  .regex(/^(?:accounts\/[^/\s]+\/)?locations\/[^/\s]+$/, 'must be a Business Profile location name, accounts/{account}/locations/{location}');

/**
 * One of the business's locations (a shop, a branch), each with its own reviews and figures. A business
 * that lists none is one place, as before.
 */
export const LocationSchema = z.strictObject({
  /** Stable id: the `location` of a review, the `location` search filter, the page `/locations/<id>/`. */
  id: SlugSchema,
  name: NonEmptyTextSchema,
  address: AddressSchema.optional(),
  telephone: NonEmptyTextSchema.optional(),
  service_areas: z.array(NonEmptyTextSchema).optional(),
  /** The Business Profile location it syncs from: a Google review's `name` says its location. */
  google_location: GoogleLocationNameSchema.optional(),
});

export const BusinessContentSchema = z.strictObject({
  name: NonEmptyTextSchema,
  /** The business's own site, linked from every page: http(s) only (a `javascript:` URL would run on click). */
  url: z.url({ protocol: /^https?$/ }),
  telephone: NonEmptyTextSchema,
  address: AddressSchema,
  services: z.array(ServiceSchema).min(1),
  technicians: z.array(TechnicianSchema),
  service_areas: z.array(NonEmptyTextSchema),
  /** The business's locations, when it has more than one place; absent for a business that is one place. */
  locations: z.array(LocationSchema).min(1).optional(),
  /** The language the site is written in (core/i18n/): one of the shipped catalogues; English when absent. */
  locale: z
    .enum(LOCALES, { error: (issue) => `must be one of the languages the site is written in: ${LOCALES.join(', ')} (not ${JSON.stringify(issue.input)})` })
    .optional(),
});

export const OwnerResponseSchema = z.strictObject({
  text: NonEmptyTextSchema,
  date: IsoDateSchema,
});

/**
 * A file of the content folder that a review shows: a path relative to the folder, under `media/`
 * (`media/<review id>/kitchen.jpg`), never a platform's URL (those expire). No `..`, no absolute path.
 */
export const MediaFileSchema = z
  .string()
  .max(300)
  .regex(/^media\/(?:[A-Za-z0-9_][A-Za-z0-9._-]*\/)*[A-Za-z0-9_][A-Za-z0-9._-]*$/, 'must be a path under media/ (letters, digits, . _ -), e.g. media/r-1/photo.jpg');

/** What the picture shows, for people who cannot see it. */
const AltTextSchema = z.string().trim().max(1000).optional();

/** A customer's photo, stored in the content folder. */
export const PhotoContentSchema = z.strictObject({ file: MediaFileSchema, alt: AltTextSchema });

/** A customer's video: a link to it and a poster image stored in the content folder. */
export const VideoContentSchema = z.strictObject({
  video_url: z.url({ protocol: /^https?$/ }),
  poster: MediaFileSchema,
  alt: AltTextSchema,
});

export const MediaContentSchema = z.union([PhotoContentSchema, VideoContentSchema], {
  error: 'must be { file, alt? } (a photo) or { video_url, poster, alt? } (a video)',
});

/** At most this many photos and videos per review. */
export const MAX_MEDIA_PER_REVIEW = 20;

/** A BCP 47 language tag (`es`, `pt-BR`, `und` when unknown): the primary subtag in lowercase. */
export const LanguageTagSchema = z
  .string()
  .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 language tag, e.g. es or pt-BR')
  .meta({ description: 'BCP 47 language tag.', example: 'es' });

/**
 * A translation of a review that its source gave (Google's "(Translated by Google)"): kept beside the
 * customer's own words, never in their place, and never part of the review's log digest.
 */
export const TranslationContentSchema = z.strictObject({
  text: NonEmptyTextSchema,
  title: NonEmptyTextSchema.optional(),
  /** The translation's language. */
  language: LanguageTagSchema,
  /** Who translated it: `google`, `owner`, … */
  by: SlugSchema,
});

export const ReviewContentSchema = z.strictObject({
  id: SlugSchema,
  rating: z.int().min(1).max(5),
  date: IsoDateSchema,
  text: NonEmptyTextSchema,
  author: NonEmptyTextSchema,
  verified: z.boolean(),
  title: NonEmptyTextSchema.optional(),
  source: SlugSchema.optional(),
  /** The review's own page on the site it was first posted on, when the owner has it. */
  source_url: z.url({ protocol: /^https?$/ }).optional(),
  /** Technician names (canonical or alias) the customer tagged explicitly. */
  technicians: z.array(NonEmptyTextSchema).optional(),
  /** Service ids tagged explicitly. */
  services: z.array(SlugSchema).optional(),
  service_area: NonEmptyTextSchema.optional(),
  /** The id of one of business.json's `locations`: the place the review is about. */
  location: SlugSchema.optional(),
  response: OwnerResponseSchema.optional(),
  /** Photos and videos the customer attached, in the order shown. */
  media: z.array(MediaContentSchema).max(MAX_MEDIA_PER_REVIEW).optional(),
  /** The owner's id of the job this review is about (`jobs/*.json`): never published, only its log entry. */
  job: NonEmptyTextSchema.max(200).optional(),
  /** The language the customer wrote `text` in; detected when absent. */
  language: LanguageTagSchema.optional(),
  /** A translation of `text` (and `title`) the source gave; `text` stays the customer's words. */
  translation: TranslationContentSchema.optional(),
});

/**
 * One job of `jobs/*.json` (issue 42): the owner's own record of work done, logged when completed, before
 * any review of it exists (docs/log.md "Jobs"). Only the ISO week of `completed`, the service and the
 * area are ever published; every other member (the customer's name, address, telephone, the invoice
 * total, the owner's job id itself) is the owner's, kept in the content and never published, so the
 * object accepts members it does not know.
 */
export const JobContentSchema = z.looseObject({
  /** The owner's own job number, as their tool writes it. */
  id: z.union([NonEmptyTextSchema.max(200), z.int().min(0).transform(String)]),
  completed: IsoDateSchema,
  /** A service id of business.json. */
  service: SlugSchema,
  /** A technician of business.json (name or alias). */
  technician: NonEmptyTextSchema.optional(),
  /** A service area of business.json. */
  area: NonEmptyTextSchema.optional(),
});

export type BusinessContent = z.infer<typeof BusinessContentSchema>;
export type ReviewContent = z.infer<typeof ReviewContentSchema>;
export type JobContent = z.infer<typeof JobContentSchema>;
export type MediaContent = z.infer<typeof MediaContentSchema>;
export type Service = z.infer<typeof ServiceSchema>;
export type Technician = z.infer<typeof TechnicianSchema>;
export type Location = z.infer<typeof LocationSchema>;
