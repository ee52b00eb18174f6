/**
 * Builds are noticed without a ping (issue 24 item 3). Two sidecars share one build folder, each with
 * its own hub and subscriber; a build is swapped in with no ping at all (what a publish killed between
 * its swap and its pings leaves, or a publish pinging only one instance): both serve the new bytes,
 * the same bytes, within BUILD_CHECK_INTERVAL_MS plus the time to load the build (which the test
 * prints: seconds in this in-process test on a busy machine), and each hub notifies its subscriber.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { waitUntil } from '../websub/harness.ts';
import { useTestSubscriber } from '../websub/test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const INTERVAL_MS = 1_000;
const t = useTestSubscriber();
let work: string;
let contentDir: string;
let distDir: string;
const instances: Awaited<ReturnType<typeof startTestSidecar>>[] = [];
const callbackOf = (i: number) => `/watch/instance-${i}`;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'build-watch-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  for (const i of [0, 1]) {
    const sidecar = await startTestSidecar({
      distDir,
      publicUrl: PUBLIC,
      env: { DATA_DIR: path.join(work, `data-${i}`), WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', BUILD_CHECK_INTERVAL_MS: String(INTERVAL_MS) },
      sidecar: { callbackClient: { ca: t.ca.certPem } },
    });
    instances.push(sidecar);
    const res = await fetch(`${sidecar.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': createServiceUrls(PUBLIC).reviewsJson, 'hub.callback': t.sub.callback(callbackOf(i)) }).toString(),
    });
    expect(res.status).toBe(202);
    await sidecar.hub.settled();
    expect(t.sub.verifications(callbackOf(i))).toHaveLength(1);
  }
}, 180_000);

afterAll(async () => {
  for (const sidecar of instances) await sidecar.close();
  await rm(work, { recursive: true, force: true });
});

describe('a build swapped in without a ping', () => {
  it('is served by every instance sharing the folder, byte for byte, and each hub notifies', async () => {
    const file = path.join(contentDir, 'reviews', '2025-02.json');
    const reviews = JSON.parse(await readFile(file, 'utf8'));
    reviews.push({ id: 'r-0800', rating: 2, date: '2025-03-01', text: 'Nobody pinged about this one.', author: 'Sky', verified: true });
    await writeFile(file, JSON.stringify(reviews));
    const { manifest } = await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
    const swappedAt = Date.now();
    const expected = manifest.files['/reviews.json']!.etag;

    const bodies = await Promise.all(
      instances.map((sidecar) =>
        waitUntil(async () => {
          const res = await fetch(`${sidecar.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
          const body = Buffer.from(await res.arrayBuffer());
          return res.headers.get('etag') === expected ? { value: body } : undefined;
        }, 60_000),
      ),
    );
    const servedAfterMs = Date.now() - swappedAt;
    expect(bodies[0]!.equals(bodies[1]!)).toBe(true);
    for (const sidecar of instances) expect(sidecar.builds.current().id).toBe(manifest.build_id);
    for (const i of [0, 1]) {
      const pushed = await t.sub.waitForNotification(callbackOf(i), (r) => r.body.includes('r-0800'), 10_000);
      expect(pushed.body.equals(bodies[i]!)).toBe(true);
    }
    console.log(`build-watch: both instances served the new build ${servedAfterMs} ms after the swap (interval ${INTERVAL_MS} ms)`);
  }, 180_000);

  it('is not served when it was made for another PUBLIC_URL: the service keeps its build and names why', async () => {
    const serving = instances.map((sidecar) => sidecar.builds.current().id);
    const other = await buildTestSite({ contentDir, outDir: distDir, publicUrl: 'https://elsewhere.example.com' });
    for (const sidecar of instances) {
      expect(await sidecar.builds.refresh()).toBe(false);
      expect(sidecar.builds.failure()).toMatchObject({
        id: other.manifest.build_id,
        message: 'not swapped in: the build was made for PUBLIC_URL https://elsewhere.example.com, but this service runs with https://reviews.example.com',
      });
    }
    expect(instances.map((sidecar) => sidecar.builds.current().id)).toEqual(serving);
    const ready = (await (await fetch(`${instances[0]!.url}/readyz`)).json()) as { build: { failed: { build: string; message: string } | null } };
    expect(ready.build.failed).toMatchObject({ build: other.manifest.build_id, message: expect.stringContaining('made for PUBLIC_URL https://elsewhere.example.com') });
  }, 120_000);
});
