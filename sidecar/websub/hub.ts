/**
 * The WebSub hub (W3C WebSub Recommendation, with the decisions of CONTRACT.md "WebSub decisions").
 *
 * Subscription lifecycle (interface.md "States and transitions"): a valid subscribe or unsubscribe
 * request is answered 202 at once and its intent verified asynchronously (§5.3; only once `start()` has
 * compared the topics: the service answers requests before that, and a subscription saved during the
 * comparison would be notified of its topic's first recording, bytes that did not change): a GET to the callback
 * with hub.mode, hub.topic, hub.challenge (and hub.lease_seconds for subscribe); only a 2xx whose body is
 * exactly the challenge verifies. A subscription is stored, or renewed with its new lease and secret,
 * only once verified; a failed re-verification leaves the old one as it was. Verified unsubscribes remove
 * it. Leases expire: no notification after `expiresAt`.
 *
 * Change detection: a topic changed when the SHA-256 of its bytes differs from the last one notified
 * (stored). `start()` compares every topic, so a change published while the hub was down is delivered;
 * `hub.mode=publish` pings and the publish pipeline call `notifyIfChanged()`.
 *
 * This file only wires the hub's rooms: requests/handle-request.ts answers a request, requests/admission.ts decides what is
 * let in, requests/verify-intent.ts verifies it, topics/recorder.ts records changes, delivery/worker.ts delivers
 * them, store/watch.ts keeps an eye on the store.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../core/config.ts';
import { createAdmission } from './requests/admission.ts';
import { createBackground } from './background-tasks.ts';
import { createCallbackClient, type CallbackClient } from './callbacks/client.ts';
import { createDeliveryWorker, type StoppedDeliveries } from './delivery/worker.ts';
import { unavailable, type HubAnswer } from './requests/answers.ts';
import { createHubRequestSchema } from './requests/parse-request.ts';
import { createRequestAnswerer } from './requests/handle-request.ts';
import type { HubStore, StoreCheck } from './store/hub-store.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { TopicCheck } from './topics/record-contents.ts';
import { createStoreWatch } from './store/watch.ts';
import { createTopicRecorder } from './topics/recorder.ts';
import type { TopicSource } from './topics/source.ts';
import { sendDenied, verifyIntent } from './requests/verify-intent.ts';

export type { HubAnswer, TopicCheck };

/** `Config.websub` (core/config.ts holds every default): the hub's limits and delivery tuning. */
export type HubOptions = Omit<Config['websub'], 'rateLimit'>;

export type HubDeps = {
  store: HubStore;
  topics: TopicSource;
  /** Absolute hub URL: the service's `ServiceUrls.hub` (core/urls.ts). */
  hubUrl: string;
  options: HubOptions;
  /** Outgoing HTTPS; defaults to `createCallbackClient({ allowPrivateCallbacks })`, closed by `stop()`. */
  client?: CallbackClient;
  now?: () => number;
  challenge?: () => string;
  log?: Logger;
  /** False while the store cannot be opened (store/connector.ts): requests then get 503 hub_unavailable. */
  storeReady?: () => boolean;
};

export type Hub = {
  /** Handles one hub request given as its form fields. */
  handleRequest(form: URLSearchParams): Promise<HubAnswer>;
  /**
   * Re-reads topics (all by default) and fans out each whose bytes differ from the store's. Rejects when
   * the store cannot record them; the hub then retries with backoff, and again when the store comes back.
   */
  notifyIfChanged(topicUrls?: readonly string[]): Promise<TopicCheck[]>;
  /** The store as last checked (readiness): ok, or the problem in one phrase. */
  storeHealth(): StoreCheck;
  /** Notifies changes made while the hub was down, then verifies the intents that waited for it and starts delivering. */
  start(): Promise<void>;
  /**
   * Stops verifying and claiming; deliveries in flight get `graceMs` to finish and have their answers
   * recorded, the rest are aborted and given back. Pending work stays in the store for the next start.
   */
  stop(options?: { graceMs?: number }): Promise<{ deliveries: StoppedDeliveries }>;
  /**
   * Resolves once no verification or publish ping started so far is still running. Intents waiting for
   * `start()`'s comparison have not started; a stop drops them.
   */
  settled(): Promise<void>;
  /**
   * Resolves once everything started so far is done: verifications and publish pings settled, and every
   * delivery due now attempted (retries scheduled for later excepted). The signal tests wait on to
   * prove that nothing was sent.
   */
  drained(): Promise<void>;
};

export function createHub(deps: HubDeps): Hub {
  const { store, topics, options } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? silentLogger;
  const client = deps.client ?? createCallbackClient({ allowPrivateCallbacks: options.allowPrivateCallbacks });
  const onStoreError = (err: unknown) => watch.reportFailure(err);
  const background = createBackground(log);
  let abort = new AbortController();
  let stopping = false;
  const admission = createAdmission(options);
  const worker = createDeliveryWorker({ store, client, hubUrl: deps.hubUrl, now, log, options, onStoreError });
  const recorder = createTopicRecorder({
    store, topics, log, now, retryMs: options.recordRetryMs, onStoreError,
    onEnqueued: () => worker.wake(),
    onRemoved: (subscription) => background.run(sendDenied(client, subscription, 'the topic no longer exists', abort.signal)),
  });
  // Back after a failure: compare every topic with the store (a change may have gone unrecorded here or
  // at another instance), and let the worker apply what it could not record.
  const onRecovered = () => {
    void recorder.record().catch(() => {});
    worker.wake();
  };
  const watch = createStoreWatch({ store, intervalMs: options.storeCheckIntervalMs, log, onRecovered });
  const intent = { store, client, now, log, onStoreError, makeChallenge: deps.challenge ?? (() => randomBytes(24).toString('base64url')) };
  let compared = Promise.withResolvers<void>();
  const answer = createRequestAnswerer({
    schema: createHubRequestSchema(() => topics.topicUrls, options.lease, topics.indexUrl),
    store, client, admission, recorder,
    health: () => watch.health(),
    verify: (request, address) => compared.promise.then(() => background.run(verifyIntent(intent, request, address, abort.signal))),
  });

  const hub: Hub = {
    async handleRequest(form) {
      if (deps.storeReady?.() === false) return unavailable();
      if (stopping) return unavailable('the hub is stopping');
      try {
        return await answer(form);
      } catch (err) {
        // The store could not be read (PostgreSQL down, disk gone): nothing was accepted, so say so.
        watch.reportFailure(err);
        log.error('websub_store_unavailable', { error: String(err) });
        return unavailable();
      }
    },
    notifyIfChanged: (topicUrls) => recorder.record(topicUrls),
    storeHealth: () => watch.health(),
    async start() {
      abort = new AbortController();
      stopping = false;
      recorder.start();
      watch.start();
      // A store that fails now is retried (the recorder's backoff), so the hub starts either way.
      await recorder.record(undefined, { summarise: true }).catch(() => {});
      compared.resolve();
      worker.start();
    },
    async stop(stopOptions = {}) {
      stopping = true;
      watch.stop();
      abort.abort();
      compared = Promise.withResolvers<void>();
      // A recording under way (a ping, a build swap) finishes before the caller closes the store.
      await recorder.stop();
      const deliveries = await worker.stop(stopOptions);
      await background.settled();
      if (deps.client === undefined) client.close();
      return { deliveries };
    },
    settled: () => background.settled(),
    async drained() {
      await background.settled();
      await worker.drained();
      // A delivery's outcome may have started background work (a denial); wait for that too.
      await background.settled();
    },
  };
  return hub;
}
