/**
 * Node's compile cache (scripts/lib/compile-cache.ts) across publishes: a build after a content change adds
 * nothing to it. Astro writes the pages' code into a working folder and imports it from there; named by each
 * build's stamp, that code was kept under a new path at every build (69 files, 0.76 MB, never read again), so
 * the cache grew with every publish for as long as the service ran (scripts/build.ts `astroWorkDirOf`).
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'build-compile-cache-'));
  await cp(SMALL_CONTENT, path.join(work, 'content'), { recursive: true });
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Builds the content as `npm run build` does, with a compile cache of its own; lists the files in it. */
async function buildAndList(): Promise<string[]> {
  const cache = path.join(work, 'compile-cache');
  const env = { ...process.env, NODE_COMPILE_CACHE: cache, CONTENT_DIR: path.join(work, 'content'), PUBLIC_URL: 'http://localhost:9', DIST_DIR: path.join(work, 'dist'), DATA_DIR: path.join(work, 'data') };
  const run = await runScript(process.execPath, ['--import=./scripts/lib/compile-cache.ts', 'scripts/build.ts'], { env });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  // A folder per Node version, holding a file per module.
  const entries = (await readdir(cache, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  return entries.sort();
}

describe("the builds' compile cache", () => {
  it('gains no module from a second build, after a review changed', async () => {
    const first = await buildAndList();
    expect(first.length).toBeGreaterThan(1000);
    const file = path.join(work, 'content', 'reviews', (await readdir(path.join(work, 'content', 'reviews')))[0]!);
    const before = await readFile(file, 'utf8');
    await writeFile(file, before.replace('"text": "', '"text": "Edited. '));
    expect(await readFile(file, 'utf8')).not.toBe(before);
    expect(await buildAndList()).toEqual(first);
  }, 180_000);
});
