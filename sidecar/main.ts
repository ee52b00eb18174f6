/**
 * Runs the sidecar as a process: `runSidecar` starts it from a parsed Config and stops it gracefully on
 * SIGINT/SIGTERM (RunningSidecar.shutdown: `/readyz` 503, new connections still answered for
 * SHUTDOWN_DRAIN_SECONDS, then none, requests in flight finish within SHUTDOWN_TIMEOUT_SECONDS, one
 * `shutdown` log line, exit 0). The entry points that call it with the Config they read are
 * scripts/start.ts (after its build check) and scripts/serve.ts (the service alone).
 */
import type { Config } from '../core/config.ts';
import { BuildUnloadableError } from './builds/build-store.ts';
import { describeListenError } from './listen-error.ts';
import { createLogger } from './logger.ts';
import { startSidecar, type RunningSidecar } from './server.ts';
import { StoreLockedError } from './websub/store/connector.ts';

/** How soon the same signal again counts as the stop already under way, not as a second Ctrl-C. */
const SAME_STOP_MS = 500;

/**
 * A port in use, an unknown HOST, a DATA_DIR another running service holds, or a build at DIST_DIR that
 * cannot be served (missing, incomplete, made by other code) ends the process with one line naming what
 * to change, and exit 1.
 */
export async function runSidecar(config: Config): Promise<RunningSidecar> {
  const log = createLogger(config.logLevel);
  // The handlers are in place before the port opens, and a shutdown begins as soon as it is open, even
  // while the hub is still comparing every topic at start (its stop waits for that).
  let opened!: (sidecar: RunningSidecar) => void;
  const listening = new Promise<RunningSidecar>((resolve) => (opened = resolve));
  const started = startSidecar(config, { onListening: opened }).catch((error: unknown) => {
    const problem = error instanceof StoreLockedError || error instanceof BuildUnloadableError ? error.message : describeListenError(error, config);
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  });
  let stopping: { signal: NodeJS.Signals; at: number } | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        // The same signal again at once is the same stop: a terminal's Ctrl-C reaches npm, which passes
        // it on (npm's scripts exec node), and this process too.
        if (signal === stopping.signal && performance.now() - stopping.at < SAME_STOP_MS) return;
        // A second signal (Ctrl-C twice) does not wait for the requests in flight.
        log.warn('shutdown', { signal, outcome: 'interrupted' });
        process.exit(1);
      }
      stopping = { signal, at: performance.now() };
      void listening.then(async (sidecar) => {
        // Logged once the stop has begun (readiness 503; without a drain, the listener closed), so a
        // client that reads the line and connects is not answered by the listener it is about to lose.
        const report = await sidecar.shutdown({
          onBegun: () => log.info('shutdown_started', { signal, drain_s: config.shutdownDrainMs / 1000, timeout_s: config.shutdownTimeoutMs / 1000 }),
        });
        const { deliveries } = report;
        log.info('shutdown', {
          signal, outcome: report.outcome, in_flight: report.inFlight, cut_connections: report.cutConnections,
          deliveries_finished: deliveries.finished, deliveries_aborted: deliveries.aborted, ms: report.ms,
        });
        process.exit(0);
      });
    });
  }
  return started;
}
