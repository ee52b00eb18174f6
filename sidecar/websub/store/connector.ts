/**
 * Opens the hub's store without holding the service hostage to it (issue 10 item 2). A read-only
 * DATA_DIR or an unreachable DATABASE_URL at start does not stop the site, search and MCP: the hub
 * answers 503 `hub_unavailable` until the store opens, and opening is retried with backoff (1 s, 2 s,
 * 4 s… up to a minute). The first failure is reported once, in one line that names the variable and
 * the path or host, never a stack trace. A store another process holds (StoreLockedError) is not
 * retried: `connectHubStore` rejects with it, and the service refuses to start.
 */
import type { HubStore } from './hub-store.ts';

/**
 * Another process holds the store (SQLite's lock in DATA_DIR): not retried, since waiting would let two
 * processes take turns at one file. The service refuses to start with the message, one line.
 */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
}

export type StoreConnector = {
  /** The open store, or undefined while it cannot be opened. */
  current(): HubStore | undefined;
  /** Resolves with the store once it is open (at once if it already is). */
  whenOpen(): Promise<HubStore>;
  /** Stops retrying and closes the store if it opened. */
  close(): Promise<void>;
};

export type StoreConnectorOptions = {
  open: () => Promise<HubStore>;
  /** One sentence naming the variable and what it points at, for the failure line. */
  describe: (error: unknown) => string;
  /** Reports the first failure (and, at debug, each retry); `opened` once it works. */
  report: (event: 'unavailable' | 'retry-failed' | 'opened', message: string) => void;
  backoffMs?: { first: number; max: number };
};

export async function connectHubStore(options: StoreConnectorOptions): Promise<StoreConnector> {
  const backoff = options.backoffMs ?? { first: 1_000, max: 60_000 };
  let store: HubStore | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let resolveOpen!: (store: HubStore) => void;
  const opened = new Promise<HubStore>((resolve) => (resolveOpen = resolve));

  const attempt = async (delay: number, first: boolean): Promise<void> => {
    try {
      store = await options.open();
    } catch (error) {
      if (first && error instanceof StoreLockedError) throw error;
      const line = `${options.describe(error)} The site, search and MCP are served; the WebSub hub answers 503 until the store opens (retrying in ${Math.round(delay / 1000)} s).`;
      options.report(first ? 'unavailable' : 'retry-failed', line);
      if (closed) return;
      timer = setTimeout(() => void attempt(Math.min(delay * 2, backoff.max), false), delay);
      timer.unref();
      return;
    }
    if (closed) {
      await store.close();
      return;
    }
    if (!first) options.report('opened', 'The WebSub store is open: the hub accepts requests again.');
    resolveOpen(store);
  };

  await attempt(backoff.first, true);
  return {
    current: () => store,
    whenOpen: () => opened,
    async close() {
      closed = true;
      clearTimeout(timer);
      await store?.close();
    },
  };
}

/**
 * The hub's view of a store that may not be open yet: every call goes to the open store, or fails at
 * once (rejects) while it is not open; `close()` closes the connector.
 */
export function storeView(connector: Pick<StoreConnector, 'current' | 'close'>): HubStore {
  const open = (): HubStore => {
    const store = connector.current();
    if (!store) throw new Error('the WebSub store is not open');
    return store;
  };
  return {
    saveSubscription: async (input, now) => open().saveSubscription(input, now),
    findSubscription: async (topic, callback) => open().findSubscription(topic, callback),
    listSubscriptions: async (topic) => open().listSubscriptions(topic),
    countSubscriptionsOf: async (keys) => open().countSubscriptionsOf(keys),
    removeSubscription: async (topic, callback) => open().removeSubscription(topic, callback),
    removeSubscriptionById: async (id) => open().removeSubscriptionById(id),
    removeExpiredSubscriptions: async (now) => open().removeExpiredSubscriptions(now),
    readTopicSnapshot: async (topic) => open().readTopicSnapshot(topic),
    recordTopicContent: async (snapshot, now) => open().recordTopicContent(snapshot, now),
    claimDueDeliveries: async (input) => open().claimDueDeliveries(input),
    completeDelivery: async (claim, hash, now) => open().completeDelivery(claim, hash, now),
    completeDeliveries: async (delivered, now) => open().completeDeliveries(delivered, now),
    failDelivery: async (claim, input) => open().failDelivery(claim, input),
    releaseDelivery: async (claim) => open().releaseDelivery(claim),
    listPendingDeliveries: async () => open().listPendingDeliveries(),
    countBacklog: async () => open().countBacklog(),
    check: async () => open().check(),
    close: () => connector.close(),
  };
}

/** `DATABASE_URL` without its password, to print. */
export function redactDatabaseUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return 'DATABASE_URL';
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/** The error's code and first line (`EACCES: permission denied, mkdir '/x'`), no stack. */
export function describeError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
