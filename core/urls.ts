/**
 * Every public URL is built here, so HTML, JSON, Atom and JSON Feed can never drift apart.
 * `base` is the `{base_url}` origin without a trailing slash (sidecar/config.ts normalises it).
 */
export type ServiceUrls = ReturnType<typeof createServiceUrls>;

export const PATHS = {
  home: '/',
  reviewsJson: '/reviews.json',
  insightsJson: '/insights.json',
  feedJson: '/api/feed.json',
  feedXml: '/feed.xml',
  openapi: '/.well-known/openapi.json',
  search: '/api/reviews/search',
  sincePrefix: '/api/reviews/since/',
  hub: '/api/websub/hub',
  mcp: '/mcp',
} as const;

/** Path of the human archive page that lists a month's reviews; each review is an anchor on it. */
export function archivePath(month: string): string {
  return `/reviews/${month}/`;
}

export function createServiceUrls(base: string) {
  const at = (path: string) => `${base}${path}`;
  return {
    base,
    home: at(PATHS.home),
    reviewsJson: at(PATHS.reviewsJson),
    insightsJson: at(PATHS.insightsJson),
    feedJson: at(PATHS.feedJson),
    feedXml: at(PATHS.feedXml),
    openapi: at(PATHS.openapi),
    search: at(PATHS.search),
    hub: at(PATHS.hub),
    mcp: at(PATHS.mcp),
    since: (date: string) => at(`${PATHS.sincePrefix}${date}`),
    archive: (month: string) => at(archivePath(month)),
    /** A review's permanent human URL: its anchor on the month's archive page. */
    review: (review: { id: string; date: string }) => at(`${archivePath(review.date.slice(0, 7))}#${review.id}`),
    /** The WebSub topics, all tracking the same data (interface.md "Events"). */
    topics: () => [at(PATHS.feedXml), at(PATHS.feedJson), at(PATHS.reviewsJson)],
  };
}
