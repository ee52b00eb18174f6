import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../core/urls.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { findFreePort } from '../../tools/lib/free-port.ts';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';

const PUBLIC = 'https://reviews.example.org';
const urls = createServiceUrls(PUBLIC);

/** Runs `npm run publish`'s script as a user would, with environment variables only. */
function publish(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/publish.ts'], { env: { ...process.env, HOST: '127.0.0.1', PUBLIC_URL: PUBLIC, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function makeContent() {
  const work = await mkdtemp(path.join(tmpdir(), 'publish-'));
  const contentDir = path.join(work, 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  return { work, contentDir, distDir: path.join(work, 'dist') };
}

async function setTelephone(contentDir: string, telephone: string) {
  const file = path.join(contentDir, 'business.json');
  await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), telephone }));
}

/** Each publish is a full build (the static site and the search page's code): seconds, more on a busy machine. */
const PUBLISH_TIMEOUT = 120_000;

const manifestOf = async (distDir: string) => JSON.parse(await readFile(path.join(distDir, '_manifest.json'), 'utf8'));

describe('npm run publish with no service running', () => {
  it('builds, swaps the build in, records the change in the hub\'s store (a delivery queued per subscriber) and exits 0', async () => {
    const { work, contentDir, distDir } = await makeContent();
    const dataDir = path.join(work, 'data');
    const env = { CONTENT_DIR: contentDir, DIST_DIR: distDir, DATA_DIR: dataDir, PORT: String(await findFreePort()) };

    const first = await publish(env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    // The fixture's phone photo still carries its location: the report says so, and the build goes on.
    expect(first.stdout).toContain('Warning: media/r-0001/furnace.jpg, review r-0001, field media.0.file: the original still carries a GPS location');
    // The store's own verdict, per topic, slice feeds included: a new store has seen none of them.
    expect(first.stdout).toMatch(/^The hub's store recorded \d+ topics: (\d+) changed, 0 unchanged\.$/m);
    for (const topic of [urls.feedXml, urls.feedJson, urls.reviewsJson, `${PUBLIC}/log/checkpoint`, `${PUBLIC}/feeds/technicians/dana-whitfield.xml`]) {
      expect(first.stdout).toContain(`\n  changed    ${topic} (0 subscribers)\n`);
    }
    expect(first.stdout).toContain(`No service is running at http://127.0.0.1:${env.PORT}: the change is recorded in the hub's store (0 notifications queued)`);
    const built = await manifestOf(distDir);
    expect(first.stdout).toContain(`(build ${built.build_id})`);

    const subscriber = { topic: urls.reviewsJson, callback: 'https://subscriber.example/cb', secret: null, leaseSeconds: 3600, expiresAt: Date.now() + 3_600_000 };
    const before = createSqliteHubStore({ dataDir });
    await before.saveSubscription(subscriber, Date.now());
    await before.close();

    await setTelephone(contentDir, '+1-555-010-7777');
    const second = await publish(env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^The hub's store recorded \d+ topics: 1 changed, \d+ unchanged\.$/m);
    expect(second.stdout).toContain(`\n  changed    ${urls.reviewsJson} (1 subscriber)\n`);
    for (const topic of [urls.feedXml, urls.feedJson, `${PUBLIC}/log/checkpoint`]) expect(second.stdout).toContain(`\n  unchanged  ${topic}\n`);
    expect(second.stdout).toContain('the change is recorded in the hub\'s store (1 notification queued); the next start serves this build and sends them.');
    expect(await readFile(path.join(distDir, 'reviews.json'), 'utf8')).toContain('555-010-7777');
    const after = createSqliteHubStore({ dataDir });
    const stored = await after.readTopicSnapshot(urls.reviewsJson);
    expect(stored?.body.toString()).toContain('555-010-7777');
    expect((await after.listPendingDeliveries()).map((d) => [d.callback, d.hash])).toEqual([[subscriber.callback, stored!.hash]]);
    await after.close();
  }, PUBLISH_TIMEOUT);

  it('exits 1 naming the cause when the hub\'s store cannot record the change', async () => {
    const { work, contentDir, distDir } = await makeContent();
    const notAFolder = path.join(contentDir, 'business.json');
    // A log published before, its key then given in the environment (as on a CI runner): only the hub's store lacks its folder.
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
    const LOG_SIGNING_KEY = (await readFile(path.join(work, 'data', 'log-keys', encodeURIComponent('reviews.example.org/log')), 'utf8')).trim();
    await setTelephone(contentDir, '+1-555-010-6666');
    const run = await publish({ CONTENT_DIR: contentDir, DIST_DIR: distDir, DATA_DIR: notAFolder, LOG_SIGNING_KEY, PORT: String(await findFreePort()) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No service is running at http://127.0.0.1:');
    expect(run.stderr).toContain(`the change could not be recorded for the subscribers: WebSub store unavailable: DATA_DIR ${notAFolder} is not a writable folder`);
    expect(run.stderr).toContain('The build is in place; the next start serves it');
    expect((await manifestOf(distDir)).build_id).toEqual(expect.any(String));
  }, PUBLISH_TIMEOUT);

  it('stops on invalid content with the build error, exit 1, and leaves dist untouched', async () => {
    const { contentDir, distDir } = await makeContent();
    await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
    const before = await readFile(path.join(distDir, '_manifest.json'), 'utf8');
    await writeFile(path.join(contentDir, 'reviews', 'broken.json'), JSON.stringify([{ id: 'r-0200', rating: 5, date: '2025-13-01', text: 'x', author: 'y', verified: true }]));

    const run = await publish({ CONTENT_DIR: contentDir, DIST_DIR: distDir, PORT: String(await findFreePort()) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Invalid content: 1 problem\n {2}- reviews\/broken\.json, review r-0200, field date: /);
    expect(run.stderr).toContain('Nothing was published');
    expect(run.stdout).toBe('');
    expect(await readFile(path.join(distDir, '_manifest.json'), 'utf8')).toBe(before);
  }, PUBLISH_TIMEOUT);
});

/** New content, built, and the service running on it; `sidecarEnv` from the content's work folder. */
async function startServiceOnNewContent(sidecarEnv: (work: string) => Promise<Record<string, string>> = async () => ({})) {
  const made = await makeContent();
  await buildTestSite({ contentDir: made.contentDir, outDir: made.distDir, publicUrl: PUBLIC });
  const service = await startTestSidecar({ distDir: made.distDir, publicUrl: PUBLIC, env: await sidecarEnv(made.work) });
  // DATA_DIR as the first build had it (data/ beside dist/): the review log's key is there.
  const env = { CONTENT_DIR: made.contentDir, DIST_DIR: made.distDir, DATA_DIR: path.join(made.work, 'data'), PORT: new URL(service.url).port };
  return { service, contentDir: made.contentDir, env };
}

describe('npm run publish with the service running', () => {
  let service: Awaited<ReturnType<typeof startTestSidecar>>;
  let env: Record<string, string>;
  let contentDir: string;

  beforeAll(async () => {
    ({ service, env, contentDir } = await startServiceOnNewContent());
  }, PUBLISH_TIMEOUT);
  afterAll(() => service?.close());

  it('exits once the service serves the new build, with no restart', async () => {
    const before = await fetch(`${service.url}/reviews.json`).then((r) => r.json());
    await setTelephone(contentDir, '+1-555-010-8888');
    const run = await publish(env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`The service at http://127.0.0.1:${env.PORT} now serves build`);
    // No polling here: publish returned only after the service had swapped the build in.
    const after = await fetch(`${service.url}/reviews.json`).then((r) => r.json());
    expect(before.business.telephone).not.toBe('+1-555-010-8888');
    expect(after.business.telephone).toBe('+1-555-010-8888');
  }, PUBLISH_TIMEOUT);

  it('refuses with one line, before building, when its PUBLIC_URL is not the running service’s', async () => {
    const before = await readFile(path.join(env.DIST_DIR!, '_manifest.json'), 'utf8');
    const run = await publish({ ...env, PUBLIC_URL: 'https://elsewhere.example' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      `Nothing published: PUBLIC_URL here is https://elsewhere.example but the service at http://127.0.0.1:${env.PORT} runs with ${PUBLIC}; set the same PUBLIC_URL for both (in .env).`,
    );
    expect(await readFile(path.join(env.DIST_DIR!, '_manifest.json'), 'utf8')).toBe(before);
  }, PUBLISH_TIMEOUT);
});

describe('npm run publish when the hub cannot record the change', () => {
  let service: Awaited<ReturnType<typeof startTestSidecar>>;
  let env: Record<string, string>;
  let contentDir: string;

  beforeAll(async () => {
    // A file where the store's folder must be: the hub's store cannot open, the service serves anyway.
    ({ service, env, contentDir } = await startServiceOnNewContent(async (work) => {
      const blocker = path.join(work, 'blocker');
      await writeFile(blocker, 'not a folder');
      return { DATA_DIR: path.join(blocker, 'data') };
    }));
  }, PUBLISH_TIMEOUT);
  afterAll(() => service?.close());

  it('exits 4 naming the store: the build is served, and the hub records the change once its store opens', async () => {
    await setTelephone(contentDir, '+1-555-010-9999');
    const run = await publish(env);
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(`Not recorded by the hub yet: ${urls.topics().join(', ')}\n`);
    expect(run.stderr).toContain(`now serves build ${(await manifestOf(env.DIST_DIR!)).build_id}, but its hub could not record the change in its store (hub_unavailable: `);
    expect(run.stderr).toContain('Until then nobody is notified');
  }, PUBLISH_TIMEOUT);
});
