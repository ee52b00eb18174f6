/**
 * Wires the sidecar from a typed Config: build store, WebSub hub, routers, HTTP server. Tests start it
 * on port 0 with a literal config; sidecar/main.ts runs it for scripts/serve.ts and scripts/start.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceUrls, type ServiceUrls } from '../core/urls.ts';
import { createApp, routeOf } from './app.ts';
import type { Config } from '../core/config.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMcpRouter } from './mcp/index.ts';
import { createSearchPageRouter } from './routes/search-page-router.ts';
import { createRankRouter } from './routes/rank-router.ts';
import { createSearchRouter } from './routes/search-router.ts';
import { createSinceRouter } from './routes/since-router.ts';
import { createChangesRouter } from './routes/changes-router.ts';
import { createAccessLog } from './http/access-log.ts';
import { LISTEN_BACKLOG, createHttpServer } from './http/http-server.ts';
import { createMetrics } from './http/metrics.ts';
import { createRequestFront, type FinishedRequest } from './http/request-front.ts';
import type { RateLimitOptions } from './http/rate-limit.ts';
import { createBuildStore, type BuildStore } from './builds/build-store.ts';
import { createBuildTopicSource } from './builds/build-topic-source.ts';
import {
  createCallbackClient,
  createHub,
  createHubRouter,
  openHubStore,
  type CallbackClientOptions,
  type Hub,
  type HubOptions,
  type HubStore,
} from './websub/index.ts';
import { describeStoreFailure } from './websub/store/open.ts';
import { connectHubStore, storeView, type StoreConnector } from './websub/store/connector.ts';
import type { StoppedDeliveries } from './websub/delivery/worker.ts';
import { createHealthRouter, storeStatusOf, type StoreStatus } from './routes/health-router.ts';
import { closeAtOnce, prepareGracefulClose, type CloseReport } from './http/graceful-close.ts';
import { openWitness, type Witness } from './witness/witness.ts';
import { createWitnessRouter } from './witness/witness-router.ts';
import { startCosignLater } from './witness/cosign-later.ts';

export type RunningSidecar = {
  server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  builds: BuildStore;
  hub: Hub;
  /** Stops at once: open connections are cut (tests). */
  close(): Promise<void>;
  /**
   * Stops gracefully (SIGTERM/SIGINT, sidecar/http/graceful-close.ts): `/readyz` answers 503 at once, the
   * listener still accepts for `config.shutdownDrainMs`, then no new connection is accepted, requests in
   * flight finish within `config.shutdownTimeoutMs` (their connections are closed after it), then the hub
   * gives back the deliveries it holds and the store closes. `onBegun`: see CloseLimits.
   */
  shutdown(options?: { onBegun?: () => void }): Promise<ShutdownReport>;
};

export type ShutdownReport = CloseReport & {
  /** WebSub deliveries in flight at the stop: answered within the time limit, or aborted (sent again by the next start). */
  deliveries: StoppedDeliveries;
};

/** What a Config does not say: the logger, and tuning of the hub that tests and benchmarks change. */
export type SidecarOptions = {
  log?: Logger;
  /** Added to the hub's callback client: tests trust their CA (`ca`), benchmarks raise the concurrency. */
  callbackClient?: Partial<Omit<CallbackClientOptions, 'allowPrivateCallbacks'>>;
  /** Added to `config.websub`: delivery tuning such as `maxInFlight` or `pollIntervalMs`. */
  hub?: Partial<HubOptions>;
  /** Per-address limit of `/mcp`, instead of the default (tests and benchmarks). */
  mcpRateLimit?: RateLimitOptions;
  /** An open store to use instead of `openHubStore(config)`; the caller closes it. */
  hubStore?: HubStore;
  /**
   * Called once the port is open, before the hub's start-up comparison of every topic ends: from then
   * on `shutdown()` may be called (sidecar/main.ts stops on a signal that comes in between).
   */
  onListening?: (sidecar: RunningSidecar) => void;
  /** How often the witnesses a served checkpoint lacks are asked again, instead of `config.logWitnessing.retryIntervalMs` (tests). */
  witnessRetryMs?: number;
};

export async function startSidecar(config: Config, options: SidecarOptions = {}): Promise<RunningSidecar> {
  const log = options.log ?? createLogger(config.logLevel);
  const urls = createServiceUrls(config.publicUrl);
  const builds = await createBuildStore({ distDir: config.distDir, urls, log });
  const { store, connector } = await connectStore(config, options, log);
  const storeReady = () => connector === undefined || connector.current() !== undefined;
  const client = createCallbackClient({ allowPrivateCallbacks: config.websub.allowPrivateCallbacks, ...options.callbackClient });
  const hub = createHub({ store, topics: createBuildTopicSource({ builds, urls }), hubUrl: urls.hub, options: { ...config.websub, ...options.hub }, client, log, storeReady });
  let draining = false;
  const storeStatus = () => storeStatusOf(storeReady(), hub.storeHealth());
  const metrics = createMetrics({
    build: () => builds.current(),
    storeUp: () => storeStatus().state === 'open',
    hubCounts: async () => (storeReady() ? store.countBacklog() : undefined),
  });
  const { witness, cosignLater } = await startWitnessing(config, options, builds, log);
  const app = createApp({
    builds,
    log,
    trustProxy: config.trustProxy,
    basePath: urls.basePath,
    routers: routersOf({ config, options, builds, hub, metrics, storeStatus, draining: () => draining, urls, witness }),
  });
  const accessLog = config.accessLog ? createAccessLog(log, config.trustProxy) : undefined;
  const front = createRequestFront(app, (request: FinishedRequest) => {
    metrics.record(request, routeOf(request.req));
    accessLog?.(request);
  });
  const server = createHttpServer(front.listener, config.connections);
  const graceful = prepareGracefulClose(server, front);
  const url = await listen(server, config);
  // A build swapped in without a ping (a publish killed before its pings, another instance's publish
  // into a shared DIST_DIR) is loaded within the interval, and its topics recorded like after a ping.
  const onSwap = () => void hub.notifyIfChanged().catch((error: unknown) => log.error('websub_background_task_failed', { error: String(error) }));
  builds.watch({ intervalMs: config.buildCheckIntervalMs, onSwap });
  log.info('listening', { url, public_url: config.publicUrl, build: builds.current().id });
  // Notifies topics whose bytes changed while the service was down (a publish with no service running);
  // with the store unavailable, once it opens. A stop waits for it (stopHub).
  let hubStarting: Promise<void> = Promise.resolve();
  /** Deliveries still unanswered after `graceMs` are given back to the store, so the next start resumes them; then the store closes. */
  const stopHub = async (graceMs = 0) => {
    await hubStarting;
    const stopped = await hub.stop({ graceMs });
    client.close();
    await connector?.close();
    return stopped;
  };
  const running: RunningSidecar = {
    server,
    url,
    builds,
    hub,
    close: async () => {
      await closeAtOnce(server);
      builds.close();
      cosignLater?.stop();
      await stopHub();
    },
    shutdown: async (shutdownOptions) => {
      draining = true;
      // The hub answers until the requests are done (a half-sent subscription gets its answer, not a 503),
      // then stops claiming; its deliveries in flight finish in what is left of the same time.
      const report = await graceful.close({ drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs, onBegun: shutdownOptions?.onBegun });
      builds.close();
      cosignLater?.stop();
      const { deliveries } = await stopHub(Math.max(0, config.shutdownDrainMs + config.shutdownTimeoutMs - report.ms));
      return { ...report, deliveries };
    },
  };
  options.onListening?.(running);
  if (storeReady()) await (hubStarting = hub.start());
  else void connector!.whenOpen().then(() => (hubStarting = hub.start()));
  return running;
}

/** Our own witness (WITNESS_KEY), and the round that asks LOG_WITNESSES again for the cosignatures the served checkpoint lacks. */
async function startWitnessing(config: Config, options: SidecarOptions, builds: BuildStore, log: Logger) {
  const witness = await openWitness(config);
  if (witness?.locked) log.error('witness_locked', { message: witness.locked });
  const cosignLater =
    config.logWitnesses.length === 0
      ? undefined
      : startCosignLater({ builds, publicUrl: config.publicUrl, dataDir: config.dataDir, witnesses: config.logWitnesses, ...config.logWitnessing, intervalMs: options.witnessRetryMs ?? config.logWitnessing.retryIntervalMs, log });
  return { witness, cosignLater };
}

/** Opens the port; resolves with the address it listens on, e.g. `http://127.0.0.1:41234`. */
async function listen(server: Server, config: Config): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}

type RouterDeps = {
  config: Config;
  options: SidecarOptions;
  builds: BuildStore;
  hub: Hub;
  metrics: ReturnType<typeof createMetrics>;
  storeStatus: () => StoreStatus;
  draining: () => boolean;
  urls: ServiceUrls;
  /** The witness of other instances' logs, when WITNESS_LOGS names some. */
  witness: Witness | undefined;
};

/** Every router of the app, each reading the live build per request through one accessor. */
function routersOf({ config, options, builds, hub, metrics, storeStatus, draining, urls, witness }: RouterDeps) {
  // A swapped-in build is seen by all routers at once. (The hub reads its topics through the build store
  // itself, because a publish ping must first load a newer build from disk.)
  const getBuild = () => builds.current();
  // Without a configured secret, sessions are signed with one drawn now and live as long as the process.
  const mcp = { ...config.mcp, sessionSecret: config.mcp.sessionSecret ?? randomBytes(32).toString('base64url') };
  return [
    createSearchRouter({ getBuild }),
    createRankRouter({ getBuild }),
    createSinceRouter({ getBuild }),
    createChangesRouter({ getBuild }),
    createSearchPageRouter({ getBuild, urls }),
    createHealthRouter({ publicUrl: config.publicUrl, readiness: { builds, store: storeStatus, draining } }),
    createHubRouter({ hub, rateLimit: config.websub.rateLimit, publicOrigin: urls.origin }),
    createMcpRouter({ getLive: () => getBuild().live, config: { publicUrl: config.publicUrl, mcp }, rateLimit: options.mcpRateLimit ?? config.mcp.rateLimit }),
    metrics.router({ token: config.metricsToken }),
    ...(witness ? [createWitnessRouter({ witness, rateLimit: config.witness.rateLimit })] : []),
  ];
}

/** The hub's store: the caller's, or one opened now or, when it cannot be yet, retried in the background. */
async function connectStore(config: Config, options: SidecarOptions, log: Logger): Promise<{ store: HubStore; connector?: StoreConnector }> {
  if (options.hubStore) return { store: options.hubStore };
  const connector = await connectHubStore({
    open: () => openHubStore(config, log),
    describe: (error) => describeStoreFailure(config, error),
    report: (event, message) => {
      if (event === 'unavailable') {
        log.error('websub_store_unavailable', { message });
        // Also on stderr, for the person who just ran `npm start`: one line, no stack trace.
        process.stderr.write(`${message}\n`);
      } else if (event === 'retry-failed') log.debug('websub_store_retry_failed', { message });
      else log.info('websub_store_opened', { message });
    },
  });
  return { store: storeView(connector), connector };
}
