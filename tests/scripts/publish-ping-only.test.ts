/**
 * `npm run publish -- --ping-only <sidecar URL>`: a build deployed by other means (here, written into
 * the sidecar's DIST_DIR behind its back), then only the pings. The real sidecar on an ephemeral port
 * and a real HTTPS subscriber (test CA).
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import { runScript } from '../helpers/run-script.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { REVIEWS_CALLBACK as CALLBACK, startSubscribedService } from '../helpers/subscribed-service.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);

const publish = (args: string[], env: Record<string, string>) =>
  runScript(process.execPath, ['scripts/publish.ts', ...args], { env: { ...process.env, PUBLIC_URL: PUBLIC, ...env } });

let running: Awaited<ReturnType<typeof startSubscribedService>>;
let work: string;
let contentDir: string;
let distDir: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ping-only-'));
  contentDir = path.join(work, 'content');
  distDir = path.join(work, 'dist');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  running = await startSubscribedService({ contentDir, distDir, workDir: work, publicUrl: PUBLIC });
}, 120_000);

afterAll(() => running?.close());

describe('npm run publish -- --ping-only <sidecar URL>', () => {
  it('pings the sidecar’s hub for every topic, confirms it serves the build in DIST_DIR, and the subscriber gets it', async () => {
    const file = path.join(contentDir, 'business.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), telephone: '+1-555-010-4242' }));
    // Deployed elsewhere: the new build lands in the sidecar's folder, and nothing tells it.
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });

    const run = await publish(['--ping-only', `${running.service.url}/`], { DIST_DIR: distDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Pinged the hub at ${running.service.url}/api/websub/hub for ${urls.feedXml}, ${urls.feedJson}, ${urls.reviewsJson}, ${PUBLIC}/log/checkpoint.`);
    expect(run.stdout).toContain(`The sidecar serves the build in ${distDir}/`);
    const pushed = await running.subscriber.waitForNotification(CALLBACK, (r) => r.body.includes('555-010-4242'), 10_000);
    expect(JSON.parse(pushed.body.toString()).business.telephone).toBe('+1-555-010-4242');
  }, 120_000);

  it('without a local build it only pings, and says so', async () => {
    const run = await publish(['--ping-only', running.service.url], { DIST_DIR: path.join(work, 'no-build-here') });
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
    const run = await publish(['--ping-only', running.service.url], { DIST_DIR: distDir, PUBLIC_URL: 'https://elsewhere.example' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/answered 400 to the publish ping for https:\/\/elsewhere\.example\/feed\.xml/);
  });

  it.each([['not-a-url'], ['ftp://example.com']])('refuses %j as a sidecar URL', async (url) => {
    const run = await publish(['--ping-only', url], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not an http(s) URL of a sidecar');
  });
});
