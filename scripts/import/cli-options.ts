/**
 * The command line of `npm run import`, parsed and checked in one place (every problem at once). The
 * formats, their own flags and their lines of the usage text come from the table in formats.ts.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { formatIssue, parseWithIssues } from '../../core/schemas/issues.ts';
import { IMPORT_FORMATS } from './formats.ts';
import type { CommonOptions, Flag, FormatReader, ImportFormat } from './import-format.ts';
import { JOB_FLAGS } from './job-mapping.ts';
import { isTimeZone } from './values.ts';

/** The flags every format takes (and, but for --prune, every sync). */
export const COMMON_FLAGS: readonly Flag[] = [
  { name: 'dry-run', type: 'boolean', help: 'print what would change, write nothing' },
  { name: 'prune', type: 'boolean', help: 'remove reviews of this source that the export no longer lists (json: all)' },
  { name: 'strict', type: 'boolean', help: 'refuse the whole import if any review is invalid' },
  { name: 'author-style', type: 'string', arg: 'initials', help: 'publish "Latoya W." rather than "Latoya Williams"' },
  { name: 'unverified', type: 'boolean', help: 'add new reviews with verified: false, to publish them one by one' },
  { name: 'time-zone', type: 'string', arg: '<zone>', help: "the business's time zone for Google's timestamps (default UTC)" },
  { name: 'allow-private-downloads', type: 'boolean', help: 'fetch photos from loopback or private addresses too (tests, intranets)' },
];

const CommonFlagsSchema = z.object({
  'dry-run': z.boolean().default(false),
  prune: z.boolean().default(false),
  strict: z.boolean().default(false),
  unverified: z.boolean().default(false),
  'allow-private-downloads': z.boolean().default(false),
  'author-style': z.enum(['full', 'initials']).default('full'),
  'time-zone': z.string().refine(isTimeZone, 'is not a time zone name (e.g. America/Chicago)').default('UTC'),
});

const FORMAT_NAMES = IMPORT_FORMATS.map((f) => f.name);
/** `npm run import -- jobs` (import-jobs.ts): not a review format, but named beside them. */
export const JOBS_COMMAND = 'jobs';
const COMMAND_NAMES = [...FORMAT_NAMES, JOBS_COMMAND];
/** "google, csv or json"; a single name alone. */
export const listNames = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`);
const usageLine = (left: string, help: string) => `  ${left.padEnd(25)} ${help}`;
export const flagLine = (flag: Flag) => usageLine(`--${flag.name}${flag.arg ? ` ${flag.arg}` : ''}`, flag.help);

export const USAGE = [
  `usage: npm run import -- <${COMMAND_NAMES.join('|')}> <file…> [options]`,
  '',
  ...IMPORT_FORMATS.map((f) => `  ${f.name.padEnd(8)} ${f.summary}`),
  `  ${JOBS_COMMAND.padEnd(8)} completed jobs from Jobber, Housecall Pro, ServiceTitan or any CSV export, into jobs/`,
  '',
  ...COMMON_FLAGS.map(flagLine),
  ...IMPORT_FORMATS.filter((f) => f.flags.length > 0).flatMap((f) => [`  ${f.name} only:`, ...f.flags.map(flagLine)]),
  `  ${JOBS_COMMAND}: --dry-run and --strict of the flags above, and only for jobs:`,
  ...JOB_FLAGS.map(flagLine),
  '',
  'Reviews and jobs are written into CONTENT_DIR (default content/).',
].join('\n');

export type ImportOptions = CommonOptions & {
  format: ImportFormat;
  /** The format with its own flags applied. */
  reader: FormatReader;
  files: string[];
  dryRun: boolean;
  prune: boolean;
  strict: boolean;
  /** Photos may come from loopback or private addresses (never from cloud-metadata ones). */
  allowPrivateDownloads: boolean;
};

/** The command line read against a list of flags (node's parseArgs, strict); its refusal as a message. */
export function parseFlags(
  argv: readonly string[],
  flags: readonly Flag[],
): { ok: true; values: Record<string, unknown>; positionals: string[] } | { ok: false; message: string } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(flags.map((flag) => [flag.name, { type: flag.type, multiple: flag.multiple ?? false }])),
    });
    return { ok: true, values, positionals };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

export async function parseImportArgs(argv: readonly string[]): Promise<{ ok: true; options: ImportOptions } | { ok: false; message: string }> {
  const parsed = parseFlags(argv, [...COMMON_FLAGS, ...IMPORT_FORMATS.flatMap((f) => f.flags)]);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed;
  const [name, ...files] = positionals;
  const format = IMPORT_FORMATS.find((f) => f.name === name);
  const problems: string[] = [];
  if (!format) problems.push(name === undefined ? `name a format: ${listNames(COMMAND_NAMES)}` : `unknown format "${name}": ${listNames(COMMAND_NAMES)}`);
  if (files.length === 0) problems.push('name at least one file to import');
  const common = parseCommonFlags(values);
  if (!common.ok) problems.push(...common.problems);
  if (problems.length > 0 || !format || !common.ok) return { ok: false, message: problems.join('\n') };

  for (const other of IMPORT_FORMATS) {
    const given = other === format ? [] : other.flags.filter((flag) => values[flag.name] !== undefined).map((flag) => `--${flag.name}`);
    if (given.length > 0) return { ok: false, message: `${given.join(', ')}: only for ${other.name}` };
  }
  const configured = await format.configure(pick(values, format.flags));
  if (!configured.ok) return configured;
  return { ok: true, options: { format, reader: configured.reader, files, ...common.options } };
}

export type CommonRunOptions = Omit<ImportOptions, 'format' | 'reader' | 'files'>;

/** The shared flags (as parseArgs gave them) into options, or one line per problem. */
export function parseCommonFlags(values: Record<string, unknown>): { ok: true; options: CommonRunOptions } | { ok: false; problems: string[] } {
  const common = parseWithIssues(CommonFlagsSchema, pick(values, COMMON_FLAGS));
  if (!common.ok) return { ok: false, problems: common.issues.map((i) => formatIssue({ ...i, path: [`--${i.path.join('.')}`] })) };
  const c = common.value;
  return {
    ok: true,
    options: {
      dryRun: c['dry-run'],
      prune: c.prune,
      strict: c.strict,
      authorStyle: c['author-style'],
      verified: !c.unverified,
      timeZone: c['time-zone'],
      allowPrivateDownloads: c['allow-private-downloads'],
    },
  };
}

function pick(values: Record<string, unknown>, flags: readonly Flag[]): Record<string, unknown> {
  return Object.fromEntries(flags.filter((flag) => values[flag.name] !== undefined).map((flag) => [flag.name, values[flag.name]]));
}
