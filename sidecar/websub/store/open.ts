/** Picks the hub's store from the configuration (CONTRACT.md "Configuration"): PostgreSQL when DATABASE_URL is set. */
import path from 'node:path';
import type { HubStore } from './hub-store.ts';
import type { Logger } from '../../logger.ts';
import { createPostgresHubStore } from './postgres/store.ts';
import { openSqliteStoreThread } from './sqlite/threaded-store.ts';
import { describeError, redactDatabaseUrl, StoreLockedError } from './connector.ts';

type StoreConfig = { dataDir: string; databaseUrl: string | undefined };

export async function openHubStore(config: StoreConfig, log?: Logger): Promise<HubStore> {
  if (config.databaseUrl) return createPostgresHubStore({ connectionString: config.databaseUrl });
  // On a thread of its own: node:sqlite blocks, and a publish writes megabytes (sqlite/threaded-store.ts).
  return openSqliteStoreThread({ dataDir: config.dataDir, log });
}

/** The failure line's first sentence: which variable, what it points at, and what went wrong. */
export function describeStoreFailure(config: StoreConfig, error: unknown): string {
  if (error instanceof StoreLockedError) return error.message;
  return config.databaseUrl
    ? `WebSub store unavailable: DATABASE_URL ${redactDatabaseUrl(config.databaseUrl)} cannot be used (${describeError(error)}).`
    : `WebSub store unavailable: DATA_DIR ${path.resolve(config.dataDir)} is not a writable folder (${describeError(error)}).`;
}
