/**
 * Photo originals private from the start (issue 29 item 5): stripPhotoMetadata removes a location and
 * names from JPEG, PNG, WebP and AVIF, keeps the pixels of the first three byte for byte and the
 * orientation; `npm run photos:strip` strips the originals already in a content folder, in place.
 */
import { cp, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findPrivateMetadata, stripPhotoMetadata } from '../../scripts/lib/media/strip-metadata.ts';
import { runScript } from '../helpers/run-script.ts';

const FIXTURE = path.resolve('tests/fixtures/content-small');
const PHONE_PHOTO = 'media/r-0001/furnace.jpg';

const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer();
const square = () => sharp({ create: { width: 6, height: 4, channels: 3, background: '#2a6' } });

describe('stripPhotoMetadata', () => {
  it('takes the location out of a phone JPEG and keeps its pixels, its colour profile and its orientation', async () => {
    const original = await readFile(path.join(FIXTURE, PHONE_PHOTO));
    expect(await findPrivateMetadata(original)).toEqual(['a GPS location']);
    const stripped = await stripPhotoMetadata(original);
    expect(await findPrivateMetadata(stripped)).toEqual([]);
    const [before, after] = [await sharp(original).metadata(), await sharp(stripped).metadata()];
    expect([after.orientation, after.width, after.height]).toEqual([6, 720, 960]);
    expect(after.icc?.equals(before.icc!)).toBe(true);
    expect((await pixels(stripped)).equals(await pixels(original))).toBe(true);
  });

  it.each([
    ['JPEG', () => square().jpeg()],
    ['PNG', () => square().png()],
    ['WebP', () => square().webp({ lossless: true })],
    ['AVIF', () => square().avif()],
  ])('removes the author and copyright names from a %s', async (_, encoder) => {
    const named = await encoder().withExif({ IFD0: { Artist: 'Jane Customer', Copyright: 'Jane Customer' } }).toBuffer();
    expect(await findPrivateMetadata(named)).toEqual(['a name']);
    const stripped = await stripPhotoMetadata(named);
    expect(await findPrivateMetadata(stripped)).toEqual([]);
    expect(stripped.includes(Buffer.from('Jane Customer'))).toBe(false);
    expect((await sharp(stripped).metadata()).width).toBe(6);
  });

  it('returns a photo with nothing to strip unchanged', async () => {
    const plain = await readFile(path.join(FIXTURE, 'media/r-0003/water-heater.jpg'));
    expect((await stripPhotoMetadata(plain)).equals(plain)).toBe(true);
  });
});

describe('npm run photos:strip', () => {
  it('lists with --check, then strips in place under the same names, and has nothing left to do', async () => {
    const content = path.join(await mkdtemp(path.join(tmpdir(), 'photos-strip-')), 'content');
    await cp(FIXTURE, content, { recursive: true });
    const named = await square().png().withExif({ IFD0: { Artist: 'Jane Customer' } }).toBuffer();
    await writeFile(path.join(content, 'media/r-0006/extra.png'), named);
    const env = { ...process.env, CONTENT_DIR: content, PUBLIC_URL: 'https://reviews.example.com' };
    const run = (args: string[]) => runScript(process.execPath, ['scripts/strip-photos.ts', ...args], { env });
    const files = async () => (await readdir(path.join(content, 'media'), { recursive: true })).sort();
    const before = await files();

    const check = await run(['--check']);
    expect(check.code).toBe(1);
    expect(check.stdout.trimEnd().split('\n')).toEqual([
      'media/r-0001/furnace.jpg: carries a GPS location',
      'media/r-0006/extra.png: carries a name',
      '2 photos to strip: run npm run photos:strip.',
    ]);
    const stripped = await run([]);
    expect(stripped.code, stripped.stderr).toBe(0);
    expect(stripped.stdout).toContain('media/r-0001/furnace.jpg: removed a GPS location');
    expect(await files()).toEqual(before);
    expect((await sharp(path.join(content, PHONE_PHOTO)).metadata()).orientation).toBe(6);
    const again = await run(['--check']);
    expect([again.code, again.stdout.trim()]).toEqual([0, 'No photo carries a location or a name.']);
  });
});
