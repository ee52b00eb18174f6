/**
 * The photos an export lists by URL, brought into the content folder before the reviews are merged
 * (media-download.ts fetches and stores them). A review whose folder copy already has as many media
 * entries as the export lists is left alone, so a re-import downloads nothing and writes nothing. A
 * failed photo is reported on its review's line and the review is imported with the others; when the
 * folder already has the review's media, a partial download does not replace them.
 */
import { MAX_MEDIA_PER_REVIEW } from '../../core/schemas/content.ts';
import { describeOrigin, type ExistingFile } from './merge.ts';
import type { MediaDownloader } from './media-download.ts';
import { storeRemoteMedia } from './media-download.ts';
import type { ImportedReview } from './record.ts';
import { plural } from '../../core/text/text-rules.ts';

export type MediaOutcome = { reviews: number; downloaded: number; written: number; failed: number };

export async function attachRemoteMedia(
  imported: readonly ImportedReview[],
  existing: readonly ExistingFile[],
  context: { contentDir: string; dryRun: boolean; downloader: () => MediaDownloader; out: (line: string) => void },
): Promise<MediaOutcome> {
  const outcome: MediaOutcome = { reviews: 0, downloaded: 0, written: 0, failed: 0 };
  const existingMedia = new Map<string, unknown>();
  for (const file of existing) for (const review of file.reviews) if (typeof review.id === 'string') existingMedia.set(review.id, review.media);
  let downloader: MediaDownloader | undefined;
  try {
    for (const review of imported) {
      const id = review.review.id;
      const where = describeOrigin(review.origin);
      for (const problem of review.mediaProblems ?? []) {
        outcome.failed++;
        context.out(`photo not imported: ${where}, ${problem}`);
      }
      let items = review.remoteMedia ?? [];
      if (items.length > MAX_MEDIA_PER_REVIEW) {
        context.out(`photo not imported: ${where}: ${items.length - MAX_MEDIA_PER_REVIEW} beyond the first ${MAX_MEDIA_PER_REVIEW} of the review`);
        outcome.failed += items.length - MAX_MEDIA_PER_REVIEW;
        items = items.slice(0, MAX_MEDIA_PER_REVIEW);
      }
      if (items.length === 0) continue;
      const current = existingMedia.get(id);
      if (Array.isArray(current) && current.length === items.length) continue;
      outcome.reviews++;
      if (context.dryRun) {
        context.out(`photos of ${id}: ${items.length} to download (dry run: nothing downloaded)`);
        continue;
      }
      downloader ??= context.downloader();
      const stored = await storeRemoteMedia(context.contentDir, id, items, downloader);
      outcome.downloaded += stored.media.length;
      outcome.written += stored.written;
      outcome.failed += stored.failures.length;
      for (const failure of stored.failures) context.out(`photo not imported: ${where}, ${failure}; the review is imported without it`);
      const keepCurrent = stored.failures.length > 0 && Array.isArray(current) && current.length > 0;
      if (keepCurrent || stored.media.length === 0) continue;
      review.review.media = stored.media;
      review.supplied = [...review.supplied, 'media'];
    }
  } finally {
    downloader?.close();
  }
  return outcome;
}

export function formatMediaOutcome(outcome: MediaOutcome, dryRun: boolean): string {
  if (dryRun) return `Photos: ${plural(outcome.reviews, 'review', { format: String })} with photos to download.`;
  return `Photos: ${outcome.downloaded} stored (${plural(outcome.written, 'new file', { format: String })}), ${outcome.failed} not imported.`;
}
