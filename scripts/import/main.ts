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
import { lockContentFolder, readBusinessFile, readReviewFiles, writeBusinessFileIfMissing, writeReviewFiles } from './import-fs.ts';
import { combineExports, planImport } from './merge.ts';
import type { FileFailure, MappedExport } from './record.ts';
import { formatChange, formatSkip, formatSummary } from './report.ts';
import { formatContentProblem } from '../../core/content/problems.ts';
import { readConfigOrExit } from '../../sidecar/read-config.ts';
import type { BusinessContent } from '../../core/schemas/content.ts';
import { attachRemoteMedia, formatMediaOutcome } from './import-media.ts';
import { createMediaDownloader, type MediaDownloader } from './media-download.ts';
import { plural } from '../../core/text/text-rules.ts';

export type ImportIo = {
  contentDir: string;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where photos are fetched from; by default the hub's HTTPS client with its address rules (media-download.ts). */
  downloader?: () => MediaDownloader;
};

export async function runImport(options: ImportOptions, io: ImportIo): Promise<0 | 1> {
  const empty = { added: 0, updated: 0, unchanged: 0, removed: 0, skipped: [], outcome: 'refused' } as const;
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
    io.out(formatSummary(empty));
    return 1;
  }
  const combined = combineExports(mapped);

  const lock = options.dryRun ? undefined : await lockContentFolder(io.contentDir);
  if (lock && !lock.ok) {
    io.err(lock.message);
    io.out(formatSummary(empty));
    return 1;
  }
  try {
    for (const note of lock?.recovered ?? []) io.err(`note: ${note}`);
    const existing = await readReviewFiles(io.contentDir);
    if (!existing.ok) {
      for (const p of existing.problems) io.err(p);
      io.err('Nothing was imported.');
      io.out(formatSummary(empty));
      return 1;
    }
    const photos = await attachRemoteMedia(combined.reviews, existing.value, {
      contentDir: io.contentDir,
      dryRun: options.dryRun,
      downloader: io.downloader ?? (() => createMediaDownloader({ allowPrivate: options.allowPrivateDownloads })),
      out: io.out,
    });
    const business = (await readBusinessFile(io.contentDir)) ?? restoredBusiness;
    const { plan, refused, notes } = planImport(existing.value, combined, { business, pruneScope: options.prune ? options.reader.pruneScope : undefined });
    const skipped = [...combined.skipped, ...refused];
    const count = (kind: string) => plan.changes.filter((c) => c.kind === kind).length;
    const summary = { added: count('added'), updated: count('updated'), unchanged: plan.unchanged, removed: count('removed'), skipped };

    for (const skip of skipped) io.out(formatSkip(skip));
    for (const change of plan.changes) if (options.dryRun || change.kind !== 'added') io.out(formatChange(change));
    const invalid = skipped.filter((s) => s.reason === 'invalid').length;
    if (options.strict && invalid > 0) {
      io.err(`Refused (--strict): ${plural(invalid, 'invalid review')}; nothing was written.`);
      io.out(formatSummary({ ...summary, outcome: 'refused' }));
      return 1;
    }
    if (!options.dryRun) {
      await writeReviewFiles(io.contentDir, plan.writes);
      if (restoredBusiness && (await writeBusinessFileIfMissing(io.contentDir, restoredBusiness))) io.out('business.json written from the export');
    }
    if (business === undefined) io.err(`note: ${io.contentDir} has no business.json yet: the build needs one (see docs/content.md)`);
    for (const note of notes.slice(0, 20)) io.err(`note: the build will also report: ${formatContentProblem(note)}`);
    if (photos.reviews > 0 || photos.failed > 0) io.out(formatMediaOutcome(photos, options.dryRun));
    io.out(formatSummary({ ...summary, outcome: options.dryRun ? 'dry-run' : 'written' }));
    return 0;
  } finally {
    if (lock?.ok) await lock.release();
  }
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
  const contentDir = path.resolve(readConfigOrExit().contentDir);
  try {
    const code = await runImport(parsed.options, { contentDir, out: (line) => console.log(line), err: (line) => console.error(line) });
    process.exit(code);
  } catch (error) {
    // A disk that refuses (permissions, a full disk): the staged folder is gone and reviews/ is as it was.
    console.error(`Import failed: ${(error as Error).message}. ${contentDir}/reviews is as it was before.`);
    process.exit(1);
  }
}
