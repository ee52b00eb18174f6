/**
 * The hub's store unavailable at start (issue 10 item 2): the service starts anyway, serves the site,
 * search and MCP, answers hub requests 503 `hub_unavailable` with Retry-After, prints one clear line
 * naming the variable, and opens the store once it is reachable. `/readyz` stays 200 all along (the
 * service can serve, so a proxy keeps it in rotation) and reports the store apart, as does the
 * `reviews_websub_store_up` metric.
 */
import { ReadinessSchema } from '../../core/schemas/readiness.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { waitUntil } from './harness.ts';
import { assertPostgresUp, startPostgresProxy } from './postgres.ts';

const PUBLIC = 'https://reviews.example.com';
let distDir: string;

beforeAll(async () => {
  ({ distDir } = await buildTestSite({ publicUrl: PUBLIC }));
});

const ping = (base: string) =>
  fetch(`${base}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': `${PUBLIC}/feed.xml` }).toString(),
  });

async function expectServingWithoutHub(base: string) {
  expect((await fetch(`${base}/reviews.json`)).status).toBe(200);
  expect((await fetch(`${base}/api/reviews/search?rating=5`)).status).toBe(200);
  const hub = await ping(base);
  expect(hub.status).toBe(503);
  expect(Number(hub.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await hub.json()).toMatchObject({ error: 'hub_unavailable' });
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  // Ready all the same (it can serve): the store is reported apart, and so is its metric.
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(ReadinessSchema.parse(await ready.json())).toMatchObject({ status: 'ready', store: { state: 'unavailable', detail: expect.stringContaining('WebSub store') } });
  expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^reviews_websub_store_up 0$/m);
}

async function waitUntilReady(base: string) {
  const storeOpen = async () => ReadinessSchema.parse(await (await fetch(`${base}/readyz`)).json()).store.state === 'open';
  await waitUntil(async () => ((await storeOpen()) ? { value: true } : undefined), 15_000);
  expect((await ping(base)).status).toBe(202);
  expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^reviews_websub_store_up 1$/m);
}

describe('DATA_DIR that cannot be written (the real process)', () => {
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill('SIGKILL'));

  it('serves anyway, says so in one line naming DATA_DIR, and opens the store once the folder can be made', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'store-unavailable-'));
    // A file where a folder must be: refused even to root, unlike a read-only mode.
    const blocker = path.join(work, 'blocker');
    await writeFile(blocker, 'not a folder');
    const dataDir = path.join(blocker, 'data');
    child = spawn(process.execPath, ['scripts/serve.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: PUBLIC, DIST_DIR: distDir, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const url = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', (c) => {
        stdout += c;
        const match = /"event":"listening","url":"([^"]+)"/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    await expectServingWithoutHub(url);

    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`DATA_DIR ${dataDir}`);
    expect(lines[0]).toMatch(/ENOTDIR/);
    expect(lines[0]).toMatch(/answers 503/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toContain('"event":"websub_store_unavailable"');

    await rm(blocker);
    await mkdir(dataDir, { recursive: true });
    await waitUntilReady(url);
    expect(stdout).toContain('"event":"websub_store_opened"');
  }, 40_000);
});

describe('DATABASE_URL that cannot be reached', () => {
  beforeAll(() => assertPostgresUp());

  it('serves anyway and opens the store once PostgreSQL answers', async () => {
    const { proxy, url } = await startPostgresProxy();
    await proxy.cut();
    const sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC, env: { DATABASE_URL: url, LOG_LEVEL: 'silent' } });
    try {
      await expectServingWithoutHub(sidecar.url);
      await proxy.restore();
      await waitUntilReady(sidecar.url);
    } finally {
      await sidecar.close();
      await proxy.close();
    }
  }, 40_000);
});

describe('the SQLite file deleted while the sidecar runs', () => {
  it('reports the store failing in /readyz naming the file (still ready: the site serves), and the hub answers 503', async () => {
    const sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC, sidecar: { hub: { storeCheckIntervalMs: 50 } } });
    try {
      expect((await fetch(`${sidecar.url}/readyz`)).status).toBe(200);
      await rm(path.join(sidecar.config.dataDir, 'websub.sqlite'));
      const ready = await waitUntil(async () => {
        const answer = await fetch(`${sidecar.url}/readyz`);
        const body = ReadinessSchema.parse(await answer.json());
        return body.store.state === 'failing' ? { value: { status: answer.status, body } } : undefined;
      });
      expect(ready.status).toBe(200);
      expect(ready.body.store.detail).toMatch(/websub\.sqlite was deleted/);
      expect(await (await fetch(`${sidecar.url}/metrics`)).text()).toMatch(/^reviews_websub_store_up 0$/m);
      const hub = await ping(sidecar.url);
      expect(hub.status).toBe(503);
    } finally {
      await sidecar.close();
    }
  }, 40_000);
});
