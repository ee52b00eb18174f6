/**
 * Storage faults (issue 10 item 1): a full disk and a PostgreSQL outage while running. Every write
 * reports its failure, the original error survives the rollback, and a verified subscription the hub
 * cannot save is denied to its subscriber (hub.mode=denied) and logged, never silently lost.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import { useTestSubscriber } from './test-subscriber.ts';
import { recordingLog, startHubHarness, waitUntil } from './harness.ts';
import { assertPostgresUp, dropTestSchemas, makeTestSchema, startPostgresProxy } from './postgres.ts';

const t = useTestSubscriber();


const FEED = 'https://reviews.example/feed.xml';

describe('SQLite store on a full disk', () => {
  const fullStore = () => createSqliteHubStore({ file: join(mkdtempSync(join(tmpdir(), 'websub-full-')), 'websub.sqlite'), maxBytes: 128 * 1024 });

  it('reports "database or disk is full" from every write, the original error and not the rollback', async () => {
    const store = fullStore();
    const big = 'x'.repeat(900);
    let saved = 0;
    let error: unknown;
    for (let i = 0; i < 500 && error === undefined; i++) {
      try {
        await store.saveSubscription({ topic: FEED, callback: `https://sub.example/${i}/${big}`, secret: big, leaseSeconds: 60, expiresAt: Date.now() + 60_000 }, Date.now());
        saved += 1;
      } catch (err) {
        error = err;
      }
    }
    expect(String(error)).toMatch(/database or disk is full/);
    expect((await store.listSubscriptions()).length).toBe(saved);

    const body = Buffer.alloc(256 * 1024, 'a');
    const snapshot = { topic: FEED, hash: createHash('sha256').update(body).digest('hex'), contentType: 'text/plain', body };
    await expect(store.recordTopicContent(snapshot, Date.now())).rejects.toThrow(/database or disk is full/);
    // The failed transaction left nothing half-done, and the store keeps working for what fits.
    expect(await store.readTopicSnapshot(FEED)).toBeUndefined();
    expect((await store.listSubscriptions()).length).toBe(saved);
    await store.close();
  });

  it('denies and logs every verified subscription it cannot save (each 202 ends stored or denied), and then answers 503', async () => {
    const { log, lines } = recordingLog();
    const h = await startHubHarness({ ca: t.ca, store: fullStore(), log, hubOptions: { maxPendingVerificationsPerHost: 1_000, maxSubscriptionsPerHost: 1_000 } });
    try {
      const paths = Array.from({ length: 120 }, (_, i) => `/full-${i}-${'p'.repeat(400)}`);
      const accepted: string[] = [];
      for (const p of paths) {
        const answer = await h.subscribe(t.sub.callback(p), h.topics.feedXml, { 'hub.secret': 's'.repeat(200) });
        if (answer.status === 202) accepted.push(p);
        else expect(await answer.json()).toMatchObject({ error: 'hub_unavailable', message: expect.stringMatching(/disk is full/) });
      }
      await h.hub.settled();
      // Once a write failed for lack of space, new requests get 503 until a write fits again.
      expect(accepted.length).toBeLessThan(paths.length);
      const stored = new Set((await h.store.listSubscriptions()).map((s) => new URL(s.callback).pathname));
      const denied = accepted.filter((p) => !stored.has(p));
      expect(stored.size).toBeGreaterThan(0);
      expect(denied.length).toBeGreaterThan(0);
      for (const p of denied) {
        const [denial] = await waitUntil(async () => (t.sub.denials(p).length > 0 ? { value: t.sub.denials(p) } : undefined));
        expect(denial!.query.get('hub.topic')).toBe(h.topics.feedXml);
        expect(denial!.query.get('hub.reason')).toMatch(/could not save/);
      }
      for (const p of stored) expect(t.sub.denials(p)).toHaveLength(0);
      const errors = lines.filter((l) => l.level === 'error' && l.message === 'websub_intent_not_saved');
      expect(errors).toHaveLength(denied.length);
      expect(String(errors[0]!.fields?.error)).toMatch(/database or disk is full/);
      expect(lines.filter((l) => l.message === 'websub_intent_verified')).toHaveLength(stored.size);
    } finally {
      await h.close();
    }
  });
});

describe('PostgreSQL store when the connection is cut mid-run', () => {
  beforeAll(() => assertPostgresUp());
  afterAll(() => dropTestSchemas());

  it('denies the subscription it could not save, and saves again once the database is back', async () => {
    const { proxy, url } = await startPostgresProxy();
    const store = await createPostgresHubStore({ connectionString: url, schema: makeTestSchema('faults'), maxConnections: 2 });
    const { log, lines } = recordingLog();
    const h = await startHubHarness({ ca: t.ca, store, log });
    try {
      const before = t.sub.callback('/pg-before');
      expect((await h.subscribe(before, h.topics.feedXml)).status).toBe(202);
      await h.waitForSubscription(h.topics.feedXml, before);

      // Accepted while the database is up; the connection is cut while the callback takes its time.
      const held = Promise.withResolvers<void>();
      t.sub.behave('/pg-during', { holdVerification: held.promise });
      const during = t.sub.callback('/pg-during');
      expect((await h.subscribe(during, h.topics.feedXml)).status).toBe(202);
      await t.sub.waitForVerification('/pg-during');
      await proxy.cut();
      held.resolve();
      const denial = await t.sub.server.waitForRequest((r) => r.path === '/pg-during' && r.query.get('hub.mode') === 'denied', 10_000);
      expect(denial.query.get('hub.reason')).toMatch(/could not save/);
      expect(lines.some((l) => l.level === 'error' && l.message === 'websub_intent_not_saved')).toBe(true);

      // While it is down, nothing is accepted that could not be kept.
      const refused = await h.subscribe(t.sub.callback('/pg-refused'), h.topics.feedXml);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect(await refused.json()).toMatchObject({ error: 'hub_unavailable' });

      await proxy.restore();
      // Requests are refused until the store passes its next check.
      await waitUntil(async () => (h.hub.storeHealth().ok ? { value: true } : undefined));
      const after = t.sub.callback('/pg-after');
      expect((await h.subscribe(after, h.topics.feedXml)).status).toBe(202);
      await h.waitForSubscription(h.topics.feedXml, after, undefined);
      expect(await h.store.findSubscription(h.topics.feedXml, during)).toBeUndefined();
      expect(await h.store.findSubscription(h.topics.feedXml, before)).toBeDefined();
    } finally {
      await h.close();
      await proxy.close();
    }
  });
});
