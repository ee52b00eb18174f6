/**
 * Observability (issue 19 item 7): one JSON `request` log line per answered request (off with
 * ACCESS_LOG=false), with the client's address as TRUST_PROXY allows; `/metrics` in the Prometheus text
 * format, for loopback clients or the bearer of METRICS_TOKEN only.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayReadMetrics } from '../../sidecar/http/metrics.ts';
import { createLogger } from '../../sidecar/logger.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';

const PUBLIC = 'https://reviews.example.com';
const TOKEN = 'metrics-token-0123456789';
let distDir: string;
const started: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ publicUrl: PUBLIC }));
});
afterAll(() => Promise.all(started.map((s) => s.close())));

/** A sidecar whose log lines are collected; waits for a request's line, which is written once it is answered. */
async function start(env: Record<string, string> = {}, publicUrl = PUBLIC) {
  const lines: Record<string, unknown>[] = [];
  let wake: (() => void) | undefined;
  const log = createLogger('info', (line) => {
    lines.push(JSON.parse(line));
    wake?.();
  });
  const sidecar = await startTestSidecar({ distDir, publicUrl, env: { LOG_LEVEL: 'info', ...env }, sidecar: { log } });
  started.push(sidecar);
  const requestLines = () => lines.filter((l) => l.event === 'request');
  const nextRequestLine = async (count: number) => {
    while (requestLines().length < count) await new Promise<void>((resolve) => (wake = resolve));
    return requestLines()[count - 1]!;
  };
  return { sidecar, lines, requestLines, nextRequestLine };
}

describe('access log', () => {
  it('writes one line per request: method, path without query, status, body bytes, duration, client', async () => {
    const { sidecar, nextRequestLine } = await start();
    const res = await fetch(`${sidecar.url}/reviews.json?secret=1`, { headers: { 'accept-encoding': 'identity' } });
    const body = await res.arrayBuffer();
    const line = await nextRequestLine(1);
    expect(line).toMatchObject({ level: 'info', event: 'request', method: 'GET', path: '/reviews.json', status: 200, bytes: body.byteLength, client: '127.0.0.1' });
    expect(typeof line.ms).toBe('number');

    await (await fetch(`${sidecar.url}/api/reviews/search?limit=nope`)).arrayBuffer();
    expect(await nextRequestLine(2)).toMatchObject({ path: '/api/reviews/search', status: 400 });
  });

  it('keeps the path as sent under a PUBLIC_URL path, with the query, user agent and referrer', async () => {
    const { sidecar, nextRequestLine } = await start({}, `${PUBLIC}/reviews`);
    const headers = { 'user-agent': 'ExampleBot/1.0 (+https://bot.example)', referer: 'https://elsewhere.example/page' };
    await (await fetch(`${sidecar.url}/reviews/api/reviews/search?min_rating=4&query=price`, { headers })).arrayBuffer();
    expect(await nextRequestLine(1)).toMatchObject({
      path: '/reviews/api/reviews/search',
      query: 'min_rating=4&query=price',
      status: 200,
      agent: 'ExampleBot/1.0 (+https://bot.example)',
      referer: 'https://elsewhere.example/page',
    });
    // Without a query or those headers, the fields are absent rather than empty.
    await (await fetch(`${sidecar.url}/reviews/reviews.json`, { headers: { 'user-agent': '' } })).arrayBuffer();
    const plain = await nextRequestLine(2);
    expect(plain).toMatchObject({ path: '/reviews/reviews.json', status: 200 });
    expect(plain).not.toHaveProperty('query');
    expect(plain).not.toHaveProperty('referer');
  });

  it('names the forwarded client only when TRUST_PROXY trusts the peer', async () => {
    const trusting = await start({ TRUST_PROXY: 'loopback' });
    await (await fetch(`${trusting.sidecar.url}/healthz`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).arrayBuffer();
    expect((await trusting.nextRequestLine(1)).client).toBe('203.0.113.7');

    const plain = await start();
    await (await fetch(`${plain.sidecar.url}/healthz`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).arrayBuffer();
    expect((await plain.nextRequestLine(1)).client).toBe('127.0.0.1');
  });

  it('is off with ACCESS_LOG=false', async () => {
    const { sidecar, requestLines, lines } = await start({ ACCESS_LOG: 'false' });
    await (await fetch(`${sidecar.url}/healthz`)).arrayBuffer();
    // The metrics count the request once its answer is done; the log, had it been on, would have written then.
    const metrics = await (await fetch(`${sidecar.url}/metrics`)).text();
    expect(metrics).toMatch(/reviews_http_requests_total\{route="\/healthz",status="200"\} 1/);
    expect(requestLines()).toEqual([]);
    expect(lines.some((l) => l.event === 'listening')).toBe(true);
  });
});

describe('/metrics', () => {
  it('answers loopback clients in the Prometheus text format: requests by route and status, latency, build, hub', async () => {
    const { sidecar } = await start({ ACCESS_LOG: 'false' });
    for (const path of ['/reviews.json', '/reviews.json', '/api/reviews/search?limit=nope', '/no/such/thing']) await (await fetch(`${sidecar.url}${path}`)).arrayBuffer();
    const res = await fetch(`${sidecar.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^reviews_http_requests_total\{route="static",status="200"\} 2$/m);
    expect(text).toMatch(/^reviews_http_requests_total\{route="\/api\/reviews\/search",status="400"\} 1$/m);
    expect(text).toMatch(/^reviews_http_requests_total\{route="none",status="404"\} 1$/m);
    expect(text).toMatch(/^reviews_http_request_duration_seconds_bucket\{le="\+Inf",route="static"\} 2$/m);
    expect(text).toContain(`reviews_build_info{build="${sidecar.builds.current().id}"} 1`);
    expect(text).toMatch(/^reviews_build_data_age_seconds \d+(\.\d+)?$/m);
    expect(text).toMatch(/^reviews_websub_store_up 1$/m);
    expect(text).toMatch(/^reviews_websub_subscriptions 0$/m);
    expect(text).toMatch(/^reviews_websub_deliveries_pending 0$/m);
    expect(text).toMatch(/^reviews_websub_deliveries_failing 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('refuses a forwarded public client, and with METRICS_TOKEN wants the token from everyone', async () => {
    const proxied = await start({ TRUST_PROXY: 'loopback' });
    const refused = await fetch(`${proxied.sidecar.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('forbidden');

    const { sidecar } = await start({ METRICS_TOKEN: TOKEN });
    expect((await fetch(`${sidecar.url}/metrics`)).status).toBe(403);
    expect((await fetch(`${sidecar.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(403);
    const allowed = await fetch(`${sidecar.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('reviews_http_requests_total');
    expect((await fetch(`${sidecar.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  // Issue 31 item 6: with TRUST_PROXY=true, `X-Forwarded-For: 127.0.0.1` once read /metrics from anywhere.
  it('never takes a forwarded address for loopback: a spoofed X-Forwarded-For is refused, even with TRUST_PROXY=true', async () => {
    const trusting = await start({ TRUST_PROXY: 'true' });
    const { port } = new URL(trusting.sidecar.url);
    // Relayed by a proxy on this machine (the socket is loopback, the request names a client): refused.
    for (const header of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }] as Record<string, string>[]) {
      expect(await getStatus(`http://127.0.0.1:${port}/metrics`, header), JSON.stringify(header)).toBe(403);
    }
    // Straight from loopback, nothing forwarded: an operator's scrape.
    expect(await getStatus(`http://127.0.0.1:${port}/metrics`, {})).toBe(200);
  });
});

// From outside, the decision is the socket's address the service sees: judged here on the addresses a
// socket can have, so it holds on a machine with only loopback (issue 45), where no request can come
// from anywhere else.
describe('mayReadMetrics', () => {
  const spoofed = { 'x-forwarded-for': '127.0.0.1' };
  type Row = { socket: string; remoteAddress: string | undefined; headers: Record<string, string>; allowed: boolean };
  it.each<Row>([
    { socket: 'an outside IPv4 socket', remoteAddress: '203.0.113.7', headers: {}, allowed: false },
    { socket: 'an outside IPv4 socket naming 127.0.0.1 in X-Forwarded-For', remoteAddress: '203.0.113.7', headers: spoofed, allowed: false },
    { socket: 'an outside IPv4 socket naming 127.0.0.1 in Forwarded', remoteAddress: '203.0.113.7', headers: { forwarded: 'for=127.0.0.1' }, allowed: false },
    { socket: 'an outside IPv4-mapped socket', remoteAddress: '::ffff:203.0.113.7', headers: spoofed, allowed: false },
    { socket: 'a private-range socket', remoteAddress: '192.168.1.20', headers: {}, allowed: false },
    { socket: 'an outside IPv6 socket', remoteAddress: '2001:db8::7', headers: spoofed, allowed: false },
    { socket: 'an address that only starts with 127 as a number', remoteAddress: '::ffff:1270.0.0.1', headers: {}, allowed: false },
    { socket: 'a socket already closed (no address)', remoteAddress: undefined, headers: {}, allowed: false },
    { socket: 'loopback through a proxy on this machine', remoteAddress: '127.0.0.1', headers: spoofed, allowed: false },
    { socket: 'loopback IPv4', remoteAddress: '127.0.0.1', headers: {}, allowed: true },
    { socket: 'another loopback IPv4', remoteAddress: '127.8.9.10', headers: {}, allowed: true },
    { socket: 'loopback IPv4-mapped', remoteAddress: '::ffff:127.0.0.1', headers: {}, allowed: true },
    { socket: 'loopback IPv6', remoteAddress: '::1', headers: {}, allowed: true },
  ])('$socket: allowed $allowed', ({ remoteAddress, headers, allowed }) => {
    expect(mayReadMetrics({ remoteAddress, headers }, undefined)).toBe(allowed);
  });

  it.each<Row>([
    { socket: 'the token, from outside', remoteAddress: '203.0.113.7', headers: { authorization: `Bearer ${TOKEN}` }, allowed: true },
    { socket: 'another token, from loopback', remoteAddress: '127.0.0.1', headers: { authorization: `Bearer ${TOKEN}x` }, allowed: false },
    { socket: 'no token, from loopback', remoteAddress: '127.0.0.1', headers: {}, allowed: false },
  ])('with METRICS_TOKEN, $socket: allowed $allowed', ({ remoteAddress, headers, allowed }) => {
    expect(mayReadMetrics({ remoteAddress, headers }, TOKEN)).toBe(allowed);
  });
});

/** A GET's status, from `localAddress` when given (fetch cannot choose the address it connects from). */
function getStatus(url: string, headers: Record<string, string>, localAddress?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
