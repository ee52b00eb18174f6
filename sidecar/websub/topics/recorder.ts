/**
 * Change detection (CONTRACT.md "WebSub decisions"): a topic changed when the SHA-256 of its bytes
 * differs from the last one notified (stored). Recordings run one at a time, in order. One the store
 * cannot take (PostgreSQL down, a full disk) is retried with backoff (`recordRetryMs`, doubling) until it
 * does; the caller's promise rejects at once, so a publish ping can say it was not recorded.
 *
 * Topics that leave the list (a technician removed from the content) lose their subscribers, who are told
 * `hub.mode=denied`, as the topic now answers 404.
 *
 * A publish hears the verdict for its build, not for its own recording alone: its first ping loads the
 * new build, whose swap makes the hub re-read every topic (server.ts `onSwap`) before the next ping
 * arrives, and that ping then finds the bytes already recorded. So the recorder keeps, per topic, what
 * the recordings of the build last read made of it (changed if any of them changed the store).
 */
import type { HubOptions } from '../hub.ts';
import type { HubStore, Subscription } from '../store/hub-store.ts';
import type { Logger } from '../../logger.ts';
import { recordTopicContents, type TopicCheck } from './record-contents.ts';
import { describeError } from '../store/connector.ts';
import type { TopicSource } from './source.ts';

export type TopicRecorder = {
  /** Re-reads the topics (all by default) and records each in the store; see `Hub.notifyIfChanged`. */
  record(topicUrls?: readonly string[], options?: { summarise?: boolean }): Promise<TopicCheck[]>;
  /**
   * `record` for a publish ping: each topic re-read (derived ones included) with the verdict for the
   * build it was read from, summed over every recording of that build in this process.
   */
  recordPublish(topicUrls: readonly string[]): Promise<TopicCheck[]>;
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
  /** Per topic, the verdict for the last build read (only sources that name their builds). */
  const verdicts = new Map<string, TopicCheck>();

  function verdictOf(check: TopicCheck): TopicCheck {
    if (check.build === undefined) return check;
    const earlier = verdicts.get(check.topic);
    const verdict =
      earlier?.build === check.build ? { ...check, changed: earlier.changed || check.changed, enqueued: earlier.enqueued + check.enqueued } : check;
    verdicts.set(check.topic, verdict);
    return verdict;
  }

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

  async function recordNow(requested: readonly string[], summarise: boolean) {
    const checks = await recordTopicContents({ store, topics, log, now: deps.now }, requested, { summarise });
    const buildVerdicts = checks.map(verdictOf);
    await removeVanishedTopics();
    if (checks.some((c) => c.enqueued > 0)) deps.onEnqueued();
    return { checks, verdicts: buildVerdicts };
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

  function recordInTurn(topicUrls: readonly string[], summarise: boolean) {
    const run = chain.then(() => recordNow(topicUrls, summarise));
    chain = run.catch(() => {});
    return run.then(
      (recorded) => {
        for (const topic of topicUrls) unrecorded.delete(topic);
        if (unrecorded.size === 0) retryDelayMs = deps.retryMs.first;
        return recorded;
      },
      (err: unknown) => {
        retryLater(topicUrls, err);
        throw err;
      },
    );
  }

  const recorder: TopicRecorder = {
    record: async (topicUrls = topics.topicUrls, options = {}) => (await recordInTurn(topicUrls, options.summarise ?? false)).checks,
    recordPublish: async (topicUrls) => (await recordInTurn(topicUrls, false)).verdicts,
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
