/**
 * The human site's other quality bars, in real Chromium against the real sidecar serving the demo
 * content (accessibility is accessibility.test.ts): the OpenAPI examples point at photos the build
 * serves; the search form works without JavaScript and, with it, updates in place; and the widget
 * renders inside a page served from another origin, a review in Spanish marked so, with its translation.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { buildOpenApiExamples } from '../../core/openapi/examples.ts';
import { runAxe, useDemoSite } from './demo-site.ts';

const site = useDemoSite();
let hostSite: Server;
let hostUrl: string;

/** A page on another origin, the way an owner embeds the widget: two lines in their own HTML. */
function renderHostPage(serviceUrl: string, url: URL): string {
  if (url.pathname === '/iframe') {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our company</title></head><body><main><h1>Our company</h1>
<iframe title="Customer reviews" src="${serviceUrl}/embed/?count=2&amp;theme=dark" width="400" height="600"></iframe></main></body></html>`;
  }
  const attributes = url.searchParams.get('attributes') ?? 'count="3"';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Our company</title></head>
<body><main><h1>Our company</h1><p>We fix furnaces.</p>
<script src="${serviceUrl}/widget.js" async></script>
<reviews-widget ${attributes}></reviews-widget>
</main></body></html>`;
}

beforeAll(async () => {
  hostSite = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(renderHostPage(site.sidecar.url, new URL(req.url ?? '/', 'http://host')));
  });
  await new Promise<void>((resolve) => hostSite.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(hostSite.address() as AddressInfo).port}`;
});
afterAll(() => {
  hostSite?.close();
});

describe('the OpenAPI examples', () => {
  it('show photo URLs that the demo build serves', async () => {
    const urls = createServiceUrls(site.sidecar.config.publicUrl);
    const photo = buildOpenApiExamples(urls).reviewsDataset.reviews[0]!.media[0]!;
    const shown = [photo.url, photo.thumbnail_url, ...photo.variants.map((v) => v.url)];
    for (const url of shown) {
      const served = await fetch(`${site.sidecar.url}${urls.pathOf(url)}`);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('content-type'), url).toMatch(/^image\/(jpeg|webp)$/);
      const variant = photo.variants.find((v) => v.url === url);
      if (variant) expect((await served.arrayBuffer()).byteLength, url).toBe(variant.size_in_bytes);
    }
  });
});

describe('the search page', () => {
  it('works without JavaScript: the form submits, results show, the next page follows', async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.sidecar.url}/search/`);
    await page.fill('#f-query', 'on time');
    await page.selectOption('#f-sort', 'lowest');
    await Promise.all([page.waitForURL(/query=on\+time/), page.click('form[role=search] button[type=submit]')]);
    const url = new URL(page.url());
    expect(url.searchParams.get('sort')).toBe('lowest');
    const rest = await (await fetch(`${site.sidecar.url}/api/reviews/search?query=on+time&sort=lowest&limit=40`)).json();
    const ids = await page.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id));
    expect(ids).toEqual(rest.reviews.slice(0, 20).map((r: { id: string }) => r.id));
    await Promise.all([page.waitForURL(/cursor=/), page.click('a[rel=next]')]);
    const next = await page.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id));
    expect(next).toEqual(rest.reviews.slice(20, 40).map((r: { id: string }) => r.id));
    await context.close();
  });

  it('with JavaScript, updates the results in place and keeps the URL shareable', async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.sidecar.url}/search/`);
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    const technician = site.dataset.business.technicians[1]!.name;
    await page.selectOption('#f-technician', technician);
    await page.waitForURL((url) => url.searchParams.get('mentions_technician') === technician);
    await page.waitForFunction(() => document.querySelector('[data-search-results]')?.getAttribute('aria-busy') !== 'true');
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true); // no page load
    const shown = await page.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id));
    const rest = await (await fetch(`${site.sidecar.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: technician })}`)).json();
    expect(shown).toEqual(rest.reviews.map((r: { id: string }) => r.id));
    expect(await page.locator('[data-search-status]').textContent()).toContain(`${rest.total} reviews match`);
    // The URL, opened afresh, shows the same results.
    const fresh = await site.browser.newPage();
    await fresh.goto(page.url());
    expect(await fresh.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id))).toEqual(shown);
    await fresh.close();
    // Back: the island shows the unfiltered results again, and the form follows.
    await page.locator('[data-search-results]').evaluate((el) => el.setAttribute('data-stale', ''));
    await page.goBack();
    await page.waitForFunction(() => !document.querySelector('[data-search-results]')!.hasAttribute('data-stale'));
    expect(page.url()).toBe(`${site.sidecar.url}/search/`);
    expect(await page.locator('#f-technician').inputValue()).toBe('');
    await page.close();
  });
});

describe('the widget on another origin', () => {
  it('is one script under 10 KB compressed, readable from any origin', async () => {
    const entry = site.manifest.files[PATHS.widget]!;
    expect(entry.encodings.gzip!.size).toBeLessThan(10_240);
    expect(entry.encodings.br!.size).toBeLessThan(10_240);
    const res = await fetch(`${site.sidecar.url}${PATHS.widget}`);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('renders the rating, the histogram and the newest reviews, with a link back', async () => {
    const page = await site.browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="3" theme="light"')}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.score').waitFor();
    const aggregate = site.dataset.aggregate_rating;
    expect(await widget.locator('.score b').textContent()).toBe(aggregate.rating_value.toFixed(1));
    expect(await widget.locator('.score').textContent()).toContain(`${aggregate.review_count} verified reviews`);
    expect(await widget.locator('.hist li').count()).toBe(5);
    const items = widget.locator('.reviews li');
    expect(await items.count()).toBe(3);
    expect(await items.first().locator('a').getAttribute('href')).toBe(site.dataset.reviews[0]!.url);
    expect(await widget.locator('.more a').getAttribute('href')).toBe(`${site.sidecar.url}/search/`);
    expect(await widget.locator('.log a').first().getAttribute('href')).toBe(`${site.sidecar.url}${PATHS.logPrefix}`);
    expect((await fetch(`${site.sidecar.url}${PATHS.logPrefix}`)).status).toBe(200);
    expect(await widget.locator('.log a').last().getAttribute('href')).toBe(`${site.sidecar.url}${PATHS.aboutReviews}`);
    expect((await fetch(`${site.sidecar.url}${PATHS.aboutReviews}`)).status).toBe(200);
    expect(await runAxe(page)).toEqual([]);
    const width = await widget.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(200);
    await page.close();
  });

  it('takes its options from attributes: technician, minimum rating, best first, dark theme, no log link', async () => {
    const technician = site.dataset.business.technicians[0]!.name;
    const page = await site.browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent(`count="5" min-rating="4" sort="best" theme="dark" log="false" technician="${technician}"`)}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.score').waitFor();
    const rest = await (await fetch(`${site.sidecar.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: technician })}`)).json();
    expect(await widget.locator('h2').textContent()).toBe(`Customer reviews of ${technician}`);
    expect(await widget.locator('.score').textContent()).toContain(`${rest.total} verified reviews`);
    const best = await (await fetch(`${site.sidecar.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: technician, min_rating: '4', sort: 'highest', limit: '5' })}`)).json();
    const hrefs = await widget.locator('.reviews li .meta a').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('href')));
    expect(hrefs).toEqual(best.reviews.map((r: { url: string }) => r.url));
    const background = await widget.locator('.box').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(20, 23, 27)');
    expect(await widget.locator('.log').count()).toBe(0);
    expect(await runAxe(page)).toEqual([]);
    await page.close();
  });

  it('shows a thumbnail of each review\'s first photo with media="true", its size reserved, linking to the full picture', async () => {
    const page = await site.browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="10" media="true"')}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.reviews').waitFor();
    const withPhotos = site.dataset.reviews.slice(0, 10).filter((r) => r.media.length > 0);
    expect(withPhotos.length).toBeGreaterThan(0);
    const thumbs = await widget.locator('.reviews .thumb').evaluateAll((nodes) =>
      nodes.map((a) => {
        const img = a.querySelector('img')!;
        return { href: a.getAttribute('href'), src: img.getAttribute('src'), alt: img.getAttribute('alt'), width: img.getAttribute('width'), loaded: img.complete && img.naturalWidth > 0 };
      }),
    );
    expect(thumbs.map(({ loaded: _loaded, ...t }) => t)).toEqual(
      withPhotos.map((r) => ({ href: r.media[0]!.url, src: r.media[0]!.thumbnail_url, alt: r.media[0]!.alt ?? `Photo from ${r.author}'s review`, width: '320' })),
    );
    expect(await runAxe(page)).toEqual([]);
    await page.close();

    const plain = await site.browser.newPage();
    await plain.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="10"')}`);
    await plain.locator('reviews-widget .reviews').waitFor();
    expect(await plain.locator('reviews-widget .thumb').count()).toBe(0);
    await plain.close();
  });

  it("marks a review in another language with its language, and folds its source's translation behind a disclosure that says who made it", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="3"')}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.reviews').waitFor();
    expect(await widget.locator('.box').getAttribute('lang')).toBe('en');
    const cards = await widget.locator('.reviews li').evaluateAll((items) =>
      items.map((li) => {
        const details = li.querySelector('details.translation');
        const paragraphs = details === null ? [] : [...details.querySelectorAll('p')];
        return {
          lang: li.querySelector('.text')!.getAttribute('lang'),
          translation: details && { summary: details.querySelector('summary')!.textContent, lang: paragraphs.map((p) => p.getAttribute('lang')), text: paragraphs.at(-1)!.textContent },
        };
      }),
    );
    // The demo's newest review is in Spanish, with Google's English translation; the next two are in English.
    const reviews = site.dataset.reviews.slice(0, 3);
    expect(reviews.map((r) => r.language ?? 'en')).toEqual(['es', 'en', 'en']);
    expect(cards).toEqual(
      reviews.map((r) => ({
        lang: r.language ?? null,
        translation: r.translation ? { summary: `Translated by Google (the review by ${r.author})`, lang: ['en'], text: r.translation.text } : null,
      })),
    );
    // Closed at first, it opens with a click, without leaving the widget.
    const translation = widget.locator('details.translation p').last();
    expect(await translation.isVisible()).toBe(false);
    await widget.locator('details.translation summary').click();
    expect(await translation.isVisible()).toBe(true);
    expect(await runAxe(page)).toEqual([]);
    await page.close();
  });

  it('renders in an iframe from /embed/, which any site may frame, with options from its query string', async () => {
    const headers = (await fetch(`${site.sidecar.url}${PATHS.embed}`)).headers;
    expect(headers.get('content-security-policy')).toContain('frame-ancestors *');
    const page = await site.browser.newPage();
    await page.goto(`${hostUrl}/iframe`);
    const frame = page.frameLocator('iframe');
    await frame.locator('reviews-widget .reviews').waitFor();
    expect(await frame.locator('reviews-widget .reviews li').count()).toBe(2);
    // The newest review keeps its language; its translation, a line more, would break the frame's fixed height.
    expect(await frame.locator('reviews-widget .reviews li .text').first().getAttribute('lang')).toBe('es');
    expect(await frame.locator('reviews-widget details').count()).toBe(0);
    expect(await frame.locator('reviews-widget .box').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(20, 23, 27)');
    await page.close();
  });
});
