/**
 * Recording a publish without a running service: the build in `distDir` is read as the service would
 * read it, and each of its topics (slice feeds included) is recorded in the hub's store (DATA_DIR or
 * DATABASE_URL) exactly as the service's hub records it on a ping (record-contents.ts), so a delivery is
 * queued for every subscriber of a changed topic and the next start sends them. A service starting
 * meanwhile would record the same bytes: the store makes one of the two see the change. A service that is
 * running holds the SQLite store's lock, so this then fails naming it (StoreLockedError) rather than
 * writing beside it.
 */
import type { ServiceUrls } from '../../../core/urls.ts';
import { createBuildStore, type BuildStore } from '../../builds/build-store.ts';
import { createBuildTopicSource } from '../../builds/build-topic-source.ts';
import type { HubStore } from '../store/hub-store.ts';
import { silentLogger } from '../../logger.ts';
import { describeStoreFailure, openHubStore } from '../store/open.ts';
import { recordTopicContents, type TopicCheck } from './record-contents.ts';

export type PublishRecording =
  /** Every topic as the store recorded it (changed or not), and how many deliveries were queued. */
  | { ok: true; topics: TopicCheck[]; queued: number }
  /** The store could not be opened or could not record: one sentence naming DATA_DIR or DATABASE_URL and why. */
  | { ok: false; message: string };

export async function recordPublishWithoutService(options: {
  store: { dataDir: string; databaseUrl: string | undefined };
  distDir: string;
  urls: ServiceUrls;
}): Promise<PublishRecording> {
  let store: HubStore | undefined;
  let builds: BuildStore | undefined;
  try {
    store = await openHubStore(options.store);
    builds = await createBuildStore({ distDir: options.distDir, urls: options.urls });
    const topics = createBuildTopicSource({ builds, urls: options.urls });
    const checks = await recordTopicContents({ store, topics, log: silentLogger, now: Date.now }, topics.topicUrls);
    return { ok: true, topics: checks, queued: checks.reduce((sum, c) => sum + c.enqueued, 0) };
  } catch (error) {
    return { ok: false, message: describeStoreFailure(options.store, error) };
  } finally {
    builds?.close();
    await store?.close().catch(() => {});
  }
}
