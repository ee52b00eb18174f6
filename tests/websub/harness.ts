/**
 * Starts the hub the way the service does: createHub + createHubRouter on a real HTTP server, port 0,
 * topics under a public base URL (https://reviews.example unless given), callbacks over real HTTPS trusted through the test CA (`ca` option).
 * Delays are milliseconds so a whole lifecycle runs in well under a second.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { parseConfig } from '../../core/config.ts';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { createCallbackClient, type CallbackClientOptions } from '../../sidecar/websub/callbacks/client.ts';
import { createHub, type Hub, type HubOptions } from '../../sidecar/websub/hub.ts';
import { createHubRouter } from '../../sidecar/websub/hub-router.ts';
import type { HubStore, Subscription } from '../../sidecar/websub/store/hub-store.ts';
import type { LogEvent, Logger } from '../../sidecar/logger.ts';
import type { RateLimitOptions } from '../../sidecar/http/rate-limit.ts';
import { openSqliteStoreThread } from '../../sidecar/websub/store/sqlite/threaded-store.ts';
import type { TestCa } from '../../tools/lib/https-ca.ts';
import { createMemoryTopics, type MemoryTopics } from './memory-topics.ts';

const defaults = parseConfig({});
if (!defaults.ok) throw new Error(defaults.problems.join('\n'));

/** The configuration's defaults (core/config.ts), with delays of milliseconds and loopback callbacks allowed. */
export const FAST_OPTIONS: HubOptions = {
  ...defaults.config.websub,
  allowPrivateCallbacks: true,
  retryDelaysMs: [20, 40],
  lease: { defaultSeconds: 600, minSeconds: 60, maxSeconds: 3600 },
  pollIntervalMs: 10,
  sweepIntervalMs: 20,
  claimTtlMs: 5_000,
  storeCheckIntervalMs: 50,
  recordRetryMs: { first: 20, max: 200 },
};

export type HubHarness = {
  /** The public `{base_url}` topics and the hub URL are built from (not where the server listens). */
  base: string;
  /** The public hub URL, as Link headers carry it. */
  hubUrl: string;
  /** Where the hub answers on this machine. */
  endpoint: string;
  hub: Hub;
  store: HubStore;
  topics: MemoryTopics;
  /** Moves the hub's clock (leases) forward. */
  advanceClock(ms: number): void;
  post(body: Record<string, string> | string, headers?: Record<string, string>): Promise<Response>;
  subscribe(callback: string, topic: string, extra?: Record<string, string>): Promise<Response>;
  unsubscribe(callback: string, topic: string): Promise<Response>;
  /** Polls the store until the subscription satisfies `predicate` (default: it exists). */
  waitForSubscription(topic: string, callback: string, predicate?: (s: Subscription | undefined) => boolean): Promise<Subscription | undefined>;
  close(): Promise<void>;
};

export async function startHubHarness(options: {
  ca?: TestCa;
  publicBase?: string;
  store?: HubStore;
  topics?: (base: string) => MemoryTopics;
  hubOptions?: Partial<HubOptions>;
  client?: Partial<CallbackClientOptions>;
  rateLimit?: RateLimitOptions;
  start?: boolean;
  log?: Logger;
}): Promise<HubHarness> {
  let app: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATHS.hub}`;
  const base = options.publicBase ?? 'https://reviews.example';
  const urls = createServiceUrls(base);
  const topics = options.topics?.(base) ?? createMemoryTopics(base);
  // By default the store the service opens (store/open.ts): SQLite on a thread of its own.
  const store = options.store ?? (await openSqliteStoreThread({ dataDir: mkdtempSync(join(tmpdir(), 'websub-hub-')) }));
  const hubOptions = { ...FAST_OPTIONS, ...options.hubOptions };
  const client = createCallbackClient({
    allowPrivateCallbacks: hubOptions.allowPrivateCallbacks,
    connectTimeoutMs: 2_000,
    responseTimeoutMs: 2_000,
    ...(options.ca ? { ca: options.ca.certPem } : {}),
    ...options.client,
  });
  let offset = 0;
  const hub = createHub({ store, topics, hubUrl: urls.hub, options: hubOptions, client, now: () => Date.now() + offset, log: options.log });
  const express5 = express();
  express5.use(createHubRouter({ hub, rateLimit: options.rateLimit ?? { capacity: 1000, refillPerSecond: 1000 } }));
  app = express5;
  if (options.start !== false) await hub.start();

  const post = (body: Record<string, string> | string, headers: Record<string, string> = {}) =>
    fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
    });
  return {
    base,
    hubUrl: urls.hub,
    endpoint,
    hub,
    store,
    topics,
    advanceClock: (ms) => void (offset += ms),
    post,
    subscribe: (callback, topic, extra = {}) => post({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': topic, ...extra }),
    unsubscribe: (callback, topic) => post({ 'hub.mode': 'unsubscribe', 'hub.callback': callback, 'hub.topic': topic }),
    async waitForSubscription(topic, callback, predicate = (s) => s !== undefined) {
      return waitUntil(async () => {
        const s = await store.findSubscription(topic, callback);
        return predicate(s) ? { value: s } : undefined;
      });
    },
    async close() {
      await hub.stop();
      client.close();
      await store.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `probe` every 10 ms until it returns a box, or throws after `timeoutMs`. */
export async function waitUntil<T>(probe: () => Promise<{ value: T } | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const box = await probe();
    if (box) return box.value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Logger that keeps every line, for tests that check what was logged. */
export function recordingLog() {
  const lines: { level: string; message: LogEvent; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: LogEvent, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}
