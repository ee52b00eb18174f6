/**
 * `npm run import -- jobs <file.csv…> [options]`: completed jobs from the job exports of Jobber,
 * Housecall Pro and ServiceTitan, or any CSV with mapped columns, into jobs/*.json (docs/import.md
 * "Jobs"). The reviews importer's behaviour: the same export again changes nothing, `--dry-run` writes
 * nothing, every refused row is named, the folder is written all or nothing under the import lock.
 *
 * Jobs are not reviews: another folder, another schema and nothing to download, so they are their own
 * command beside the review formats (whose rows map files to reviews), with their own table of export
 * layouts (JOB_LAYOUTS in formats.ts).
 */
import { readFile } from 'node:fs/promises';
import { formatContentProblem } from '../../core/content/problems.ts';
import { BusinessContentSchema } from '../../core/schemas/content.ts';
import { plural } from '../../core/text/text-rules.ts';
import type { ImportIo } from './apply-import.ts';
import { COMMON_FLAGS, parseFlags } from './cli-options.ts';
import { JOB_LAYOUTS } from './formats.ts';
import { lockContentFolder, readArrayFiles, readBusinessFile, writeFolderFiles } from './import-fs.ts';
import { createJobVocabulary, mapJobCsv, type MappedJobs } from './job-csv.ts';
import { mappedCsvLayout } from './job-layouts.ts';
import { JOB_FLAGS, readJobMapping, type JobMapping } from './job-mapping.ts';
import { combineJobs, planJobImport } from './job-merge.ts';
import type { FileFailure } from './record.ts';
import { formatChange, formatSkip, formatSummary, type Summary } from './report.ts';

/** Of the shared flags, the ones a jobs import takes: it downloads nothing, names no author and removes nothing. */
const SHARED = COMMON_FLAGS.filter((flag) => flag.name === 'dry-run' || flag.name === 'strict');

export type JobImportOptions = { files: string[]; dryRun: boolean; strict: boolean; mapping: JobMapping };

/** `jobs <file…> [options]` as options, or every problem of the command line at once. */
export async function parseJobImportArgs(argv: readonly string[]): Promise<{ ok: true; options: JobImportOptions } | { ok: false; message: string }> {
  const parsed = parseFlags(argv, [...COMMON_FLAGS, ...JOB_FLAGS]);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed;
  const problems: string[] = [];
  const [, ...files] = positionals;
  if (files.length === 0) problems.push('name at least one job export to import');
  const notForJobs = COMMON_FLAGS.filter((flag) => !SHARED.includes(flag) && values[flag.name] !== undefined).map((flag) => `--${flag.name}`);
  if (notForJobs.length > 0) problems.push(`${notForJobs.join(', ')}: not for jobs`);
  const mapping = await readJobMapping(values);
  if (!mapping.ok) problems.push(mapping.message);
  if (problems.length > 0 || !mapping.ok) return { ok: false, message: problems.join('\n') };
  return { ok: true, options: { files, dryRun: values['dry-run'] === true, strict: values.strict === true, mapping: mapping.mapping } };
}

const REFUSED: Summary = { added: 0, updated: 0, unchanged: 0, removed: 0, skipped: [], outcome: 'refused' };

export async function runJobImport(options: JobImportOptions, io: Omit<ImportIo, 'downloader'>): Promise<0 | 1> {
  const refuse = (...lines: string[]): 1 => {
    for (const line of lines) io.err(line);
    io.err('Nothing was imported.');
    io.out(formatSummary(REFUSED));
    return 1;
  };
  const rawBusiness = await readBusinessFile(io.contentDir);
  const business = BusinessContentSchema.safeParse(rawBusiness);
  if (!business.success) {
    return refuse(`${io.contentDir}/business.json is missing or invalid: jobs are mapped to its services, technicians and service areas (npm run build names what is wrong)`);
  }
  const services = business.data.services.map((s) => s.id);
  if (options.mapping.service !== undefined && !services.includes(options.mapping.service)) {
    return refuse(`--service ${options.mapping.service}: not a service id of business.json (${services.join(', ')})`);
  }

  const vocabulary = createJobVocabulary(business.data);
  const mapped: MappedJobs[] = [];
  const failures: FileFailure[] = [];
  for (const file of options.files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      failures.push({ ok: false, file, message: `cannot read: ${(error as Error).message}` });
      continue;
    }
    const result = mapJobCsv(text, file, { layouts: JOB_LAYOUTS, fallback: mappedCsvLayout, mapping: options.mapping, vocabulary });
    if ('ok' in result) failures.push(result);
    else mapped.push(result);
  }
  if (failures.length > 0) return refuse(...failures.map((f) => `${f.file}: ${f.message}`));
  for (const [i, m] of mapped.entries()) {
    const columns = Object.entries(m.read).map(([field, header]) => `${header} (${field})`);
    io.out(`${options.files[i]}: read as ${m.layout.label}: ${columns.join(', ')}; no other column is read`);
  }

  const combined = combineJobs(mapped);
  const lock = options.dryRun ? undefined : await lockContentFolder(io.contentDir);
  if (lock && !lock.ok) return refuse(lock.message);
  try {
    for (const note of lock?.recovered ?? []) io.err(`note: ${note}`);
    const [jobFiles, reviewFiles] = await Promise.all([readArrayFiles(io.contentDir, 'jobs'), readArrayFiles(io.contentDir, 'reviews')]);
    if (!jobFiles.ok || !reviewFiles.ok) return refuse(...(jobFiles.ok ? [] : jobFiles.problems), ...(reviewFiles.ok ? [] : reviewFiles.problems));
    const { plan, refused, notes } = planJobImport(jobFiles.value, combined.jobs, {
      business: rawBusiness,
      reviewFiles: reviewFiles.value.map((f) => ({ file: `reviews/${f.name}`, data: f.items })),
    });
    const skipped = [...combined.skipped, ...refused];
    const count = (kind: string) => plan.changes.filter((c) => c.kind === kind).length;
    const summary = { added: count('added'), updated: count('updated'), unchanged: plan.unchanged, removed: 0, skipped };

    for (const skip of skipped) io.out(formatSkip(skip));
    for (const change of plan.changes) if (options.dryRun || change.kind !== 'added') io.out(formatChange(change, 'jobs'));
    const invalid = skipped.filter((s) => s.reason === 'invalid').length;
    if (options.strict && invalid > 0) {
      io.err(`Refused (--strict): ${plural(invalid, 'invalid job', { format: String })}; nothing was written.`);
      io.out(formatSummary({ ...summary, outcome: 'refused' }));
      return 1;
    }
    if (!options.dryRun) await writeFolderFiles(io.contentDir, 'jobs', plan.writes);
    for (const note of notes.slice(0, 20)) io.err(`note: the build will also report: ${formatContentProblem(note)}`);
    io.out(formatSummary({ ...summary, outcome: options.dryRun ? 'dry-run' : 'written' }));
    return 0;
  } finally {
    if (lock?.ok) await lock.release();
  }
}
