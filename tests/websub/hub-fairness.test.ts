/**
 * Nobody starved (issue 10 items 4 and 5): a slow callback host fills only its own verification queue,
 * queued requests time out from when they were queued, subscriptions are capped per callback host, and
 * deliveries take callback hosts in turn. Two hosts on one machine: 127.0.0.1 and [::1]. Issue 24 item 6:
 * the limits count the callback's resolved address and registrable domain, whatever names it uses.
 */
import { createServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKeyOf } from '../../sidecar/http/client-address.ts';
import { createCallbackClient } from '../../sidecar/websub/callbacks/client.ts';
import { registrableDomainOf } from '../../sidecar/websub/callbacks/url.ts';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { startHubHarness, waitUntil } from './harness.ts';
import { startSubscriber, type Subscriber } from './subscriber.ts';

let ca: TestCa;
let slowHost: Subscriber;
let otherHost: Subscriber;

beforeAll(async () => {
  ca = createTestCa();
  slowHost = await startSubscriber(ca, '127.0.0.1');
  otherHost = await startSubscriber(ca, '::1');
});
afterAll(async () => {
  await slowHost?.close();
  await otherHost?.close();
  ca?.remove();
});

describe('pending verifications per callback host', () => {
  it('refuses more from a slow host with 503 callback_host_busy, and keeps accepting other hosts', async () => {
    const h = await startHubHarness({ ca, hubOptions: { maxPendingVerificationsPerHost: 5 } });
    const slow = Promise.withResolvers<void>();
    try {
      for (let i = 0; i < 5; i++) {
        slowHost.behave(`/slow-${i}`, { holdVerification: slow.promise });
        expect((await h.subscribe(slowHost.callback(`/slow-${i}`), h.topics.feedXml)).status).toBe(202);
      }
      const refused = await h.subscribe(slowHost.callback('/slow-5'), h.topics.feedXml);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: 'callback_host_busy', message: expect.stringContaining('127.0.0.1') });

      const other = otherHost.callback('/other');
      expect((await h.subscribe(other, h.topics.feedXml)).status).toBe(202);
      await h.waitForSubscription(h.topics.feedXml, other);
      // Once the slow host has answered, it may queue again.
      slow.resolve();
      await h.hub.settled();
      expect((await h.subscribe(slowHost.callback('/slow-6'), h.topics.feedXml)).status).toBe(202);
    } finally {
      slow.resolve();
      await h.close();
    }
  });
});

describe('callback client time limits', () => {
  it('counts a request’s time limit from when it was queued behind its host', async () => {
    const keys = ca.issue(['127.0.0.1']);
    // Answers in 50 ms, except the second and third requests, which it holds till they time out: the
    // second after its 400 ms, the third when its 700 ms from queueing are up.
    let arrived = 0;
    const server = createServer(keys, (_req, res) => void (++arrived === 2 || arrived === 3 || setTimeout(() => res.end('ok'), 50)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const client = createCallbackClient({
      allowPrivateCallbacks: true,
      ca: ca.certPem,
      maxConcurrencyPerHost: 1,
      connectTimeoutMs: 300,
      responseTimeoutMs: 400,
    });
    try {
      // One at a time: the fourth waits behind the held second and third until its 700 ms from queueing
      // are up, so it ends then, never sent (counted from its own start, it would be answered in 50 ms).
      const results = await Promise.all([0, 1, 2, 3].map(() => client.send({ method: 'GET', url })));
      expect(results[0]).toMatchObject({ ok: true });
      expect(results[3]).toMatchObject({ ok: false, reason: 'timeout', message: expect.stringMatching(/of being queued/) });
    } finally {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('subscriptions per callback host', () => {
  it('refuses a new subscription past the cap with 403 subscription_limit, but renews and serves other hosts', async () => {
    const h = await startHubHarness({ ca, hubOptions: { maxSubscriptionsPerHost: 3 } });
    try {
      for (let i = 0; i < 3; i++) {
        const callback = slowHost.callback(`/capped-${i}`);
        expect((await h.subscribe(callback, h.topics.feedXml)).status).toBe(202);
        await h.waitForSubscription(h.topics.feedXml, callback);
      }
      const refused = await h.subscribe(slowHost.callback('/capped-3'), h.topics.feedXml);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: 'subscription_limit', issues: [{ path: ['hub.callback'] }] });
      expect((await h.subscribe(slowHost.callback('/capped-0'), h.topics.feedXml, { 'hub.lease_seconds': '120' })).status).toBe(202);
      expect((await h.subscribe(otherHost.callback('/not-capped'), h.topics.feedXml)).status).toBe(202);
    } finally {
      await h.close();
    }
  });
});

describe('fair delivery across callback hosts', () => {
  it('delivers to a host with one subscriber without waiting behind a host with hundreds', async () => {
    const h = await startHubHarness({ ca, hubOptions: { maxInFlight: 4, maxSubscriptionsPerHost: 10_000 } });
    try {
      const at = Date.now();
      for (let i = 0; i < 200; i++) {
        slowHost.behave(`/crowd-${i}`, { notifyDelayMs: 20 });
        await h.store.saveSubscription({ topic: h.topics.feedXml, callback: slowHost.callback(`/crowd-${i}`), secret: null, leaseSeconds: 600, expiresAt: at + 600_000 }, at);
      }
      await h.store.saveSubscription({ topic: h.topics.feedXml, callback: otherHost.callback('/lonely'), secret: null, leaseSeconds: 600, expiresAt: at + 600_000 }, at + 1);
      h.topics.setAll('fair');
      await h.hub.notifyIfChanged();
      await otherHost.waitForNotification('/lonely', () => true, 10_000);
      // FIFO would have sent all 200 of the crowd first.
      expect(slowHost.notifications().filter((r) => r.path.startsWith('/crowd-')).length).toBeLessThan(20);
      await waitUntil(async () => (slowHost.notifications().filter((r) => r.path.startsWith('/crowd-')).length === 200 ? { value: true } : undefined), 20_000);
    } finally {
      await h.close();
    }
  });
});

describe('clientKeyOf', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:bbbb:cccc:dddd:eeee', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::9', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('counts %s as %s', (address, key) => {
    expect(clientKeyOf(address)).toBe(key);
  });
});

describe('limits count the resolved address and the registrable domain, not host names', () => {
  /** A callback server that accepts connections and never answers: verifications stay under way. */
  async function startSilentServer(host: string) {
    const sockets = new Set<import('node:net').Socket>();
    const server = createNetServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return {
      port: (server.address() as AddressInfo).port,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  async function subscribeNames(names: string[], addressOf: (name: string) => string, hubOptions: Record<string, number>) {
    const servers = { v4: await startSilentServer('127.0.0.1'), v6: await startSilentServer('::1') };
    const h = await startHubHarness({
      ca,
      hubOptions,
      client: {
        connectTimeoutMs: 20_000,
        resolve: async (name) => [{ address: addressOf(name), family: addressOf(name).includes(':') ? 6 : 4 }],
      },
    });
    const answers: { name: string; status: number; body: { error?: string; message?: string } }[] = [];
    try {
      for (const name of names) {
        const port = addressOf(name).includes(':') ? servers.v6.port : servers.v4.port;
        const answer = await h.subscribe(`https://${name}:${port}/cb`, h.topics.feedXml);
        answers.push({ name, status: answer.status, body: answer.status === 202 ? {} : await answer.json() });
      }
    } finally {
      await h.close();
      await servers.v4.close();
      await servers.v6.close();
    }
    return answers;
  }

  it('20 names of one wildcard domain on one address share one allowance', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `n${i}.wild.example`);
    const answers = await subscribeNames(names, () => '127.0.0.1', { maxSubscriptionsPerHost: 3 });
    expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
    expect(answers.slice(3).every((a) => a.status === 403 && a.body.error === 'subscription_limit')).toBe(true);
    expect(answers[3]!.body.message).toMatch(/wild\.example|127\.0\.0\.1/);
  });

  it('20 domains on one address share it too, and so do the names of one domain on two addresses', async () => {
    const domains = await subscribeNames(Array.from({ length: 20 }, (_, i) => `site${i}.example`), () => '127.0.0.1', { maxSubscriptionsPerHost: 3 });
    expect(domains.filter((a) => a.status === 202)).toHaveLength(3);
    expect(domains[3]!.body.message).toMatch(/address 127\.0\.0\.1/);
    const names = Array.from({ length: 20 }, (_, i) => `n${i}.spread.example`);
    const spread = await subscribeNames(names, (name) => (Number(/\d+/.exec(name)![0]) % 2 ? '::1' : '127.0.0.1'), { maxSubscriptionsPerHost: 3 });
    expect(spread.filter((a) => a.status === 202)).toHaveLength(3);
    expect(spread[3]!.body.message).toMatch(/domain spread\.example/);
  });

  it('verifications under way are capped per domain as well', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `v${i}.slow.example`);
    const answers = await subscribeNames(names, (name) => (Number(/\d+/.exec(name)![0]) % 2 ? '::1' : '127.0.0.1'), { maxPendingVerificationsPerHost: 5 });
    expect(answers.filter((a) => a.status === 202)).toHaveLength(5);
    expect(answers[5]).toMatchObject({ status: 503, body: { error: 'callback_host_busy', message: expect.stringMatching(/domain slow\.example/) } });
  });
});

describe('registrableDomainOf', () => {
  it.each([
    ['a.b.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['x.y.example.co.uk', 'example.co.uk'],
    ['someone.github.io', 'someone.github.io'],
    ['[::1]', '::1'],
    ['127.0.0.1', '127.0.0.1'],
    ['Mixed.Example.ORG.', 'example.org'],
    // Suffixes beyond any short hand-kept list: the Public Suffix List as tldts ships it.
    ['shop.example.co.ke', 'example.co.ke'],
    ['team.blogspot.com', 'team.blogspot.com'],
    ['localhost', 'localhost'],
  ])('counts %s as %s', (host, domain) => {
    expect(registrableDomainOf(host)).toBe(domain);
  });
});
