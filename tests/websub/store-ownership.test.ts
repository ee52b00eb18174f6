/**
 * The SQLite store's file is the service's alone, and every write reaches it (issue 31 item 1), tried as
 * an operator would: the real service process (`node scripts/serve.ts`) over a real build, a second
 * connection to its file from another process (what `sqlite3 websub.sqlite '…'` does), `kill -9`, a second
 * service on the same DATA_DIR, and pages overwritten on disk.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls, PATHS } from '../../core/urls.ts';
import { createSqliteHubStore, SQLITE_FILE_NAME } from '../../sidecar/websub/store/sqlite/store.ts';
import { lockStoreFile, StoreLockedError } from '../../sidecar/websub/store/sqlite/file.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';
import { startServiceProcess, stopServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { waitUntil } from './harness.ts';
import { useTestSubscriber } from './test-subscriber.ts';

const PUBLIC = 'https://reviews.example.com';
const urls = createServiceUrls(PUBLIC);
/** The service checks its store every 5 s (storeCheckIntervalMs): the old check closed a descriptor of the file each time. */
const STORE_CHECK_MS = 5_000;

const t = useTestSubscriber();
let env: Record<string, string>;
let work: string;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'websub-ownership-'));
  const contentDir = path.join(work, 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  const distDir = path.join(work, 'dist');
  await buildTestSite({ contentDir, outDir: distDir, publicUrl: PUBLIC });
  env = {
    PUBLIC_URL: PUBLIC,
    CONTENT_DIR: contentDir,
    DIST_DIR: distDir,
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    NODE_EXTRA_CA_CERTS: t.ca.certFile,
  };
});
afterAll(async () => {
  for (const s of services) await stopServiceProcess(s, 'SIGKILL');
});

async function startService(dataDir: string): Promise<ServiceProcess> {
  const service = await startServiceProcess({ ...env, DATA_DIR: dataDir });
  services.push(service);
  return service;
}

async function subscribeAll(service: ServiceProcess, paths: readonly string[]) {
  const verifiedBefore = service.output().split('websub_intent_verified').length - 1;
  for (const p of paths) {
    const res = await fetch(`${service.url}${PATHS.hub}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': urls.feedXml, 'hub.callback': t.sub.callback(p) }).toString(),
    });
    expect(res.status).toBe(202);
  }
  const verified = () => service.output().split('websub_intent_verified').length - 1 - verifiedBefore;
  await waitUntil(async () => (verified() === paths.length ? { value: true } : undefined), 15_000);
}

/**
 * `sqlite3 websub.sqlite 'select count(*) from subscriptions'`, as an operator types it: a read-write
 * connection from another process, then its close (which checkpoints and deletes the WAL when it finds no
 * other connection's lock). Debian's sqlite3 when installed; else the same through node:sqlite, whose newer
 * SQLite also looks at the shared-memory file's lock before deleting the WAL, so only the former could
 * show the old loss.
 */
function operatorCount(file: string): number {
  const cli = spawnSync('sqlite3', [file, 'select count(*) from subscriptions'], { encoding: 'utf8' });
  if (!cli.error) {
    expect(cli.status, cli.stderr).toBe(0);
    return Number(cli.stdout.trim());
  }
  const db = new DatabaseSync(file);
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM subscriptions').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe('the SQLite store belongs to one service process', () => {
  it("keeps every subscription through an operator's read of the file and a kill -9", async () => {
    const dataDir = path.join(work, 'data-operator');
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    const service = await startService(dataDir);
    const before = Array.from({ length: 5 }, (_, i) => `/ownership/before-${i}`);
    await subscribeAll(service, before);
    // Past one store check (the old one closed a descriptor of the file, dropping SQLite's locks): the
    // check's probe write is the next change of the write-ahead log once the subscriptions are saved.
    const wal = `${file}-wal`;
    const saved = statSync(wal).mtimeMs;
    await waitUntil(async () => (statSync(wal).mtimeMs > saved ? { value: true } : undefined), STORE_CHECK_MS + 5_000);
    expect(operatorCount(file)).toBe(5);

    const after = Array.from({ length: 5 }, (_, i) => `/ownership/after-${i}`);
    await subscribeAll(service, after);
    await stopServiceProcess(service, 'SIGKILL');
    expect(operatorCount(file)).toBe(10);
  }, 90_000);

  it('refuses a second service on the same DATA_DIR with one line, and keeps the first serving', async () => {
    const dataDir = path.join(work, 'data-twice');
    const first = await startService(dataDir);
    const second = spawn(process.execPath, ['scripts/serve.ts'], {
      env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk;
      // A second service that starts anyway (the old behaviour) is stopped once it says it listens.
      if (output.includes('"event":"listening"')) second.kill('SIGKILL');
    };
    second.stdout.on('data', read);
    second.stderr.on('data', read);
    const [code] = await once(second, 'exit');
    expect(code).toBe(1);
    expect(output).toContain(`The WebSub store ${path.join(dataDir, SQLITE_FILE_NAME)} is in use by another running process`);
    expect(output).not.toContain('"event":"listening"');
    expect(output).not.toMatch(/\n\s+at /);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    await stopServiceProcess(first);
    // Once the first is gone (here by SIGTERM; a kill -9 releases the lock too), the folder is free again.
    services.push(await startService(dataDir));
  }, 180_000);
  it('refuses while the lock is held as the versions before the shared lock held it: an upgrade started beside the old service', async () => {
    const dataDir = await mkdtemp(path.join(work, 'data-older-'));
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    // The older holder: a plain exclusive transaction on the lock file, its journal on disk.
    const script = `import { DatabaseSync } from 'node:sqlite';
const lock = new DatabaseSync(process.argv[1] + '.lock', { timeout: 0 });
lock.exec('BEGIN EXCLUSIVE');
console.log('held');
setInterval(() => {}, 1000);`;
    const older = spawn(process.execPath, ['--input-type=module', '-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(older.stdout, 'data')) as [Buffer];
      expect(line.toString().trim()).toBe('held');
      expect(() => lockStoreFile(file)).toThrow(StoreLockedError);
    } finally {
      older.kill('SIGKILL');
      await once(older, 'close');
    }
    lockStoreFile(file).release();
  });
});

describe('a corrupt store fails its check', () => {
  it('reports pages overwritten on disk, and keeps failing while they stay so', async () => {
    const dataDir = path.join(work, 'data-corrupt');
    const seeded = createSqliteHubStore({ dataDir });
    for (let i = 0; i < 400; i++) {
      const callback = `https://subscriber-${i}.example/callback/${'x'.repeat(100)}`;
      await seeded.saveSubscription({ topic: urls.feedXml, callback, secret: `secret-${i}`, leaseSeconds: 3600, expiresAt: Date.now() + 3_600_000 }, Date.now());
    }
    await seeded.close();
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    // Every check reads every page here; the service does so once a minute and after any corruption error.
    const store = createSqliteHubStore({ dataDir, integrityCheckIntervalMs: 0 });
    try {
      expect(await store.check()).toEqual({ ok: true });
      // The last pages (subscription rows and index entries) overwritten by another process, as a failing disk or a stray write would.
      const size = statSync(file).size;
      const overwrite = `const fs = require('node:fs'); const fd = fs.openSync(${JSON.stringify(file)}, 'r+'); fs.writeSync(fd, Buffer.alloc(${size / 2}, 0x5a), 0, ${size / 2}, ${size / 2}); fs.closeSync(fd);`;
      expect(spawnSync(process.execPath, ['-e', overwrite]).status).toBe(0);
      const first = await store.check();
      expect(first).toMatchObject({ ok: false, problem: expect.stringContaining(`${file} is corrupt`) });
      expect(await store.check()).toMatchObject({ ok: false });
    } finally {
      await store.close();
    }
  });
});
