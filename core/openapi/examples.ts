/**
 * Example bodies for the OpenAPI document, built from one sample business and review through the same
 * code that builds the real responses (URLs from createServiceUrls, the feed from buildJsonFeed), so the
 * examples show exactly what the service serves. Tests check every example against its schema.
 */
import { buildJsonFeed } from '../feeds/render-json-feed.ts';
import type { JsonFeed } from '../feeds/json-feed-schema.ts';
import type { ErrorBody } from '../schemas/errors.ts';
import type { PublishedBusiness, PublishedReview, ReviewList, ReviewsDataset } from '../schemas/published.ts';
import type { SearchResult } from '../schemas/search.ts';
import type { ServiceUrls } from '../urls.ts';

export type OpenApiExamples = {
  reviewsDataset: ReviewsDataset;
  jsonFeed: JsonFeed;
  searchResult: SearchResult;
  reviewList: ReviewList;
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
    media: [
      {
        type: 'photo',
        alt: 'The new furnace in the basement',
        url: urls.media('3f9a6c0d21e4b587-1280.jpg'),
        width: 1280,
        height: 960,
        size_in_bytes: 148213,
        thumbnail_url: urls.media('3f9a6c0d21e4b587-320.jpg'),
        variants: [320, 640, 1280].flatMap((width) =>
          (['webp', 'jpg'] as const).map((ext) => ({
            url: urls.media(`3f9a6c0d21e4b587-${width}.${ext}`),
            width,
            height: (width * 3) / 4,
            mime_type: ext === 'webp' ? ('image/webp' as const) : ('image/jpeg' as const),
            size_in_bytes: Math.round((width * width) / (ext === 'webp' ? 14 : 11)),
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
    searchResult: { reviews: [review], count: 1, total: 1, limit: 20, next_cursor: null },
    reviewList: { reviews: [review], count: 1, total: 1 },
    badDate: {
      error: 'invalid_date',
      message: '"2024-02-30" is not a calendar date in the form YYYY-MM-DD.',
      issues: [{ path: ['date'], message: 'must be a valid calendar date, YYYY-MM-DD', code: 'invalid_format' }],
    },
  };
}
