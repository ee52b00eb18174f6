import { cp, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/build.ts';
import { readLogEntries } from '../helpers/log-entries.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

/** Several full builds in one test: seconds each, more on a busy machine. */
const BUILDS_TIMEOUT = 180_000;

describe('the static build', () => {
  it('is deterministic: two builds of the same content are byte-identical', async () => {
    const a = await buildTestSite();
    // A new log carries the day it was made (docs/log.md): b is made on a's day, should the run have crossed
    // midnight (UTC) since the shared build a was made.
    const day = (await readLogEntries(a.distDir))[0]!.time;
    const b = await buildTestSite({ own: true, now: () => new Date(day) });
    const filesA = await listFiles(a.distDir);
    expect(filesA).toEqual(await listFiles(b.distDir));
    expect(filesA).toEqual(expect.arrayContaining(['reviews.json', 'insights.json', 'feed.xml', 'api/feed.json', '.well-known/openapi.json', '_manifest.json', '_headers', 'reviews.json.br', 'reviews.json.gz', '_search-page.html']));
    // Each build here starts a log for the address under a key of its own (a fresh DATA_DIR) in a folder of
    // its own: the signed checkpoint, the key, the policy naming it, each review's proof (which carries the
    // checkpoint) and so their rows of the manifest differ, and the manifest names its DIST_DIR. Everything
    // else, the log's tiles and entries included, is byte-identical.
    const signed = (p: string) => /^\/?log\/(checkpoint|vkey|policy)(\.|$)|^\/?log\/proof\//.test(p);
    for (const file of filesA.filter((f) => !signed(f))) {
      const [x, y] = await Promise.all([readFile(path.join(a.distDir, file)), readFile(path.join(b.distDir, file))]);
      if (file === '_manifest.json' || file === '_headers') {
        const withoutSigned = (text: string) => text.split('\n').filter((line) => !/\/log\/(checkpoint|vkey|policy|proof)/.test(line)).join('\n');
        if (file === '_manifest.json') {
          const drop = (m: { files: Record<string, unknown>; build_id?: string; dist_dir?: string }) => ({ ...m, build_id: undefined, dist_dir: undefined, files: Object.fromEntries(Object.entries(m.files).filter(([k]) => !signed(k))) });
          expect(drop(JSON.parse(x.toString('utf8'))), file).toEqual(drop(JSON.parse(y.toString('utf8'))));
        } else expect(withoutSigned(x.toString('utf8')), file).toBe(withoutSigned(y.toString('utf8')));
        continue;
      }
      expect(x.equals(y), file).toBe(true);
    }
  }, BUILDS_TIMEOUT);

  it('keeps Last-Modified across a rebuild of unchanged content, and moves it when bytes change', async () => {
    const content = path.join(await mkdtemp(path.join(tmpdir(), 'content-')), 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    const first = await buildTestSite({ contentDir: content });
    const again = await buildTestSite({ contentDir: content, outDir: first.distDir });
    expect(again.manifest.files['/reviews.json']!.last_modified).toBe(first.manifest.files['/reviews.json']!.last_modified);

    const file = path.join(content, 'reviews/2025-01.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews[0].text = 'Edited: Mike fixed our furnace.';
    await writeFile(file, JSON.stringify(reviews));
    const edited = await buildTestSite({ contentDir: content, outDir: first.distDir });
    const before = first.manifest.files['/reviews.json']!;
    const after = edited.manifest.files['/reviews.json']!;
    expect(after.etag).not.toBe(before.etag);
    expect(Date.parse(after.last_modified)).toBeGreaterThan(Date.parse(before.last_modified));
  }, BUILDS_TIMEOUT);

  it('stops on invalid content, naming file, review and field of every problem, and leaves the last build alone', async () => {
    const content = path.join(await mkdtemp(path.join(tmpdir(), 'content-')), 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    const good = await buildTestSite({ contentDir: content });
    const manifestBefore = await readFile(path.join(good.distDir, '_manifest.json'));

    const jan = JSON.parse(await readFile(path.join(content, 'reviews/2025-01.json'), 'utf8'));
    jan[0].rating = 7;
    jan[1].technicians = ['Nobody'];
    jan[2].date = '2025-02-30';
    await writeFile(path.join(content, 'reviews/2025-01.json'), JSON.stringify(jan));
    const feb = JSON.parse(await readFile(path.join(content, 'reviews/2025-02.json'), 'utf8'));
    feb[0].id = 'r-0002';
    await writeFile(path.join(content, 'reviews/2025-02.json'), JSON.stringify(feb));
    await writeFile(path.join(content, 'reviews/2025-03.json'), '[{"id": "r-9"');

    const result = await buildSite({ contentDir: content, publicUrl: 'https://reviews.example.com', outDir: good.distDir });
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).toContain('reviews/2025-01.json, review r-0001, field rating');
    expect(message).toContain('reviews/2025-01.json, review r-0002, field technicians.0: unknown technician "Nobody"');
    expect(message).toContain('reviews/2025-01.json, review r-0003, field date');
    expect(message).toContain('reviews/2025-03.json: not valid JSON');
    expect((await readFile(path.join(good.distDir, '_manifest.json'))).equals(manifestBefore)).toBe(true);
  }, BUILDS_TIMEOUT);

  it('refuses duplicate ids across files', async () => {
    const content = path.join(await mkdtemp(path.join(tmpdir(), 'content-')), 'content');
    await cp(SMALL_CONTENT, content, { recursive: true });
    const feb = JSON.parse(await readFile(path.join(content, 'reviews/2025-02.json'), 'utf8'));
    feb[0].id = 'r-0002';
    await writeFile(path.join(content, 'reviews/2025-02.json'), JSON.stringify(feb));
    const result = await buildSite({ contentDir: content, publicUrl: 'https://reviews.example.com', outDir: path.join(content, '../dist') });
    expect(result.ok ? '' : result.message).toContain('reviews/2025-02.json, review r-0002, field id: duplicate id: already used in reviews/2025-01.json');
  });
});
