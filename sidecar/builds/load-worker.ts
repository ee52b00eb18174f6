/**
 * The worker thread that reads a build (read-build.ts) and hands it to the serving thread in pieces
 * small enough that taking each one costs the event loop a few milliseconds (load-build.ts puts them
 * together): the files' bytes are transferred, not copied; the reviews, their lowercased texts and the
 * change log's entries go CHUNK at a time; the search index's typed arrays are transferred last.
 *
 * One piece at a time: the next is sent when the serving thread asks for it, after it took the last and
 * let the event loop turn. Posted all at once, the pieces queue up and Node hands the whole queue over in
 * one go, which held the event loop for 100–500 ms at 10k reviews.
 *
 * A review the build in service has byte for byte (the same digest of its JSON) is not sent: the serving
 * thread takes the objects it already holds (load-build.ts). A publish changes a few reviews, so the serving
 * thread's heap grows by those few instead of a second copy of every review (issue 32: at 10k reviews its
 * peak over three publishes went from 120 MB to 85 MB). Files work the same way (read-build.ts): one the
 * build in service serves with the same ETags is named, not read and sent.
 */
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { CHECK_LENGTH } from '../../core/dataset/change-log.ts';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import type { Manifest } from '../../core/publishing/manifest.ts';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { checkBuildTarget } from './build-target.ts';
import { readBuild, servedKey } from './read-build.ts';
import type { WorkerMessage } from './load-build.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { lowerThisThreadPriority } from '../thread-priority.ts';

const CHUNK = 250;
/** Characters of a review's digest (base64url of SHA-256: 96 bits). */
const REVIEW_DIGEST_LENGTH = 16;
const FILES_CHUNK = 100;

// Loading waits for the serving thread, never the other way round (../thread-priority.ts).
lowerThisThreadPriority();
// A thread of its own: the URLs are built once here, from the base the serving thread passes.
const { dir, publicUrl, targetDistDir, previousDir, previousDigests, previousChanges } = workerData as {
  dir: string;
  publicUrl: string;
  /** The DIST_DIR of the service swapping this build in: a build made for another address or folder is refused. */
  targetDistDir?: string;
  /** The build in service's folder: its manifest says which files it serves (read-build.ts `servedFiles`). */
  previousDir?: string;
  previousDigests?: string;
  previousChanges?: { checks: string; indices: Int32Array };
};
const urls = createServiceUrls(publicUrl);
let asked: (() => void) | undefined;
parentPort!.on('message', () => asked?.());
const post = async (message: WorkerMessage, transfer: ArrayBuffer[] = []) => {
  const taken = new Promise<void>((resolve) => (asked = resolve));
  parentPort!.postMessage(message, transfer);
  if (message.kind !== 'done' && message.kind !== 'error' && message.kind !== 'refused') await taken;
};

try {
  const manifest = await readManifest(dir);
  const target = targetDistDir === undefined ? { ok: true as const } : checkBuildTarget(manifest, { publicUrl, distDir: targetDistDir });
  if (target.ok) await send(manifest);
  else await post({ kind: 'refused', reason: target.reason, buildId: manifest?.build_id });
} catch (error) {
  await post({ kind: 'error', message: (error as Error).message });
} finally {
  // Nothing more to answer: the thread ends (a listener would keep it, and the whole build, alive).
  parentPort!.removeAllListeners('message');
}

/** Reads the build and sends it, piece by piece. */
async function send(manifest: Manifest | undefined): Promise<void> {
  // The build in service's files (its folder is never changed, only removed: then nothing is reused).
  const previousManifest = previousDir === undefined ? undefined : await readManifest(previousDir);
  const servedFiles = previousManifest && new Map(Object.entries(previousManifest.files).map(([urlPath, entry]) => [urlPath, servedKey(entry)]));
  const { manifest: read, files, kept, live, searchShell, language } = await readBuild(dir, manifest, urls, servedFiles);
  if (kept.length > 0) await post({ kind: 'kept', urlPaths: kept });
  for (let i = 0; i < files.length; i += FILES_CHUNK) {
    const slice = files.slice(i, i + FILES_CHUNK);
    await post({ kind: 'files', files: slice }, transferables(slice.flatMap((f) => [f.identity.body, ...f.variants.map(([, v]) => v.body)])));
  }
  const { dataset, index, changes, insights } = live;
  const { reviews, needles: _needles, text, ...indexRest } = index;
  const { lowerTexts, lowerTitles, ...textRest } = text;
  const digests = reviews.map(reviewDigest);
  const held = positionsOf(previousDigests);
  for (let i = 0; i < reviews.length; i += CHUNK) {
    const piece: Extract<WorkerMessage, { kind: 'reviews' }> = { kind: 'reviews', held: [], reviews: [], lowerTexts: [], lowerTitles: [] };
    for (let pos = i; pos < Math.min(i + CHUNK, reviews.length); pos++) {
      const at = held.get(digests[pos]!) ?? -1;
      piece.held.push(at);
      if (at === -1) {
        piece.reviews.push(reviews[pos]!);
        piece.lowerTexts.push(lowerTexts[pos]!);
        piece.lowerTitles.push(lowerTitles[pos]!);
      }
    }
    await post(piece);
  }
  const heldEntries = heldChangePositions(changes.checks);
  for (let i = 0; i < changes.entries.length; i += CHUNK) {
    const piece: Extract<WorkerMessage, { kind: 'changes' }> = { kind: 'changes', held: [], entries: [] };
    for (const entry of changes.entries.slice(i, i + CHUNK)) {
      const at = heldEntries(entry.index);
      piece.held.push(at);
      if (at === -1) piece.entries.push(entry);
    }
    await post(piece);
  }
  const { reviews: _reviews, ...datasetRest } = dataset;
  const index_ = { ...indexRest, text: textRest };
  await post(
    { kind: 'done', buildId: read.build_id, dataLastModified: read.files[PATHS.reviewsJson]!.last_modified, dataset: datasetRest, insights, changes: { ...changes, entries: [] }, index: index_, searchShell, language, reviewDigests: digests.join('') },
    transferables(collectViews(index_)),
  );
}

/** What tells two builds' copies of a review apart: its JSON, the bytes /reviews.json holds. */
function reviewDigest(review: PublishedReview): string {
  return createHash('sha256').update(JSON.stringify(review)).digest('base64url').slice(0, REVIEW_DIGEST_LENGTH);
}

/** The previous build's review positions by digest (REVIEW_DIGEST_LENGTH characters each, in its order). */
function positionsOf(digests: string | undefined): Map<string, number> {
  const positions = new Map<string, number>();
  for (let pos = 0; digests !== undefined && (pos + 1) * REVIEW_DIGEST_LENGTH <= digests.length; pos++) {
    positions.set(digests.slice(pos * REVIEW_DIGEST_LENGTH, (pos + 1) * REVIEW_DIGEST_LENGTH), pos);
  }
  return positions;
}

/**
 * Where the build in service holds the change log entry at a review log position, or -1. The log only grows,
 * and `checks` holds a check of each of its positions: up to the first position whose check differs, an entry
 * at the same position is the same entry.
 */
function heldChangePositions(checks: string): (index: number) => number {
  if (previousChanges === undefined) return () => -1;
  let same = 0;
  while (same < checks.length && same < previousChanges.checks.length && checks[same] === previousChanges.checks[same]) same++;
  const samePositions = Math.floor(same / CHECK_LENGTH);
  const at = new Map<number, number>();
  for (const [pos, index] of previousChanges.indices.entries()) if (index < samePositions) at.set(index, pos);
  return (index) => at.get(index) ?? -1;
}

/** The buffers of these views that can move whole (each once; a view of part of a buffer is copied instead). */
function transferables(views: ArrayBufferView[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) {
    const { buffer } = view;
    if (buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength && buffer.byteLength > 0) buffers.add(buffer);
  }
  return [...buffers];
}

function collectViews(value: unknown, into: ArrayBufferView[] = []): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) into.push(value);
  else if (value instanceof Map) for (const v of value.values()) collectViews(v, into);
  else if (Array.isArray(value)) for (const v of value) collectViews(v, into);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) collectViews(v, into);
  return into;
}
