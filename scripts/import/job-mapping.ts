/**
 * How a job export's columns map to a job, for a CSV that is none of the known layouts or whose headers
 * were renamed: a small JSON file (`--mapping jobs-mapping.json`), flags (`--column completed="Done on"`),
 * or both, the flags winning. Also the service every job without one of its own gets (`--service`).
 *
 *   { "columns": { "id": "WO", "completed": "Done on", "service": "Kind" }, "service": "ac-repair", "delimiter": ";", "day_first": false }
 */
import { z } from 'zod';
import { SlugSchema } from '../../core/schemas/content.ts';
import { HeaderSchema, READING_FLAGS, READING_OPTIONS, readMapping, type MappingFlags } from './csv-mapping.ts';
import type { Flag } from './import-format.ts';
import { JOB_COLUMNS } from './job-layouts.ts';

export const JobMappingSchema = z.strictObject({
  /** Column headers, case-insensitive; a column left out is looked for under the layout's headers. */
  columns: z.strictObject(Object.fromEntries(JOB_COLUMNS.map((c) => [c, HeaderSchema.optional()])) as Record<(typeof JOB_COLUMNS)[number], z.ZodOptional<typeof HeaderSchema>>).default({}),
  /** The service id of business.json for a job whose service column is empty, or a file without one. */
  service: SlugSchema.optional(),
  ...READING_OPTIONS,
});

export type JobMapping = z.infer<typeof JobMappingSchema>;

/** The flags only `npm run import -- jobs` takes. */
export const JOB_FLAGS: readonly Flag[] = [
  { name: 'service', type: 'string', arg: '<id>', help: 'the service id of a job whose service column is empty or missing' },
  { name: 'mapping', type: 'string', arg: '<file.json>', help: '{ "columns": { "completed": "Done on", … }, "service", "delimiter", "day_first" }' },
  { name: 'column', type: 'string', multiple: true, arg: '<field>=<header>', help: `map a column (${JOB_COLUMNS.join(', ')}); repeatable` },
  ...READING_FLAGS,
];

type JobFlags = MappingFlags & { service?: string };

/** The mapping from a mapping file and the flags, the flags winning; every problem at once. */
export function readJobMapping(f: JobFlags): Promise<{ ok: true; mapping: JobMapping } | { ok: false; message: string }> {
  return readMapping(JobMappingSchema, f, { example: 'completed="Completed date"', own: { ...(f.service !== undefined && { service: f.service }) } });
}
