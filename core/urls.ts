/**
 * Every public URL is built here, so HTML, JSON, Atom and JSON Feed can never drift apart.
 * `base` is the `{base_url}` without a trailing slash (core/config.ts normalises it): an origin, or an
 * origin and a path (`https://example.com/reviews`) when the service lives under the business's own site.
 * The paths below are the site's own, under that base; the sidecar strips the base's path from each
 * request (`stripBasePath`), and the built pages' root-relative links get it (`prefixRootRelativeUrls`).
 */
import { slugify } from './text/text-rules.ts';

export type ServiceUrls = ReturnType<typeof createServiceUrls>;

export const PATHS = {
  home: '/',
  reviewsJson: '/reviews.json',
  insightsJson: '/insights.json',
  feedJson: '/api/feed.json',
  feedXml: '/feed.xml',
  openapi: '/.well-known/openapi.json',
  search: '/api/reviews/search',
  technicianRank: '/api/technicians/rank',
  sincePrefix: '/api/reviews/since/',
  /** The change log: every review added, changed or removed since a token (core/dataset/change-log.ts). */
  changes: '/api/reviews/changes',
  hub: '/api/websub/hub',
  mcp: '/mcp',
  /** Operational routes, answered at the root even under a base path (sidecar/app.ts): liveness, readiness, Prometheus. */
  health: '/healthz',
  ready: '/readyz',
  metrics: '/metrics',
  reviewsIndex: '/reviews/',
  technicians: '/technicians/',
  services: '/services/',
  /** The business's locations (issue 43), only for a business that lists them. */
  locations: '/locations/',
  about: '/about/',
  /** How reviews are collected and checked, every figure from the log and the content (issue 42 item 6). */
  aboutReviews: '/about/reviews/',
  developers: '/developers/',
  apiReference: '/developers/api/',
  searchPage: '/search/',
  /** The HTML "page not found", sent with status 404 to browsers (sidecar/http/html-not-found.ts). */
  notFoundPage: '/404.html',
  /** The review widget for other sites: the script, and the page for an `<iframe>`. */
  widget: '/widget.js',
  embed: '/embed/',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  llms: '/llms.txt',
  shareImage: '/share.png',
  favicon: '/favicon.svg',
  faviconIco: '/favicon.ico',
  touchIcon: '/apple-touch-icon.png',
  /** The index of every feed, the main ones and one per slice (core/feeds/slices.ts). */
  feedsIndex: '/feeds.json',
  /** Where the slice feeds live: `/feeds/technicians/{slug}.xml`, `/feeds/complaints.json`… */
  feedsPrefix: '/feeds/',
  /** The customers' photos, one file per width and format, named by content hash (core/media/). */
  mediaPrefix: '/media/',
  /** The review log's static files (C2SP tlog-tiles, docs/log.md): `checkpoint`, `vkey`, `tile/…`. */
  logPrefix: '/log/',
  logCheckpoint: '/log/checkpoint',
  logVkey: '/log/vkey',
  /** The site's own C2SP tlog-policy: its log key, the witnesses it asks, a quorum (docs/verification.md). */
  logPolicy: '/log/policy',
  /** Each review's C2SP tlog-proof, `{id}.tlog-proof` (core/log/review-proofs.ts), written by the build. */
  logProofPrefix: '/log/proof/',
  /** The page that checks one review in the browser, `?review={id}` (site/pages/log/check/). */
  logCheck: '/log/check/',
  /** The page that finds a job in the log by its receipt code, `?code={code}` (site/pages/log/job/). */
  logJob: '/log/job/',
  /** The receipt page's look-up files, `{first two hex characters of a locator}.json` (core/log/job-lookup.ts). */
  logJobsPrefix: '/log/jobs/',
  /** The sidecar as a witness of other review logs (C2SP tlog-witness; sidecar/witness/witness.ts). */
  witnessAddCheckpoint: '/witness/add-checkpoint',
  witnessVkey: '/witness/vkey',
  /** Monitoring: `/witness/<lowercase hex SHA-256 of the origin>/checkpoint`, the latest checkpoint cosigned for that log. */
  witnessMonitoring: '/witness/:originHash/checkpoint',
  witnessPrefix: '/witness/',
} as const;

/** The path of a review's tlog-proof file; review ids are `[a-z0-9-]+`, so they need no escaping. */
export function logProofPath(id: string): string {
  return `${PATHS.logProofPrefix}${id}.tlog-proof`;
}

/** The page that checks one review in the browser. */
export function logCheckPath(id: string): string {
  return `${PATHS.logCheck}?${new URLSearchParams({ review: id })}`;
}

/** The receipt page for a customer's receipt code (core/log/job.ts). */
export function logJobPath(code: string): string {
  return `${PATHS.logJob}?${new URLSearchParams({ code })}`;
}

/** The look-up file of a job locator's shard (core/log/job-lookup.ts). */
export function logJobsShardPath(shard: string): string {
  return `${PATHS.logJobsPrefix}${shard}.json`;
}

/** Path of one encoded photo file (`3f9a…-640.webp`); its name carries the hash of its source, so it never changes. */
export function mediaPath(name: string): string {
  return `${PATHS.mediaPrefix}${name}`;
}

/** A slice of the reviews with feeds of its own: a technician, a service, a location, one aspect's complaints, or all complaints. */
export type FeedSliceRef =
  | { kind: 'technician'; key: string }
  | { kind: 'service'; key: string }
  | { kind: 'location'; key: string }
  | { kind: 'aspect-complaints'; key: string }
  | { kind: 'complaints' };

export type FeedFormat = 'atom' | 'json';

/** Path of a slice's Atom (`.xml`) or JSON Feed (`.json`). */
export function sliceFeedPath(slice: FeedSliceRef, format: FeedFormat): string {
  const extension = format === 'atom' ? '.xml' : '.json';
  switch (slice.kind) {
    case 'technician':
      return `${PATHS.feedsPrefix}technicians/${slice.key}${extension}`;
    case 'service':
      return `${PATHS.feedsPrefix}services/${slice.key}${extension}`;
    case 'location':
      return `${PATHS.feedsPrefix}locations/${slice.key}${extension}`;
    case 'aspect-complaints':
      return `${PATHS.feedsPrefix}complaints/${slice.key}${extension}`;
    case 'complaints':
      return `${PATHS.feedsPrefix}complaints${extension}`;
  }
}

/** Whether a path is a slice feed (`/feeds/….xml` or `/feeds/….json`), served and pushed like the main feeds. */
export function isSliceFeedPath(path: string): boolean {
  return path.startsWith(PATHS.feedsPrefix) && /\.(xml|json)$/.test(path);
}

/**
 * Whether a path belongs to machines (the API, datasets, feeds, the OpenAPI document, /mcp, the
 * hub), whose errors are always JSON, rather than to the human pages, where a browser gets an HTML 404.
 * Anything under `/api/` or `/.well-known/`, `/mcp`, and any `.json` or `.xml` path counts.
 */
export function isMachinePath(path: string): boolean {
  return (
    path.startsWith('/api/') ||
    path.startsWith('/.well-known/') ||
    path === PATHS.mcp ||
    path.startsWith(`${PATHS.mcp}/`) ||
    /\.(json|xml)$/i.test(path)
  );
}

/** Path of the human archive page that lists a month's reviews; each review is an anchor on it. */
export function archivePath(month: string): string {
  return `/reviews/${month}/`;
}

/** A review's permanent human path: its anchor on the archive page of its month. */
export function reviewPath(review: { id: string; date: string }): string {
  return `${archivePath(review.date.slice(0, 7))}#${review.id}`;
}

/**
 * The seed topics' paths: the three that track every review (interface.md "Events"), and the review log's
 * checkpoint, so monitors are pushed each new tree head (docs/log.md); slice feeds are topics too.
 */
export const TOPIC_PATHS: readonly string[] = [PATHS.feedXml, PATHS.feedJson, PATHS.reviewsJson, PATHS.logCheckpoint];

/** Whether a site path is a WebSub topic (its responses carry the hub `Link` header): a seed topic or a slice feed. */
export function isTopicPath(path: string): boolean {
  return TOPIC_PATHS.includes(path) || isSliceFeedPath(path);
}


/** Each technician's slug, in the business's order; a name whose slug is taken gets `-2`, `-3`…. */
export function assignTechnicianSlugs(names: readonly string[]): Map<string, string> {
  const slugs = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    const base = slugify(name);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    slugs.set(name, slug);
  }
  return slugs;
}

/** Page `n` (1-based) of a paged listing whose first page is `first`: `/services/x/`, `/services/x/page/2/`. */
export function pagedPath(first: string, page: number): string {
  return page <= 1 ? first : `${first}page/${page}/`;
}

export function technicianPath(slug: string, page = 1): string {
  return pagedPath(`${PATHS.technicians}${slug}/`, page);
}

export function servicePath(id: string, page = 1): string {
  return pagedPath(`${PATHS.services}${id}/`, page);
}

export function locationPath(id: string, page = 1): string {
  return pagedPath(`${PATHS.locations}${id}/`, page);
}

/**
 * The human search page with the given parameters, which are the REST search's own names
 * (`query`, `rating`, `mentions_technician`, `aspect`…), so an insights `filter` object links as is.
 */
export function searchPagePath(params: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams(Object.entries(params)).toString();
  return query === '' ? PATHS.searchPage : `${PATHS.searchPage}?${query}`;
}

export function createServiceUrls(base: string) {
  const at = (path: string) => `${base}${path}`;
  const { origin, pathname } = new URL(base);
  return {
    base,
    /** The scheme, host and port of `base`: what a browser sends as `Origin`. */
    origin,
    /** The path of `base`, `''` at the root of its origin, else e.g. `/reviews`. */
    basePath: pathname === '/' ? '' : pathname,
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
    /** The change log, from the beginning or after a token. */
    changes: (since?: string) => (since === undefined ? at(PATHS.changes) : `${at(PATHS.changes)}?${new URLSearchParams({ since })}`),
    archive: (month: string) => at(archivePath(month)),
    /** Any site path as an absolute URL (canonical links, the sitemap, Open Graph). */
    absolute: (path: string) => at(path),
    /** The site path of one of these URLs (`{base}/feed.xml` → `/feed.xml`); undefined for a URL outside `base`. */
    pathOf: (url: string) => (url.startsWith(`${base}/`) ? url.slice(base.length) : undefined),
    /** A review's permanent human URL: its anchor on the month's archive page. */
    review: (review: { id: string; date: string }) => at(reviewPath(review)),
    feedsIndex: at(PATHS.feedsIndex),
    /** A review's tlog-proof (its `log_entry.proof_url`). */
    logProof: (id: string) => at(logProofPath(id)),
    /** The receipt page for a customer's receipt code. */
    logJob: (code: string) => at(logJobPath(code)),
    /** The witness's submission prefix (C2SP tlog-witness), as other instances list it in LOG_WITNESSES. */
    witness: at(PATHS.witnessAddCheckpoint.replace(/\/add-checkpoint$/, '')),
    /** An encoded photo file, by name (core/media/media-variants.ts). */
    media: (name: string) => at(mediaPath(name)),
    sliceFeed: (slice: FeedSliceRef, format: FeedFormat) => at(sliceFeedPath(slice, format)),
    /**
     * The WebSub topics: the three seed topics that track every review (interface.md "Events"), then
     * the slice feeds whose paths are given (a build's own list: its technicians, services, aspects).
     */
    topics: (sliceFeedPaths: readonly string[] = []) => [...TOPIC_PATHS, ...sliceFeedPaths].map(at),
  };
}

/**
 * A request path as the site knows it, from the path the sidecar received under `basePath` (the
 * `basePath` of createServiceUrls): `/reviews/feed.xml` → `/feed.xml`; undefined for a path outside
 * it. With no base path, every path is the site's.
 */
export function stripBasePath(requestPath: string, basePath: string): string | undefined {
  if (basePath === '') return requestPath;
  return requestPath.startsWith(`${basePath}/`) ? requestPath.slice(basePath.length) : undefined;
}

/**
 * The HTML of a page with `basePath` put before each root-relative URL of its `href`, `src`, `action`
 * and `srcset` attributes (every candidate of a `srcset` list), so the site's links (written with the
 * paths above) stay inside the base path. Protocol-relative (`//host/…`) and absolute URLs are left alone.
 */
export function prefixRootRelativeUrls(html: string, basePath: string): string {
  if (basePath === '') return html;
  return html
    .replace(/(\s(?:href|src|action)=["'])\/(?!\/)/g, `$1${basePath}/`)
    .replace(/(\ssrcset=)(["'])([^"']*)\2/g, (_, name: string, quote: string, list: string) => `${name}${quote}${list.replace(/(^|,\s*)\/(?!\/)/g, `$1${basePath}/`)}${quote}`);
}

/**
 * The `Location` of the redirect from a slash-less path to its canonical `…/` form, relative to the
 * request (`/reviews/2024-05` → `./2024-05/`), so it holds under any base path and behind any proxy.
 */
export function slashRedirectLocation(canonicalPath: string, query = ''): string {
  const segment = canonicalPath.slice(0, -1).split('/').pop()!;
  return `./${segment}/${query}`;
}
