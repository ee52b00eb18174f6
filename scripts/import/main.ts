/**
 * `npm run import -- <format> <file…> [options]`: reviews from where they live into the
 * content folder (CONTENT_DIR), safe to run again and again. The formats are the table in formats.ts;
 * see USAGE in cli-options.ts and docs/import.md.
 *
 * Exit 0 when the import was written (or, with --dry-run, planned), 1 when it was refused (a file
 * that is not its format, a review folder that cannot be read, --strict with an invalid review), 2 for
 * a bad command line. Every run ends with the summary line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseImportArgs, USAGE, type ImportOptions } from './cli-options.ts';
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

if (import.meta.main) {
  const parsed = await parseImportArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(`${parsed.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const contentDir = path.resolve(readEntryConfig().config.contentDir);
  try {
    const code = await runImport(parsed.options, { contentDir, out: (line) => console.log(line), err: (line) => console.error(line) });
    process.exit(code);
  } catch (error) {
    // A disk that refuses (permissions, a full disk): the staged folder is gone and reviews/ is as it was.
    console.error(`Import failed: ${(error as Error).message}. ${contentDir}/reviews is as it was before.`);
    process.exit(1);
  }
}
