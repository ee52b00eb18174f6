/**
 * A stop finishes what it started (issue 31 item 2): the real service process (`node scripts/serve.ts`)
 * gets SIGTERM in the middle of a fan-out to slow HTTPS subscribers. The deliveries in flight are answered
 * within the shutdown timeout and their answers recorded, the shutdown line counts them, and after a
 * restart on the same DATA_DIR every subscriber has the change exactly once.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import type { RecordedRequest } from '../../tools/lib/https-ca.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { waitUntil } from './harness.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const SUBSCRIBERS = 20;

const t = useTestSubscriber();
let env: Record<string, string>;
let contentDir: string;
let distDir: string;
const services: ServiceProcess[] = [];
const paths = Array.from({ length: SUBSCRIBERS }, (_, i) => `/stop/sub-${i}`);

beforeAll(async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'websub-service-stop-'));
  contentDir = path.join(work, 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  distDir = path.join(work, 'dist');
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  env = {
    PUBLIC_URL: PUBLIC,
    CONTENT_DIR: contentDir,
    DIST_DIR: distDir,
    DATA_DIR: path.join(work, 'data'),
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    NODE_EXTRA_CA_CERTS: t.ca.certFile,
  };
});
afterAll(async () => {
  for (const s of services) await stopServiceProcess(s, 'SIGKILL');
});

async function startService(): Promise<ServiceProcess> {
  const service = await startServiceProcess(env);
  services.push(service);
  return service;
}

async function post(service: ServiceProcess, fields: Record<string, string>): Promise<number> {
  const res = await fetch(`${service.url}${PATHS.hub}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return res.status;
}

it('SIGTERM mid fan-out: deliveries in flight finish and are recorded, so a restart sends nobody a duplicate', async () => {
  const first = await startService();
  for (const p of paths) expect(await post(first, { 'hub.mode': 'subscribe', 'hub.topic': urls.reviewsJson, 'hub.callback': t.sub.callback(p) })).toBe(202);
  await waitUntil(async () => (first.output().split('websub_intent_verified').length - 1 === SUBSCRIBERS ? { value: true } : undefined), 15_000);
  // Notifications are held unanswered until the hub has begun to stop: the fan-out is under way when the signal comes.
  const held = Promise.withResolvers<void>();
  for (const p of paths) t.sub.behave(p, { holdNotification: held.promise });

  const file = path.join(contentDir, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(file, 'utf8'));
  reviews.push({ id: 'r-stop-1', rating: 5, date: '2025-03-01', text: 'Review r-stop-1.', author: 'Robin', verified: true });
  await writeFile(file, JSON.stringify(reviews));
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  expect(await post(first, { 'hub.mode': 'publish', 'hub.topic': urls.reviewsJson })).toBe(202);
  const has = (r: RecordedRequest) => r.body.includes('r-stop-1');
  const reached = () => paths.filter((p) => t.sub.notifications(p).some(has)).length;
  await waitUntil(async () => (reached() > 0 ? { value: true } : undefined), 15_000);
  const from = first.output().length;
  const stopped = stopServiceProcess(first, 'SIGTERM');
  const stopping = await first.waitForEvent('websub_delivery_stopping', { from, timeoutMs: 15_000 });
  expect(stopping.in_flight).toBeGreaterThan(0);
  held.resolve();
  await stopped;

  const shutdown = JSON.parse(first.output().split('\n').find((line) => line.includes('"event":"shutdown"'))!);
  expect(shutdown).toMatchObject({ outcome: 'clean', deliveries_aborted: 0 });
  expect(shutdown.deliveries_finished).toBeGreaterThan(0);

  const second = await startService();
  await waitUntil(async () => (reached() === SUBSCRIBERS ? { value: true } : undefined), 30_000);
  // Whatever the restarted hub found pending is sent and answered before counting.
  await waitUntil(async () => (/^reviews_websub_deliveries_pending 0$/m.test(await (await fetch(`${second.url}/metrics`)).text()) ? { value: true } : undefined), 30_000);
  const deliveries = paths.flatMap((p) => t.sub.notifications(p)).filter(has);
  expect(deliveries).toHaveLength(SUBSCRIBERS);
  await stopServiceProcess(second, 'SIGTERM');
}, 240_000);
