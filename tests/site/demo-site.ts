/**
 * The set-up the site's browser suites share (accessibility.test.ts, quality.test.ts): the demo content
 * built and served by the real sidecar, the packaged Chromium, one page per template, and axe-core.
 * Registered as the file's first hooks, so its own `beforeAll` can use them; closed after the file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Manifest } from '../../core/publishing/manifest.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { archivePath, assignTechnicianSlugs, locationPath, PATHS, servicePath, technicianPath } from '../../core/urls.ts';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

/** axe runs again at this width: what scrolls only on a phone is checked on a phone. */
export const PHONE_WIDTH = 320;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export type DemoSite = {
  readonly sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
  readonly browser: Browser;
  readonly dataset: ReviewsDataset;
  readonly manifest: Manifest;
  /** One page per template: name → path. */
  readonly templates: [string, string][];
};

export function useDemoSite(): DemoSite {
  // Filled in by the hook: the suite's tests and later hooks read it, never the file's top level.
  const site = {} as DemoSite;
  beforeAll(async () => {
    const built = await buildTestSite({ contentDir: DEMO_CONTENT });
    const sidecar = await startTestSidecar({ distDir: built.distDir });
    const dataset = JSON.parse(await readFile(path.join(built.distDir, 'reviews.json'), 'utf8')) as ReviewsDataset;
    Object.assign(site, { sidecar, browser: await launchBrowser(), dataset, manifest: built.manifest, templates: listTemplates(dataset) });
  }, 300_000); // a full build of the demo content, minutes on a busy machine
  afterAll(async () => {
    await site.browser?.close();
    await site.sidecar?.close();
  });
  return site;
}

function listTemplates(dataset: ReviewsDataset): [string, string][] {
  const technician = dataset.business.technicians[0]!.name;
  return [
    ['home', PATHS.home],
    ['reviews index', PATHS.reviewsIndex],
    ['month', archivePath(dataset.reviews[0]!.date.slice(0, 7))],
    ['technicians', PATHS.technicians],
    ['technician', technicianPath(assignTechnicianSlugs([technician]).get(technician)!)],
    ['technician, page 2', technicianPath(assignTechnicianSlugs([technician]).get(technician)!, 2)],
    ['services', PATHS.services],
    ['service', servicePath(dataset.business.services[0]!.id)],
    // The demo's two shops (issue 43 item 6).
    ...(dataset.business.locations ?? []).slice(0, 1).flatMap((l): [string, string][] => [['locations', PATHS.locations], ['location', locationPath(l.id)]]),
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
}

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

let axeSource: Promise<string> | undefined;

/** axe-core's WCAG 2.1 A and AA violations on the page, one line each. */
export async function runAxe(page: Page): Promise<string[]> {
  axeSource ??= readFile(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await axeSource });
  const { violations, passes } = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[]; passes: unknown[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return { violations: results.violations, passes: results.passes.length };
  }, WCAG_TAGS);
  expect(passes, 'axe checked nothing').toBeGreaterThan(5);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
