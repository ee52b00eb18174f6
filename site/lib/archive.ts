/** The monthly archive pages: each review's permanent URL is its anchor on its month's page. */
import type { PublishedReview } from '../../core/schemas/published.ts';

export function listArchiveMonths(reviews: readonly PublishedReview[]): { month: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of reviews) counts.set(r.date.slice(0, 7), (counts.get(r.date.slice(0, 7)) ?? 0) + 1);
  return [...counts].map(([month, count]) => ({ month, count }));
}

export function reviewsOfMonth(reviews: readonly PublishedReview[], month: string): PublishedReview[] {
  return reviews.filter((r) => r.date.startsWith(month));
}
