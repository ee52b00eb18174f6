/**
 * MCP benchmark (issue 3 item 7). The sidecar's MCP router runs in a child process over 100,000 reviews
 * synthesised in memory; this process is the client, over loopback HTTP:
 *   - `tools/call search_reviews` latency p50/p99, one request at a time, over a mix of filters;
 *   - requests per second with autocannon (many connections, the same mix);
 *   - server RSS and heap after 10,000 `initialize` calls, against a baseline after warm-up: with
 *     stateless, signed session ids nothing may grow with the number of sessions.
 * Runnable alone: `npm exec -- node tools/bench/mcp.ts`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { aggregateRatings } from '../../core/aggregate.ts';
import { readFile } from 'node:fs/promises';
import { createLiveData } from '../../core/dataset/live-data.ts';
import { DEFAULT_ASPECTS_FILE } from '../../core/content/load-content.ts';
import { parseAspectModel } from '../../core/insights/aspect-model.ts';
import { computeInsights } from '../../core/insights/compute-insights.ts';
import { compareNewestFirst } from '../../core/order.ts';
import type { PublishedBusiness, PublishedReview } from '../../core/schemas/published.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { createMcpRouter } from '../../sidecar/mcp/index.ts';
import type { BenchRow } from './types.ts';
import { askChild } from './child-process.ts';

const REVIEWS = 100_000;
const LATENCY_CALLS = 2_000;
const WARM_UP = 200;
const THROUGHPUT_SECONDS = 8;
const CONNECTIONS = 16;
const SESSIONS = 10_000;
const PUBLIC_URL = 'http://127.0.0.1';
const SECRET = 'bench-secret-0123456789abcdef';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

type ServerMessage = { type: 'listening'; port: number } | { type: 'memory'; rssMb: number; heapMb: number };

// ---- server side (child process) -------------------------------------------------------------

function createBusiness(): PublishedBusiness {
  const technicians = ['Michael Reyes', 'Sarah Okafor', 'Dana Whitfield', 'Tom Becker', 'Priya Natarajan', 'Luke Ostrowski'];
  const services = ['ac-repair', 'furnace-repair', 'water-heater', 'drain-cleaning', 'leak-repair', 'thermostat'];
  return {
    name: 'Northwind Heating & Plumbing',
    url: 'https://northwind.example/',
    telephone: '+1 555 0100',
    address: { street: '1 Main St', locality: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' },
    technicians: technicians.map((name) => ({ name, aliases: [name.split(' ')[0]!] })),
    services: services.map((id) => ({ id, name: id.replace('-', ' '), aliases: [] })),
    service_areas: ['Springfield', 'Riverton', 'Oak Hill'],
  };
}

/** Seeded synthetic reviews, newest first, spread over five years. */
function createReviews(business: PublishedBusiness, count: number): PublishedReview[] {
  let seed = 20250601;
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const good = ['on time and friendly', 'fixed the leak quickly', 'fair price, clean work', 'would recommend to anyone'];
  const bad = ['late and overpriced', 'left a mess behind', 'the problem came back', 'rude on the phone'];
  const urls = createServiceUrls(PUBLIC_URL);
  const end = Date.parse('2025-06-30T00:00:00Z');
  const reviews: PublishedReview[] = [];
  for (let i = 0; i < count; i++) {
    const rating = pick([5, 5, 5, 4, 4, 3, 2, 1]);
    const technician = pick(business.technicians).name;
    const service = pick(business.services);
    const date = new Date(end - Math.floor(random() * 5 * 365) * 86_400_000).toISOString().slice(0, 10);
    const id = `r-${i.toString(36).padStart(5, '0')}`;
    reviews.push({
      id,
      rating,
      date,
      text: `${technician.split(' ')[0]} did our ${service.name}: ${pick(rating >= 4 ? good : bad)}. ${pick(rating >= 4 ? good : bad)}.`,
      title: random() < 0.3 ? 'Service visit' : null,
      media: [],
      author: `Customer ${i}`,
      source: pick(['google', 'yelp', 'direct']),
      verified: true,
      technicians: [technician],
      services: [service.id],
      service_area: pick(business.service_areas),
      response: null,
      url: urls.review({ id, date }),
      updated: `${date}T00:00:00Z`,
      aspects: [],
    });
  }
  return reviews.sort(compareNewestFirst);
}

async function serve(): Promise<void> {
  const business = createBusiness();
  const reviews = createReviews(business, REVIEWS);
  const live = createLiveData({
    dataset: { business, aggregate_rating: aggregateRatings(reviews), reviews },
    // The tool calls measured here never read the insights: those of no review are enough.
    insights: computeInsights({ reviews: [], model: await loadAspectModel() }),
    urls: createServiceUrls(PUBLIC_URL),
  });
  const app = express().use(
    createMcpRouter({ getLive: () => live, config: { publicUrl: PUBLIC_URL, mcp: { sessionSecret: SECRET, allowedOrigins: [] } } }),
  );
  const server = app.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies ServerMessage);
  });
  process.on('message', (message: { type: string }) => {
    if (message.type !== 'memory') return;
    globalThis.gc?.();
    const usage = process.memoryUsage();
    process.send!({ type: 'memory', rssMb: usage.rss / 2 ** 20, heapMb: usage.heapUsed / 2 ** 20 } satisfies ServerMessage);
  });
  process.on('disconnect', () => process.exit(0));
}

// ---- client side (this process) --------------------------------------------------------------

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(import.meta.filename, ['--serve'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`MCP bench server exited with ${code}`)));
    child.once('message', (message: ServerMessage) => {
      if (message.type === 'listening') resolve({ child, url: `http://127.0.0.1:${message.port}/mcp` });
    });
  });
}

function askMemory(child: ChildProcess): Promise<{ rssMb: number; heapMb: number }> {
  return askChild<ServerMessage, 'memory'>(child, { type: 'memory' }, 'memory');
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
});

async function initialize(url: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
  await response.arrayBuffer();
  const id = response.headers.get('mcp-session-id');
  if (!response.ok || id === null) throw new Error(`initialize answered ${response.status}`);
  return id;
}

/** The argument mix of `search_reviews` calls: what an agent asks, one shape each. */
const SEARCHES: Record<string, unknown>[] = [
  {},
  { rating: 5 },
  { rating: 1, limit: 50 },
  { min_rating: 4, limit: 100 },
  { since: '2025-01-01' },
  { since: '2023-01-01', until: '2023-12-31', rating: 2 },
  { mentions_technician: 'Michael' },
  { mentions_technician: 'Dana Whitfield', min_rating: 4 },
  { mentions_service: 'water-heater', limit: 10 },
  { query: 'leak' },
  { query: 'overpriced', rating: 1 },
  { query: 'on time', mentions_technician: 'Tom', since: '2024-06-01' },
];

const searchBodies = SEARCHES.map((args, i) =>
  JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'search_reviews', arguments: args } }),
);

async function callSearch(url: string, sessionId: string, body: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sessionId }, body });
  const json = (await response.json()) as { result?: { isError?: boolean } };
  if (!response.ok || json.result === undefined || json.result.isError) throw new Error(`search_reviews failed: ${JSON.stringify(json).slice(0, 300)}`);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function runPool(total: number, concurrency: number, task: () => Promise<unknown>): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started++;
        await task();
      }
    }),
  );
}

export async function run(): Promise<BenchRow[]> {
  const { child, url } = await startServer();
  try {
    const sessionId = await initialize(url);
    const label = `mcp ${REVIEWS / 1000}k reviews`;

    // Latency: one call at a time, so each figure is a round trip on an idle server.
    const times: number[] = [];
    for (let i = 0; i < LATENCY_CALLS + WARM_UP; i++) {
      const start = performance.now();
      await callSearch(url, sessionId, searchBodies[i % searchBodies.length]!);
      if (i >= WARM_UP) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);

    // Throughput: autocannon cycles through the same mix on many connections.
    const load = await autocannon({
      url,
      method: 'POST',
      connections: CONNECTIONS,
      duration: THROUGHPUT_SECONDS,
      headers: { ...HEADERS, 'mcp-session-id': sessionId },
      requests: searchBodies.map((body) => ({ method: 'POST', body })),
    });
    if (load.non2xx > 0 || load.errors > 0) throw new Error(`throughput run had ${load.non2xx} non-2xx answers and ${load.errors} errors`);

    // Memory: baseline after warm-up, then 10,000 more sessions.
    await runPool(1_000, CONNECTIONS, () => initialize(url));
    const before = await askMemory(child);
    await runPool(SESSIONS, CONNECTIONS, () => initialize(url));
    const after = await askMemory(child);
    const heapGrowth = after.heapMb - before.heapMb;

    return [
      { name: `${label}: tools/call search_reviews latency p50 (${times.length} calls, loopback)`, value: +percentile(times, 50).toFixed(2), unit: 'ms' },
      { name: `${label}: tools/call search_reviews latency p99`, value: +percentile(times, 99).toFixed(2), unit: 'ms' },
      {
        name: `${label}: tools/call search_reviews throughput (${CONNECTIONS} connections, ${THROUGHPUT_SECONDS} s)`,
        value: Math.round(load.requests.average),
        unit: 'req/s',
      },
      { name: `${label}: server RSS before ${SESSIONS} initialize calls`, value: Math.round(before.rssMb), unit: 'MB' },
      { name: `${label}: server RSS after ${SESSIONS} initialize calls`, value: Math.round(after.rssMb), unit: 'MB' },
      { name: `${label}: server heap before ${SESSIONS} initialize calls`, value: Math.round(before.heapMb), unit: 'MB' },
      { name: `${label}: server heap after ${SESSIONS} initialize calls`, value: Math.round(after.heapMb), unit: 'MB' },
      {
        name: `${label}: server heap growth over ${SESSIONS} initialize calls`,
        value: +heapGrowth.toFixed(1),
        unit: 'MB',
        target: '< 5 MB (flat)',
        ok: heapGrowth < 5,
      },
    ];
  } finally {
    child.removeAllListeners('exit');
    child.kill();
  }
}

if (process.argv[2] === '--serve') {
  await serve();
} else if (import.meta.main) {
  for (const row of await run()) {
    const verdict = row.ok === undefined ? '' : row.ok ? '  ok' : '  MISSED';
    console.log(`${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}${verdict}`);
  }
}

async function loadAspectModel() {
  const parsed = parseAspectModel(JSON.parse(await readFile(DEFAULT_ASPECTS_FILE, 'utf8')));
  if (!parsed.ok) throw new Error(`${DEFAULT_ASPECTS_FILE}: ${JSON.stringify(parsed.issues)}`);
  return parsed.model;
}
