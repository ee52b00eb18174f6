/**
 * Wires the sidecar from a typed Config: build store, routers, HTTP server. Tests start it on
 * port 0 with a literal config; sidecar/main.ts starts it from the environment.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMcpRouter } from './mcp/index.ts';
import { createBuildStore, type BuildStore } from './static/build-store.ts';

export type RunningSidecar = {
  server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  builds: BuildStore;
  close(): Promise<void>;
};

export async function startSidecar(config: Config, options: { log?: Logger } = {}): Promise<RunningSidecar> {
  const log = options.log ?? createLogger(config.logLevel);
  const builds = await createBuildStore({
    distDir: config.distDir,
    publicUrl: config.publicUrl,
    log: (event, fields) => log.info(event, fields),
  });
  const getLive = () => builds.current().live;
  const listener = createApp({ builds, log, routers: [createMcpRouter({ getLive, config })] });
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 }, listener);
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info('listening', { url: `http://${host}:${port}`, public_url: config.publicUrl, build: builds.current().id });
  return {
    server,
    url: `http://${host}:${port}`,
    builds,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
