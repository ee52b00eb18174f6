/**
 * The real service process (`node scripts/serve.ts`, configured by environment only, trusting the test
 * CA through NODE_EXTRA_CA_CERTS) is SIGKILLed while a publish is being fanned out to slow HTTPS
 * subscribers, then started again on the same state (DATA_DIR, or DATABASE_URL): every subscriber still
 * gets the newest content. Then a publish made while no service runs is delivered by the next start.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import type { RecordedRequest } from '../../tools/lib/https-ca.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { waitUntil } from './harness.ts';
import { useTestSubscriber } from './test-subscriber.ts';
import { assertPostgresUp, TEST_DATABASE_URL } from './postgres.ts';
import { findFreePort } from '../../tools/lib/free-port.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const SUBSCRIBERS = 20;
/** The callback client's per-host limit (8): at most this many deliveries are in flight at the kill. */
const PER_HOST = 8;

const t = useTestSubscriber();

type Service = ServiceProcess;

function startService(env: Record<string, string>): Promise<Service> {
  return startServiceProcess({
    PUBLIC_URL: PUBLIC,
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_RETRY_DELAYS_MS: '100,200',
    NODE_EXTRA_CA_CERTS: t.ca.certFile,
    ...env,
  });
}

const stopService = stopServiceProcess;

function runPublish(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['scripts/publish.ts'], { env: { ...process.env, HOST: '127.0.0.1', PUBLIC_URL: PUBLIC, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

async function addReview(contentDir: string, id: string) {
  const file = path.join(contentDir, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(file, 'utf8'));
  reviews.push({ id, rating: 5, date: '2025-03-01', text: `Review ${id}.`, author: 'Robin', verified: true });
  await writeFile(file, JSON.stringify(reviews));
}

const state = [
  { name: 'SQLite in DATA_DIR', killable: true, setup: async (work: string) => ({ DATA_DIR: path.join(work, 'data') }), teardown: async () => {} },
  {
    name: 'PostgreSQL at DATABASE_URL',
    // Deliveries a killed instance had claimed wait for their claim to run out (5 minutes, not
    // configurable from the environment); tests/websub/crash-restart.test.ts covers that with a short claim.
    killable: false,
    // A database of its own: DATABASE_URL alone decides where the service keeps its state (schema `websub`).
    async setup() {
      assertPostgresUp();
      const database = `websub_service_${process.pid}_${randomBytes(3).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${database}`;
      return { DATABASE_URL: url.toString(), DATA_DIR: '/nonexistent/unused' };
    },
    async teardown(env: Record<string, string>) {
      if (!env.DATABASE_URL) return;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(env.DATABASE_URL).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    },
  },
];

describe.each(state)('the service restarted, state in $name', (backend) => {
  let env: Record<string, string> = {};
  let contentDir: string;
  const services: Service[] = [];
  const paths = Array.from({ length: SUBSCRIBERS }, (_, i) => `/${backend.name.split(' ')[0]}/crash-${i}`);
  const has = (id: string) => (r: RecordedRequest) => r.body.includes(id);
  const reached = (id: string) => paths.filter((p) => t.sub.notifications(p).some(has(id))).length;

  /** Subscribes every path to the Atom feed and waits until the service logged each verification. */
  async function subscribeAll(service: Service) {
    const verifiedBefore = service.output().split('websub_intent_verified').length - 1;
    for (const p of paths) {
      const res = await fetch(`${service.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': urls.feedXml, 'hub.callback': t.sub.callback(p) }).toString(),
      });
      expect(res.status).toBe(202);
    }
    const verified = () => service.output().split('websub_intent_verified').length - 1 - verifiedBefore;
    await waitUntil(async () => (verified() === SUBSCRIBERS ? { value: true } : undefined), 10_000);
  }

  beforeAll(async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'websub-service-crash-'));
    contentDir = path.join(work, 'content');
    await cp(SMALL_CONTENT, contentDir, { recursive: true });
    const distDir = path.join(work, 'dist');
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
    // The review log's key that first build made, given as LOG_SIGNING_KEY: the PostgreSQL case has no DATA_DIR.
    const LOG_SIGNING_KEY = (await readFile(path.join(work, 'data', 'log-keys', encodeURIComponent(`${new URL(PUBLIC).host}/log`)), 'utf8')).trim();
    env = { CONTENT_DIR: contentDir, DIST_DIR: distDir, LOG_SIGNING_KEY, ...(await backend.setup(work)) };
    // A whole site build: tens of seconds on a busy machine.
  }, 120_000);
  afterAll(async () => {
    for (const s of services) await stopService(s, 'SIGKILL');
    await backend.teardown(env);
  });

  if (backend.killable) it('every subscriber still gets the newest content after a SIGKILL and a restart', async () => {
    const first = await startService(env);
    services.push(first);
    // Notifications are held unanswered until after the kill: the fan-out is under way when it comes,
    // however long the publish waits for the service to serve its build.
    const held = Promise.withResolvers<void>();
    for (const p of paths) t.sub.behave(p, { holdNotification: held.promise });
    await subscribeAll(first);

    await addReview(contentDir, 'r-crash-1');
    const published = await runPublish({ ...env, PORT: new URL(first.url).port });
    expect(published.code).toBe(0);
    await waitUntil(async () => (reached('r-crash-1') > 0 ? { value: true } : undefined), 10_000);
    await stopService(first, 'SIGKILL');
    held.resolve();
    const beforeRestart = reached('r-crash-1');
    expect(beforeRestart).toBeLessThan(SUBSCRIBERS);

    const second = await startService(env);
    services.push(second);
    await waitUntil(async () => (reached('r-crash-1') === SUBSCRIBERS ? { value: true } : undefined), 45_000);
    const all = paths.flatMap((p) => t.sub.notifications(p));
    // At-least-once: only the attempts in flight at the kill may be repeated.
    expect(all.length - SUBSCRIBERS).toBeLessThanOrEqual(PER_HOST);
    expect(all.every(has('r-crash-1'))).toBe(true);
    await stopService(second, 'SIGTERM');
  }, 90_000);

  it('a publish made while no service runs is delivered by the next start', async () => {
    for (const p of paths) t.sub.behave(p, {});
    const running = await startService(env);
    services.push(running);
    await subscribeAll(running);
    await stopService(running, 'SIGTERM');

    await addReview(contentDir, 'r-offline-2');
    const port = String(await findFreePort());
    const published = { ...(await runPublish({ ...env, PORT: port })), port };
    expect(published.code).toBe(0);
    // Publish records the change in the store itself, so exit 0 means it is held for every subscriber.
    expect(published.stdout).toContain(`No service is running at http://127.0.0.1:${published.port}: the change is recorded in the hub's store (${SUBSCRIBERS} notifications queued)`);

    const third = await startService(env);
    services.push(third);
    await waitUntil(async () => (reached('r-offline-2') === SUBSCRIBERS ? { value: true } : undefined), 10_000);
    await stopService(third, 'SIGTERM');
  }, 60_000);
});
