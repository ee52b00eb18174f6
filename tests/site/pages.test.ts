/**
 * The human pages of a real build of the demo content, served by the real sidecar: every page in the
 * sitemap and every link between them, the head of each page (title, canonical, Open Graph), heading
 * order, JSON-LD, the images, robots.txt, llms.txt, the API reference and the weight of `/`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../core/publishing/manifest.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { buildOpenApiDocument } from '../../core/openapi/index.ts';
import { InsightsSchema } from '../../core/schemas/insights.ts';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { ENTITY_MAX_PAGES, ENTITY_PAGE_SIZE } from '../../site/lib/entity-paging.ts';
import { DEMO_CONTENT, buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { listHeadingLevels, listIds, listLinks, readJsonLd, readLinkHref, readMetaTags, readTitle } from '../helpers/html.ts';
import { MCP_TOOL_NAMES } from '../../core/mcp-tool-names.ts';

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let manifest: Manifest;
let dataset: ReviewsDataset;
/** Path → HTML of every page the build wrote. */
const pages = new Map<string, string>();
/**
 * Not pages of the site: the 404 page and the widget's iframe page are not indexed, listed or linked
 * (tests/site/search-page.test.ts, accessibility.test.ts and quality.test.ts check them); the review check
 * page is a tool that needs a review's id and runs a script, so it is not indexed or listed either
 * (tests/site/log-check.test.ts checks it), and so is the receipt page (tests/site/job-receipt.test.ts).
 */
const NOT_SITE_PAGES = new Set<string>([PATHS.notFoundPage, PATHS.embed, PATHS.logCheck, PATHS.logJob]);

beforeAll(async () => {
  const built = await buildTestSite({ contentDir: DEMO_CONTENT, publicUrl: PUBLIC });
  manifest = built.manifest;
  sidecar = await startTestSidecar({ distDir: built.distDir, publicUrl: PUBLIC });
  dataset = JSON.parse(await readFile(path.join(built.distDir, 'reviews.json'), 'utf8'));
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    if (entry.type.startsWith('text/html') && !NOT_SITE_PAGES.has(urlPath)) pages.set(urlPath, await readFile(path.join(built.distDir, entry.file), 'utf8'));
  }
}, 300_000); // a full build of the demo content: seconds alone, minutes on a busy machine
afterAll(async () => {
  await sidecar?.close();
});

async function fetchText(urlPath: string): Promise<{ status: number; body: string; type: string }> {
  const res = await fetch(`${sidecar.url}${urlPath}`, { redirect: 'manual' });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' };
}

function sitemapPaths(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.slice(PUBLIC.length));
}

describe('the pages', () => {
  it('are all in sitemap.xml, which lists nothing else', async () => {
    const sitemap = await fetchText('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.type).toBe('application/xml; charset=utf-8');
    const listed = sitemapPaths(sitemap.body);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...pages.keys()].sort());
    expect(listed).toEqual(expect.arrayContaining(['/', '/reviews/', '/technicians/', '/services/', '/about/', '/developers/', '/developers/api/']));
  });

  it('link to each other with no broken link or fragment, and every search link is a valid search', async () => {
    const checked = new Map<string, string | null>();
    const problems: string[] = [];
    for (const [from, html] of pages) {
      for (const href of listLinks(html)) {
        const url = new URL(href, `${PUBLIC}${from}`);
        if (url.origin !== PUBLIC) continue;
        if (url.pathname === '/search/') {
          // The search page takes the REST search's own parameters: the same query must be valid there.
          const api = `/api/reviews/search${url.search}`;
          if (!checked.has(api)) checked.set(api, String((await fetchText(api)).status));
          if (checked.get(api) !== '200') problems.push(`${from}: ${href} is not a valid search (${checked.get(api)})`);
          continue;
        }
        if (!checked.has(url.pathname)) {
          const res = await fetchText(url.pathname);
          checked.set(url.pathname, res.status === 200 ? (res.type.startsWith('text/html') ? res.body : '') : null);
        }
        const target = checked.get(url.pathname);
        if (target === null) problems.push(`${from}: ${href} is broken`);
        else if (url.hash && target && !listIds(target).has(decodeURIComponent(url.hash.slice(1)))) problems.push(`${from}: ${href} has no target`);
      }
    }
    expect(problems).toEqual([]);
    // Reachable from the home page: the sections people start from.
    const home = listLinks(pages.get('/')!);
    expect(home).toEqual(expect.arrayContaining(['/reviews/', '/technicians/', '/services/', '/about/', '/developers/', '/developers/api/']));
  }, 120_000); // every page's sort and star links are searches to check

  it('each have a title, a description, a canonical URL of their own, and Open Graph and Twitter tags', () => {
    const titles = new Set<string>();
    for (const [urlPath, html] of pages) {
      const title = readTitle(html);
      expect(title, urlPath).toBeTruthy();
      titles.add(title!);
      const meta = readMetaTags(html);
      expect(meta.get('description')?.length, urlPath).toBeGreaterThan(40);
      expect(readLinkHref(html, 'canonical'), urlPath).toBe(`${PUBLIC}${urlPath}`);
      expect(meta.get('og:url'), urlPath).toBe(`${PUBLIC}${urlPath}`);
      expect(meta.get('og:title'), urlPath).toBe(title);
      expect(meta.get('og:image'), urlPath).toBe(`${PUBLIC}/share.png`);
      expect(meta.get('twitter:card'), urlPath).toBe('summary_large_image');
      expect(html, urlPath).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(html, urlPath).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png">');
    }
    expect(titles.size).toBe(pages.size);
  });

  it('have one h1 each and never skip a heading level', () => {
    for (const [urlPath, html] of pages) {
      const levels = listHeadingLevels(html);
      expect(levels[0], urlPath).toBe(1);
      expect(levels.filter((l) => l === 1), urlPath).toHaveLength(1);
      levels.forEach((level, i) => i > 0 && expect(level - levels[i - 1]!, `${urlPath}: h${levels[i - 1]} then h${level}`).toBeLessThanOrEqual(1));
    }
  });

  it('put aria-label only on elements with a role that allows it, and load no script', () => {
    for (const [urlPath, html] of pages) {
      // A div, span or p takes a name only with a role that allows one (the scrolling tables' role="region").
      expect(html, urlPath).not.toMatch(/<(span|div|p)\b(?![^>]*\srole="(region|group|img)")[^>]*\saria-label=/);
      expect(html, urlPath).not.toMatch(/<script(?![^>]*type="application\/ld\+json")/);
    }
  });

  it('keep / under 50 KB compressed, its CSS included', () => {
    const home = manifest.files['/']!;
    expect(home.encodings.br!.size).toBeLessThan(50_000);
    expect(home.encodings.gzip!.size).toBeLessThan(50_000);
    expect(pages.get('/')).toMatch(/<style>/);
    expect(pages.get('/')).not.toMatch(/<link rel="stylesheet"/);
  });
});

describe('the structured data', () => {
  it('describes the business as a HomeAndConstructionBusiness with address, telephone, areas and services', () => {
    const [business, site] = readJsonLd(pages.get('/')!) as Record<string, any>[];
    const b = dataset.business;
    expect(business).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'HomeAndConstructionBusiness',
      name: b.name,
      url: b.url,
      telephone: b.telephone,
      address: { '@type': 'PostalAddress', streetAddress: b.address.street, addressLocality: b.address.locality, addressRegion: b.address.region, postalCode: b.address.postal_code, addressCountry: b.address.country },
    });
    expect(business!.areaServed.map((a: { name: string }) => a.name)).toEqual(b.service_areas);
    expect(business!.hasOfferCatalog.itemListElement.map((o: any) => o.itemOffered.name)).toEqual(b.services.map((s) => s.name));
    expect(site).toMatchObject({ '@type': 'WebSite', url: `${PUBLIC}/`, about: { '@id': business!['@id'] } });
  });

  it('claims no Review or AggregateRating on any page (docs/site.md "Structured data": they would be self-serving)', () => {
    for (const [urlPath, html] of pages) {
      const text = JSON.stringify(readJsonLd(html));
      expect(text, urlPath).not.toMatch(/"(Review|AggregateRating|reviewRating|aggregateRating|review)"/);
    }
  });

  it('gives technician and service pages a breadcrumb trail', () => {
    const [crumbs] = readJsonLd(pages.get('/technicians/sarah-kowalski/')!) as Record<string, any>[];
    expect(crumbs!['@type']).toBe('BreadcrumbList');
    expect(crumbs!.itemListElement.map((i: any) => i.item)).toEqual([`${PUBLIC}/`, `${PUBLIC}/technicians/`, `${PUBLIC}/technicians/sarah-kowalski/`]);
  });
});

describe('reviews on the pages', () => {
  it('read as people write them: dates, sources, services, and a permalink per review', () => {
    const month = pages.get('/reviews/2026-11/')!;
    expect(month).toContain('<time datetime="2026-11-14">November 14, 2026</time>');
    const review = dataset.reviews.find((r) => r.date.startsWith('2026-11') && r.services.length > 0 && r.source === 'google')!;
    const article = month.slice(month.indexOf(`<article class="review" id="${review.id}"`));
    const card = article.slice(0, article.indexOf('</article>'));
    expect(card).toContain(`href="/reviews/2026-11/#${review.id}"`);
    expect(card).toContain('via Google');
    expect(card).toContain(`href="/services/${review.services[0]}/"`);
    expect(card).toContain(`Rated ${review.rating} out of 5`);
    expect(review.url).toBe(`${PUBLIC}/reviews/2026-11/#${review.id}`);
  });

  it('link every month to the one before and after, in order, and list each in /reviews/ with its count', () => {
    const months = [...new Set(dataset.reviews.map((r) => r.date.slice(0, 7)))];
    const index = pages.get('/reviews/')!;
    months.forEach((month, i) => {
      const html = pages.get(`/reviews/${month}/`)!;
      const older = months[i + 1];
      const newer = months[i - 1];
      if (older) expect(html, month).toContain(`<a href="/reviews/${older}/" rel="prev">`);
      if (newer) expect(html, month).toContain(`<a href="/reviews/${newer}/" rel="next">`);
      const count = dataset.reviews.filter((r) => r.date.startsWith(month)).length;
      expect(index).toMatch(new RegExp(`href="/reviews/${month}/">[^<]+</a></th><td class="num">${count}</td>`));
    });
  });

  it(`page each technician's and service's reviews ${ENTITY_PAGE_SIZE} at a time, newest first, up to ${ENTITY_MAX_PAGES} pages`, () => {
    for (const technician of dataset.business.technicians) {
      const slug = technician.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const mine = dataset.reviews.filter((r) => r.technicians.includes(technician.name));
      const pageCount = Math.min(ENTITY_MAX_PAGES, Math.ceil(mine.length / ENTITY_PAGE_SIZE));
      const onPages: string[] = [];
      for (let page = 1; page <= pageCount; page++) {
        const html = pages.get(page === 1 ? `/technicians/${slug}/` : `/technicians/${slug}/page/${page}/`);
        expect(html, `${slug} page ${page}`).toBeDefined();
        onPages.push(...[...html!.matchAll(/<article class="review" id="([^"]+)"/g)].map((m) => m[1]!));
      }
      expect(pages.has(`/technicians/${slug}/page/${pageCount + 1}/`)).toBe(false);
      expect(onPages).toEqual(mine.slice(0, pageCount * ENTITY_PAGE_SIZE).map((r) => r.id));
    }
  });
});

describe('the insights on the pages', () => {
  it('shade each topic trend on / from its line down to 0%, so the empty part of the chart reads as the scale', () => {
    const charts = [...pages.get('/')!.matchAll(/<svg class="trend"[^>]*>([\s\S]*?)<\/svg>/g)].map((m) => m[1]!);
    expect(charts.length).toBeGreaterThanOrEqual(3);
    const pointsOf = (tag: string, body: string) => [...body.matchAll(new RegExp(`<${tag}[^>]*points="([^"]+)"`, 'g'))].map((m) => m[1]!.split(' '));
    for (const chart of charts) {
      const lines = pointsOf('polyline', chart);
      const areas = pointsOf('polygon', chart);
      expect(areas.length).toBe(lines.length);
      lines.forEach((line, i) => {
        const area = areas[i]!;
        // The line's own points, then down to the time axis (0% of a 120-high chart, 22 left for its labels) and back.
        expect(area.slice(0, line.length)).toEqual(line);
        expect(area.slice(line.length)).toEqual([`${line.at(-1)!.split(',')[0]},98.0`, `${line[0]!.split(',')[0]},98.0`]);
      });
    }
  });

  it('label both axes of every trend chart, and draw one only from three quarters with data', () => {
    let charts = 0;
    for (const [urlPath, html] of pages) {
      for (const [, body] of html.matchAll(/<svg class="trend"[^>]*>([\s\S]*?)<\/svg>/g)) {
        charts++;
        const ticks = [...body!.matchAll(/<text class="tick"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]!);
        expect(ticks.filter((t) => /^Q[1-4] \d{4}$/.test(t)).length, urlPath).toBe(2);
        expect(ticks.filter((t) => /^\d+(%|★)$/.test(t)).length, urlPath).toBeGreaterThanOrEqual(2);
        expect((body!.match(/<circle class="dot"/g) ?? []).length, urlPath).toBeGreaterThanOrEqual(3);
      }
    }
    expect(charts).toBeGreaterThan(10);
  });
});

describe('files for machines and sharing', () => {
  it('renders the share image as a 1200×630 PNG, the touch icon 180×180, and an ICO favicon', async () => {
    const png = Buffer.from(await (await fetch(`${sidecar.url}/share.png`)).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    const touch = Buffer.from(await (await fetch(`${sidecar.url}/apple-touch-icon.png`)).arrayBuffer());
    expect([touch.readUInt32BE(16), touch.readUInt32BE(20)]).toEqual([180, 180]);
    const ico = await fetch(`${sidecar.url}/favicon.ico`);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await ico.arrayBuffer());
    expect([bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes.subarray(23, 26).toString()]).toEqual([1, 1, 'PNG']);
    expect((await fetchText('/favicon.svg')).body).toMatch(/^<svg /);
  });

  it('has a robots.txt that points at the sitemap and keeps crawlers out of endless search results', async () => {
    const robots = await fetchText('/robots.txt');
    expect(robots.type).toBe('text/plain; charset=utf-8');
    expect(robots.body).toContain(`Sitemap: ${PUBLIC}/sitemap.xml`);
    expect(robots.body).toContain('Disallow: /search/');
    expect(robots.body).toContain('Disallow: /api/reviews/search');
  });

  it('has an llms.txt that tells agents where the datasets, OpenAPI and MCP endpoint are', async () => {
    const llms = (await fetchText('/llms.txt')).body;
    expect(llms.startsWith(`# ${dataset.business.name} reviews\n\n> `)).toBe(true);
    for (const url of [`${PUBLIC}/reviews.json`, `${PUBLIC}/insights.json`, `${PUBLIC}/.well-known/openapi.json`, `${PUBLIC}/mcp`, `${PUBLIC}/feed.xml`]) expect(llms).toContain(url);
    for (const tool of MCP_TOOL_NAMES) expect(llms).toContain(tool);
  });

  it('renders every operation and schema of the OpenAPI document on /developers/api/, with curl examples', () => {
    const html = pages.get('/developers/api/')!;
    const document = buildOpenApiDocument({ urls: createServiceUrls(PUBLIC), insightsSchema: InsightsSchema }) as Record<string, any>;
    for (const [p, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of ['get', 'post', 'delete']) if (item[method]) expect(html, `${method} ${p}`).toContain(`<code>${p}</code>`);
    }
    for (const name of Object.keys(document.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
    expect(html).toContain(`curl -s &#39;${PUBLIC}/api/reviews/search?query=water%20heater`);
    expect(html).toContain('If-None-Match: $etag');
    expect(html).toContain('hub.mode=subscribe');
    expect(html).toContain(`claude mcp add --transport http reviews ${PUBLIC}/mcp`);
  });

  it('redirects a page URL without its trailing slash to the canonical one', async () => {
    const res = await fetch(`${sidecar.url}/technicians/sarah-kowalski`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    // Relative to the request, so it holds under a PUBLIC_URL with a path (tests/deploy/base-path.test.ts).
    expect(new URL(res.headers.get('location')!, res.url).pathname).toBe('/technicians/sarah-kowalski/');
  });
});
