/**
 * The human search page (the build's shell filled by the service, core/pages/search-page.ts) against the
 * REST search, and the HTML 404 that browsers get, over real HTTP on the real build.
 */
import { cp, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PAGE_SHELL_FILE } from '../../core/publishing/manifest.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let contentDir: string;
let distDir: string;

beforeAll(async () => {
  contentDir = path.join(await mkdtemp(path.join(tmpdir(), 'search-page-')), 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  ({ distDir } = await buildTestSite({ contentDir }));
  sidecar = await startTestSidecar({ distDir });
});
afterAll(async () => {
  await sidecar?.close();
});

/** Review ids in page order: each review is an `<article class="review" id=…>`. */
function reviewIdsOf(html: string): string[] {
  return [...html.matchAll(/<article class="review" id="([^"]+)"/g)].map((m) => m[1]!);
}

async function getPage(query: string) {
  const res = await fetch(`${sidecar.url}/search/${query === '' ? '' : `?${query}`}`, { headers: { Accept: BROWSER_ACCEPT } });
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
}

async function getRest(query: string) {
  const res = await fetch(`${sidecar.url}/api/reviews/search?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { reviews: { id: string }[]; total: number };
}

/** What a browser sends for a form with only `filled` filled in: every other field empty. */
function asFormSubmission(filled: Record<string, string>): string {
  const fields = ['query', 'rating', 'mentions_technician', 'mentions_service', 'aspect', 'aspect_sentiment', 'since', 'until', 'sort'];
  const params = new URLSearchParams(fields.map((name) => [name, filled[name] ?? '']));
  for (const [name, value] of Object.entries(filled)) if (!fields.includes(name)) params.set(name, value);
  return params.toString();
}

describe('the search page', () => {
  it.each<Record<string, string>>([
    {},
    { rating: '5' },
    { query: 'furnace' },
    { mentions_technician: 'mike' },
    { mentions_service: 'ac-repair', sort: 'lowest' },
    { has_response: 'true' },
    { has_response: 'false', sort: 'highest' },
    { since: '2025-02-01', until: '2025-02-28' },
    { min_rating: '2', limit: '3' },
  ])('lists the reviews the REST search answers for %j, in the same order', async (filters) => {
    const page = await getPage(asFormSubmission(filters));
    const rest = await getRest(new URLSearchParams(filters).toString());
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(rest.total).toBeGreaterThan(0);
    expect(reviewIdsOf(page.html)).toEqual(rest.reviews.map((r) => r.id));
  });

  it('links to the next page of results until there is none, with the filters kept', async () => {
    const filters = 'min_rating=1&limit=3&sort=highest';
    const all = await getRest('min_rating=1&limit=100&sort=highest');
    const seen: string[] = [];
    let query = filters;
    for (let pages = 0; pages < 10; pages++) {
      const page = await getPage(query);
      expect(page.status).toBe(200);
      seen.push(...reviewIdsOf(page.html));
      const next = /<a href="\/search\/\?([^"]+)" rel="next"/.exec(page.html);
      if (next === null) break;
      query = next[1]!.replaceAll('&amp;', '&');
      expect(new URLSearchParams(query).get('sort')).toBe('highest');
      expect(new URLSearchParams(query).get('cursor')).toBeTruthy();
    }
    expect(seen).toEqual(all.reviews.map((r) => r.id));
    expect(seen.length).toBeGreaterThan(3);
  });

  it('keeps the chosen filters in the form', async () => {
    const { html } = await getPage('query=furnace&mentions_technician=mike&has_response=true&sort=lowest');
    expect(html).toMatch(/<input id="f-query" name="query" type="search"[^>]* value="furnace"/);
    expect(html).toMatch(/<option value="Michael Reyes" selected>/);
    expect(html).toMatch(/<option value="lowest" selected>/);
    expect(html).toMatch(/name="has_response" type="checkbox" value="true" checked/);
  });

  it('answers 400 with every problem named next to its field, and no results', async () => {
    const page = await getPage('rating=9&since=2025-13-01&colour=red');
    expect(page.status).toBe(400);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.html).toContain('<strong>Stars:</strong> must be an integer from 1 to 5');
    expect(page.html).toContain('<strong>From:</strong> must be a calendar date');
    expect(page.html).toContain('<strong>colour:</strong> is not a search parameter');
    expect(reviewIdsOf(page.html)).toEqual([]);
  });

  it('refuses a cursor issued for other filters', async () => {
    const first = await getPage('limit=2');
    const cursor = /cursor=([^"&]+)"/.exec(first.html)![1]!;
    const page = await getPage(`limit=2&rating=5&cursor=${cursor}`);
    expect(page.status).toBe(400);
    expect(page.html).toContain('<strong>Page:</strong> was issued for other filters');
  });

  it('is sent like the other live answers: compressed, with an ETag that revalidates', async () => {
    const first = await fetch(`${sidecar.url}/search/?rating=5`, { headers: { 'Accept-Encoding': 'br' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(first.headers.get('vary')).toContain('Accept-Encoding');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(first.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(reviewIdsOf(await first.text()).length).toBeGreaterThan(0);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${sidecar.url}/search/?rating=5`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('redirects /search to /search/ with the query kept, and answers HEAD but not POST', async () => {
    const redirect = await fetch(`${sidecar.url}/search?query=leak`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(new URL(redirect.headers.get('location')!, redirect.url).href).toBe(`${sidecar.url}/search/?query=leak`);
    const head = await fetch(`${sidecar.url}/search/?rating=5`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const post = await fetch(`${sidecar.url}/search/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('matches its path exactly, like every live route: another case is unknown', async () => {
    for (const other of ['/SEARCH/', '/Search/', '/SEARCH']) {
      const res = await fetch(`${sidecar.url}${other}?rating=5`, { redirect: 'manual', headers: { Accept: BROWSER_ACCEPT } });
      expect(res.status, other).toBe(404);
    }
  });

  it('carries the headers of every page, set once by the sidecar', async () => {
    const res = await fetch(`${sidecar.url}/search/?rating=5`);
    const home = await fetch(`${sidecar.url}/`);
    for (const name of ['content-type', 'cache-control', 'content-security-policy', 'referrer-policy', 'x-content-type-options']) {
      expect(res.headers.get(name), name).toBe(home.headers.get(name));
    }
  });
});

describe('after a publish', () => {
  it("serves the new build's search page: its page code and its data", async () => {
    const review = { id: 'r-0009', rating: 2, date: '2025-03-02', text: 'A brand new zeppelin-shaped complaint.', author: 'Sam', verified: true };
    await writeFile(path.join(contentDir, 'reviews', '2025-03.json'), JSON.stringify([review]));
    // The publish's ping swaps the build in (refresh, below), not the watch: the new build's page is changed first.
    sidecar.builds.close();
    const { manifest } = await buildTestSite({ contentDir, outDir: distDir });
    // What a change to the page's code makes of the page the build writes (site/pages/search/index.astro).
    const shellFile = path.join(await realpath(distDir), SEARCH_PAGE_SHELL_FILE);
    const shell = await readFile(shellFile, 'utf8');
    expect(shell).toContain('<h2>For developers and AI agents</h2>');
    await writeFile(shellFile, shell.replace('<h2>For developers and AI agents</h2>', '<h2>For developers, and for AI agents</h2>'));
    expect(await sidecar.builds.refresh()).toBe(true);
    expect(sidecar.builds.current().id).toBe(manifest.build_id);
    const page = await getPage('query=zeppelin');
    expect(reviewIdsOf(page.html)).toEqual(['r-0009']);
    expect(page.html).toContain('<h2>For developers, and for AI agents</h2>');
    expect((await getRest('query=zeppelin')).reviews.map((r) => r.id)).toEqual(['r-0009']);
    // A whole build inside: minutes when the machine is busy.
  }, 300_000);
});

describe('unknown paths', () => {
  it.each([
    ['/no-such-page/', BROWSER_ACCEPT, 'text/html'],
    ['/reviews/1999-01/', BROWSER_ACCEPT, 'text/html'],
    ['/no-such-page/', 'text/html', 'text/html'],
    ['/no-such-page/', '*/*', 'application/json'],
    ['/no-such-page/', 'application/json, text/html', 'application/json'],
    ['/no-such-page/', 'application/json;q=0.5, text/html', 'text/html'],
    ['/no-such-page/', '', 'application/json'],
    ['/api/nothing', BROWSER_ACCEPT, 'application/json'],
    ['/api/reviews/since/2024-02-30', BROWSER_ACCEPT, 'application/json'],
    ['/reviews.jsonx', BROWSER_ACCEPT, 'text/html'],
    ['/nothing.json', BROWSER_ACCEPT, 'application/json'],
    ['/feed.atom.xml', BROWSER_ACCEPT, 'application/json'],
    ['/.well-known/nothing', BROWSER_ACCEPT, 'application/json'],
    ['/mcp/x', BROWSER_ACCEPT, 'application/json'],
  ])('%s with Accept %j gets a 404 as %s', async (path, accept, type) => {
    const res = await fetch(`${sidecar.url}${path}`, { headers: accept === '' ? {} : { Accept: accept } });
    const body = await res.text();
    expect([404, 400]).toContain(res.status);
    expect(res.headers.get('content-type')).toContain(type);
    if (type === 'text/html') {
      expect(res.status).toBe(404);
      expect(body).toContain('<h1>Page not found</h1>');
      expect(body).toContain('<meta name="robots" content="noindex">');
      expect(res.headers.get('vary')).toContain('Accept');
    } else {
      expect(JSON.parse(body)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
  });

  it('sends the HTML 404 compressed when the browser accepts it, and without a body to HEAD', async () => {
    const res = await fetch(`${sidecar.url}/missing`, { headers: { Accept: BROWSER_ACCEPT, 'Accept-Encoding': 'br' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toContain('Page not found'); // fetch decodes brotli
    const head = await fetch(`${sidecar.url}/missing`, { method: 'HEAD', headers: { Accept: BROWSER_ACCEPT } });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
  });
});
