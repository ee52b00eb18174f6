/** The command line of `npm run import`, parsed and checked in one place (every problem at once). */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { COLUMN_FIELDS, CsvMappingSchema, type CsvMapping } from './csv-mapping.ts';
import { isTimeZone } from './values.ts';

export const USAGE = `usage: npm run import -- <google|csv|json> <file…> [options]

  google   Google Business Profile reviews: a Takeout reviews file or Business Profile API pages
  csv      any CSV export (Yelp, Angi, Facebook, a CRM, a form): --source and the column mapping
  json     the service's own /reviews.json (another instance, or a backup)

  --dry-run                 print what would change, write nothing
  --prune                   remove reviews of this source that the export no longer lists (json: all)
  --strict                  refuse the whole import if any review is invalid
  --author-style initials   publish "Latoya W." rather than "Latoya Williams"
  --unverified              add new reviews with verified: false, to publish them one by one
  --time-zone <zone>        the business's time zone for Google's timestamps (default UTC)
  csv only:
  --source <slug>           where the reviews come from: yelp, angi, facebook, direct…
  --mapping <file.json>     { "source", "columns": { "text": "Review Text", … }, "delimiter", "day_first" }
  --column <field>=<header> map a column (${COLUMN_FIELDS.join(', ')}); repeatable
  --delimiter <char>        , ; | or tab (guessed from the header line otherwise)
  --day-first               read 03/04/2026 as 3 April

The reviews are written into CONTENT_DIR (default content/).`;

export type ImportFormat = 'google' | 'csv' | 'json';

export type ImportOptions = {
  format: ImportFormat;
  files: string[];
  dryRun: boolean;
  prune: boolean;
  strict: boolean;
  authorStyle: 'full' | 'initials';
  verified: boolean;
  timeZone: string;
  /** csv only */
  mapping?: CsvMapping;
};

const FlagsSchema = z.strictObject({
  'dry-run': z.boolean().default(false),
  prune: z.boolean().default(false),
  strict: z.boolean().default(false),
  unverified: z.boolean().default(false),
  'author-style': z.enum(['full', 'initials']).default('full'),
  'time-zone': z.string().refine(isTimeZone, 'is not a time zone name (e.g. America/Chicago)').default('UTC'),
  source: z.string().optional(),
  mapping: z.string().optional(),
  column: z.array(z.string()).default([]),
  delimiter: z.string().optional(),
  'day-first': z.boolean().default(false),
});

export async function parseImportArgs(argv: readonly string[]): Promise<{ ok: true; options: ImportOptions } | { ok: false; message: string }> {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'dry-run': { type: 'boolean' },
        prune: { type: 'boolean' },
        strict: { type: 'boolean' },
        unverified: { type: 'boolean' },
        'author-style': { type: 'string' },
        'time-zone': { type: 'string' },
        source: { type: 'string' },
        mapping: { type: 'string' },
        column: { type: 'string', multiple: true },
        delimiter: { type: 'string' },
        'day-first': { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const [format, ...files] = positionals;
  const problems: string[] = [];
  if (format !== 'google' && format !== 'csv' && format !== 'json') problems.push(format === undefined ? 'name a format: google, csv or json' : `unknown format "${format}": google, csv or json`);
  if (files.length === 0) problems.push('name at least one file to import');
  const flags = FlagsSchema.safeParse(values);
  if (!flags.success) problems.push(...flags.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`));
  if (problems.length > 0 || !flags.success) return { ok: false, message: problems.join('\n') };

  const f = flags.data;
  const csvOnly = [
    f.source !== undefined && '--source',
    f.mapping !== undefined && '--mapping',
    f.column.length > 0 && '--column',
    f.delimiter !== undefined && '--delimiter',
    f['day-first'] && '--day-first',
  ].filter(Boolean);
  if (format !== 'csv' && csvOnly.length > 0) return { ok: false, message: `${csvOnly.join(', ')}: only for csv` };
  const options: ImportOptions = {
    format: format as ImportFormat,
    files,
    dryRun: f['dry-run'],
    prune: f.prune,
    strict: f.strict,
    authorStyle: f['author-style'],
    verified: !f.unverified,
    timeZone: f['time-zone'],
  };
  if (format === 'csv') {
    const mapping = await readCsvMapping(f);
    if (!mapping.ok) return mapping;
    options.mapping = mapping.mapping;
  }
  return { ok: true, options };
}

async function readCsvMapping(f: z.infer<typeof FlagsSchema>): Promise<{ ok: true; mapping: CsvMapping } | { ok: false; message: string }> {
  let base: Record<string, unknown> = {};
  if (f.mapping !== undefined) {
    try {
      base = JSON.parse(await readFile(f.mapping, 'utf8'));
    } catch (error) {
      return { ok: false, message: `--mapping ${f.mapping}: ${(error as Error).message}` };
    }
    if (base === null || typeof base !== 'object' || Array.isArray(base)) return { ok: false, message: `--mapping ${f.mapping}: must be a JSON object` };
  }
  const columns: Record<string, string> = { ...(base.columns as Record<string, string> | undefined) };
  for (const entry of f.column) {
    const eq = entry.indexOf('=');
    if (eq <= 0) return { ok: false, message: `--column ${entry}: expected <field>=<header>, e.g. --column text="Review Text"` };
    columns[entry.slice(0, eq).trim()] = entry.slice(eq + 1);
  }
  const merged = {
    ...base,
    columns,
    ...(f.source !== undefined && { source: f.source }),
    ...(f.delimiter !== undefined && { delimiter: f.delimiter === 'tab' ? '\t' : f.delimiter }),
    ...(f['day-first'] && { day_first: true }),
  };
  const parsed = CsvMappingSchema.safeParse(merged);
  if (parsed.success) return { ok: true, mapping: parsed.data };
  const where = f.mapping === undefined ? '' : ` (with --mapping ${f.mapping})`;
  const flag = (p: PropertyKey[]) => (p[0] === 'columns' ? `--column ${String(p[1])}` : p[0] === 'day_first' ? '--day-first' : `--${String(p[0])}`);
  return { ok: false, message: parsed.error.issues.map((i) => `${flag(i.path)}${where}: ${i.path[0] === 'source' && i.code === 'invalid_type' ? 'required for csv (yelp, angi, facebook, direct…)' : i.message}`).join('\n') };
}
