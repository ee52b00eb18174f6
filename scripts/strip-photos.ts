/**
 * `npm run photos:strip`: removes the metadata (GPS location, names, camera) of the photo originals
 * already in the content folder's media/, in place, the orientation kept (scripts/lib/media/strip-metadata.ts).
 * Imports strip what they store; this is for photos added by hand or imported before they did. A file
 * keeps its name, so no review changes; a photo with nothing to strip is not written. `--check` only
 * lists what it would strip and exits 1 when there is any. Files are read with the content folder's
 * rules (core/read-content-file.ts): a link or a FIFO is named and left alone.
 */
import { replaceFile } from '../core/atomic-file-fs.ts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_LIMITS } from '../core/media/media-variants.ts';
import { readContentFile } from '../core/read-content-file.ts';
import { sniffImageExtension } from './lib/media/image-format.ts';
import { findPrivateMetadata, stripPhotoMetadata } from './lib/media/strip-metadata.ts';
import { isDemoContent, readEntryConfig } from './lib/entry-config.ts';
import { joinList, plural } from '../core/text/text-rules.ts';

const USAGE = 'usage: npm run photos:strip [-- --check]';

export type StripOutcome = { stripped: string[]; skipped: string[] };

/** Strips every photo of `contentDir`/media/ that carries a location or a name; `check` writes nothing. */
export async function stripContentPhotos(contentDir: string, options: { check: boolean; out: (line: string) => void }): Promise<StripOutcome> {
  const outcome: StripOutcome = { stripped: [], skipped: [] };
  const names = await readdir(path.join(contentDir, 'media'), { recursive: true }).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const file = path.posix.join('media', name.split(path.sep).join('/'));
    const read = await readContentFile(contentDir, file, MEDIA_LIMITS.maxBytes);
    if (!read.ok) {
      if (!/is a folder/.test(read.reason)) {
        outcome.skipped.push(file);
        options.out(`${file}: left alone: ${read.reason}`);
      }
      continue;
    }
    if (sniffImageExtension(read.bytes) === undefined) continue;
    const found = await findPrivateMetadata(read.bytes);
    if (found.length === 0) continue;
    outcome.stripped.push(file);
    if (options.check) {
      options.out(`${file}: carries ${joinList(found)}`);
      continue;
    }
    await replaceFile(path.join(contentDir, file), await stripPhotoMetadata(read.bytes));
    options.out(`${file}: removed ${joinList(found)}`);
  }
  return outcome;
}


if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown[0]}\n${USAGE}`);
    process.exit(2);
  }
  const contentDir = path.resolve(readEntryConfig().config.contentDir);
  if (isDemoContent(contentDir)) {
    console.error('CONTENT_DIR is the demo: photos:strip changes only your own content folder.');
    process.exit(2);
  }
  const check = args.includes('--check');
  const outcome = await stripContentPhotos(contentDir, { check, out: (line) => console.log(line) });
  const count = outcome.stripped.length;
  const photos = plural(count, 'photo', { format: String });
  if (check) console.log(count === 0 ? 'No photo carries a location or a name.' : `${photos} to strip: run npm run photos:strip.`);
  else console.log(count === 0 ? 'No photo carries a location or a name: nothing changed.' : `Stripped ${photos}; commit them (the old versions stay in git history until it is rewritten).`);
  process.exit(check && count > 0 ? 1 : 0);
}
