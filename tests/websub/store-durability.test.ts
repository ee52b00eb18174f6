/**
 * Push that never misses (issue 24 items 1, 2 and 5): a publish ping is answered 202 only once the store
 * recorded the change, otherwise 503 `publish_not_recorded`, and the hub retries until the store takes it;
 * the shared store, not an instance's memory, decides what changed; delivery outcomes that could not be
 * recorded during a blip are kept and applied when the store returns, at most one duplicate per subscriber.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import { recordingLog, startHubHarness, waitUntil, type HubHarness } from './harness.ts';
import { atomFeed, createMemoryTopics } from './memory-topics.ts';
import { assertPostgresUp, dropTestSchemas, makeTestSchema, startPostgresProxy, TEST_DATABASE_URL } from './postgres.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const t = useTestSubscriber();

const publish = (h: HubHarness, topic: string) => h.post({ 'hub.mode': 'publish', 'hub.url': topic });

async function subscribeAll(h: HubHarness, paths: string[], topic: string) {
  for (const p of paths) expect((await h.subscribe(t.sub.callback(p), topic)).status).toBe(202);
  await waitUntil(async () => ((await h.store.listSubscriptions(topic)).length >= paths.length ? { value: true } : undefined), 10_000);
}

/** Waits until every path has received a notification whose body contains `marker`; returns the counts. */
async function waitForEveryone(paths: string[], marker: string, timeoutMs = 30_000) {
  const got = (p: string) => t.sub.notifications(p).filter((r) => r.body.toString().includes(marker)).length;
  await waitUntil(async () => (paths.every((p) => got(p) > 0) ? { value: true } : undefined), timeoutMs);
  return paths.map(got);
}

afterAll(() => dropTestSchemas());

describe('a publish while the store fails is a promise kept', () => {
  it('SQLite full: the ping gets 503 naming the cause, and every subscriber gets the change once space returns', async () => {
    const { log, lines } = recordingLog();
    const store = createSqliteHubStore({ file: join(mkdtempSync(join(tmpdir(), 'websub-durable-')), 'websub.sqlite'), maxBytes: 256 * 1024 });
    const h = await startHubHarness({ ca: t.ca, store, log });
    try {
      const paths = Array.from({ length: 20 }, (_, i) => `/full-publish-${i}`);
      await subscribeAll(h, paths, h.topics.feedXml);
      // Fill the file with subscriptions of another topic until nothing fits.
      const fillers: string[] = [];
      for (let i = 0; ; i++) {
        const callback = `https://filler.example/${i}/${'f'.repeat(1500)}`;
        try {
          await store.saveSubscription({ topic: h.topics.feedJson, callback, secret: null, leaseSeconds: 600, expiresAt: Date.now() + 600_000 }, Date.now());
          fillers.push(callback);
        } catch {
          break;
        }
      }
      const marker = 'full-disk-change';
      h.topics.set(h.topics.feedXml, atomFeed(h.base, `${marker} ${'x'.repeat(60_000)}`));
      const answer = await publish(h, h.topics.feedXml);
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = await answer.json();
      expect(body).toMatchObject({ error: 'publish_not_recorded' });
      expect(body.message).toMatch(/database or disk is full/);
      // After a failed write, new hub requests get 503 until a write fits again.
      expect(h.hub.storeHealth()).toMatchObject({ ok: false });
      const refused = await h.subscribe(t.sub.callback('/full-late'), h.topics.feedXml);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: 'hub_unavailable', message: expect.stringMatching(/full/) });
      expect(t.sub.notifications().filter((r) => r.body.toString().includes(marker))).toHaveLength(0);

      // Space returns: nobody pings again.
      for (const callback of fillers) await store.removeSubscription(h.topics.feedJson, callback);
      const counts = await waitForEveryone(paths, marker);
      await h.hub.drained();
      expect(counts).toEqual(paths.map(() => 1));
      await waitUntil(async () => (h.hub.storeHealth().ok ? { value: true } : undefined));
      expect((await h.subscribe(t.sub.callback('/full-late'), h.topics.feedXml)).status).toBe(202);
      expect(lines.some((l) => l.message === 'websub_publish_not_recorded')).toBe(true);
      expect(lines.some((l) => l.message === 'websub_store_recovered')).toBe(true);
    } finally {
      await h.close();
    }
  }, 90_000);

  it('PostgreSQL cut: the ping gets 503, and every subscriber gets the change once the database is back', async () => {
    assertPostgresUp();
    const { proxy, url } = await startPostgresProxy();
    const store = await createPostgresHubStore({ connectionString: url, schema: makeTestSchema('durable'), maxConnections: 4 });
    const h = await startHubHarness({ ca: t.ca, store });
    try {
      const paths = Array.from({ length: 30 }, (_, i) => `/pg-publish-${i}`);
      await subscribeAll(h, paths, h.topics.feedJson);
      await proxy.cut();
      h.topics.setAll('pg-cut-change');
      const answer = await publish(h, h.topics.feedJson);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ error: 'publish_not_recorded' });
      await proxy.restore();
      const counts = await waitForEveryone(paths, 'pg-cut-change');
      await h.hub.drained();
      expect(counts).toEqual(paths.map(() => 1));
    } finally {
      await h.close();
      await proxy.close();
    }
  }, 90_000);
});

describe('two instances on one PostgreSQL: the store is the truth', () => {
  let a: HubHarness;
  let b: HubHarness;
  beforeAll(async () => {
    assertPostgresUp();
    const schema = makeTestSchema('truth');
    const open = () => createPostgresHubStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 });
    a = await startHubHarness({ ca: t.ca, store: await open(), topics: (base) => createMemoryTopics(base, 'v1') });
    b = await startHubHarness({ ca: t.ca, store: await open(), topics: (base) => createMemoryTopics(base, 'v1') });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a publish through one and a revert through the other both reach every subscriber', async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `/truth-${i}`);
    await subscribeAll(a, paths, a.topics.reviewsJson);
    a.topics.setAll('v2');
    expect((await publish(a, a.topics.reviewsJson)).status).toBe(202);
    expect(await waitForEveryone(paths, '"label":"v2"')).toEqual(paths.map(() => 1));
    // b still has v1, which b itself recorded at its start: only the store knows v2 went out since.
    expect((await publish(b, b.topics.reviewsJson)).status).toBe(202);
    const reverted = await waitForEveryone(paths, '"label":"v1"');
    await a.hub.drained();
    await b.hub.drained();
    expect(reverted).toEqual(paths.map(() => 1));
  }, 90_000);
});

describe('delivery outcomes through a database blip', () => {
  it('keeps what it could not record and applies it when the store returns: no claim left to time out, duplicates counted', async () => {
    assertPostgresUp();
    const { proxy, url } = await startPostgresProxy();
    const store = await createPostgresHubStore({ connectionString: url, schema: makeTestSchema('blip'), maxConnections: 4 });
    const { log, lines } = recordingLog();
    // Claims last a minute: a delivery left claimed would miss the deadline of this test.
    const h = await startHubHarness({ ca: t.ca, store, log, hubOptions: { claimTtlMs: 60_000, maxInFlight: 8 } });
    try {
      const paths = Array.from({ length: 40 }, (_, i) => `/blip-${i}`);
      for (const p of paths) t.sub.behave(p, { notifyDelayMs: 150 });
      await subscribeAll(h, paths, h.topics.feedXml);
      h.topics.setAll('blip-change');
      expect((await publish(h, h.topics.feedXml)).status).toBe(202);
      // The cut comes while the first deliveries are at their subscribers, so their outcomes cannot be recorded.
      await t.sub.server.waitForRequest((r) => r.method === 'POST' && r.path.startsWith('/blip-'));
      await proxy.cut();
      await waitUntil(async () => (lines.some((l) => l.message === 'websub_outcomes_kept') ? { value: true } : undefined));
      await proxy.restore();
      const started = Date.now();
      const counts = await waitForEveryone(paths, 'blip-change', 20_000);
      await h.hub.drained();
      expect(Date.now() - started).toBeLessThan(15_000);
      const duplicates = counts.filter((n) => n > 1).length;
      expect(counts.every((n) => n <= 2)).toBe(true);
      expect(duplicates).toBeLessThanOrEqual(8);
      expect(await h.store.listPendingDeliveries()).toEqual([]);
      expect(lines.some((l) => l.message === 'websub_outcomes_applied')).toBe(true);
    } finally {
      await h.close();
      await proxy.close();
    }
  }, 90_000);
});
