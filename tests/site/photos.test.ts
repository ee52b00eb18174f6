/** Customers' photos through the real build (issue 22): checked, encoded, published and listed in the data. */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/build.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const PUBLIC = 'https://reviews.example.com';
const BUILDS_TIMEOUT = 240_000;
const temp = (prefix: string) => mkdtemp(path.join(tmpdir(), prefix));

async function build(options: { contentDir?: string; outDir?: string; mediaCacheDir: string }) {
  const outDir = options.outDir ?? path.join(await temp('photos-build-'), 'dist');
  const result = await buildSite({ contentDir: options.contentDir ?? SMALL_CONTENT, publicUrl: PUBLIC, outDir, mediaCacheDir: options.mediaCacheDir });
  return { result, outDir };
}

async function readMedia(distDir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(path.join(distDir, 'media'))).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(path.join(distDir, 'media', n))] as const)));
}

describe('photos in the build', () => {
  it('publishes identical bytes from two empty caches, and re-encodes nothing on an unchanged rebuild', async () => {
    const cacheA = await temp('media-cache-');
    const first = await build({ mediaCacheDir: cacheA });
    const second = await build({ mediaCacheDir: await temp('media-cache-') });
    if (!first.result.ok || !second.result.ok) throw new Error('build failed');
    expect(first.result.photos).toMatchObject({ encoded: 3, cached: 0 });
    const [a, b] = [await readMedia(first.outDir), await readMedia(second.outDir)];
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
    // 3 photos: 960 px (3 widths), 480 px (2), 400 px (2), each in WebP and JPEG.
    expect(a.size).toBe(14);

    const rebuilt = await build({ mediaCacheDir: cacheA });
    expect(rebuilt.result.ok && rebuilt.result.photos).toMatchObject({ encoded: 0, cached: 3 });
    // A cache an older build filled holds the encodings without the privacy answer: it is read again.
    const kept = (await readdir(cacheA, { recursive: true })).filter((f) => path.basename(f).startsWith('privacy-'));
    expect(kept).toHaveLength(3);
    await Promise.all(kept.map((f) => rm(path.join(cacheA, f))));
    const olderCache = await build({ mediaCacheDir: cacheA });
    expect(olderCache.result.ok && olderCache.result.photos).toMatchObject({ encoded: 0, cached: 3 });
    // The fixture's phone photo was added by hand with its location: every build says so, cached or not.
    for (const done of [first.result, rebuilt.result, olderCache.result]) {
      expect(done.ok && done.warnings).toEqual([
        'Warning: media/r-0001/furnace.jpg, review r-0001, field media.0.file: the original still carries a GPS location (published copies never do); npm run photos:strip removes it',
      ]);
    }
    const c = await readMedia(rebuilt.outDir);
    for (const [name, bytes] of a) expect(bytes.equals(c.get(name)!), name).toBe(true);
  }, BUILDS_TIMEOUT);

  it('lists each review\'s media in /reviews.json with absolute URLs that the build serves', async () => {
    // The run's one build of the small site, copied (tests/helpers/site-build.ts): this test only reads it.
    const { distDir: outDir, manifest } = await buildTestSite({ contentDir: SMALL_CONTENT, publicUrl: PUBLIC });
    const dataset = JSON.parse(await readFile(path.join(outDir, 'reviews.json'), 'utf8')) as ReviewsDataset;
    const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
    const phone = byId.get('r-0001')!.media;
    expect(phone).toEqual([
      {
        type: 'photo',
        alt: 'The new furnace in the basement, front panel on',
        url: expect.stringMatching(/^https:\/\/reviews\.example\.com\/media\/[a-f0-9]{16}-960\.jpg$/),
        width: 960,
        height: 720,
        size_in_bytes: expect.any(Number),
        thumbnail_url: expect.stringMatching(/^https:\/\/reviews\.example\.com\/media\/[a-f0-9]{16}-320\.jpg$/),
        variants: expect.any(Array),
        video_url: null,
      },
    ]);
    expect(byId.get('r-0003')!.media).toMatchObject([{ type: 'photo', alt: null, width: 480, height: 640 }]);
    expect(byId.get('r-0006')!.media).toMatchObject([{ type: 'video', video_url: 'https://video.example/ac-unit-running', width: 400, height: 300 }]);
    expect(byId.get('r-0002')!.media).toEqual([]);

    const every = dataset.reviews.flatMap((r) => r.media.flatMap((m) => [m.url, m.thumbnail_url, ...m.variants.map((v) => v.url)]));
    for (const url of every) {
      const urlPath = new URL(url).pathname;
      expect(manifest.files[urlPath], urlPath).toBeDefined();
      expect(manifest.files[urlPath]!.type).toMatch(/^image\/(jpeg|webp)$/);
    }
    const full = phone[0]!;
    expect((await readFile(path.join(outDir, new URL(full.url).pathname))).length).toBe(full.size_in_bytes);
  }, BUILDS_TIMEOUT);

  it('stops on a corrupt photo naming the review, the file and the reason, and keeps the last good build', async () => {
    const content = path.join(await temp('content-'), 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    // The content is unchanged yet: the run's build of the small site, copied, is the good build.
    const good = await buildTestSite({ contentDir: content, publicUrl: PUBLIC });
    const before = await readFile(path.join(good.distDir, 'reviews.json'));

    await writeFile(path.join(content, 'media/r-0003/water-heater.jpg'), 'a text file, renamed');
    const bad = await buildSite({ contentDir: content, publicUrl: PUBLIC, outDir: good.distDir, dataDir: path.join(path.dirname(good.distDir), 'data'), mediaCacheDir: await temp('media-cache-') });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.message).toMatch(
      /media\/r-0003\/water-heater\.jpg, review r-0003, field media\.0\.file: not a readable image \(.+\)/,
    );
    expect((await readFile(path.join(good.distDir, 'reviews.json'))).equals(before)).toBe(true);
  }, BUILDS_TIMEOUT);
});
