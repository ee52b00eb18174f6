/**
 * Reviews first, as a homeowner on a phone sees it (issue 20 item 1): in real Chromium at 390×844 on
 * the demo business (480 reviews), the first review starts within two screens of the top of the home,
 * technician and service pages, the home page is at most half its former height (16,667 px before the
 * change), and sort, star filter, topic chips, aspect rows and FAQ work with JavaScript turned off.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insights } from '../../core/schemas/insights.ts';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const PHONE = { width: 390, height: 844 };
/** The demo home page's height at 390 px before reviews came first. */
const HEIGHT_BEFORE = 16_667;

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;
let noScript: BrowserContext;
let insights: Insights;

beforeAll(async () => {
  const { distDir } = await buildTestSite({ contentDir: DEMO_CONTENT });
  sidecar = await startTestSidecar({ distDir });
  browser = await launchBrowser();
  noScript = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
  insights = (await (await fetch(`${sidecar.url}/insights.json`)).json()) as Insights;
});
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
});

async function measure(path: string) {
  const page = await noScript.newPage();
  await page.goto(`${sidecar.url}${path}`);
  const result = await page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    firstReview: document.querySelector('article.review')!.getBoundingClientRect().top + window.scrollY,
  }));
  await page.close();
  return result;
}

describe('reviews first on a 390×844 phone', () => {
  it.each(['/', '/technicians/darnell-washington/', '/services/ac-repair/'])('%s shows its first review within two screens', async (path) => {
    const { firstReview, height } = await measure(path);
    console.log(`${path}: first review at ${Math.round(firstReview)} px, page ${height} px`);
    expect(firstReview).toBeLessThan(2 * PHONE.height);
  });

  it('makes the home page at most half as tall as before', async () => {
    const { height } = await measure('/');
    expect(height).toBeLessThanOrEqual(HEIGHT_BEFORE / 2);
  });
});

describe('without JavaScript', () => {
  it('sorts the reviews by highest and lowest rating', async () => {
    const page = await noScript.newPage();
    for (const [link, order] of [['Highest', -1], ['Lowest', 1]] as const) {
      await page.goto(`${sidecar.url}/`);
      await page.locator('nav.review-filters').getByRole('link', { name: link }).click();
      await page.waitForURL(/sort=/);
      const ratings = await page.locator('article.review').evaluateAll((cards) => cards.map((c) => Number(/Rated (\d)/.exec(c.textContent ?? '')?.[1])));
      expect(ratings.length).toBeGreaterThan(5);
      expect(ratings).toEqual([...ratings].sort((a, b) => order * (a - b)));
      expect(ratings[0]).toBe(order === -1 ? 5 : 1);
    }
    await page.close();
  });

  it('filters by stars, for a technician too', async () => {
    const page = await noScript.newPage();
    await page.goto(`${sidecar.url}/technicians/darnell-washington/`);
    await page.locator('nav.review-filters').getByRole('link', { name: '4 stars' }).click();
    await page.waitForURL(/rating=4/);
    const cards = page.locator('article.review');
    expect(await cards.count()).toBeGreaterThan(0);
    for (const text of await cards.allTextContents()) {
      expect(text).toContain('Rated 4 out of 5');
      expect(text).toContain('Darnell Washington');
    }
    await page.close();
  });

  it('opens the reviews of a topic chip, as many as the chip says', async () => {
    const topic = insights.topics[0]!;
    const page = await noScript.newPage();
    await page.goto(`${sidecar.url}/`);
    const chip = page.locator('ul.topics a').first();
    expect(await chip.textContent()).toBe(`${topic.phrase} ${topic.reviews}`);
    await chip.click();
    await page.waitForURL(/query=/);
    expect(await page.locator('main').textContent()).toContain(`${topic.reviews} reviews`);
    expect((await page.locator('article.review').first().textContent())!.toLowerCase()).toContain(topic.phrase);
    await page.close();
  });

  it('opens an aspect row to its trend and quotes, and a folded FAQ answer', async () => {
    const page = await noScript.newPage();
    await page.goto(`${sidecar.url}/`);
    const row = page.locator('details.aspect-row').first();
    expect(await row.locator('svg.trend').isVisible()).toBe(false);
    await row.locator('summary').click();
    expect(await row.locator('svg.trend').isVisible()).toBe(true);
    expect(await row.locator('svg.trend text').allTextContents()).toEqual(expect.arrayContaining(['0%', '50%', '100%']));
    const faq = page.locator('.faq details').first();
    expect(await faq.locator('p').first().isVisible()).toBe(false);
    await faq.locator('summary').click();
    expect(await faq.locator('p').first().isVisible()).toBe(true);
    await page.close();
  });
});
