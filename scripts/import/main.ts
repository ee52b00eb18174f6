/**
 * `npm run import -- <format> <file…> [options]`: reviews from where they live into the
 * content folder (CONTENT_DIR), safe to run again and again. The formats are the table in formats.ts;
 * see USAGE in cli-options.ts and docs/import.md. `npm run import -- jobs <file…>` brings completed
 * jobs in the same way (import-jobs.ts).
 *
 * Exit 0 when the import was written (or, with --dry-run, planned), 1 when it was refused (a file
 * that is not its format, a review folder that cannot be read, --strict with an invalid review), 2 for
 * a bad command line. Every run ends with the summary line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { COMMON_FLAGS, JOBS_COMMAND, parseFlags, parseImportArgs, USAGE, type ImportOptions } from './cli-options.ts';
import { IMPORT_FORMATS } from './formats.ts';
import { JOB_FLAGS } from './job-mapping.ts';
import { parseJobImportArgs, runJobImport } from './import-jobs.ts';
import { applyImport, importSettingsOf, REFUSED_EMPTY, type ImportIo } from './apply-import.ts';
import type { FileFailure, MappedExport } from './record.ts';
import { formatSummary } from './report.ts';
import { readEntryConfig } from '../lib/entry-config.ts';
import type { BusinessContent } from '../../core/schemas/content.ts';

export type { ImportIo };

export async function runImport(options: ImportOptions, io: ImportIo): Promise<0 | 1> {
  const mapped: MappedExport[] = [];
  const failures: FileFailure[] = [];
  let restoredBusiness: BusinessContent | undefined;
  for (const file of options.files) {
    const result = await mapFile(file, options);
    if ('ok' in result) failures.push(result);
    else {
      mapped.push(result);
      restoredBusiness ??= 'business' in result ? (result.business as BusinessContent | undefined) : undefined;
    }
  }
  if (failures.length > 0) {
    for (const f of failures) io.err(`${f.file}: ${f.message}`);
    io.err('Nothing was imported.');
    io.out(formatSummary(REFUSED_EMPTY));
    return 1;
  }
  return (await applyImport({ mapped, restoredBusiness }, importSettingsOf(options), io)).code;
}

async function mapFile(file: string, options: ImportOptions): Promise<MappedExport | FileFailure> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, file, message: `cannot read: ${(error as Error).message}` };
  }
  return options.reader.map(text, file, options);
}

/** The command's first word: a review format, or `jobs` (read with every flag known, so a flag's value is not taken for it). */
function commandOf(argv: readonly string[]): string | undefined {
  const parsed = parseFlags(argv, [...COMMON_FLAGS, ...IMPORT_FORMATS.flatMap((f) => f.flags), ...JOB_FLAGS]);
  return parsed.ok ? parsed.positionals[0] : undefined;
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const jobs = commandOf(argv) === JOBS_COMMAND;
  const parsed = jobs ? await parseJobImportArgs(argv) : await parseImportArgs(argv);
  if (!parsed.ok) {
    console.error(`${parsed.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const contentDir = path.resolve(readEntryConfig().config.contentDir);
  const io = { contentDir, out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  try {
    const options = parsed.options;
    const code = 'format' in options ? await runImport(options, io) : await runJobImport(options, io);
    process.exit(code);
  } catch (error) {
    // A disk that refuses (permissions, a full disk): the staged folder is gone and the folder is as it was.
    console.error(`Import failed: ${(error as Error).message}. ${contentDir}/${jobs ? 'jobs' : 'reviews'} is as it was before.`);
    process.exit(1);
  }
}
