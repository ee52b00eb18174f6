/**
 * Wires the sidecar from a typed Config: build store, WebSub hub, routers, HTTP server. Tests start it
 * on port 0 with a literal config; sidecar/main.ts starts it from the environment.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { createServiceUrls } from '../core/urls.ts';
import { createApp, routeOf } from './app.ts';
import type { Config } from '../core/config.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMcpRouter } from './mcp/index.ts';
import { createSearchPageRouter } from './routes/search-page-router.ts';
import { createRankRouter } from './routes/rank-router.ts';
import { createSearchRouter } from './routes/search-router.ts';
import { createSinceRouter } from './routes/since-router.ts';
import { createChangesRouter } from './routes/changes-router.ts';
import { createAccessLog, createClientAddress } from './http/access-log.ts';
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
import { describeStoreFailure } from './websub/open-store.ts';
import { connectHubStore, type StoreConnector } from './websub/store-connector.ts';
import { createHealthRouter, type ReadinessCheck } from './routes/health-router.ts';
import { openWitness } from './witness/witness.ts';
import { createWitnessRouter } from './witness/witness-router.ts';

export type RunningSidecar = {
  server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  builds: BuildStore;
  hub: Hub;
  /** Stops at once: open connections are cut (tests). */
  close(): Promise<void>;
  /**
   * Stops gracefully (SIGTERM/SIGINT): `/readyz` answers 503 at once, no new connection is accepted,
   * requests in flight finish within `config.shutdownTimeoutMs` (their connections are closed after
   * it), then the hub gives back the deliveries it holds and the store closes.
   */
  shutdown(): Promise<ShutdownReport>;
};

export type ShutdownReport = {
  /** `clean`: every request in flight finished; `forced`: some were cut at the time limit. */
  outcome: 'clean' | 'forced';
  /** Requests that were in flight when the shutdown began. */
  inFlight: number;
  /** Connections still open at the time limit, closed then. */
  cutConnections: number;
  ms: number;
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
};

export async function startSidecar(config: Config, options: SidecarOptions = {}): Promise<RunningSidecar> {
  const log = options.log ?? createLogger(config.logLevel);
  const builds = await createBuildStore({
    distDir: config.distDir,
    publicUrl: config.publicUrl,
    log,
  });
  const connector = options.hubStore
    ? undefined
    : await connectHubStore({
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
  const store = options.hubStore ?? storeOf(connector!);
  const storeReady = () => connector === undefined || connector.current() !== undefined;
  const client = createCallbackClient({ allowPrivateCallbacks: config.websub.allowPrivateCallbacks, ...options.callbackClient });
  const hub = createHub({
    store,
    topics: createBuildTopicSource({ builds, publicUrl: config.publicUrl }),
    hubUrl: createServiceUrls(config.publicUrl).hub,
    options: { ...config.websub, ...options.hub },
    client,
    log,
    storeReady,
  });
  // The one accessor of the live build: every router reads the build through it, per request, so a
  // swapped-in build is seen by all of them at once. (The hub reads its topics through the build
  // store itself, because a publish ping must first load a newer build from disk.)
  const getBuild = () => builds.current();
  // Without a configured secret, sessions are signed with one drawn now and live as long as the process.
  const mcp = { ...config.mcp, sessionSecret: config.mcp.sessionSecret ?? randomBytes(32).toString('base64url') };
  let shuttingDown = false;
  const clientOf = createClientAddress(config.trustProxy);
  const metrics = createMetrics({
    build: () => getBuild(),
    storeUp: storeReady,
    hubCounts: async () => {
      if (!storeReady()) return undefined;
      return store.countBacklog();
    },
  });
  const urls = createServiceUrls(config.publicUrl);
  const witness = await openWitness(config);
  const app = createApp({
    builds,
    log,
    trustProxy: config.trustProxy,
    basePath: urls.basePath,
    routers: [
      createSearchRouter({ getBuild }),
      createRankRouter({ getBuild }),
      createSinceRouter({ getBuild }),
      createChangesRouter({ getBuild }),
      createSearchPageRouter({ getBuild, publicUrl: config.publicUrl }),
      createHealthRouter({
        publicUrl: config.publicUrl,
        checks: () => [
          buildReadiness(builds),
          storeReadiness(storeReady(), hub.storeHealth()),
          { name: 'process', ok: !shuttingDown, detail: shuttingDown ? 'the service is shutting down' : 'running' },
        ],
      }),
      createHubRouter({ hub, rateLimit: config.websub.rateLimit, publicOrigin: urls.origin }),
      createMcpRouter({ getLive: () => getBuild().live, config: { publicUrl: config.publicUrl, mcp }, rateLimit: options.mcpRateLimit ?? config.mcp.rateLimit }),
      metrics.router({ token: config.metricsToken, clientOf }),
      ...(witness ? [createWitnessRouter({ witness })] : []),
    ],
  });
  const accessLog = config.accessLog ? createAccessLog(log, config.trustProxy) : undefined;
  const front = createRequestFront(app, (request: FinishedRequest) => {
    metrics.record(request, routeOf(request.req));
    accessLog?.(request);
  });
  const server = createHttpServer(front.listener, config.connections);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  // A build swapped in without a ping (a publish killed before its pings, another instance's publish
  // into a shared DIST_DIR) is loaded within the interval, and its topics recorded like after a ping.
  builds.watch({
    intervalMs: config.buildCheckIntervalMs,
    onSwap: () => void hub.notifyIfChanged().catch((error: unknown) => log.error('websub_background_task_failed', { error: String(error) })),
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info('listening', { url: `http://${host}:${port}`, public_url: config.publicUrl, build: builds.current().id });
  // Notifies topics whose bytes changed while the service was down (a publish with no service running);
  // with the store unavailable, once it opens. A stop waits for it (stopHub).
  let hubStarting: Promise<void> = Promise.resolve();
  const running: RunningSidecar = {
    server,
    url: `http://${host}:${port}`,
    builds,
    hub,
    async close() {
      builds.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await stopHub();
    },
    async shutdown() {
      const started = performance.now();
      shuttingDown = true;
      front.startDraining();
      const inFlight = front.inFlight();
      // net.Server's close stops accepting and waits for the open connections. (http.Server's own close
      // would also cut idle keep-alive connections at once, where a request may be on its way: those close
      // after their next answer, which says `Connection: close`, or at their keep-alive timeout, 5 s.)
      let allClosed = false;
      const closed = new Promise<void>((resolve) =>
        NetServer.prototype.close.call(server, () => {
          allClosed = true;
          resolve();
        }),
      );
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.shutdownTimeoutMs);
      });
      await Promise.race([closed, limit]);
      clearTimeout(timer);
      const cutConnections = allClosed ? 0 : await countConnections(server);
      if (!allClosed) server.closeAllConnections();
      await closed;
      await stopHub();
      return { outcome: cutConnections > 0 ? 'forced' : 'clean', inFlight, cutConnections, ms: Math.round(performance.now() - started) };
    },
  };
  options.onListening?.(running);
  if (storeReady()) await (hubStarting = hub.start());
  else void connector!.whenOpen().then(() => (hubStarting = hub.start()));
  return running;

  async function stopHub(): Promise<void> {
    await hubStarting;
    // Deliveries in progress are given back to the store, so the next start resumes them.
    await hub.stop();
    client.close();
    await connector?.close();
  }
}

function countConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}

/** `/readyz`'s line for the hub's store: not open yet, open but failing its last check (naming why), or open. */
function storeReadiness(open: boolean, health: ReturnType<Hub['storeHealth']>): ReadinessCheck {
  if (!open) return { name: 'store', ok: false, detail: 'the WebSub store is unavailable' };
  if (!health.ok) return { name: 'store', ok: false, detail: `the WebSub store is failing: ${health.problem}` };
  return { name: 'store', ok: true, detail: 'open' };
}

/** `/readyz`'s build check: the build served, or the newer build on disk that could not be loaded. */
function buildReadiness(builds: BuildStore): ReadinessCheck {
  const failed = builds.failure();
  const served = builds.current().id;
  if (!failed) return { name: 'build', ok: true, detail: served };
  const name = failed.id === undefined ? `the build in ${failed.dir}` : `build ${failed.id} (${failed.dir})`;
  return { name: 'build', ok: false, detail: `${name} could not be loaded: ${failed.message}; still serving build ${served}` };
}

/** The hub's view of a store that may not be open yet: every call fails fast until it is. */
function storeOf(connector: StoreConnector): HubStore {
  return new Proxy({} as HubStore, {
    get: (_target, name: keyof HubStore) =>
      (...args: unknown[]) => {
        const store = connector.current();
        if (name === 'close') return connector.close();
        if (!store) return Promise.reject(new Error('the WebSub store is not open'));
        return (store[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      },
  });
}
