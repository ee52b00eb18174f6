/** Work the hub starts and does not wait for (verifications, denials): tracked, so a stop and the tests can wait for it. */
import type { Logger } from '../logger.ts';

export type BackgroundTasks = {
  /** Tracks `work`; a failure is logged (`websub_background_task_failed`), never thrown. Returns when it ends. */
  run(work: Promise<unknown>): Promise<void>;
  /** Resolves once nothing started so far is still running. */
  settled(): Promise<void>;
};

export function createBackground(log: Logger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(work) {
      const tracked: Promise<void> = work
        .then(
          () => {},
          (err: unknown) => log.error('websub_background_task_failed', { error: String(err) }),
        )
        .finally(() => running.delete(tracked));
      running.add(tracked);
      return tracked;
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
