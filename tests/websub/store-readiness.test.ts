/**
 * Readiness tells the truth (issue 24 item 4): the store is checked with a real look on a timer; a SQLite
 * file deleted, replaced or overwritten while open is named, hub requests get 503 naming it, and what the
 * hub held is copied out rather than lost; an empty store made where one existed before is logged.
 */
import { copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import { recordingLog, startHubHarness, waitUntil, type HubHarness } from './harness.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const t = useTestSubscriber();

async function hubOnFile(label: string) {
  const dir = mkdtempSync(join(tmpdir(), `websub-ready-${label}-`));
  const file = join(dir, 'websub.sqlite');
  const h = await startHubHarness({ ca: t.ca, store: createSqliteHubStore({ file }) });
  const paths = Array.from({ length: 5 }, (_, i) => `/ready-${label}-${i}`);
  for (const p of paths) expect((await h.subscribe(t.sub.callback(p), h.topics.feedXml)).status).toBe(202);
  await waitUntil(async () => ((await h.store.listSubscriptions()).length === paths.length ? { value: true } : undefined));
  return { h, dir, file, paths };
}

async function expectFailing(h: HubHarness, problem: RegExp) {
  const health = await waitUntil(async () => {
    const now = h.hub.storeHealth();
    return now.ok ? undefined : { value: now };
  });
  expect(health.problem).toMatch(problem);
  const refused = await h.subscribe(t.sub.callback('/ready-refused'), h.topics.feedXml);
  expect(refused.status).toBe(503);
  expect(await refused.json()).toMatchObject({ error: 'hub_unavailable', message: expect.stringMatching(problem) });
  return health.problem;
}

/** The subscriptions a rescued copy holds. */
async function rescuedCallbacks(dir: string) {
  const copy = readdirSync(dir).find((f) => f.startsWith('websub.sqlite.rescued-'));
  expect(copy).toBeDefined();
  const store = createSqliteHubStore({ file: join(dir, copy!) });
  try {
    return (await store.listSubscriptions()).map((s) => s.callback).sort();
  } finally {
    await store.close();
  }
}

describe('a SQLite file changed under the running hub', () => {
  it('deleted: named, new requests refused, and every acknowledged subscription copied out', async () => {
    const { h, dir, file, paths } = await hubOnFile('deleted');
    try {
      rmSync(file);
      await expectFailing(h, /was deleted/);
      expect(await rescuedCallbacks(dir)).toEqual(paths.map((p) => t.sub.callback(p)).sort());
    } finally {
      await h.close();
    }
  });

  it('deleted: the delivery loop says so in one line, then stays quiet while nothing changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'websub-ready-quiet-'));
    const file = join(dir, 'websub.sqlite');
    const real = createSqliteHubStore({ file });
    // The real store, its delivery claims counted: each is one pass of the delivery loop (every 10 ms).
    let claims = 0;
    const store = { ...real, claimDueDeliveries: (input: Parameters<typeof real.claimDueDeliveries>[0]) => ((claims += 1), real.claimDueDeliveries(input)) };
    const { log, lines } = recordingLog();
    const h = await startHubHarness({ ca: t.ca, store, log });
    try {
      rmSync(file);
      await expectFailing(h, /was deleted/);
      // Passes fail at the claim or before it (the sweep of expired leases); twenty claims take many more passes.
      const counted = claims;
      await waitUntil(async () => (claims >= counted + 20 || lines.filter((l) => l.message === 'websub_delivery_loop_failed').length > 1 ? { value: true } : undefined));
      expect(lines.filter((l) => l.message === 'websub_delivery_loop_failed')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('replaced by another file: named, and the open one copied out', async () => {
    const { h, dir, file, paths } = await hubOnFile('replaced');
    try {
      const other = join(dir, 'other.sqlite');
      await createSqliteHubStore({ file: other }).close();
      rmSync(file);
      copyFileSync(other, file);
      await expectFailing(h, /was replaced/);
      expect(await rescuedCallbacks(dir)).toEqual(paths.map((p) => t.sub.callback(p)).sort());
    } finally {
      await h.close();
    }
  });

  it('overwritten (corrupt): named', async () => {
    const { h, file } = await hubOnFile('corrupt');
    try {
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, 0);
      closeSync(fd);
      await expectFailing(h, /corrupt/);
    } finally {
      await h.close();
    }
  });
});

describe('an empty store where one existed', () => {
  it('is logged when the file is gone at start, and not on a first start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'websub-recreated-'));
    const first = recordingLog();
    await createSqliteHubStore({ dataDir: dir, log: first.log }).close();
    expect(first.lines).toEqual([]);
    expect(existsSync(join(dir, 'websub.sqlite.created'))).toBe(true);

    rmSync(join(dir, 'websub.sqlite'));
    const second = recordingLog();
    await createSqliteHubStore({ dataDir: dir, log: second.log }).close();
    expect(second.lines).toMatchObject([{ level: 'error', message: 'websub_store_recreated', fields: { file: join(dir, 'websub.sqlite') } }]);
  });
});
