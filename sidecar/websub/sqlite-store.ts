/**
 * HubStore in an embedded SQLite file through Node's built-in `node:sqlite` (nothing to install), the
 * default when no DATABASE_URL is set. WAL journal so reads never wait for the writer.
 *
 * The file belongs to one sidecar process: on open, claims left by a previous process (killed mid
 * fan-out) are released at once, so a restart resumes every pending delivery without waiting for claim
 * deadlines. Several instances must share PostgreSQL instead.
 *
 * Every write reports its failure (a full disk, an I/O error): a write with `RETURNING` is stepped to
 * completion with `all()`, because `get()` stops at the first row and an autocommit statement commits
 * only when it completes, so a failed commit would go unseen. After SQLITE_FULL, SQLite has already
 * rolled the transaction back; the original error is the one thrown, never the ROLLBACK's.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { callbackDomainOf, callbackHostOf } from './callback-url.ts';
import type { ClaimedDelivery, CompleteOutcome, HubStore } from './hub-store.ts';
import type { Logger } from '../logger.ts';
import { describeError } from './store-connector.ts';
import { toClaim, toPending, toSnapshot, toSubscription, type Row } from './store-rows.ts';

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

/** Bytes the readiness probe writes (and deletes in the same transaction): about the size of a subscription. */
const PROBE_BYTES = 2 * 1024;


export type SqliteHubStoreOptions = ({ dataDir: string } | { file: string }) & {
  /** Largest size the database may grow to (`PRAGMA max_page_count`): writes past it fail as on a full disk. */
  maxBytes?: number;
  /** Told when an empty store is created where one existed before (`websub_store_recreated`). */
  log?: Logger;
};

/**
 * Columns added since the first schema, for files made before them: the callback's host, registrable
 * domain (filled from the callbacks) and resolved address (known from the next renewal on) for
 * per-callback limits, and each delivery's turn for fair claims.
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

/** The store's file inside DATA_DIR (also read by `npm run backup` and `npm run restore`). */
export const SQLITE_FILE_NAME = 'websub.sqlite';

/** Opens (creating if needed) `websub.sqlite` in `dataDir`, or the exact `file` given. */
export function createSqliteHubStore(options: SqliteHubStoreOptions): HubStore {
  const file = 'file' in options ? options.file : join(options.dataDir, SQLITE_FILE_NAME);
  mkdirSync(dirname(file), { recursive: true });
  // A marker beside the file remembers that a store was made here: a missing file is then a loss, not a first start.
  const marker = `${file}.created`;
  const existed = existsSync(file);
  if (!existed && existsSync(marker)) {
    options.log?.error('websub_store_recreated', {
      file,
      message: `${file} was missing although a store was created there before; starting with an empty one (look for ${file}.rescued-* copies)`,
    });
  }
  const db = new DatabaseSync(file, { enableForeignKeyConstraints: true });
  if (!existed) writeFileSync(marker, `${new Date().toISOString()}\n`);
  const opened = statSync(file);
  /** Set once the path no longer names the open file: every operation then fails with it, so nothing more is acknowledged into a file that is gone. */
  let lost: string | undefined;
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  db.exec(SCHEMA);
  addLaterColumns(db);
  if (options.maxBytes !== undefined) {
    const pageSize = Number((db.prepare('PRAGMA page_size').get() as Row).page_size);
    db.exec(`PRAGMA max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
  }
  db.exec('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL WHERE claim_token IS NOT NULL');

  const transaction = <T>(work: () => T): T => {
    if (lost) throw new Error(lost);
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (err) {
      // SQLITE_FULL and some I/O errors roll back by themselves; a ROLLBACK then would replace `err`.
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
  };
  // Statements are compiled once: a fan-out runs the same few thousands of times.
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    if (lost) throw new Error(lost);
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const get = (sql: string, ...params: (string | number | null | Uint8Array)[]) => prepare(sql).get(...params) as Row | undefined;
  /** A write with RETURNING, stepped to completion so a failed (auto)commit throws. */
  const write = (sql: string, ...params: (string | number | null | Uint8Array)[]) => prepare(sql).all(...params)[0] as Row | undefined;
  const all = (sql: string, ...params: (string | number | null | Uint8Array)[]) => prepare(sql).all(...params) as Row[];
  const run = (sql: string, ...params: (string | number | null | Uint8Array)[]) => Number(prepare(sql).run(...params).changes);

  const completeOne = (claim: ClaimedDelivery, deliveredHash: string, now: number): CompleteOutcome => {
    if (run('DELETE FROM deliveries WHERE subscription_id = ? AND claim_token = ? AND hash = ?', claim.subscriptionId, claim.claimToken, deliveredHash) > 0) {
      return 'done';
    }
    const kept = run(
      `UPDATE deliveries SET attempts = 0, next_attempt_at = ?, claim_token = NULL, claimed_until = NULL
       WHERE subscription_id = ? AND claim_token = ?`,
      now, claim.subscriptionId, claim.claimToken,
    );
    return kept > 0 ? 'newer-pending' : 'lost-claim';
  };

  const store: HubStore = {
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

    async claimDueDeliveries({ now, limit, claimToken, claimUntil }) {
      const rows = transaction(() => {
        // Walks deliveries_turn in order and stops at `limit` (no ranking of everything pending), then
        // claims those rows by their key: nothing scans the table.
        const due = all(
          `SELECT d.subscription_id, d.topic, d.hash, d.attempts, s.callback, s.secret
           FROM deliveries d INDEXED BY deliveries_turn JOIN subscriptions s ON s.id = d.subscription_id
           WHERE d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?) AND s.expires_at > ?
           ORDER BY d.turn, d.next_attempt_at LIMIT ?`,
          now, now, now, limit,
        );
        for (const row of due) run('UPDATE deliveries SET claim_token = ?, claimed_until = ? WHERE subscription_id = ?', claimToken, claimUntil, String(row.subscription_id));
        return due;
      });
      return rows.map((r) => toClaim(r, claimToken));
    },
    async completeDelivery(claim, deliveredHash, now) {
      return transaction(() => completeOne(claim, deliveredHash, now));
    },
    async completeDeliveries(delivered, now) {
      return delivered.length === 0 ? [] : transaction(() => delivered.map(({ claim, hash }) => completeOne(claim, hash, now)));
    },
    async failDelivery(claim, { nextAttemptAt, maxAttempts }) {
      return transaction(() => {
        const row = write(
          `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = ?, claim_token = NULL, claimed_until = NULL
           WHERE subscription_id = ? AND claim_token = ? RETURNING attempts`,
          nextAttemptAt, claim.subscriptionId, claim.claimToken,
        );
        if (!row) return { outcome: 'lost-claim' as const };
        const attempts = Number(row.attempts);
        if (attempts < maxAttempts) return { outcome: 'retry' as const, attempts };
        const removed = write('DELETE FROM subscriptions WHERE id = ? RETURNING *', claim.subscriptionId);
        return { outcome: 'removed' as const, subscription: toSubscription(removed!) };
      });
    },
    async releaseDelivery(claim) {
      run('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL WHERE subscription_id = ? AND claim_token = ?', claim.subscriptionId, claim.claimToken);
    },
    async listPendingDeliveries() {
      return all(
        `SELECT d.*, s.callback FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
         ORDER BY d.next_attempt_at, d.subscription_id`,
      ).map(toPending);
    },
    async countBacklog() {
      const row = get(
        `SELECT (SELECT count(*) FROM subscriptions) AS subscriptions, (SELECT count(*) FROM deliveries) AS pending,
                (SELECT count(*) FROM deliveries WHERE attempts > 0) AS failing`,
      )!;
      return { subscriptions: Number(row.subscriptions), pending: Number(row.pending), failing: Number(row.failing) };
    },

    async check() {
      const identity = sameFile(file, opened);
      if (lost) return { ok: false, problem: lost };
      if (identity !== 'same') {
        // Nothing the hub acknowledged is lost: the open file still holds it, and a copy goes where it can be found.
        lost = `${file} was ${identity} while the hub had it open; everything it held is copied to ${rescueCopy(db, file)}; restart the service to open the store again`;
        return { ok: false, problem: lost };
      }
      // Pages SQLite holds in memory or in its WAL hide a file overwritten on disk: its header tells.
      if (!hasSqliteHeader(file)) return { ok: false, problem: `${file} is corrupt (no SQLite header)` };
      try {
        for (const table of ['subscriptions', 'topics', 'deliveries']) all(`SELECT 1 FROM ${table} LIMIT 1`);
        transaction(() => {
          run('INSERT INTO health_probe (bytes) VALUES (zeroblob(?))', PROBE_BYTES);
          run('DELETE FROM health_probe');
        });
      } catch (err) {
        return { ok: false, problem: `${file} cannot be used (${describeError(err)})` };
      }
      return { ok: true };
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
  return store;
}

/** Whether the path still names the file opened (same device and inode), or what became of it. */
function sameFile(file: string, opened: { dev: number; ino: number }): 'same' | 'deleted' | 'replaced' {
  try {
    const now = statSync(file);
    return now.dev === opened.dev && now.ino === opened.ino ? 'same' : 'replaced';
  } catch {
    return 'deleted';
  }
}

/** Writes a consistent copy of the open database beside its path; returns where (or why not). */
function rescueCopy(db: DatabaseSync, file: string): string {
  const target = `${file}.rescued-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    db.prepare('VACUUM INTO ?').run(target);
    return target;
  } catch (err) {
    return `nowhere: the copy to ${target} failed (${describeError(err)})`;
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0');

function hasSqliteHeader(file: string): boolean {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
