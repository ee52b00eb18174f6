/**
 * The PostgreSQL store's `check()` (readiness, every `storeCheckIntervalMs`): one cheap query per table,
 * which proves the connection and the tables but reads a single page of each. Now and then
 * (`fullReadIntervalMs`), and on every check after an error that said the data is corrupt (SQLSTATE class
 * XX: `data_corrupted`, `index_corrupted`), a full read: every row of every table through a sequential
 * scan, each value detoasted (so every heap and TOAST page is read), then every row again through each
 * table's primary-key index. PostgreSQL reports a damaged page or a missing TOAST chunk only when it reads
 * it, so this is what finds damage the cheap query walks past; the store stays failing until one passes.
 * `amcheck` would verify more but needs an extension and its privileges, which the service does not ask for.
 */
import type { StoreCheck } from '../hub-store.ts';
import { isCorruptionError, type PostgresAccess } from './access.ts';
import { describeError } from '../connector.ts';

const TABLES = ['subscriptions', 'topics', 'deliveries'] as const;

export type PostgresCheckState = {
  fullReadIntervalMs: number;
  now: () => number;
  /** Set by an error that said the data is corrupt; cleared by a full read that passes. */
  suspect?: boolean;
  lastFullRead?: number;
};

export async function checkPostgresStore(access: PostgresAccess, s: string, state: PostgresCheckState): Promise<StoreCheck> {
  try {
    for (const table of TABLES) await access.query(`SELECT 1 FROM ${s}.${table} LIMIT 1`);
  } catch (err) {
    if (isCorruptionError(err)) state.suspect = true;
    return { ok: false, problem: `PostgreSQL cannot be used (${describeError(err)})` };
  }
  if (!state.suspect && state.lastFullRead !== undefined && state.now() - state.lastFullRead < state.fullReadIntervalMs) return { ok: true };
  try {
    await readEveryRow(access, s);
  } catch (err) {
    if (!isCorruptionError(err)) return { ok: false, problem: `PostgreSQL cannot be used (${describeError(err)})` };
    state.suspect = true;
    return { ok: false, problem: `the hub's tables in PostgreSQL are damaged (${describeError(err)})` };
  }
  state.suspect = false;
  state.lastFullRead = state.now();
  return { ok: true };
}

/** Reads every page of every table, its TOAST and its primary-key index; rejects with PostgreSQL's error for a damaged one. */
async function readEveryRow({ transaction }: PostgresAccess, s: string): Promise<void> {
  await transaction(async (c) => {
    // A snapshot that reads only: nothing is locked beyond what a SELECT takes, writers carry on.
    await c.query('SET TRANSACTION READ ONLY');
    for (const table of TABLES) {
      await c.query('SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off; SET LOCAL enable_bitmapscan = off');
      // row::text detoasts every column, so a TOAST chunk that is gone fails here.
      await c.query(`SELECT count(md5(t::text)) FROM ${s}.${table} t`);
      await c.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = on; SET LOCAL enable_indexonlyscan = on; SET LOCAL enable_bitmapscan = off');
      await c.query(`SELECT count(*) FROM ${s}.${table} WHERE ${PRIMARY_KEY[table]} IS NOT NULL`);
    }
  });
}

const PRIMARY_KEY: Record<(typeof TABLES)[number], string> = { subscriptions: 'id', topics: 'topic', deliveries: 'subscription_id' };
