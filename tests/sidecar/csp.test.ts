/**
 * The pages' Content-Security-Policy allows scripts from this origin only, without 'unsafe-inline'
 * (issue 24 item 8): every script of every page is a file (or a JSON-LD data block, which never runs),
 * and in a real browser the pages that run scripts (the search island, the widget's `/embed/` page) work
 * under that policy without a single violation.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;

beforeAll(async () => {
  const { distDir, manifest } = await buildTestSite({});
  sidecar = await startTestSidecar({ distDir });
  pages = Object.keys(manifest.files).filter((p) => p.endsWith('/'));
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
});
let pages: string[] = [];

describe('Content-Security-Policy of the pages', () => {
  it('allows no inline script, and every page carries only script files or JSON-LD data blocks', async () => {
    expect(pages.length).toBeGreaterThan(5);
    for (const path of [...pages, '/search/?query=furnace']) {
      const res = await fetch(`${sidecar.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/(^|; )script-src 'self'(;|$)/);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      for (const [, attributes, body] of scripts) {
        if (/type="application\/ld\+json"/.test(attributes!)) continue;
        expect(attributes, `${path}: an inline script`).toMatch(/\ssrc="[^"]+"/);
        expect(body!.trim(), path).toBe('');
      }
    }
  });

  it('runs the widget page and the search island in a browser without a violation', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${sidecar.url}/embed/?count=2&theme=dark`);
    // embed.js copied the query's options onto the widget before the widget script ran.
    expect(await page.locator('reviews-widget').getAttribute('count')).toBe('2');
    expect(await page.locator('reviews-widget').getAttribute('theme')).toBe('dark');

    await page.goto(`${sidecar.url}/search/`);
    const island = page.locator('script[type="module"][src]');
    expect(await island.count()).toBe(1);
    const src = await island.getAttribute('src');
    const asset = await fetch(new URL(src!, `${sidecar.url}/search/`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    // The island swaps results in place and pushes the URL, so the document stays the same one (a
    // plain form submission would load a new one): proof that the script file ran.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.locator('input[name="query"]').fill('furnace');
    await Promise.all([page.waitForURL(/query=furnace/), page.locator('input[name="query"]').press('Enter')]);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);
});
