/**
 * The human site's accessibility bars, in real Chromium against the real sidecar serving the demo
 * content: axe-core (WCAG 2.1 A and AA) finds nothing on any page template in the light and dark
 * schemes, in the Chromium packaged with the project and, when one is installed, the system's (they
 * differ: Debian's found scrollable code blocks the packaged one passed); no template scrolls sideways
 * at 320, 390 or 1280 px; the keyboard reaches every control with a visible focus; and every link and
 * control that is not a word of a sentence is a tap target of at least 24 by 24 px.
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, listChromiumSources, SYSTEM_CHROMIUM_PATH } from '../../tools/lib/browser.ts';
import { PHONE_WIDTH, runAxe, useDemoSite } from './demo-site.ts';

const WIDTHS = [320, 390, 1280];
/** axe runs in each: the packaged Chromium always, the system one when installed. */
const CHROMIUMS = listChromiumSources();

const site = useDemoSite();

/** Opens every template in `page` and runs `check` there: the problems found, by template (none: `{}`). */
async function checkEveryTemplate(page: Page, check: (name: string, response: Response | null) => Promise<string[]>): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const [name, url] of site.templates) {
    const response = await page.goto(`${site.sidecar.url}${url}`);
    const problems = await check(name, response);
    if (problems.length > 0) found[`${name} ${url}`] = problems;
  }
  return found;
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
    const found = await checkEveryTemplate(page, async (name, response) => {
      expect(response?.status(), name).toBe(name === 'not found' ? 404 : name === 'search errors' ? 400 : 200);
      const problems = await runAxe(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const overflow = await measureOverflow(page);
        if (overflow > 0) problems.push(`scrolls sideways by ${overflow}px at ${width}px`);
        if (width === PHONE_WIDTH) problems.push(...(await runAxe(page)).filter((p) => !problems.includes(p)).map((p) => `at ${width}px: ${p}`));
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      return problems;
    });
    expect(found).toEqual({});
    await page.close();
  });

  it('has no axe violations (WCAG 2.1 A and AA) in the dark scheme', async () => {
    const page = await dark.newPage();
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    expect(await checkEveryTemplate(page, () => runAxe(page))).toEqual({});
    await page.close();
  });
});

describe('every page template, by keyboard', { timeout: 180_000 }, () => {
  it('lets the keyboard reach every control, each with a visible focus indicator', async () => {
    const page = await site.browser.newPage();
    expect(await checkEveryTemplate(page, () => walkWithKeyboard(page))).toEqual({});
    await page.close();
  });
});

describe('every page template, by finger', { timeout: 180_000 }, () => {
  it('gives every link and control that is not a word of a sentence a tap target of at least 24 by 24 px, at 1280 and 320 px', async () => {
    const page = await site.browser.newPage();
    const found: Record<string, string[]> = {};
    for (const [name, url] of site.templates) {
      for (const width of [1280, PHONE_WIDTH]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${site.sidecar.url}${url}`);
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
