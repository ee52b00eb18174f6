/**
 * The second half of every import, whatever brought the reviews in (files read by `npm run import`, API
 * pages read by `npm run sync`): photos downloaded, the merge planned and checked, what happened
 * printed, and the plan written all or nothing under the content folder's lock.
 */
import { formatContentProblem } from '../../core/content/problems.ts';
import type { BusinessContent } from '../../core/schemas/content.ts';
import type { ImportOptions } from './cli-options.ts';
import { lockContentFolder, readBusinessFile, readReviewFiles, writeBusinessFileIfMissing, writeReviewFiles } from './import-fs.ts';
import { attachRemoteMedia, formatMediaOutcome } from './import-media.ts';
import { createMediaDownloader, type MediaDownloader } from './media-download.ts';
import { combineExports, describeOrigin, planImport, type MergeOptions } from './merge.ts';
import type { MappedExport } from './record.ts';
import { placeInLocations } from './review-locations.ts';
import { formatChange, formatSkip, formatSummary, type Summary } from './report.ts';
import { plural } from '../../core/text/text-rules.ts';

export type ImportIo = {
  contentDir: string;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where photos are fetched from; by default the service's outbound client with its address rules (media-download.ts). */
  downloader?: () => MediaDownloader;
};

/** What the merge needs of a run's options. */
export type ImportSettings = {
  dryRun: boolean;
  strict: boolean;
  allowPrivateDownloads: boolean;
  /** Which existing reviews the run may remove (those the source no longer lists); none without one. */
  pruneScope?: MergeOptions['pruneScope'];
  /**
   * Files beside the review files to write in the same all-or-nothing step (a sync's state), when the
   * run writes anything at all.
   */
  alongside?: ReadonlyMap<string, string>;
  /** Called with the ids the run removes, before anything is written (a sync records why: withdraw.ts). */
  beforeRemoving?: (ids: readonly string[]) => Promise<void>;
};

export type AppliedImport = { code: 0 | 1; summary: Summary };

export const REFUSED_EMPTY: Summary = { added: 0, updated: 0, unchanged: 0, removed: 0, skipped: [], outcome: 'refused' };

export function importSettingsOf(options: ImportOptions): ImportSettings {
  return {
    dryRun: options.dryRun,
    strict: options.strict,
    allowPrivateDownloads: options.allowPrivateDownloads,
    pruneScope: options.prune ? options.reader.pruneScope : undefined,
  };
}

export async function applyImport(
  input: { mapped: readonly MappedExport[]; restoredBusiness?: BusinessContent },
  settings: ImportSettings,
  io: ImportIo,
): Promise<AppliedImport> {
  const refused = (): AppliedImport => {
    io.out(formatSummary(REFUSED_EMPTY));
    return { code: 1, summary: REFUSED_EMPTY };
  };
  const exported = combineExports(input.mapped);
  const lock = settings.dryRun ? undefined : await lockContentFolder(io.contentDir);
  if (lock && !lock.ok) {
    io.err(lock.message);
    return refused();
  }
  try {
    for (const note of lock?.recovered ?? []) io.err(`note: ${note}`);
    const existing = await readReviewFiles(io.contentDir);
    if (!existing.ok) {
      for (const p of existing.problems) io.err(p);
      io.err('Nothing was imported.');
      return refused();
    }
    const business = (await readBusinessFile(io.contentDir)) ?? input.restoredBusiness;
    const combined = { ...exported, reviews: placeInLocations(exported.reviews, business) };
    const photos = await attachRemoteMedia(combined.reviews, existing.value, {
      contentDir: io.contentDir,
      dryRun: settings.dryRun,
      downloader: io.downloader ?? (() => createMediaDownloader({ allowPrivate: settings.allowPrivateDownloads })),
      out: io.out,
    });
    const { plan, refused: refusedReviews, notes } = planImport(existing.value, combined, { business, pruneScope: settings.pruneScope });
    const skipped = [...combined.skipped, ...refusedReviews];
    const count = (kind: string) => plan.changes.filter((c) => c.kind === kind).length;
    const summary = { added: count('added'), updated: count('updated'), unchanged: plan.unchanged, removed: count('removed'), skipped };

    for (const skip of skipped) io.out(formatSkip(skip));
    for (const review of combined.reviews) for (const part of review.setAside ?? []) io.out(`set aside: ${describeOrigin(review.origin)}: ${part}`);
    for (const change of plan.changes) if (settings.dryRun || change.kind !== 'added') io.out(formatChange(change));
    const invalid = skipped.filter((s) => s.reason === 'invalid').length;
    if (settings.strict && invalid > 0) {
      io.err(`Refused (--strict): ${plural(invalid, 'invalid review', { format: String })}; nothing was written.`);
      const result = { ...summary, outcome: 'refused' as const };
      io.out(formatSummary(result));
      return { code: 1, summary: result };
    }
    if (!settings.dryRun) {
      const removed = plan.changes.filter((c) => c.kind === 'removed').map((c) => c.id);
      if (removed.length > 0) await settings.beforeRemoving?.(removed);
      const writes = new Map(plan.writes);
      if (writes.size > 0) for (const [name, text] of settings.alongside ?? []) writes.set(name, text);
      await writeReviewFiles(io.contentDir, writes);
      if (input.restoredBusiness && (await writeBusinessFileIfMissing(io.contentDir, input.restoredBusiness))) io.out('business.json written from the export');
    }
    if (business === undefined) io.err(`note: ${io.contentDir} has no business.json yet: the build needs one (see docs/content.md)`);
    for (const note of notes.slice(0, 20)) io.err(`note: the build will also report: ${formatContentProblem(note)}`);
    if (photos.reviews > 0 || photos.failed > 0) io.out(formatMediaOutcome(photos, settings.dryRun));
    const result = { ...summary, outcome: settings.dryRun ? ('dry-run' as const) : ('written' as const) };
    io.out(formatSummary(result));
    return { code: 0, summary: result };
  } finally {
    if (lock?.ok) await lock.release();
  }
}
