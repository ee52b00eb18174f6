import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { header, rawRequest } from '../helpers/http.ts';

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let distDir: string;
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(`${sidecar.url}${p}`, { headers, method });

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ publicUrl: PUBLIC }));
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
});
afterAll(() => sidecar?.close());

describe('static datasets', () => {
  it.each([
    ['/reviews.json', 'application/json; charset=utf-8'],
    ['/api/feed.json', 'application/json; charset=utf-8'],
    ['/feed.xml', 'application/atom+xml; charset=utf-8'],
  ])('serves the topic %s with its type, CORS, cache policy and WebSub Link header', async (p, type) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe(type);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    expect(header(res, 'cache-control')).toMatch(/^public, max-age=\d+/);
    expect(header(res, 'link')).toBe(`<${PUBLIC}/api/websub/hub>; rel="hub", <${PUBLIC}${p}>; rel="self"`);
    expect(header(res, 'etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(Number(header(res, 'content-length'))).toBe(res.body.length);
  });

  it.each(['/insights.json', '/.well-known/openapi.json', '/api/reviews/since/2025-02-28'])('serves %s as JSON with a strong ETag and Last-Modified', async (p) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('application/json; charset=utf-8');
    expect(() => JSON.parse(res.body.toString())).not.toThrow();
    expect(header(res, 'etag')).toMatch(/^"/);
    expect(header(res, 'last-modified')).toMatch(/GMT$/);
    expect(header(res, 'link')).toBeUndefined();
  });

  it('derives Last-Modified from the newest date in the data', async () => {
    const res = await get('/reviews.json');
    expect(header(res, 'last-modified')).toBe('Fri, 28 Feb 2025 00:00:00 GMT');
  });

  it('serves the exact bytes of the build with the ETag of the manifest', async () => {
    const manifest = JSON.parse(await readFile(path.join(distDir, '_manifest.json'), 'utf8'));
    const res = await get('/reviews.json');
    expect(res.body.equals(await readFile(path.join(distDir, 'reviews.json')))).toBe(true);
    expect(header(res, 'etag')).toBe(manifest.files['/reviews.json'].etag);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const [g, h] = await Promise.all([get('/reviews.json'), get('/reviews.json', {}, 'HEAD')]);
    expect(h.status).toBe(200);
    expect(h.body.length).toBe(0);
    for (const name of ['etag', 'content-length', 'content-type', 'last-modified', 'link', 'vary']) {
      expect(header(h, name)).toBe(header(g, name));
    }
  });

  it('serves each page at one URL, with the trailing slash, and redirects the slash-less one there', async () => {
    expect((await get('/reviews/2025-01/')).status).toBe(200);
    const bare = await get('/reviews/2025-01');
    expect(bare.status).toBe(301);
    // Relative to the request, so it holds under a PUBLIC_URL with a path (tests/deploy/base-path.test.ts).
    const redirectTarget = async (path: string) => {
      const url = new URL(header(await get(path), 'location')!, `http://host${path}`);
      return `${url.pathname}${url.search}`;
    };
    expect(await redirectTarget('/reviews/2025-01')).toBe('/reviews/2025-01/');
    expect(await redirectTarget('/reviews/2025-01?from=feed')).toBe('/reviews/2025-01/?from=feed');
    expect(header(await get('/'), 'content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('conditional requests', () => {
  let etag: string;
  let lastModified: string;
  beforeAll(async () => {
    const res = await get('/reviews.json');
    etag = header(res, 'etag')!;
    lastModified = header(res, 'last-modified')!;
  });

  it.each([
    ['the exact tag', () => etag],
    ['the weak form of the tag (weak comparison)', () => `W/${etag}`],
    ['a list containing the tag', () => `"nope", ${etag}, "other"`],
    ['a wildcard', () => '*'],
  ])('answers If-None-Match with %s by 304 and the validators', async (_label, value) => {
    const res = await get('/reviews.json', { 'If-None-Match': value() });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(header(res, 'etag')).toBe(etag);
    expect(header(res, 'cache-control')).toMatch(/max-age/);
    expect(header(res, 'vary')).toBe('Accept-Encoding');
    expect(header(res, 'content-type')).toBeUndefined();
    expect(header(res, 'date')).toBeDefined();
  });

  it('answers a non-matching If-None-Match with 200', async () => {
    const res = await get('/reviews.json', { 'If-None-Match': '"something-else"' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('answers If-Modified-Since at or after Last-Modified with 304, before it with 200', async () => {
    expect((await get('/reviews.json', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get('/reviews.json', { 'If-Modified-Since': 'Sat, 01 Mar 2025 00:00:00 GMT' })).status).toBe(304);
    expect((await get('/reviews.json', { 'If-Modified-Since': 'Thu, 27 Feb 2025 23:59:59 GMT' })).status).toBe(200);
  });

  it('ignores an If-Modified-Since that is not a date', async () => {
    expect((await get('/reviews.json', { 'If-Modified-Since': 'yesterday-ish' })).status).toBe(200);
  });

  it('lets If-None-Match take precedence over If-Modified-Since', async () => {
    const res = await get('/reviews.json', { 'If-None-Match': '"stale"', 'If-Modified-Since': 'Sat, 01 Mar 2030 00:00:00 GMT' });
    expect(res.status).toBe(200);
  });

  it('answers 304 to HEAD as well', async () => {
    expect((await get('/reviews.json', { 'If-None-Match': etag }, 'HEAD')).status).toBe(304);
  });

  it('fails If-Match with another tag with 412', async () => {
    const res = await get('/reviews.json', { 'If-Match': '"other"' });
    expect(res.status).toBe(412);
    expect(JSON.parse(res.body.toString()).error).toBe('precondition_failed');
  });
});

describe('precompressed variants', () => {
  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ])('Accept-Encoding %s selects %s with its own strong ETag', async (accept, coding, decode) => {
    const identity = await get('/reviews.json');
    const res = await get('/reviews.json', { 'Accept-Encoding': accept });
    expect(header(res, 'content-encoding')).toBe(coding);
    expect(header(res, 'vary')).toBe('Accept-Encoding');
    expect(header(res, 'etag')).not.toBe(header(identity, 'etag'));
    expect(decode(res.body).equals(identity.body)).toBe(true);
    const again = await get('/reviews.json', { 'Accept-Encoding': accept, 'If-None-Match': header(res, 'etag')! });
    expect(again.status).toBe(304);
  });

  it('sends identity when no coding is acceptable, and does not match a compressed tag against it', async () => {
    const br = await get('/reviews.json', { 'Accept-Encoding': 'br' });
    const res = await get('/reviews.json', { 'Accept-Encoding': 'identity', 'If-None-Match': header(br, 'etag')! });
    expect(res.status).toBe(200);
    expect(header(res, 'content-encoding')).toBeUndefined();
  });
});

describe('methods', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('refuses %s on a static file with 405, Allow and a JSON body', async (method) => {
    const res = await get('/reviews.json', {}, method);
    expect(res.status).toBe(405);
    expect(header(res, 'allow')).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'method_not_allowed' });
  });

  it('answers a CORS preflight', async () => {
    const res = await get('/reviews.json', { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' }, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
  });
});

describe('static host headers', () => {
  it('writes a _headers file with the same headers for static hosts', async () => {
    const text = await readFile(path.join(distDir, '_headers'), 'utf8');
    expect(text).toContain(`/feed.xml\n  Content-Type: application/atom+xml; charset=utf-8`);
    expect(text).toContain(`/api/reviews/since/*\n  Content-Type: application/json; charset=utf-8`);
    expect(text).toContain(`  Link: <${PUBLIC}/api/websub/hub>; rel="hub", <${PUBLIC}/reviews.json>; rel="self"`);
  });
});
