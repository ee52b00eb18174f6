/**
 * The content folder as untrusted input (issue 31 item 4): a FIFO nobody names, a link to /dev/zero and
 * a photo that links to a file outside the folder each get a refusal naming the entry, within a second,
 * from the build's fingerprint, the content loader and the photo encoder; and `npm run build` and
 * `npm start` end with that message instead of hanging or publishing the file.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { readReviewFiles } from '../../scripts/import/import-fs.ts';
import { encodeContentPhotos } from '../../scripts/lib/media/encode-photos.ts';
import { computeSourceFingerprint } from '../../scripts/lib/source-fingerprint.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

const PHOTO = 'media/r-0001/furnace.jpg';

type Hostile = { name: string; entry: string; reason: RegExp; make: (dir: string, outside: string) => Promise<void> };
const CASES: Hostile[] = [
  { name: 'a FIFO', entry: 'reviews/notes.fifo', reason: /named pipe \(FIFO\)/, make: async (dir) => void execFileSync('mkfifo', [path.join(dir, 'reviews/notes.fifo')]) },
  { name: 'a link to /dev/zero', entry: 'zero.bin', reason: /link to \/dev\/zero, outside the content folder/, make: (dir) => symlink('/dev/zero', path.join(dir, 'zero.bin')) },
  {
    name: 'a photo linking outside the folder',
    entry: PHOTO,
    reason: /outside the content folder/,
    make: async (dir, outside) => {
      await copyFile(path.join(dir, PHOTO), path.join(outside, 'secret.jpg'));
      await rm(path.join(dir, PHOTO));
      await symlink(path.join(outside, 'secret.jpg'), path.join(dir, PHOTO));
    },
  },
];

async function hostileFolder(c: Hostile): Promise<{ dir: string; work: string }> {
  const work = await mkdtemp(path.join(tmpdir(), 'hostile-content-'));
  const dir = path.join(work, 'content');
  await cp(SMALL_CONTENT, dir, { recursive: true });
  await c.make(dir, work);
  return { dir, work };
}

/** The promise's value, or a failure when it takes longer than `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a script until it exits, killing it (and failing) when it runs past `ms`. */
async function runWithin(ms: number, script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (output += c));
  try {
    const [code] = await within(ms, once(child, 'exit'));
    return { code: code as number | null, output };
  } finally {
    child.kill('SIGKILL');
  }
}

describe.each(CASES)('a content folder with $name', (c) => {
  it('is refused by the build fingerprint within a second, naming the entry', async () => {
    const { dir } = await hostileFolder(c);
    const result = await within(1000, computeSourceFingerprint({ contentDir: dir, publicUrl: 'https://reviews.example.com' }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const line = result.message.split('\n').find((l) => l.includes(c.entry));
    expect(line).toMatch(c.reason);
  });

  it('makes `npm run build` and `npm start` stop with the refusal instead of hanging', async () => {
    const { dir, work } = await hostileFolder(c);
    const env = { CONTENT_DIR: dir, DIST_DIR: path.join(work, 'dist'), DATA_DIR: path.join(work, 'data'), PUBLIC_URL: 'https://reviews.example.com', PORT: '0' };
    for (const script of ['scripts/build.ts', 'scripts/start.ts']) {
      const run = await runWithin(30_000, script, env);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain(c.entry);
      expect(run.output).toMatch(c.reason);
    }
  }, 90_000);
});

describe('the loader and the photo encoder on hostile entries', () => {
  it('refuses a reviews file that is a FIFO, and a photo that is a FIFO or a link to /dev/zero, within a second', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'hostile-files-'));
    const dir = path.join(work, 'content');
    await cp(SMALL_CONTENT, dir, { recursive: true });
    execFileSync('mkfifo', [path.join(dir, 'reviews/2025-03.json')]);
    const loaded = await within(1000, loadContent(dir));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.problems).toContainEqual(expect.objectContaining({ file: 'reviews/2025-03.json', message: expect.stringMatching(/named pipe \(FIFO\)/) }));

    await rm(path.join(dir, PHOTO));
    execFileSync('mkfifo', [path.join(dir, PHOTO)]);
    await symlink('/dev/zero', path.join(dir, 'media/r-0001/zero.jpg'));
    const review = { id: 'r-0001', rating: 5, date: '2025-01-01', text: 'Fine.', author: 'A', verified: true, media: [{ file: PHOTO }, { file: 'media/r-0001/zero.jpg' }] };
    const encoded = await within(1000, encodeContentPhotos({ contentDir: dir, cacheDir: path.join(work, 'cache'), reviews: [review] }));
    expect(encoded.ok).toBe(false);
    if (encoded.ok) return;
    expect(encoded.problems.map((p) => `${p.file}: ${p.message}`)).toEqual([
      `media/r-0001/furnace.jpg: is a named pipe (FIFO); the content folder takes only regular files and folders`,
      `media/r-0001/zero.jpg: is a link to /dev/zero, outside the content folder; links may only point inside it`,
    ]);
  });

  it('makes the importer name a reviews file that is a FIFO, within a second, instead of hanging', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'hostile-import-'));
    const dir = path.join(work, 'content');
    await cp(SMALL_CONTENT, dir, { recursive: true });
    execFileSync('mkfifo', [path.join(dir, 'reviews/2025-03.json')]);
    const read = await within(1000, readReviewFiles(dir));
    expect(read.ok ? [] : read.problems).toEqual(['reviews/2025-03.json: is a named pipe (FIFO); the content folder takes only regular files and folders; fix it before importing']);
  });

  it('still reads a photo that links to another file inside the folder', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'inside-link-'));
    const dir = path.join(work, 'content');
    await cp(SMALL_CONTENT, dir, { recursive: true });
    await symlink('furnace.jpg', path.join(dir, 'media/r-0001/same.jpg'));
    const review = { id: 'r-0001', rating: 5, date: '2025-01-01', text: 'Fine.', author: 'A', verified: true, media: [{ file: 'media/r-0001/same.jpg' }] };
    const encoded = await encodeContentPhotos({ contentDir: dir, cacheDir: path.join(work, 'cache'), reviews: [review] });
    expect(encoded.ok).toBe(true);
    expect((await computeSourceFingerprint({ contentDir: dir, publicUrl: 'https://reviews.example.com' })).ok).toBe(true);
  });
});
