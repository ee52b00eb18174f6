/**
 * Technicians, services and service areas with how many reviews mention each and their average
 * rating: the entity part of /insights.json, counted straight from the published reviews.
 */
import { roundTo2 } from '../aggregate.ts';
import type { ReviewsDataset } from '../schemas/published.ts';

export type EntityStats = { mentions: number; average_rating: number | null; review_ids: string[] };

function collect(keys: readonly string[], keysOf: (r: ReviewsDataset['reviews'][number]) => readonly string[], dataset: ReviewsDataset) {
  const stats = new Map(keys.map((k) => [k, { sum: 0, ids: [] as string[] }]));
  for (const review of dataset.reviews) {
    for (const key of keysOf(review)) {
      const s = stats.get(key);
      if (!s) continue;
      s.sum += review.rating;
      s.ids.push(review.id);
    }
  }
  return keys.map((key) => {
    const s = stats.get(key)!;
    return {
      key,
      stats: {
        mentions: s.ids.length,
        average_rating: s.ids.length === 0 ? null : roundTo2(s.sum / s.ids.length),
        review_ids: s.ids,
      } satisfies EntityStats,
    };
  });
}

export function summarizeEntities(dataset: ReviewsDataset) {
  const { business } = dataset;
  return {
    technicians: collect(business.technicians.map((t) => t.name), (r) => r.technicians, dataset).map(({ key, stats }) => ({ name: key, ...stats })),
    services: collect(business.services.map((s) => s.id), (r) => r.services, dataset).map(({ key, stats }) => ({
      id: key,
      name: business.services.find((s) => s.id === key)!.name,
      ...stats,
    })),
    service_areas: collect(business.service_areas, (r) => (r.service_area ? [r.service_area] : []), dataset).map(({ key, stats }) => ({
      name: key,
      ...stats,
    })),
  };
}
