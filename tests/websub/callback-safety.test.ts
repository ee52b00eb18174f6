/**
 * The safety of a hub that calls arbitrary URLs: refused address ranges, connecting to the checked
 * address (no DNS rebinding), timeouts, a cap on response bytes, no redirects, bounded concurrency, and
 * trusting the test CA in process (`ca`) and in a child process (NODE_EXTRA_CA_CERTS).
 *
 * Only loopback is ever connected to: addresses that must be refused and lie elsewhere are checked with
 * `checkAddress` / `client.check()`, which never open a connection.
 */
import { execFile } from 'node:child_process';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress } from '../../sidecar/outbound/address-policy.ts';
import { createCallbackClient, type CallbackClientOptions } from '../../sidecar/websub/callbacks/client.ts';
import { createTestCa, startHttpsCallbackServer, type HttpsCallbackServer, type TestCa } from '../../tools/lib/https-ca.ts';
import { sleep, startHubHarness } from './harness.ts';

let ca: TestCa;
let server: HttpsCallbackServer;

beforeAll(async () => {
  ca = createTestCa();
  server = await startHttpsCallbackServer({ ca, names: ['localhost', 'callback.test', '127.0.0.1', '::1'] });
});
afterAll(async () => {
  await server?.close();
  ca?.remove();
});

const client = (options: Partial<CallbackClientOptions> = {}) =>
  createCallbackClient({ allowPrivateCallbacks: true, ca: ca.certPem, connectTimeoutMs: 1_000, responseTimeoutMs: 1_000, ...options });

describe('checkAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['192.0.2.1', 'special-purpose'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a00:1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1:ffff::1', 'private'],
  ])('refuses %s (%s) unless private callbacks are allowed', (address, category) => {
    expect(checkAddress(address, { allowPrivate: false })).toEqual({ allowed: false, category });
    expect(checkAddress(address, { allowPrivate: true })).toEqual({ allowed: true });
  });

  it.each([
    ['169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['2002:a9fe:a9fe::', 'cloud-metadata'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::ffff:0:169.254.169.254', 'cloud-metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
  ])('always refuses %s (%s)', (address, category) => {
    expect(checkAddress(address, { allowPrivate: true })).toEqual({ allowed: false, category });
  });

  it.each(['93.184.215.14', '2606:4700:4700::1111', '8.8.8.8'])('allows the public address %s', (address) => {
    expect(checkAddress(address, { allowPrivate: false })).toEqual({ allowed: true });
  });
});

describe('the hub refuses callbacks on refused addresses at request time', () => {
  it.each([
    'https://127.0.0.1:PORT/a',
    'https://localhost:PORT/a',
    'https://[::1]:PORT/a',
    'https://[::ffff:127.0.0.1]:PORT/a',
    'https://2130706433:PORT/a',
    'https://127.1:PORT/a',
  ])('%s → 400 callback_refused, and the callback is never called', async (template) => {
    const h = await startHubHarness({ ca, hubOptions: { allowPrivateCallbacks: false } });
    try {
      const before = server.requests.length;
      const res = await h.subscribe(template.replace('PORT', String(server.port)), h.topics.feedXml);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ error: 'callback_refused', issues: [{ path: ['hub.callback'], code: 'refused' }] });
      expect(body.message).toMatch(/loopback/);
      await h.hub.drained();
      expect(server.requests.length).toBe(before);
    } finally {
      await h.close();
    }
  });

  it.each([
    ['a metadata address', ['169.254.169.254']],
    ['a private address', ['10.0.0.7']],
    ['one public and one private address', ['93.184.215.14', '192.168.0.10']],
  ])('refuses a host that resolves to %s (checked without connecting)', async (_label, addresses) => {
    const c = client({ allowPrivateCallbacks: false, resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) });
    const checked = await c.check('https://evil.test/cb');
    expect(checked).toMatchObject({ ok: false, reason: 'refused' });
    c.close();
  });

  it('refuses plain HTTP without connecting', async () => {
    const c = client();
    expect(await c.send({ method: 'GET', url: `http://127.0.0.1:${server.port}/` })).toMatchObject({ ok: false, reason: 'invalid-url' });
    c.close();
  });
});

describe('createCallbackClient', () => {
  it('resolves once and connects to the checked address, whatever DNS answers next (no rebinding)', async () => {
    const answers = ['127.0.0.1', '127.0.0.2'];
    const lookups: string[] = [];
    const c = client({
      resolve: async (host) => {
        lookups.push(host);
        return [{ address: answers[Math.min(lookups.length - 1, 1)]!, family: 4 }];
      },
    });
    // The server listens on 127.0.0.1 only: a second lookup (127.0.0.2) would fail to connect.
    const result = await c.send({ method: 'GET', url: `https://callback.test:${server.port}/pinned` });
    expect(result).toMatchObject({ ok: true, response: { status: 200 } });
    expect(lookups).toEqual(['callback.test']);
    c.close();
  });

  it('times out a callback that never answers', async () => {
    server.setHandler(() => {});
    const c = client({ responseTimeoutMs: 100 });
    const started = Date.now();
    const result = await c.send({ method: 'POST', url: server.url('/silent'), body: Buffer.from('x') });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
    c.close();
    server.setHandler((_req, res) => void res.end());
  });

  it('times out a connection whose TLS handshake never completes', async () => {
    // Accepts TCP and never says a word of TLS.
    const tcp: TcpServer = createTcpServer((socket) => socket.resume());
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const c = client({ connectTimeoutMs: 100 });
    const result = await c.send({ method: 'GET', url: `https://127.0.0.1:${(tcp.address() as AddressInfo).port}/` });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(result.ok === false && result.message).toMatch(/connecting/);
    c.close();
    await new Promise((resolve) => tcp.close(resolve));
  });

  it('reads at most maxResponseBytes of an answer', async () => {
    server.setHandler((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(5 * 1024 * 1024, 'a'));
    });
    const c = client({ maxResponseBytes: 1024 });
    const result = await c.send({ method: 'GET', url: server.url('/big') });
    expect(result).toMatchObject({ ok: true, response: { status: 200, truncated: true } });
    expect(result.ok && result.response.body.length).toBe(1024);
    c.close();
    server.setHandler((_req, res) => void res.end());
  });

  it('does not follow redirects', async () => {
    server.setHandler((req, res) => {
      if (req.path === '/moved') return void res.writeHead(302, { location: '/target' }).end();
      res.end('target');
    });
    const c = client();
    const result = await c.send({ method: 'GET', url: server.url('/moved') });
    // send() resolved with the 302 itself: a followed redirect would have reached /target before that.
    expect(result).toMatchObject({ ok: true, response: { status: 302 } });
    expect(server.requests.some((r) => r.path === '/target')).toBe(false);
    c.close();
    server.setHandler((_req, res) => void res.end());
  });

  it('bounds concurrency per callback host and overall', async () => {
    let current = 0;
    let peak = 0;
    server.setHandler(async (_req, res) => {
      peak = Math.max(peak, ++current);
      await sleep(40);
      current -= 1;
      res.end();
    });
    const perHost = client({ maxConcurrencyPerHost: 2, maxConcurrency: 10 });
    await Promise.all(Array.from({ length: 8 }, () => perHost.send({ method: 'GET', url: server.url('/slow') })));
    expect(peak).toBe(2);
    perHost.close();

    peak = 0;
    // Both names are one address: no slot kept in reserve, so the overall cap is what binds.
    const overall = client({ maxConcurrencyPerHost: 5, maxConcurrency: 3, reservedSlots: 0 });
    const urls = [server.url('/slow'), server.url('/slow', 'localhost')];
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => overall.send({ method: 'GET', url: urls[i % 2]! })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(peak).toBe(3);
    overall.close();
    server.setHandler((_req, res) => void res.end());
  });

  it('trusts the test CA only when told: the ca option in process', async () => {
    const untrusting = createCallbackClient({ allowPrivateCallbacks: true });
    const refused = await untrusting.send({ method: 'GET', url: server.url('/tls') });
    expect(refused).toMatchObject({ ok: false, reason: 'network' });
    untrusting.close();
    const trusting = client();
    expect(await trusting.send({ method: 'GET', url: server.url('/tls') })).toMatchObject({ ok: true });
    trusting.close();
  });

  it('trusts the test CA through NODE_EXTRA_CA_CERTS in a child process', async () => {
    const script = `
      import { createCallbackClient } from './sidecar/websub/callbacks/client.ts';
      const c = createCallbackClient({ allowPrivateCallbacks: true });
      const r = await c.send({ method: 'GET', url: process.argv[1] });
      c.close();
      console.log(JSON.stringify(r.ok ? { status: r.response.status } : r));`;
    const run = (env: NodeJS.ProcessEnv) =>
      promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, server.url('/child')], { cwd: process.cwd(), env, timeout: 10_000 });
    const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
    expect(JSON.parse((await run(env)).stdout)).toMatchObject({ ok: false, reason: 'network' });
    expect(JSON.parse((await run({ ...env, NODE_EXTRA_CA_CERTS: ca.certFile })).stdout)).toEqual({ status: 200 });
  });
});
