/**
 * When a review last changed: its own date, or a later reply from the owner. A review's `updated` floor
 * (core/content/review-history.ts), the sitemap's `lastmod` and the build's data date all read it here.
 */
type Dated = { date: string; response?: { date: string } | null };

/** The latest day a review changed: its own date, or the owner's reply date when that is later. */
export function getLatestChange(review: Dated): string {
  return review.response && review.response.date > review.date ? review.response.date : review.date;
}

/** The latest change over some reviews; undefined when there are none. */
export function getNewestChange(reviews: readonly Dated[]): string | undefined {
  let newest: string | undefined;
  for (const review of reviews) {
    const date = getLatestChange(review);
    if (newest === undefined || date > newest) newest = date;
  }
  return newest;
}
