/**
 * PostgreSQL for the tests: the run's server (tests/global-setup.ts: DATABASE_URL, or an embedded
 * server started for the run), one schema per test so parallel files never collide. A suite calls
 * `assertPostgresUp()` first: without a server it fails, naming what is missing; it never skips.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { dropPostgresSchema } from '../../sidecar/websub/store/postgres/store.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const postgres = inject('postgres');

/** The run's PostgreSQL URL; empty when there is none (then `assertPostgresUp()` throws). */
export const TEST_DATABASE_URL = postgres.ok ? postgres.url : '';

/** Throws, naming what is missing, when the run has no PostgreSQL server. */
export function assertPostgresUp(): void {
  if (!postgres.ok) throw new Error(postgres.problem);
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

/** The run's PostgreSQL behind a TCP proxy whose `cut()` is a network outage; `url` goes through it. */
export async function startPostgresProxy(): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(TEST_DATABASE_URL);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { proxy, url: url.href };
}
