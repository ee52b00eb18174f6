/**
 * HubStore in PostgreSQL (DATABASE_URL), shared by every sidecar instance. Tables live in their own
 * schema (`websub` by default; tests use one per file; schema.ts). Times are BIGINT ms.
 * Queries: access.ts; deliveries and their claims: deliveries.ts.
 */
import { randomUUID } from 'node:crypto';
import { callbackDomainOf, callbackHostOf } from '../../callbacks/url.ts';
import type { HubStore } from '../hub-store.ts';
import { createPostgresAccess } from './access.ts';
import { postgresDeliveries } from './deliveries.ts';
import { prepareSchema, quotedSchema } from './schema.ts';
import { checkPostgresStore, type PostgresCheckState } from './check.ts';
import { toSnapshot, toSubscription } from '../rows.ts';

export { dropPostgresSchema } from './schema.ts';

export type PostgresHubStoreOptions = {
  connectionString: string;
  /** Schema holding the hub's tables; created if missing. */
  schema?: string;
  /** Most connections this store opens. */
  maxConnections?: number;
  /** How often a check reads every row (check.ts); every minute by default. */
  fullReadIntervalMs?: number;
  now?: () => number;
};

export async function createPostgresHubStore(options: PostgresHubStoreOptions): Promise<HubStore> {
  const schemaName = options.schema ?? 'websub';
  const s = quotedSchema(schemaName);
  const checkState: PostgresCheckState = { fullReadIntervalMs: options.fullReadIntervalMs ?? 60_000, now: options.now ?? Date.now };
  const access = createPostgresAccess({ ...options, onCorrupt: () => (checkState.suspect = true) });
  const { pool, query, transaction } = access;
  try {
    await prepareSchema(access, schemaName);
  } catch (err) {
    await pool.end();
    throw err;
  }

  return {
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
        // An unchanged topic is settled by its stored hash, without sending the body (9 MB for
        // /reviews.json at 10k reviews). A concurrent writer of the same topic holds the row lock; after it
        // commits, the upsert's WHERE sees its hash, so only one of two instances recording the same change fans out.
        const [stored] = await query(`SELECT hash FROM ${s}.topics WHERE topic = $1`, [snapshot.topic], c);
        if (stored?.hash === snapshot.hash) return { changed: false, enqueued: 0 };
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
    ...postgresDeliveries(access, s),
    check: () => checkPostgresStore(access, s, checkState),
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
