/**
 * The PostgreSQL store's check (issue 31 item 8): its frequent query reads one page per table, so a page
 * damaged further in passes it; the full read it makes now and then (and after a corruption error) reads
 * every page, fails naming the damage, and keeps the store failing. Real PostgreSQL (the run's server):
 * the table's last page is overwritten on disk and dropped from PostgreSQL's buffer cache
 * (pg_buffercache, in the test's own schema), so the next read of it comes from the damaged file.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { assertPostgresUp, dropTestSchemas, makeTestSchema, TEST_DATABASE_URL } from './postgres.ts';

const T0 = 1_700_000_000_000;
const FEED = 'https://reviews.example/feed.xml';
const PAGE = 8192;

beforeAll(() => assertPostgresUp());
afterAll(() => dropTestSchemas());

describe('PostgreSQL store check', () => {
  it('passes its frequent query over a damaged page, fails its full read naming it, and stays failing', async () => {
    const schema = makeTestSchema('check');
    let now = T0;
    const store = await createPostgresHubStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2, fullReadIntervalMs: 60_000, now: () => now });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const table = `"${schema}".subscriptions`;
      // Nothing but the test may read the table's pages back into the cache.
      await admin.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
      for (let i = 0; i < 400; i++) {
        await store.saveSubscription({ topic: FEED, callback: `https://sub${i}.example/callback/${'x'.repeat(100)}`, secret: null, leaseSeconds: 3600, expiresAt: T0 + 3_600_000 }, T0);
      }
      expect(await store.check()).toEqual({ ok: true });

      // The last page of the table, overwritten on disk and dropped from the buffer cache.
      await admin.query('CHECKPOINT');
      const { rows: [dir] } = await admin.query('SHOW data_directory');
      const { rows: [rel] } = await admin.query('SELECT pg_relation_filepath($1::regclass) AS file', [table]);
      const file = await open(path.join(dir.data_directory, rel.file), 'r+');
      const { size } = await file.stat();
      expect(size).toBeGreaterThan(2 * PAGE);
      await file.write(Buffer.alloc(PAGE, 0xab), 0, PAGE, size - PAGE);
      await file.close();
      await admin.query(`CREATE EXTENSION IF NOT EXISTS pg_buffercache SCHEMA "${schema}"`);
      await admin.query(`SELECT * FROM "${schema}".pg_buffercache_evict_relation($1::regclass)`, [table]);

      // The frequent check reads the first page only: the damage is not seen.
      now += 5_000;
      expect(await store.check()).toEqual({ ok: true });
      // The full read, a minute on, reads it.
      now += 60_000;
      const damaged = await store.check();
      expect(damaged).toEqual({ ok: false, problem: expect.stringMatching(/^the hub's tables in PostgreSQL are damaged \(.*invalid page in block \d+ of relation/) });
      // And every later check reads everything again until a full read passes.
      now += 5_000;
      expect(await store.check()).toEqual(damaged);
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
