import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { header, rawRequest } from '../helpers/http.ts';
import { listed, readLogEntries } from '../helpers/listed-reviews.ts';

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let liveOnly: Awaited<ReturnType<typeof startTestSidecar>>;
let distDir: string;
let snapshotDates: string[];

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ publicUrl: PUBLIC }));
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
  // The same build without its since snapshots: every since date is then rendered live.
  const bare = `${distDir}-live`;
  // dist/ is a link to the build's folder in .builds/: copy the build itself.
  await cp(distDir, bare, { recursive: true, dereference: true });
  const manifest = JSON.parse(await readFile(path.join(bare, '_manifest.json'), 'utf8'));
  snapshotDates = Object.keys(manifest.files).filter((p) => p.startsWith('/api/reviews/since/')).map((p) => p.slice(-10));
  for (const p of Object.keys(manifest.files)) if (p.startsWith('/api/reviews/since/')) delete manifest.files[p];
  await writeFile(path.join(bare, '_manifest.json'), JSON.stringify(manifest));
  liveOnly = await startTestSidecar({ distDir: bare, publicUrl: PUBLIC });
});
afterAll(async () => {
  await sidecar?.close();
  await liveOnly?.close();
});

const get = (base: string, p: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(`${base}${p}`, { headers, method });

describe('GET /api/reviews/since/{date}', () => {
  it('has prerendered snapshots for recent dates', () => {
    expect(snapshotDates.length).toBeGreaterThan(5);
    expect(snapshotDates).toContain('2025-02-28');
  });

  it('answers live with the same bytes and ETag as the snapshot', async () => {
    for (const date of snapshotDates.slice(0, 8)) {
      const [snapshot, live] = await Promise.all([get(sidecar.url, `/api/reviews/since/${date}`), get(liveOnly.url, `/api/reviews/since/${date}`)]);
      expect(live.status).toBe(200);
      expect(live.body.equals(snapshot.body)).toBe(true);
      expect(header(live, 'etag')).toBe(header(snapshot, 'etag'));
      expect(header(live, 'last-modified')).toBe(header(snapshot, 'last-modified'));
    }
  });

  it('returns the reviews dated on or after the date, newest first, each with its log_entry, with count and total', async () => {
    const all = JSON.parse((await get(sidecar.url, '/reviews.json')).body.toString()).reviews;
    const res = await get(sidecar.url, '/api/reviews/since/2025-01-10');
    const body = JSON.parse(res.body.toString());
    const expected = listed(all.filter((r: { date: string }) => r.date >= '2025-01-10'), await readLogEntries(sidecar.url, PUBLIC, all.map((r: { id: string }) => r.id)));
    expect(body.reviews).toEqual(expected);
    expect(body.count).toBe(expected.length);
    expect(body.total).toBe(expected.length);
  });

  it('returns every review for an old date and none for a future one', async () => {
    const all = JSON.parse((await get(sidecar.url, '/reviews.json')).body.toString()).reviews;
    const entries = await readLogEntries(sidecar.url, PUBLIC, all.map((r: { id: string }) => r.id));
    expect(JSON.parse((await get(sidecar.url, '/api/reviews/since/1999-01-01')).body.toString()).reviews).toEqual(listed(all, entries));
    expect(JSON.parse((await get(sidecar.url, '/api/reviews/since/2099-12-31')).body.toString())).toEqual({ reviews: [], count: 0, total: 0 });
  });

  it('supports If-None-Match and If-Modified-Since on live answers', async () => {
    const first = await get(sidecar.url, '/api/reviews/since/2001-01-01');
    expect((await get(sidecar.url, '/api/reviews/since/2001-01-01', { 'If-None-Match': header(first, 'etag')! })).status).toBe(304);
    expect((await get(sidecar.url, '/api/reviews/since/2001-01-01', { 'If-Modified-Since': header(first, 'last-modified')! })).status).toBe(304);
    expect((await get(sidecar.url, '/api/reviews/since/2001-01-01', { 'If-None-Match': '"x"' })).status).toBe(200);
  });

  it.each(['2024-02-30', '2023-02-29', '2024-13-01', '2024-2-01', '20240101', 'yesterday', '2024-01-01T00:00:00Z', '%E2%80%AE2024-01-01', '0000-00-00'])(
    'answers the malformed or impossible date %s with 400 and issues',
    async (date) => {
      const res = await get(sidecar.url, `/api/reviews/since/${date}`);
      expect(res.status).toBe(400);
      const body = JSON.parse(res.body.toString());
      expect(body.error).toBe('invalid_date');
      expect(body.issues[0].path).toEqual(['date']);
    },
  );

  it('answers a broken percent-encoding with 400, not 500', async () => {
    const res = await get(sidecar.url, '/api/reviews/since/%ZZ');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).error).toBeDefined();
  });

  it('refuses POST with 405 and Allow', async () => {
    const res = await get(sidecar.url, '/api/reviews/since/2025-01-01', {}, 'POST');
    expect(res.status).toBe(405);
    expect(header(res, 'allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('unknown paths and methods', () => {
  it.each(['/nope', '/api/reviews', '/api/reviews/since/', '/reviews.json/extra', '/api/reviews/search/x'])('answers %s with a JSON 404', async (p) => {
    const res = await get(sidecar.url, p);
    expect(res.status).toBe(404);
    expect(header(res, 'content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'not_found' });
  });

  it.each(['POST', 'PUT', 'DELETE'])('answers %s on the search endpoint with 405', async (method) => {
    const res = await get(sidecar.url, '/api/reviews/search', {}, method);
    expect(res.status).toBe(405);
    expect(header(res, 'allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('survives a very long query string without a 500', async () => {
    const res = await get(sidecar.url, `/api/reviews/search?query=${'a'.repeat(12_000)}`);
    expect([400, 414, 431]).toContain(res.status);
  });

  it('ignores an Authorization header', async () => {
    const res = await get(sidecar.url, '/reviews.json', { Authorization: 'Bearer whatever' });
    expect(res.status).toBe(200);
  });
});

describe('every public read answer', () => {
  it.each([
    ['a static dataset', '/reviews.json'],
    ['a since snapshot', '/api/reviews/since/2025-02-28'],
    ['a live since answer', '/api/reviews/since/2001-01-01'],
    ['a search', '/api/reviews/search?rating=5'],
    ['a 400', '/api/reviews/search?rating=9'],
    ['a 404', '/nothing-here.json'],
  ])('%s carries the same CORS and nosniff headers', async (_label, p) => {
    const res = await get(sidecar.url, p);
    expect({
      origin: header(res, 'access-control-allow-origin'),
      exposed: header(res, 'access-control-expose-headers'),
      nosniff: header(res, 'x-content-type-options'),
    }).toEqual({ origin: '*', exposed: 'ETag, Link', nosniff: 'nosniff' });
  });
});
