/**
 * Two hub instances on one PostgreSQL database (as two sidecars with the same DATABASE_URL): a change
 * that both notice is fanned out once, and between them they deliver it to each subscriber once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { startHubHarness, waitUntil, type HubHarness } from './harness.ts';
import { createMemoryTopics } from './memory-topics.ts';
import { assertPostgresUp, dropTestSchemas, makeTestSchema, TEST_DATABASE_URL } from './postgres.ts';
import { startSubscriber, type Subscriber } from './subscriber.ts';

const SUBSCRIBERS = 40;

describe('two hub instances on one PostgreSQL database', () => {
  let ca: TestCa;
  let sub: Subscriber;
  let a: HubHarness;
  let b: HubHarness;

  beforeAll(async () => {
    assertPostgresUp();
    ca = createTestCa();
    sub = await startSubscriber(ca);
    const schema = makeTestSchema('instances');
    const open = () => createPostgresHubStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 });
    const hubOptions = { maxInFlight: 4 };
    [a, b] = await Promise.all([
      startHubHarness({ ca, store: await open(), hubOptions, client: { userAgent: 'hub-a' }, topics: (base) => createMemoryTopics(base, 'v1') }),
      startHubHarness({ ca, store: await open(), hubOptions, client: { userAgent: 'hub-b' }, topics: (base) => createMemoryTopics(base, 'v1') }),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sub?.close();
    ca?.remove();
    await dropTestSchemas();
  });

  it('deliver each notification to each subscriber exactly once between them', async () => {
    const paths = Array.from({ length: SUBSCRIBERS }, (_, i) => `/instances-${i}`);
    for (const [i, p] of paths.entries()) {
      sub.behave(p, { notifyDelayMs: 15 });
      // Subscriptions arrive at either instance; both see them all.
      await (i % 2 ? a : b).subscribe(sub.callback(p), a.topics.feedJson);
    }
    await waitUntil(async () => ((await b.store.listSubscriptions()).length === SUBSCRIBERS ? { value: true } : undefined));

    // The new build reaches both instances; each re-reads its topics at once.
    a.topics.setAll('v2');
    b.topics.setAll('v2');
    const [checkA, checkB] = await Promise.all([a.hub.notifyIfChanged(), b.hub.notifyIfChanged()]);
    const fanOuts = [...checkA, ...checkB].filter((c) => c.topic === a.topics.feedJson && c.changed);
    expect(fanOuts).toHaveLength(1);

    await waitUntil(async () => (paths.every((p) => sub.notifications(p).length > 0) ? { value: true } : undefined), 10_000);
    await Promise.all([a.hub.drained(), b.hub.drained()]);
    expect(paths.map((p) => sub.notifications(p).length)).toEqual(paths.map(() => 1));
    const byInstance = (agent: string) => paths.flatMap((p) => sub.notifications(p)).filter((r) => r.headers['user-agent'] === agent).length;
    expect(byInstance('hub-a') + byInstance('hub-b')).toBe(SUBSCRIBERS);
    expect(byInstance('hub-a')).toBeGreaterThan(0);
    expect(byInstance('hub-b')).toBeGreaterThan(0);
  });
});
