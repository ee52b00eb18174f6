/**
 * One build, one address, one folder (issue 41 item 1): every build's manifest names the PUBLIC_URL and
 * DIST_DIR it was made for; two DIST_DIRs in one parent folder share `.builds/` without pruning or
 * recovering each other's builds; a running service never swaps in a build made for another address.
 */
import { cp, lstat, mkdtemp, readFile, readlink, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/build.ts';
import { distDirKeyOf, readManifest } from '../../core/publishing/build-folders-fs.ts';
import { startServiceProcess, stopServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';

let work: string;
const sites = {
  a: { name: 'Brightline Heating & Air', publicUrl: 'https://a.example' },
  b: { name: 'Second Business Plumbing', publicUrl: 'https://b.example' },
};
type Site = keyof typeof sites;
const contentOf = (site: Site) => path.join(work, `content-${site}`);
const distOf = (site: Site) => path.join(work, `dist-${site}`);
const dataOf = (site: Site) => path.join(work, `data-${site}`);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'build-target-'));
  for (const site of ['a', 'b'] as const) {
    await cp(SMALL_CONTENT, contentOf(site), { recursive: true });
    const file = path.join(contentOf(site), 'business.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), name: sites[site].name }));
  }
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function build(site: Site, publicUrl = sites[site].publicUrl) {
  const result = await buildSite({ contentDir: contentOf(site), publicUrl, outDir: distOf(site), dataDir: dataOf(site) });
  if (!result.ok) throw new Error(result.message);
  return result.manifest;
}

async function servedBusiness(site: Site): Promise<{ name: string; output: string }> {
  const service = await startServiceProcess({ PUBLIC_URL: sites[site].publicUrl, DIST_DIR: distOf(site), DATA_DIR: dataOf(site), CONTENT_DIR: contentOf(site) });
  try {
    const body = (await (await fetch(`${service.url}/reviews.json`)).json()) as { business: { name: string } };
    return { name: body.business.name, output: service.output() };
  } finally {
    await stopServiceProcess(service);
  }
}

describe('builds of two DIST_DIRs in one parent folder', () => {
  it('record whom they are for, and each DIST_DIR keeps, prunes and recovers only its own', async () => {
    for (let round = 0; round < 4; round++) {
      for (const site of ['a', 'b'] as const) {
        const manifest = await build(site);
        expect(manifest).toMatchObject({ public_url: sites[site].publicUrl, dist_dir: distDirKeyOf(distOf(site)) });
      }
    }
    for (const site of ['a', 'b'] as const) {
      expect((await servedBusiness(site)).name).toBe(sites[site].name);
      // The link gone: the last good build of this folder comes back, never the other's.
      await unlink(distOf(site));
      const served = await servedBusiness(site);
      expect(served.name).toBe(sites[site].name);
      expect(served.output).toContain('"event":"build_recovered"');
      expect((await lstat(distOf(site))).isSymbolicLink()).toBe(true);
      expect((await readManifest(path.resolve(work, await readlink(distOf(site)))))?.dist_dir).toBe(distDirKeyOf(distOf(site)));
    }
  }, 600_000);
});
