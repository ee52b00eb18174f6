/**
 * A subscriber we did not write: the `pubsubhubbub` npm package (a PubSubHubbub 0.4 / WebSub subscriber),
 * unchanged, behind a real HTTPS server, subscribes through the hub's HTTP endpoint, receives a
 * notification, and unsubscribes.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import pubsubhubbub, { type FeedEvent, type SubscriptionEvent } from 'pubsubhubbub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { startHubHarness, waitUntil, type HubHarness } from './harness.ts';

let ca: TestCa;
let h: HubHarness;
let server: Server;
let origin: string;

beforeAll(async () => {
  ca = createTestCa();
  h = await startHubHarness({ ca });
  server = createServer(ca.issue(['127.0.0.1']));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await h?.close();
  ca?.remove();
});

describe('the pubsubhubbub npm subscriber', () => {
  it('subscribes, is notified with the new content, and unsubscribes', async () => {
    const subscriber = pubsubhubbub.createServer({ callbackUrl: `${origin}/push`, leaseSeconds: 300 });
    server.on('request', subscriber.listener());
    const errors: unknown[] = [];
    subscriber.on('error', (err) => errors.push(err));
    subscriber.on('denied', (err) => errors.push(err));
    const topic = h.topics.feedXml;

    const subscribed = once(subscriber, 'subscribe') as Promise<[SubscriptionEvent]>;
    await new Promise<void>((resolve, reject) => subscriber.subscribe(topic, h.endpoint, (err) => (err ? reject(err) : resolve())));
    const [verified] = await subscribed;
    expect(verified.topic).toBe(topic);
    const stored = await waitUntil(async () => {
      const [first] = await h.store.listSubscriptions(topic);
      return first && { value: first };
    });
    // The library puts its own query string on the callback; the hub kept it through verification.
    expect(stored.callback).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/push\?topic=/);
    expect(stored.leaseSeconds).toBe(300);

    const notified = once(subscriber, 'feed') as Promise<[FeedEvent]>;
    h.topics.setAll('third-party');
    await h.hub.notifyIfChanged();
    const [feed] = await notified;
    expect(feed.topic).toBe(topic);
    expect(feed.feed.toString()).toContain('<title>Reviews third-party</title>');
    expect(feed.headers['content-type']).toBe('application/atom+xml; charset=utf-8');

    const unsubscribed = once(subscriber, 'unsubscribe');
    await new Promise<void>((resolve, reject) => subscriber.unsubscribe(topic, h.endpoint, (err) => (err ? reject(err) : resolve())));
    await unsubscribed;
    await h.waitForSubscription(topic, stored.callback, (s) => s === undefined);
    expect(errors).toEqual([]);
  });
});
