/** The import formats, the job export layouts and the sync sources, in the order the usage texts list them: one row each. */
import { csvFormat } from './csv.ts';
import { googleFormat } from './google.ts';
import type { ImportFormat } from './import-format.ts';
import { housecallProLayout, jobberLayout, serviceTitanLayout, type JobLayout } from './job-layouts.ts';
import { jsonFormat } from './service-json.ts';
import { googleSync } from '../sync/google-sync.ts';
import type { SyncSource } from '../sync/sync-source.ts';

export const IMPORT_FORMATS: readonly ImportFormat[] = [googleFormat, csvFormat, jsonFormat];

/**
 * The job exports `npm run import -- jobs` recognises (job-layouts.ts), tried in this order; a file that
 * is none of them is read as a CSV with mapped columns. Jobs are another target than reviews (jobs/,
 * their own schema, no media, nothing pruned), hence a table of their own rather than rows above.
 */
export const JOB_LAYOUTS: readonly JobLayout[] = [jobberLayout, housecallProLayout, serviceTitanLayout];

/** The sync sources (`npm run sync -- <name>`): APIs read on a schedule, each mapped by the import format of its row. */
export const SYNC_SOURCES: readonly SyncSource[] = [googleSync];
