/** The PostgreSQL store's tables, in their own schema, created or brought up to date at open. */
import pg from 'pg';
import { callbackDomainOf, callbackHostOf } from '../../callbacks/url.ts';
import type { PostgresAccess } from './access.ts';
import type { Row } from '../rows.ts';

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

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema name quoted for SQL; throws on a name that is not a plain identifier. */
export function quotedSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  return `"${schema}"`;
}

/** Creates the tables, or adds what an older schema lacks (filling the new columns from the callbacks). */
export async function prepareSchema({ transaction }: PostgresAccess, schemaName: string): Promise<void> {
  const s = quotedSchema(schemaName);
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
    const { rows } = await c.query(`SELECT id, callback FROM ${s}.subscriptions WHERE callback_host IS NULL OR callback_domain IS NULL`);
    for (const row of rows as Row[]) {
      const callback = String(row.callback);
      await c.query(`UPDATE ${s}.subscriptions SET callback_host = $1, callback_domain = $2 WHERE id = $3`, [callbackHostOf(callback), callbackDomainOf(callback), row.id]);
    }
  });
}

/** Drops a schema and everything in it (tests clean up their own schema with it). */
export async function dropPostgresSchema(connectionString: string, schema: string): Promise<void> {
  const quoted = quotedSchema(schema);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
  } finally {
    await client.end();
  }
}
