/**
 * A publish loads the next build beside the one in service (issue 32): the files it holds unchanged are
 * not sent again by the loading thread, and the serving thread keeps its own representations of them
 * (load-worker.ts, read-build.ts). What is loaded that way must be exactly what a load from nothing gives.
 */
import { cp, mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import { loadBuild, type LoadedBuild } from '../../sidecar/builds/load-build.ts';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import { servedKey } from '../../sidecar/builds/read-build.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const urls = createServiceUrls('https://reviews.example.com');
const work = await mkdtemp(path.join(tmpdir(), 'build-reuse-'));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('loading the next build beside the one in service', () => {
  it('keeps the unchanged files as they are held, and loads what a load from nothing loads', async () => {
    const contentDir = path.join(work, 'content');
    await cp(SMALL_CONTENT, contentDir, { recursive: true });
    const dataDir = path.join(work, 'data');
    // Both builds into one DIST_DIR, as publishes make them: a build continues the log of its own folder's builds.
    const outDir = path.join(work, 'dist');
    const first = await buildTestSite({ contentDir, outDir, dataDir });
    const inService = await loadBuild(first.distDir, urls);

    // One review edited and one added, the newest, so every review after it moves one position down.
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8')) as { id: string; text: string }[];
    reviews[0]!.text = 'EDITED: the heater was replaced twice.';
    reviews.push({ id: 'r-0900', rating: 4, date: '2025-02-28', text: 'A Newer review, about the Thermostat.', author: 'Kim', verified: true } as never);
    await writeFile(file, JSON.stringify(reviews));
    const second = await buildTestSite({ contentDir, outDir, dataDir });
    const beside = await loadBuild(second.distDir, urls, inService);
    const alone = await loadBuild(second.distDir, urls);
    expect(beside.live.dataset).toEqual(alone.live.dataset);
    expect(beside.live.index.text.lowerTexts).toEqual(alone.live.index.text.lowerTexts);
    expect(beside.live.index.text.lowerTitles).toEqual(alone.live.index.text.lowerTitles);
    expect([...beside.live.byId.keys()]).toEqual([...alone.live.byId.keys()]);
    expect(beside.live.changes).toEqual(alone.live.changes);
    for (const [pos, review] of beside.live.index.reviews.entries()) {
      expect(beside.live.byId.get(review.id)).toBe(review);
      expect(beside.live.index.text.lowerTexts[pos]).toBe(review.text.toLowerCase());
      expect(beside.reviewJson.utf8(pos).equals(alone.reviewJson.utf8(pos))).toBe(true);
    }
    expect(beside.live.byId.get(reviews[0]!.id)!.text).toBe(reviews[0]!.text);
    expect(beside.live.byId.get('r-0900')).toBeDefined();

    // Files: every one served as a load from nothing serves it; those of the same ETags are the objects held.
    expectSameFiles(beside, alone);
    const [aloneFiles, inServiceFiles] = [(await readManifest(alone.dir))!.files, (await readManifest(inService.dir))!.files];
    const unchanged = Object.entries(aloneFiles)
      .filter(([urlPath, entry]) => inServiceFiles[urlPath] && servedKey(inServiceFiles[urlPath]) === servedKey(entry))
      .map(([urlPath]) => urlPath);
    const keptFiles = [...beside.resources].filter(([urlPath, rep]) => rep === inService.resources.get(urlPath)).map(([urlPath]) => urlPath);
    expect(keptFiles.sort()).toEqual(unchanged.sort());
    expect(unchanged.length).toBeGreaterThan(10);
    expect(unchanged).not.toContain('/reviews.json');

    // The same build again: every file, the data files too, is taken from the build in service.
    const again = await loadBuild(second.distDir, urls, beside);
    expectSameFiles(again, alone);
    expect(again.live.dataset).toEqual(alone.live.dataset);
    expect([...again.resources].every(([urlPath, rep]) => rep === beside.resources.get(urlPath))).toBe(true);

    // A kept file missing or cut short on disk is not taken from the build in service: the load is the
    // load from nothing, which refuses a missing file and serves the bytes there are.
    const [shortened, missing] = unchanged.filter((urlPath) => urlPath.endsWith('/')).slice(0, 2).map((urlPath) => aloneFiles[urlPath]!.file);
    await truncate(path.join(second.distDir, shortened!), 10);
    const cutShort = await loadBuild(second.distDir, urls, inService);
    expectSameFiles(cutShort, await loadBuild(second.distDir, urls));
    expect(cutShort.resources.get(`/${path.dirname(shortened!)}/`)!.identity.body.length).toBe(10);
    await unlink(path.join(second.distDir, missing!));
    await expect(loadBuild(second.distDir, urls, inService)).rejects.toThrow(/ENOENT/);
  }, 120_000);
});

function expectSameFiles(loaded: LoadedBuild, expected: LoadedBuild): void {
  expect([...loaded.resources.keys()].sort()).toEqual([...expected.resources.keys()].sort());
  for (const [urlPath, rep] of expected.resources) {
    const got = loaded.resources.get(urlPath)!;
    expect({ path: urlPath, headers: got.headers, prepared: got.prepared, lastModifiedMs: got.lastModifiedMs }).toEqual({
      path: urlPath,
      headers: rep.headers,
      prepared: rep.prepared,
      lastModifiedMs: rep.lastModifiedMs,
    });
    for (const [coding, body] of [['identity', rep.identity], ...Object.entries(rep.variants ?? {})] as const) {
      const gotBody = coding === 'identity' ? got.identity : got.variants![coding as 'br' | 'gzip']!;
      expect(gotBody.etag).toBe(body!.etag);
      expect(Buffer.compare(gotBody.body, body!.body), `${urlPath} ${coding}`).toBe(0);
    }
  }
  expect(new Map(loaded.topicHashes)).toEqual(new Map(expected.topicHashes));
  expect(new Map(loaded.redirects)).toEqual(new Map(expected.redirects));
}
