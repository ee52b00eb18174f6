/**
 * The outgoing connection slots, shared fairly between the hosts a client calls (issue 31 item 3).
 *
 * A request holds a slot keyed twice: by its host's registrable domain and by the address it connects
 * to. The rules:
 * - at most `overall` slots at once, `perDomain` per domain and `perAddress` per address;
 * - a domain's or address's second and later slots are taken only while fewer than
 *   `overall - reserve` are in use, so a host with nothing in flight always finds one of the `reserve`
 *   slots free however many slow hosts came first;
 * - when a slot frees, domains take turns (round robin), each its requests in arrival order.
 *
 * The time a request waits is counted (`ownWaitMs`) only while its own domain or address is at its
 * cap: waiting behind other hosts is the client's doing, not the host's, and costs a request nothing.
 */

export type SlotKeys = { domain: string; address: string };

export type Slot = { ownWaitMs: number; release(): void };

export type SlotLimits = { overall: number; perDomain: number; perAddress: number; reserve: number };

export type FairSlots = {
  /**
   * A slot for these keys, or `timeout` once the request has waited `ownWaitLimitMs` behind its own
   * host, or `aborted` when `signal` fires first.
   */
  acquire(keys: SlotKeys, options: { ownWaitLimitMs: number; signal?: AbortSignal }): Promise<Slot | 'timeout' | 'aborted'>;
  readonly active: number;
  readonly waiting: number;
};

/** How many slots one key holds, and for how long in total it has been at its cap (the clock of its queue). */
class KeyUse {
  count = 0;
  /** Requests waiting that read this key's clock: the key is kept while any does. */
  watchers = 0;
  private cappedMs = 0;
  private cappedSince: number | undefined;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }
  /** The milliseconds this key has spent at its cap, up to now. */
  cappedClock(now: number): number {
    return this.cappedMs + (this.cappedSince === undefined ? 0 : now - this.cappedSince);
  }
  change(by: 1 | -1, now: number): void {
    this.count += by;
    if (this.count >= this.cap && this.cappedSince === undefined) this.cappedSince = now;
    else if (this.count < this.cap && this.cappedSince !== undefined) {
      this.cappedMs += now - this.cappedSince;
      this.cappedSince = undefined;
    }
  }
}

type Waiter = {
  keys: SlotKeys;
  /** The domain's and the address's capped clocks when the request queued. */
  startClocks: [number, number];
  grant(): void;
};

export function createFairSlots(limits: SlotLimits): FairSlots {
  let active = 0;
  let waiting = 0;
  const domains = new Map<string, KeyUse>();
  const addresses = new Map<string, KeyUse>();
  /** Waiting requests by domain; the map's order is the domains' turn order. */
  const queues = new Map<string, Waiter[]>();

  const useOf = (map: Map<string, KeyUse>, key: string, cap: number) => {
    let use = map.get(key);
    if (!use) map.set(key, (use = new KeyUse(cap)));
    return use;
  };
  const domainUse = (key: string) => useOf(domains, key, limits.perDomain);
  const addressUse = (key: string) => useOf(addresses, key, limits.perAddress);

  const mayStart = ({ domain, address }: SlotKeys) => {
    const d = domains.get(domain)?.count ?? 0;
    const a = addresses.get(address)?.count ?? 0;
    if (active >= limits.overall || d >= limits.perDomain || a >= limits.perAddress) return false;
    return (d === 0 && a === 0) || active < limits.overall - limits.reserve;
  };

  const ownWaitOf = (waiter: Waiter, now: number) =>
    Math.max(domainUse(waiter.keys.domain).cappedClock(now) - waiter.startClocks[0], addressUse(waiter.keys.address).cappedClock(now) - waiter.startClocks[1]);

  const take = (keys: SlotKeys): (() => void) => {
    const now = Date.now();
    active += 1;
    domainUse(keys.domain).change(1, now);
    addressUse(keys.address).change(1, now);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const later = Date.now();
      active -= 1;
      forget(domains, keys.domain, later);
      forget(addresses, keys.address, later);
      startWaiting();
    };
  };

  /** A key with nothing in flight and nobody waiting on it is dropped (its clock matters to no one). */
  const forget = (map: Map<string, KeyUse>, key: string, now: number) => {
    const use = map.get(key)!;
    use.change(-1, now);
    if (use.count === 0 && use.watchers === 0) map.delete(key);
  };
  const watch = (keys: SlotKeys, by: 1 | -1) => {
    for (const [map, use] of [[domains, domainUse(keys.domain)], [addresses, addressUse(keys.address)]] as const) {
      use.watchers += by;
      if (use.count === 0 && use.watchers === 0) map.delete(map === domains ? keys.domain : keys.address);
    }
  };

  const startWaiting = () => {
    let granted = true;
    // Rounds: each domain's first waiter in turn, the domain moved to the back once served.
    while (granted && active < limits.overall) {
      granted = false;
      for (const [domain, queue] of queues) {
        const head = queue[0]!;
        if (!mayStart(head.keys)) continue;
        queue.shift();
        waiting -= 1;
        queues.delete(domain);
        if (queue.length > 0) queues.set(domain, queue);
        head.grant();
        granted = true;
        break;
      }
    }
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return waiting;
    },
    acquire(keys, { ownWaitLimitMs, signal }) {
      if (signal?.aborted) return Promise.resolve('aborted');
      if (!queues.has(keys.domain) && mayStart(keys)) return Promise.resolve({ ownWaitMs: 0, release: take(keys) });
      return new Promise((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const leave = (outcome: 'timeout' | 'aborted') => {
          const queue = queues.get(keys.domain);
          const at = queue?.indexOf(waiter) ?? -1;
          if (at < 0) return;
          queue!.splice(at, 1);
          waiting -= 1;
          watch(keys, -1);
          if (queue!.length === 0) queues.delete(keys.domain);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
          // The head may have left: the next one of its domain may start.
          startWaiting();
        };
        const onAbort = () => leave('aborted');
        const checkWait = () => {
          const spent = ownWaitOf(waiter, Date.now());
          if (spent >= ownWaitLimitMs) return leave('timeout');
          timer = setTimeout(checkWait, ownWaitLimitMs - spent).unref();
        };
        const now = Date.now();
        const waiter: Waiter = {
          keys,
          startClocks: [domainUse(keys.domain).cappedClock(now), addressUse(keys.address).cappedClock(now)],
          grant: () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            const ownWaitMs = ownWaitOf(waiter, Date.now());
            const release = take(keys);
            watch(keys, -1);
            resolve({ ownWaitMs, release });
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = queues.get(keys.domain) ?? [];
        queue.push(waiter);
        queues.set(keys.domain, queue);
        waiting += 1;
        watch(keys, 1);
        timer = setTimeout(checkWait, ownWaitLimitMs).unref();
      });
    },
  };
}
