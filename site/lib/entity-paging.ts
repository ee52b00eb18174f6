/** How technician and service pages page their reviews (no Astro import: tests read these too). */

/** Reviews per page of a technician or service. */
export const ENTITY_PAGE_SIZE = 20;

/**
 * At most this many pages per technician or service: the newest 200 reviews. Older ones stay on
 * their month pages and in search, and the build stays bounded at 100,000 reviews.
 */
export const ENTITY_MAX_PAGES = 10;

export function countEntityPages(reviews: number): number {
  return Math.max(1, Math.min(ENTITY_MAX_PAGES, Math.ceil(reviews / ENTITY_PAGE_SIZE)));
}
