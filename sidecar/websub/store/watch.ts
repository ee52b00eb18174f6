/**
 * The hub's running view of its store (issue 24 items 1 and 4): `check()` (a real query of each table; for
 * SQLite also the file's identity and a small write) on a timer, and every store failure the hub meets is
 * reported here at once. While the last verdict is a failure, `/readyz` answers 503 naming it and the hub
 * refuses new requests; after a failed write (a full disk) that lasts until a check's write fits again.
 * When the store comes back, `onRecovered` runs: the hub then compares every topic with the store.
 */
import type { HubStore, StoreCheck } from './hub-store.ts';
import type { Logger } from '../../logger.ts';
import { describeError } from './connector.ts';

export type StoreWatch = {
  /** The last verdict: ok, or the problem in one phrase. */
  health(): StoreCheck;
  /** A store operation failed: the store counts as failing until a check passes. */
  reportFailure(error: unknown): void;
  /** Checks at once (and then on the timer); resolves with the verdict. */
  checkNow(): Promise<StoreCheck>;
  start(): void;
  stop(): void;
};

export function createStoreWatch(deps: { store: HubStore; intervalMs: number; log: Logger; onRecovered: () => void }): StoreWatch {
  const { store, log } = deps;
  let verdict: StoreCheck = { ok: true };
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let checking: Promise<StoreCheck> | undefined;

  const settle = (next: StoreCheck) => {
    const was = verdict;
    verdict = next;
    if (!next.ok && was.ok) log.error('websub_store_failing', { problem: next.problem });
    if (next.ok && !was.ok) {
      log.info('websub_store_recovered', { was: was.problem });
      deps.onRecovered();
    }
    return next;
  };

  const checkNow = (): Promise<StoreCheck> => {
    checking ??= store
      .check()
      .catch((err: unknown): StoreCheck => ({ ok: false, problem: `the WebSub store cannot be used (${describeError(err)})` }))
      .then(settle)
      .finally(() => (checking = undefined));
    return checking;
  };

  const schedule = () => {
    if (!running) return;
    timer = setTimeout(() => void checkNow().finally(schedule), deps.intervalMs);
    timer.unref();
  };

  return {
    health: () => verdict,
    reportFailure(error) {
      // A check's own finding (a deleted file) names the problem better than the operation that met it.
      if (verdict.ok) settle({ ok: false, problem: `the WebSub store failed (${describeError(error)})` });
    },
    checkNow,
    start() {
      if (running) return;
      running = true;
      schedule();
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
  };
}
