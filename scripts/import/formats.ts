/** The import formats and the sync sources, in the order the usage texts list them: one row each. */
import { csvFormat } from './csv.ts';
import { googleFormat } from './google.ts';
import type { ImportFormat } from './import-format.ts';
import { jsonFormat } from './service-json.ts';
import { googleSync } from '../sync/google-sync.ts';
import type { SyncSource } from '../sync/sync-source.ts';

export const IMPORT_FORMATS: readonly ImportFormat[] = [googleFormat, csvFormat, jsonFormat];

/** The sync sources (`npm run sync -- <name>`): APIs read on a schedule, each mapped by the import format of its row. */
export const SYNC_SOURCES: readonly SyncSource[] = [googleSync];
