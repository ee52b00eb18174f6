/**
 * Queries against the PostgreSQL store: a pool with a bounded connect (an unreachable host fails within
 * seconds instead of hanging the caller), and transactions on one checked-out connection.
 */
import pg from 'pg';
import type { Row } from '../rows.ts';

/** PostgreSQL says the data itself is damaged: SQLSTATE XX001 data_corrupted, XX002 index_corrupted. */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'XX001' || code === 'XX002';
}

export type Queryable = Pick<pg.PoolClient, 'query'>;

export type PostgresAccess = {
  pool: pg.Pool;
  transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T>;
  /** The rows of one statement, on the pool or on a transaction's client. */
  query(sql: string, params?: unknown[], on?: Queryable): Promise<Row[]>;
};

export function createPostgresAccess(options: {
  connectionString: string;
  maxConnections?: number;
  /** Called with an error that says the data is damaged (SQLSTATE XX001/XX002): the next check reads everything. */
  onCorrupt?: () => void;
}): PostgresAccess {
  const noticeCorruption = (err: unknown) => {
    if (isCorruptionError(err)) options.onCorrupt?.();
    throw err;
  };
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries in flight report their own error.
  });
  return {
    pool,
    async transaction(work) {
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
        return noticeCorruption(err);
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed, not handed back to the pool.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    query: async (sql, params = [], on = pool) => (await on.query(sql, params).catch(noticeCorruption)).rows as Row[],
  };
}
