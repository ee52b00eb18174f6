/**
 * A PUBLIC_URL with a path (issue 19 item 4): the service under `https://example.com/reviews`, built and
 * served by the real sidecar over HTTP, as a proxy passes it the requests (the path kept). Every page,
 * link, dataset, feed, Link header, hub topic, OpenAPI server, sitemap entry, widget and MCP address
 * stays under that URL.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.ts';
import { createServiceUrls, prefixRootRelativeUrls, slashRedirectLocation, stripBasePath } from '../../core/urls.ts';
import { pingHub } from '../../scripts/publish.ts';
import { decodeEntities } from '../helpers/html.ts';
import { header, rawRequest } from '../helpers/http.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { launchBrowser } from '../../tools/lib/browser.ts';

const PUBLIC_URL = 'https://example.com/reviews';
const BASE = '/reviews';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let manifest: Awaited<ReturnType<typeof buildTestSite>>['manifest'];
/** What the sidecar answers for a public URL, or a path under the public URL's origin. */
const get = (url: string, headers: Record<string, string> = {}) => rawRequest(`${sidecar.url}${url.replace(/^https:\/\/example\.com/, '')}`, { headers });

beforeAll(async () => {
  const built = await buildTestSite({ publicUrl: PUBLIC_URL });
  manifest = built.manifest;
  sidecar = await startTestSidecar({ distDir: built.distDir, publicUrl: PUBLIC_URL });
}, 180_000);
afterAll(async () => sidecar?.close());

/** Every URL in `href`, `src`, `action` and `srcset` attributes of a page (each candidate of a `srcset`). */
function attributeUrls(html: string): string[] {
  return [...html.matchAll(/\s(href|src|action|srcset)="([^"]*)"/g)].flatMap((m) => {
    const value = decodeEntities(m[2]!);
    return m[1] === 'srcset' ? value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!) : [value];
  });
}

/** Every URL on `example.com` in a text: each must be under PUBLIC_URL. */
function originUrls(text: string): string[] {
  return [...text.matchAll(/https?:\/\/example\.com[^\s"'<>)\]\\]*/g)].map((m) => m[0]);
}

const underPublicUrl = (url: string) => url === PUBLIC_URL || url.startsWith(`${PUBLIC_URL}/`);

describe('PUBLIC_URL with a path', () => {
  it('is accepted without its trailing slash; a query, fragment or user is refused', () => {
    const parse = (value: string) => parseConfig({ PUBLIC_URL: value });
    const ok = parse('https://example.com/reviews/');
    expect(ok.ok && ok.config.publicUrl).toBe(PUBLIC_URL);
    const root = parse('https://reviews.example.com/');
    expect(root.ok && root.config.publicUrl).toBe('https://reviews.example.com');
    for (const bad of ['https://example.com/reviews?x=1', 'https://example.com/reviews#top', 'https://me@example.com/reviews']) {
      const parsed = parse(bad);
      expect(parsed.ok ? 'accepted' : parsed.problems.join()).toMatch(/^PUBLIC_URL: must be an origin and maybe a path/);
    }
  });

  it('serves every page under the path, each link on them staying under it', { timeout: 120_000 }, async () => {
    const pages = Object.keys(manifest.files).filter((p) => p.endsWith('/') || p.endsWith('.html'));
    pages.push('/search/', '/search/?query=late', '/no-such-page/');
    expect(pages.length).toBeGreaterThan(15);
    const linked = new Set<string>();
    for (const page of pages) {
      const res = await get(`${BASE}${page}`, { accept: 'text/html' });
      expect(res.status, page).toBe(page === '/no-such-page/' ? 404 : 200);
      const html = res.body.toString('utf8');
      for (const url of attributeUrls(html)) {
        if (url.startsWith('/') && !url.startsWith('//')) {
          expect(url, `${page} links to ${url}`).toMatch(/^\/reviews\//);
          linked.add(url.split('#')[0]!);
        }
      }
      for (const url of originUrls(decodeEntities(html))) expect(underPublicUrl(url), `${page} names ${url}`).toBe(true);
    }
    expect(linked).toContain('/reviews/widget.js');
    expect(linked).toContain('/reviews/search/');
    for (const url of linked) {
      if (url.includes('?') && !url.startsWith('/reviews/search/')) continue;
      const res = await get(url);
      expect(res.status, url).toBe(200);
    }
  });

  it('names only URLs under it in datasets, feeds, the sitemap, llms.txt, robots.txt and OpenAPI', async () => {
    for (const path of ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml', '/sitemap.xml', '/llms.txt', '/robots.txt', '/.well-known/openapi.json']) {
      const res = await get(`${BASE}${path}`);
      expect(res.status, path).toBe(200);
      const urls = originUrls(res.body.toString('utf8'));
      if (path !== '/insights.json') expect(urls.length, path).toBeGreaterThan(0);
      expect(urls.filter((u) => !underPublicUrl(u)), path).toEqual([]);
    }
    const openapi = JSON.parse((await get(`${BASE}/.well-known/openapi.json`)).body.toString('utf8')) as { servers: { url: string }[] };
    expect(openapi.servers).toEqual([{ url: PUBLIC_URL }]);
    expect((await get(`${BASE}/robots.txt`)).body.toString('utf8')).toContain(`Disallow: ${BASE}/api/reviews/search`);
  });

  it('sends Link headers under it: the topics, the hub, the next page of a search', async () => {
    const feed = await get(`${BASE}/feed.xml`);
    expect(header(feed, 'link')).toBe(`<${PUBLIC_URL}/api/websub/hub>; rel="hub", <${PUBLIC_URL}/feed.xml>; rel="self"`);
    const search = await get(`${BASE}/api/reviews/search?limit=1`);
    expect(search.status).toBe(200);
    expect(header(search, 'link')).toMatch(new RegExp(`^<${PUBLIC_URL}/api/reviews/search\\?.*cursor=.*>; rel="next"$`));
    const next = await get(header(search, 'link')!.slice(1, header(search, 'link')!.indexOf('>')));
    expect(next.status).toBe(200);
  });

  it('redirects the slash-less forms relative to the request, so they stay under it', async () => {
    const month = Object.keys(manifest.files).find((p) => /^\/reviews\/\d{4}-\d{2}\/$/.test(p))!;
    for (const [from, to] of [
      [BASE, `${BASE}/`],
      [`${BASE}${month.slice(0, -1)}?x=1`, `${BASE}${month}?x=1`],
      [`${BASE}/search?query=late`, `${BASE}/search/?query=late`],
    ] as const) {
      const res = await get(from);
      expect(res.status, from).toBe(301);
      expect(new URL(header(res, 'location')!, `https://example.com${from}`).href).toBe(`https://example.com${to}`);
    }
  });

  it('answers nothing outside it but the probes', async () => {
    const outside = await get('/feed.xml');
    expect(outside.status).toBe(404);
    expect(JSON.parse(outside.body.toString('utf8')).message).toContain('lives under /reviews/');
    expect((await get('/healthz')).status).toBe(200);
    expect((await get(`${BASE}/healthz`)).status).toBe(200);
  });

  it('takes publish pings for its topics through the hub under it', async () => {
    const result = await pingHub({ serviceUrl: sidecar.url, urls: createServiceUrls(PUBLIC_URL), manifest, confirmTimeoutMs: 5_000 });
    expect(result).toEqual({ ok: true, confirmed: true, topics: [`${PUBLIC_URL}/feed.xml`, `${PUBLIC_URL}/api/feed.json`, `${PUBLIC_URL}/reviews.json`, `${PUBLIC_URL}/log/checkpoint`] });
    const outside = await rawRequest(`${sidecar.url}${BASE}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `hub.mode=publish&hub.url=${encodeURIComponent('https://example.com/feed.xml')}`,
    });
    expect(outside.status).toBe(400);
  });

  it('runs the widget under it: its script, its searches and its links', { timeout: 120_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      await page.goto(`${sidecar.url}${BASE}/embed/?count=2`);
      const widget = page.locator('reviews-widget');
      await widget.locator('.reviews li').first().waitFor();
      expect(await widget.locator('.more a').getAttribute('href')).toBe(`${sidecar.url}${BASE}/search/`);
      expect(requested).toContain(`${BASE}/widget.js`);
      expect(requested.filter((p) => p.endsWith('/api/reviews/search'))).not.toEqual([]);
      // The browser's own guess at an icon aside, every request stays under the base path.
      expect(requested.filter((p) => !p.startsWith(`${BASE}/`) && p !== '/favicon.ico')).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('answers MCP at its address under it, with links under it', async () => {
    const client = new Client({ name: 'base-path-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}${BASE}/mcp`)));
    try {
      const tools = await client.listTools();
      expect(tools.tools.length).toBeGreaterThan(0);
      const answer = JSON.stringify(await client.callTool({ name: 'search_reviews', arguments: { query: 'late', limit: 2 } }));
      const urls = originUrls(answer.replace(/\\\//g, '/'));
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.filter((u) => !underPublicUrl(u))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('the base path rules (core/urls.ts)', () => {
  it('strips the base path from requests under it, and prefixes root-relative links with it', () => {
    expect(stripBasePath('/reviews/feed.xml?x=1', BASE)).toBe('/feed.xml?x=1');
    expect(stripBasePath('/reviews/', BASE)).toBe('/');
    expect(stripBasePath('/reviewsx/feed.xml', BASE)).toBeUndefined();
    expect(stripBasePath('/feed.xml', '')).toBe('/feed.xml');
    const html = '<a href="/reviews/">x</a><a href="//cdn.example/x">y</a><a href="https://a.example/">z</a><form action="/search/"><img src="/x.png" srcset="/y.png 2x"><source srcset="/a-320.webp 320w, /a-400.webp 400w,//cdn.example/b.webp 800w">';
    expect(prefixRootRelativeUrls(html, BASE)).toBe(
      '<a href="/reviews/reviews/">x</a><a href="//cdn.example/x">y</a><a href="https://a.example/">z</a><form action="/reviews/search/"><img src="/reviews/x.png" srcset="/reviews/y.png 2x"><source srcset="/reviews/a-320.webp 320w, /reviews/a-400.webp 400w,//cdn.example/b.webp 800w">',
    );
    expect(prefixRootRelativeUrls(html, '')).toBe(html);
    expect(slashRedirectLocation('/reviews/2024-05/', '?x=1')).toBe('./2024-05/?x=1');
  });
});
