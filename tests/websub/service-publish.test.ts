/**
 * The whole service, end to end: the real sidecar (startSidecar, its hub on the build-backed topics),
 * real HTTPS subscribers (test CA), and `npm run publish` run as a user runs it (scripts/publish.ts in
 * a child process, pinging the service). Changed topics are pushed with their exact bytes, type, Link
 * and signature; an unchanged topic notifies nobody; invalid content changes nothing anywhere.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import type { RunningSidecar } from '../../sidecar/server.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { createTestCa, type RecordedRequest, type TestCa } from '../../tools/lib/https-ca.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startSubscriber, type Subscriber } from './subscriber.ts';
import { PublishVerdictSchema } from '../../core/schemas/publish-verdict.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const SECRET = 'a shared secret';
/** Each publish is a full build: seconds, more on a busy machine. */
const PUBLISH_TIMEOUT = 120_000;
const TOPICS = [
  { name: 'feed.xml', url: urls.feedXml, path: '/feed.xml', callbackPath: '/sub/feed-xml', type: 'application/atom+xml; charset=utf-8' },
  { name: 'feed.json', url: urls.feedJson, path: '/api/feed.json', callbackPath: '/sub/feed-json', type: 'application/json; charset=utf-8' },
  { name: 'reviews.json', url: urls.reviewsJson, path: '/reviews.json', callbackPath: '/sub/reviews-json', type: 'application/json; charset=utf-8' },
] as const;

let ca: TestCa;
let sub: Subscriber;
let service: RunningSidecar;
let work: string;
let contentDir: string;
let distDir: string;

beforeAll(async () => {
  ca = createTestCa();
  sub = await startSubscriber(ca);
  work = await mkdtemp(path.join(tmpdir(), 'websub-service-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  // In process, NODE_EXTRA_CA_CERTS was read long ago: the callback client is given the test CA instead.
  service = await startTestSidecar({
    distDir,
    publicUrl: PUBLIC,
    env: {
      CONTENT_DIR: contentDir,
      DATA_DIR: path.join(work, 'data'),
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_RETRY_DELAYS_MS: '50,100',
    },
    sidecar: { callbackClient: { ca: ca.certPem } },
  });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await sub?.close();
  ca?.remove();
});

/** `npm run publish` against the running service, as a user runs it: environment only. */
function runPublish(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { port } = new URL(service.url);
  const child = spawn(process.execPath, ['scripts/publish.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: port, PUBLIC_URL: PUBLIC, CONTENT_DIR: contentDir, DIST_DIR: distDir, DATA_DIR: path.join(work, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function editReviews(file: string, edit: (reviews: Record<string, unknown>[]) => void) {
  const full = path.join(contentDir, 'reviews', file);
  const reviews = JSON.parse(await readFile(full, 'utf8'));
  edit(reviews);
  await writeFile(full, JSON.stringify(reviews, null, 2));
}

async function hubPost(form: Record<string, string>) {
  return fetch(`${service.url}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

const served = async (p: string) => {
  const res = await fetch(`${service.url}${p}`, { headers: { 'accept-encoding': 'identity' } });
  return { body: Buffer.from(await res.arrayBuffer()), etag: res.headers.get('etag') };
};

/** The hub has answered every ping and verification, and attempted every delivery it enqueued. */
async function quiet() {
  await service.hub.drained();
}

describe('topic discovery on the live service', () => {
  it.each(TOPICS)('$name answers GET and HEAD with its Link header', async ({ url, path: p, type }) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${service.url}${p}`, { method });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('link')).toBe(`<${urls.hub}>; rel="hub", <${url}>; rel="self"`);
    }
  });
});

describe('npm run publish with subscribers of every topic', () => {
  const notifications = (callbackPath: string) => sub.notifications(callbackPath);

  beforeAll(async () => {
    for (const t of TOPICS) {
      const extra: Record<string, string> = t.name === 'feed.xml' ? { 'hub.secret': SECRET } : {};
      const res = await hubPost({ 'hub.mode': 'subscribe', 'hub.topic': t.url, 'hub.callback': sub.callback(t.callbackPath), ...extra });
      expect(res.status).toBe(202);
    }
    await service.hub.settled();
    for (const t of TOPICS) expect(sub.verifications(t.callbackPath)).toHaveLength(1);
  }, PUBLISH_TIMEOUT);

  it('pushes a new review to the subscribers of all three topics: exact bytes, type, Link, signature', async () => {
    await editReviews('2025-02.json', (reviews) =>
      reviews.push({ id: 'r-0100', rating: 5, date: '2025-03-02', text: 'Published through the hub.', author: 'Quinn', verified: true }),
    );
    const run = await runPublish();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const t of TOPICS) expect(run.stdout).toContain(`\n  changed    ${t.url} (1 subscriber)\n`);
    expect(run.stdout).toContain('now serves build');
    expect(run.stdout).toContain('its hub is notifying 3 subscribers of the changed topics.');

    for (const t of TOPICS) {
      const pushed: RecordedRequest = await sub.waitForNotification(t.callbackPath, (r) => r.body.includes('r-0100'), 10_000);
      const live = await served(t.path);
      expect(pushed.body.equals(live.body), t.name).toBe(true);
      expect(pushed.headers['content-type']).toBe(t.type);
      expect(pushed.headers.link).toBe(`<${urls.hub}>; rel="hub", <${t.url}>; rel="self"`);
      if (t.name === 'feed.xml') {
        expect(pushed.headers['x-hub-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(pushed.body).digest('hex')}`);
      } else {
        expect(pushed.headers['x-hub-signature']).toBeUndefined();
      }
    }
    await quiet();
    for (const t of TOPICS) expect(notifications(t.callbackPath), t.name).toHaveLength(1);
  }, PUBLISH_TIMEOUT);

  it('notifies nobody for a topic whose bytes did not change', async () => {
    // The business's telephone number is in /reviews.json only, not in the feeds.
    const businessFile = path.join(contentDir, 'business.json');
    const business = JSON.parse(await readFile(businessFile, 'utf8'));
    await writeFile(businessFile, JSON.stringify({ ...business, telephone: '+1-555-010-2999' }));
    const run = await runPublish();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^The hub recorded \d+ topics: 1 changed, \d+ unchanged\.$/m);
    expect(run.stdout).toContain(`\n  changed    ${urls.reviewsJson} (1 subscriber)\n`);

    const pushed = await sub.waitForNotification('/sub/reviews-json', (r) => r.body.includes('555-010-2999'), 10_000);
    expect(pushed.body.equals((await served('/reviews.json')).body)).toBe(true);
    await quiet();
    expect(notifications('/sub/reviews-json')).toHaveLength(2);
    expect(notifications('/sub/feed-xml')).toHaveLength(1);
    expect(notifications('/sub/feed-json')).toHaveLength(1);
  }, PUBLISH_TIMEOUT);

  it('a publish of unchanged content notifies nobody', async () => {
    const run = await runPublish();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^The hub recorded \d+ topics: 0 changed, \d+ unchanged\.$/m);
    expect(run.stdout).toContain('its hub found no topic changed, so nobody is notified.');
    await quiet();
    expect(TOPICS.map((t) => notifications(t.callbackPath).length)).toEqual([1, 1, 2]);
  }, PUBLISH_TIMEOUT);

  it('invalid content stops the publish: the live site and the subscribers see nothing', async () => {
    const before = await Promise.all(TOPICS.map((t) => served(t.path)));
    const manifestBefore = await readFile(path.join(distDir, '_manifest.json'), 'utf8');
    await editReviews('2025-02.json', (reviews) =>
      reviews.push({ id: 'r-0101', rating: 9, date: '2025-03-03', text: 'Out of range.', author: 'Max', verified: true }),
    );
    const run = await runPublish();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Invalid content[\s\S]*reviews\/2025-02\.json, review r-0101, field rating/);
    expect(run.stdout).toBe('');

    await quiet();
    expect(await readFile(path.join(distDir, '_manifest.json'), 'utf8')).toBe(manifestBefore);
    const after = await Promise.all(TOPICS.map((t) => served(t.path)));
    expect(after.map((a) => a.etag)).toEqual(before.map((b) => b.etag));
    expect(TOPICS.map((t) => notifications(t.callbackPath).length)).toEqual([1, 1, 2]);
  }, PUBLISH_TIMEOUT);

  it('a ping after the build check recorded the swap still answers the build\'s verdict: changed, and for whom', async () => {
    await editReviews('2025-02.json', (reviews) => reviews.splice(reviews.findIndex((r) => r.id === 'r-0101'), 1));
    const businessFile = path.join(contentDir, 'business.json');
    await writeFile(businessFile, JSON.stringify({ ...JSON.parse(await readFile(businessFile, 'utf8')), telephone: '+1-555-010-3111' }));
    // Built behind the service's back: its build check notices, records and notifies, with no ping.
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC, dataDir: path.join(work, 'data') });
    await sub.waitForNotification('/sub/reviews-json', (r) => r.body.includes('555-010-3111'), 10_000);
    const answer = await hubPost({ 'hub.mode': 'publish', 'hub.url': urls.reviewsJson });
    expect(answer.status).toBe(202);
    const verdict = PublishVerdictSchema.parse(await answer.json());
    expect(verdict.topics[0]).toEqual({ topic: urls.reviewsJson, changed: true, subscribers: 1 });
    // The slice feeds of the same build come with it; none of them changed with a telephone number.
    expect(verdict.topics.length).toBeGreaterThan(1);
    expect(verdict.topics.slice(1).every((t) => t.topic.startsWith(`${PUBLIC}/feeds/`) && !t.changed)).toBe(true);
    await quiet();
    expect(TOPICS.map((t) => notifications(t.callbackPath).length)).toEqual([1, 1, 3]);
  }, PUBLISH_TIMEOUT);
});
