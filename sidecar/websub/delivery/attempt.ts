/**
 * One notification attempt (WebSub §7): POSTs the subscriber the newest content of its topic, with the
 * topic's own Content-Type, the hub/self Link header, and `X-Hub-Signature: sha256=<hex HMAC>` when the
 * subscription has a secret (§8).
 *
 * An attempt fails on a non-2xx answer (3xx included: redirects are not followed), a network error or a
 * timeout. After a failure the next attempt waits `retryDelaysMs[n]`; the `maxAttempts`-th consecutive
 * failure removes the subscription and the callback then gets a `hub.mode=denied` GET with `hub.reason`
 * (CONTRACT.md; a departure from §7, which keeps failing subscriptions until their lease ends). A 410
 * removes the subscription at once. Any 2xx resets the count. An aborted attempt (a stop) gives its
 * claim back untouched.
 */
import { createHmac } from 'node:crypto';
import type { CallbackClient } from '../callbacks/client.ts';
import type { DeliveryOutcomes } from './outcomes.ts';
import type { ClaimedDelivery, HubStore, TopicSnapshot } from '../store/hub-store.ts';
import type { Logger } from '../../logger.ts';
import { topicLinkHeader } from '../../../core/publishing/headers.ts';
import { sendDenied } from '../requests/verify-intent.ts';

export type DeliverDeps = {
  store: HubStore;
  client: CallbackClient;
  hubUrl: string;
  now: () => number;
  log: Logger;
  outcomes: DeliveryOutcomes;
  retryDelaysMs: readonly number[];
  maxAttempts: number;
  onStoreError?: (error: unknown) => void;
};

/** What became of one attempt: answered (whatever the status), aborted by a stop before its answer, or given back unsent. */
export type AttemptEnd = 'answered' | 'aborted' | 'given-back';

/** Makes the attempt function; it keeps each topic's newest snapshot, as a fan-out sends one body thousands of times. */
export function createDeliverer(deps: DeliverDeps): (claim: ClaimedDelivery, signal: AbortSignal) => Promise<AttemptEnd> {
  const { store, client, log, outcomes } = deps;
  const snapshots = new Map<string, TopicSnapshot>();

  async function snapshotFor(claim: ClaimedDelivery): Promise<TopicSnapshot | undefined> {
    const cached = snapshots.get(claim.topic);
    if (cached?.hash === claim.hash) return cached;
    // The stored snapshot is the newest; if it is newer than the claim's, it is the one to send.
    const fresh = await store.readTopicSnapshot(claim.topic);
    if (fresh) snapshots.set(claim.topic, fresh);
    return fresh;
  }

  return async (claim, signal) => {
    let snapshot: TopicSnapshot | undefined;
    try {
      snapshot = await snapshotFor(claim);
    } catch (err) {
      deps.onStoreError?.(err);
      await outcomes.record(() => store.releaseDelivery(claim));
      return 'given-back';
    }
    if (!snapshot) {
      log.error('websub_delivery_without_content', { topic: claim.topic });
      await outcomes.record(() => store.releaseDelivery(claim));
      return 'given-back';
    }
    const headers: Record<string, string> = { 'content-type': snapshot.contentType, link: topicLinkHeader(deps.hubUrl, claim.topic) };
    if (claim.secret !== null) headers['x-hub-signature'] = `sha256=${createHmac('sha256', claim.secret).update(snapshot.body).digest('hex')}`;
    const result = await client.send({ method: 'POST', url: claim.callback, headers, body: snapshot.body, signal });
    if (!result.ok && result.reason === 'aborted') {
      await outcomes.record(() => store.releaseDelivery(claim));
      return 'aborted';
    }
    const status = result.ok ? result.response.status : undefined;
    const at = deps.now();
    if (status !== undefined && status >= 200 && status < 300) {
      await outcomes.complete(claim, snapshot.hash);
    } else if (status === 410) {
      await outcomes.record(async () => {
        const removed = await store.removeSubscriptionById(claim.subscriptionId);
        if (removed) log.info('websub_subscription_gone', { topic: claim.topic, callback: claim.callback });
      });
    } else {
      const failure = result.ok ? `HTTP ${status}` : result.message;
      const delay = deps.retryDelaysMs[claim.attempts] ?? deps.retryDelaysMs.at(-1) ?? 0;
      await outcomes.record(async () => {
        const outcome = await store.failDelivery(claim, { nextAttemptAt: at + delay, maxAttempts: deps.maxAttempts });
        log.info('websub_delivery_failed', { topic: claim.topic, callback: claim.callback, failure, outcome: outcome.outcome });
        // WebSub §5.2: tell the subscriber its subscription is gone, so it can subscribe again.
        const reason = `${deps.maxAttempts} consecutive notification deliveries failed (last: ${failure}); subscribe again`;
        if (outcome.outcome === 'removed') await sendDenied(client, outcome.subscription, reason, signal);
      });
    }
    return 'answered';
  };
}
