/**
 * `.builds/` is shared by every DIST_DIR in one parent folder (issue 41 item 1): recovery and pruning
 * take only the builds whose manifest names their own DIST_DIR, and leave another's, and those that name
 * none, alone. Builds here are folders with a manifest only: what these steps read.
 */
import { mkdir, mkdtemp, readdir, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activateBuild, BUILDS_KEPT, buildsDirOf, distDirKeyOf, newBuildFolderName, recoverBuild, removeStaleBuildFolders } from '../../core/publishing/build-folders-fs.ts';
import { renderManifest } from '../../core/publishing/manifest.ts';

let work: string;
beforeEach(async () => {
  work = await realpath(await mkdtemp(path.join(tmpdir(), 'build-owner-')));
});
afterEach(() => rm(work, { recursive: true, force: true }));

/** A build folder in `.builds/` for `distDir` (or for none), its manifest written `age` seconds ago. */
async function fakeBuild(name: string, distDir: string | undefined, age: number): Promise<string> {
  const dir = path.join(work, '.builds', `build-${name}`);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, '_manifest.json');
  await writeFile(file, renderManifest({ build_id: name, dist_dir: distDir && distDirKeyOf(distDir), public_url: 'https://x.example', files: {} }));
  const at = new Date(Date.now() - age * 1000);
  await utimes(file, at, at);
  return dir;
}

describe('build folders of two DIST_DIRs in one parent', () => {
  it('recovers the newest build of its own DIST_DIR, never a newer one of another or of none', async () => {
    const [a, b] = [path.join(work, 'dist-a'), path.join(work, 'dist-b')];
    await fakeBuild('a-old', a, 30);
    await fakeBuild('b-new', b, 10);
    await fakeBuild('nobody-new', undefined, 5);
    expect(await recoverBuild(a)).toBe('a-old');
    expect(await recoverBuild(path.join(work, 'dist-c'))).toBeUndefined();
  });

  it("prunes only its own DIST_DIR's builds beyond the newest kept, and keeps the current one", async () => {
    const [a, b] = [path.join(work, 'dist-a'), path.join(work, 'dist-b')];
    for (let i = 0; i < 5; i++) await fakeBuild(`b-${i}`, b, 100 - i);
    await activateBuild(path.join(buildsDirOf(b), 'build-b-0'), b);
    await fakeBuild('nobody', undefined, 200);
    for (let i = 0; i < 5; i++) await fakeBuild(`a-${i}`, a, 50 - i);
    await removeStaleBuildFolders(a, newBuildFolderName(a));
    const left = (await readdir(buildsDirOf(a))).filter((n) => n.startsWith('build-')).sort();
    expect(left.filter((n) => n.startsWith('build-a-'))).toHaveLength(BUILDS_KEPT);
    expect(left.filter((n) => !n.startsWith('build-a-'))).toEqual(['build-b-0', 'build-b-1', 'build-b-2', 'build-b-3', 'build-b-4', 'build-nobody']);
    await removeStaleBuildFolders(b, newBuildFolderName(b));
    // b's current build (the oldest) is kept beside its newest three.
    expect((await readdir(buildsDirOf(b))).filter((n) => n.startsWith('build-b-')).sort()).toEqual(['build-b-0', 'build-b-2', 'build-b-3', 'build-b-4']);
  });
});
