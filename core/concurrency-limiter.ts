/**
 * Bounded concurrency overall and per key, so one slow key cannot take every slot and no more than
 * `overall` tasks run at once. Waiting tasks of a key start in arrival order; keys take turns in the order
 * they first queued. Two users: the hub's callback client (key: the callback host) and the build's
 * finishing step (scripts/lib/finalize-build.ts).
 */
export type ConcurrencyLimiter = {
  /** Runs `task` once a slot for `key` is free; rejects with `signal.reason` if aborted while waiting. */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly active: number;
  readonly waiting: number;
};

type Waiter = { start: () => void };

export function createConcurrencyLimiter(limits: { overall: number; perKey: number }): ConcurrencyLimiter {
  let active = 0;
  let waiting = 0;
  const activeByKey = new Map<string, number>();
  const queues = new Map<string, Waiter[]>();

  const hasRoom = (key: string) => active < limits.overall && (activeByKey.get(key) ?? 0) < limits.perKey;

  const acquire = (key: string) => {
    active += 1;
    activeByKey.set(key, (activeByKey.get(key) ?? 0) + 1);
  };

  const release = (key: string) => {
    active -= 1;
    const left = (activeByKey.get(key) ?? 1) - 1;
    if (left === 0) activeByKey.delete(key);
    else activeByKey.set(key, left);
    startWaiting();
  };

  const startWaiting = () => {
    for (const [key, queue] of queues) {
      if (active >= limits.overall) return;
      while (queue.length > 0 && hasRoom(key)) {
        const waiter = queue.shift()!;
        waiting -= 1;
        waiter.start();
      }
      if (queue.length === 0) queues.delete(key);
    }
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return waiting;
    },
    run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      const execute = (): Promise<T> => {
        acquire(key);
        let result: Promise<T>;
        try {
          result = task();
        } catch (err) {
          result = Promise.reject(err);
        }
        return result.finally(() => release(key));
      };
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (hasRoom(key) && !queues.has(key)) return execute();
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => {
          const queue = queues.get(key);
          const at = queue?.indexOf(waiter) ?? -1;
          if (at >= 0) {
            queue!.splice(at, 1);
            waiting -= 1;
            if (queue!.length === 0) queues.delete(key);
          }
          reject(signal!.reason);
        };
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            execute().then(resolve, reject);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = queues.get(key) ?? [];
        queue.push(waiter);
        queues.set(key, queue);
        waiting += 1;
      });
    },
  };
}
