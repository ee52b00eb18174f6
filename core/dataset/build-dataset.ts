/**
 * What a build publishes, as values: the reviews dataset (`/reviews.json`: business metadata, aggregate
 * and reviews) and the insights (`/insights.json`). The data flows one way: validated content → each
 * verified review published and analysed once → the insights counted from those same analyses.
 */
import type { Content } from '../content/parse-content.ts';
import type { LoadedContent } from '../content/load-content.ts';
import { publishReviews } from '../content/publish-reviews.ts';
import { aggregateRatings } from '../aggregate.ts';
import type { Insights } from '../schemas/insights.ts';
import type { LocationInfo, PublishedBusiness, PublishedReview, ReviewsDataset } from '../schemas/published.ts';
import type { Location } from '../schemas/content.ts';
import type { ServiceUrls } from '../urls.ts';
import { buildInsightsWithPageText } from './build-insights.ts';
import type { PageText } from '../insights/page-text.ts';
import type { MediaCatalog } from '../media/media-variants.ts';
import type { ReviewAnalysis } from '../insights/analyze-review.ts';

/** `pageText`: the insights as the pages say them, in the site's language (core/insights/page-text.ts). */
export type Publication = { dataset: ReviewsDataset; insights: Insights; pageText: PageText };

/** `changedAt`: each review's latest time in the review log (core/log/), when known. */
export function buildPublication(
  content: LoadedContent,
  urls: ServiceUrls,
  changedAt?: ReadonlyMap<string, string>,
  /** The build's encoded photos; without it, reviews carry no media (core/content/publish-reviews.ts). */
  media?: MediaCatalog,
  /** Each review's analysis made beforehand (scripts/lib/analyze-in-threads.ts), by id. */
  precomputed?: ReadonlyMap<string, ReviewAnalysis>,
): Publication {
  const { reviews, analyses } = publishReviews(content, urls, content.insights.model, changedAt, media, precomputed);
  const dataset = toDataset(content, reviews);
  return { dataset, ...buildInsightsWithPageText(content, dataset, analyses) };
}

/** The dataset alone (the insights then cost nothing). */
export function buildReviewsDataset(content: LoadedContent, urls: ServiceUrls, changedAt?: ReadonlyMap<string, string>): ReviewsDataset {
  return toDataset(content, publishReviews(content, urls, content.insights.model, changedAt).reviews);
}

function toDataset(content: Content, reviews: PublishedReview[]): ReviewsDataset {
  const locations = content.business.locations;
  return {
    business: publishBusiness(content),
    aggregate_rating: aggregateRatings(reviews),
    ...(locations === undefined ? {} : { locations: locations.map(({ id, name }) => ({ id, name, aggregate_rating: aggregateRatings(reviews.filter((r) => r.location === id)) })) }),
    reviews,
  };
}

function publishBusiness({ business }: Content): PublishedBusiness {
  return {
    name: business.name,
    url: business.url,
    telephone: business.telephone,
    address: { ...business.address },
    services: business.services.map((s) => ({ id: s.id, name: s.name, aliases: s.aliases })),
    technicians: business.technicians.map((t) => ({ name: t.name, aliases: t.aliases })),
    service_areas: [...business.service_areas],
    ...(business.locations === undefined ? {} : { locations: business.locations.map(publishLocation) }),
  };
}

/** What a location publishes: all but `google_location`, which is the sync's. */
function publishLocation({ google_location: _, ...location }: Location): LocationInfo {
  return structuredClone(location);
}

