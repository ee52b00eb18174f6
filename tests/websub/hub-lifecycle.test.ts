/**
 * The subscription state table of interface.md ("States and transitions"), row by row, and the W3C
 * WebSub behaviours around it, against the hub over real HTTP with real HTTPS callbacks.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestSubscriber } from './test-subscriber.ts';
import { startHubHarness, type HubHarness } from './harness.ts';

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

/** Subscribes, waits for the stored subscription, and returns the callback. */
async function subscribeVerified(p: string, topic = h.topics.feedXml, extra: Record<string, string> = {}) {
  const callback = t.sub.callback(p);
  expect((await h.subscribe(callback, topic, extra)).status).toBe(202);
  await h.waitForSubscription(topic, callback);
  return callback;
}

async function publish(label: string) {
  h.topics.setAll(label);
  return h.hub.notifyIfChanged();
}

describe('Hub.drained', () => {
  it('resolves only once every due delivery has been answered, however slowly', async () => {
    const p = path('drain');
    await subscribeVerified(p);
    const held = Promise.withResolvers<void>();
    t.sub.behave(p, { holdNotification: held.promise });
    await publish(`drain-${p}`);
    const drained = h.hub.drained();
    // The delivery reaches the callback, which holds its answer: drained() must still be waiting.
    expect(await Promise.race([drained.then(() => 'drained'), t.sub.waitForNotification(p).then(() => 'held')])).toBe('held');
    held.resolve();
    await drained;
    // Had drained() not waited for the slow callback, its delivery would still be pending.
    expect(await h.store.listPendingDeliveries()).toEqual([]);
    expect(t.sub.notifications(p).map((r) => r.body.toString().includes(`drain-${p}`))).toEqual([true]);
  });
});

describe('state table: (none) → subscribe', () => {
  it('answers 202 at once and sends a verification GET keeping the callback query string', async () => {
    const p = path('verify');
    const callback = t.sub.callback(p, 'token=a%20b&x=1');
    const res = await h.subscribe(callback, h.topics.feedXml, { 'hub.lease_seconds': '120' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    const get = await t.sub.waitForVerification(p);
    expect(get.url.startsWith(`${p}?token=a%20b&x=1&`)).toBe(true);
    expect(get.query.get('hub.mode')).toBe('subscribe');
    expect(get.query.get('hub.topic')).toBe(h.topics.feedXml);
    expect(get.query.get('hub.challenge')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(get.query.get('hub.lease_seconds')).toBe('120');
    const stored = await h.waitForSubscription(h.topics.feedXml, callback);
    expect(stored).toMatchObject({ callback, leaseSeconds: 120 });
  });

  it('refuses a plain-HTTP callback with 400 and never calls it', async () => {
    const res = await h.subscribe(`http://127.0.0.1:${t.sub.server.port}/plain`, h.topics.feedXml);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'invalid_request', issues: [{ path: ['hub.callback'] }] });
    expect(body.message).toMatch(/HTTPS/);
    await h.hub.drained();
    expect(t.sub.server.requests.filter((r) => r.path === '/plain')).toEqual([]);
  });
});

describe('state table: pending verification', () => {
  it('becomes active on a 2xx echoing the exact challenge, and notifications start', async () => {
    const p = path('active');
    await subscribeVerified(p);
    await publish('active-change');
    const note = await t.sub.waitForNotification(p);
    expect(note.body.toString()).toContain('Reviews active-change');
  });

  it.each([
    ['answers 404', { verify: 404 }],
    ['answers 500 with the challenge', { verify: 500 }],
    ['answers 2xx with a different body', { verify: 'wrong-body' }],
    ['redirects (the hub does not follow)', { verify: 302 }],
  ] as const)('is rejected when the callback %s: no subscription, no notification', async (_label, behaviour) => {
    const p = path('reject');
    t.sub.behave(p, behaviour);
    const callback = t.sub.callback(p);
    expect((await h.subscribe(callback, h.topics.feedXml)).status).toBe(202);
    await t.sub.waitForVerification(p);
    await h.hub.settled();
    expect(await h.store.findSubscription(h.topics.feedXml, callback)).toBeUndefined();
    await publish(`after-reject-${p}`);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toEqual([]);
  });
});

describe('state table: active', () => {
  it('is removed by a verified unsubscribe, and notifications stop', async () => {
    const p = path('unsub');
    const callback = await subscribeVerified(p);
    expect((await h.unsubscribe(callback, h.topics.feedXml)).status).toBe(202);
    const get = await t.sub.waitForVerification(p, 'unsubscribe');
    expect(get.query.get('hub.topic')).toBe(h.topics.feedXml);
    expect(get.query.has('hub.lease_seconds')).toBe(false);
    await h.waitForSubscription(h.topics.feedXml, callback, (s) => s === undefined);
    await publish(`after-unsub-${p}`);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toEqual([]);
  });

  it('stays active when the unsubscribe is not confirmed by the callback', async () => {
    const p = path('unsub-refused');
    const callback = await subscribeVerified(p);
    t.sub.behave(p, { verify: 'wrong-body' });
    expect((await h.unsubscribe(callback, h.topics.feedXml)).status).toBe(202);
    await t.sub.waitForVerification(p, 'unsubscribe');
    await h.hub.settled();
    expect(await h.store.findSubscription(h.topics.feedXml, callback)).toBeDefined();
  });

  it('expires when the lease elapses: no notification after expiry', async () => {
    const p = path('expire');
    const callback = await subscribeVerified(p, h.topics.feedXml, { 'hub.lease_seconds': '60' });
    h.advanceClock(61_000);
    const checks = await publish(`after-expiry-${p}`);
    expect(checks.find((c) => c.topic === h.topics.feedXml)?.changed).toBe(true);
    await h.hub.drained();
    expect(t.sub.notifications(p)).toEqual([]);
    await h.waitForSubscription(h.topics.feedXml, callback, (s) => s === undefined);
  });

  it('keeps updates coming when re-subscribed before expiry, one notification per change', async () => {
    const p = path('renew');
    const callback = await subscribeVerified(p, h.topics.feedXml, { 'hub.lease_seconds': '60' });
    const first = await h.store.findSubscription(h.topics.feedXml, callback);
    h.advanceClock(50_000);
    expect((await h.subscribe(callback, h.topics.feedXml, { 'hub.lease_seconds': '60' })).status).toBe(202);
    await h.waitForSubscription(h.topics.feedXml, callback, (s) => (s?.expiresAt ?? 0) > first!.expiresAt);
    h.advanceClock(20_000); // past the first lease, within the renewed one
    await publish(`renewed-${p}`);
    await t.sub.waitForNotification(p, (r) => r.body.toString().includes(`renewed-${p}`));
    await h.hub.drained();
    expect(t.sub.notifications(p)).toHaveLength(1);
  });
});

describe('W3C WebSub behaviours', () => {
  it('grants the default lease when the request has no hub.lease_seconds', async () => {
    const p = path('default-lease');
    await h.subscribe(t.sub.callback(p), h.topics.feedXml);
    expect((await t.sub.waitForVerification(p)).query.get('hub.lease_seconds')).toBe('600');
  });

  it.each([
    ['1', '60'],
    ['99999999', '3600'],
  ])('grants a requested lease of %s seconds as %s (within the bounds)', async (requested, granted) => {
    const p = path('bounded-lease');
    await h.subscribe(t.sub.callback(p), h.topics.feedXml, { 'hub.lease_seconds': requested });
    expect((await t.sub.waitForVerification(p)).query.get('hub.lease_seconds')).toBe(granted);
  });

  it('ignores unknown hub.* and other parameters', async () => {
    const p = path('extra');
    const res = await h.subscribe(t.sub.callback(p), h.topics.feedXml, { 'hub.verify': 'sync', 'hub.future': 'x', other: 'y' });
    expect(res.status).toBe(202);
    await h.waitForSubscription(h.topics.feedXml, t.sub.callback(p));
  });

  it('signs notifications with the subscription secret: X-Hub-Signature sha256 of the body', async () => {
    const p = path('signed');
    await subscribeVerified(p, h.topics.reviewsJson, { 'hub.secret': 'correct horse battery staple' });
    await publish(`signed-${p}`);
    const note = await t.sub.waitForNotification(p);
    const expected = createHmac('sha256', 'correct horse battery staple').update(note.body).digest('hex');
    expect(note.headers['x-hub-signature']).toBe(`sha256=${expected}`);
  });

  it('sends no signature without a secret', async () => {
    const p = path('unsigned');
    await subscribeVerified(p, h.topics.reviewsJson);
    await publish(`unsigned-${p}`);
    expect((await t.sub.waitForNotification(p)).headers['x-hub-signature']).toBeUndefined();
  });

  it('renews lease and secret only once the re-subscription is verified', async () => {
    const p = path('renew-refused');
    const callback = await subscribeVerified(p, h.topics.feedJson, { 'hub.secret': 'old-secret', 'hub.lease_seconds': '300' });
    const before = await h.store.findSubscription(h.topics.feedJson, callback);
    t.sub.behave(p, { verify: 'wrong-body' });
    await h.subscribe(callback, h.topics.feedJson, { 'hub.secret': 'new-secret', 'hub.lease_seconds': '3600' });
    await t.sub.waitForVerification(p, 'subscribe', 2_000).then(() => h.hub.settled());
    expect(t.sub.verifications(p)).toHaveLength(2);
    expect(await h.store.findSubscription(h.topics.feedJson, callback)).toEqual(before);

    t.sub.behave(p, {});
    await h.subscribe(callback, h.topics.feedJson, { 'hub.secret': 'new-secret', 'hub.lease_seconds': '3600' });
    const after = await h.waitForSubscription(h.topics.feedJson, callback, (s) => s?.secret === 'new-secret');
    expect(after).toMatchObject({ id: before!.id, leaseSeconds: 3600 });
  });
});
