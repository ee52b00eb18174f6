/**
 * Example bodies for the OpenAPI document, built from one sample business and review through the same
 * code that builds the real responses (URLs from createServiceUrls, the feed from buildJsonFeed), so the
 * examples show exactly what the service serves. Tests check every example against its schema.
 */
import { createLogEntryLookup } from '../dataset/review-log-entry.ts';
import { buildJsonFeed } from '../feeds/render-json-feed.ts';
import type { JsonFeed } from '../feeds/json-feed-schema.ts';
import type { ErrorBody } from '../schemas/errors.ts';
import type { PublishedBusiness, PublishedReview, RestReviewList, ReviewsDataset } from '../schemas/published.ts';
import type { RestSearchResult } from '../schemas/search.ts';
import type { ServiceUrls } from '../urls.ts';

export type OpenApiExamples = {
  reviewsDataset: ReviewsDataset;
  jsonFeed: JsonFeed;
  searchResult: RestSearchResult;
  reviewList: RestReviewList;
  badDate: ErrorBody;
};

const sampleBusiness: PublishedBusiness = {
  name: 'Example Heating & Cooling',
  url: 'https://heating.example/',
  telephone: '+1 555 0100',
  address: { street: '12 Elm Street', locality: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' },
  services: [{ id: 'furnace-repair', name: 'Furnace repair', aliases: ['furnace'] }],
  technicians: [{ name: 'Michael Reyes', aliases: ['Mike'] }],
  service_areas: ['Springfield'],
};

/** A demo photo's published name (the hash of its source) and the byte sizes of its variants. */
const DEMO_PHOTO = {
  hash: '83665368bb61a24c',
  sizes: { '320.webp': 1124, '320.jpg': 3073, '640.webp': 2500, '640.jpg': 6917, '1024.webp': 5028, '1024.jpg': 12603 } as Record<string, number>,
};

export function buildOpenApiExamples(urls: ServiceUrls): OpenApiExamples {
  const reviewKey = { id: 'r-2025-06-01-maria-g', date: '2025-06-01' };
  const review: PublishedReview = {
    ...reviewKey,
    rating: 5,
    text: 'Mike fixed our furnace the same day and left everything clean.',
    title: null,
    author: 'Maria G.',
    source: 'google',
    verified: true,
    technicians: ['Michael Reyes'],
    services: ['furnace-repair'],
    service_area: 'Springfield',
    response: { text: 'Thank you, Maria!', date: '2025-06-03' },
    url: urls.review(reviewKey),
    // The demo's furnace photo (examples/demo/media/r-2026-11-0001/filter.jpg) as the demo build
    // publishes it, so the example's URLs resolve on the demo (tests/site/quality.test.ts fetches them).
    media: [
      {
        type: 'photo',
        alt: 'The furnace after the maintenance visit, new filter in',
        url: urls.media(`${DEMO_PHOTO.hash}-1024.jpg`),
        width: 1024,
        height: 768,
        size_in_bytes: DEMO_PHOTO.sizes['1024.jpg']!,
        thumbnail_url: urls.media(`${DEMO_PHOTO.hash}-320.jpg`),
        variants: [320, 640, 1024].flatMap((width) =>
          (['webp', 'jpg'] as const).map((ext) => ({
            url: urls.media(`${DEMO_PHOTO.hash}-${width}.${ext}`),
            width,
            height: (width * 3) / 4,
            mime_type: ext === 'webp' ? ('image/webp' as const) : ('image/jpeg' as const),
            size_in_bytes: DEMO_PHOTO.sizes[`${width}.${ext}`]!,
          })),
        ),
        video_url: null,
      },
    ],
    updated: '2025-06-03T16:20:00Z',
    // What the default aspect set (core/insights/default-aspects.json) finds in the text above.
    aspects: [
      { aspect: 'quality', polarity: 'positive', score: 0.999, evidence: [{ field: 'text', start: 5, end: 10 }] },
      { aspect: 'cleanliness', polarity: 'positive', score: 0.998, evidence: [{ field: 'text', start: 56, end: 61 }] },
    ],
  };
  // The REST lists give each review with its log_entry; the sample's latest entry is at position 12.
  const listed = { ...review, log_entry: createLogEntryLookup(new Map([[review.id, 12]]), urls)(review.id)! };
  return {
    reviewsDataset: {
      business: sampleBusiness,
      aggregate_rating: {
        rating_value: 5,
        review_count: 1,
        best_rating: 5,
        worst_rating: 1,
        distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 1 },
      },
      reviews: [review],
    },
    jsonFeed: buildJsonFeed({ business: sampleBusiness, reviews: [review], urls }),
    searchResult: { reviews: [listed], count: 1, total: 1, limit: 20, next_cursor: null },
    reviewList: { reviews: [listed], count: 1, total: 1 },
    badDate: {
      error: 'invalid_date',
      message: '"2024-02-30" is not a calendar date in the form YYYY-MM-DD.',
      issues: [{ path: ['date'], message: 'must be a valid calendar date, YYYY-MM-DD', code: 'invalid_format' }],
    },
  };
}
