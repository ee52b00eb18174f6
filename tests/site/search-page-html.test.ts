/**
 * The search page is the same HTML, byte for byte, as the service rendered it at 45dc3ce with the build's
 * own page code, for every query of tests/fixtures/search-page/queries.ts: now the build makes a shell and
 * the service fills it (core/pages/search-page.ts). The pages of 45dc3ce are in pages.json (capture.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERIES, searchPathOf, SITES } from '../fixtures/search-page/queries.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';

type Captured = Record<string, { status: number; html: string }>;
const captured = JSON.parse(await readFile(path.resolve('tests/fixtures/search-page/pages.json'), 'utf8')) as Captured;

describe.each(SITES)('the search page of $name', (site) => {
  let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
  beforeAll(async () => {
    const { distDir } = await buildTestSite({ contentDir: path.resolve(site.content), publicUrl: site.publicUrl });
    sidecar = await startTestSidecar({ distDir, publicUrl: site.publicUrl });
  }, 180_000);
  afterAll(async () => {
    await sidecar?.close();
  });

  it.each(QUERIES[site.name])('is the HTML of 45dc3ce for %j', async (query) => {
    const res = await fetch(`${sidecar.url}${searchPathOf(site.publicUrl, query)}`, { headers: { Accept: 'text/html' } });
    const before = captured[`${site.name} ${query}`]!;
    expect(res.status).toBe(before.status);
    expect(await res.text()).toBe(before.html);
  });
});
