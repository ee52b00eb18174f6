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
import { createHash, randomBytes } from 'node:crypto';
import type { ErrorBody } from '../../core/schemas/errors.ts';
import { appendHubQuery } from './callback-url.ts';
import { createCallbackClient, type CallbackClient } from './callback-client.ts';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker.ts';
import { createHubRequestSchema, parseHubRequest, type HubRequest, type LeaseBounds } from './hub-request.ts';
import type { HubStore } from './hub-store.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { TopicSource } from './topic-source.ts';

/** `Config.websub`, plus tuning that tests and benchmarks shorten. */
export type HubOptions = {
  allowPrivateCallbacks?: boolean;
  /** Waits before the 2nd and 3rd delivery attempt. */
  retryDelaysMs: readonly number[];
  lease: LeaseBounds;
} & Partial<DeliveryWorkerOptions & { maxPendingVerifications: number }>;

export const HUB_DEFAULTS = {
  maxAttempts: 3,
  pollIntervalMs: 1_000,
  claimTtlMs: 300_000,
  maxInFlight: 64,
  sweepIntervalMs: 60_000,
  maxPendingVerifications: 1_000,
} as const;

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
};

/** What the router answers: 202, or an error status with the service's error body. */
export type HubAnswer = { status: 202 } | { status: 400 | 503; body: ErrorBody; retryAfterSeconds?: number };

export type TopicCheck = { topic: string; changed: boolean; enqueued: number };

export type Hub = {
  /** Handles one hub request given as its form fields. */
  handleRequest(form: URLSearchParams): Promise<HubAnswer>;
  /** Re-reads topics (all by default) and fans out each whose bytes changed since last notified. */
  notifyIfChanged(topicUrls?: readonly string[]): Promise<TopicCheck[]>;
  /** Notifies changes made while the hub was down, then starts delivering. */
  start(): Promise<void>;
  /** Stops delivering and verifying; pending work stays in the store for the next start. */
  stop(): Promise<void>;
  /** Resolves once no verification or publish ping started so far is still running. */
  settled(): Promise<void>;
};

export function createHub(deps: HubDeps): Hub {
  const { store, topics, hubUrl } = deps;
  const options = { ...HUB_DEFAULTS, ...deps.options };
  const now = deps.now ?? Date.now;
  const makeChallenge = deps.challenge ?? (() => randomBytes(24).toString('base64url'));
  const log = deps.log ?? silentLogger;
  const ownsClient = deps.client === undefined;
  const client = deps.client ?? createCallbackClient({ allowPrivateCallbacks: options.allowPrivateCallbacks ?? false });
  const schema = createHubRequestSchema(topics.topicUrls, options.lease);
  const worker = createDeliveryWorker({ store, client, hubUrl, now, log, options });
  const background = new Set<Promise<unknown>>();
  let abort = new AbortController();
  let notifyChain: Promise<unknown> = Promise.resolve();
  const lastRecorded = new Map<string, string>();

  const runInBackground = (work: Promise<unknown>) => {
    const tracked = work
      .catch((err: unknown) => log.error('websub_background_task_failed', { error: String(err) }))
      .finally(() => background.delete(tracked));
    background.add(tracked);
  };

  async function verifyIntent(request: Extract<HubRequest, { callback: string }>, signal: AbortSignal): Promise<void> {
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
    if (request.mode === 'subscribe') {
      const at = now();
      const { topic, callback, secret, leaseSeconds } = request;
      await store.saveSubscription({ topic, callback, secret, leaseSeconds, expiresAt: at + leaseSeconds * 1000 }, at);
    } else {
      await store.removeSubscription(request.topic, request.callback);
    }
    log.info('websub_intent_verified', fields);
  }

  async function recordChanges(topicUrls: readonly string[]): Promise<TopicCheck[]> {
    const checks: TopicCheck[] = [];
    for (const topic of topicUrls) {
      const content = await topics.read(topic).catch((err: unknown) => {
        log.error('websub_topic_unreadable', { topic, error: String(err) });
        return undefined;
      });
      if (!content) {
        checks.push({ topic, changed: false, enqueued: 0 });
        continue;
      }
      const hash = createHash('sha256').update(content.body).digest('hex');
      if (lastRecorded.get(topic) === hash) {
        checks.push({ topic, changed: false, enqueued: 0 });
        continue;
      }
      const recorded = await store.recordTopicContent({ topic, hash, contentType: content.contentType, body: content.body }, now());
      lastRecorded.set(topic, hash);
      checks.push({ topic, ...recorded });
      if (recorded.changed) log.info('websub_topic_changed', { topic, hash, subscribers: recorded.enqueued });
    }
    if (checks.some((c) => c.enqueued > 0)) worker.wake();
    return checks;
  }

  const hub: Hub = {
    async handleRequest(form) {
      const parsed = parseHubRequest(schema, form);
      if (!parsed.ok) {
        return {
          status: 400,
          body: { error: 'invalid_request', message: parsed.issues.map((i) => i.message).join('; '), issues: parsed.issues },
        };
      }
      const request = parsed.request;
      if (request.mode === 'publish') {
        runInBackground(hub.notifyIfChanged(request.topics));
        return { status: 202 };
      }
      if (background.size >= options.maxPendingVerifications) {
        return {
          status: 503,
          body: { error: 'hub_busy', message: 'The hub has too many verifications in progress; try again shortly.' },
          retryAfterSeconds: 5,
        };
      }
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
      runInBackground(verifyIntent(request, abort.signal));
      return { status: 202 };
    },

    notifyIfChanged(topicUrls = topics.topicUrls) {
      const run = notifyChain.then(() => recordChanges(topicUrls));
      notifyChain = run.catch(() => {});
      return run;
    },

    async start() {
      abort = new AbortController();
      await hub.notifyIfChanged();
      worker.start();
    },

    async stop() {
      abort.abort();
      await worker.stop();
      await hub.settled();
      if (ownsClient) client.close();
    },

    async settled() {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
  return hub;
}
