/**
 * The WebSub hub (W3C WebSub Recommendation, with the decisions of CONTRACT.md "WebSub decisions").
 *
 * Subscription lifecycle (interface.md "States and transitions"): a valid subscribe or unsubscribe
 * request is answered 202 at once and its intent verified asynchronously (§5.3): a GET to the callback
 * with hub.mode, hub.topic, hub.challenge (and hub.lease_seconds for subscribe); only a 2xx whose body is
 * exactly the challenge verifies. A subscription is stored, or renewed with its new lease and secret,
 * only once verified; a failed re-verification leaves the old one as it was. Verified unsubscribes remove
 * it. Leases expire: no notification after `expiresAt`.
 *
 * Change detection: a topic changed when the SHA-256 of its bytes differs from the last one notified
 * (stored). `start()` compares every topic, so a change published while the hub was down is delivered;
 * `hub.mode=publish` pings and the publish pipeline call `notifyIfChanged()`.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../core/config.ts';
import type { ErrorBody } from '../../core/schemas/errors.ts';
import { appendHubQuery, callbackDomainOf } from './callback-url.ts';
import { clientKeyOf } from '../http/client-address.ts';
import { createCallbackClient, type CallbackClient } from './callback-client.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { createHubRequestSchema, parseHubRequest, type HubRequest, type LeaseBounds } from './hub-request.ts';
import type { HubStore } from './hub-store.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { describeError } from './store-connector.ts';
import type { CallbackKeys, StoreCheck } from './hub-store.ts';
import { createStoreWatch } from './store-watch.ts';
import { recordTopicContents, type TopicCheck } from './record-topics.ts';

export type { TopicCheck };
import type { TopicSource } from './topic-source.ts';

/** `Config.websub` (core/config.ts holds every default): the hub's limits and delivery tuning. */
export type HubOptions = Omit<Config['websub'], 'rateLimit'>;

export type HubDeps = {
  store: HubStore;
  topics: TopicSource;
  /** Absolute hub URL, `createServiceUrls(base).hub`. */
  hubUrl: string;
  options: HubOptions;
  /** Outgoing HTTPS; defaults to `createCallbackClient({ allowPrivateCallbacks })`, closed by `stop()`. */
  client?: CallbackClient;
  now?: () => number;
  challenge?: () => string;
  log?: Logger;
  /** False while the store cannot be opened (store-connector.ts): requests then get 503 hub_unavailable. */
  storeReady?: () => boolean;
};

/**
 * What the router answers: 202, or an error status with the service's error body. A publish ping gets
 * 202 only once the store has recorded every named topic (changed or not); otherwise 503
 * `publish_not_recorded`, and the hub keeps retrying the recording itself.
 */
export type HubAnswer = { status: 202 } | { status: 400 | 403 | 503; body: ErrorBody; retryAfterSeconds?: number };

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
  /** Notifies changes made while the hub was down, then starts delivering. */
  start(): Promise<void>;
  /** Stops delivering and verifying; pending work stays in the store for the next start. */
  stop(): Promise<void>;
  /** Resolves once no verification or publish ping started so far is still running. */
  settled(): Promise<void>;
  /**
   * Resolves once everything started so far is done: verifications and publish pings settled, and every
   * delivery due now attempted (retries scheduled for later excepted). The signal tests wait on to
   * prove that nothing was sent.
   */
  drained(): Promise<void>;
};

export function createHub(deps: HubDeps): Hub {
  const { store, topics, hubUrl } = deps;
  const { options } = deps;
  const now = deps.now ?? Date.now;
  const makeChallenge = deps.challenge ?? (() => randomBytes(24).toString('base64url'));
  const log = deps.log ?? silentLogger;
  const ownsClient = deps.client === undefined;
  const client = deps.client ?? createCallbackClient({ allowPrivateCallbacks: options.allowPrivateCallbacks });
  const schema = createHubRequestSchema(() => topics.topicUrls, options.lease, topics.indexUrl);
  const worker = createDeliveryWorker({ store, client, hubUrl, now, log, options, onStoreError: (err) => watch.reportFailure(err) });
  const background = new Set<Promise<unknown>>();
  /** Verifications under way per callback domain and per address (`domain x` / `address y`), and how many are subscribes. */
  const pendingVerifications = new Map<string, { all: number; subscribes: number }>();
  let abort = new AbortController();
  let notifyChain: Promise<unknown> = Promise.resolve();
  /** Topics whose last recording failed, retried with backoff until the store takes them. */
  const unrecorded = new Set<string>();
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelayMs = options.recordRetryMs.first;
  let running = false;
  const watch = createStoreWatch({
    store,
    intervalMs: options.storeCheckIntervalMs,
    log,
    // Back after a failure: compare every topic with the store (a change may have gone unrecorded here
    // or at another instance), and let the worker apply what it could not record.
    onRecovered: () => {
      void hub.notifyIfChanged().catch(() => {});
      worker.wake();
    },
  });
  /** The topic list when last checked; undefined until the first full check (at start). */
  let knownTopics: ReadonlySet<string> | undefined;

  const runInBackground = (work: Promise<unknown>) => {
    const tracked = work
      .catch((err: unknown) => log.error('websub_background_task_failed', { error: String(err) }))
      .finally(() => background.delete(tracked));
    background.add(tracked);
  };

  async function verifyIntent(request: Extract<HubRequest, { callback: string }>, callbackAddress: string, signal: AbortSignal): Promise<void> {
    const challenge = makeChallenge();
    const params: Record<string, string> = { 'hub.mode': request.mode, 'hub.topic': request.topic, 'hub.challenge': challenge };
    if (request.mode === 'subscribe') params['hub.lease_seconds'] = String(request.leaseSeconds);
    const result = await client.send({ method: 'GET', url: appendHubQuery(request.callback, params), signal });
    const answer = result.ok ? result.response : undefined;
    const verified =
      answer !== undefined && answer.status >= 200 && answer.status < 300 && !answer.truncated && answer.body.equals(Buffer.from(challenge));
    const fields = { mode: request.mode, topic: request.topic, callback: request.callback };
    if (!verified) {
      const why = result.ok ? `HTTP ${result.response.status}${answer && answer.status < 300 ? ', body is not the challenge' : ''}` : result.message;
      log.info('websub_intent_not_verified', { ...fields, why });
      return;
    }
    try {
      if (request.mode === 'subscribe') {
        const at = now();
        const { topic, callback, secret, leaseSeconds } = request;
        await store.saveSubscription({ topic, callback, secret, leaseSeconds, expiresAt: at + leaseSeconds * 1000, callbackAddress }, at);
      } else {
        await store.removeSubscription(request.topic, request.callback);
      }
    } catch (err) {
      watch.reportFailure(err);
      log.error('websub_intent_not_saved', { ...fields, error: String(err) });
      // §5.2: a subscription the hub cannot keep is denied, so the subscriber knows to try again later
      // rather than wait for notifications that will never come.
      if (request.mode === 'subscribe') await sendDenied(request, 'the hub could not save the subscription; subscribe again later', signal);
      return;
    }
    log.info('websub_intent_verified', fields);
  }

  async function sendDenied(request: { topic: string; callback: string }, reason: string, signal: AbortSignal): Promise<void> {
    const url = appendHubQuery(request.callback, { 'hub.mode': 'denied', 'hub.topic': request.topic, 'hub.reason': reason });
    await client.send({ method: 'GET', url, signal });
  }

  /**
   * Topics that left the list (a technician removed from the content): their subscribers are removed
   * and told `hub.mode=denied`, as the topic now answers 404. Checked against the list last seen, or
   * against every stored subscription on the first check.
   */
  async function denyVanishedTopics(): Promise<void> {
    const current = new Set(topics.topicUrls);
    const before = knownTopics;
    knownTopics = current;
    if (before !== undefined && [...before].every((t) => current.has(t))) return;
    const subscriptions = before === undefined ? await store.listSubscriptions() : (await Promise.all([...before].filter((t) => !current.has(t)).map((t) => store.listSubscriptions(t)))).flat();
    for (const subscription of subscriptions) {
      if (current.has(subscription.topic)) continue;
      await store.removeSubscription(subscription.topic, subscription.callback);
      log.info('websub_topic_removed', { topic: subscription.topic, callback: subscription.callback });
      runInBackground(sendDenied(subscription, 'the topic no longer exists', abort.signal));
    }
  }

  async function recordChanges(requested: readonly string[]): Promise<TopicCheck[]> {
    const checks = await recordTopicContents({ store, topics, log, now }, requested);
    await denyVanishedTopics();
    if (checks.some((c) => c.enqueued > 0)) worker.wake();
    return checks;
  }

  async function answerRequest(form: URLSearchParams): Promise<HubAnswer> {
    const parsed = parseHubRequest(schema, form);
    if (!parsed.ok) {
      return {
        status: 400,
        body: { error: 'invalid_request', message: parsed.issues.map((i) => i.message).join('; '), issues: parsed.issues },
      };
    }
    const request = parsed.request;
    if (request.mode === 'publish') {
      try {
        await hub.notifyIfChanged(request.topics);
        return { status: 202 };
      } catch (err) {
        return {
          status: 503,
          body: {
            error: 'publish_not_recorded',
            message: `The hub could not record the change (${describeError(err)}); it retries until its store accepts it, and notifies the subscribers then.`,
          },
          retryAfterSeconds: Math.max(1, Math.ceil(retryDelayMs / 1000)),
        };
      }
    }
    const health = watch.health();
    if (!health.ok) return unavailable(health.problem);
    if (background.size >= options.maxPendingVerifications) {
      return {
        status: 503,
        body: { error: 'hub_busy', message: 'The hub has too many verifications in progress; try again shortly.' },
        retryAfterSeconds: 5,
      };
    }
    // Limits count what costs: the callback's resolved address (IPv6 by /64) and its registrable domain,
    // so twenty names of one wildcard domain, or twenty domains on one address, share one allowance.
    const checked = await client.check(request.callback);
    if (!checked.ok) {
      return {
        status: 400,
        body: {
          error: 'callback_refused',
          message: `hub.callback refused: ${checked.message}`,
          issues: [{ path: ['hub.callback'], message: checked.message, code: checked.reason }],
        },
      };
    }
    const keys: CallbackKeys = { domain: callbackDomainOf(request.callback), address: clientKeyOf(checked.address.address) };
    const named = [`domain ${keys.domain}`, `address ${keys.address}`];
    const pending = [pendingVerifications.get(named[0]!), pendingVerifications.get(named[1]!)].map((p) => p ?? { all: 0, subscribes: 0 });
    const busiest = pending[0]!.all >= pending[1]!.all ? 0 : 1;
    if (pending[busiest]!.all >= options.maxPendingVerificationsPerHost) {
      return {
        status: 503,
        body: {
          error: 'callback_host_busy',
          message: `The hub is still verifying ${pending[busiest]!.all} requests for callbacks on ${named[busiest]}; try again once they are answered.`,
        },
        retryAfterSeconds: 30,
      };
    }
    if (request.mode === 'subscribe' && !(await store.findSubscription(request.topic, request.callback))) {
      const stored = await store.countSubscriptionsOf(keys);
      const counts = [stored.domain + pending[0]!.subscribes, stored.address + pending[1]!.subscribes];
      const fullest = counts[0]! >= counts[1]! ? 0 : 1;
      if (counts[fullest]! >= options.maxSubscriptionsPerHost) {
        return {
          status: 403,
          body: {
            error: 'subscription_limit',
            message: `Callbacks on ${named[fullest]} already hold ${counts[fullest]} subscriptions, the most this hub keeps for one domain or address; unsubscribe some first.`,
            issues: [{ path: ['hub.callback'], message: `at most ${options.maxSubscriptionsPerHost} subscriptions per callback domain and per address`, code: 'too_many_subscriptions' }],
          },
        };
      }
    }
    const counted = request.mode === 'subscribe' ? 1 : 0;
    for (const key of named) {
      const current = pendingVerifications.get(key) ?? { all: 0, subscribes: 0 };
      pendingVerifications.set(key, { all: current.all + 1, subscribes: current.subscribes + counted });
    }
    runInBackground(
      verifyIntent(request, keys.address, abort.signal).finally(() => {
        for (const key of named) {
          const left = pendingVerifications.get(key)!;
          if (left.all === 1) pendingVerifications.delete(key);
          else pendingVerifications.set(key, { all: left.all - 1, subscribes: left.subscribes - counted });
        }
      }),
    );
    return { status: 202 };
  }

  const unavailable = (problem?: string): HubAnswer => ({
    status: 503,
    body: {
      error: 'hub_unavailable',
      message: problem ? `The hub cannot use its store right now: ${problem}; try again shortly.` : 'The hub cannot reach its store right now; try again shortly.',
    },
    retryAfterSeconds: 30,
  });

  /** A recording failed: the store counts as failing, and the topics are tried again after a backoff. */
  function retryLater(topicUrls: readonly string[], err: unknown): void {
    watch.reportFailure(err);
    for (const topic of topicUrls) unrecorded.add(topic);
    log.error('websub_publish_not_recorded', { topics: [...unrecorded], error: describeError(err), retry_in_ms: retryDelayMs });
    if (retryTimer !== undefined || !running) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      const due = [...unrecorded];
      unrecorded.clear();
      retryDelayMs = Math.min(retryDelayMs * 2, options.recordRetryMs.max);
      // A failure calls retryLater again (inside notifyIfChanged), with the longer delay.
      hub.notifyIfChanged(due).catch(() => {});
    }, retryDelayMs);
    retryTimer.unref();
  }

  const hub: Hub = {
    async handleRequest(form) {
      if (deps.storeReady?.() === false) return unavailable();
      try {
        return await answerRequest(form);
      } catch (err) {
        // The store could not be read (PostgreSQL down, disk gone): nothing was accepted, so say so.
        watch.reportFailure(err);
        log.error('websub_store_unavailable', { error: String(err) });
        return unavailable();
      }
    },

    notifyIfChanged(topicUrls = topics.topicUrls) {
      const run = notifyChain.then(() => recordChanges(topicUrls));
      notifyChain = run.catch(() => {});
      return run.then(
        (checks) => {
          for (const topic of topicUrls) unrecorded.delete(topic);
          if (unrecorded.size === 0) retryDelayMs = options.recordRetryMs.first;
          return checks;
        },
        (err: unknown) => {
          retryLater(topicUrls, err);
          throw err;
        },
      );
    },

    storeHealth: () => watch.health(),

    async start() {
      abort = new AbortController();
      running = true;
      watch.start();
      // A store that fails now is retried (retryLater), so the hub starts either way.
      await hub.notifyIfChanged().catch(() => {});
      worker.start();
    },

    async stop() {
      running = false;
      watch.stop();
      clearTimeout(retryTimer);
      retryTimer = undefined;
      abort.abort();
      // A recording under way (a ping, a build swap) finishes before the caller closes the store.
      await notifyChain;
      await worker.stop();
      await hub.settled();
      if (ownsClient) client.close();
    },

    async settled() {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
    async drained() {
      await hub.settled();
      await worker.drained();
      // A delivery's outcome may have started background work (a denial); wait for that too.
      await hub.settled();
    },
  };
  return hub;
}
