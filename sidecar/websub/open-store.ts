/** Picks the hub's store from the configuration (CONTRACT.md "Configuration"): PostgreSQL when DATABASE_URL is set. */
import type { HubStore } from './hub-store.ts';
import { createPostgresHubStore } from './postgres-store.ts';
import { createSqliteHubStore } from './sqlite-store.ts';

export async function openHubStore(config: { dataDir: string; databaseUrl: string | undefined }): Promise<HubStore> {
  if (config.databaseUrl) return createPostgresHubStore({ connectionString: config.databaseUrl });
  return createSqliteHubStore({ dataDir: config.dataDir });
}
