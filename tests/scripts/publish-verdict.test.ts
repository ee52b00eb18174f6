/**
 * What `npm run publish` reports is what the hub recorded (issue 31 item 5): per topic, slice feeds
 * included, changed or unchanged with its subscribers, exactly as the service's own `websub_topic_changed`
 * lines say; and when the hub could not record its ping (the store away), exit 4 with what will still
 * happen, which then happens. The real service process, real HTTPS subscribers (test CA), real SQLite and
 * PostgreSQL (through a TCP proxy whose cut is the outage).
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { runScript, type ScriptRun } from '../helpers/run-script.ts';
import { startSubscribedServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { SMALL_CONTENT } from '../helpers/site-build.ts';
import type { TcpProxy } from '../helpers/tcp-proxy.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { assertPostgresUp, TEST_DATABASE_URL } from '../websub/postgres.ts';
import { useTestSubscriber } from '../websub/test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const DANA_FEED = `${PUBLIC}/feeds/technicians/dana-whitfield.json`;
/** Each publish is a full build: seconds, more on a busy machine. */
const PUBLISH_TIMEOUT = 120_000;

const t = useTestSubscriber();

type Work = { work: string; contentDir: string; distDir: string; dataDir: string };

async function makeWork(): Promise<Work> {
  const work = await mkdtemp(path.join(tmpdir(), 'publish-verdict-'));
  const contentDir = path.join(work, 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  return { work, contentDir, distDir: path.join(work, 'dist'), dataDir: path.join(work, 'data') };
}

/** The service process on a build of `w`, with the test subscriber's subscription to `topic` verified. */
function startService(w: Work, topic: string, callbackPath: string, env?: Record<string, string>): Promise<ServiceProcess> {
  return startSubscribedServiceProcess({ ...w, workDir: w.work, publicUrl: PUBLIC, subscriber: t, topic, callbackPath, env });
}

function publish(service: ServiceProcess, w: Work, env: Record<string, string> = {}): Promise<ScriptRun> {
  const { port } = new URL(service.url);
  return runScript(process.execPath, ['scripts/publish.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: port, PUBLIC_URL: PUBLIC, CONTENT_DIR: w.contentDir, DIST_DIR: w.distDir, DATA_DIR: w.dataDir, ...env },
  });
}

async function subscribe(service: ServiceProcess, topic: string, callbackPath: string) {
  const response = await fetch(`${service.url}${PATHS.hub}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': t.sub.callback(callbackPath) }).toString(),
  });
  expect(response.status).toBe(202);
  await t.sub.waitForVerification(callbackPath, 'subscribe', 10_000);
}

async function editReview(contentDir: string, id: string, text: string) {
  const file = path.join(contentDir, 'reviews', '2025-01.json');
  const reviews = JSON.parse(await readFile(file, 'utf8')) as { id: string; text: string }[];
  reviews.find((r) => r.id === id)!.text = text;
  await writeFile(file, JSON.stringify(reviews, null, 2));
}

/** The hub's records since `from` (an offset into the service's output): each changed topic and its subscribers. */
function changesLogged(service: ServiceProcess, from: number): Map<string, number> {
  const changed = new Map<string, number>();
  for (const line of service.output().slice(from).split('\n')) {
    if (!line.includes('"event":"websub_topic_changed"')) continue;
    const entry = JSON.parse(line) as { topic: string; subscribers: number };
    changed.set(entry.topic, (changed.get(entry.topic) ?? 0) + entry.subscribers);
  }
  return changed;
}

/** Publish's report: `  changed    <topic> (N subscribers)` and `  unchanged  <topic>` lines. */
function reported(stdout: string) {
  const changed = new Map<string, number>();
  const unchanged: string[] = [];
  for (const line of stdout.split('\n')) {
    const hit = /^ {2}changed {4}(\S+) \((\d+) subscribers?\)$/.exec(line);
    if (hit) changed.set(hit[1]!, Number(hit[2]));
    const same = /^ {2}unchanged {2}(\S+)$/.exec(line);
    if (same) unchanged.push(same[1]!);
  }
  return { changed, unchanged };
}

const R3_BEFORE = 'Good work on the water heater, but a bit pricey.';
const R3_AFTER = 'Good work on the water heater, and Dana explained every step.';

describe('npm run publish reports the hub\'s verdict (SQLite)', () => {
  let w: Work;
  let service: ServiceProcess;

  beforeAll(async () => {
    w = await makeWork();
    service = await startService(w, DANA_FEED, '/verdict/dana');
    await subscribe(service, urls.reviewsJson, '/verdict/reviews');
  }, PUBLISH_TIMEOUT);
  afterAll(async () => {
    if (service) await stopServiceProcess(service);
  });

  /** Publishes and checks that the report is the hub's records, topic by topic; returns the report. */
  async function publishAndCompare() {
    const from = service.output().length;
    const run = await publish(service, w);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = reported(run.stdout);
    expect(report.changed).toEqual(changesLogged(service, from));
    // Every topic the hub knows is in the report, the slice feeds included.
    const feeds = (await fetch(`${service.url}/feeds.json`).then((r) => r.json())) as unknown;
    const sliceUrls = JSON.stringify(feeds).match(/https:\/\/reviews\.example\.com\/feeds\/[^"]+\.(?:xml|json)/g) ?? [];
    expect(new Set([...report.changed.keys(), ...report.unchanged])).toEqual(new Set([...urls.topics(), ...sliceUrls]));
    return { run, report };
  }

  it('lists a slice feed that changed, with its subscribers, as the hub recorded it', async () => {
    await editReview(w.contentDir, 'r-0003', R3_AFTER);
    const { run, report } = await publishAndCompare();
    expect(report.changed.get(DANA_FEED)).toBe(1);
    expect(report.changed.get(urls.reviewsJson)).toBe(1);
    expect(report.unchanged).toContain(`${PUBLIC}/feeds/technicians/michael-reyes.json`);
    expect(run.stdout).toContain('its hub is notifying 2 subscribers of the changed topics.');
    const pushed = await t.sub.waitForNotification('/verdict/dana', (r) => r.body.includes('Dana explained'), 10_000);
    expect(pushed.body.toString()).toContain('r-0003');
  }, PUBLISH_TIMEOUT);

  it('reports a revert as the change it is for the hub: the same topics changed again', async () => {
    await editReview(w.contentDir, 'r-0003', R3_BEFORE);
    const { report } = await publishAndCompare();
    expect(report.changed.get(DANA_FEED)).toBe(1);
    expect(report.changed.get(urls.reviewsJson)).toBe(1);
    await t.sub.waitForNotification('/verdict/dana', (r) => r.body.includes('a bit pricey'), 10_000);
  }, PUBLISH_TIMEOUT);

  it('reports nothing changed for content the hub already has, and nobody notified', async () => {
    const { run, report } = await publishAndCompare();
    expect(report.changed.size).toBe(0);
    expect(run.stdout).toContain('its hub found no topic changed, so nobody is notified.');
  }, PUBLISH_TIMEOUT);
});

describe('npm run publish while the hub\'s store is away (PostgreSQL)', () => {
  let w: Work;
  let service: ServiceProcess;
  let proxy: TcpProxy;
  let database: string;

  beforeAll(async () => {
    assertPostgresUp();
    database = `publish_verdict_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(TEST_DATABASE_URL);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    url.pathname = `/${database}`;
    w = await makeWork();
    service = await startService(w, urls.reviewsJson, '/outage/reviews', { DATABASE_URL: url.href });
  }, PUBLISH_TIMEOUT);
  afterAll(async () => {
    if (service) await stopServiceProcess(service);
    await proxy?.close();
    if (database) {
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('exits 4 saying the hub has not recorded it and will, and the hub then delivers it', async () => {
    await editReview(w.contentDir, 'r-0003', R3_AFTER);
    await proxy.cut();
    const run = await publish(service, w);
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(`Not recorded by the hub yet: ${urls.topics().join(', ')}`);
    expect(run.stderr).toContain(`The service at http://127.0.0.1:${new URL(service.url).port} now serves build`);
    expect(run.stderr).toContain('but its hub could not record the change in its store (');
    expect(run.stderr).toContain('once its store answers again it re-reads every topic of the build it serves');
    expect(run.stderr).not.toContain('nobody is notified until it can');
    // The build is served already; nothing has been recorded, so nothing was sent.
    expect(await fetch(`${service.url}/reviews.json`).then((r) => r.text())).toContain('Dana explained');
    expect(t.sub.notifications('/outage/reviews')).toHaveLength(0);

    const from = service.output().length;
    await proxy.restore();
    // Each step waits for the service's own record of it, so a failure says which one did not come:
    // the store check that finds the store back (every 5 s), the hub's record of the change, the delivery.
    await service.waitForEvent('websub_store_recovered', { from, timeoutMs: PUBLISH_TIMEOUT / 4 });
    await service.waitForEvent('websub_topic_changed', { from, match: (e) => e.topic === urls.reviewsJson, timeoutMs: PUBLISH_TIMEOUT / 4 });
    const pushed = await t.sub.waitForNotification('/outage/reviews', (r) => r.body.includes('Dana explained'), PUBLISH_TIMEOUT / 4);
    expect(pushed.body.toString()).toContain('r-0003');
    expect(changesLogged(service, from).get(urls.reviewsJson)).toBe(1);
  }, PUBLISH_TIMEOUT);
});
