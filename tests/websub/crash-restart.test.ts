/**
 * Kill the hub in the middle of a fan-out and start it again: every subscriber still gets the newest
 * content. The first hub runs in a child process (trusting the test CA through NODE_EXTRA_CA_CERTS) and
 * is SIGKILLed after a few deliveries; the second starts in process on the same store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import type { HubStore } from '../../sidecar/websub/store/hub-store.ts';
import { FAST_OPTIONS, startHubHarness, waitUntil } from './harness.ts';
import { createMemoryTopics } from './memory-topics.ts';
import { assertPostgresUp, dropTestSchemas, makeTestSchema, TEST_DATABASE_URL } from './postgres.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const SUBSCRIBERS = 24;
const CHILD_MAX_IN_FLIGHT = 4;
const dir = mkdtempSync(join(tmpdir(), 'websub-crash-'));

type StoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; connectionString: string; schema: string };
const backends = [
  { name: 'SQLite', setup: () => {}, config: (): StoreConfig => ({ kind: 'sqlite', file: join(dir, `hub-${randomUUID()}.sqlite`) }) },
  {
    name: 'PostgreSQL',
    setup: assertPostgresUp,
    config: (): StoreConfig => ({ kind: 'postgres', connectionString: TEST_DATABASE_URL, schema: makeTestSchema('crash') }),
  },
];

const openStore = (c: StoreConfig): Promise<HubStore> | HubStore =>
  c.kind === 'sqlite' ? createSqliteHubStore({ file: c.file }) : createPostgresHubStore({ connectionString: c.connectionString, schema: c.schema });

const t = useTestSubscriber();
afterAll(async () => {
  await dropTestSchemas().catch(() => {});
});

function startChildHub(storeConfig: StoreConfig, topicsText: Record<string, { text: string; contentType: string }>): ChildProcess {
  const topicsFile = join(dir, `topics-${randomUUID()}.json`);
  writeFileSync(topicsFile, JSON.stringify(topicsText));
  const configFile = join(dir, `config-${randomUUID()}.json`);
  writeFileSync(
    configFile,
    JSON.stringify({
      store: storeConfig,
      publicBase: 'https://reviews.example',
      topicsFile,
      // Claims of the killed process expire after a second (PostgreSQL); SQLite releases them on open.
      options: { ...FAST_OPTIONS, claimTtlMs: 1_000, maxInFlight: CHILD_MAX_IN_FLIGHT },
      client: { maxConcurrencyPerHost: 2, connectTimeoutMs: 2_000, responseTimeoutMs: 2_000 },
    }),
  );
  return spawn(process.execPath, [join(import.meta.dirname, 'hub-process.ts'), configFile], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: t.ca.certFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

describe.each(backends)('crash and restart mid fan-out on $name', (backend) => {
  beforeAll(() => backend.setup());

  it('every subscriber still gets the newest content, none lost', async () => {
    const storeConfig = backend.config();
    const paths = Array.from({ length: SUBSCRIBERS }, (_, i) => `/${backend.name}-crash-${i}`);
    for (const p of paths) t.sub.behave(p, { notifyDelayMs: 40 });

    // 1. Subscriptions made through a first hub, content v1.
    const first = await startHubHarness({ ca: t.ca, store: await openStore(storeConfig), topics: (base) => createMemoryTopics(base, 'v1') });
    for (const p of paths) await first.subscribe(t.sub.callback(p), first.topics.feedXml);
    await waitUntil(async () => ((await first.store.listSubscriptions()).length === SUBSCRIBERS ? { value: true } : undefined));
    const v2 = createMemoryTopics('https://reviews.example', 'v2');
    // The topics the memory source holds content for (the log's checkpoint topic has none here).
    const v2Text = Object.fromEntries(
      (await Promise.all(v2.topicUrls.map(async (t) => [t, await v2.read(t)] as const)))
        .filter(([, content]) => content !== undefined)
        .map(([t, content]) => [t, { text: content!.body.toString(), contentType: content!.contentType }]),
    );
    await first.close();

    // 2. The hub process starts with v2 (changed while no hub ran), fans out, and is killed mid-way.
    const child = startChildHub(storeConfig, v2Text);
    try {
      const isV2 = (r: { body: Buffer }) => r.body.toString().includes('Reviews v2');
      await waitUntil(async () => (paths.filter((p) => t.sub.notifications(p).some(isV2)).length >= 6 ? { value: true } : undefined), 10_000);
      child.kill('SIGKILL');
      await once(child, 'exit');
      const beforeRestart = paths.filter((p) => t.sub.notifications(p).some(isV2)).length;
      expect(beforeRestart).toBeLessThan(SUBSCRIBERS);

      // 3. A new hub on the same store finishes the fan-out.
      const second = await startHubHarness({ ca: t.ca, store: await openStore(storeConfig), topics: (base) => createMemoryTopics(base, 'v2') });
      try {
        await waitUntil(async () => (paths.every((p) => t.sub.notifications(p).some(isV2)) ? { value: true } : undefined), 10_000);
        await waitUntil(async () => ((await second.store.listPendingDeliveries()).length === 0 ? { value: true } : undefined));
        const all = paths.flatMap((p) => t.sub.notifications(p));
        expect(all.every(isV2)).toBe(true);
        // At most the attempts in flight at the kill are repeated (at-least-once delivery).
        expect(all.length - SUBSCRIBERS).toBeLessThanOrEqual(CHILD_MAX_IN_FLIGHT);
      } finally {
        await second.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
  it('a hub stopped mid fan-out gives its claims back, and the next one finishes at once', async () => {
    const storeConfig = backend.config();
    const paths = Array.from({ length: 12 }, (_, i) => `/${backend.name}-stop-${i}`);
    for (const p of paths) t.sub.behave(p, { notifyDelayMs: 40 });
    const isV2 = (r: { body: Buffer }) => r.body.toString().includes('Reviews v2');

    const first = await startHubHarness({
      ca: t.ca,
      store: await openStore(storeConfig),
      hubOptions: { maxInFlight: 2 },
      client: { maxConcurrencyPerHost: 2 },
      topics: (base) => createMemoryTopics(base, 'v1'),
    });
    for (const p of paths) await first.subscribe(t.sub.callback(p), first.topics.feedXml);
    await waitUntil(async () => ((await first.store.listSubscriptions()).length === paths.length ? { value: true } : undefined));
    first.topics.setAll('v2');
    await first.hub.notifyIfChanged();
    await waitUntil(async () => (paths.some((p) => t.sub.notifications(p).some(isV2)) ? { value: true } : undefined));
    await first.close();
    const pending = paths.filter((p) => !t.sub.notifications(p).some(isV2));
    expect(pending.length).toBeGreaterThan(0);

    // Claims live 5 s (FAST_OPTIONS); finishing well within that shows they were given back.
    const second = await startHubHarness({ ca: t.ca, store: await openStore(storeConfig), topics: (base) => createMemoryTopics(base, 'v2') });
    try {
      await waitUntil(async () => (paths.every((p) => t.sub.notifications(p).some(isV2)) ? { value: true } : undefined), 2_500);
      // Including the attempts cut short by the stop: nothing is left pending.
      await waitUntil(async () => ((await second.store.listPendingDeliveries()).length === 0 ? { value: true } : undefined), 2_500);
    } finally {
      await second.close();
    }
  });
});
