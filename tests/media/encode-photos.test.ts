import { cp, mkdir, mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { copyPublishedPhotos, encodeContentPhotos } from '../../scripts/lib/media/encode-photos.ts';
import { MEDIA_LIMITS, planVariantWidths } from '../../core/media/media-variants.ts';
import type { ReviewContent } from '../../core/schemas/content.ts';

const FIXTURE = path.resolve('tests/fixtures/content-small');
const PHONE_PHOTO = 'media/r-0001/furnace.jpg';

const review = (id: string, media: ReviewContent['media']): ReviewContent => ({ id, rating: 5, date: '2025-01-01', text: 'Fine.', author: 'A', verified: true, media });
const tempDir = (prefix: string) => mkdtemp(path.join(tmpdir(), prefix));

/** Whether an EXIF block (TIFF layout) holds a GPS IFD pointer, tag 0x8825, in either byte order. */
function hasGpsPointer(exif: Buffer): boolean {
  return exif.includes(Buffer.from([0x25, 0x88, 0x04, 0x00])) || exif.includes(Buffer.from([0x88, 0x25, 0x00, 0x04]));
}

describe('planVariantWidths', () => {
  it.each([
    [200, [200]],
    [320, [320]],
    [960, [320, 640, 960]],
    [4000, [320, 640, 1280]],
  ])('publishes a %i px wide photo at %j', (width, widths) => {
    expect(planVariantWidths(width)).toEqual(widths);
  });
});

describe('encodeContentPhotos', () => {
  it('strips every metadata, GPS included, and turns the photo upright', async () => {
    const source = await sharp(path.join(FIXTURE, PHONE_PHOTO)).metadata();
    // The fixture is what a phone writes: sideways pixels, orientation 6, and a location.
    expect([source.width, source.height, source.orientation]).toEqual([720, 960, 6]);
    expect(hasGpsPointer(source.exif!)).toBe(true);

    const cacheDir = await tempDir('media-cache-');
    const result = await encodeContentPhotos({ contentDir: FIXTURE, cacheDir, reviews: [review('r-0001', [{ file: PHONE_PHOTO }])] });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const photo = result.catalog.get(PHONE_PHOTO)!;
    expect([photo.width, photo.height]).toEqual([960, 720]);
    expect(photo.variants.map((v) => `${v.format} ${v.width}x${v.height}`)).toEqual([
      'webp 320x240', 'jpeg 320x240', 'webp 640x480', 'jpeg 640x480', 'webp 960x720', 'jpeg 960x720',
    ]);
    const outDir = await tempDir('media-out-');
    await copyPublishedPhotos({ catalog: result.catalog, files: [PHONE_PHOTO], cacheDir, outDir });
    for (const variant of photo.variants) {
      const bytes = await readFile(path.join(outDir, 'media', variant.name));
      const meta = await sharp(bytes).metadata();
      expect({ exif: meta.exif, icc: meta.icc, xmp: meta.xmp, orientation: meta.orientation, width: meta.width }).toEqual({
        exif: undefined, icc: undefined, xmp: undefined, orientation: undefined, width: variant.width,
      });
      expect(bytes.includes(Buffer.from('ExampleCam'))).toBe(false);
      expect(bytes.length).toBe(variant.size);
    }
  });

  it('gives the same bytes on a second machine (an empty cache) and encodes nothing twice with the cache', async () => {
    const reviews = [review('r-0001', [{ file: PHONE_PHOTO }, { file: 'media/r-0003/water-heater.jpg' }])];
    const [a, b] = [await tempDir('media-a-'), await tempDir('media-b-')];
    const first = await encodeContentPhotos({ contentDir: FIXTURE, cacheDir: a, reviews });
    const second = await encodeContentPhotos({ contentDir: FIXTURE, cacheDir: b, reviews });
    if (!first.ok || !second.ok) throw new Error('encoding failed');
    expect([first.encoded, first.cached]).toEqual([2, 0]);
    const read = async (dir: string) => {
      const out = await tempDir('media-out-');
      await copyPublishedPhotos({ catalog: first.catalog, files: first.catalog.keys(), cacheDir: dir, outDir: out });
      const names = (await readdir(path.join(out, 'media'))).sort();
      return Promise.all(names.map(async (n) => [n, (await readFile(path.join(out, 'media', n))).toString('base64')]));
    };
    expect(await read(b)).toEqual(await read(a));

    const files = (await readdir(a, { recursive: true })).filter((n) => /\.(jpg|webp)$/.test(n));
    const before = await Promise.all(files.map(async (f) => (await stat(path.join(a, f))).mtimeMs));
    const again = await encodeContentPhotos({ contentDir: FIXTURE, cacheDir: a, reviews });
    expect(again.ok && [again.encoded, again.cached]).toEqual([0, 2]);
    expect(await Promise.all(files.map(async (f) => (await stat(path.join(a, f))).mtimeMs))).toEqual(before);
  });

  it('reports a missing, corrupt, unsupported or oversized file with its review, field and reason, all at once', async () => {
    const contentDir = await tempDir('media-bad-');
    await cp(path.join(FIXTURE, 'media'), path.join(contentDir, 'media'), { recursive: true });
    await writeFile(path.join(contentDir, 'media/corrupt.jpg'), Buffer.concat([(await readFile(path.join(FIXTURE, PHONE_PHOTO))).subarray(0, 600)]));
    await writeFile(path.join(contentDir, 'media/notes.jpg'), 'not an image at all');
    await writeFile(path.join(contentDir, 'media/anim.gif'), await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).gif().toBuffer());
    await writeFile(path.join(contentDir, 'media/huge.jpg'), Buffer.alloc(MEDIA_LIMITS.maxBytes + 1));
    const result = await encodeContentPhotos({
      contentDir,
      cacheDir: await tempDir('media-cache-'),
      reviews: [
        review('r-1', [{ file: 'media/missing.jpg' }, { file: 'media/corrupt.jpg' }]),
        review('r-2', [{ file: 'media/notes.jpg' }, { video_url: 'https://video.example/v', poster: 'media/anim.gif' }]),
        review('r-3', [{ file: PHONE_PHOTO }, { file: 'media/huge.jpg' }]),
      ],
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual([
      { file: 'media/anim.gif', review: 'r-2', field: 'media.1.poster', message: 'unsupported image format gif (use JPEG, PNG, WebP or AVIF)' },
      { file: 'media/corrupt.jpg', review: 'r-1', field: 'media.1.file', message: expect.stringMatching(/^not a readable image \(.+\)$/) },
      { file: 'media/huge.jpg', review: 'r-3', field: 'media.1.file', message: 'is 15.0 MB, over the 15.0 MB limit' },
      { file: 'media/missing.jpg', review: 'r-1', field: 'media.0.file', message: 'file not found' },
      { file: 'media/notes.jpg', review: 'r-2', field: 'media.0.file', message: expect.stringMatching(/^not a readable image \(.+\)$/) },
    ]);
  });
});

describe('encodeContentPhotos messages (issue 31)', () => {
  it('says a truncated JPEG is damaged even when many photos fail at once, never "Unknown error"', async () => {
    const contentDir = await tempDir('media-truncated-');
    const reviews: ReviewContent[] = [];
    for (const source of [PHONE_PHOTO, 'media/r-0003/water-heater.jpg']) {
      const bytes = await readFile(path.join(FIXTURE, source));
      for (const fraction of [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99]) {
        const file = `media/${path.basename(source, '.jpg')}-${fraction}.jpg`;
        await mkdir(path.dirname(path.join(contentDir, file)), { recursive: true });
        await writeFile(path.join(contentDir, file), bytes.subarray(0, Math.floor(bytes.length * fraction)));
        reviews.push(review(`r-${reviews.length}`, [{ file }]));
      }
    }
    const result = await encodeContentPhotos({ contentDir, cacheDir: await tempDir('media-cache-'), reviews });
    const messages = result.ok ? [] : result.problems.map((p) => p.message);
    expect(messages).toHaveLength(16);
    for (const message of messages) expect(message).toMatch(/premature end of JPEG image|the JPEG is truncated/);
  });

  it('reports a decompression bomb with its dimensions', async () => {
    const contentDir = await tempDir('media-bomb-');
    await mkdir(path.join(contentDir, 'media'));
    // A PNG header that claims 80 megapixels: what a bomb shows before anything is decoded.
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(10_000, 0);
    ihdr.writeUInt32BE(8_000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const bomb = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(30_001))), chunk('IEND', Buffer.alloc(0))]);
    await writeFile(path.join(contentDir, 'media/bomb.png'), bomb);
    const result = await encodeContentPhotos({ contentDir, cacheDir: await tempDir('media-cache-'), reviews: [review('r-1', [{ file: 'media/bomb.png' }])] });
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual(['is 10000×8000 pixels, over the 50-megapixel limit']);
  });
});
