/**
 * `npm run import -- google` with `reviewMediaItems`, as a user runs it (the script in a child process),
 * against a local HTTPS server signed by a test CA (trusted through NODE_EXTRA_CA_CERTS): every photo
 * stored once under a content-hash name, a failure reported on its review's line without losing the
 * review, a re-import that writes nothing, --dry-run that downloads nothing, and the hub's address
 * rules (a cloud-metadata address is never fetched).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { encodeContentPhotos } from '../../scripts/lib/media/encode-photos.ts';
import { createTestCa, startHttpsCallbackServer, type HttpsCallbackServer, type TestCa } from '../../tools/lib/https-ca.ts';
import { runScript } from '../helpers/run-script.ts';
import { copySmallContent, readReviews, snapshot } from './harness.ts';

const SMALL = path.resolve('tests/fixtures/content-small/media');
const idOf = (reviewId: string) => deriveReviewId('google', reviewId);
let ca: TestCa;
let server: HttpsCallbackServer;
let photos: Record<string, Buffer>;
let exportFile: string;

beforeAll(async () => {
  ca = createTestCa();
  photos = {
    '/p/furnace.jpg': await readFile(path.join(SMALL, 'r-0001/furnace.jpg')),
    '/p/heater.jpg': await readFile(path.join(SMALL, 'r-0003/water-heater.jpg')),
    '/v/poster.png': await readFile(path.join(SMALL, 'r-0006/poster.png')),
  };
  server = await startHttpsCallbackServer({
    ca,
    handler: (req, res) => {
      if (photos[req.path]) return void res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(photos[req.path]);
      if (req.path === '/p/moved') return void res.writeHead(302, { Location: '/p/heater.jpg' }).end();
      if (req.path === '/p/loop') return void res.writeHead(302, { Location: '/p/loop' }).end();
      if (req.path === '/p/page.html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>not a photo</p>');
      res.writeHead(404).end();
    },
  });
  const review = (reviewId: string, comment: string, reviewMediaItems: unknown[]) => ({
    reviewId,
    reviewer: { displayName: 'Pat Q.' },
    starRating: 'FIVE',
    comment,
    createTime: '2026-04-20T15:00:00Z',
    reviewMediaItems,
  });
  exportFile = path.join(path.dirname(await copySmallContent()), 'google-media.json');
  await writeFile(
    exportFile,
    JSON.stringify({
      reviews: [
        review('MediaAllGood', 'The new furnace, installed.', [{ googleUrl: server.url('/p/furnace.jpg'), mediaFormat: 'PHOTO', description: 'The new furnace' }]),
        review('MediaMixed', 'Heater swapped, one photo lost.', [
          { googleUrl: server.url('/p/moved'), mediaFormat: 'PHOTO' },
          { googleUrl: server.url('/p/gone.jpg'), mediaFormat: 'PHOTO' },
          { googleUrl: server.url('/p/page.html'), mediaFormat: 'PHOTO' },
          { googleUrl: server.url('/p/loop'), mediaFormat: 'PHOTO' },
          { googleUrl: 'https://169.254.169.254/latest/meta-data/', mediaFormat: 'PHOTO' },
          { googleUrl: 'not a url' },
        ]),
        review('MediaVideo', 'The AC runs again, video attached.', [
          { googleUrl: 'https://video.example/watch/ac', thumbnailUrl: server.url('/v/poster.png'), mediaFormat: 'VIDEO' },
        ]),
      ],
    }),
  );
});
afterAll(async () => {
  await server?.close();
  ca?.remove();
});

function runImport(contentDir: string, args: string[]) {
  return runScript(process.execPath, ['scripts/import/main.ts', 'google', exportFile, '--allow-private-downloads', ...args], {
    env: { ...process.env, CONTENT_DIR: contentDir, NODE_EXTRA_CA_CERTS: ca.certFile },
  });
}

describe('npm run import -- google, with photos', () => {
  it('stores each photo once by content hash, reports each failure on its review, and keeps the review', async () => {
    const content = await copySmallContent();
    const run = await runImport(content, []);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Summary: 3 added, 0 updated, 0 unchanged, 0 skipped, 0 removed.');
    expect(lines.at(-2)).toBe('Photos: 3 stored (3 new files), 5 not imported.');
    const at = `${exportFile}, review MediaMixed`;
    expect(lines.filter((l) => l.startsWith('photo not imported')).sort()).toEqual(
      [
        `photo not imported: ${at}, reviewMediaItems.5.googleUrl: must be an absolute http(s) URL, e.g. https://example.com`,
        `photo not imported: ${at}, photo 2 of 5 (${server.url('/p/gone.jpg')}): the photo's server answered 404; the review is imported without it`,
        `photo not imported: ${at}, photo 3 of 5 (${server.url('/p/page.html')}): not a JPEG, PNG, WebP or AVIF image; the review is imported without it`,
        `photo not imported: ${at}, photo 4 of 5 (${server.url('/p/loop')}): more than 3 redirects; the review is imported without it`,
        `photo not imported: ${at}, photo 5 of 5 (https://169.254.169.254/latest/meta-data/): the photo host 169.254.169.254 resolves to a cloud-metadata address (169.254.169.254), which imports do not fetch; the review is imported without it`,
      ].sort(),
    );

    const reviews = await readReviews(content);
    const hashName = (bytes: Buffer, ext: string) => `${createHashHex(bytes)}.${ext}`;
    const good = reviews.get(idOf('MediaAllGood'))!;
    expect(good.media).toEqual([{ file: `media/${good.id}/${hashName(photos['/p/furnace.jpg']!, 'jpg')}`, alt: 'The new furnace' }]);
    const mixed = reviews.get(idOf('MediaMixed'))!;
    expect(mixed.media).toEqual([{ file: `media/${mixed.id}/${hashName(photos['/p/heater.jpg']!, 'jpg')}` }]);
    const video = reviews.get(idOf('MediaVideo'))!;
    expect(video.media).toEqual([{ video_url: 'https://video.example/watch/ac', poster: `media/${video.id}/${hashName(photos['/v/poster.png']!, 'png')}` }]);
    for (const review of [good, mixed, video]) {
      for (const item of review.media as { file?: string; poster?: string }[]) {
        expect((await stat(path.join(content, item.file ?? item.poster!))).isFile()).toBe(true);
      }
    }
    // What was stored passes the build's own photo check.
    const loaded = await loadContent(content);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const encoded = await encodeContentPhotos({ contentDir: content, cacheDir: path.join(content, '../media-cache'), reviews: loaded.value.reviews });
    expect(encoded.ok).toBe(true);
    // The phone photo was served with its GPS location; the stored original has none, its orientation kept
    // (the one warning is the fixture's own copy, added by hand).
    expect(encoded.ok && encoded.warnings.map((w) => w.file)).toEqual(['media/r-0001/furnace.jpg']);
    const stored = await sharp(path.join(content, (good.media as { file: string }[])[0]!.file)).metadata();
    expect([stored.orientation, stored.width, stored.height]).toEqual([6, 720, 960]);

    // A second import writes nothing, and fetches no photo it already has.
    const before = await snapshot(content);
    const requested = server.requests.length;
    const again = await runImport(content, []);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trimEnd().split('\n').at(-1)).toBe('Summary: 0 added, 0 updated, 3 unchanged, 0 skipped, 0 removed.');
    expect(await snapshot(content)).toEqual(before);
    const fetchedAgain = server.requests.slice(requested).map((r) => r.path);
    expect(fetchedAgain).not.toContain('/p/furnace.jpg');
    expect(fetchedAgain).not.toContain('/v/poster.png');
  });

  it('downloads nothing with --dry-run', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const requested = server.requests.length;
    const run = await runImport(content, ['--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`photos of ${idOf('MediaAllGood')}: 1 to download (dry run: nothing downloaded)`);
    expect(run.stdout).toContain('Photos: 3 reviews with photos to download.');
    expect(server.requests.length).toBe(requested);
    expect(await snapshot(content)).toEqual(before);
  });

  it('takes a CSV photos column: paths relative to the CSV, and HTTPS URLs', async () => {
    const content = await copySmallContent();
    const dir = path.dirname(content);
    await mkdir(path.join(dir, 'photos'), { recursive: true });
    await writeFile(path.join(dir, 'photos', 'furnace.jpg'), photos['/p/furnace.jpg']!);
    await writeFile(path.join(dir, 'photos', 'corrupt.jpg'), 'not a picture');
    const csv = path.join(dir, 'export.csv');
    await writeFile(
      csv,
      ['Date,Rating,Author,Review,Photos', `2026-04-02,5,Kim L.,Great furnace job.,photos/furnace.jpg | ${server.url('/p/heater.jpg')}`, '2026-04-03,4,Ray P.,Good work.,photos/missing.jpg | photos/corrupt.jpg'].join('\n'),
    );
    const run = await runScript(process.execPath, ['scripts/import/main.ts', 'csv', csv, '--source', 'direct', '--allow-private-downloads'], {
      env: { ...process.env, CONTENT_DIR: content, NODE_EXTRA_CA_CERTS: ca.certFile },
    });
    expect(run.code, run.stderr).toBe(0);
    // Each refused file named, not only its row.
    expect(run.stdout).toContain(`photo not imported: ${csv}, row 3, photo 1 of 2 (photos/missing.jpg): file not found; the review is imported without it`);
    expect(run.stdout).toContain(`photo not imported: ${csv}, row 3, photo 2 of 2 (photos/corrupt.jpg): not a JPEG, PNG, WebP or AVIF image; the review is imported without it`);
    const reviews = [...(await readReviews(content)).values()];
    const kim = reviews.find((r) => r.author === 'Kim L.')!;
    expect(kim.media).toEqual([
      { file: `media/${kim.id}/${createHashHex(photos['/p/furnace.jpg']!)}.jpg` },
      { file: `media/${kim.id}/${createHashHex(photos['/p/heater.jpg']!)}.jpg` },
    ]);
    expect(reviews.find((r) => r.author === 'Ray P.')!.media).toBeUndefined();
  });

  it('refuses loopback photos without --allow-private-downloads', async () => {
    const content = await copySmallContent();
    const run = await runScript(process.execPath, ['scripts/import/main.ts', 'google', exportFile], {
      env: { ...process.env, CONTENT_DIR: content, NODE_EXTRA_CA_CERTS: ca.certFile },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`photo not imported: ${exportFile}, review MediaAllGood, photo 1 of 1 (${server.url('/p/furnace.jpg')}): the photo host 127.0.0.1 resolves to a loopback address (127.0.0.1), which imports do not fetch`);
    expect((await readReviews(content)).get(idOf('MediaAllGood'))!.media).toBeUndefined();
  });
});

function createHashHex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}
