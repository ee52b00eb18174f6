/**
 * HubStore in an embedded SQLite file through Node's built-in `node:sqlite` (nothing to install), the
 * default when no DATABASE_URL is set.
 *
 * The file belongs to one sidecar process: a lock beside it keeps a second process out (file.ts),
 * and on open, claims left by a previous process (killed mid fan-out) are released at once, so a restart
 * resumes every pending delivery without waiting for claim deadlines. Several instances must share
 * PostgreSQL instead. Statements: access.ts; deliveries: deliveries.ts; `check()`:
 * check.ts.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { callbackDomainOf, callbackHostOf } from '../../callbacks/url.ts';
import type { HubStore } from '../hub-store.ts';
import type { Logger } from '../../../logger.ts';
import { createSqliteAccess } from './access.ts';
import { checkSqliteStore, type SqliteCheckState } from './check.ts';
import { sqliteDeliveries } from './deliveries.ts';
import { identityOf, lockStoreFile } from './file.ts';
import { prepareSchema } from './schema.ts';
import { toSnapshot, toSubscription } from '../rows.ts';

export type SqliteHubStoreOptions = ({ dataDir: string } | { file: string }) & {
  /** Largest size the database may grow to (`PRAGMA max_page_count`): writes past it fail as on a full disk. */
  maxBytes?: number;
  /** Told when an empty store is created where one existed before (`websub_store_recreated`). */
  log?: Logger;
  /** How often `check()` also reads every page (`PRAGMA quick_check`, about 15 ms for a 6 MB store); default a minute. */
  integrityCheckIntervalMs?: number;
  now?: () => number;
};

/** The store's file inside DATA_DIR (also read by `npm run backup` and `npm run restore`). */
export const SQLITE_FILE_NAME = 'websub.sqlite';

/** Opens (creating if needed) `websub.sqlite` in `dataDir`, or the exact `file` given; throws StoreLockedError while another process has it. */
export function createSqliteHubStore(options: SqliteHubStoreOptions): HubStore {
  const file = 'file' in options ? options.file : join(options.dataDir, SQLITE_FILE_NAME);
  mkdirSync(dirname(file), { recursive: true });
  const lock = lockStoreFile(file);
  let db: DatabaseSync;
  try {
    db = openDatabase(file, options);
  } catch (err) {
    lock.release();
    throw err;
  }
  const state: SqliteCheckState = {
    file,
    opened: identityOf(file)!,
    wal: identityOf(`${file}-wal`),
    integrityCheckIntervalMs: options.integrityCheckIntervalMs ?? 60_000,
    now: options.now ?? Date.now,
  };
  const access = createSqliteAccess(db, { refuse: () => state.lost, onCorrupt: () => (state.suspect = true) });
  const { get, write, all, run, transaction } = access;

  return {
    async saveSubscription(input, now) {
      const row = write(
        `INSERT INTO subscriptions (id, topic, callback, secret, lease_seconds, expires_at, created_at, updated_at, callback_host, callback_domain, callback_address)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (topic, callback) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
           expires_at = excluded.expires_at, updated_at = excluded.updated_at,
           callback_address = coalesce(excluded.callback_address, subscriptions.callback_address)
         RETURNING *`,
        randomUUID(), input.topic, input.callback, input.secret, input.leaseSeconds, input.expiresAt, now, now,
        callbackHostOf(input.callback), callbackDomainOf(input.callback), input.callbackAddress ?? null,
      );
      return toSubscription(row!);
    },
    async findSubscription(topic, callback) {
      const row = get('SELECT * FROM subscriptions WHERE topic = ? AND callback = ?', topic, callback);
      return row && toSubscription(row);
    },
    async listSubscriptions(topic) {
      const rows = topic === undefined
        ? all('SELECT * FROM subscriptions ORDER BY created_at, id')
        : all('SELECT * FROM subscriptions WHERE topic = ? ORDER BY created_at, id', topic);
      return rows.map(toSubscription);
    },
    async countSubscriptionsOf({ domain, address }) {
      return {
        domain: Number(get('SELECT count(*) AS n FROM subscriptions WHERE callback_domain = ?', domain)!.n),
        address: Number(get('SELECT count(*) AS n FROM subscriptions WHERE callback_address = ?', address)!.n),
      };
    },
    async removeSubscription(topic, callback) {
      const row = write('DELETE FROM subscriptions WHERE topic = ? AND callback = ? RETURNING *', topic, callback);
      return row && toSubscription(row);
    },
    async removeSubscriptionById(id) {
      const row = write('DELETE FROM subscriptions WHERE id = ? RETURNING *', id);
      return row && toSubscription(row);
    },
    async removeExpiredSubscriptions(now) {
      return run('DELETE FROM subscriptions WHERE expires_at <= ?', now);
    },
    async readTopicSnapshot(topic) {
      const row = get('SELECT * FROM topics WHERE topic = ?', topic);
      return row && toSnapshot(row);
    },
    async recordTopicContent(snapshot, now) {
      return transaction(() => {
        // The stored hash comes first, alone: an unchanged topic (most of them at every publish, 9 MB
        // for /reviews.json at 10k reviews) then costs one indexed read, not a blob bound and compared.
        if (get('SELECT hash FROM topics WHERE topic = ?', snapshot.topic)?.hash === snapshot.hash) return { changed: false, enqueued: 0 };
        const changed = write(
          `INSERT INTO topics (topic, hash, content_type, body, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (topic) DO UPDATE SET hash = excluded.hash, content_type = excluded.content_type,
             body = excluded.body, updated_at = excluded.updated_at
           WHERE topics.hash <> excluded.hash
           RETURNING topic`,
          snapshot.topic, snapshot.hash, snapshot.contentType, snapshot.body, now,
        );
        if (!changed) return { changed: false, enqueued: 0 };
        // Turns are numbered here, once per change: each domain's first subscriber is turn 1, and so on.
        const enqueued = run(
          `INSERT INTO deliveries (subscription_id, topic, hash, attempts, next_attempt_at, enqueued_at, turn)
           SELECT id, topic, ?, 0, ?, ?, row_number() OVER (PARTITION BY callback_domain ORDER BY created_at, id)
           FROM subscriptions WHERE topic = ? AND expires_at > ?
           ON CONFLICT (subscription_id) DO UPDATE SET hash = excluded.hash, enqueued_at = excluded.enqueued_at, turn = excluded.turn`,
          snapshot.hash, now, now, snapshot.topic, now,
        );
        return { changed: true, enqueued };
      });
    },
    ...sqliteDeliveries(access),
    check: async () => checkSqliteStore(access, state),
    async close() {
      if (db.isOpen) db.close();
      lock.release();
    },
  };
}

/**
 * Opens the file with its schema. A marker beside it remembers that a store was made here: a missing
 * file is then a loss (`websub_store_recreated`), not a first start.
 */
function openDatabase(file: string, options: SqliteHubStoreOptions): DatabaseSync {
  const marker = `${file}.created`;
  const existed = existsSync(file);
  if (!existed && existsSync(marker)) {
    options.log?.error('websub_store_recreated', {
      file,
      message: `${file} was missing although a store was created there before; starting with an empty one (look for ${file}.rescued-* copies)`,
    });
  }
  const db = new DatabaseSync(file, { enableForeignKeyConstraints: true });
  try {
    if (!existed) writeFileSync(marker, `${new Date().toISOString()}\n`);
    prepareSchema(db, options.maxBytes);
    db.exec('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL WHERE claim_token IS NOT NULL');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
