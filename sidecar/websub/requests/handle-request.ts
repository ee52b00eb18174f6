/**
 * The hub's answer to one request (WebSub §5.1, §5.3, and `hub.mode=publish` pings): a valid subscribe
 * or unsubscribe is answered 202 at once, once admission lets it in (admission.ts), and its intent is
 * verified asynchronously; a publish ping is answered once the store has recorded every named topic, with
 * the store's verdict for each topic re-read.
 */
import { callbackDomainOf } from '../callbacks/url.ts';
import { clientKeyOf } from '../../http/client-address.ts';
import type { CallbackClient } from '../callbacks/client.ts';
import type { Admission } from './admission.ts';
import { ACCEPTED, callbackRefused, invalidRequest, published, publishNotRecorded, unavailable, type HubAnswer } from './answers.ts';
import { parseHubRequest, type HubRequestSchema } from './parse-request.ts';
import type { CallbackKeys, HubStore, StoreCheck } from '../store/hub-store.ts';
import type { TopicRecorder } from '../topics/recorder.ts';
import type { IntentRequest } from './verify-intent.ts';

export type RequestAnswererDeps = {
  schema: HubRequestSchema;
  store: HubStore;
  client: CallbackClient;
  admission: Admission;
  recorder: TopicRecorder;
  health: () => StoreCheck;
  /** Verifies an admitted request in the background; the returned work ends when it is answered. */
  verify: (request: IntentRequest, callbackAddress: string) => Promise<void>;
};

/** Rejects only when the store cannot be read (the hub then answers 503 `hub_unavailable`). */
export function createRequestAnswerer(deps: RequestAnswererDeps): (form: URLSearchParams) => Promise<HubAnswer> {
  const { store, client, admission } = deps;
  return async (form) => {
    const parsed = parseHubRequest(deps.schema, form);
    if (!parsed.ok) return invalidRequest(parsed.issues);
    const request = parsed.request;
    if (request.mode === 'publish') {
      try {
        return published(await deps.recorder.recordPublish(request.topics));
      } catch (err) {
        return publishNotRecorded(err, deps.recorder.retryDelayMs());
      }
    }
    const health = deps.health();
    if (!health.ok) return unavailable(health.problem);
    const busy = admission.busy();
    if (busy) return busy;
    const checked = await client.check(request.callback);
    if (!checked.ok) return callbackRefused(checked);
    const keys: CallbackKeys = { domain: callbackDomainOf(request.callback), address: clientKeyOf(checked.address.address) };
    const hostBusy = admission.hostBusy(keys);
    if (hostBusy) return hostBusy;
    const newSubscription = request.mode === 'subscribe' && !(await store.findSubscription(request.topic, request.callback));
    const stored = newSubscription ? await store.countSubscriptionsOf(keys) : undefined;
    const admitted = admission.admit({ keys, newSubscription, stored });
    if (!admitted.ok) return admitted.refusal;
    void deps.verify(request, keys.address).finally(admitted.release);
    return ACCEPTED;
  };
}
