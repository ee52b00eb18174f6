/**
 * The search page's code is imported from the service's own copy of it (load-pages.ts
 * `createPageCodeCopies`), so a renderer kept from build to build (the same code) keeps working, and
 * keeps being kept, after a publish removed the build folder it came from: before, that folder's removal
 * at every third publish made the next build's code be imported again on the serving thread (100–150 ms,
 * issue 32 item 2).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_DIR, SERVER_ENTRY } from '../../core/publishing/manifest.ts';
import { PATHS, createServiceUrls } from '../../core/urls.ts';
import { loadBuild, type LoadedBuild } from '../../sidecar/builds/load-build.ts';
import { createPageCodeCopies } from '../../sidecar/builds/load-pages.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const urls = createServiceUrls('https://reviews.example.com');
const work = await mkdtemp(path.join(tmpdir(), 'page-code-copies-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** The search page for `query`, rendered by the build's renderer as the sidecar asks for it. */
async function searchPage(build: LoadedBuild, query: string): Promise<{ status: number; html: string }> {
  const response = await build.pages!(new Request(urls.absolute(`${PATHS.searchPage}?query=${query}`)), { live: build.live });
  return { status: response!.status, html: await response!.text() };
}

describe('the page code the service imports', () => {
  it('comes from a copy that outlives the build folder, so the next build of the same code keeps it', async () => {
    const contentDir = path.join(work, 'content');
    await cp(SMALL_CONTENT, contentDir, { recursive: true });
    const dataDir = path.join(work, 'data');
    const first = await buildTestSite({ contentDir, outDir: path.join(work, 'first'), dataDir });
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8')) as { text: string }[];
    reviews[0]!.text = 'EDITED: the zorblax was replaced twice.';
    await writeFile(file, JSON.stringify(reviews));
    const second = await buildTestSite({ contentDir, outDir: path.join(work, 'second'), dataDir });

    const copies = await createPageCodeCopies();
    const firstDir = await realpath(first.distDir);
    const inService = await loadBuild(first.distDir, urls, undefined, copies);
    expect(path.dirname(path.dirname(inService.pagesDir))).toBe(tmpdir());
    expect(path.basename(path.dirname(inService.pagesDir))).toMatch(new RegExp(`^reviews-page-code-p${process.pid}-`));
    expect(existsSync(path.join(inService.pagesDir, SERVER_DIR, SERVER_ENTRY))).toBe(true);

    // A publish removes the folder, as it removes builds beyond the newest three.
    await rm(firstDir, { recursive: true });
    expect((await searchPage(inService, 'heater')).status).toBe(200);
    const next = await loadBuild(second.distDir, urls, inService, copies);
    expect(next.pages).toBe(inService.pages);
    expect(next.pagesDir).toBe(inService.pagesDir);
    const { status, html } = await searchPage(next, 'zorblax');
    expect(status).toBe(200);
    expect(html).toContain('<mark>zorblax</mark>');

    // A build of the same code for another DIST_DIR keeps it too: the staging folder's path, in Astro's
    // manifest, is set aside with the rest of what every build writes differently.
    const elsewhere = await buildTestSite({ contentDir, outDir: path.join(work, 'elsewhere', 'dist'), dataDir: path.join(work, 'elsewhere', 'data') });
    expect((await loadBuild(elsewhere.distDir, urls, next, copies)).pages).toBe(next.pages);

    // Copies no renderer uses are removed; the one in service stays, and close() removes them all.
    const spare = await copies.copy(await realpath(second.distDir));
    expect(existsSync(spare)).toBe(true);
    await copies.keepOnly([next.pagesDir]);
    expect(existsSync(spare)).toBe(false);
    expect(existsSync(next.pagesDir)).toBe(true);
    copies.close();
    expect(existsSync(path.dirname(next.pagesDir))).toBe(false);
    // After close, a build's code is imported from its own folder.
    expect(await copies.copy(await realpath(second.distDir))).toBe(await realpath(second.distDir));
  });

  it('removes the copies a process left when it ended without closing them, and no other', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const left = path.join(tmpdir(), `reviews-page-code-p${gone.stdout}-test01`);
    await mkdir(path.join(left, '1', SERVER_DIR), { recursive: true });
    const mine = await createPageCodeCopies();
    expect(existsSync(left)).toBe(false);
    // A build with page code, copied by this process: the next store made here leaves its copy alone.
    const build = path.join(work, 'fake-build');
    await mkdir(path.join(build, SERVER_DIR), { recursive: true });
    await writeFile(path.join(build, SERVER_DIR, SERVER_ENTRY), 'export {};');
    const copied = await mine.copy(build);
    expect(copied).not.toBe(build);
    const other = await createPageCodeCopies();
    try {
      expect(existsSync(path.join(copied, SERVER_DIR, SERVER_ENTRY))).toBe(true);
    } finally {
      mine.close();
      other.close();
      await rm(left, { recursive: true, force: true });
    }
  });
});
