/**
 * Content distribution (WebSub §7): claims due deliveries from the store and runs each attempt
 * (attempt.ts), writing their outcomes through outcomes.ts. Work is claimed in batches (a quarter
 * of `maxInFlight` at least), not one claim per finished delivery, and the deliveries of a batch start a
 * few per event-loop turn, so search requests are answered between them during a large fan-out.
 *
 * A stop finishes what it started: claiming stops at once, the attempts in flight get the grace period to
 * be answered and have their answers recorded, and only those still unanswered then are aborted (their
 * claims given back, so the next start sends them again). A subscriber is notified twice only when its
 * answer did not come within the grace period.
 */
import { randomUUID } from 'node:crypto';
import type { CallbackClient } from '../callbacks/client.ts';
import { createDeliverer } from './attempt.ts';
import { createDeliveryOutcomes } from './outcomes.ts';
import type { HubStore } from '../store/hub-store.ts';
import type { Logger } from '../../logger.ts';

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

/** What a stop did with the deliveries in flight: answered within the grace period, or aborted at its end. */
export type StoppedDeliveries = { finished: number; aborted: number };

export type DeliveryWorker = {
  start(): void;
  /** Stops claiming; attempts in flight get `graceMs` (default 0) to finish, the rest are aborted (claims given back). */
  stop(options?: { graceMs?: number }): Promise<StoppedDeliveries>;
  /** Looks for due work now (after a change was recorded). */
  wake(): void;
  /**
   * Resolves once the worker has nothing to do: no attempt in progress and no delivery due now (a retry
   * scheduled for later does not count). Tests wait on it instead of sleeping; at once when stopped.
   */
  drained(): Promise<void>;
};

export type DeliveryWorkerDeps = {
  store: HubStore;
  client: CallbackClient;
  hubUrl: string;
  now: () => number;
  log: Logger;
  options: DeliveryWorkerOptions;
  /** Told of every store failure the worker meets (../store/watch.ts). */
  onStoreError?: (error: unknown) => void;
};

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { store, now, log, options } = deps;
  const outcomes = createDeliveryOutcomes(deps);
  const deliver = createDeliverer({ ...deps, outcomes, retryDelaysMs: options.retryDelaysMs, maxAttempts: options.maxAttempts });
  const batch = Math.max(1, Math.floor(options.maxInFlight / 4));
  const inFlight = new Set<Promise<void>>();
  const wakeups = createWakeups();
  const loopErrors = createLoopErrorLine(log);
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let abort = new AbortController();
  let aborted = 0;
  let lastSweep = 0;

  async function loop(): Promise<void> {
    while (running) {
      wakeups.clear();
      try {
        await outcomes.applyKept();
        await sweepExpired();
        if ((await claimAndStart()) === 'more') continue;
        loopErrors.ok();
      } catch (err) {
        deps.onStoreError?.(err);
        loopErrors.failed(err);
      }
      if (running) await wakeups.sleep(options.pollIntervalMs);
    }
  }

  /** Claims what there is room for and starts it; 'more' when the claim filled the room (claim again at once). */
  async function claimAndStart(): Promise<'more' | 'done'> {
    const room = options.maxInFlight - inFlight.size;
    if (room < batch && (room <= 0 || inFlight.size > 0)) return 'done';
    const at = now();
    const claims = await store.claimDueDeliveries({ now: at, limit: room, claimToken: randomUUID(), claimUntil: at + options.claimTtlMs });
    // A few deliveries start per turn of the event loop (their HMACs and the TLS writes of their bodies
    // are the fan-out's largest synchronous costs): requests that arrive meanwhile are served between them.
    for (const [i, claim] of claims.entries()) {
      track(deliver(claim, abort.signal));
      if (i % STARTS_PER_TURN === STARTS_PER_TURN - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (claims.length === room) return 'more';
    if (claims.length === 0 && inFlight.size === 0 && outcomes.keptCount() === 0) wakeups.drained();
    return 'done';
  }

  async function sweepExpired() {
    if (now() - lastSweep < options.sweepIntervalMs) return;
    lastSweep = now();
    const removed = await store.removeExpiredSubscriptions(lastSweep);
    if (removed > 0) log.info('websub_subscriptions_expired', { count: removed });
  }

  function track(work: Promise<'answered' | 'aborted' | 'given-back'>) {
    const tracked = work
      .then((end) => void (end === 'aborted' && (aborted += 1)))
      .catch((err: unknown) => log.error('websub_delivery_crashed', { error: String(err) }))
      .finally(() => {
        inFlight.delete(tracked);
        wakeups.wake();
      });
    inFlight.add(tracked);
  }

  return {
    start() {
      if (running) return;
      running = true;
      abort = new AbortController();
      loopDone = loop();
    },
    async stop({ graceMs = 0 } = {}) {
      running = false;
      wakeups.wake();
      await loopDone;
      const started = inFlight.size;
      log.info('websub_delivery_stopping', { in_flight: started, grace_ms: graceMs });
      aborted = 0;
      const allDone = Promise.allSettled([...inFlight]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allDone, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      abort.abort();
      await allDone;
      // One last try for outcomes held back; what still fails waits for its claim deadline.
      await outcomes.applyKept().catch(() => {});
      wakeups.drained();
      return { finished: started - aborted, aborted };
    },
    wake: () => wakeups.wake(),
    drained() {
      if (!running) return Promise.resolve();
      const done = wakeups.whenDrained();
      wakeups.wake();
      return done;
    },
  };
}

/** The loop's sleep, cut short by `wake()`, and the waiters of `drained()`. */
function createWakeups() {
  let pending = false;
  let wakeUp: (() => void) | undefined;
  let drainWaiters: (() => void)[] = [];
  return {
    clear: () => void (pending = false),
    wake() {
      pending = true;
      wakeUp?.();
    },
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        if (pending) return resolve();
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        }
        wakeUp = done;
      }),
    whenDrained: () => new Promise<void>((resolve) => drainWaiters.push(resolve)),
    drained() {
      const waiters = drainWaiters;
      drainWaiters = [];
      for (const resolve of waiters) resolve();
    },
  };
}

/**
 * `websub_delivery_loop_failed` once per distinct error, not once per poll: a store deleted under the
 * service would otherwise log it every second. `websub_delivery_loop_recovered` when a pass succeeds again.
 */
function createLoopErrorLine(log: Logger) {
  let last: string | undefined;
  let repeats = 0;
  return {
    failed(err: unknown) {
      const error = String(err);
      if (error === last) {
        repeats += 1;
        return;
      }
      last = error;
      repeats = 0;
      log.error('websub_delivery_loop_failed', { error });
    },
    ok() {
      if (last === undefined) return;
      log.info('websub_delivery_loop_recovered', { was: last, repeats });
      last = undefined;
    },
  };
}
