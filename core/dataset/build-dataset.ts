/** The reviews dataset (`/reviews.json`) as a value: business metadata, aggregate and reviews. */
import type { Content } from '../content/parse-content.ts';
import type { LoadedContent } from '../content/load-content.ts';
import { publishReviews } from '../content/publish-reviews.ts';
import { aggregateRatings } from '../aggregate.ts';
import type { PublishedBusiness, ReviewsDataset } from '../schemas/published.ts';
import type { ServiceUrls } from '../urls.ts';

export function buildReviewsDataset(content: LoadedContent, urls: ServiceUrls): ReviewsDataset {
  const reviews = publishReviews(content, urls, content.insights.model);
  return { business: publishBusiness(content), aggregate_rating: aggregateRatings(reviews), reviews };
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
  };
}

/** The newest day the data speaks of (a review or an owner reply), or undefined with no reviews. */
export function latestDataDate(reviews: readonly { date: string; response?: { date: string } | null }[]): string | undefined {
  let latest: string | undefined;
  for (const r of reviews) {
    if (latest === undefined || r.date > latest) latest = r.date;
    if (r.response && r.response.date > latest) latest = r.response.date;
  }
  return latest;
}
