/**
 * Abuse benchmark (issue 10 items 3 and 5, `npm run bench -- abuse`), against the real sidecar in its own
 * process, from loopback addresses only (127.0.0.0/8), every loop bounded in count and time:
 *
 * 1. Slow partial headers: 2,000 connections from 100 loopback addresses each send half a request line
 *    and then nothing. Meanwhile one client keeps fetching `/reviews.json`: how many of its requests
 *    succeed and their p99, and how long until the server has closed every slow connection (headersTimeout
 *    10 s, checked every second).
 * 1b. Slow partial headers with re-opening (issue 24 item 7): 100 loopback addresses keep more half-sent
 *    requests open than the connection budget (MAX_CONNECTIONS) holds, re-opening each one the moment the
 *    server closes it, for 20 s. Meanwhile one client sends a request every 50 ms on a new connection:
 *    its success rate (goal ≥ 99 %) and p99.
 * 2. Per-address cap: 1,000 idle connections from one address: how many the server refuses (503) beyond
 *    MAX_CONNECTIONS_PER_ADDRESS (256).
 * 3. Subscription flood: 300 loopback addresses send 10 subscribe requests each for callbacks on one host
 *    (an HTTPS server in this process that answers every verification): how many the hub accepts against
 *    WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST (1,000), and how long a subscriber on another host waits for its
 *    verification while the flood is being verified.
 *
 * 4. Heavy MCP bodies (issue 31 item 8): four clients each POST 60,000-key `tools/call` bodies to `/mcp`
 *    without pause (the MCP rate limit raised, so the width check is what refuses them), while one client
 *    calls `search_reviews` in a loop: its p50 and p99, alone and during the attack.
 *
 * Runnable alone: `npm exec -- node tools/bench/abuse.ts`; `ABUSE_CASES=reopen,cap` runs only those cases
 * (slow, reopen, cap, flood, heavy).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'node:http';
import { createTestCa } from '../lib/https-ca.ts';
import { buildSite } from '../../scripts/build.ts';
import { startSidecarProcess } from './serve-child.ts';
import type { BenchRow } from './types.ts';

const PUBLIC_URL = 'https://reviews.example.com';
const SLOW_CONNECTIONS = 2_000;
const SLOW_ADDRESSES = 100;
const CAP_ATTEMPTS = 1_000;
/** The sidecar's default MAX_CONNECTIONS, and the attackers' target: 20 % more than it holds. */
const BUDGET = 10_000;
const REOPENING_CONNECTIONS = 12_000;
const REOPENING_SECONDS = 20;
const FLOOD_ADDRESSES = 300;
const FLOOD_PER_ADDRESS = 10;

const loopback = (i: number) => `127.0.${Math.floor(i / 250) + 1}.${(i % 250) + 1}`;
const percentile = (xs: number[], p: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!);

function openSlow(port: number, localAddress: string): Promise<{ socket: Socket; closed: Promise<number>; answer: () => string }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    socket.on('data', (c) => (text += c));
    socket.on('error', () => {});
    const closed = new Promise<number>((done) => socket.on('close', () => done(performance.now())));
    socket.once('connect', () => {
      socket.write('GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      resolve({ socket, closed, answer: () => text });
    });
    socket.once('error', () => resolve({ socket, closed, answer: () => text }));
  });
}

function get(url: string, agent: Agent, timeoutMs = 5_000): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** A legitimate client during an attack: `GET /reviews.json` on a new connection every 50 ms. */
async function legitimateClient(url: string, seconds: number): Promise<{ ok: number; sent: number; latencies: number[] }> {
  const agent = new Agent({ keepAlive: false });
  const latencies: number[] = [];
  let ok = 0;
  let sent = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    sent += 1;
    if ((await get(`${url}/reviews.json`, agent)) === 200) {
      ok += 1;
      latencies.push(performance.now() - t);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ok, sent, latencies };
}

async function slowHeaders(url: string): Promise<BenchRow[]> {
  const port = Number(new URL(url).port);
  const started = performance.now();
  const slow = await Promise.all(Array.from({ length: SLOW_CONNECTIONS }, (_, i) => openSlow(port, loopback(i % SLOW_ADDRESSES))));
  const opened = performance.now();
  const { ok, sent, latencies } = await legitimateClient(url, 12);
  const closedAt = await Promise.race([Promise.all(slow.map((s) => s.closed)), new Promise<number[]>((r) => setTimeout(() => r([]), 30_000))]);
  const timedOut = slow.filter((s) => s.answer().startsWith('HTTP/1.1 408')).length;
  for (const s of slow) s.socket.destroy();
  const lastClose = closedAt.length === 0 ? NaN : (Math.max(...closedAt) - opened) / 1000;
  return [
    { name: `slow partial headers: ${SLOW_CONNECTIONS} connections from ${SLOW_ADDRESSES} addresses, opened in`, value: (opened - started) / 1000, unit: 's' },
    { name: 'slow partial headers: legitimate GET /reviews.json succeeded', value: (100 * ok) / sent, unit: '%', target: '100 %', ok: ok === sent },
    { name: 'slow partial headers: legitimate GET /reviews.json p99 during the attack', value: percentile(latencies, 99), unit: 'ms' },
    { name: 'slow partial headers: every slow connection closed after', value: lastClose, unit: 's', target: '≤ 12 s', ok: lastClose <= 12 },
    { name: 'slow partial headers: closed with a 408 JSON answer', value: timedOut, unit: 'connections' },
  ];
}

async function slowHeadersReopening(url: string): Promise<BenchRow[]> {
  const port = new URL(url).port;
  const started = performance.now();
  const attacker = spawn(process.execPath, [path.join(import.meta.dirname, 'slow-headers-child.ts'), port, String(REOPENING_CONNECTIONS), String(SLOW_ADDRESSES)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  attacker.stdout!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    attacker.stdout!.on('data', () => output.includes('filled\n') && resolve());
    attacker.once('exit', (code) => reject(new Error(`the attacker exited with ${code}`)));
  });
  const filled = performance.now();
  const { ok, sent, latencies } = await legitimateClient(url, REOPENING_SECONDS);
  const exited = new Promise((resolve) => attacker.once('exit', resolve));
  attacker.stdin!.end();
  await exited;
  const { opened, closed } = JSON.parse(output.split('\n')[1]!) as { opened: number; closed: number };
  const rate = (100 * ok) / sent;
  return [
    { name: `slow headers, re-opening: ${REOPENING_CONNECTIONS} half-sent requests from ${SLOW_ADDRESSES} addresses against a budget of ${BUDGET}, opened in`, value: (filled - started) / 1000, unit: 's' },
    { name: 'slow headers, re-opening: slow connections the server closed (each re-opened at once)', value: closed, unit: `(of ${opened} opened)` },
    { name: `slow headers, re-opening: legitimate GET /reviews.json succeeded (one every 50 ms for ${REOPENING_SECONDS} s)`, value: rate, unit: `% (${ok} of ${sent})`, target: '≥ 99 %', ok: rate >= 99 },
    { name: 'slow headers, re-opening: legitimate GET /reviews.json p50', value: percentile(latencies, 50), unit: 'ms' },
    { name: 'slow headers, re-opening: legitimate GET /reviews.json p99', value: percentile(latencies, 99), unit: 'ms' },
    { name: 'slow headers, re-opening: load average of the machine (1 min) at the end', value: loadavg()[0]!, unit: `(${availableParallelism()} cores)` },
  ];
}

async function perAddressCap(url: string): Promise<BenchRow[]> {
  const port = Number(new URL(url).port);
  const sockets = await Promise.all(Array.from({ length: CAP_ATTEMPTS }, () => openSlow(port, '127.0.9.9')));
  await new Promise((r) => setTimeout(r, 1_000));
  const refused = sockets.filter((s) => s.answer().startsWith('HTTP/1.1 503')).length;
  for (const s of sockets) s.socket.destroy();
  return [{ name: `per-address cap: of ${CAP_ATTEMPTS} connections from one address, refused with 503`, value: refused, unit: 'connections', target: `${CAP_ATTEMPTS - 256}`, ok: refused === CAP_ATTEMPTS - 256 }];
}

function postHub(url: string, form: Record<string, string>, localAddress: string): Promise<number> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve) => {
    const req = request(`${url}/api/websub/hub`, { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function subscriptionFlood(url: string, subscriberPort: number, verified: Map<string, number>): Promise<BenchRow[]> {
  const statuses = new Map<number, number>();
  const started = performance.now();
  const legit = `https://[::1]:${subscriberPort}/legit`;
  let legitSentAt = 0;
  await Promise.all(
    Array.from({ length: FLOOD_ADDRESSES }, async (_, a) => {
      for (let i = 0; i < FLOOD_PER_ADDRESS; i++) {
        const callback = `https://127.0.0.1:${subscriberPort}/flood/${a}/${i}`;
        const status = await postHub(url, { 'hub.mode': 'subscribe', 'hub.topic': `${PUBLIC_URL}/feed.xml`, 'hub.callback': callback }, loopback(a));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (a === 0 && i === FLOOD_PER_ADDRESS / 2) {
          legitSentAt = performance.now();
          await postHub(url, { 'hub.mode': 'subscribe', 'hub.topic': `${PUBLIC_URL}/feed.xml`, 'hub.callback': legit }, '127.0.200.1');
        }
      }
    }),
  );
  const floodMs = performance.now() - started;
  const deadline = performance.now() + 30_000;
  while (!verified.has('/legit') && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const legitWait = verified.has('/legit') ? (verified.get('/legit')! - legitSentAt) / 1000 : NaN;
  const accepted = statuses.get(202) ?? 0;
  return [
    { name: `subscription flood: ${FLOOD_ADDRESSES * FLOOD_PER_ADDRESS} subscribes from ${FLOOD_ADDRESSES} addresses to one host, sent in`, value: floodMs / 1000, unit: 's' },
    { name: 'subscription flood: accepted (202) for the one callback host', value: accepted, unit: 'subscriptions', target: '≤ 1,000 (+ pending)', ok: accepted <= 1_050 },
    { name: 'subscription flood: refused 403 subscription_limit / 503 callback_host_busy / 429', value: statuses.get(403) ?? 0, unit: `(503: ${statuses.get(503) ?? 0}, 429: ${statuses.get(429) ?? 0})` },
    { name: 'subscription flood: a subscriber on another host verified after', value: legitWait, unit: 's' },
  ];
}

const HEAVY_CLIENTS = 4;
const HEAVY_KEYS = 60_000;

function postMcp(url: string, body: string, headers: Record<string, string>, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request(`${url}/mcp`, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(body);
  });
}

async function heavyMcpBodies(distDir: string, work: string): Promise<BenchRow[]> {
  const sidecar = await startSidecarProcess({ DIST_DIR: distDir, DATA_DIR: path.join(work, 'data-heavy'), PUBLIC_URL, MCP_RATE_LIMIT: '1000000,1000000' });
  try {
    const agent = new Agent({ keepAlive: true });
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
    const session = await new Promise<string>((resolve) => {
      const req = request(`${sidecar.url}/mcp`, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.headers['mcp-session-id'])));
      });
      req.end(JSON.stringify(init));
    });
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const call = (id: number, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_reviews', arguments: args } });
    const normal = async (seconds: number) => {
      const latencies: number[] = [];
      const until = performance.now() + seconds * 1000;
      for (let id = 1; performance.now() < until; id++) {
        const t = performance.now();
        const { status } = await postMcp(sidecar.url, call(id, { query: 'price', limit: 5 }), headers, agent);
        if (status === 200) latencies.push(performance.now() - t);
      }
      return latencies;
    };
    const alone = await normal(5);
    const wide = call(7, Object.fromEntries(Array.from({ length: HEAVY_KEYS }, (_, i) => [`k${i}`, 1])));
    let running = true;
    let refused = 0;
    const attackers = Array.from({ length: HEAVY_CLIENTS }, async (_, i) => {
      const own = new Agent({ keepAlive: true, localAddress: loopback(200 + i) } as ConstructorParameters<typeof Agent>[0]);
      while (running) if ((await postMcp(sidecar.url, wide, headers, own)).text.includes('keys')) refused += 1;
      own.destroy();
    });
    const attacked = await normal(10);
    running = false;
    await Promise.all(attackers);
    agent.destroy();
    return [
      { name: `heavy MCP bodies: a search_reviews call alone, p50 / p99`, value: percentile(alone, 50), unit: `ms / ${percentile(alone, 99).toFixed(1)} ms` },
      { name: `heavy MCP bodies: the same call while ${HEAVY_CLIENTS} clients send ${HEAVY_KEYS.toLocaleString('en')}-key bodies, p50 / p99`, value: percentile(attacked, 50), unit: `ms / ${percentile(attacked, 99).toFixed(1)} ms` },
      { name: 'heavy MCP bodies: hostile bodies refused meanwhile (10 s)', value: refused, unit: `bodies (${(wide.length / 1024).toFixed(0)} KiB each)` },
      { name: 'heavy MCP bodies: load average of the machine (1 min) at the end', value: loadavg()[0]!, unit: `(${availableParallelism()} cores)` },
    ];
  } finally {
    await sidecar.stop();
  }
}

export async function run(): Promise<BenchRow[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-abuse-'));
  const ca = createTestCa();
  const keys = ca.issue(['127.0.0.1', '::1']);
  const verified = new Map<string, number>();
  const subscriber = createHttpsServer(keys, (req, res) => {
    const u = new URL(req.url ?? '/', 'https://x');
    const challenge = u.searchParams.get('hub.challenge');
    if (u.pathname === '/legit') verified.set('/legit', performance.now());
    res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge ?? '');
  });
  await new Promise<void>((resolve) => subscriber.listen(0, '::', resolve));
  const subscriberPort = (subscriber.address() as AddressInfo).port;
  const rows: BenchRow[] = [];
  try {
    const distDir = path.join(work, 'dist');
    const built = await buildSite({ contentDir: 'examples/demo', publicUrl: PUBLIC_URL, outDir: distDir });
    if (!built.ok) throw new Error(built.message);
    const sidecar = await startSidecarProcess({
      DIST_DIR: distDir,
      DATA_DIR: path.join(work, 'data'),
      PUBLIC_URL,
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      NODE_EXTRA_CA_CERTS: ca.certFile,
    });
    try {
      const only = process.env.ABUSE_CASES?.split(',');
      const wanted = (name: string) => only === undefined || only.includes(name);
      if (wanted('slow')) rows.push(...(await slowHeaders(sidecar.url)));
      if (wanted('cap')) rows.push(...(await perAddressCap(sidecar.url)));
      if (wanted('flood')) rows.push(...(await subscriptionFlood(sidecar.url, subscriberPort, verified)));
      if (wanted('heavy')) rows.push(...(await heavyMcpBodies(distDir, work)));
      // Last: when its attacker stops, the server still holds (and closes, over seconds) more connections
      // than its budget, and a case run then would measure that aftermath instead of its own attack.
      if (wanted('reopen')) rows.push(...(await slowHeadersReopening(sidecar.url)));
    } finally {
      await sidecar.stop();
    }
  } finally {
    subscriber.closeAllConnections();
    subscriber.close();
    ca.remove();
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) {
  for (const row of await run()) console.log(`${row.name}: ${Number.isInteger(row.value) ? row.value : row.value.toFixed(2)} ${row.unit}`);
}
