/**
 * The hub's durable state behind one interface, implemented by sqlite/store.ts (embedded default) and
 * postgres/store.ts (shared by several sidecar instances); both pass tests/websub/hub-store.test.ts.
 *
 * - A subscription is (topic, callback) with its secret and lease; it exists only once verified.
 * - A topic snapshot is the content the hub last notified for a topic, and its SHA-256: the hub
 *   compares the current bytes with it, at start and on every publish.
 * - A pending delivery is at most one per subscription and points at its topic's newest snapshot hash,
 *   so a newer change replaces an older pending one. `attempts` counts consecutive failed attempts of
 *   that subscription since its last success; it survives the replacement and resets on a 2xx.
 * - Work is claimed with a token and a claim deadline; a claim whose holder died is taken over after the
 *   deadline. All times are milliseconds since the epoch, passed in by the caller (the hub's `now()`).
 */
export type Subscription = {
  id: string;
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
};

export type SubscriptionInput = Pick<Subscription, 'topic' | 'callback' | 'secret' | 'leaseSeconds' | 'expiresAt'> & {
  /** The callback's resolved address as limits count it (`clientKeyOf`: IPv6 by /64), when known. */
  callbackAddress?: string;
};

/** What per-callback limits count by: the callback's registrable domain and its resolved address. */
export type CallbackKeys = { domain: string; address: string };

export type TopicSnapshot = { topic: string; hash: string; contentType: string; body: Buffer };

export type ClaimedDelivery = {
  subscriptionId: string;
  topic: string;
  callback: string;
  secret: string | null;
  /** Hash of the newest snapshot of the topic when the delivery was claimed. */
  hash: string;
  /** Consecutive failed attempts before this one. */
  attempts: number;
  claimToken: string;
};

export type PendingDelivery = {
  subscriptionId: string;
  topic: string;
  callback: string;
  hash: string;
  attempts: number;
  nextAttemptAt: number;
  claimed: boolean;
};

export type Backlog = { subscriptions: number; pending: number; failing: number };

/** What `check()` found: the problem is one phrase naming what is wrong, for `/readyz` and the hub's 503. */
export type StoreCheck = { ok: true } | { ok: false; problem: string };

export type CompleteOutcome = 'done' | 'newer-pending' | 'lost-claim';

export type FailOutcome =
  | { outcome: 'retry'; attempts: number }
  | { outcome: 'removed'; subscription: Subscription }
  | { outcome: 'lost-claim' };

export type HubStore = {
  /** Creates or renews (new secret and lease, same id, pending delivery kept) the subscription. */
  saveSubscription(input: SubscriptionInput, now: number): Promise<Subscription>;
  findSubscription(topic: string, callback: string): Promise<Subscription | undefined>;
  listSubscriptions(topic?: string): Promise<Subscription[]>;
  /** How many subscriptions (any topic) have a callback in this registrable domain, and how many on this address. */
  countSubscriptionsOf(keys: CallbackKeys): Promise<{ domain: number; address: number }>;
  /** Removes a subscription and its pending delivery. */
  removeSubscription(topic: string, callback: string): Promise<Subscription | undefined>;
  removeSubscriptionById(id: string): Promise<Subscription | undefined>;
  /** Removes subscriptions whose lease ended at or before `now`; returns how many. */
  removeExpiredSubscriptions(now: number): Promise<number>;

  readTopicSnapshot(topic: string): Promise<TopicSnapshot | undefined>;
  /**
   * Atomically: if `snapshot.hash` differs from the topic's stored hash (or none is stored), store the
   * snapshot and point a pending delivery of every unexpired subscription of the topic at it.
   * Of two instances recording the same change, exactly one sees `changed: true`.
   */
  recordTopicContent(snapshot: TopicSnapshot, now: number): Promise<{ changed: boolean; enqueued: number }>;

  /**
   * Claims up to `limit` due deliveries of unexpired subscriptions that nobody holds (or whose claim ran
   * out), taking callback domains in turn (each domain's first, then each domain's second…), so a domain
   * with thousands of subscriptions cannot make the others wait behind it. The turns are numbered when a
   * change is recorded, so a claim reads an index in order and stops at `limit`, whatever is pending.
   */
  claimDueDeliveries(input: { now: number; limit: number; claimToken: string; claimUntil: number }): Promise<ClaimedDelivery[]>;
  /**
   * A 2xx for the content with `deliveredHash`: removes the pending delivery, or, when a newer change
   * arrived meanwhile, keeps it due at once with attempts reset.
   */
  completeDelivery(claim: ClaimedDelivery, deliveredHash: string, now: number): Promise<CompleteOutcome>;
  /** `completeDelivery` for many 2xx answers at once, in one transaction or statement; outcomes in input order. */
  completeDeliveries(delivered: readonly { claim: ClaimedDelivery; hash: string }[], now: number): Promise<CompleteOutcome[]>;
  /** A failed attempt: counts it; at `maxAttempts` removes the subscription, else schedules `nextAttemptAt`. */
  failDelivery(claim: ClaimedDelivery, input: { nextAttemptAt: number; maxAttempts: number }): Promise<FailOutcome>;
  /** Gives a claim back untouched (the attempt never happened, e.g. on shutdown). */
  releaseDelivery(claim: ClaimedDelivery): Promise<void>;
  listPendingDeliveries(): Promise<PendingDelivery[]>;
  /**
   * The backlog as three counts (`/metrics` on every scrape): subscriptions, pending deliveries, and
   * those pending after a failed attempt. Counted by the store, never listed.
   */
  countBacklog(): Promise<Backlog>;

  /**
   * A real look at the store (readiness): a query of each table, and for SQLite whether the file at its
   * path is still the one it has open and whether a small write still fits (after a full disk).
   */
  check(): Promise<StoreCheck>;
  close(): Promise<void>;
};
