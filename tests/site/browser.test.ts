import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;
let otherOrigin: Server;

beforeAll(async () => {
  const { distDir } = await buildTestSite({ publicUrl: 'http://127.0.0.1:1' });
  sidecar = await startTestSidecar({ distDir, publicUrl: 'http://127.0.0.1:1' });
  browser = await launchBrowser();
  otherOrigin = createServer((_req, res) => res.end('<!doctype html><title>app</title>'));
  await new Promise<void>((resolve) => otherOrigin.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
  otherOrigin?.close();
});

describe('in a real browser', () => {
  it('shows the business, its rating and the newest reviews on the home page', async () => {
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/`);
    expect(await page.locator('h1').textContent()).toBe('Brightline Heating & Air');
    expect(await page.locator('main').textContent()).toContain('out of 5 · 7 verified reviews');
    expect(await page.locator('article.review').count()).toBe(7);
    expect(await page.locator('article#r-0005 h3').textContent()).toContain('Rated 5 out of 5');
    // The original of a review first posted elsewhere, when the content links it.
    expect(await page.locator('article#r-0001 a[rel=external]').getAttribute('href')).toBe('https://www.google.com/maps/reviews/data=brightline-r-0001');
    expect(await page.locator('article#r-0001 a[rel=external]').textContent()).toBe('Google (the original review)');
    await page.close();
  });

  it("highlights the review a permalink points at, and only that one", async () => {
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/reviews/2025-01/#r-0002`);
    const background = (id: string) => page.locator(`article#${id}`).evaluate((el) => getComputedStyle(el).backgroundColor);
    const plain = await background('r-0001');
    expect(await background('r-0002')).not.toBe(plain);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.close();
  });

  it('lets a script on another origin read the dataset, its ETag and revalidate', async () => {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(otherOrigin.address() as AddressInfo).port}/`);
    const result = await page.evaluate(async (base) => {
      const res = await fetch(`${base}/reviews.json`);
      const body = await res.json();
      const search = await fetch(`${base}/api/reviews/search?rating=5`);
      return { status: res.status, etag: res.headers.get('etag'), link: res.headers.get('link'), count: body.reviews.length, search: (await search.json()).total };
    }, sidecar.url);
    expect(result.status).toBe(200);
    expect(result.etag).toMatch(/^"/);
    expect(result.link).toContain('rel="hub"');
    expect(result.count).toBe(7);
    expect(result.search).toBe(3);
    await page.close();
  });
});
