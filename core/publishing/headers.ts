/**
 * Response headers of every static path, in one place: the sidecar serves them and the build
 * writes them to `_headers` for static hosts (Netlify, Cloudflare Pages), so both agree.
 */
import { isSliceFeedPath, isTopicPath, PATHS, type ServiceUrls } from '../urls.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Content-Type by path. The since snapshots have no extension; the JSON Feed is served as JSON (interface.md). */
export function contentTypeOf(path: string): string {
  if (path.startsWith(PATHS.sincePrefix) || path.endsWith('.json')) return JSON_TYPE;
  if (path === PATHS.feedXml || (isSliceFeedPath(path) && path.endsWith('.xml'))) return 'application/atom+xml; charset=utf-8';
  if (path.endsWith('/') || path.endsWith('.html')) return 'text/html; charset=utf-8';
  if (path.endsWith('.css')) return 'text/css; charset=utf-8';
  if (path.endsWith('.js')) return 'text/javascript; charset=utf-8';
  if (path.endsWith('.svg')) return 'image/svg+xml';
  if (path.endsWith('.txt') || path.endsWith('.tlog-proof') || path === PATHS.logCheckpoint || path === PATHS.logVkey || path === PATHS.logPolicy) return 'text/plain; charset=utf-8';
  if (path.endsWith('.xml')) return 'application/xml; charset=utf-8';
  if (path.endsWith('.png')) return 'image/png';
  if (path.endsWith('.jpg')) return 'image/jpeg';
  if (path.endsWith('.webp')) return 'image/webp';
  if (path.endsWith('.ico')) return 'image/x-icon';
  return 'application/octet-stream';
}

export function isCompressible(type: string): boolean {
  return /^(text\/|application\/(json|atom\+xml|xml|feed\+json)|image\/svg\+xml)/.test(type);
}

/**
 * WebSub §4 discovery: a topic names its hub and its own canonical URL in one RFC 8288 `Link` header,
 * the same on a GET of the topic and on a notification (§7). Both URLs are absolute.
 */
export function topicLinkHeader(hubUrl: string, topicUrl: string): string {
  return `<${hubUrl}>; rel="hub", <${topicUrl}>; rel="self"`;
}

/**
 * The headers of every public read answer (docs/api.md "CORS"), static or live, success or error: any origin
 * may read it, and scripts may read its validators and WebSub links. `nosniff` keeps browsers to the
 * declared type. `/mcp` validates `Origin` instead and does not use these.
 */
export const NOSNIFF_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };
export const READ_HEADERS: Readonly<Record<string, string>> = {
  ...NOSNIFF_HEADERS,
  'Access-Control-Allow-Origin': '*',
  // Browsers hide non-safelisted headers from cross-origin scripts unless exposed.
  'Access-Control-Expose-Headers': 'ETag, Link',
};

/**
 * The headers of every human page: no CORS (pages are not an API), and a Content-Security-Policy that
 * allows only this origin's scripts, styles, images and fonts, no plugins, no framing, forms only to this
 * origin. Scripts must be files (no inline script: Astro emits every script as a file, astro.config.mjs
 * `assetsInlineLimit: 0`), so markup injected into a page cannot run; inline styles stay allowed (the
 * pages set bar widths in `style` attributes and carry their small stylesheet inline). Referrers leave the
 * site as the origin alone.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...NOSNIFF_HEADERS,
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** The widget's page for an `<iframe>` (`/embed/`) is made to be framed, by any site. */
export const EMBED_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  'Content-Security-Policy': PAGE_HEADERS['Content-Security-Policy']!.replace("frame-ancestors 'none'", 'frame-ancestors *'),
};

/**
 * Cache-Control: data may be cached briefly and revalidated cheaply with its ETag (a 304 costs the
 * origin almost nothing), and served stale while a CDN revalidates; hashed Astro assets are immutable.
 */
export function cacheControlOf(path: string): string {
  // Photos are named by the hash of their source: a changed photo gets a new name.
  if (path.startsWith('/_astro/') || path.startsWith(PATHS.mediaPrefix)) return 'public, max-age=31536000, immutable';
  // C2SP tlog-tiles: a tile's bytes never change (a partial tile's path names its width), and a
  // checkpoint is fetched fresh; a few seconds spare the origin a burst of monitors.
  if (path.startsWith(`${PATHS.logPrefix}tile/`)) return 'public, max-age=31536000, immutable';
  if (path === PATHS.logCheckpoint) return 'public, max-age=5';
  if (path === PATHS.openapi) return 'public, max-age=300, stale-while-revalidate=3600';
  return 'public, max-age=60, stale-while-revalidate=300';
}

/** The headers a static path carries on every response (200, 304, HEAD). */
export function staticHeadersOf(path: string, urls: ServiceUrls): Record<string, string> {
  const type = contentTypeOf(path);
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': cacheControlOf(path),
    ...(type.startsWith('text/html') ? (path === PATHS.embed ? EMBED_PAGE_HEADERS : PAGE_HEADERS) : READ_HEADERS),
  };
  if (isTopicPath(path)) headers['Link'] = topicLinkHeader(urls.hub, `${urls.base}${path}`);
  return headers;
}

/** `_headers` for static hosts: one block per path (or wildcard) with the same headers. */
export function renderHostHeadersFile(paths: readonly string[], urls: ServiceUrls): string {
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const path of [...paths].sort()) {
    // The since snapshots, the review proofs and the job look-ups, one file per date, review or shard, share their headers.
    const prefix = [PATHS.sincePrefix, PATHS.logProofPrefix, PATHS.logJobsPrefix].find((p) => path.startsWith(p));
    const pattern = prefix === undefined ? path : `${prefix}*`;
    if (seen.has(pattern)) continue;
    seen.add(pattern);
    const headers = staticHeadersOf(path, urls);
    blocks.push([pattern, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n'));
  }
  return `${blocks.join('\n')}\n`;
}
