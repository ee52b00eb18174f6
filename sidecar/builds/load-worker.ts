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
 * A file the build in service serves with the same ETags is named, not read and sent (read-build.ts): the
 * serving thread keeps the representation it holds. The reviews and the change log are sent whole: keeping
 * the unchanged ones as well saved about 50 MB of peak memory at 10k reviews, but the serving thread's longest
 * hold during a publish was about 10 ms longer with it (docs/development.md, issue 41).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import type { Manifest } from '../../core/publishing/manifest.ts';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { checkBuildTarget } from './build-target.ts';
import { readBuild, servedKey } from './read-build.ts';
import type { WorkerMessage } from './load-build.ts';
import { lowerThisThreadPriority } from '../thread-priority.ts';

const CHUNK = 250;
const FILES_CHUNK = 100;

// Loading waits for the serving thread, never the other way round (../thread-priority.ts).
lowerThisThreadPriority();
// A thread of its own: the URLs are built once here, from the base the serving thread passes.
const { dir, publicUrl, targetDistDir, previousDir } = workerData as {
  dir: string;
  publicUrl: string;
  /** The DIST_DIR of the service swapping this build in: a build made for another address or folder is refused. */
  targetDistDir?: string;
  /** The build in service's folder: its manifest says which files it serves (read-build.ts `servedFiles`). */
  previousDir?: string;
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
  for (let i = 0; i < reviews.length; i += CHUNK) {
    await post({ kind: 'reviews', reviews: reviews.slice(i, i + CHUNK), lowerTexts: lowerTexts.slice(i, i + CHUNK), lowerTitles: lowerTitles.slice(i, i + CHUNK) });
  }
  for (let i = 0; i < changes.entries.length; i += CHUNK) await post({ kind: 'changes', entries: changes.entries.slice(i, i + CHUNK) });
  const { reviews: _reviews, ...datasetRest } = dataset;
  const index_ = { ...indexRest, text: textRest };
  await post(
    { kind: 'done', buildId: read.build_id, dataLastModified: read.files[PATHS.reviewsJson]!.last_modified, dataset: datasetRest, insights, changes: { ...changes, entries: [] }, index: index_, searchShell, language },
    transferables(collectViews(index_)),
  );
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
