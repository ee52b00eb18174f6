/**
 * `npm run publish -- --ping-only <sidecar URL>`: a build deployed by other means (here, written into
 * the sidecar's DIST_DIR behind its back), then only the pings. The real sidecar on an ephemeral port
 * and a real HTTPS subscriber (test CA).
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import type { RunningSidecar } from '../../sidecar/server.ts';
import { createTestCa, type TestCa } from '../helpers/https-ca.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startSubscriber, type Subscriber } from '../websub/subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
const CALLBACK = '/sub/reviews-json';

function publish(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/publish.ts', ...args], { env: { ...process.env, PUBLIC_URL: PUBLIC, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

let ca: TestCa;
let sub: Subscriber;
let service: RunningSidecar;
let work: string;
let contentDir: string;
let distDir: string;

beforeAll(async () => {
  ca = createTestCa();
  sub = await startSubscriber(ca);
  work = await mkdtemp(path.join(tmpdir(), 'ping-only-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  service = await startTestSidecar({
    distDir,
    publicUrl: PUBLIC,
    env: { DATA_DIR: path.join(work, 'data'), WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true' },
    sidecar: { callbackClient: { ca: ca.certPem } },
  });
  const res = await fetch(`${service.url}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': urls.reviewsJson, 'hub.callback': sub.callback(CALLBACK) }).toString(),
  });
  expect(res.status).toBe(202);
  await service.hub.settled();
}, 120_000);

afterAll(async () => {
  await service?.close();
  await sub?.close();
  ca?.remove();
});

describe('npm run publish -- --ping-only <sidecar URL>', () => {
  it('pings the sidecar’s hub for every topic, confirms it serves the build in DIST_DIR, and the subscriber gets it', async () => {
    const file = path.join(contentDir, 'business.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), telephone: '+1-555-010-4242' }));
    // Deployed elsewhere: the new build lands in the sidecar's folder, and nothing tells it.
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });

    const run = await publish(['--ping-only', `${service.url}/`], { DIST_DIR: distDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Pinged the hub at ${service.url}/api/websub/hub for ${urls.feedXml}, ${urls.feedJson}, ${urls.reviewsJson}.`);
    expect(run.stdout).toContain(`The sidecar serves the build in ${distDir}/`);
    const pushed = await sub.waitForNotification(CALLBACK, (r) => r.body.includes('555-010-4242'), 10_000);
    expect(JSON.parse(pushed.body.toString()).business.telephone).toBe('+1-555-010-4242');
  }, 120_000);

  it('without a local build it only pings, and says so', async () => {
    const run = await publish(['--ping-only', service.url], { DIST_DIR: path.join(work, 'no-build-here') });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no build in');
  });

  it('fails when nothing answers at the URL', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const run = await publish(['--ping-only', `http://127.0.0.1:${port}`], { DIST_DIR: distDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Could not notify the sidecar: nothing answers at http://127.0.0.1:${port}`);
  });

  it('fails with the hub’s answer when the sidecar has another PUBLIC_URL', async () => {
    const run = await publish(['--ping-only', service.url], { DIST_DIR: distDir, PUBLIC_URL: 'https://elsewhere.example' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/answered 400 to the publish ping for https:\/\/elsewhere\.example\/feed\.xml/);
  });

  it.each([['not-a-url'], ['ftp://example.com']])('refuses %j as a sidecar URL', async (url) => {
    const run = await publish(['--ping-only', url], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not an http(s) URL of a sidecar');
  });
});
