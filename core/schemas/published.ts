/**
 * Shapes the service publishes (CONTRACT.md "Published shapes"). These schemas are the single
 * definition: types are inferred from them and the OpenAPI document is generated from them.
 */
import { JobTieSchema } from '../log/job-summary.ts';
import { z } from 'zod';
import { ReviewAspectSchema } from './aspects.ts';
import { AddressSchema, IsoDateSchema, LanguageTagSchema } from './content.ts';

export const PublishedResponseSchema = z
  .object({
    text: z.string(),
    date: IsoDateSchema,
  })
  .meta({ description: "The business owner's public reply." });

export const MediaVariantSchema = z
  .object({
    url: z.url(),
    width: z.int().min(1),
    height: z.int().min(1),
    mime_type: z.enum(['image/webp', 'image/jpeg']),
    size_in_bytes: z.int().min(1),
  })
  .meta({ description: 'One encoding of the picture at one width.' });

export const PublishedMediaSchema = z
  .object({
    type: z.enum(['photo', 'video']).meta({ description: '`photo`, or `video`: a link (`video_url`) shown through its poster image.' }),
    alt: z.string().nullable().meta({ description: 'What the picture shows, when the source gave it.' }),
    url: z.url().meta({ description: 'The picture at full size (JPEG): the photo, or the video\'s poster. Stripped of metadata (location included).' }),
    width: z.int().min(1),
    height: z.int().min(1),
    size_in_bytes: z.int().min(1),
    thumbnail_url: z.url().meta({ description: 'The smallest JPEG variant, for a thumbnail.' }),
    variants: z.array(MediaVariantSchema).meta({ description: 'Every width in WebP and JPEG, narrowest first, for `srcset`.' }),
    video_url: z.url().nullable().meta({ description: 'The video itself, for a `video`; null for a photo.' }),
  })
  .meta({ id: 'Media' });

export const PublishedTranslationSchema = z
  .object({
    text: z.string(),
    title: z.string().nullable(),
    language: LanguageTagSchema,
    by: z.string().meta({ description: 'Who translated it: `google`, `owner`, …' }),
  })
  .meta({ id: 'Translation', description: "A translation of the review the source gave, beside the customer's own words (`text`, `title`); never part of the review's log digest." });

export const PublishedReviewSchema = z
  .object({
    id: z.string().meta({ description: 'Stable review id, `[a-z0-9-]+`.' }),
    rating: z.int().min(1).max(5).meta({ description: 'Star rating, 1 to 5.' }),
    date: IsoDateSchema,
    text: z.string(),
    title: z.string().nullable(),
    author: z.string().meta({ description: "Reviewer's display name." }),
    source: z.string().meta({ description: 'Where the review was collected: google, yelp, direct, …' }),
    source_url: z
      .url()
      .optional()
      .meta({ description: 'The original review on the site it was first posted on; present only when the content has it.' }),
    verified: z.literal(true),
    technicians: z
      .array(z.string())
      .meta({ description: 'Canonical names of every technician the review tags or names in its text.' }),
    services: z.array(z.string()).meta({ description: 'Ids of every service the review tags or names in its text.' }),
    service_area: z.string().nullable(),
    location: z
      .string()
      .optional()
      .meta({ description: 'The id of the business location the review is about (`locations` of the dataset); present only when the content names one.' }),
    response: PublishedResponseSchema.nullable(),
    language: LanguageTagSchema.optional().meta({
      description:
        "The language of `text` (BCP 47): the content's, else detected. Present only when it is not English (or the review has a translation); absent means English or undetermined.",
    }),
    translation: PublishedTranslationSchema.optional().meta({ description: 'Present only when the source gave a translation.' }),
    url: z.url().meta({ description: 'Human page that shows this review.' }),
    updated: z.iso.datetime().meta({
      description:
        'When the published content of the review (text, rating, title, reply, tags, visibility…) last changed: the time of the content commit that last changed it, never earlier than its date or its reply\'s; outside git, its date or its reply\'s date at midnight UTC. Never moves backwards.',
    }),
    media: z.array(PublishedMediaSchema).meta({ description: 'Photos and videos the customer attached, in order; empty when none.' }),
    job: JobTieSchema.optional().meta({ description: 'The job this review is tied to in the review log; absent when none.' }),
    aspects: z.array(ReviewAspectSchema).meta({
      description:
        'Aspect-based sentiment: one entry per aspect of the aspect set (punctuality, price, …) the title or text talks about, in the aspect set\'s order, scored on the words of each mention. /insights.json counts exactly these; the `aspect` and `aspect_sentiment` search filters match them.',
    }),
  })
  .meta({ id: 'Review' });

export const LocationInfoSchema = z
  .object({
    id: z.string().meta({ description: 'Location id: the `location` of its reviews and of the search filter.' }),
    name: z.string(),
    address: AddressSchema.optional(),
    telephone: z.string().optional(),
    service_areas: z.array(z.string()).optional(),
  })
  .meta({ id: 'Location', description: 'One place of the business; `address`, `telephone` and `service_areas` only when business.json gives them.' });

export const PublishedBusinessSchema = z
  .object({
    name: z.string(),
    url: z.url(),
    telephone: z.string(),
    address: AddressSchema,
    services: z.array(z.object({ id: z.string(), name: z.string(), aliases: z.array(z.string()) })),
    technicians: z.array(z.object({ name: z.string(), aliases: z.array(z.string()) })),
    service_areas: z.array(z.string()),
    locations: z
      .array(LocationInfoSchema)
      .optional()
      .meta({ description: 'The business\'s locations, in business.json order; present only for a business that lists them.' }),
  })
  .meta({ id: 'Business' });

export const RatingDistributionSchema = z.object({
  '1': z.int().min(0),
  '2': z.int().min(0),
  '3': z.int().min(0),
  '4': z.int().min(0),
  '5': z.int().min(0),
});

export const AggregateRatingSchema = z
  .object({
    rating_value: z.number().meta({ description: 'Mean rating, rounded to 2 decimals (0 when there are no reviews).' }),
    review_count: z.int().min(0),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: RatingDistributionSchema,
  })
  .meta({ id: 'AggregateRating' });

export const LocationRatingSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    aggregate_rating: AggregateRatingSchema.meta({ description: 'The figures of the reviews whose `location` is this one.' }),
  })
  .meta({ id: 'LocationRating' });

export const ReviewsDatasetSchema = z
  .object({
    business: PublishedBusinessSchema,
    aggregate_rating: AggregateRatingSchema,
    locations: z
      .array(LocationRatingSchema)
      .optional()
      .meta({
        description:
          'Each location\'s own aggregate rating, in business.json order; present only for a business that lists locations. `aggregate_rating` counts these and the reviews that name no location.',
      }),
    reviews: z.array(PublishedReviewSchema).meta({ description: 'Every verified review, newest first.' }),
  })
  .meta({ id: 'ReviewsDataset' });

export const ReviewListSchema = z
  .object({
    reviews: z.array(PublishedReviewSchema).meta({ description: 'Newest first: date descending, then id ascending.' }),
    count: z.int().min(0).meta({ description: 'Number of reviews in this response.' }),
    total: z.int().min(0).meta({ description: 'Number of reviews that match.' }),
  })
  .meta({ id: 'ReviewList' });

/**
 * Where a review stands in the review log (docs/verification.md "A proof for every review"), given wherever a
 * review's log_entry is given: MCP `get_review` and each review of the REST lists (core/dataset/review-log-entry.ts).
 */
export const ReviewLogEntrySchema = z
  .object({
    index: z.int().min(0).meta({ description: 'The position of the review\'s latest entry in the review log.' }),
    checkpoint_url: z.url().meta({ description: 'The log\'s signed checkpoint (C2SP tlog-checkpoint), whose tree holds that entry.' }),
    proof_url: z.url().meta({ description: 'The review\'s C2SP tlog-proof: that entry\'s inclusion in the checkpoint, read without anything else.' }),
  })
  .meta({ id: 'ReviewLogEntry' });

/** A review as the REST lists (search, since) give it: as published, with its `log_entry` last. */
export const ReviewWithLogEntrySchema = PublishedReviewSchema.extend({
  log_entry: ReviewLogEntrySchema.optional().meta({ description: 'Where the review stands in the review log; absent for a review not in the log (a build without one).' }),
}).meta({ id: 'ReviewWithLogEntry' });

/**
 * The body of GET /api/reviews/since/{date}: a ReviewList whose reviews carry their log_entry. MCP's lists
 * leave it out: tools/list has no bytes to spare for it (tests/mcp/budgets.test.ts).
 */
export const RestReviewListSchema = ReviewListSchema.extend({
  reviews: z.array(ReviewWithLogEntrySchema).meta({ description: 'Newest first: date descending, then id ascending.' }),
});

export type PublishedReview = z.infer<typeof PublishedReviewSchema>;
export type PublishedTranslation = z.infer<typeof PublishedTranslationSchema>;
export type PublishedMedia = z.infer<typeof PublishedMediaSchema>;
export type PublishedBusiness = z.infer<typeof PublishedBusinessSchema>;
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;
export type LocationInfo = z.infer<typeof LocationInfoSchema>;
export type LocationRating = z.infer<typeof LocationRatingSchema>;
export type ReviewsDataset = z.infer<typeof ReviewsDatasetSchema>;
export type ReviewList = z.infer<typeof ReviewListSchema>;
export type ReviewLogEntry = z.infer<typeof ReviewLogEntrySchema>;
export type RestReviewList = z.infer<typeof RestReviewListSchema>;
