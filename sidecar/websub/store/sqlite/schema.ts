/** The SQLite store's tables, and the columns added since the first schema (for files made before them). */
import type { DatabaseSync } from 'node:sqlite';
import { callbackDomainOf, callbackHostOf } from '../../callbacks/url.ts';
import type { Row } from '../rows.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id TEXT PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  secret TEXT,
  lease_seconds INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (topic, callback)
);
CREATE INDEX IF NOT EXISTS subscriptions_expires_at ON subscriptions (expires_at);
CREATE TABLE IF NOT EXISTS topics (
  topic TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  content_type TEXT NOT NULL,
  body BLOB NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS deliveries (
  subscription_id TEXT PRIMARY KEY REFERENCES subscriptions (id) ON DELETE CASCADE,
  topic TEXT NOT NULL,
  hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  claim_token TEXT,
  claimed_until INTEGER,
  enqueued_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_next_attempt_at ON deliveries (next_attempt_at);
CREATE TABLE IF NOT EXISTS health_probe (bytes BLOB);
`;

/** Creates the tables (WAL journal, so reads never wait for the writer) and brings an older file up to date. */
export function prepareSchema(db: DatabaseSync, maxBytes: number | undefined): void {
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  db.exec(SCHEMA);
  addLaterColumns(db);
  if (maxBytes !== undefined) {
    const pageSize = Number((db.prepare('PRAGMA page_size').get() as Row).page_size);
    db.exec(`PRAGMA max_page_count = ${Math.max(1, Math.floor(maxBytes / pageSize))}`);
  }
}

/**
 * Columns added since the first schema: the callback's host, registrable domain (filled from the
 * callbacks) and resolved address (known from the next renewal on) for per-callback limits, and each
 * delivery's turn for fair claims.
 */
function addLaterColumns(db: DatabaseSync): void {
  const columnsOf = (table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).map((c) => String(c.name));
  const subscriptionColumns = columnsOf('subscriptions');
  if (!subscriptionColumns.includes('callback_host')) db.exec('ALTER TABLE subscriptions ADD COLUMN callback_host TEXT');
  if (!subscriptionColumns.includes('callback_domain')) {
    db.exec('ALTER TABLE subscriptions ADD COLUMN callback_domain TEXT; ALTER TABLE subscriptions ADD COLUMN callback_address TEXT');
    const update = db.prepare('UPDATE subscriptions SET callback_host = ?, callback_domain = ? WHERE id = ?');
    for (const row of db.prepare('SELECT id, callback FROM subscriptions').all() as Row[]) {
      update.run(callbackHostOf(String(row.callback)), callbackDomainOf(String(row.callback)), String(row.id));
    }
  }
  if (!columnsOf('deliveries').includes('turn')) db.exec('ALTER TABLE deliveries ADD COLUMN turn INTEGER NOT NULL DEFAULT 0');
  db.exec(`CREATE INDEX IF NOT EXISTS subscriptions_callback_domain ON subscriptions (callback_domain);
    CREATE INDEX IF NOT EXISTS subscriptions_callback_address ON subscriptions (callback_address);
    CREATE INDEX IF NOT EXISTS deliveries_turn ON deliveries (turn, next_attempt_at)`);
}
