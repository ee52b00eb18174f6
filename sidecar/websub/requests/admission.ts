/**
 * Admission of subscribe and unsubscribe requests (CONTRACT.md "WebSub decisions", per-callback limits):
 * what the hub accepts before it spends an outgoing request on verifying intent.
 *
 * - Busy: at most `maxPendingVerifications` verifications under way in all (503 `hub_busy`).
 * - Per host: at most `maxPendingVerificationsPerHost` under way for one callback domain, and as many for one resolved
 *   address (503 `callback_host_busy`), so one slow host cannot hold every verification slot.
 * - Subscriptions: a new subscription is refused (403 `subscription_limit`) once its domain or its address
 *   holds `maxSubscriptionsPerHost`, counting those stored and those being verified now.
 *
 * Limits count what costs: the registrable domain and the resolved address (IPv6 by /64), so twenty names
 * of one wildcard domain, or twenty domains on one address, share one allowance. An admitted request holds
 * a place in the pending ledger until its `release()`.
 */
import type { CallbackKeys } from '../store/hub-store.ts';
import type { Refusal } from './answers.ts';

/** The hub's options that admission reads (core/config.ts `websub`). */
export type AdmissionLimits = { maxPendingVerifications: number; maxPendingVerificationsPerHost: number; maxSubscriptionsPerHost: number };

export type AdmissionRequest = {
  keys: CallbackKeys;
  /** A subscribe for a (topic, callback) the store does not hold yet: it counts against the subscription cap. */
  newSubscription: boolean;
  /** Subscriptions the store holds now for the request's domain and address (needed for a new subscription). */
  stored?: { domain: number; address: number };
};

/** A place in the pending ledger; `release()` gives it back (once; later calls do nothing). */
export type Admitted = { ok: true; release: () => void };

export type Admission = {
  /** Whether all verification places are taken (checked before anything else is looked up). */
  busy(): Refusal | undefined;
  /** Whether the request's host may have one more verification under way (before its stored count is read). */
  hostBusy(keys: CallbackKeys): Refusal | undefined;
  /** Checks every limit and, when they allow it, takes a place in the ledger. */
  admit(request: AdmissionRequest): Admitted | { ok: false; refusal: Refusal };
  /** Verifications under way now. */
  pending(): number;
};

/** One line of the ledger: a domain or an address, with its verifications under way and how many are subscribes. */
type Entry = { name: string; all: number; subscribes: number };

export function createAdmission(limits: AdmissionLimits): Admission {
  const ledger = new Map<string, Entry>();
  let total = 0;

  const entriesOf = (keys: CallbackKeys): Entry[] =>
    [`domain ${keys.domain}`, `address ${keys.address}`].map((name) => ledger.get(name) ?? { name, all: 0, subscribes: 0 });

  const hostBusy = (keys: CallbackKeys): Refusal | undefined => {
    const busiest = entriesOf(keys).reduce((a, b) => (b.all > a.all ? b : a));
    if (busiest.all < limits.maxPendingVerificationsPerHost) return undefined;
    return {
      status: 503,
      body: {
        error: 'callback_host_busy',
        message: `The hub is still verifying ${busiest.all} requests for callbacks on ${busiest.name}; try again once they are answered.`,
      },
      retryAfterSeconds: 30,
    };
  };

  const overCap = (request: AdmissionRequest): Refusal | undefined => {
    if (!request.newSubscription) return undefined;
    const [domain, address] = entriesOf(request.keys) as [Entry, Entry];
    const stored = request.stored ?? { domain: 0, address: 0 };
    const counts = [
      { name: domain.name, held: stored.domain + domain.subscribes },
      { name: address.name, held: stored.address + address.subscribes },
    ];
    const fullest = counts.reduce((a, b) => (b.held > a.held ? b : a));
    if (fullest.held < limits.maxSubscriptionsPerHost) return undefined;
    return {
      status: 403,
      body: {
        error: 'subscription_limit',
        message: `Callbacks on ${fullest.name} already hold ${fullest.held} subscriptions, the most this hub keeps for one domain or address; unsubscribe some first.`,
        issues: [
          { path: ['hub.callback'], message: `at most ${limits.maxSubscriptionsPerHost} subscriptions per callback domain and per address`, code: 'too_many_subscriptions' },
        ],
      },
    };
  };

  const take = (request: AdmissionRequest): (() => void) => {
    const counted = request.newSubscription ? 1 : 0;
    const entries = entriesOf(request.keys);
    for (const entry of entries) ledger.set(entry.name, { ...entry, all: entry.all + 1, subscribes: entry.subscribes + counted });
    total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      total -= 1;
      for (const { name } of entries) {
        const left = ledger.get(name);
        if (left === undefined || left.all <= 1) ledger.delete(name);
        else ledger.set(name, { name, all: left.all - 1, subscribes: left.subscribes - counted });
      }
    };
  };

  return {
    busy() {
      if (total < limits.maxPendingVerifications) return undefined;
      return {
        status: 503,
        body: { error: 'hub_busy', message: 'The hub has too many verifications in progress; try again shortly.' },
        retryAfterSeconds: 5,
      };
    },
    hostBusy,
    admit(request) {
      const refusal = hostBusy(request.keys) ?? overCap(request);
      return refusal ? { ok: false, refusal } : { ok: true, release: take(request) };
    },
    pending: () => total,
  };
}
