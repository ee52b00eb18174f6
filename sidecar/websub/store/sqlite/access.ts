/**
 * Statements against the SQLite store, each compiled once (a fan-out runs the same few thousands of
 * times). Every write reports its failure (a full disk, an I/O error): a write with `RETURNING` is stepped
 * to completion with `all()`, because `get()` stops at the first row and an autocommit statement commits
 * only when it completes, so a failed commit would go unseen. After SQLITE_FULL, SQLite has already rolled
 * the transaction back; the original error is the one thrown, never the ROLLBACK's.
 *
 * Every call first asks `refuse()`: once the store is lost (its file deleted or replaced) nothing more is
 * acknowledged into a file that is gone. An error saying the file is corrupt is told to `onCorrupt`.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { sqliteCodeOf } from '../../../../core/sqlite-errors.ts';
import type { Row } from '../rows.ts';

type Param = string | number | null | Uint8Array;

export type SqliteAccess = {
  db: DatabaseSync;
  transaction<T>(work: () => T): T;
  get(sql: string, ...params: Param[]): Row | undefined;
  /** A write with RETURNING, stepped to completion so a failed (auto)commit throws; its first row. */
  write(sql: string, ...params: Param[]): Row | undefined;
  all(sql: string, ...params: Param[]): Row[];
  /** A write without RETURNING; how many rows it changed. */
  run(sql: string, ...params: Param[]): number;
};

/** SQLITE_CORRUPT and SQLITE_NOTADB. */
const CORRUPTION = new Set([11, 26]);

export function createSqliteAccess(db: DatabaseSync, guard: { refuse: () => string | undefined; onCorrupt: (error: unknown) => void }): SqliteAccess {
  const statements = new Map<string, StatementSync>();
  const watched = <T>(work: () => T): T => {
    const refusal = guard.refuse();
    if (refusal) throw new Error(refusal);
    try {
      return work();
    } catch (err) {
      if (CORRUPTION.has(sqliteCodeOf(err) ?? 0)) guard.onCorrupt(err);
      throw err;
    }
  };
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    db,
    transaction: (work) =>
      watched(() => {
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
      }),
    get: (sql, ...params) => watched(() => prepare(sql).get(...params) as Row | undefined),
    write: (sql, ...params) => watched(() => prepare(sql).all(...params)[0] as Row | undefined),
    all: (sql, ...params) => watched(() => prepare(sql).all(...params) as Row[]),
    run: (sql, ...params) => watched(() => Number(prepare(sql).run(...params).changes)),
  };
}
