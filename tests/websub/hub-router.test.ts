/** POST /api/websub/hub over real HTTP: what is refused and how (JSON errors), methods, size and rate limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../sidecar/http/rate-limit.ts';
import { startHubHarness, type HubHarness } from './harness.ts';

let h: HubHarness;
const CALLBACK = 'https://127.0.0.1:9/cb';
const FEED = 'https://reviews.example/feed.xml';

beforeAll(async () => {
  // Nothing listens on the callback port: the tests below never get as far as a verification.
  h = await startHubHarness({});
});
afterAll(() => h?.close());

const subscribe = (fields: Record<string, string>) => ({ 'hub.mode': 'subscribe', 'hub.callback': CALLBACK, 'hub.topic': FEED, ...fields });

describe('POST /api/websub/hub refuses', () => {
  it.each([
    ['no hub.mode', { 'hub.callback': CALLBACK, 'hub.topic': FEED }, 'hub.mode'],
    ['an unknown hub.mode', subscribe({ 'hub.mode': 'subscribe-me' }), 'hub.mode'],
    ['no hub.callback', { 'hub.mode': 'subscribe', 'hub.topic': FEED }, 'hub.callback'],
    ['a plain-HTTP callback', subscribe({ 'hub.callback': 'http://127.0.0.1:9/cb' }), 'hub.callback'],
    ['a relative callback', subscribe({ 'hub.callback': '/cb' }), 'hub.callback'],
    ['a callback with credentials', subscribe({ 'hub.callback': 'https://user:pw@127.0.0.1:9/cb' }), 'hub.callback'],
    ['no hub.topic', { 'hub.mode': 'subscribe', 'hub.callback': CALLBACK }, 'hub.topic'],
    ['an unknown topic', subscribe({ 'hub.topic': 'https://reviews.example/other.xml' }), 'hub.topic'],
    ['a lease that is not a number', subscribe({ 'hub.lease_seconds': 'forever' }), 'hub.lease_seconds'],
    ['a negative lease', subscribe({ 'hub.lease_seconds': '-5' }), 'hub.lease_seconds'],
    ['a zero lease', subscribe({ 'hub.lease_seconds': '0' }), 'hub.lease_seconds'],
    ['a secret over 200 bytes', subscribe({ 'hub.secret': 'é'.repeat(101) }), 'hub.secret'],
    ['an unsubscribe of an unknown topic', { 'hub.mode': 'unsubscribe', 'hub.callback': CALLBACK, 'hub.topic': 'nope' }, 'hub.topic'],
    ['a publish ping without a topic', { 'hub.mode': 'publish' }, 'hub.url'],
    ['a publish ping of an unknown URL', { 'hub.mode': 'publish', 'hub.url': 'https://elsewhere.example/feed.xml' }, 'hub.url'],
  ])('%s: 400 with a JSON reason naming the parameter', async (_label, fields, param) => {
    const res = await h.post(fields as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.error).toBe('invalid_request');
    expect(body.message).toEqual(expect.any(String));
    expect(body.issues.map((i: { path: string[] }) => i.path[0])).toContain(param);
  });

  it('a field given twice', async () => {
    const res = await h.post(`hub.mode=subscribe&hub.topic=${encodeURIComponent(FEED)}&hub.callback=${encodeURIComponent(CALLBACK)}&hub.callback=${encodeURIComponent('https://127.0.0.1:9/other')}`);
    expect(res.status).toBe(400);
    expect((await res.json()).issues[0]).toMatchObject({ path: ['hub.callback'], message: 'hub.callback must be given once' });
  });

  it('hub.mode given twice, as given twice', async () => {
    const res = await h.post(`hub.mode=subscribe&hub.mode=unsubscribe&hub.topic=${encodeURIComponent(FEED)}&hub.callback=${encodeURIComponent(CALLBACK)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toEqual([{ path: ['hub.mode'], message: 'hub.mode must be given once', code: 'invalid_type' }]);
  });

  it('every problem of a request together', async () => {
    const res = await h.post({ 'hub.mode': 'subscribe', 'hub.callback': 'ftp://x', 'hub.topic': 'nope', 'hub.lease_seconds': 'x' });
    const paths = (await res.json()).issues.map((i: { path: string[] }) => i.path[0]);
    expect(paths).toEqual(['hub.callback', 'hub.topic', 'hub.lease_seconds']);
  });

  it('a body that is not form-encoded', async () => {
    const res = await h.post(JSON.stringify(subscribe({})), { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('a body over the size limit, with 413', async () => {
    const res = await h.post({ ...subscribe({}), padding: 'x'.repeat(40_000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('a body in a charset nobody can read, with 415 and the code every route gives it (fromLibraryClientError), no CORS', async () => {
    const res = await h.post(new URLSearchParams(subscribe({})).toString(), { 'content-type': 'application/x-www-form-urlencoded; charset=no-such-charset' });
    expect(res.status).toBe(415);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'unsupported_media_type', message: 'The hub request body could not be read.' });
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('%s with 405 and Allow: POST', async (method) => {
    const res = await fetch(h.endpoint, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ error: 'method_not_allowed' });
  });
});

describe('POST /api/websub/hub accepts', () => {
  it('a secret of exactly 200 bytes, and a publish ping naming several topics', async () => {
    const callback = 'https://127.0.0.1:9/secret';
    expect((await h.post(subscribe({ 'hub.callback': callback, 'hub.secret': 'é'.repeat(100) }))).status).toBe(202);
    const ping = `hub.mode=publish&hub.url=${encodeURIComponent(FEED)}&hub.url=${encodeURIComponent('https://reviews.example/reviews.json')}`;
    expect((await h.post(ping)).status).toBe(202);
  });
});

describe('rate limit per client address', () => {
  it('answers 429 with Retry-After once the burst is spent', async () => {
    const limited = await startHubHarness({ rateLimit: { capacity: 3, refillPerSecond: 0.5 } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.post({ 'hub.mode': 'nope' })).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const res = await limited.post({ 'hub.mode': 'nope' });
      expect(['1', '2']).toContain(res.headers.get('retry-after')); // 1 token per 2 s
      expect(await res.json()).toMatchObject({ error: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('createRateLimiter', () => {
  it('keeps one bucket per client, refills over time and says when to retry', () => {
    let now = 0;
    const limiter = createRateLimiter({ capacity: 2, refillPerSecond: 1 }, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([{ ok: true }, { ok: true }, { ok: false, retryAfterSeconds: 1 }]);
    expect(limiter.take('b')).toEqual({ ok: true });
    now = 1_000;
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('forgets idle clients first when it holds too many', () => {
    let now = 0;
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 0.001, maxClients: 2 }, () => now);
    limiter.take('a');
    limiter.take('b');
    now = 1;
    limiter.take('c'); // evicts the least recently seen, 'a'
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('c')).toEqual({ ok: false, retryAfterSeconds: 1000 });
  });
});

describe('POST /api/websub/hub accepts', () => {
  it('a lease of any length of digits, clamped like any other', async () => {
    expect((await h.post(subscribe({ 'hub.lease_seconds': '99999999999999999999' }))).status).toBe(202);
  });
});

describe('the hub and other origins', () => {
  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses a form posted by a web page (%s) with 403, without CORS', async (_label, headers) => {
    const res = await h.post(subscribe({}), headers);
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'cross_origin_refused' });
  });

  it('sends no CORS headers on its errors or its 405', async () => {
    const bad = await h.post({ 'hub.mode': 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    expect(bad.headers.get('x-content-type-options')).toBe('nosniff');
    const get = await fetch(h.endpoint);
    expect(get.status).toBe(405);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});
