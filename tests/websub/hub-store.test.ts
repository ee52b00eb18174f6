/** One contract for both HubStore implementations: real SQLite files and the real PostgreSQL server. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimedDelivery, HubStore, TopicSnapshot } from '../../sidecar/websub/store/hub-store.ts';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { openSqliteStoreThread } from '../../sidecar/websub/store/sqlite/threaded-store.ts';
import { StoreLockedError } from '../../sidecar/websub/store/sqlite/file.ts';
import { assertPostgresUp, dropTestSchemas, makeTestSchema, TEST_DATABASE_URL } from './postgres.ts';

/** A place a store lives (a file, a schema); `open` may be called several times for several instances. */
type StorePlace = { open(): Promise<HubStore> };
/** `shared`: several instances may open one store at once (PostgreSQL); SQLite refuses a second one. */
type Backend = { name: string; shared: boolean; setup?: () => void; place(): StorePlace; cleanup(): Promise<void> };

const tempDir = mkdtempSync(join(tmpdir(), 'websub-store-'));
let fileCount = 0;

const backends: Backend[] = [
  {
    // As the service opens it (store/open.ts): store/sqlite/store.ts on a thread of its own, each call a message.
    name: 'SQLite (node:sqlite, on its thread)',
    shared: false,
    place() {
      const dataDir = join(tempDir, `store-${++fileCount}`);
      return { open: () => openSqliteStoreThread({ dataDir }) };
    },
    cleanup: async () => rmSync(tempDir, { recursive: true, force: true }),
  },
  {
    name: 'PostgreSQL',
    shared: true,
    setup: assertPostgresUp,
    place() {
      const schema = makeTestSchema('store');
      return { open: () => createPostgresHubStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 }) };
    },
    cleanup: dropTestSchemas,
  },
];

const T0 = 1_700_000_000_000;
const FEED = 'https://reviews.example/feed.xml';
const JSON_FEED = 'https://reviews.example/api/feed.json';

function snapshot(topic: string, text: string, contentType = 'application/atom+xml'): TopicSnapshot {
  const body = Buffer.from(text);
  return { topic, body, contentType, hash: createHash('sha256').update(body).digest('hex') };
}

function subscription(callback: string, overrides: { topic?: string; secret?: string | null; expiresAt?: number } = {}) {
  return { topic: overrides.topic ?? FEED, callback, secret: overrides.secret ?? null, leaseSeconds: 3600, expiresAt: overrides.expiresAt ?? T0 + 3_600_000 };
}

const claimAll = (store: HubStore, now = T0, token = `claim-${now}-${Math.random()}`) =>
  store.claimDueDeliveries({ now, limit: 100, claimToken: token, claimUntil: now + 60_000 });

describe.each(backends)('HubStore on $name', (backend) => {
  const opened: HubStore[] = [];
  let place: StorePlace;
  let store: HubStore;
  const open = async () => {
    const s = await place.open();
    opened.push(s);
    return s;
  };
  /** A second instance on the same store: PostgreSQL's, or undefined once SQLite has refused it as it must. */
  const openOther = async () => {
    if (backend.shared) return open();
    await expect(open()).rejects.toThrow(StoreLockedError);
    return undefined;
  };

  beforeAll(() => backend.setup?.());
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });
  afterAll(() => backend.cleanup());

  const fresh = async () => {
    place = backend.place();
    store = await open();
  };

  describe('subscriptions', () => {
    it('creates a subscription and renews its secret and lease in place', async () => {
      await fresh();
      const created = await store.saveSubscription(subscription('https://a.example/cb', { secret: 's1' }), T0);
      expect(created).toMatchObject({ topic: FEED, callback: 'https://a.example/cb', secret: 's1', leaseSeconds: 3600, createdAt: T0 });
      const renewed = await store.saveSubscription({ ...subscription('https://a.example/cb', { secret: 's2' }), leaseSeconds: 60, expiresAt: T0 + 70_000 }, T0 + 10_000);
      expect(renewed).toMatchObject({ id: created.id, secret: 's2', leaseSeconds: 60, expiresAt: T0 + 70_000, createdAt: T0, updatedAt: T0 + 10_000 });
      expect(await store.findSubscription(FEED, 'https://a.example/cb')).toEqual(renewed);
      expect(await store.listSubscriptions()).toHaveLength(1);
    });

    it('keeps one subscription per topic and callback, and lists them by topic', async () => {
      await fresh();
      await store.saveSubscription(subscription('https://a.example/cb'), T0);
      await store.saveSubscription(subscription('https://a.example/cb', { topic: JSON_FEED }), T0);
      await store.saveSubscription(subscription('https://b.example/cb'), T0);
      expect((await store.listSubscriptions(FEED)).map((s) => s.callback).sort()).toEqual(['https://a.example/cb', 'https://b.example/cb']);
      expect(await store.listSubscriptions(JSON_FEED)).toHaveLength(1);
    });

    it('removes a subscription with its pending delivery', async () => {
      await fresh();
      await store.saveSubscription(subscription('https://a.example/cb'), T0);
      await store.recordTopicContent(snapshot(FEED, 'v1'), T0);
      expect(await store.listPendingDeliveries()).toHaveLength(1);
      expect(await store.removeSubscription(FEED, 'https://a.example/cb')).toMatchObject({ callback: 'https://a.example/cb' });
      expect(await store.removeSubscription(FEED, 'https://a.example/cb')).toBeUndefined();
      expect(await store.listPendingDeliveries()).toEqual([]);
    });

    it('counts its backlog: subscriptions, pending deliveries, and those pending after a failure', async () => {
      await fresh();
      expect(await store.countBacklog()).toEqual({ subscriptions: 0, pending: 0, failing: 0 });
      for (const host of ['a', 'b', 'c']) await store.saveSubscription(subscription(`https://${host}.example/cb`), T0);
      await store.saveSubscription(subscription('https://d.example/cb', { topic: JSON_FEED }), T0);
      await store.recordTopicContent(snapshot(FEED, 'v1'), T0);
      const [claim] = await store.claimDueDeliveries({ now: T0, limit: 1, claimToken: 'count', claimUntil: T0 + 60_000 });
      await store.failDelivery(claim!, { nextAttemptAt: T0 + 5000, maxAttempts: 3 });
      expect(await store.countBacklog()).toEqual({ subscriptions: 4, pending: 3, failing: 1 });
    });

    it('removes subscriptions whose lease has ended', async () => {
      await fresh();
      await store.saveSubscription(subscription('https://old.example/cb', { expiresAt: T0 }), T0 - 1000);
      await store.saveSubscription(subscription('https://new.example/cb', { expiresAt: T0 + 1 }), T0 - 1000);
      expect(await store.removeExpiredSubscriptions(T0)).toBe(1);
      expect((await store.listSubscriptions()).map((s) => s.callback)).toEqual(['https://new.example/cb']);
    });
  });

  describe('topic content', () => {
    it('fans out only when the bytes change, to unexpired subscriptions of that topic', async () => {
      await fresh();
      await store.saveSubscription(subscription('https://a.example/cb'), T0);
      await store.saveSubscription(subscription('https://b.example/cb'), T0);
      await store.saveSubscription(subscription('https://expired.example/cb', { expiresAt: T0 }), T0 - 1000);
      await store.saveSubscription(subscription('https://other.example/cb', { topic: JSON_FEED }), T0);

      expect(await store.recordTopicContent(snapshot(FEED, 'v1'), T0)).toEqual({ changed: true, enqueued: 2 });
      expect(await store.recordTopicContent(snapshot(FEED, 'v1'), T0 + 1)).toEqual({ changed: false, enqueued: 0 });
      const pending = await store.listPendingDeliveries();
      expect(pending.map((p) => p.callback).sort()).toEqual(['https://a.example/cb', 'https://b.example/cb']);
      expect(pending.every((p) => p.hash === snapshot(FEED, 'v1').hash && p.attempts === 0)).toBe(true);
    });

    it('stores the snapshot bytes and content type exactly', async () => {
      await fresh();
      const bytes = snapshot(JSON_FEED, '{"héllo":"wörld"}\u0000\n', 'application/feed+json; charset=utf-8');
      await store.recordTopicContent(bytes, T0);
      const read = await store.readTopicSnapshot(JSON_FEED);
      expect(read?.body.equals(bytes.body)).toBe(true);
      expect(read).toMatchObject({ hash: bytes.hash, contentType: 'application/feed+json; charset=utf-8' });
      expect(await store.readTopicSnapshot(FEED)).toBeUndefined();
    });

    it('replaces a pending older change with the newer one, keeping the failure count', async () => {
      await fresh();
      await store.saveSubscription(subscription('https://a.example/cb'), T0);
      await store.recordTopicContent(snapshot(FEED, 'v1'), T0);
      const [claim] = await claimAll(store);
      await store.failDelivery(claim!, { nextAttemptAt: T0 + 5000, maxAttempts: 3 });
      await store.recordTopicContent(snapshot(FEED, 'v2'), T0 + 1000);
      const pending = await store.listPendingDeliveries();
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatchObject({ hash: snapshot(FEED, 'v2').hash, attempts: 1, nextAttemptAt: T0 + 5000 });
    });

    it('lets exactly one of two instances record the same change', async () => {
      await fresh();
      const other = await openOther();
      if (!other) return;
      await store.saveSubscription(subscription('https://a.example/cb'), T0);
      const results = await Promise.all([store.recordTopicContent(snapshot(FEED, 'v1'), T0), other.recordTopicContent(snapshot(FEED, 'v1'), T0)]);
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      expect(await store.listPendingDeliveries()).toHaveLength(1);
    });
  });

  describe('deliveries', () => {
    const withPending = async (callbacks: string[], text = 'v1') => {
      await fresh();
      for (const cb of callbacks) await store.saveSubscription(subscription(cb, { secret: `secret-of-${cb}` }), T0);
      await store.recordTopicContent(snapshot(FEED, text), T0);
    };

    it('claims due deliveries with what is needed to send them, once until the claim runs out', async () => {
      await withPending(['https://a.example/cb']);
      const [claim, ...rest] = await claimAll(store, T0, 'token-1');
      expect(rest).toEqual([]);
      expect(claim).toMatchObject({ topic: FEED, callback: 'https://a.example/cb', secret: 'secret-of-https://a.example/cb', hash: snapshot(FEED, 'v1').hash, attempts: 0, claimToken: 'token-1' });
      expect(await claimAll(store, T0 + 59_999)).toEqual([]);
      expect(await claimAll(store, T0 + 60_000)).toHaveLength(1);
    });

    it('respects the limit and skips deliveries not yet due or of expired subscriptions', async () => {
      const callbacks = ['https://a.example/cb', 'https://b.example/cb', 'https://c.example/cb'];
      await withPending(callbacks);
      const [first] = await store.claimDueDeliveries({ now: T0, limit: 1, claimToken: 'one', claimUntil: T0 + 60_000 });
      await store.failDelivery(first!, { nextAttemptAt: T0 + 10_000, maxAttempts: 3 });
      const [expiring, remaining] = callbacks.filter((cb) => cb !== first!.callback);
      await store.saveSubscription(subscription(expiring!, { expiresAt: T0 + 1 }), T0);
      const claimed = await claimAll(store, T0 + 1);
      expect(claimed.map((c) => c.callback)).toEqual([remaining]);
    });

    it('removes a delivered delivery, or keeps it due when newer content arrived meanwhile', async () => {
      await withPending(['https://a.example/cb', 'https://b.example/cb']);
      const [a, failing] = await claimAll(store);
      expect(await store.completeDelivery(a!, a!.hash, T0 + 1)).toBe('done');
      await store.failDelivery(failing!, { nextAttemptAt: T0 + 1, maxAttempts: 3 });
      const [b] = await claimAll(store, T0 + 1);
      expect(b).toMatchObject({ subscriptionId: failing!.subscriptionId, attempts: 1 });
      await store.recordTopicContent(snapshot(FEED, 'v2'), T0 + 2);
      // The 2xx resets the failure count even though newer content is still to be sent.
      expect(await store.completeDelivery(b!, b!.hash, T0 + 3)).toBe('newer-pending');
      const again = await claimAll(store, T0 + 3);
      expect(again.map((c) => [c.callback, c.hash, c.attempts])).toEqual(
        expect.arrayContaining([['https://b.example/cb', snapshot(FEED, 'v2').hash, 0], ['https://a.example/cb', snapshot(FEED, 'v2').hash, 0]]),
      );
    });

    it('completes a batch at once: done, newer content pending, or a claim taken over, in input order', async () => {
      await withPending(['https://a.example/cb', 'https://b.example/cb', 'https://c.example/cb']);
      const claims = await claimAll(store, T0, 'batch');
      const byCallback = (cb: string) => claims.find((c) => c.callback === cb)!;
      const [a, b, c] = ['https://a.example/cb', 'https://b.example/cb', 'https://c.example/cb'].map(byCallback);
      const [takenOver] = await store.claimDueDeliveries({ now: T0 + 60_000, limit: 1, claimToken: 'other', claimUntil: T0 + 120_000 });
      const stale = [a, b, c].find((x) => x!.subscriptionId === takenOver!.subscriptionId)!;
      const fresh = [a, b, c].filter((x) => x !== stale);
      await store.recordTopicContent(snapshot(FEED, 'v2'), T0 + 1);
      // fresh[0] delivered the content now pending (v2); fresh[1] the older v1; stale's claim is gone.
      const outcomes = await store.completeDeliveries(
        [{ claim: fresh[0]!, hash: snapshot(FEED, 'v2').hash }, { claim: stale, hash: stale.hash }, { claim: fresh[1]!, hash: fresh[1]!.hash }],
        T0 + 2,
      );
      expect(outcomes).toEqual(['done', 'lost-claim', 'newer-pending']);
      expect(await store.completeDeliveries([], T0 + 3)).toEqual([]);
      const pending = await store.listPendingDeliveries();
      expect(pending.map((p) => [p.callback, p.claimed, p.attempts]).sort()).toEqual([[stale.callback, true, 0], [fresh[1]!.callback, false, 0]].sort());
    });

    it('counts failed attempts and removes the subscription at the limit', async () => {
      await withPending(['https://a.example/cb']);
      const outcomes = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const [claim] = await claimAll(store, T0 + attempt * 1000);
        outcomes.push(await store.failDelivery(claim!, { nextAttemptAt: T0 + (attempt + 1) * 1000, maxAttempts: 3 }));
      }
      expect(outcomes.slice(0, 2)).toEqual([{ outcome: 'retry', attempts: 1 }, { outcome: 'retry', attempts: 2 }]);
      expect(outcomes[2]).toMatchObject({ outcome: 'removed', subscription: { callback: 'https://a.example/cb' } });
      expect(await store.listSubscriptions()).toEqual([]);
      expect(await store.listPendingDeliveries()).toEqual([]);
    });

    it('ignores results from a claim that was taken over', async () => {
      await withPending(['https://a.example/cb']);
      const [stale] = await claimAll(store, T0, 'first');
      const [current] = await claimAll(store, T0 + 60_000, 'second');
      expect(await store.completeDelivery(stale!, stale!.hash, T0 + 60_001)).toBe('lost-claim');
      expect(await store.failDelivery(stale!, { nextAttemptAt: T0, maxAttempts: 1 })).toEqual({ outcome: 'lost-claim' });
      expect(await store.listSubscriptions()).toHaveLength(1);
      expect(await store.completeDelivery(current!, current!.hash, T0 + 60_002)).toBe('done');
    });

    it('gives a released claim back untouched', async () => {
      await withPending(['https://a.example/cb']);
      const [claim] = await claimAll(store);
      await store.releaseDelivery(claim!);
      const [again] = await claimAll(store);
      expect(again).toMatchObject({ subscriptionId: claim!.subscriptionId, attempts: 0 });
    });

    it('never hands the same delivery to two concurrent claimers', async () => {
      const callbacks = Array.from({ length: 30 }, (_, i) => `https://s${i}.example/cb`);
      await withPending(callbacks);
      const other = await openOther();
      if (!other) return;
      const claims: ClaimedDelivery[] = [];
      await Promise.all(
        [store, other].map(async (s, n) => {
          for (let round = 0; round < 12; round++) {
            claims.push(...(await s.claimDueDeliveries({ now: T0, limit: 3, claimToken: `c${n}-${round}`, claimUntil: T0 + 60_000 })));
          }
        }),
      );
      const ids = claims.map((c) => c.subscriptionId);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
    });
  });

  it('keeps subscriptions, snapshots and pending deliveries across a reopen', async () => {
    await fresh();
    await store.saveSubscription(subscription('https://a.example/cb', { secret: 'kept' }), T0);
    await store.recordTopicContent(snapshot(FEED, 'v1'), T0);
    await store.close();
    store = await open();
    expect(await store.findSubscription(FEED, 'https://a.example/cb')).toMatchObject({ secret: 'kept' });
    expect((await store.readTopicSnapshot(FEED))?.hash).toBe(snapshot(FEED, 'v1').hash);
    expect(await store.listPendingDeliveries()).toHaveLength(1);
  });
});
