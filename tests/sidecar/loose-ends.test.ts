/**
 * The API's loose ends (issue 10 item 8) over real HTTP: strict routing of live routes, preflights on
 * every read route (checked in Chromium from another origin), compression of live answers, the headers
 * of /mcp and of pages, Accept compared case-insensitively, and content files with a BOM.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ASYNC_COMPRESS_BYTES } from '../../sidecar/http/live-compression.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { header, rawRequest } from '../helpers/http.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const PUBLIC = 'https://reviews.example.com';
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
/** A date before every review, so its since answer is rendered live and lists everything. */
const OLD_DATE = '2001-01-01';

beforeAll(async () => {
  const { distDir } = await buildTestSite({ publicUrl: PUBLIC });
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
});
afterAll(() => sidecar?.close());

const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(`${sidecar.url}${p}`, { headers, method });

describe('strict routing', () => {
  it.each([
    ['GET', '/API/REVIEWS/SEARCH'],
    ['GET', '/api/reviews/search/'],
    ['GET', '/Api/Reviews/Search?rating=5'],
    ['GET', `/api/reviews/since/${OLD_DATE}/`],
    ['GET', `/API/reviews/since/${OLD_DATE}`],
    ['POST', '/MCP/'],
    ['POST', '/mcp/'],
    ['POST', '/api/websub/hub/'],
    ['GET', '/READYZ'],
  ])('%s %s is 404, as for a static file', async (method, p) => {
    const res = await get(p, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, method);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'not_found' });
  });

  it('still answers the documented spellings', async () => {
    expect((await get('/api/reviews/search?rating=5')).status).toBe(200);
    expect((await get(`/api/reviews/since/${OLD_DATE}`)).status).toBe(200);
  });
});

describe('preflights of live read routes', () => {
  it.each(['/api/reviews/search?rating=5', `/api/reviews/since/${OLD_DATE}`])('answers OPTIONS %s as the static files do', async (p) => {
    const res = await get(p, { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' }, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    expect(header(res, 'access-control-allow-headers')).toMatch(/If-None-Match/);
    expect(header(res, 'access-control-allow-methods')).toBe('GET, HEAD');
    const file = await get('/reviews.json', { origin: 'https://app.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(header(file, 'access-control-allow-headers')).toBe(header(res, 'access-control-allow-headers'));
  });

  it('lets a page of another origin revalidate search and since in Chromium', async () => {
    const other: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    // localhost and 127.0.0.1 are different origins.
    const page = `http://localhost:${(other.address() as AddressInfo).port}/`;
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      await tab.goto(page);
      const results = await tab.evaluate(async (urls: string[]) => {
        const out: { first: number; etag: string | null; second: number }[] = [];
        for (const url of urls) {
          const first = await fetch(url);
          const etag = first.headers.get('etag');
          const second = await fetch(url, { headers: { 'If-None-Match': etag ?? '' }, cache: 'no-store' });
          out.push({ first: first.status, etag, second: second.status });
        }
        return out;
      }, [`${sidecar.url}/api/reviews/search?rating=5`, `${sidecar.url}/api/reviews/since/${OLD_DATE}`]);
      for (const r of results) {
        expect(r.first).toBe(200);
        expect(r.etag).toMatch(/^"/);
        expect(r.second).toBe(304);
      }
    } finally {
      await browser.close();
      await new Promise((resolve) => other.close(resolve));
    }
  }, 60_000);
});

describe('compression of live answers', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('answers %s when asked, with its own ETag, and 304 for that ETag', async (coding, decode) => {
    const sizes: number[] = [];
    for (const p of [`/api/reviews/since/${OLD_DATE}`, '/api/reviews/search?limit=100', '/api/reviews/search?limit=3']) {
      const identity = await get(p);
      sizes.push(identity.body.length);
      const encoded = await get(p, { 'accept-encoding': coding });
      expect(header(encoded, 'content-encoding')).toBe(coding);
      expect(header(encoded, 'vary')).toBe('Accept-Encoding');
      expect(encoded.body.length).toBeLessThan(identity.body.length / 2);
      expect(decode(encoded.body).equals(identity.body)).toBe(true);
      expect(header(encoded, 'etag')).not.toBe(header(identity, 'etag'));
      const again = await get(p, { 'accept-encoding': coding, 'if-none-match': header(encoded, 'etag')! });
      expect(again.status).toBe(304);
    }
    // Both ways are tried: compressed on the thread pool (large answers) and in line (small ones).
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(ASYNC_COMPRESS_BYTES);
    expect(Math.min(...sizes)).toBeLessThan(ASYNC_COMPRESS_BYTES);
  });
});

describe('headers', () => {
  it('/mcp answers carry nosniff and no-store, and its preflight names only what answers', async () => {
    const init = await rawRequest(`${sidecar.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'Application/JSON, Text/Event-Stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    // Media types are case-insensitive: the mixed-case Accept above is accepted.
    expect(init.status).toBe(200);
    const error = await rawRequest(`${sidecar.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{' });
    for (const res of [init, error]) {
      expect(header(res, 'x-content-type-options')).toBe('nosniff');
      expect(header(res, 'cache-control')).toBe('no-store');
    }
    const preflight = await get('/mcp', { origin: PUBLIC, 'access-control-request-method': 'POST' }, 'OPTIONS');
    expect(header(preflight, 'access-control-allow-methods')).toBe('POST, OPTIONS');
  });

  it('pages carry a Content-Security-Policy and a Referrer-Policy, and no CORS', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(header(res, 'content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(header(res, 'referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(header(res, 'access-control-allow-origin')).toBeUndefined();
  });
});

describe('content files', () => {
  it('accepts a UTF-8 byte order mark', async () => {
    const dir = path.join(tmpdir(), `bom-${process.pid}-${Date.now()}`);
    await cp(SMALL_CONTENT, dir, { recursive: true });
    for (const file of ['business.json', 'reviews/2025-02.json']) {
      const full = path.join(dir, file);
      await writeFile(full, `\uFEFF${await readFile(full, 'utf8')}`);
    }
    const loaded = await loadContent(dir);
    expect(loaded.ok ? 'ok' : loaded.problems).toBe('ok');
  });
});
