/**
 * Content distribution (WebSub §7): claims due deliveries from the store and POSTs each subscriber the
 * newest content of its topic, with the topic's own Content-Type, the hub/self Link header, and
 * `X-Hub-Signature: sha256=<hex HMAC>` when the subscription has a secret (§8).
 *
 * An attempt fails on a non-2xx answer (3xx included: redirects are not followed), a network error or a
 * timeout. After a failure the next attempt waits `retryDelaysMs[n]`; the `maxAttempts`-th consecutive
 * failure removes the subscription and the callback then gets a `hub.mode=denied` GET with `hub.reason`
 * (CONTRACT.md; a departure from §7, which keeps failing subscriptions until their lease ends). A 410
 * removes the subscription at once. Any 2xx resets the count.
 *
 * An outcome the store cannot record (PostgreSQL cut, a full disk) is kept in memory and written, in
 * order, as soon as the store answers again, so a blip delays deliveries by about the blip rather than
 * by the claim deadline meant for dead instances, and no subscriber gets a delivery twice because of it.
 * Work is claimed in batches (a quarter of `maxInFlight` at least), not one claim per finished delivery;
 * 2xx outcomes are written in batches too, and the deliveries of a batch start a few per event-loop turn,
 * so search requests are answered between them during a large fan-out.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { appendHubQuery } from './callback-url.ts';
import type { CallbackClient } from './callback-client.ts';
import type { ClaimedDelivery, HubStore, Subscription, TopicSnapshot } from './hub-store.ts';
import type { Logger } from '../logger.ts';
import { topicLinkHeader } from '../../core/publishing/headers.ts';

/** Deliveries started in one turn of the event loop: one alone starved the fan-out (a third of the throughput). */
const STARTS_PER_TURN = 4;

export type DeliveryWorkerOptions = {
  retryDelaysMs: readonly number[];
  maxAttempts: number;
  /** How often the store is polled for due work (other instances' and retries). */
  pollIntervalMs: number;
  /** How long a claim protects a delivery from other instances; longer than any attempt takes. */
  claimTtlMs: number;
  /** Most deliveries this instance has claimed and not finished at once. */
  maxInFlight: number;
  /** How often expired subscriptions are removed. */
  sweepIntervalMs: number;
};

export type DeliveryWorker = {
  start(): void;
  /** Stops claiming, cancels attempts in progress (their claims are given back) and waits for them. */
  stop(): Promise<void>;
  /** Looks for due work now (after a change was recorded). */
  wake(): void;
  /**
   * Resolves once the worker has nothing to do: no attempt in progress and no delivery due now (a retry
   * scheduled for later does not count). Tests wait on it instead of sleeping; at once when stopped.
   */
  drained(): Promise<void>;
};

export function createDeliveryWorker(deps: {
  store: HubStore;
  client: CallbackClient;
  hubUrl: string;
  now: () => number;
  log: Logger;
  options: DeliveryWorkerOptions;
  /** Told of every store failure the worker meets (store-watch.ts). */
  onStoreError?: (error: unknown) => void;
}): DeliveryWorker {
  const { store, client, hubUrl, now, log, options } = deps;
  /** Outcomes not yet written (the store failed), oldest first. */
  let kept: (() => Promise<unknown>)[] = [];
  const batch = Math.max(1, Math.floor(options.maxInFlight / 4));
  const inFlight = new Set<Promise<void>>();
  const snapshots = new Map<string, TopicSnapshot>();
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let abort = new AbortController();
  let wakePending = false;
  let wakeUp: (() => void) | undefined;
  let lastSweep = 0;
  let drainWaiters: (() => void)[] = [];

  const wake = () => {
    wakePending = true;
    wakeUp?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakePending) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  async function loop(): Promise<void> {
    while (running) {
      wakePending = false;
      try {
        await applyKept();
        await sweepExpired();
        const room = options.maxInFlight - inFlight.size;
        if (room >= batch || (room > 0 && inFlight.size === 0)) {
          const at = now();
          const claims = await store.claimDueDeliveries({ now: at, limit: room, claimToken: randomUUID(), claimUntil: at + options.claimTtlMs });
          // A few deliveries start per turn of the event loop (their HMACs and the TLS writes of their
          // bodies are the fan-out's largest synchronous costs): requests that arrive meanwhile are served
          // between them, instead of waiting behind a whole batch.
          for (const [i, claim] of claims.entries()) {
            track(deliver(claim));
            if (i % STARTS_PER_TURN === STARTS_PER_TURN - 1) await new Promise<void>((resolve) => setImmediate(resolve));
          }
          if (claims.length === room) continue;
          if (claims.length === 0 && inFlight.size === 0 && kept.length === 0) notifyDrained();
        }
      } catch (err) {
        deps.onStoreError?.(err);
        log.error('websub_delivery_loop_failed', { error: String(err) });
      }
      if (running) await sleep(options.pollIntervalMs);
    }
  }

  /** Records an outcome now, or keeps it for when the store answers again. */
  async function record(write: () => Promise<unknown>): Promise<void> {
    if (kept.length > 0) {
      kept.push(write);
      return;
    }
    try {
      await write();
    } catch (err) {
      deps.onStoreError?.(err);
      kept.push(write);
      log.warn('websub_outcomes_kept', { count: kept.length, error: String(err) });
    }
  }

  /**
   * 2xx answers are written together, once per turn of the event loop: one transaction for all the
   * deliveries that finished in it, not one each (the fan-out's main cost on SQLite). Resolves once
   * the batch is written (or kept).
   */
  let completions: { claim: ClaimedDelivery; hash: string }[] = [];
  let completionsWritten: Promise<void> | undefined;
  function complete(claim: ClaimedDelivery, hash: string): Promise<void> {
    completions.push({ claim, hash });
    completionsWritten ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const batch = completions;
      completions = [];
      completionsWritten = undefined;
      const at = now();
      return record(() => store.completeDeliveries(batch, at));
    });
    return completionsWritten;
  }

  /** Writes kept outcomes in order; stops at the first that still fails (the store is still away). */
  async function applyKept(): Promise<void> {
    if (kept.length === 0) return;
    const waiting = kept;
    kept = [];
    let applied = 0;
    for (const [i, write] of waiting.entries()) {
      try {
        await write();
        applied += 1;
      } catch (err) {
        kept = [...waiting.slice(i), ...kept];
        throw err;
      }
    }
    log.info('websub_outcomes_applied', { count: applied });
  }

  async function sweepExpired() {
    if (now() - lastSweep < options.sweepIntervalMs) return;
    lastSweep = now();
    const removed = await store.removeExpiredSubscriptions(lastSweep);
    if (removed > 0) log.info('websub_subscriptions_expired', { count: removed });
  }

  function notifyDrained() {
    const waiters = drainWaiters;
    drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function track(work: Promise<void>) {
    const tracked = work
      .catch((err: unknown) => log.error('websub_delivery_crashed', { error: String(err) }))
      .finally(() => {
        inFlight.delete(tracked);
        wake();
      });
    inFlight.add(tracked);
  }

  async function snapshotFor(claim: ClaimedDelivery): Promise<TopicSnapshot | undefined> {
    const cached = snapshots.get(claim.topic);
    if (cached?.hash === claim.hash) return cached;
    // The stored snapshot is the newest; if it is newer than the claim's, it is the one to send.
    const fresh = await store.readTopicSnapshot(claim.topic);
    if (fresh) snapshots.set(claim.topic, fresh);
    return fresh;
  }

  async function deliver(claim: ClaimedDelivery): Promise<void> {
    const signal = abort.signal;
    let snapshot: TopicSnapshot | undefined;
    try {
      snapshot = await snapshotFor(claim);
    } catch (err) {
      deps.onStoreError?.(err);
      return record(() => store.releaseDelivery(claim));
    }
    if (!snapshot) {
      log.error('websub_delivery_without_content', { topic: claim.topic });
      return record(() => store.releaseDelivery(claim));
    }
    const headers: Record<string, string> = {
      'content-type': snapshot.contentType,
      link: topicLinkHeader(hubUrl, claim.topic),
    };
    if (claim.secret !== null) {
      headers['x-hub-signature'] = `sha256=${createHmac('sha256', claim.secret).update(snapshot.body).digest('hex')}`;
    }
    const result = await client.send({ method: 'POST', url: claim.callback, headers, body: snapshot.body, signal });
    if (!result.ok && result.reason === 'aborted') return record(() => store.releaseDelivery(claim));

    const status = result.ok ? result.response.status : undefined;
    const hash = snapshot.hash;
    const at = now();
    if (status !== undefined && status >= 200 && status < 300) return complete(claim, hash);
    if (status === 410) {
      return record(async () => {
        const removed = await store.removeSubscriptionById(claim.subscriptionId);
        if (removed) log.info('websub_subscription_gone', { topic: claim.topic, callback: claim.callback });
      });
    }
    const failure = result.ok ? `HTTP ${status}` : result.message;
    const delay = options.retryDelaysMs[claim.attempts] ?? options.retryDelaysMs.at(-1) ?? 0;
    return record(async () => {
      const outcome = await store.failDelivery(claim, { nextAttemptAt: at + delay, maxAttempts: options.maxAttempts });
      log.info('websub_delivery_failed', { topic: claim.topic, callback: claim.callback, failure, outcome: outcome.outcome });
      if (outcome.outcome === 'removed') await sendDenied(outcome.subscription, failure);
    });
  }

  /** WebSub §5.2: tell the subscriber its subscription is gone, so it can subscribe again. */
  async function sendDenied(subscription: Subscription, lastFailure: string) {
    const reason = `${options.maxAttempts} consecutive notification deliveries failed (last: ${lastFailure}); subscribe again`;
    const url = appendHubQuery(subscription.callback, { 'hub.mode': 'denied', 'hub.topic': subscription.topic, 'hub.reason': reason });
    await client.send({ method: 'GET', url, signal: abort.signal });
  }

  return {
    start() {
      if (running) return;
      running = true;
      abort = new AbortController();
      loopDone = loop();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loopDone;
      abort.abort();
      await Promise.allSettled([...inFlight]);
      // One last try for outcomes held back; what still fails waits for its claim deadline.
      await applyKept().catch(() => {});
      notifyDrained();
    },
    wake,
    drained() {
      if (!running) return Promise.resolve();
      const done = new Promise<void>((resolve) => drainWaiters.push(resolve));
      wake();
      return done;
    },
  };
}
