/**
 * A publish loads the next build beside the one in service (issue 32): the reviews and files it holds
 * unchanged are not sent again by the loading thread, and the serving thread keeps its own objects for
 * them (load-worker.ts, read-build.ts). What is loaded that way must be exactly what a load from nothing gives.
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
  it('keeps the unchanged reviews as they are held, and loads what a load from nothing loads', async () => {
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
    // Searches made the JSON bytes of every review in service.
    const madeBefore = inService.live.index.reviews.map((_, pos) => inService.reviewJson.utf8(pos));

    const beside = await loadBuild(second.distDir, urls, inService);
    const alone = await loadBuild(second.distDir, urls);
    expect(beside.live.dataset).toEqual(alone.live.dataset);
    expect(beside.live.index.text.lowerTexts).toEqual(alone.live.index.text.lowerTexts);
    expect(beside.live.index.text.lowerTitles).toEqual(alone.live.index.text.lowerTitles);
    expect([...beside.live.byId.keys()]).toEqual([...alone.live.byId.keys()]);
    expect(beside.reviewDigests).toBe(alone.reviewDigests);
    for (const [pos, review] of beside.live.index.reviews.entries()) {
      expect(beside.live.byId.get(review.id)).toBe(review);
      expect(beside.live.index.text.lowerTexts[pos]).toBe(review.text.toLowerCase());
    }

    const edited = reviews[0]!.id;
    const kept = beside.live.index.reviews.filter((r) => r === inService.live.byId.get(r.id)).map((r) => r.id);
    expect(kept.sort()).toEqual([...inService.live.byId.keys()].filter((id) => id !== edited).sort());
    expect(beside.live.byId.get(edited)!.text).toBe(reviews[0]!.text);
    expect(beside.live.byId.get('r-0900')).toBeDefined();
    // The change log: as loaded from nothing; an entry at a position the log in service holds is its object.
    expect(beside.live.changes).toEqual(alone.live.changes);
    const heldEntries = new Map(inService.live.changes.entries.map((entry) => [entry.index, entry]));
    const keptEntries = beside.live.changes.entries.filter((entry) => entry === heldEntries.get(entry.index));
    expect(keptEntries).toHaveLength(inService.live.changes.entries.length - 1);
    expect(beside.live.changes.entries).toHaveLength(inService.live.changes.entries.length + 1);
    // A log in service whose first position differs (another history) lends no entry.
    const { changes } = inService.live;
    const otherHistory = { ...inService, live: { ...inService.live, changes: { ...changes, checks: `${changes.checks[0] === 'A' ? 'B' : 'A'}${changes.checks.slice(1)}` } } };
    const fromOther = await loadBuild(second.distDir, urls, otherHistory);
    expect(fromOther.live.changes).toEqual(alone.live.changes);
    expect(fromOther.live.changes.entries.filter((entry) => entry === heldEntries.get(entry.index))).toEqual([]);
    // The JSON bytes of a kept review are the ones made in service; the others are made when asked.
    for (const [pos, review] of beside.live.index.reviews.entries()) {
      const was = inService.live.index.reviews.indexOf(review);
      expect(beside.reviewJson.madeUtf8(pos)).toBe(was === -1 ? undefined : madeBefore[was]);
      expect(beside.reviewJson.utf8(pos).equals(alone.reviewJson.utf8(pos))).toBe(true);
    }

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
