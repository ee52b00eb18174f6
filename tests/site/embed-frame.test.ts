/**
 * The widget in an `<iframe>` (issue 20 item 5), on a service under a PUBLIC_URL with a path, in real
 * Chromium, with reviews whose every part overflows (long titles, long texts, long names): at the fixed
 * height documented for each `count` from 0 to 10 nothing is cut, at 320 and 400 px wide, in the packaged
 * Chromium and the system one when installed (their fonts differ); with the one
 * line of script the frame takes its content's height; /developers/ shows both snippets with the real
 * address; and the widget draws an average with the site's one stars rule.
 */
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { getFrameHeight, renderFrameSizerSnippet, renderFrameSnippet, renderWidgetSnippet } from '../../site/lib/embed-frame.ts';
import { launchBrowser, listChromiumSources } from '../../tools/lib/browser.ts';
import { decodeEntities } from '../helpers/html.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { roundStars } from '../../core/text/text-rules.ts';

const PUBLIC_URL = 'https://example.com/reviews';
const BASE = '/reviews';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;
let host: Server;
let hostUrl: string;
/** The service as the browser reaches it: the sidecar, under the base path. */
let service: string;

beforeAll(async () => {
  const contentDir = path.join(await mkdtemp(path.join(tmpdir(), 'embed-frame-')), 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  // Rated 5 so the mean (4.63) draws four and a half stars where whole stars would draw five.
  const overflowing = Array.from({ length: 12 }, (_, i) => ({
    id: `r-long-${i}`,
    rating: 5,
    date: `2025-03-${String(10 + i).padStart(2, '0')}`,
    title: 'A title that goes on and on, well past the width of any frame an owner would give the widget',
    text: 'Overflowing '.repeat(60).trim(),
    author: 'Bartholomew Featherstonehaugh-Worthington the Third, of Springfield',
    verified: true,
  }));
  await writeFile(path.join(contentDir, 'reviews', '2025-03.json'), JSON.stringify(overflowing));
  const { distDir } = await buildTestSite({ contentDir, publicUrl: PUBLIC_URL });
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC_URL });
  service = `${sidecar.url}${BASE}`;
  browser = await launchBrowser();
  // The owner's page, on another origin: the frame at a given size, with or without the sizing line.
  host = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    const count = url.searchParams.get('count') ?? '3';
    const height = url.searchParams.get('height') ?? String(getFrameHeight(Number(count)));
    const width = url.searchParams.get('width') ?? '400';
    const sizer = url.searchParams.has('sizer') ? renderFrameSizerSnippet(service) : '';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our company</title></head><body style="margin:0">
<iframe src="${service}/embed/?count=${count}&amp;theme=light" title="Customer reviews" width="${width}" height="${height}" style="border:0;display:block"></iframe>${sizer}</body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
  host?.close();
});

describe.each(listChromiumSources())('the widget in a frame of the documented height, in the %s Chromium', (source) => {
  let own: Browser;
  beforeAll(async () => {
    own = await launchBrowser({ source });
  });
  afterAll(async () => {
    await own?.close();
  });

  it.each([320, 400])('shows everything, "Read all" included, for every count from 0 to 10, %i px wide', { timeout: 120_000 }, async (width) => {
    const page = await own.newPage({ viewport: { width: 800, height: 2000 } });
    const cut: string[] = [];
    for (let count = 0; count <= 10; count++) {
      await page.goto(`${hostUrl}/?count=${count}&width=${width}`);
      const frame = page.frameLocator('iframe');
      await frame.locator('reviews-widget .more a').waitFor();
      expect(await frame.locator('reviews-widget .reviews li').count()).toBe(count);
      const { content, viewport, moreBottom } = await frame.locator('reviews-widget').evaluate((widget) => ({
        content: Math.ceil(document.documentElement.getBoundingClientRect().height),
        viewport: window.innerHeight,
        moreBottom: widget.shadowRoot!.querySelector('.more')!.getBoundingClientRect().bottom,
      }));
      expect(viewport).toBe(getFrameHeight(count));
      if (content > viewport || moreBottom > viewport) cut.push(`count ${count}: content ${content} px in ${viewport} px`);
      // Fitted, not padded: no more than a few pixels to spare.
      expect(viewport - content, `count ${count}`).toBeLessThan(24);
    }
    expect(cut).toEqual([]);
    await page.close();
  });
});

describe('the widget in a frame with the sizing line', () => {
  it('takes its content height with the one line of script, and ignores the message from any other origin', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 2000 } });
    await page.goto(`${hostUrl}/?count=4&height=100&sizer`);
    const frame = page.frameLocator('iframe');
    await frame.locator('reviews-widget .more a').waitFor();
    const content = await frame.locator('body').evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    await page.waitForFunction((h) => document.querySelector('iframe')!.getBoundingClientRect().height === h, content);
    await page.evaluate(() => window.postMessage({ type: 'reviews-widget:height', height: 5 }, '*'));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50))); // the message is delivered as a task
    expect(await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height)).toBe(content);
    await page.close();
  });
});

describe('/developers/', () => {
  it('shows the script and the frame snippets, and the sizing line, with the real address', async () => {
    const res = await fetch(`${service}/developers/`, { headers: { Accept: 'text/html' } });
    const html = decodeEntities(await res.text());
    expect(html).toContain(renderWidgetSnippet(PUBLIC_URL));
    expect(html).toContain(renderFrameSnippet(PUBLIC_URL, 'Customer reviews'));
    expect(html).toContain(renderFrameSizerSnippet(PUBLIC_URL));
    expect(renderFrameSnippet(PUBLIC_URL, 'Customer reviews')).toContain('src="https://example.com/reviews/embed/?count=3&theme=auto"');
    expect(renderWidgetSnippet(PUBLIC_URL)).toContain('src="https://example.com/reviews/widget.js"');
  });
});

describe('the widget', () => {
  it('draws an average with the one stars rule of the pages and images', async () => {
    const script = await (await fetch(`${service}/widget.js`)).text();
    expect(script).toContain(`const roundStars = ${roundStars.toString()};`);
    const dataset = (await (await fetch(`${service}/reviews.json`)).json()) as ReviewsDataset;
    const mean = dataset.aggregate_rating.rating_value;
    expect(roundStars(mean)).not.toBe(Math.round(mean)); // a rating where rounding to whole stars would differ
    const page = await browser.newPage();
    await page.goto(`${service}/embed/?count=0`);
    const stars = page.locator('reviews-widget .score .mean');
    await stars.waitFor();
    expect(await stars.getAttribute('aria-label')).toBe(`${mean.toFixed(1)} out of 5 stars`);
    expect(await stars.locator('span').evaluate((el) => el.style.width)).toBe(`${roundStars(mean) * 20}%`);
    await page.close();
  });
});
