/**
 * `npm run backup` and `npm run restore` (issue 19 item 6), as commands in their own processes, against
 * the hub's real SQLite file in WAL mode while a writer keeps saving subscriptions (the service's store,
 * opened as the sidecar opens it): the copy opens, holds a consistent state between what was saved
 * before and after it, and a restore into an empty DATA_DIR gives back every subscription it holds.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import { runScript } from '../helpers/run-script.ts';

const T0 = 1_700_000_000_000;
const FEED = 'https://reviews.example/feed.xml';

/** The command as `npm run <script> -- <args>` runs it, with the test's PostgreSQL URL left out of its environment. */
function run(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  return runScript(process.execPath, [`scripts/${script}.ts`, ...args], { env: { ...inherited, ...env } });
}

function idsIn(file: string, table: 'subscriptions' | 'deliveries'): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const column = table === 'subscriptions' ? 'id' : 'subscription_id';
    return db.prepare(`SELECT ${column} AS id FROM ${table} ORDER BY 1`).all().map((row) => String(row.id));
  } finally {
    db.close();
  }
}

describe('npm run backup / npm run restore', () => {
  it('copies the hub state during a burst of subscriptions, and restores every subscription the copy holds', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'backup-'));
    const dataDir = path.join(work, 'data');
    const store = createSqliteHubStore({ dataDir });
    let saved = 0;
    const save = () =>
      store.saveSubscription({ topic: FEED, callback: `https://sub${saved}.example/cb`, secret: null, leaseSeconds: 3600, expiresAt: T0 + 3_600_000 }, T0).then(() => (saved += 1));
    for (let i = 0; i < 200; i++) await save();
    await store.recordTopicContent({ topic: FEED, hash: 'h1', contentType: 'application/atom+xml', body: Buffer.from('<feed/>') }, T0);
    const before = saved;

    const backupFile = path.join(work, 'hub-backup.sqlite');
    const backup = run('backup', [backupFile], { DATA_DIR: dataDir });
    let backupDone = false;
    void backup.then(() => (backupDone = true));
    // The burst: the writer saves as fast as it can, yielding to the event loop, until the backup has exited.
    while (!backupDone) {
      await save();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const after = saved;
    const { code, stdout, stderr } = await backup;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(after).toBeGreaterThan(before);

    const held = idsIn(backupFile, 'subscriptions');
    expect(held.length).toBeGreaterThanOrEqual(before);
    expect(held.length).toBeLessThanOrEqual(after);
    expect(stdout).toContain(`Backed up ${held.length} subscriptions, 200 pending deliveries, 1 topic to ${backupFile}`);
    await store.close();

    const emptyDataDir = path.join(work, 'restored');
    const restored = await run('restore', [backupFile], { DATA_DIR: emptyDataDir });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`Restored ${held.length} subscriptions`);
    const reopened = createSqliteHubStore({ dataDir: emptyDataDir });
    try {
      expect((await reopened.listSubscriptions()).map((s) => s.id).sort()).toEqual(held);
      expect((await reopened.listPendingDeliveries()).length).toBe(200);
      expect((await reopened.readTopicSnapshot(FEED))?.hash).toBe('h1');
    } finally {
      await reopened.close();
    }

    // Never over an existing state, never over an existing file, never from something that is not a backup.
    const again = await run('restore', [backupFile], { DATA_DIR: emptyDataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^DATA_DIR already holds hub state .*websub\.sqlite\): stop the service and move it away first/);
    const overwrite = await run('backup', [backupFile], { DATA_DIR: dataDir });
    expect(overwrite.code).toBe(1);
    expect(overwrite.stderr).toContain('already exists');
    const notBackup = path.join(work, 'not-a-backup.sqlite');
    await writeFile(notBackup, 'hello');
    const bad = await run('restore', [notBackup], { DATA_DIR: path.join(work, 'other') });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Not restored: .*not-a-backup\.sqlite (cannot be|is not)/);
  }, 60_000);

  it('refuses, with one line naming the running service, to restore under a store another process holds', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'restore-locked-'));
    const dataDir = path.join(work, 'data');
    // The store as the running sidecar holds it: open, and locked, for as long as it runs.
    const store = createSqliteHubStore({ dataDir });
    try {
      await store.saveSubscription({ topic: FEED, callback: 'https://sub.example/cb', secret: null, leaseSeconds: 3600, expiresAt: T0 + 3_600_000 }, T0);
      const backupFile = path.join(work, 'hub-backup.sqlite');
      expect((await run('backup', [backupFile], { DATA_DIR: dataDir })).code).toBe(0);
      const refusal = `Not restored: a running service holds the hub's store in ${dataDir} (websub.sqlite.lock); stop it first, then restore.`;

      const inPlace = await run('restore', [backupFile], { DATA_DIR: dataDir });
      expect(inPlace.code).toBe(1);
      expect(inPlace.stderr).toContain(refusal);

      // The operator moved the file away but forgot to stop the service: still refused, nothing written.
      const file = path.join(dataDir, 'websub.sqlite');
      await rename(file, path.join(work, 'moved.sqlite'));
      await rename(`${file}-wal`, path.join(work, 'moved.sqlite-wal')).catch(() => {});
      const moved = await run('restore', [backupFile], { DATA_DIR: dataDir });
      expect(moved.code).toBe(1);
      expect(moved.stderr).toContain(refusal);
      expect(moved.stdout).toBe('');
      expect(existsSync(file)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('with DATABASE_URL, keeps the review log in the file and names the pg_dump and pg_restore commands for the websub schema', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'backup-postgres-'));
    const dataDir = path.join(work, 'data');
    const file = path.join(work, 'reviews.backup');
    const env = { DATABASE_URL: 'postgres://user@db.example/reviews', DATA_DIR: dataDir, DIST_DIR: path.join(work, 'dist') };
    await mkdir(path.join(dataDir, 'log-keys'), { recursive: true });
    await writeFile(path.join(dataDir, 'log-keys', 'key'), 'PRIVATE+KEY+example\n');
    const backup = await run('backup', [file], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Backed up 1 review log key and no published log to ${file}`);
    expect(backup.stdout).toContain(`pg_dump --schema=websub --format=custom --file=${file}.websub "$DATABASE_URL"`);
    expect(backup.stderr).toMatch(/^WARNING: .* holds the review log's PRIVATE signing key/);
    await rm(dataDir, { recursive: true });
    const restore = await run('restore', [file], env);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('Restored 1 review log key and no published log');
    expect(restore.stdout).toContain(`pg_restore --dbname="$DATABASE_URL" ${file}.websub`);
    expect(await readFile(path.join(dataDir, 'log-keys', 'key'), 'utf8')).toBe('PRIVATE+KEY+example\n');
    expect(await readdir(dataDir)).toEqual(['log-keys']);
  });
});
