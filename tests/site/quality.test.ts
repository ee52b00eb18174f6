/**
 * The human site's quality bars, in real Chromium against the real sidecar serving the demo
 * content: axe-core (WCAG 2.1 A and AA) finds nothing on any page template in the light and dark
 * schemes, in the Chromium packaged with the project and, when one is installed, the system's (they
 * differ: Debian's found scrollable code blocks the packaged one passed); no template scrolls sideways at 320, 390 or 1280 px; the keyboard reaches every control
 * with a visible focus; the search form works without JavaScript and, with it, updates in place;
 * and the widget renders inside a page served from another origin.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../core/publishing/manifest.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { archivePath, assignTechnicianSlugs, createServiceUrls, PATHS, servicePath, technicianPath } from '../../core/urls.ts';
import { buildOpenApiExamples } from '../../core/openapi/examples.ts';
import { launchBrowser, listChromiumSources, SYSTEM_CHROMIUM_PATH } from '../../tools/lib/browser.ts';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [320, 390, 1280];
/** axe runs again at this width: what scrolls only on a phone is checked on a phone. */
const PHONE_WIDTH = 320;
/** axe runs in each: the packaged Chromium always, the system one when installed. */
const CHROMIUMS = listChromiumSources();

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;
let hostSite: Server;
let hostUrl: string;
let axeSource: string;
let dataset: ReviewsDataset;
let manifest: Manifest;
/** One page per template: name → path. */
let templates: [string, string][];

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
  const built = await buildTestSite({ contentDir: DEMO_CONTENT });
  const { distDir } = built;
  manifest = built.manifest;
  sidecar = await startTestSidecar({ distDir });
  dataset = JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8')) as ReviewsDataset;
  const technician = dataset.business.technicians[0]!.name;
  templates = [
    ['home', PATHS.home],
    ['reviews index', PATHS.reviewsIndex],
    ['month', archivePath(dataset.reviews[0]!.date.slice(0, 7))],
    ['technicians', PATHS.technicians],
    ['technician', technicianPath(assignTechnicianSlugs([technician]).get(technician)!)],
    ['technician, page 2', technicianPath(assignTechnicianSlugs([technician]).get(technician)!, 2)],
    ['services', PATHS.services],
    ['service', servicePath(dataset.business.services[0]!.id)],
    ['about', PATHS.about],
    ['developers', PATHS.developers],
    ['API reference', PATHS.apiReference],
    ['search', PATHS.searchPage],
    ['search results', `${PATHS.searchPage}?query=on+time&sort=highest&has_response=true`],
    ['search results marking an aspect', `${PATHS.searchPage}?aspect=price&aspect_sentiment=negative`],
    ['search errors', `${PATHS.searchPage}?rating=9`],
    ['search with photos', `${PATHS.searchPage}?has_media=true`],
    ['not found', '/no-such-page/'],
    ['embed', '/embed/'],
  ];
  browser = await launchBrowser();
  axeSource = await readFile(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
  hostSite = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(renderHostPage(sidecar.url, new URL(req.url ?? '/', 'http://host')));
  });
  await new Promise<void>((resolve) => hostSite.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(hostSite.address() as AddressInfo).port}`;
}, 300_000); // a full build of the demo content, minutes on a busy machine
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
  hostSite?.close();
});

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

async function runAxe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const { violations, passes } = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[]; passes: unknown[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return { violations: results.violations, passes: results.passes.length };
  }, WCAG_TAGS);
  expect(passes, 'axe checked nothing').toBeGreaterThan(5);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

async function measureOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe('the Chromiums axe runs in', () => {
  it(`are ${CHROMIUMS.map((c) => (c === 'bundled' ? 'the packaged one' : `the system one (${SYSTEM_CHROMIUM_PATH})`)).join(' and ')}`, () => {
    if (!CHROMIUMS.includes('system')) console.warn(`axe ran in the packaged Chromium only: there is no system Chromium at ${SYSTEM_CHROMIUM_PATH}.`);
    expect(CHROMIUMS[0]).toBe('bundled');
  });
});

// Axe over every template at three widths is minutes of work on a busy 2-core machine, not seconds.
describe.each(CHROMIUMS)('every page template, in the %s Chromium', { timeout: 300_000 }, (source) => {
  let own: Browser;
  let light: BrowserContext;
  let dark: BrowserContext;
  beforeAll(async () => {
    own = await launchBrowser({ source });
    // axe is injected as an inline script, which the pages' CSP forbids (tests/sidecar/csp.test.ts checks it).
    light = await own.newContext({ colorScheme: 'light', bypassCSP: true });
    dark = await own.newContext({ colorScheme: 'dark', bypassCSP: true });
  });
  afterAll(async () => {
    await own?.close();
  });

  it('has no axe violations (WCAG 2.1 A and AA) in the light scheme at 1280 and 320 px, and no sideways scroll at 320, 390 and 1280 px', async () => {
    const page = await light.newPage();
    const found: Record<string, string[]> = {};
    for (const [name, url] of templates) {
      const response = await page.goto(`${sidecar.url}${url}`);
      expect(response?.status(), name).toBe(name === 'not found' ? 404 : name === 'search errors' ? 400 : 200);
      const problems = await runAxe(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const overflow = await measureOverflow(page);
        if (overflow > 0) problems.push(`scrolls sideways by ${overflow}px at ${width}px`);
        if (width === PHONE_WIDTH) problems.push(...(await runAxe(page)).filter((p) => !problems.includes(p)).map((p) => `at ${width}px: ${p}`));
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      if (problems.length > 0) found[`${name} ${url}`] = problems;
    }
    expect(found).toEqual({});
    await page.close();
  });

  it('has no axe violations (WCAG 2.1 A and AA) in the dark scheme', async () => {
    const page = await dark.newPage();
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    const found: Record<string, string[]> = {};
    for (const [name, url] of templates) {
      await page.goto(`${sidecar.url}${url}`);
      const problems = await runAxe(page);
      if (problems.length > 0) found[`${name} ${url}`] = problems;
    }
    expect(found).toEqual({});
    await page.close();
  });
});

describe('every page template, by keyboard', { timeout: 180_000 }, () => {
  it('lets the keyboard reach every control, each with a visible focus indicator', async () => {
    const page = await browser.newPage();
    const found: Record<string, string[]> = {};
    for (const [name, url] of templates) {
      await page.goto(`${sidecar.url}${url}`);
      const problems = await walkWithKeyboard(page);
      if (problems.length > 0) found[`${name} ${url}`] = problems;
    }
    expect(found).toEqual({});
    await page.close();
  });
});

describe('the OpenAPI examples', () => {
  it('show photo URLs that the demo build serves', async () => {
    const urls = createServiceUrls(sidecar.config.publicUrl);
    const photo = buildOpenApiExamples(urls).reviewsDataset.reviews[0]!.media[0]!;
    const shown = [photo.url, photo.thumbnail_url, ...photo.variants.map((v) => v.url)];
    for (const url of shown) {
      const served = await fetch(`${sidecar.url}${urls.pathOf(url)}`);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('content-type'), url).toMatch(/^image\/(jpeg|webp)$/);
      const variant = photo.variants.find((v) => v.url === url);
      if (variant) expect((await served.arrayBuffer()).byteLength, url).toBe(variant.size_in_bytes);
    }
  });
});

describe('every page template, by finger', { timeout: 180_000 }, () => {
  it('gives every link and control that is not a word of a sentence a tap target of at least 24 by 24 px, at 1280 and 320 px', async () => {
    const page = await browser.newPage();
    const found: Record<string, string[]> = {};
    for (const [name, url] of templates) {
      for (const width of [1280, PHONE_WIDTH]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${sidecar.url}${url}`);
        const small = await measureSmallTargets(page);
        if (small.length > 0) found[`${name} ${url} at ${width}px`] = small;
      }
    }
    expect(found).toEqual({});
    await page.close();
  });
});

/**
 * Links and controls under 24 px either way (WCAG 2.5.8 target size, without its spacing exception:
 * nav links 19 px tall passed axe's rule). A link inside running text is exempt, as WCAG exempts it.
 */
async function measureSmallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const block = el.closest('p, li, td, th, dd, figcaption, h1, h2, h3, h4, label');
      const words = (node: Element | null) => (node?.textContent ?? '').trim().length;
      if (el.tagName === 'A' && block !== null && words(block) > words(el) + 2) continue;
      if (box.height < 24 || box.width < 24) out.add(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return [...out].slice(0, 8);
  });
}

/**
 * Tabs through the page from the top and checks that every visible control was focused, each time
 * with an outline (or box shadow) drawn around it. Returns the problems found.
 */
async function walkWithKeyboard(page: Page): Promise<string[]> {
  const expected = await page.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>('a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])');
    let n = 0;
    for (const control of controls) {
      if (control.getClientRects().length === 0 && !control.classList.contains('skip')) continue;
      // A folded <details> keeps its content laid out (Chromium hides it with content-visibility), but
      // Tab skips it until its summary, itself reachable, opens it.
      if (control.parentElement?.closest('details:not([open])') && control.tagName !== 'SUMMARY') continue;
      control.dataset.control = String(n++);
    }
    return n;
  });
  const reached = new Set<string>();
  const problems: string[] = [];
  let previous: string | null = null;
  // Date inputs take one Tab per field (month, day, year), hence the margin.
  for (let presses = 0; presses < 3 * expected + 5; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      let el = document.activeElement as HTMLElement | null;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      const outlined = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
      return { id: el.dataset.control ?? null, label: `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`, outlined, visible: rect.width > 0 && rect.height > 0 };
    });
    if (focused === null) break; // past the last control
    if (focused.id !== null) {
      if (focused.id === previous) continue; // the next field of a date input
      if (reached.has(focused.id)) break; // round again
      reached.add(focused.id);
      previous = focused.id;
    }
    if (!focused.outlined || !focused.visible) problems.push(`${focused.label}: no visible focus`);
  }
  if (reached.size < expected) problems.push(`Tab reached ${reached.size} of ${expected} controls`);
  return problems.slice(0, 10);
}

describe('the search page', () => {
  it('works without JavaScript: the form submits, results show, the next page follows', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${sidecar.url}/search/`);
    await page.fill('#f-query', 'on time');
    await page.selectOption('#f-sort', 'lowest');
    await Promise.all([page.waitForURL(/query=on\+time/), page.click('form[role=search] button[type=submit]')]);
    const url = new URL(page.url());
    expect(url.searchParams.get('sort')).toBe('lowest');
    const rest = await (await fetch(`${sidecar.url}/api/reviews/search?query=on+time&sort=lowest&limit=40`)).json();
    const ids = await page.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id));
    expect(ids).toEqual(rest.reviews.slice(0, 20).map((r: { id: string }) => r.id));
    await Promise.all([page.waitForURL(/cursor=/), page.click('a[rel=next]')]);
    const next = await page.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id));
    expect(next).toEqual(rest.reviews.slice(20, 40).map((r: { id: string }) => r.id));
    await context.close();
  });

  it('with JavaScript, updates the results in place and keeps the URL shareable', async () => {
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/search/`);
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    const technician = dataset.business.technicians[1]!.name;
    await page.selectOption('#f-technician', technician);
    await page.waitForURL((url) => url.searchParams.get('mentions_technician') === technician);
    await page.waitForFunction(() => document.querySelector('[data-search-results]')?.getAttribute('aria-busy') !== 'true');
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true); // no page load
    const shown = await page.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id));
    const rest = await (await fetch(`${sidecar.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: technician })}`)).json();
    expect(shown).toEqual(rest.reviews.map((r: { id: string }) => r.id));
    expect(await page.locator('[data-search-status]').textContent()).toContain(`${rest.total} reviews match`);
    // The URL, opened afresh, shows the same results.
    const fresh = await browser.newPage();
    await fresh.goto(page.url());
    expect(await fresh.locator('article.review').evaluateAll((nodes) => nodes.map((n) => n.id))).toEqual(shown);
    await fresh.close();
    // Back: the island shows the unfiltered results again, and the form follows.
    await page.locator('[data-search-results]').evaluate((el) => el.setAttribute('data-stale', ''));
    await page.goBack();
    await page.waitForFunction(() => !document.querySelector('[data-search-results]')!.hasAttribute('data-stale'));
    expect(page.url()).toBe(`${sidecar.url}/search/`);
    expect(await page.locator('#f-technician').inputValue()).toBe('');
    await page.close();
  });
});

describe('the widget on another origin', () => {
  it('is one script under 10 KB compressed, readable from any origin', async () => {
    const entry = manifest.files[PATHS.widget]!;
    expect(entry.encodings.gzip!.size).toBeLessThan(10_240);
    expect(entry.encodings.br!.size).toBeLessThan(10_240);
    const res = await fetch(`${sidecar.url}${PATHS.widget}`);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('renders the rating, the histogram and the newest reviews, with a link back', async () => {
    const page = await browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="3" theme="light"')}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.score').waitFor();
    const aggregate = dataset.aggregate_rating;
    expect(await widget.locator('.score b').textContent()).toBe(aggregate.rating_value.toFixed(1));
    expect(await widget.locator('.score').textContent()).toContain(`${aggregate.review_count} verified reviews`);
    expect(await widget.locator('.hist li').count()).toBe(5);
    const items = widget.locator('.reviews li');
    expect(await items.count()).toBe(3);
    expect(await items.first().locator('a').getAttribute('href')).toBe(dataset.reviews[0]!.url);
    expect(await widget.locator('.more a').getAttribute('href')).toBe(`${sidecar.url}/search/`);
    expect(await widget.locator('.log a').getAttribute('href')).toBe(`${sidecar.url}${PATHS.logPrefix}`);
    expect((await fetch(`${sidecar.url}${PATHS.logPrefix}`)).status).toBe(200);
    expect(await runAxe(page)).toEqual([]);
    const width = await widget.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(200);
    await page.close();
  });

  it('takes its options from attributes: technician, minimum rating, best first, dark theme, no log link', async () => {
    const technician = dataset.business.technicians[0]!.name;
    const page = await browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent(`count="5" min-rating="4" sort="best" theme="dark" log="false" technician="${technician}"`)}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.score').waitFor();
    const rest = await (await fetch(`${sidecar.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: technician })}`)).json();
    expect(await widget.locator('h2').textContent()).toBe(`Customer reviews of ${technician}`);
    expect(await widget.locator('.score').textContent()).toContain(`${rest.total} verified reviews`);
    const best = await (await fetch(`${sidecar.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: technician, min_rating: '4', sort: 'highest', limit: '5' })}`)).json();
    const hrefs = await widget.locator('.reviews li .meta a').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('href')));
    expect(hrefs).toEqual(best.reviews.map((r: { url: string }) => r.url));
    const background = await widget.locator('.box').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(20, 23, 27)');
    expect(await widget.locator('.log').count()).toBe(0);
    expect(await runAxe(page)).toEqual([]);
    await page.close();
  });

  it('shows a thumbnail of each review\'s first photo with media="true", its size reserved, linking to the full picture', async () => {
    const page = await browser.newPage();
    await page.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="10" media="true"')}`);
    const widget = page.locator('reviews-widget');
    await widget.locator('.reviews').waitFor();
    const withPhotos = dataset.reviews.slice(0, 10).filter((r) => r.media.length > 0);
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

    const plain = await browser.newPage();
    await plain.goto(`${hostUrl}/?attributes=${encodeURIComponent('count="10"')}`);
    await plain.locator('reviews-widget .reviews').waitFor();
    expect(await plain.locator('reviews-widget .thumb').count()).toBe(0);
    await plain.close();
  });

  it('renders in an iframe from /embed/, which any site may frame, with options from its query string', async () => {
    const headers = (await fetch(`${sidecar.url}${PATHS.embed}`)).headers;
    expect(headers.get('content-security-policy')).toContain('frame-ancestors *');
    const page = await browser.newPage();
    await page.goto(`${hostUrl}/iframe`);
    const frame = page.frameLocator('iframe');
    await frame.locator('reviews-widget .reviews').waitFor();
    expect(await frame.locator('reviews-widget .reviews li').count()).toBe(2);
    expect(await frame.locator('reviews-widget .box').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(20, 23, 27)');
    await page.close();
  });
});
