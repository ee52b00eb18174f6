/**
 * Content distribution: what a notification carries, retries and removal after three consecutive
 * failures (with the hub.mode=denied GET), 410, newest-content-wins, publish pings and the comparison
 * with the last notified content at start.
 */
import { PublishVerdictSchema } from '../../core/schemas/publish-verdict.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../sidecar/logger.ts';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import { startHubHarness, type HubHarness } from './harness.ts';
import { CONTENT_TYPES, createMemoryTopics } from './memory-topics.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const t = useTestSubscriber();
let h: HubHarness;
let n = 0;
const path = (label: string) => `/${label}-${++n}`;

beforeAll(async () => {
  h = await startHubHarness({ ca: t.ca });
});
afterAll(async () => {
  await h?.close();
});

async function subscribeVerified(p: string, topic = h.topics.feedXml, harness = h) {
  const callback = t.sub.callback(p);
  expect((await harness.subscribe(callback, topic)).status).toBe(202);
  await harness.waitForSubscription(topic, callback);
  return callback;
}

async function publish(label: string, harness = h) {
  harness.topics.setAll(label);
  return harness.hub.notifyIfChanged();
}

const bodies = (p: string) => t.sub.notifications(p).map((r) => r.body.toString());

describe('a notification', () => {
  it.each([
    ['feedXml', CONTENT_TYPES.feedXml],
    ['feedJson', CONTENT_TYPES.feedJson],
    ['reviewsJson', CONTENT_TYPES.reviewsJson],
  ] as const)('of %s carries the full content, its exact Content-Type and the hub/self Link header', async (key, contentType) => {
    const p = path(`content-${key}`);
    const topic = h.topics[key];
    await subscribeVerified(p, topic);
    await publish(`content-${p}`);
    const note = await t.sub.waitForNotification(p);
    const current = await h.topics.read(topic);
    expect(note.body.equals(current!.body)).toBe(true);
    expect(note.headers['content-type']).toBe(contentType);
    expect(note.headers.link).toBe(`<https://reviews.example/api/websub/hub>; rel="hub", <${topic}>; rel="self"`);
  });
});

describe('failed deliveries', () => {
  it('are retried after the configured delays, and a later 2xx keeps the subscription', async () => {
    const p = path('retry');
    const callback = await subscribeVerified(p);
    let calls = 0;
    t.sub.behave(p, { notifyStatus: () => (++calls <= 2 ? 503 : 204) });
    await publish(`retry-${p}`);
    await t.sub.waitForNotification(p, () => t.sub.notifications(p).length === 3);
    const [a, b, c] = t.sub.notifications(p);
    expect(b!.receivedAt - a!.receivedAt).toBeGreaterThanOrEqual(20);
    expect(c!.receivedAt - b!.receivedAt).toBeGreaterThanOrEqual(40);
    expect(new Set(bodies(p)).size).toBe(1);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toHaveLength(3);
    expect(await h.store.findSubscription(h.topics.feedXml, callback)).toBeDefined();
  });

  it('remove the subscription after three consecutive failures and send hub.mode=denied', async () => {
    const p = path('removed');
    const callback = await subscribeVerified(p);
    t.sub.behave(p, { notifyStatus: 500 });
    await publish(`removed-${p}`);
    const denied = await t.sub.server.waitForRequest((r) => r.path === p && r.query.get('hub.mode') === 'denied');
    expect(denied.method).toBe('GET');
    expect(denied.query.get('hub.topic')).toBe(h.topics.feedXml);
    expect(denied.query.get('hub.reason')).toMatch(/3 consecutive/);
    expect(t.sub.notifications(p)).toHaveLength(3);
    expect(await h.store.findSubscription(h.topics.feedXml, callback)).toBeUndefined();
    await publish(`after-removal-${p}`);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toHaveLength(3);
  });

  it('count consecutively: a 2xx resets the count', async () => {
    const p = path('reset');
    const callback = await subscribeVerified(p);
    const plan = [500, 500, 204, 500, 500, 204];
    t.sub.behave(p, { notifyStatus: () => plan.shift() ?? 204 });
    await publish(`reset-a-${p}`);
    await t.sub.waitForNotification(p, () => t.sub.notifications(p).length === 3);
    await publish(`reset-b-${p}`);
    await t.sub.waitForNotification(p, () => t.sub.notifications(p).length === 6);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toHaveLength(6);
    expect(t.sub.denials(p)).toEqual([]);
    expect(await h.store.findSubscription(h.topics.feedXml, callback)).toBeDefined();
  });

  it('remove the subscription at once on 410 Gone', async () => {
    const p = path('gone');
    const callback = await subscribeVerified(p);
    t.sub.behave(p, { notifyStatus: 410 });
    await publish(`gone-${p}`);
    await t.sub.waitForNotification(p);
    await h.waitForSubscription(h.topics.feedXml, callback, (s) => s === undefined);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toHaveLength(1);
  });

  it('include timeouts', async () => {
    const quick = await startHubHarness({ ca: t.ca, client: { responseTimeoutMs: 50 }, hubOptions: { retryDelaysMs: [5, 5] } });
    try {
      const p = path('slow');
      const callback = await subscribeVerified(p, quick.topics.feedXml, quick);
      // The callback never answers while the test runs: each attempt ends at the 50 ms limit.
      const never = Promise.withResolvers<void>();
      t.sub.behave(p, { holdNotification: never.promise });
      try {
        await publish(`slow-${p}`, quick);
        await t.sub.server.waitForRequest((r) => r.path === p && r.query.get('hub.mode') === 'denied', 3_000);
        expect(await quick.store.findSubscription(quick.topics.feedXml, callback)).toBeUndefined();
      } finally {
        never.resolve();
      }
    } finally {
      await quick.close();
    }
  });
});

describe('newest content wins', () => {
  it('a change during a failing attempt replaces the pending one', async () => {
    const p = path('replace');
    await subscribeVerified(p);
    let first = true;
    t.sub.behave(p, {
      notifyStatus: () => {
        if (!first) return 204;
        first = false;
        // While the hub waits for this answer, three more changes are published.
        void publish(`replace-2-${p}`).then(() => publish(`replace-3-${p}`)).then(() => publish(`replace-4-${p}`));
        return 500;
      },
    });
    await publish(`replace-1-${p}`);
    await t.sub.waitForNotification(p, (r) => r.body.toString().includes(`replace-4-${p}`));
    await h.hub.drained();
    const seen = bodies(p).map((b) => /replace-(\d)/.exec(b)?.[1]);
    expect(seen[0]).toBe('1');
    expect(seen.at(-1)).toBe('4');
    expect(seen.filter((v) => v === '4')).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(3);
  });

  it('a change while a successful attempt is in flight is delivered right after it', async () => {
    const p = path('inflight');
    await subscribeVerified(p);
    let first = true;
    t.sub.behave(p, {
      notifyDelayMs: 30,
      notifyStatus: () => {
        if (first) void publish(`inflight-2-${p}`);
        first = false;
        return 204;
      },
    });
    await publish(`inflight-1-${p}`);
    await t.sub.waitForNotification(p, (r) => r.body.toString().includes(`inflight-2-${p}`));
    await h.hub.drained();
    expect(bodies(p).map((b) => /inflight-(\d)/.exec(b)?.[1])).toEqual(['1', '2']);
  });
});

describe('change detection', () => {
  it('a publish ping notifies only when the bytes changed', async () => {
    const p = path('ping');
    await subscribeVerified(p, h.topics.feedJson);
    await publish(`ping-base-${p}`);
    await t.sub.waitForNotification(p);

    const ping = () => h.post({ 'hub.mode': 'publish', 'hub.url': h.topics.feedJson });
    const unchanged = await ping();
    expect(unchanged.status).toBe(202);
    // The 202 carries the store's verdict for the topic: what `npm run publish` reports.
    expect(PublishVerdictSchema.parse(await unchanged.json())).toEqual({ topics: [{ topic: h.topics.feedJson, changed: false, subscribers: 0 }] });
    await h.hub.drained();
    expect(t.sub.notifications(p)).toHaveLength(1);

    h.topics.setAll(`ping-changed-${p}`);
    const changed = await h.post({ 'hub.mode': 'publish', 'hub.topic': h.topics.feedJson });
    expect(changed.status).toBe(202);
    // Every subscriber of the topic in this file's hub, this test's included.
    const subscribers = (await h.store.listSubscriptions(h.topics.feedJson)).length;
    expect(subscribers).toBeGreaterThan(0);
    expect(PublishVerdictSchema.parse(await changed.json())).toEqual({ topics: [{ topic: h.topics.feedJson, changed: true, subscribers }] });
    await t.sub.waitForNotification(p, (r) => r.body.toString().includes('ping-changed'));
    expect(t.sub.notifications(p)).toHaveLength(2);
  });

  it('at a first start, verifies a subscription that came before the comparison only after it: the first recording is no change for it', async () => {
    const p = path('first-start');
    const events: string[] = [];
    const log = createLogger('info', (line) => void events.push(JSON.parse(line).event));
    const fresh = await startHubHarness({ ca: t.ca, start: false, log, topics: (base) => createMemoryTopics(base, 'f1') });
    try {
      const callback = t.sub.callback(p);
      // The service answers hub requests while its hub compares every topic at start (sidecar/server.ts).
      expect((await fresh.subscribe(callback, fresh.topics.feedXml)).status).toBe(202);
      // A hub that verified at once would have saved the subscription by now, and its first comparison
      // would then find the topic new and notify it.
      await fresh.hub.settled();
      await fresh.hub.start();
      await fresh.waitForSubscription(fresh.topics.feedXml, callback);
      await fresh.hub.drained();
      expect(t.sub.notifications(p)).toEqual([]);
      expect(events.indexOf('websub_topics_recorded')).toBeGreaterThanOrEqual(0);
      expect(events.indexOf('websub_topics_recorded')).toBeLessThan(events.indexOf('websub_intent_verified'));
      // The next change is the subscriber's first notification.
      await publish(`first-start-${p}`, fresh);
      expect((await t.sub.waitForNotification(p)).body.toString()).toContain(`first-start-${p}`);
    } finally {
      await fresh.close();
    }
  });

  it('at start, notifies a change published while the hub was down, and nothing when nothing changed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'websub-restart-'));
    const p = path('restart');
    const first = await startHubHarness({ ca: t.ca, store: createSqliteHubStore({ dataDir }), topics: (base) => createMemoryTopics(base, 'r1') });
    await subscribeVerified(p, first.topics.feedXml, first);
    await first.close();

    const unchanged = await startHubHarness({ ca: t.ca, store: createSqliteHubStore({ dataDir }), topics: (base) => createMemoryTopics(base, 'r1') });
    await unchanged.hub.drained();
    await unchanged.close();
    expect(t.sub.notifications(p)).toEqual([]);

    const changed = await startHubHarness({ ca: t.ca, store: createSqliteHubStore({ dataDir }), topics: (base) => createMemoryTopics(base, 'r2') });
    try {
      const note = await t.sub.waitForNotification(p);
      expect(note.body.toString()).toContain('Reviews r2');
    } finally {
      await changed.close();
    }
  });
});
