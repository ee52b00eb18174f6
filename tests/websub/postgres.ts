/**
 * PostgreSQL for the websub tests: the server on this machine (docs/HELPERS.md), one schema per test so
 * parallel files never collide. When PostgreSQL is down the suites skip locally but fail under CI=true.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { dropPostgresSchema } from '../../sidecar/websub/postgres-store.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function isPostgresUp(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const postgresUp = await isPostgresUp();

/** Run PostgreSQL suites when the server is up, and always in CI (where a missing server must fail them). */
export const runPostgresSuites = postgresUp || process.env.CI === 'true';

/** Throws in CI when PostgreSQL is down, so the suite fails instead of passing vacuously. */
export function assertPostgresUp(): void {
  if (!postgresUp) throw new Error(`PostgreSQL is not reachable at ${TEST_DATABASE_URL} (CI=true: failing, not skipping)`);
}

const created = new Set<string>();

/** A fresh schema name; dropped by `dropTestSchemas()`. */
export function makeTestSchema(label: string): string {
  const name = `websub_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  created.add(name);
  return name;
}

export async function dropTestSchemas(): Promise<void> {
  for (const schema of created) await dropPostgresSchema(TEST_DATABASE_URL, schema);
  created.clear();
}
