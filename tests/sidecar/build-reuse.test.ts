/**
 * A publish loads the next build beside the one in service (issue 32): the reviews it holds unchanged are
 * not sent again by the loading thread, and the serving thread keeps its own objects for them
 * (load-worker.ts). What is loaded that way must be exactly what a load from nothing gives.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import { loadBuild } from '../../sidecar/builds/load-build.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const urls = createServiceUrls('https://reviews.example.com');
const work = await mkdtemp(path.join(tmpdir(), 'build-reuse-'));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('loading the next build beside the one in service', () => {
  it('keeps the unchanged reviews as they are held, and loads what a load from nothing loads', async () => {
    const contentDir = path.join(work, 'content');
    await cp(SMALL_CONTENT, contentDir, { recursive: true });
    const dataDir = path.join(work, 'data');
    const first = await buildTestSite({ contentDir, outDir: path.join(work, 'first'), dataDir });
    const inService = await loadBuild(first.distDir, urls);

    // One review edited and one added, the newest, so every review after it moves one position down.
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8')) as { id: string; text: string }[];
    reviews[0]!.text = 'EDITED: the heater was replaced twice.';
    reviews.push({ id: 'r-0900', rating: 4, date: '2025-02-28', text: 'A Newer review, about the Thermostat.', author: 'Kim', verified: true } as never);
    await writeFile(file, JSON.stringify(reviews));
    const second = await buildTestSite({ contentDir, outDir: path.join(work, 'second'), dataDir });

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
  }, 120_000);
});
