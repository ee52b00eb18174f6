/**
 * Change detection (CONTRACT.md "WebSub decisions"): a topic changed when the SHA-256 of its bytes
 * differs from the last one notified (stored). Recordings run one at a time, in order. One the store
 * cannot take (PostgreSQL down, a full disk) is retried with backoff (`recordRetryMs`, doubling) until it
 * does; the caller's promise rejects at once, so a publish ping can say it was not recorded.
 *
 * Topics that leave the list (a technician removed from the content) lose their subscribers, who are told
 * `hub.mode=denied`, as the topic now answers 404.
 */
import type { HubOptions } from './hub.ts';
import type { HubStore, Subscription } from './hub-store.ts';
import type { Logger } from '../logger.ts';
import { recordTopicContents, type TopicCheck } from './record-topics.ts';
import { describeError } from './store-connector.ts';
import type { TopicSource } from './topic-source.ts';

export type TopicRecorder = {
  /** Re-reads the topics (all by default) and records each in the store; see `Hub.notifyIfChanged`. */
  record(topicUrls?: readonly string[], options?: { summarise?: boolean }): Promise<TopicCheck[]>;
  /** How long until the next retry of what the store did not take (the publish ping's Retry-After). */
  retryDelayMs(): number;
  start(): void;
  /** Stops retrying; resolves once a recording under way has finished. */
  stop(): Promise<void>;
};

export type TopicRecorderDeps = {
  store: HubStore;
  topics: TopicSource;
  log: Logger;
  now: () => number;
  retryMs: HubOptions['recordRetryMs'];
  onStoreError: (error: unknown) => void;
  /** Deliveries were queued: the worker should look now. */
  onEnqueued: () => void;
  /** A subscription of a topic that left the list was removed: tell its subscriber. */
  onRemoved: (subscription: Subscription) => void;
};

export function createTopicRecorder(deps: TopicRecorderDeps): TopicRecorder {
  const { store, topics, log } = deps;
  let chain: Promise<unknown> = Promise.resolve();
  /** Topics whose last recording failed, retried with backoff until the store takes them. */
  const unrecorded = new Set<string>();
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelayMs = deps.retryMs.first;
  let running = false;
  /** The topic list when last checked; undefined until the first full check (at start). */
  let knownTopics: ReadonlySet<string> | undefined;

  /** Checked against the list last seen, or against every stored subscription on the first check. */
  async function removeVanishedTopics(): Promise<void> {
    const current = new Set(topics.topicUrls);
    const before = knownTopics;
    knownTopics = current;
    if (before !== undefined && [...before].every((t) => current.has(t))) return;
    const gone = before === undefined ? [undefined] : [...before].filter((t) => !current.has(t));
    const subscriptions = (await Promise.all(gone.map((t) => store.listSubscriptions(t)))).flat();
    for (const subscription of subscriptions) {
      if (current.has(subscription.topic)) continue;
      await store.removeSubscription(subscription.topic, subscription.callback);
      log.info('websub_topic_removed', { topic: subscription.topic, callback: subscription.callback });
      deps.onRemoved(subscription);
    }
  }

  async function recordNow(requested: readonly string[], summarise: boolean): Promise<TopicCheck[]> {
    const checks = await recordTopicContents({ store, topics, log, now: deps.now }, requested, { summarise });
    await removeVanishedTopics();
    if (checks.some((c) => c.enqueued > 0)) deps.onEnqueued();
    return checks;
  }

  /** A recording failed: the store counts as failing, and the topics are tried again after a backoff. */
  function retryLater(topicUrls: readonly string[], err: unknown): void {
    deps.onStoreError(err);
    for (const topic of topicUrls) unrecorded.add(topic);
    log.error('websub_publish_not_recorded', { topics: [...unrecorded], error: describeError(err), retry_in_ms: retryDelayMs });
    if (retryTimer !== undefined || !running) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      const due = [...unrecorded];
      unrecorded.clear();
      retryDelayMs = Math.min(retryDelayMs * 2, deps.retryMs.max);
      // A failure calls retryLater again (inside record), with the longer delay.
      recorder.record(due).catch(() => {});
    }, retryDelayMs);
    retryTimer.unref();
  }

  const recorder: TopicRecorder = {
    record(topicUrls = topics.topicUrls, options = {}) {
      const run = chain.then(() => recordNow(topicUrls, options.summarise ?? false));
      chain = run.catch(() => {});
      return run.then(
        (checks) => {
          for (const topic of topicUrls) unrecorded.delete(topic);
          if (unrecorded.size === 0) retryDelayMs = deps.retryMs.first;
          return checks;
        },
        (err: unknown) => {
          retryLater(topicUrls, err);
          throw err;
        },
      );
    },
    retryDelayMs: () => retryDelayMs,
    start() {
      running = true;
    },
    async stop() {
      running = false;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      await chain;
    },
  };
  return recorder;
}
