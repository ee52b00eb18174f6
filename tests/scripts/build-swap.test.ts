/**
 * The build swap (issue 10 item 6): one atomic step (dist/ is a link flipped by rename), the last good
 * build recovered from .builds/ when dist/ is missing, Last-Modified never moving backwards, and the
 * folders of killed builds removed, and the previous build's compressed variants taken for unchanged files.
 */
import { spawnSync } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strongEtag, type Manifest } from '../../core/publishing/manifest.ts';
import { buildSite } from '../../scripts/build.ts';
import { newBuildFolderName, recoverBuild } from '../../core/publishing/build-folders-fs.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

const PUBLIC = 'https://reviews.example.com';
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/reviews-build/', import.meta.url));
let work: string;
let contentDir: string;
let outDir: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'build-swap-'));
  contentDir = path.join(work, 'content');
  outDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function build(): Promise<Manifest> {
  const result = await buildSite({ contentDir, publicUrl: PUBLIC, outDir });
  if (!result.ok) throw new Error(result.message);
  return result.manifest;
}

async function addReview(id: string, date: string) {
  const file = path.join(contentDir, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(file, 'utf8'));
  reviews.push({ id, rating: 4, date, text: `Review ${id}.`, author: 'Robin', verified: true });
  await writeFile(file, JSON.stringify(reviews));
}

const readManifest = async (): Promise<Manifest> => JSON.parse(await readFile(path.join(outDir, '_manifest.json'), 'utf8'));

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('the build swap', () => {
  it('makes dist/ a link to the build in .builds/, flipped in one rename by the next build', async () => {
    // The old layout: dist/ a real folder, moved into .builds/ by the first swap.
    await mkdir(outDir, { recursive: true });
    await writeFile(path.join(outDir, 'stale.txt'), 'from an older build');
    const first = await build();
    expect((await lstat(outDir)).isSymbolicLink()).toBe(true);
    const firstTarget = await readlink(outDir);
    expect(firstTarget).toMatch(/^\.builds\/build-/);
    expect((await readManifest()).build_id).toBe(first.build_id);

    await addReview('swap-1', '2025-02-20');
    const second = await build();
    expect(await readlink(outDir)).not.toBe(firstTarget);
    expect((await readManifest()).build_id).toBe(second.build_id);
    // The previous build stays for sidecars still loading it.
    expect((await readdir(path.join(work, '.builds'))).filter((n) => n.startsWith('build-')).length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('never moves Last-Modified backwards when dist/ went missing before the next build', async () => {
    const before = await readManifest();
    await rm(outDir);
    await addReview('swap-2', '2025-02-21');
    const after = await build();
    for (const [urlPath, entry] of Object.entries(after.files)) {
      const was = before.files[urlPath];
      if (!was) continue;
      expect(Date.parse(entry.last_modified), urlPath).toBeGreaterThanOrEqual(Date.parse(was.last_modified));
      if (entry.etag !== was.etag) expect(Date.parse(entry.last_modified), urlPath).toBeGreaterThan(Date.parse(was.last_modified));
    }
  }, 120_000);

  it('recovers the last good build when dist/ is missing, and the sidecar serves it without content', async () => {
    const good = await readManifest();
    await rm(outDir);
    const sidecar = await startTestSidecar({ distDir: outDir, publicUrl: PUBLIC });
    try {
      expect((await lstat(outDir)).isSymbolicLink()).toBe(true);
      expect(sidecar.builds.current().id).toBe(good.build_id);
      expect((await fetch(`${sidecar.url}/reviews.json`)).status).toBe(200);
    } finally {
      await sidecar.close();
    }
    await rm(outDir);
    expect(await recoverBuild(outDir)).toBe(good.build_id);
    expect(await recoverBuild(outDir)).toBeUndefined();
  }, 60_000);

  it('removes the folders that killed builds left, and keeps only the newest builds', async () => {
    const pid = deadPid();
    const builds = path.join(work, '.builds');
    const leftovers = [
      path.join(builds, `staging-old-${Date.now().toString(36)}-p${pid}`),
      path.join(builds, 'retired-from-the-old-layout'),
      path.join(builds, `build-half-written-p${pid}`),
      path.join(CACHE_DIR, `killed-${Date.now().toString(36)}-p${pid}`),
    ];
    // A build of this DIST_DIR killed in a container, whose pid is the one this build now has: its
    // folders name this DIST_DIR, and this build, holding the DIST_DIR's lock, knows them for stale.
    const killedHere = newBuildFolderName(outDir);
    leftovers.push(path.join(builds, `staging-${killedHere}`), path.join(builds, `staging-${killedHere}-media`), path.join(builds, `build-${killedHere}`));
    for (const dir of leftovers) await mkdir(dir, { recursive: true });
    // Another DIST_DIR's build at work (a live pid, no tag of this one): left alone.
    const alive = path.join(builds, `staging-busy-p${process.pid}`);
    await mkdir(alive);
    await addReview('swap-3', '2025-02-22');
    await build();
    for (const dir of leftovers) await expect(lstat(dir), dir).rejects.toThrow();
    await expect(lstat(alive)).resolves.toBeTruthy();
    await rm(alive, { recursive: true });
    expect((await readdir(builds)).filter((n) => n.startsWith('build-')).length).toBeLessThanOrEqual(3);
    expect((await readdir(builds)).filter((n) => /^(staging|link|retired)-/.test(n))).toEqual([]);
  }, 120_000);

  it("takes the previous build's variants of unchanged bytes, each only if it matches its ETag", async () => {
    const current = await realpath(outDir);
    const manifestFile = path.join(current, '_manifest.json');
    const before: Manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    const [kept, tampered] = ['/widget.js', '/feeds.json'].map((urlPath) => {
      const entry = before.files[urlPath]!;
      expect(entry.encodings.br, urlPath).toBeDefined();
      return { urlPath, entry, br: path.join(current, entry.encodings.br!.file) };
    });
    // A variant the build would not make (quality 1), with its ETag in the manifest: taken as it is.
    const quick = brotliCompressSync(await readFile(path.join(current, kept!.entry.file)), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    await writeFile(kept!.br, quick);
    kept!.entry.encodings.br = { ...kept!.entry.encodings.br!, etag: strongEtag(quick), size: quick.length };
    await writeFile(manifestFile, JSON.stringify(before));
    // A variant whose bytes no longer match its ETag: compressed again.
    await writeFile(tampered!.br, 'not brotli');

    await addReview('swap-4', '2025-02-23');
    const after = await build();
    expect(after.files[kept!.urlPath]!.encodings.br).toEqual(kept!.entry.encodings.br);
    expect(await readFile(path.join(outDir, kept!.entry.encodings.br!.file))).toEqual(quick);
    expect(after.files[tampered!.urlPath]!.encodings.br!.etag).not.toBe(strongEtag(Buffer.from('not brotli')));
    expect(after.files['/reviews.json']!.etag).not.toBe(before.files['/reviews.json']!.etag);
    // Every variant of the new build is its file, compressed.
    for (const entry of Object.values(after.files)) {
      const original = await readFile(path.join(outDir, entry.file));
      if (entry.encodings.br) expect(brotliDecompressSync(await readFile(path.join(outDir, entry.encodings.br.file))), entry.file).toEqual(original);
      if (entry.encodings.gzip) expect(gunzipSync(await readFile(path.join(outDir, entry.encodings.gzip.file))), entry.file).toEqual(original);
    }
  }, 120_000);
});
