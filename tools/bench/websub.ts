/**
 * WebSub fan-out benchmark (issue 4 item 8): the time from a publish until 1,000 and 10,000 HTTPS
 * subscribers on loopback have the new content, the deliveries per second that makes, and the peak
 * memory of the service while it fans out, with the hub's state in SQLite and in PostgreSQL.
 *
 * - The service is the real sidecar (startSidecar) in a child process, on a build of the demo content,
 *   trusting a CA made for the run through NODE_EXTRA_CA_CERTS, as a deployment would.
 * - Every subscriber is a distinct callback path (each with a secret, so each delivery is signed) on one
 *   HTTPS server in this process. One host would be held to the callback client's 8 requests per host, so
 *   the per-host limit is raised to the overall one (64); everything else is the service's defaults.
 * - Subscriptions are written to the store before the service starts (the hub admits 30 subscribe
 *   requests per client address and then one a second), together with the current topic content, so
 *   the start notifies nobody.
 * - "Publish" is what `npm run publish` does once the build is made: the new build is swapped in with two
 *   renames and the hub gets a `hub.mode=publish` ping. The clock runs from the ping until every
 *   subscriber has received the new feed, byte for byte. Peak memory is the child's VmHWM, reset
 *   (/proc/<pid>/clear_refs) just before the ping.
 *
 * - Search during the fan-out: a worker thread of this process sends one search request after another to
 *   the service from the ping until the last delivery, and before the ping for 3 s (the baseline). The
 *   searches sent before the ping's 202 (the service loads the new build and records the change: a cost
 *   of every publish, whatever the number of subscribers) are reported apart from those sent after it
 *   (the fan-out itself; goal: p99 under 50 ms with 20,000 subscribers). The gaps between the service's
 *   own event-loop ticks over the same time (perf_hooks, a 5 ms timer) are reported beside them.
 *
 * - One change reaching 200 slice topics with 10,000 subscribers in all: websub-slices.ts.
 *
 * Runnable alone: `npm exec -- node tools/bench/websub.ts`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { parseConfig } from '../../core/config.ts';
import { startSidecar } from '../../sidecar/server.ts';
import { createPostgresHubStore, createSqliteHubStore, type HubStore } from '../../sidecar/websub/index.ts';
import { dropPostgresSchema } from '../../sidecar/websub/store/postgres/store.ts';
// The same throwaway CA the tests use (made with node:crypto at run time): nothing private is kept.
import { createTestCa } from '../lib/https-ca.ts';
import { buildSite } from '../../scripts/build.ts';
import type { BenchRow } from './types.ts';
import { startBenchSubscribers } from './bench-subscribers.ts';
import { runSliceFanOut } from './websub-slices.ts';
import { readManifest } from '../../core/publishing/build-folders-fs.ts';
import { askChild } from './child-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PUBLIC_URL = 'https://reviews.example.com';
const SIZES = [1_000, 20_000];
/** A search the probe repeats during the fan-out (issue 24 item 6: search must not slow down). */
const SEARCH_PATH = '/api/reviews/search?rating=5';
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FAN_OUT_TIMEOUT_MS = 180_000;
const PER_HOST = 64;

type StoreSetup = { kind: 'sqlite'; dataDir: string } | { kind: 'postgres'; connectionString: string; schema: string };
type ServeSetup = { distDir: string; store: StoreSetup };
type ChildMessage = { type: 'ready'; url: string } | { type: 'loop-delay'; p99: number; max: number };
type ParentMessage = { type: 'stop' } | { type: 'loop-start' } | { type: 'loop-stop' };

// ---- the service (child process) -------------------------------------------------------------

async function serve(setup: ServeSetup): Promise<void> {
  const parsed = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL,
    DIST_DIR: setup.distDir,
    DATA_DIR: setup.store.kind === 'sqlite' ? setup.store.dataDir : path.join(setup.distDir, '..', 'unused-data'),
    LOG_LEVEL: 'warn',
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const hubStore = setup.store.kind === 'postgres' ? await openStore(setup.store) : undefined;
  const sidecar = await startSidecar(parsed.config, { hubStore, callbackClient: { maxConcurrencyPerHost: PER_HOST } });
  process.send!({ type: 'ready', url: sidecar.url } satisfies ChildMessage);
  let loop: ReturnType<typeof monitorEventLoopDelay> | undefined;
  process.on('message', async (message: ParentMessage) => {
    if (message.type === 'loop-start') {
      loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
    } else if (message.type === 'loop-stop') {
      loop?.disable();
      process.send!({ type: 'loop-delay', p99: (loop?.percentile(99) ?? NaN) / 1e6, max: (loop?.max ?? NaN) / 1e6 } satisfies ChildMessage);
    } else {
      await sidecar.close();
      await hubStore?.close();
      process.exit(0);
    }
  });
}

// ---- the subscribers and the clock (this process) --------------------------------------------

async function openStore(store: StoreSetup): Promise<HubStore> {
  return store.kind === 'sqlite'
    ? createSqliteHubStore({ dataDir: store.dataDir })
    : createPostgresHubStore({ connectionString: store.connectionString, schema: store.schema });
}

/** The topics' current content and N subscriptions to the Atom feed, written before the service starts. */
async function seedStore(store: StoreSetup, distDir: string, callbackOrigin: string, count: number) {
  const hub = await openStore(store);
  const urls = createServiceUrls(PUBLIC_URL);
  const manifest = await readManifest(distDir);
  if (!manifest) throw new Error(`${distDir} is not a complete build`);
  for (const topic of urls.topics()) {
    const entry = manifest.files[new URL(topic).pathname]!;
    const body = await readFile(path.join(distDir, entry.file));
    const hash = createHash('sha256').update(body).digest('hex');
    await hub.recordTopicContent({ topic, hash, contentType: entry.type, body }, Date.now());
  }
  const now = Date.now();
  const save = (i: number) =>
    hub.saveSubscription(
      { topic: urls.feedXml, callback: `${callbackOrigin}/cb/${i}`, secret: `secret-${i}`, leaseSeconds: 864_000, expiresAt: now + 864_000_000 },
      now,
    );
  for (let i = 0; i < count; i += 10) await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => save(i + j)));
  await hub.close();
}

/**
 * Sends `SEARCH_PATH` to the service one request after another, from a worker thread (so the subscribers'
 * work on this thread's event loop does not count), until stopped; resolves with the latencies in ms and
 * how many searches had to be sent again.
 *
 * One kept-alive connection (node:http, one socket). A request sent on a kept-alive connection just as
 * the service closes it is reset; RFC 9112 §9.3.1 lets a client send an idempotent request again on a
 * new connection, as browsers do, and so does the probe, once, timing the search from its first attempt
 * and counting it. Any other failure ends the run naming its code and how many searches had gone through
 * (the probe used to die on the first reset, with no figure at all).
 */
function probeSearch(serviceUrl: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const http = require('node:http');
     const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
     const latencies = [];
     const resets = [];
     let running = true;
     parentPort.on('message', () => { running = false; });
     const get = () => new Promise((resolve, reject) => {
       const req = http.get(workerData.url, { agent }, (res) => {
         res.resume();
         res.on('end', () => resolve(res.statusCode));
         res.on('error', reject);
       });
       req.on('error', (error) => reject(Object.assign(error, { reused: req.reusedSocket })));
     });
     (async () => {
       while (running) {
         const started = performance.now();
         let status;
         try {
           status = await get();
         } catch (error) {
           if (!error.reused || resets.length > 1000) throw new Error('search ' + (latencies.length + 1) + ' failed: ' + (error.code || error.message));
           resets.push(error.code || error.message);
           status = await get();
         }
         if (status !== 200) throw new Error('search answered ' + status);
         latencies.push([performance.timeOrigin + started, performance.now() - started]);
       }
       agent.destroy();
       parentPort.postMessage({ latencies, resets });
     })();`,
    { eval: true, workerData: { url: `${serviceUrl}${SEARCH_PATH}` } },
  );
  const done = new Promise<{ latencies: [number, number][]; resets: string[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    /** Each search's start (ms since the epoch, comparable across threads) and latency (ms), and the resets met. */
    async stop(): Promise<{ latencies: [number, number][]; resets: string[] }> {
      worker.postMessage('stop');
      const result = await done;
      await worker.terminate();
      return result;
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function startService(setup: ServeSetup, caFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(import.meta.filename, ['--serve', JSON.stringify(setup)], {
    cwd: ROOT,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: ChildMessage) => m.type === 'ready' && resolve({ child, url: m.url }));
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
}

/**
 * The gaps between the service's own 5 ms event-loop ticks since 'loop-start' (perf_hooks), which no other
 * process's load inflates as much as a round trip. `monitorEventLoopDelay` records the intervals between
 * its ticks, not their lateness: an idle loop reads 5 ms, and a hold of H ms reads H to H + 5 ms.
 */
function readLoopDelay(child: ChildProcess): Promise<{ p99: number; max: number }> {
  return askChild<ChildMessage, 'loop-delay'>(child, { type: 'loop-stop' } satisfies ParentMessage, 'loop-delay');
}

async function stopService(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send({ type: 'stop' } satisfies ParentMessage);
  });
}

/** Resident memory of a process in MB: now (`VmRSS`) or its peak since the last reset (`VmHWM`). */
async function readRssMb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

/** Two renames on one file system, as scripts/build.ts swaps a build in. */
async function swapIn(from: string, distDir: string) {
  const staging = `${distDir}-staging`;
  await cp(from, staging, { recursive: true });
  await rename(distDir, `${distDir}-retired`);
  await rename(staging, distDir);
}

async function isPostgresUp(): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const ca = createTestCa();
  const work = await mkdtemp(path.join(tmpdir(), 'bench-websub-'));
  const subscribers = await startBenchSubscribers(ca.issue(['127.0.0.1']), FAN_OUT_TIMEOUT_MS);
  try {
    // Two builds of the demo content; the second has one more review, so the Atom feed changes.
    const contentDir = path.join(work, 'content');
    await cp(path.join(ROOT, 'examples/demo'), contentDir, { recursive: true });
    const v1 = path.join(work, 'v1', 'dist');
    const v2 = path.join(work, 'v2', 'dist');
    await buildOrThrow(contentDir, v1);
    const extra = path.join(contentDir, 'reviews', 'bench-extra.json');
    await writeFile(extra, JSON.stringify([{ id: 'bench-new', rating: 5, date: '2099-01-01', text: 'Just published.', author: 'Bench', verified: true }]));
    await buildOrThrow(contentDir, v2);
    const newFeed = await readFile(path.join(v2, PATHS.feedXml.slice(1)));

    const stores: { label: string; setup: (runDir: string) => StoreSetup; cleanup: (s: StoreSetup) => Promise<void> }[] = [
      { label: 'SQLite', setup: (runDir) => ({ kind: 'sqlite', dataDir: path.join(runDir, 'data') }), cleanup: async () => {} },
    ];
    if (await isPostgresUp()) {
      stores.push({
        label: 'PostgreSQL',
        setup: () => ({ kind: 'postgres', connectionString: DATABASE_URL, schema: `bench_websub_${randomBytes(4).toString('hex')}` }),
        cleanup: (s) => (s.kind === 'postgres' ? dropPostgresSchema(s.connectionString, s.schema) : Promise.resolve()),
      });
    } else {
      console.error(`  PostgreSQL is not reachable at ${DATABASE_URL}: its rows are left out`);
    }

    // `npm run bench -- websub --slices-only` runs the slice case alone.
    for (const store of process.argv.includes('--slices-only') ? [] : stores) {
      for (const count of SIZES) {
        const runDir = await mkdtemp(path.join(work, 'run-'));
        const distDir = path.join(runDir, 'dist');
        await cp(v1, distDir, { recursive: true });
        const storeSetup = store.setup(runDir);
        try {
          await seedStore(storeSetup, distDir, subscribers.origin, count);
          const service = await startService({ distDir, store: storeSetup }, ca.certFile);
          try {
            const pid = service.child.pid!;
            const rssBeforeMb = await readRssMb(pid, 'VmRSS');
            const baselineProbe = probeSearch(service.url);
            await new Promise((resolve) => setTimeout(resolve, 3_000));
            const baselineRun = await baselineProbe.stop();
            const baseline = baselineRun.latencies.map(([, ms]) => ms);
            await writeFile(`/proc/${pid}/clear_refs`, '5');
            service.child.send({ type: 'loop-start' } satisfies ParentMessage);
            const delivered = subscribers.expect(newFeed, count);
            await swapIn(v2, distDir);
            const started = performance.now();
            const probe = probeSearch(service.url);
            const ping = await fetch(`${service.url}${PATHS.hub}`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': createServiceUrls(PUBLIC_URL).feedXml }).toString(),
            });
            if (ping.status !== 202) throw new Error(`the publish ping got ${ping.status}: ${await ping.text()}`);
            const recordedAt = performance.timeOrigin + performance.now();
            await delivered;
            const seconds = (performance.now() - started) / 1000;
            const { latencies: searches, resets } = await probe.stop();
            // Before the 202 the service loads the new build and records the change; after it, it fans out.
            const loading = searches.filter(([at]) => at < recordedAt).map(([, ms]) => ms);
            const during = searches.filter(([at]) => at >= recordedAt).map(([, ms]) => ms);
            const loopDelay = await readLoopDelay(service.child);
            const peakMb = await readRssMb(pid, 'VmHWM');
            const { wrong, total } = subscribers.counts();
            if (wrong > 0 || total !== count) console.error(`  ${store.label} ${count}: ${total} notifications, ${wrong} not the new feed`);
            const what = `websub ${count.toLocaleString('en-US')} subscribers, ${store.label}`;
            rows.push({ name: `${what}: publish → all have the new feed`, value: seconds, unit: 's' });
            rows.push({ name: `${what}: deliveries per second`, value: count / seconds, unit: '/s' });
            rows.push({ name: `${what}: service peak RSS during fan-out`, value: peakMb, unit: 'MB' });
            rows.push({ name: `${what}: service RSS before the publish`, value: rssBeforeMb, unit: 'MB' });
            const p99 = percentile(during, 99);
            rows.push({ name: `${what}: search p50 / p99 while the build loads and the change is recorded (${loading.length} searches)`, value: percentile(loading, 50), unit: `ms / ${percentile(loading, 99).toFixed(1)} ms` });
            rows.push({ name: `${what}: search p50 during the fan-out (${during.length} searches)`, value: percentile(during, 50), unit: 'ms' });
            rows.push({ name: `${what}: search p99 during the fan-out`, value: p99, unit: 'ms', target: '< 50 ms', ok: p99 < 50 });
            rows.push({ name: `${what}: gap between the service's 5 ms event-loop ticks, p99 / max, during the fan-out`, value: loopDelay.p99, unit: `ms / ${loopDelay.max.toFixed(0)} ms` });
            rows.push({ name: `${what}: search p50 / p99 before the publish (${baseline.length} searches)`, value: percentile(baseline, 50), unit: `ms / ${percentile(baseline, 99).toFixed(1)} ms` });
            const allResets = [...baselineRun.resets, ...resets];
            rows.push({ name: `${what}: searches sent again after a reset kept-alive connection`, value: allResets.length, unit: allResets.length > 0 ? `(${[...new Set(allResets)].join(', ')})` : 'searches' });
          } finally {
            await stopService(service.child);
          }
        } finally {
          await store.cleanup(storeSetup);
          await rm(runDir, { recursive: true, force: true });
        }
      }
    }
    rows.push(
      ...(await runSliceFanOut({ root: ROOT, work, publicUrl: PUBLIC_URL, tls: ca.issue(['127.0.0.1']), caFile: ca.certFile, build: buildOrThrow, startService, stopService, swapIn })),
    );
  } finally {
    await subscribers.close();
    ca.remove();
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

async function buildOrThrow(contentDir: string, outDir: string) {
  const built = await buildSite({ contentDir, publicUrl: PUBLIC_URL, outDir });
  if (!built.ok) throw new Error(built.message);
}

if (process.argv[2] === '--serve') {
  await serve(JSON.parse(process.argv[3]!) as ServeSetup);
} else if (import.meta.main) {
  console.table(await run());
}
