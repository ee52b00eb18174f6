/**
 * Verification of intent (WebSub §5.3) and denial (§5.2). A subscribe or unsubscribe is verified by a
 * GET to the callback with hub.mode, hub.topic, hub.challenge (and hub.lease_seconds for subscribe);
 * only a 2xx whose body is exactly the challenge verifies. A subscription is stored, or renewed with its
 * new lease and secret, only once verified; a failed re-verification leaves the old one as it was.
 */
import { appendHubQuery } from '../callbacks/url.ts';
import type { CallbackClient } from '../callbacks/client.ts';
import type { HubRequest } from './parse-request.ts';
import type { HubStore } from '../store/hub-store.ts';
import type { Logger } from '../../logger.ts';

export type IntentRequest = Extract<HubRequest, { callback: string }>;

export type IntentDeps = {
  store: HubStore;
  client: CallbackClient;
  now: () => number;
  makeChallenge: () => string;
  log: Logger;
  /** Told when the store fails to save a verified intent (../store/watch.ts). */
  onStoreError: (error: unknown) => void;
};

/** Tells a subscriber its subscription is refused or gone, with the reason (`hub.mode=denied`). */
export async function sendDenied(client: CallbackClient, request: { topic: string; callback: string }, reason: string, signal: AbortSignal): Promise<void> {
  const url = appendHubQuery(request.callback, { 'hub.mode': 'denied', 'hub.topic': request.topic, 'hub.reason': reason });
  await client.send({ method: 'GET', url, signal });
}

/** Verifies one request with its callback and, once verified, saves or removes the subscription. */
export async function verifyIntent(deps: IntentDeps, request: IntentRequest, callbackAddress: string, signal: AbortSignal): Promise<void> {
  const { store, client, log } = deps;
  const challenge = deps.makeChallenge();
  const params: Record<string, string> = { 'hub.mode': request.mode, 'hub.topic': request.topic, 'hub.challenge': challenge };
  if (request.mode === 'subscribe') params['hub.lease_seconds'] = String(request.leaseSeconds);
  const result = await client.send({ method: 'GET', url: appendHubQuery(request.callback, params), signal });
  const answer = result.ok ? result.response : undefined;
  const verified = answer !== undefined && answer.status >= 200 && answer.status < 300 && !answer.truncated && answer.body.equals(Buffer.from(challenge));
  const fields = { mode: request.mode, topic: request.topic, callback: request.callback };
  if (!verified) {
    const why = result.ok ? `HTTP ${result.response.status}${answer && answer.status < 300 ? ', body is not the challenge' : ''}` : result.message;
    log.info('websub_intent_not_verified', { ...fields, why });
    return;
  }
  try {
    if (request.mode === 'subscribe') {
      const at = deps.now();
      const { topic, callback, secret, leaseSeconds } = request;
      await store.saveSubscription({ topic, callback, secret, leaseSeconds, expiresAt: at + leaseSeconds * 1000, callbackAddress }, at);
    } else {
      await store.removeSubscription(request.topic, request.callback);
    }
  } catch (err) {
    deps.onStoreError(err);
    log.error('websub_intent_not_saved', { ...fields, error: String(err) });
    // §5.2: a subscription the hub cannot keep is denied, so the subscriber knows to try again later
    // rather than wait for notifications that will never come.
    if (request.mode === 'subscribe') await sendDenied(client, request, 'the hub could not save the subscription; subscribe again later', signal);
    return;
  }
  log.info('websub_intent_verified', fields);
}
