/** Aggregate rating over published reviews (CONTRACT.md: mean rounded to 2 decimals). */
import type { AggregateRating } from './schemas/published.ts';

export function aggregateRatings(reviews: readonly { rating: number }[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const { rating } of reviews) {
    distribution[String(rating) as keyof typeof distribution] += 1;
    sum += rating;
  }
  return {
    rating_value: roundTo2(reviews.length === 0 ? 0 : sum / reviews.length),
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}

/** Rounds half away from zero on the decimal value, avoiding binary artefacts such as 4.675 → 4.67. */
export function roundTo2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
