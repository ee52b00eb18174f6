/** A site copy as a CDN serves it, for `npm run verify`: a review log's files under `log/` and a /reviews.json. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildLogFiles, type NoteSigner } from '../../core/log/index.ts';

/** Replaces `site` with the log of `entries` (each entry's bytes), signed by `signer`, and `reviews`. */
export async function writeLogSite(site: string, input: { entries: readonly Uint8Array[]; reviews: readonly object[]; signer: NoteSigner }): Promise<void> {
  await rm(site, { recursive: true, force: true });
  const { files } = buildLogFiles({ origin: input.signer.name, entries: input.entries, signer: input.signer });
  for (const [p, bytes] of files) {
    await mkdir(path.dirname(path.join(site, 'log', p)), { recursive: true });
    await writeFile(path.join(site, 'log', p), bytes);
  }
  await writeFile(path.join(site, 'reviews.json'), JSON.stringify({ reviews: input.reviews }));
}
