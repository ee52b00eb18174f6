/**
 * How a CSV's columns map to a review: a small JSON file (`--mapping yelp.json`), flags
 * (`--source yelp --column text="Review Text"`), or both, the flags winning.
 *
 *   { "source": "yelp", "columns": { "text": "Review Text", "date": "Date" }, "delimiter": ";", "day_first": false }
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SlugSchema } from '../../core/schemas/content.ts';
import { formatIssues, parseWithIssues } from '../../core/schemas/issues.ts';
import type { Flag } from './import-format.ts';

export const COLUMN_FIELDS = ['id', 'rating', 'date', 'text', 'author', 'title', 'source_url', 'response', 'response_date', 'photos', 'location'] as const;
export type ColumnField = (typeof COLUMN_FIELDS)[number];

export const HeaderSchema = z.string().trim().min(1, 'must name a column header');

/** How any CSV is read, reviews' or jobs': the members of a mapping file and the flags that set them. */
export const READING_OPTIONS = {
  /** Guessed from the header line when absent. */
  delimiter: z.enum([',', ';', '\t', '|']).optional(),
  /** Read `03/04/2026` as 3 April rather than March 4. */
  day_first: z.boolean().default(false),
};
export const READING_FLAGS: readonly Flag[] = [
  { name: 'delimiter', type: 'string', arg: '<char>', help: ', ; | or tab (guessed from the header line otherwise)' },
  { name: 'day-first', type: 'boolean', help: 'read 03/04/2026 as 3 April' },
];

export const CsvMappingSchema = z.strictObject({
  /** The `source` of every review in the file (`yelp`, `angi`, `facebook`, `direct`…); part of each id. */
  source: SlugSchema,
  /** Column headers, case-insensitive; a field left out is looked for under its usual headers. */
  columns: z
    .strictObject({
      id: HeaderSchema.optional(),
      rating: HeaderSchema.optional(),
      date: HeaderSchema.optional(),
      text: HeaderSchema.optional(),
      author: HeaderSchema.optional(),
      title: HeaderSchema.optional(),
      /** A link to the review on the platform (published as the review's `source_url`). */
      source_url: HeaderSchema.optional(),
      response: HeaderSchema.optional(),
      response_date: HeaderSchema.optional(),
      /** Photos: HTTPS URLs or paths relative to the CSV file, separated by spaces or `|`. */
      photos: HeaderSchema.optional(),
      /** The location a review is about: a business.json location's id or name (case does not matter). */
      location: HeaderSchema.optional(),
    })
    .default({}),
  ...READING_OPTIONS,
});

export type CsvMapping = z.infer<typeof CsvMappingSchema>;

/** The flags that make a mapping. */
export const CSV_FLAGS: readonly Flag[] = [
  { name: 'source', type: 'string', arg: '<slug>', help: 'where the reviews come from: yelp, angi, facebook, direct…' },
  { name: 'mapping', type: 'string', arg: '<file.json>', help: '{ "source", "columns": { "text": "Review Text", … }, "delimiter", "day_first" }' },
  { name: 'column', type: 'string', multiple: true, arg: '<field>=<header>', help: `map a column (${COLUMN_FIELDS.join(', ')}); repeatable` },
  ...READING_FLAGS,
];

/** The flags every column mapping takes (the reviews' CSV and the jobs'), besides its own. */
export type MappingFlags = { mapping?: string; column?: string[]; delimiter?: string; 'day-first'?: boolean };

type CsvFlags = MappingFlags & { source?: string };

/** The mapping from a mapping file and the flags, the flags winning; every problem at once. */
export async function readCsvMapping(f: CsvFlags): Promise<{ ok: true; mapping: CsvMapping } | { ok: false; message: string }> {
  const sourceMissing = 'required for csv (yelp, angi, facebook, direct…)';
  return readMapping(CsvMappingSchema, f, {
    example: 'text="Review Text"',
    own: { ...(f.source !== undefined && { source: f.source }) },
    message: (issue) => (issue.path[0] === 'source' && issue.code === 'invalid_type' ? sourceMissing : issue.message),
  });
}

/**
 * A mapping file (`f.mapping`) with the flags over it (`--column`, `--delimiter`, `--day-first`, and the
 * format's `own` values), parsed by `schema`; every problem named by the flag that gives it.
 */
export async function readMapping<S extends z.ZodType>(
  schema: S,
  f: MappingFlags,
  options: { example: string; own: Record<string, unknown>; message?: (issue: { path: readonly PropertyKey[]; code: string; message: string }) => string },
): Promise<{ ok: true; mapping: z.output<S> } | { ok: false; message: string }> {
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
  for (const entry of f.column ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) return { ok: false, message: `--column ${entry}: must be <field>=<header>, e.g. --column ${options.example}` };
    columns[entry.slice(0, eq).trim()] = entry.slice(eq + 1);
  }
  const merged = {
    ...base,
    columns,
    ...options.own,
    ...(f.delimiter !== undefined && { delimiter: f.delimiter === 'tab' ? '\t' : f.delimiter }),
    ...(f['day-first'] && { day_first: true }),
  };
  const parsed = parseWithIssues(schema, merged);
  if (parsed.ok) return { ok: true, mapping: parsed.value };
  const where = f.mapping === undefined ? '' : ` (with --mapping ${f.mapping})`;
  const flag = (p: readonly PropertyKey[]) => (p[0] === 'columns' ? `--column ${String(p[1])}` : p[0] === 'day_first' ? '--day-first' : `--${String(p[0])}`);
  return {
    ok: false,
    message: formatIssues(parsed.issues.map((i) => ({ path: [`${flag(i.path)}${where}`], message: options.message?.(i) ?? i.message }))),
  };
}
