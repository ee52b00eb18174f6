/**
 * HubStore in PostgreSQL (DATABASE_URL), shared by every sidecar instance. Deliveries are claimed with
 * `FOR UPDATE SKIP LOCKED` plus a claim token and deadline: two instances never claim the same delivery,
 * and a delivery claimed by an instance that died is taken over once its claim deadline passes.
 * Tables live in their own schema (`websub` by default; tests use one per file). Times are BIGINT ms.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { callbackDomainOf, callbackHostOf } from './callback-url.ts';
import type { CompleteOutcome, HubStore } from './hub-store.ts';
import { describeError } from './store-connector.ts';
import { toClaim, toPending, toSnapshot, toSubscription, type Row } from './store-rows.ts';

type Queryable = Pick<pg.PoolClient, 'query'>;

const tablesIn = (s: string) => `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.subscriptions (
  id TEXT PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  secret TEXT,
  lease_seconds INTEGER NOT NULL,
  expires_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (topic, callback)
);
CREATE INDEX IF NOT EXISTS subscriptions_expires_at ON ${s}.subscriptions (expires_at);
CREATE TABLE IF NOT EXISTS ${s}.topics (
  topic TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  content_type TEXT NOT NULL,
  body BYTEA NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS ${s}.deliveries (
  subscription_id TEXT PRIMARY KEY REFERENCES ${s}.subscriptions (id) ON DELETE CASCADE,
  topic TEXT NOT NULL,
  hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  claim_token TEXT,
  claimed_until BIGINT,
  enqueued_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_next_attempt_at ON ${s}.deliveries (next_attempt_at);
ALTER TABLE ${s}.subscriptions ADD COLUMN IF NOT EXISTS callback_host TEXT;
ALTER TABLE ${s}.subscriptions ADD COLUMN IF NOT EXISTS callback_domain TEXT;
ALTER TABLE ${s}.subscriptions ADD COLUMN IF NOT EXISTS callback_address TEXT;
CREATE INDEX IF NOT EXISTS subscriptions_callback_domain ON ${s}.subscriptions (callback_domain);
CREATE INDEX IF NOT EXISTS subscriptions_callback_address ON ${s}.subscriptions (callback_address);
ALTER TABLE ${s}.deliveries ADD COLUMN IF NOT EXISTS turn INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS deliveries_turn ON ${s}.deliveries (turn, next_attempt_at);
`;

export type PostgresHubStoreOptions = {
  connectionString: string;
  /** Schema holding the hub's tables; created if missing. */
  schema?: string;
  /** Most connections this store opens. */
  maxConnections?: number;
};

export async function createPostgresHubStore(options: PostgresHubStoreOptions): Promise<HubStore> {
  const schemaName = options.schema ?? 'websub';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schemaName)) throw new Error(`invalid PostgreSQL schema name: ${schemaName}`);
  const s = `"${schemaName}"`;
  // A bounded connect: an unreachable host fails within seconds instead of hanging the caller.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries in flight report their own error.
  });

  const transaction = async <T>(work: (client: Queryable) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A connection lost while checked out is an 'error' event on the client; the query in flight
    // rejects with it as well, so the event only needs a listener (else it would crash the process).
    let broken: unknown;
    const onError = (err: unknown) => (broken = err);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.off('error', onError);
      // A broken connection is destroyed, not handed back to the pool.
      client.release(broken instanceof Error ? broken : undefined);
    }
  };
  const query = async (sql: string, params: unknown[] = [], on: Queryable = pool) => (await on.query(sql, params)).rows as Row[];

  try {
    // Two instances starting at once would race on CREATE ... IF NOT EXISTS; serialise them.
    await transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`websub-schema:${schemaName}`]);
      // The DDL below takes table locks (ALTER TABLE: ACCESS EXCLUSIVE) that deadlock with the
      // transactions of an instance already running on this schema; an up-to-date schema needs none.
      const { rows: upToDate } = await c.query(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'deliveries' AND column_name = 'turn'`,
        [schemaName],
      );
      if (upToDate.length > 0) return;
      await c.query(tablesIn(s));
      // Schemas made before per-callback limits: fill the new columns from the callbacks.
      const { rows } = await c.query(`SELECT id, callback FROM ${s}.subscriptions WHERE callback_host IS NULL OR callback_domain IS NULL`);
      for (const row of rows as Row[]) {
        const callback = String(row.callback);
        await c.query(`UPDATE ${s}.subscriptions SET callback_host = $1, callback_domain = $2 WHERE id = $3`, [callbackHostOf(callback), callbackDomainOf(callback), row.id]);
      }
    });
  } catch (err) {
    await pool.end();
    throw err;
  }

  const store: HubStore = {
    async saveSubscription(input, now) {
      const [row] = await query(
        `INSERT INTO ${s}.subscriptions (id, topic, callback, secret, lease_seconds, expires_at, created_at, updated_at, callback_host, callback_domain, callback_address)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10)
         ON CONFLICT (topic, callback) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
           expires_at = excluded.expires_at, updated_at = excluded.updated_at,
           callback_address = coalesce(excluded.callback_address, subscriptions.callback_address)
         RETURNING *`,
        [randomUUID(), input.topic, input.callback, input.secret, input.leaseSeconds, input.expiresAt, now,
          callbackHostOf(input.callback), callbackDomainOf(input.callback), input.callbackAddress ?? null],
      );
      return toSubscription(row!);
    },
    async findSubscription(topic, callback) {
      const [row] = await query(`SELECT * FROM ${s}.subscriptions WHERE topic = $1 AND callback = $2`, [topic, callback]);
      return row && toSubscription(row);
    },
    async listSubscriptions(topic) {
      const rows = topic === undefined
        ? await query(`SELECT * FROM ${s}.subscriptions ORDER BY created_at, id`)
        : await query(`SELECT * FROM ${s}.subscriptions WHERE topic = $1 ORDER BY created_at, id`, [topic]);
      return rows.map(toSubscription);
    },
    async countSubscriptionsOf({ domain, address }) {
      const [row] = await query(
        `SELECT (SELECT count(*) FROM ${s}.subscriptions WHERE callback_domain = $1) AS domain,
                (SELECT count(*) FROM ${s}.subscriptions WHERE callback_address = $2) AS address`,
        [domain, address],
      );
      return { domain: Number(row!.domain), address: Number(row!.address) };
    },
    async removeSubscription(topic, callback) {
      const [row] = await query(`DELETE FROM ${s}.subscriptions WHERE topic = $1 AND callback = $2 RETURNING *`, [topic, callback]);
      return row && toSubscription(row);
    },
    async removeSubscriptionById(id) {
      const [row] = await query(`DELETE FROM ${s}.subscriptions WHERE id = $1 RETURNING *`, [id]);
      return row && toSubscription(row);
    },
    async removeExpiredSubscriptions(now) {
      return (await pool.query(`DELETE FROM ${s}.subscriptions WHERE expires_at <= $1`, [now])).rowCount ?? 0;
    },

    async readTopicSnapshot(topic) {
      const [row] = await query(`SELECT * FROM ${s}.topics WHERE topic = $1`, [topic]);
      return row && toSnapshot(row);
    },
    async recordTopicContent(snapshot, now) {
      return transaction(async (c) => {
        // A concurrent writer of the same topic holds the row lock; after it commits, the WHERE sees its
        // hash, so only one of two instances recording the same change fans out.
        const changed = await query(
          `INSERT INTO ${s}.topics (topic, hash, content_type, body, updated_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (topic) DO UPDATE SET hash = excluded.hash, content_type = excluded.content_type,
             body = excluded.body, updated_at = excluded.updated_at
           WHERE topics.hash <> excluded.hash
           RETURNING topic`,
          [snapshot.topic, snapshot.hash, snapshot.contentType, snapshot.body, now],
          c,
        );
        if (changed.length === 0) return { changed: false, enqueued: 0 };
        const result = await c.query(
          `INSERT INTO ${s}.deliveries (subscription_id, topic, hash, attempts, next_attempt_at, enqueued_at, turn)
           SELECT id, topic, $1, 0, $2, $2, row_number() OVER (PARTITION BY callback_domain ORDER BY created_at, id)
           FROM ${s}.subscriptions WHERE topic = $3 AND expires_at > $2
           ON CONFLICT (subscription_id) DO UPDATE SET hash = excluded.hash, enqueued_at = excluded.enqueued_at, turn = excluded.turn`,
          [snapshot.hash, now, snapshot.topic],
        );
        return { changed: true, enqueued: result.rowCount ?? 0 };
      });
    },

    async claimDueDeliveries({ now, limit, claimToken, claimUntil }) {
      const rows = await query(
        // Domains take turns (numbered when the change was recorded): the index on (turn, next_attempt_at)
        // is read in order up to the limit, skipping rows another instance holds.
        `WITH due AS (
           SELECT d.subscription_id FROM ${s}.deliveries d JOIN ${s}.subscriptions sub ON sub.id = d.subscription_id
           WHERE d.next_attempt_at <= $1 AND (d.claimed_until IS NULL OR d.claimed_until <= $1) AND sub.expires_at > $1
           ORDER BY d.turn, d.next_attempt_at LIMIT $2
           FOR UPDATE OF d SKIP LOCKED)
         UPDATE ${s}.deliveries d SET claim_token = $3, claimed_until = $4
         FROM due, ${s}.subscriptions sub
         WHERE d.subscription_id = due.subscription_id AND sub.id = d.subscription_id
         RETURNING d.subscription_id, d.topic, d.hash, d.attempts, d.next_attempt_at, sub.callback, sub.secret`,
        [now, limit, claimToken, claimUntil],
      );
      return rows
        .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at))
        .map((r) => toClaim(r, claimToken));
    },
    async completeDelivery(claim, deliveredHash, now) {
      const deleted = await pool.query(
        `DELETE FROM ${s}.deliveries WHERE subscription_id = $1 AND claim_token = $2 AND hash = $3`,
        [claim.subscriptionId, claim.claimToken, deliveredHash],
      );
      if ((deleted.rowCount ?? 0) > 0) return 'done';
      const kept = await pool.query(
        `UPDATE ${s}.deliveries SET attempts = 0, next_attempt_at = $1, claim_token = NULL, claimed_until = NULL
         WHERE subscription_id = $2 AND claim_token = $3`,
        [now, claim.subscriptionId, claim.claimToken],
      );
      return (kept.rowCount ?? 0) > 0 ? 'newer-pending' : 'lost-claim';
    },
    async completeDeliveries(delivered, now) {
      if (delivered.length === 0) return [];
      // One statement for the batch: the rows whose delivered hash is still pending are done; the
      // others (a newer change arrived meanwhile) stay pending, due now with attempts reset.
      const rows = await query(
        `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS i (subscription_id, claim_token, hash)),
         done AS (
           DELETE FROM ${s}.deliveries d USING input i
           WHERE d.subscription_id = i.subscription_id AND d.claim_token = i.claim_token AND d.hash = i.hash
           RETURNING d.subscription_id),
         kept AS (
           UPDATE ${s}.deliveries d SET attempts = 0, next_attempt_at = $4, claim_token = NULL, claimed_until = NULL
           FROM input i
           WHERE d.subscription_id = i.subscription_id AND d.claim_token = i.claim_token AND d.hash <> i.hash
           RETURNING d.subscription_id)
         SELECT subscription_id, 'done' AS outcome FROM done UNION ALL SELECT subscription_id, 'newer-pending' FROM kept`,
        [delivered.map((d) => d.claim.subscriptionId), delivered.map((d) => d.claim.claimToken), delivered.map((d) => d.hash), now],
      );
      const outcomes = new Map(rows.map((r) => [String(r.subscription_id), r.outcome as CompleteOutcome]));
      return delivered.map((d) => outcomes.get(d.claim.subscriptionId) ?? 'lost-claim');
    },
    async failDelivery(claim, { nextAttemptAt, maxAttempts }) {
      return transaction(async (c) => {
        const [row] = await query(
          `UPDATE ${s}.deliveries SET attempts = attempts + 1, next_attempt_at = $1, claim_token = NULL, claimed_until = NULL
           WHERE subscription_id = $2 AND claim_token = $3 RETURNING attempts`,
          [nextAttemptAt, claim.subscriptionId, claim.claimToken],
          c,
        );
        if (!row) return { outcome: 'lost-claim' as const };
        const attempts = Number(row.attempts);
        if (attempts < maxAttempts) return { outcome: 'retry' as const, attempts };
        const [removed] = await query(`DELETE FROM ${s}.subscriptions WHERE id = $1 RETURNING *`, [claim.subscriptionId], c);
        return { outcome: 'removed' as const, subscription: toSubscription(removed!) };
      });
    },
    async releaseDelivery(claim) {
      await pool.query(
        `UPDATE ${s}.deliveries SET claim_token = NULL, claimed_until = NULL WHERE subscription_id = $1 AND claim_token = $2`,
        [claim.subscriptionId, claim.claimToken],
      );
    },
    async listPendingDeliveries() {
      const rows = await query(
        `SELECT d.*, sub.callback FROM ${s}.deliveries d JOIN ${s}.subscriptions sub ON sub.id = d.subscription_id
         ORDER BY d.next_attempt_at, d.subscription_id`,
      );
      return rows.map(toPending);
    },
    async countBacklog() {
      const [row] = await query(
        `SELECT (SELECT count(*) FROM ${s}.subscriptions) AS subscriptions, (SELECT count(*) FROM ${s}.deliveries) AS pending,
                (SELECT count(*) FROM ${s}.deliveries WHERE attempts > 0) AS failing`,
      );
      return { subscriptions: Number(row!.subscriptions), pending: Number(row!.pending), failing: Number(row!.failing) };
    },

    async check() {
      try {
        for (const table of ['subscriptions', 'topics', 'deliveries']) await query(`SELECT 1 FROM ${s}.${table} LIMIT 1`);
      } catch (err) {
        return { ok: false, problem: `PostgreSQL cannot be used (${describeError(err)})` };
      }
      return { ok: true };
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
  return store;
}

/** Drops a schema and everything in it (tests clean up their own schema with it). */
export async function dropPostgresSchema(connectionString: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
